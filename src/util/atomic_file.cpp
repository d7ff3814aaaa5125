// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/util/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <system_error>

#include "netdp/util/check.hpp"

namespace netdp::util {
namespace {

namespace fs = std::filesystem;

// The temporary files a signal handler removes: a fixed table of C strings, since the handler may
// only call async-signal-safe functions (unlink, signal, raise) and read lock-free atomics.
constexpr std::size_t kSignalSlots = 16;
constexpr std::size_t kSignalPathBytes = 4096;

enum SlotState : int { kFree = 0, kFilling = 1, kArmed = 2 };

struct SignalSlot {
  std::atomic<int> state{kFree};
  std::array<char, kSignalPathBytes> path{};
};

std::array<SignalSlot, kSignalSlots> signal_slots;
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads the slots' state");

constexpr std::array<int, 3> kCleanupSignals = {SIGTERM, SIGINT, SIGHUP};

extern "C" void remove_temporaries_and_reraise(int signal_number) {
  for (SignalSlot& slot : signal_slots) {
    if (slot.state.load() == kArmed) ::unlink(slot.path.data());
  }
  // SA_RESETHAND has restored the default action and SA_NODEFER leaves the signal unblocked: the
  // process ends here with the signal's status.
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);
}

/// Installs the handler once, for each signal whose action is the default one (a signal the
/// process ignores, e.g. SIGHUP under nohup, stays ignored).
void install_signal_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const int signal_number : kCleanupSignals) {
      struct sigaction current {};
      if (::sigaction(signal_number, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) continue;
      struct sigaction action {};
      action.sa_handler = remove_temporaries_and_reraise;
      sigemptyset(&action.sa_mask);
      action.sa_flags = SA_RESETHAND | SA_NODEFER;
      ::sigaction(signal_number, &action, nullptr);
    }
  });
}

/// Flushes the file's data to the device, so that the renamed file is complete even after a crash.
bool sync_to_disk(const fs::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY);
  if (fd < 0) return false;
  const bool synced = ::fsync(fd) == 0;
  return ::close(fd) == 0 && synced;
}

/// Removes the temporary file unless released (after a successful rename), and while it exists
/// holds its absolute path in a slot of the signal handler's table.
class TemporaryFile {
 public:
  explicit TemporaryFile(fs::path path) : path_(std::move(path)) {
    install_signal_handlers();
    std::error_code error;
    const std::string absolute = fs::absolute(path_, error).string();
    if (error || absolute.size() >= kSignalPathBytes) return;  // not removed on a signal; still on failure
    for (std::size_t i = 0; i < kSignalSlots; ++i) {
      int expected = kFree;
      if (!signal_slots[i].state.compare_exchange_strong(expected, kFilling)) continue;
      std::memcpy(signal_slots[i].path.data(), absolute.c_str(), absolute.size() + 1);
      signal_slots[i].state.store(kArmed);
      slot_ = static_cast<int>(i);
      return;
    }
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile() {
    if (!released_) {
      std::error_code ignored;
      fs::remove(path_, ignored);
    }
    disarm();
  }
  const fs::path& path() const { return path_; }
  void release() {
    released_ = true;
    disarm();
  }

 private:
  void disarm() {
    if (slot_ >= 0) signal_slots[static_cast<std::size_t>(slot_)].state.store(kFree);
    slot_ = -1;
  }

  fs::path path_;
  bool released_ = false;
  int slot_ = -1;
};

/// The file `path` names is the one of the open file descriptor `fd` (same device and inode).
bool same_file_as(const std::string& path, int fd) {
  struct stat named {};
  struct stat open {};
  return ::stat(path.c_str(), &named) == 0 && ::fstat(fd, &open) == 0 && named.st_dev == open.st_dev &&
         named.st_ino == open.st_ino;
}

/// Writes to an already open standard stream and checks that everything reached it.
void write_to_stream(std::ostream& out, const std::string& what,
                     const std::function<void(std::ostream&)>& write) {
  check_written(out, what);  // an earlier failure would be reported as this write's
  write(out);
  out.flush();
  check_written(out, what);
}

/// The file write_file_atomically replaces for `path`: `path` itself, or the file its symbolic link
/// points to (the temporary file goes beside that one).
fs::path replaced_file(const std::string& path) {
  std::error_code ignored;  // a missing file is not an error here
  fs::path target(path);
  if (fs::is_symlink(fs::symlink_status(target, ignored))) {
    std::error_code error;
    target = fs::canonical(target, error);
    require(!error, "cannot resolve the symbolic link '{}': {}", path, error.message());
  }
  return target;
}

}  // namespace

void check_destination(const std::string& path, const std::string& what) {
  require(!path.empty(), "{}: cannot write a file with an empty name", what);
  if (is_standard_output(path) || same_file_as(path, STDERR_FILENO)) return;
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    require(!fs::is_directory(status), "{} '{}': is a folder, not a file", what, path);
    return;  // a FIFO or a device, written in place
  }
  fs::path folder = replaced_file(path).parent_path();
  if (folder.empty()) folder = ".";
  require(fs::is_directory(folder, error), "{} '{}': the folder '{}' does not exist", what, path,
          folder.string());
  const bool writable = ::access(folder.c_str(), W_OK | X_OK) == 0;
  const int reason = errno;
  require(writable, "{} '{}': cannot create files in the folder '{}': {}", what, path, folder.string(),
          std::strerror(reason));
}

bool is_standard_output(const std::string& path) { return path == "-" || same_file_as(path, STDOUT_FILENO); }

void check_written(const std::ostream& out, const std::string& what) {
  if (!out.fail()) return;
  const int error = errno;
  require(false, "cannot write to {}: {}", what, error != 0 ? std::strerror(error) : "write error");
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  require(!path.empty(), "cannot write a file with an empty name");
  if (is_standard_output(path)) return write_to_stream(std::cout, "standard output", write);
  if (same_file_as(path, STDERR_FILENO)) return write_to_stream(std::cerr, "standard error", write);
  std::error_code ignored;  // a missing file is not an error here
  // A path that exists (through any links) but is not a regular file: a FIFO, a device.
  const fs::file_status followed = fs::status(path, ignored);
  if (fs::exists(followed) && !fs::is_regular_file(followed)) {
    std::ofstream out(path, std::ios::binary);
    require(static_cast<bool>(out), "cannot open '{}' for writing", path);
    write(out);
    out.flush();
    require(static_cast<bool>(out), "failed to write '{}'", path);
    return;
  }
  const fs::path target = replaced_file(path);
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
