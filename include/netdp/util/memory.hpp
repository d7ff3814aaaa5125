#pragma once
// How much memory this machine has, for the checks that refuse a computation that would not fit
// before it starts (the error names the figure) instead of failing half-way with std::bad_alloc.

#include <cstdint>
#include <string>
#include <string_view>

namespace netdp::util {

/// The machine's physical memory in bytes (sysconf), or 0 when it cannot be read.
std::uint64_t physical_memory_bytes();

/// "1.5 GB", "320 MB": a byte count for messages.
std::string format_bytes(double bytes);

/// Throws std::invalid_argument when `bytes` exceeds the machine's physical memory: "<what> needs
/// about <bytes> (<formula>), more than the <memory> of this machine; <advice>". Does nothing when
/// the physical memory cannot be read.
void require_memory(double bytes, std::string_view what, std::string_view formula, std::string_view advice);

}  // namespace netdp::util
