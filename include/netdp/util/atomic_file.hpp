#pragma once
// Writing a file so that a failure never leaves it half-written: the content goes to a temporary
// file in the same directory, which is flushed to disk and then renamed over the target (rename(2)
// replaces a file atomically within one file system).

#include <functional>
#include <iosfwd>
#include <string>

namespace netdp::util {

/// Calls `write` on a stream to a temporary file `<name>.tmp.<pid>.<n>` beside `path`, flushes it
/// (fsync) and renames it to `path`. If `write` throws or any step fails, the temporary file is
/// removed and `path` keeps its old content (or stays absent); the exception of `write` propagates,
/// an I/O failure throws std::invalid_argument naming `path`. A symbolic link is followed (its
/// target is replaced). A `path` that exists but is not a regular file (/dev/stdout, a pipe) cannot
/// be replaced and is written in place. A replaced file gets default permissions.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace netdp::util
