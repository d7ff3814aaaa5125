// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// One CSV record split into fields, shared by every CSV reader (graph edge
// lists, learn data tables) so that quoting rules and their errors are the same.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "netdp/util/text_lines.hpp"

namespace netdp::util {

// Splits one CSV record on commas (or another delimiter, a tab for TSV); a field may be wrapped in
// double quotes ("" inside quotes is a quote). Fields are trimmed of surrounding spaces and tabs.
inline std::vector<std::string> split_csv(const TextLines& lines, const std::string& line,
                                          char delimiter = ',') {
  std::vector<std::string> fields(1);
  bool quoted = false;
  bool was_quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      std::string_view so_far = fields.back();
      if (was_quoted || so_far.find_first_not_of(" \t") != std::string_view::npos) {
        lines.fail(line, "misplaced double quote");
      }
      fields.back().clear();
      quoted = was_quoted = true;
    } else if (c == delimiter) {
      fields.emplace_back();
      was_quoted = false;
    } else if (was_quoted && c != ' ' && c != '\t') {
      lines.fail(line, "text after a closing double quote");
    } else {
      fields.back() += c;
    }
  }
  if (quoted) lines.fail(line, "unterminated double quote");
  for (std::string& field : fields) {
    const std::size_t first = field.find_first_not_of(" \t");
    const std::size_t last = field.find_last_not_of(" \t");
    field = first == std::string::npos ? std::string{} : field.substr(first, last - first + 1);
  }
  return fields;
}

}  // namespace netdp::util
