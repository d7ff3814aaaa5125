// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the cli module: comma-separated lists of whole numbers ("1,5,7").

#include <cstdint>
#include <string>
#include <vector>

namespace netdp::cli {

/// Parses "a,b,c" into non-negative whole numbers; throws std::invalid_argument
/// naming `flag`, the list and the bad item (empty list, empty item, sign, junk).
std::vector<std::uint64_t> parse_unsigned_list(const std::string& list, const char* flag);

}  // namespace netdp::cli
