// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "parse_list.hpp"

#include <sstream>

#include "netdp/util/check.hpp"

namespace netdp::cli {

std::vector<std::uint64_t> parse_unsigned_list(const std::string& list, const char* flag) {
  std::vector<std::uint64_t> values;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    std::size_t used = 0;
    unsigned long long value = 0;
    try {
      value = std::stoull(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    require(used == item.size() && !item.empty() && item[0] != '-',
            "{} '{}': '{}' is not a whole number (expected a comma-separated list like 1,5,7)", flag, list,
            item);
    values.push_back(value);
  }
  require(!values.empty(), "{} '{}' lists nothing", flag, list);
  return values;
}

}  // namespace netdp::cli
