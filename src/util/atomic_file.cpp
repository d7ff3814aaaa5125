#include "netdp/util/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "netdp/util/check.hpp"

namespace netdp::util {
namespace {

namespace fs = std::filesystem;

/// Flushes the file's data to the device, so that the renamed file is complete even after a crash.
bool sync_to_disk(const fs::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY);
  if (fd < 0) return false;
  const bool synced = ::fsync(fd) == 0;
  return ::close(fd) == 0 && synced;
}

/// Removes the temporary file unless released (after a successful rename).
class TemporaryFile {
 public:
  explicit TemporaryFile(fs::path path) : path_(std::move(path)) {}
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile() {
    if (!released_) {
      std::error_code ignored;
      fs::remove(path_, ignored);
    }
  }
  const fs::path& path() const { return path_; }
  void release() { released_ = true; }

 private:
  fs::path path_;
  bool released_ = false;
};

}  // namespace

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  require(!path.empty(), "cannot write a file with an empty name");
  fs::path target(path);
  std::error_code ignored;  // a missing file is not an error here
  if (fs::is_symlink(fs::symlink_status(target, ignored))) {
    std::error_code error;
    target = fs::canonical(target, error);
    require(!error, "cannot resolve the symbolic link '{}': {}", path, error.message());
  }
  const fs::file_status status = fs::status(target, ignored);
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    std::ofstream out(target, std::ios::binary);
    require(static_cast<bool>(out), "cannot open '{}' for writing", path);
    write(out);
    out.flush();
    require(static_cast<bool>(out), "failed to write '{}'", path);
    return;
  }
  static std::atomic<unsigned> counter{0};
  TemporaryFile temporary(
      target.parent_path() /
      (target.filename().string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++)));
  {
    std::ofstream out(temporary.path(), std::ios::binary | std::ios::trunc);
    require(static_cast<bool>(out), "cannot open '{}' for writing (temporary file '{}')", path,
            temporary.path().string());
    write(out);
    out.close();
    require(static_cast<bool>(out), "failed to write '{}' (temporary file '{}')", path,
            temporary.path().string());
  }
  require(sync_to_disk(temporary.path()), "failed to flush '{}' to disk (temporary file '{}')", path,
          temporary.path().string());
  std::error_code error;
  fs::rename(temporary.path(), target, error);
  require(!error, "cannot rename the temporary file '{}' to '{}': {}", temporary.path().string(), path,
          error.message());
  temporary.release();
}

}  // namespace netdp::util
