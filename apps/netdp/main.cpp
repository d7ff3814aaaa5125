// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The netdp command: parses arguments and hands over to the cli module.
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "netdp/cli/app.hpp"
#include "netdp/mpi/world.hpp"

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <unistd.h>
#endif

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;  // the sanitizer's allocator replaces glibc's
#else
constexpr bool kSanitized = false;
#endif

/// Settings the runtime libraries read only at process start, so the command starts itself again
/// once with them in its environment (a failed exec runs as is, with the environment as it was):
///
/// - Huge pages. An all-pairs run allocates its large buffers (observer × target grids,
///   eigenvectors, walk states) and touches each page once; on a virtual machine a 4 KB page fault
///   costs microseconds, a third of a whole hypercube run (docs/reference/performance.md, "Page faults").
///   glibc backs its allocations with transparent huge pages when the tunable
///   glibc.malloc.hugetlb=1 is set. NETDP_HUGE_PAGES=0, or a GLIBC_TUNABLES that already names
///   glibc.malloc.hugetlb, leaves it as it is.
/// - OMP_WAIT_POLICY=passive. An OpenMP thread that waits at a barrier spins for a while by default;
///   on a machine where another process keeps a core busy, the spinning threads take the time the
///   working ones need, and two threads ran 2.7 times slower than one (docs/reference/performance.md, "Busy
///   machines"). Passive threads sleep instead. An OMP_WAIT_POLICY the user set is kept.
void restart_with_runtime_settings([[maybe_unused]] char** argv) {
#if defined(__linux__) && defined(__GLIBC__)
  if (kSanitized) return;
  std::vector<std::pair<std::string, std::optional<std::string>>> previous;  // to undo a failed exec
  const auto set = [&](const char* name, const std::string& value) {
    const char* current = std::getenv(name);
    previous.emplace_back(name, current ? std::optional<std::string>(current) : std::nullopt);
    return setenv(name, value.c_str(), 1) == 0;
  };
  const char* huge = std::getenv("NETDP_HUGE_PAGES");
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  const std::string before = tunables != nullptr ? tunables : "";
  if ((huge == nullptr || std::string(huge) != "0") &&
      before.find("glibc.malloc.hugetlb") == std::string::npos)
    set("GLIBC_TUNABLES", before + (tunables != nullptr ? ":" : "") + "glibc.malloc.hugetlb=1");
  if (std::getenv("OMP_WAIT_POLICY") == nullptr) set("OMP_WAIT_POLICY", "passive");
  if (previous.empty()) return;
  execv("/proc/self/exe", argv);
  for (const auto& [name, value] : previous) {
    if (value) {
      setenv(name.c_str(), value->c_str(), 1);
    } else {
      unsetenv(name.c_str());
    }
  }
#endif
}

/// glibc gives the free memory at the top of a heap back to the kernel once it exceeds 128 KB
/// (M_TRIM_THRESHOLD; twice the largest block it has unmapped, once one was), and a thread's heap
/// does so with madvise(MADV_DONTNEED): every later allocation there faults its pages in again.
/// An accountant that solves one small problem per pair (an interior point on 100 × 100 matrices,
/// 9,900 times) and never frees a large block spent a fifth of its time in the kernel's page-fault
/// path (docs/reference/performance.md, "Freed memory kept"). So up to 8 MB of free memory stays at the top
/// of each heap, and blocks below 4 MB come from the heaps; larger ones are mapped and unmapped on
/// their own, so the large buffers of an all-pairs run are still returned (the peaks measured
/// before and after are in the same section).
void keep_freed_memory() {
#if defined(__linux__) && defined(__GLIBC__)
  if (kSanitized) return;
  mallopt(M_MMAP_THRESHOLD, 4 << 20);
  mallopt(M_TRIM_THRESHOLD, 8 << 20);
#endif
}

}  // namespace

/// NETDP_HUGE_PAGES, when set, must be 0 (off) or 1 (on, the default): another value, e.g. "off",
/// would otherwise be taken silently for on.
bool huge_pages_setting_is_valid() {
  const char* setting = std::getenv("NETDP_HUGE_PAGES");
  if (setting == nullptr || std::string(setting) == "0" || std::string(setting) == "1") return true;
  std::cerr << "netdp: error: NETDP_HUGE_PAGES must be 0 (off) or 1 (on, the default), got '" << setting
            << "'\n";
  return false;
}

int main(int argc, char** argv) {
  if (!huge_pages_setting_is_valid()) return 2;
  restart_with_runtime_settings(argv);
  keep_freed_memory();
  // Under mpirun, MPI for the life of the command (nothing otherwise); a failure on any rank ends
  // every rank.
  netdp::mpi::Session session(argc, argv);
  return session.finish(netdp::cli::run(argc, argv));
}
