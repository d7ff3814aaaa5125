# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# Script mode: install netdp into WORK_DIR/prefix and build a consumer project.
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
# The man page (from netdp --help, every subcommand included) and the licence are installed too.
set(man ${WORK_DIR}/prefix/share/man/man1/netdp.1)
if(NOT EXISTS ${man})
  message(FATAL_ERROR "cmake --install put no man page at ${man}")
endif()
file(READ ${man} page)
foreach(expected IN ITEMS ".TH NETDP \"1\"" ".SS \"netdp account\"" "--target-epsilon" "Apache")
  string(FIND "${page}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the installed man page has no '${expected}'")
  endif()
endforeach()
foreach(doc IN ITEMS LICENSE CHANGELOG.md)
  if(NOT EXISTS ${WORK_DIR}/prefix/share/doc/netdp/${doc})
    message(FATAL_ERROR "cmake --install put no ${doc} under ${WORK_DIR}/prefix/share/doc/netdp")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build
                        -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release
                        -DNETDP_EXAMPLES_DIR=${EXAMPLES_DIR}
                        "-DCMAKE_CXX_FLAGS=${CONSUMER_FLAGS}"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the consumer failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the consumer failed (${rc})")
endif()
execute_process(COMMAND ${WORK_DIR}/build/consumer RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message(STATUS "consumer printed: ${out}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "nodes=10 edges=10")
  message(FATAL_ERROR "the consumer did not run as expected (${rc}): ${out}")
endif()
execute_process(COMMAND ${WORK_DIR}/build/pairwise_account RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message(STATUS "pairwise_account printed: ${out}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "pairs=1122")
  message(FATAL_ERROR "the worked example of docs/reference/accounting.md did not run as expected (${rc}): ${out}")
endif()
# docs/reference/accounting.md shows the example verbatim: the block between its markers equals the file.
file(READ ${EXAMPLES_DIR}/cpp/pairwise_account.cpp example)
# Its licence header is not part of the example the page shows.
string(REGEX REPLACE "^(// SPDX-[^\n]*\n)+" "" example "${example}")
file(READ ${DOCS_DIR}/accounting.md doc)
string(FIND "${doc}" "${example}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "docs/reference/accounting.md does not show examples/cpp/pairwise_account.cpp verbatim")
endif()
# The Python package is installed under the prefix (not into the system) and imports from there.
if(PYTHON)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${WORK_DIR}/prefix/${PYTHON_DIR}
                          ${PYTHON} -c "import netdp; print(netdp.__file__, netdp.account('ring:n=5', rounds=3).summary['pairs'])"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "python printed: ${out}")
  if(NOT rc EQUAL 0 OR NOT out MATCHES "^${WORK_DIR}/prefix/.* 20")
    message(FATAL_ERROR "the installed Python package did not import from the prefix (${rc}): ${out} ${err}")
  endif()
endif()
