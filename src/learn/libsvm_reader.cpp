// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// LIBSVM / SVMlight text: "label index:value index:value ... [# comment]", 1-based indices;
// blank lines and '#' comments are skipped, a "qid:N" token is ignored. Absent indices are 0.
#include <charconv>
#include <fstream>
#include <set>

#include "dataset_internal.hpp"
#include "netdp/learn/dataset.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"
#include "netdp/util/text_lines.hpp"

namespace netdp::learn {
namespace {

struct SparseEntry {
  std::size_t row = 0;
  std::size_t column = 0;  ///< 0-based
  double value = 0.0;
};

}  // namespace

Dataset read_libsvm(const std::string& path, Task task, std::size_t num_features) {
  std::ifstream in(path);
  require_readable(in.good(), "{}: cannot open (missing or unreadable)", path);
  util::TextLines lines(in, path);
  std::string line;
  std::vector<std::string> labels;
  std::vector<std::size_t> line_of;
  std::vector<SparseEntry> entries;
  std::size_t max_index = 0;
  while (lines.next(line)) {
    const std::string_view content = std::string_view(line).substr(0, line.find('#'));
    if (util::is_blank(content)) continue;
    const auto tokens = util::split_whitespace(content);
    double label = 0.0;
    if (!detail::parse_double(tokens[0], label)) lines.fail(line, "the label is not a number");
    const std::size_t row = labels.size();
    labels.emplace_back(tokens[0]);
    line_of.push_back(lines.line_number());
    std::set<std::size_t> seen;
    for (std::size_t k = 1; k < tokens.size(); ++k) {
      const std::string_view token = tokens[k];
      const std::size_t colon = token.find(':');
      if (colon == std::string_view::npos) lines.fail(line, fmt::format("'{}' is not index:value", token));
      if (token.substr(0, colon) == "qid") continue;
      std::size_t index = 0;
      const auto [end, ec] = std::from_chars(token.data(), token.data() + colon, index);
      if (ec != std::errc() || end != token.data() + colon || index == 0)
        lines.fail(line, fmt::format("index '{}' is not an integer ≥ 1 (LIBSVM indices are 1-based)",
                                     token.substr(0, colon)));
      if (num_features != 0 && index > num_features)
        lines.fail(line, fmt::format("index {} exceeds num_features = {}", index, num_features));
      if (!seen.insert(index).second) lines.fail(line, fmt::format("index {} appears twice", index));
      double value = 0.0;
      if (!detail::parse_double(token.substr(colon + 1), value))
        lines.fail(line, fmt::format("value '{}' of index {} is not a finite number", token.substr(colon + 1),
                                     index));
      max_index = std::max(max_index, index);
      entries.push_back({row, index - 1, value});
    }
  }
  require(!labels.empty(), "{}: no examples (only blank or comment lines)", path);
  const std::size_t dim = num_features != 0 ? num_features : max_index;
  require(dim > 0, "{}: no feature index in any line and num_features = 0", path);

  // The features are held densely: the largest index sets the width, however sparse the file.
  util::require_memory(
      static_cast<double>(labels.size()) * static_cast<double>(dim) * 8.0 + static_cast<double>(dim) * 40.0,
      fmt::format("{}: {} examples of {} features (the largest feature index)", path, labels.size(), dim),
      "8 bytes per example and feature, held densely, and a name per feature",
      "renumber the features to remove unused large indices");
  Dataset data;
  data.features = DenseMatrix::Zero(static_cast<Eigen::Index>(labels.size()), static_cast<Eigen::Index>(dim));
  for (const SparseEntry& e : entries)
    data.features(static_cast<Eigen::Index>(e.row), static_cast<Eigen::Index>(e.column)) = e.value;
  for (std::size_t j = 1; j <= dim; ++j) data.feature_names.push_back(std::to_string(j));
  detail::assign_targets(data, labels, task, line_of, path);
  return data;
}

}  // namespace netdp::learn
