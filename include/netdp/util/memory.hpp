// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// The memory a run may take, for the checks that refuse a computation that would not fit before it
// starts (the error names the estimate and the limit) instead of failing half-way with
// std::bad_alloc. The limit is the machine's physical memory unless set (the CLI's --max-memory).

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace netdp::util {

/// The machine's physical memory in bytes (sysconf), or 0 when it cannot be read.
std::uint64_t physical_memory_bytes();

/// "1.5 GB", "320 MB": a byte count for messages.
std::string format_bytes(double bytes);

/// Parses a memory size: a number of bytes with an optional unit k, M, G or T (powers of 1000,
/// case-insensitive, an optional trailing B), e.g. "512M", "2.5G", "1e9". Throws
/// std::invalid_argument naming the text unless it is a finite number > 0 with a known unit.
double parse_memory_size(std::string_view text);

/// Sets the process-wide limit of require_memory in bytes (0: the machine's physical memory).
void set_memory_limit(double bytes);

/// The limit require_memory compares with: the one set, else the machine's physical memory (0 when
/// neither is known).
double memory_limit();

/// What require_memory throws: a std::invalid_argument (the command exits 2 on it, as on any bad
/// input), told apart so that the Python bindings raise MemoryError.
class MemoryLimitError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Throws MemoryLimitError when `bytes` exceeds memory_limit(): "<what> needs about <bytes>
/// (<formula>), more than the <limit> limit (...); <advice>". Does nothing when no limit is known.
void require_memory(double bytes, std::string_view what, std::string_view formula, std::string_view advice);

/// The message for a std::bad_alloc that escaped every estimate: "<who> ran out of memory ...",
/// naming the largest estimate require_memory let pass in this process (what needed how much), the
/// limit and the machine's memory, and how to lower the need or set a limit (`limit_option`, e.g.
/// "--max-memory").
std::string out_of_memory_message(std::string_view who, std::string_view limit_option);

}  // namespace netdp::util
