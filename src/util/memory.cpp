// The machine's memory and the checks against it (memory.hpp).

#include "netdp/util/memory.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include "netdp/util/check.hpp"

namespace netdp::util {

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

std::string format_bytes(double bytes) {
  if (bytes >= 1e9) return fmt::format("{:.3g} GB", bytes / 1e9);
  if (bytes >= 1e6) return fmt::format("{:.3g} MB", bytes / 1e6);
  return fmt::format("{:.3g} kB", bytes / 1e3);
}

void require_memory(double bytes, std::string_view what, std::string_view formula, std::string_view advice) {
  const std::uint64_t memory = physical_memory_bytes();
  if (memory == 0) return;
  require(bytes <= static_cast<double>(memory),
          "{} needs about {} ({}), more than the {} of this machine; {}", what, format_bytes(bytes), formula,
          format_bytes(static_cast<double>(memory)), advice);
}

}  // namespace netdp::util
