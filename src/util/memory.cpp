// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The memory limit and the checks against it (memory.hpp).

#include "netdp/util/memory.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <charconv>
#include <cmath>
#include <mutex>

#include "netdp/util/check.hpp"

namespace netdp::util {
namespace {

std::atomic<double> g_memory_limit{0.0};

/// The largest estimate require_memory let pass, for out_of_memory_message.
struct LargestEstimate {
  std::mutex mutex;
  double bytes = 0.0;
  std::string what;
  std::string formula;
};

LargestEstimate& largest_estimate() {
  static LargestEstimate largest;
  return largest;
}

}  // namespace

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

std::string format_bytes(double bytes) {
  if (bytes >= 1e12) return fmt::format("{:.3g} TB", bytes / 1e12);
  if (bytes >= 1e9) return fmt::format("{:.3g} GB", bytes / 1e9);
  if (bytes >= 1e6) return fmt::format("{:.3g} MB", bytes / 1e6);
  return fmt::format("{:.3g} kB", bytes / 1e3);
}

double parse_memory_size(std::string_view text) {
  double value = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  require(ec == std::errc() && end != text.data(),
          "memory size '{}' is not a number of bytes with an optional unit k, M, G or T (e.g. 512M, 4G)",
          text);
  std::string_view unit = text.substr(static_cast<std::size_t>(end - text.data()));
  if (!unit.empty() && (unit.back() == 'B' || unit.back() == 'b')) unit.remove_suffix(1);
  double scale = 1.0;
  if (unit.size() == 1) {
    switch (std::tolower(static_cast<unsigned char>(unit[0]))) {
      case 'k':
        scale = 1e3;
        break;
      case 'm':
        scale = 1e6;
        break;
      case 'g':
        scale = 1e9;
        break;
      case 't':
        scale = 1e12;
        break;
      default:
        scale = 0.0;
    }
  }
  require(unit.size() <= 1 && scale > 0.0,
          "memory size '{}' has an unknown unit '{}' (use k, M, G or T, powers of 1000)", text, unit);
  const double bytes = value * scale;
  require(std::isfinite(bytes) && bytes > 0.0, "memory size '{}' must be a finite number of bytes > 0", text);
  return bytes;
}

void set_memory_limit(double bytes) {
  require(std::isfinite(bytes) && bytes >= 0.0,
          "a memory limit must be a finite number of bytes >= 0, got {}", bytes);
  g_memory_limit.store(bytes);
}

double memory_limit() {
  const double set = g_memory_limit.load();
  return set > 0.0 ? set : static_cast<double>(physical_memory_bytes());
}

void require_memory(double bytes, std::string_view what, std::string_view formula, std::string_view advice) {
  const double limit = memory_limit();
  if (limit <= 0.0) return;
  const bool from_option = g_memory_limit.load() > 0.0;
  if (bytes <= limit) {
    LargestEstimate& largest = largest_estimate();
    const std::lock_guard<std::mutex> lock(largest.mutex);
    if (bytes > largest.bytes) {
      largest.bytes = bytes;
      largest.what = what;
      largest.formula = formula;
    }
    return;
  }
  throw MemoryLimitError(
      fmt::format("{} needs about {} ({}), more than {}; {}{}", what, format_bytes(bytes), formula,
                  from_option ? fmt::format("the --max-memory limit of {}", format_bytes(limit))
                              : fmt::format("the {} of this machine", format_bytes(limit)),
                  advice, from_option ? ", or raise --max-memory" : " (--max-memory sets another limit)"));
}

std::string out_of_memory_message(std::string_view who, std::string_view limit_option) {
  std::string estimate;
  {
    LargestEstimate& largest = largest_estimate();
    const std::lock_guard<std::mutex> lock(largest.mutex);
    estimate = largest.bytes > 0.0 ? fmt::format("the largest memory estimate checked was {} for {} ({})",
                                                 format_bytes(largest.bytes), largest.what, largest.formula)
                                   : std::string("no memory estimate was checked before it");
  }
  const double limit = memory_limit();
  const bool from_option = g_memory_limit.load() > 0.0;
  return fmt::format(
      "{} ran out of memory: an allocation failed (std::bad_alloc) that no estimate covered; {}; the limit "
      "is {}{}; lower the sizes of the input (rounds, nodes, grid, features), or set {} below the memory "
      "the machine has free so that estimates refuse a run before it starts",
      who, estimate, limit > 0.0 ? format_bytes(limit) : std::string("unknown"),
      from_option ? fmt::format(" (set by {})", limit_option) : std::string(" (the machine's memory)"),
      limit_option);
}

}  // namespace netdp::util
