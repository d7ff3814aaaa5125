# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# Script mode (cmake -P): the man page netdp.1 from the command's own help, by Debian's help2man.
# The page is `netdp --help` and `--version`, then a COMMANDS section with each subcommand's
# `--help` as preformatted text, and a SEE ALSO section pointing to the documentation.
# Inputs: NETDP (the built binary), HELP2MAN, OUTPUT (the .1 file), WORK_DIR (scratch folder).
execute_process(COMMAND ${NETDP} --help OUTPUT_VARIABLE top RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "`${NETDP} --help` failed (${rc})")
endif()
# The subcommands are the indented names under "Subcommands:".
string(FIND "${top}" "Subcommands:" at)
string(SUBSTRING "${top}" ${at} -1 listed)
string(REGEX MATCHALL "\n  [a-z]+ " names "${listed}")
set(commands "")
foreach(entry IN LISTS names)
  string(STRIP "${entry}" name)
  execute_process(COMMAND ${NETDP} ${name} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "`${NETDP} ${name} --help` failed (${rc})")
  endif()
  # roff: a backslash is \e, and a line starting with a dot or a quote is escaped by \&.
  string(REPLACE "\\" "\\e" help "${help}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" help "${help}")
  string(APPEND commands ".SS \"netdp ${name}\"\n.nf\n${help}.fi\n")
endforeach()
file(MAKE_DIRECTORY ${WORK_DIR})
file(WRITE ${WORK_DIR}/netdp.h2m
     "[COMMANDS]\n${commands}\n"
     "[SEE ALSO]\nThe documentation (docs/ in the source, or the site `make docs` builds): "
     "tutorials, how-to guides, one reference page per module and the explanations of each number.\n"
     "Every command's options: \\fBnetdp help options\\fR.\n"
     "[COPYRIGHT]\nCopyright 2026 The netdp authors. Licensed under the Apache License, Version 2.0 "
     "(the LICENSE file, installed in share/doc/netdp).\n")
execute_process(COMMAND ${HELP2MAN} --no-info --no-discard-stderr
                        --name "pairwise privacy accounting for differentially private decentralized learning"
                        --section 1 --include ${WORK_DIR}/netdp.h2m --output ${OUTPUT} ${NETDP}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "help2man failed (${rc}): ${err}")
endif()
