// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/util/option_spelling.hpp"

#include <algorithm>

namespace netdp::util {

std::string flag_of(std::string_view identifier) {
  std::string flag = "--" + std::string(identifier);
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

std::string spelled_as_flags(std::string_view message,
                             const std::function<bool(const std::string&)>& is_flag) {
  std::string out;
  out.reserve(message.size());
  std::size_t i = 0;
  while (i < message.size()) {
    const std::size_t open = message.find('`', i);
    const std::size_t close = open == std::string_view::npos ? open : message.find('`', open + 1);
    if (close == std::string_view::npos) break;
    const std::string_view inner = message.substr(open + 1, close - open - 1);
    const bool identifier = !inner.empty() && std::all_of(inner.begin(), inner.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
    const std::string flag = flag_of(inner);
    out.append(message.substr(i, open - i));
    if (identifier && is_flag(flag)) {
      out += flag;
    } else {
      out.append(message.substr(open, close - open + 1));
    }
    i = close + 1;
  }
  out.append(message.substr(std::min(i, message.size())));
  return out;
}

}  // namespace netdp::util
