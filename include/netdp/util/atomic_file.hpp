// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Writing a file so that a failure never leaves it half-written: the content goes to a temporary
// file in the same directory, which is flushed to disk and then renamed over the target (rename(2)
// replaces a file atomically within one file system). A temporary file is removed when the write
// fails, and also when SIGTERM, SIGINT or SIGHUP ends the process while it is being written.

#include <functional>
#include <iosfwd>
#include <string>

namespace netdp::util {

/// Calls `write` on a stream to a temporary file `<name>.tmp.<pid>.<n>` beside `path`, flushes it
/// (fsync) and renames it to `path`. If `write` throws or any step fails, the temporary file is
/// removed and `path` keeps its old content (or stays absent); the exception of `write` propagates,
/// an I/O failure throws std::invalid_argument naming `path`. A symbolic link is followed (its
/// target is replaced). `-`, or a path that is the process's standard output or standard error
/// (/dev/stdout, /dev/stderr, or the file or pipe they are redirected to), is written to that stream
/// (std::cout, std::cerr) in place. Another path that exists but is not a regular file (a FIFO, a
/// device) cannot be replaced and is written in place. A replaced file gets default permissions.
///
/// While the temporary file exists, a handler of SIGTERM, SIGINT and SIGHUP (installed on first use
/// unless the signal is ignored) removes it, restores the signal's default action and raises the
/// signal again, so that the process ends with the signal's status and leaves no temporary file.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

/// Throws std::invalid_argument "<what> '<path>': <reason>" unless write_file_atomically could
/// create `path`: its folder exists and this process may create files in it (or `path` is standard
/// output or an existing non-regular file, written in place). A long computation checks its output
/// paths with it first, rather than fail at the end.
void check_destination(const std::string& path, const std::string& what);

/// Whether `path` names the process's standard output: `-`, or a path whose file is the one file
/// descriptor 1 refers to (/dev/stdout, /proc/self/fd/1, the file stdout is redirected to).
bool is_standard_output(const std::string& path);

/// Throws std::invalid_argument "cannot write to <what>: <reason>" when `out` has failed (its
/// failbit or badbit is set), the reason taken from errno when it is set. `what` is e.g. "standard
/// output" or "'file.json'".
void check_written(const std::ostream& out, const std::string& what);

}  // namespace netdp::util
