// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shared by the fuzz targets: each defines LLVMFuzzerTestOneInput over one reader or parser. A bad
// input must be refused with std::invalid_argument (the CLI's exit code 2, see docs/reference/errors.md);
// anything else (a crash, a sanitizer report, another exception, a hang) is a finding.
// Built two ways (fuzz/CMakeLists.txt): with libFuzzer (`make fuzz`, clang) and with
// replay_main.cpp, which runs the kept corpus in tests/fuzz/corpus/ under `make test`.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>

#include "netdp/util/memory.hpp"

namespace netdp::fuzz {

/// Every target runs as under `--max-memory 64M`: an input whose estimate exceeds it is refused
/// (std::invalid_argument), so libFuzzer's own memory limit (2 GB in `make fuzz`) only reports
/// allocations that escaped an estimate, and inputs stay small enough to run fast under ASan.
inline const bool kMemoryLimitSet = (util::set_memory_limit(64e6), true);

inline std::string bytes_of(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

/// Calls f; a std::invalid_argument is the expected refusal and is swallowed.
template <class F>
void refuses_cleanly(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument&) {
  }
}

/// The bytes written to a file of this process (for the readers that take a path).
inline std::string temporary_file(const std::string& tag, const std::string& bytes) {
  const std::string path = "/tmp/netdp-fuzz-" + std::to_string(::getpid()) + "-" + tag;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace netdp::fuzz
