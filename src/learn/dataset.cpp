// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/learn/dataset.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

#include "dataset_internal.hpp"
#include "netdp/util/check.hpp"

namespace netdp::learn {

Dataset Dataset::subset(const std::vector<std::size_t>& rows) const {
  Dataset out;
  out.task = task;
  out.num_classes = num_classes;
  out.feature_names = feature_names;
  out.class_names = class_names;
  out.features.resize(static_cast<Eigen::Index>(rows.size()), features.cols());
  out.targets.resize(static_cast<Eigen::Index>(rows.size()));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    require(rows[i] < size(), "Dataset::subset: row {} out of range (data set has {} examples)", rows[i],
            size());
    const auto r = static_cast<Eigen::Index>(rows[i]);
    out.features.row(static_cast<Eigen::Index>(i)) = features.row(r);
    out.targets(static_cast<Eigen::Index>(i)) = targets(r);
  }
  return out;
}

namespace detail {

bool parse_double(std::string_view text, double& value) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return false;
  text = text.substr(first, text.find_last_not_of(" \t") - first + 1);
  if (text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size() && std::isfinite(value);
}

namespace {

// Orders labels numerically when every label is a number, else lexicographically.
std::vector<std::string> sorted_distinct(const std::vector<std::string>& labels, bool numeric) {
  std::vector<std::string> distinct(labels);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  if (numeric) {
    std::stable_sort(distinct.begin(), distinct.end(), [](const std::string& a, const std::string& b) {
      double x = 0.0, y = 0.0;
      parse_double(a, x);
      parse_double(b, y);
      return x < y;
    });
    // "1" and "1.0" are the same class.
    std::vector<std::string> merged;
    double previous = 0.0;
    for (const auto& label : distinct) {
      double x = 0.0;
      parse_double(label, x);
      if (merged.empty() || x != previous) merged.push_back(label);
      previous = x;
    }
    distinct = std::move(merged);
  }
  return distinct;
}

}  // namespace

void assign_targets(Dataset& data, const std::vector<std::string>& labels, Task task,
                    const std::vector<std::size_t>& line_of, const std::string& source) {
  const std::size_t n = labels.size();
  data.task = task;
  data.targets.resize(static_cast<Eigen::Index>(n));
  data.class_names.clear();
  std::vector<double> values(n, 0.0);
  bool numeric = true;
  for (std::size_t i = 0; i < n; ++i) {
    if (!parse_double(labels[i], values[i])) {
      require(task != Task::regression, "{}: line {}: regression target '{}' is not a number", source,
              line_of[i], labels[i]);
      numeric = false;
    }
  }
  if (task == Task::regression) {
    data.num_classes = 0;
    for (std::size_t i = 0; i < n; ++i) data.targets(static_cast<Eigen::Index>(i)) = values[i];
    return;
  }
  if (task == Task::binary && numeric) {
    const bool signs =
        std::all_of(values.begin(), values.end(), [](double v) { return v == -1.0 || v == 0.0 || v == 1.0; });
    if (signs) {
      const bool minus = std::any_of(values.begin(), values.end(), [](double v) { return v == -1.0; });
      const bool zero = std::any_of(values.begin(), values.end(), [](double v) { return v == 0.0; });
      require(!(minus && zero), "{}: binary labels mix -1 and 0 (use {{-1, +1}} or {{0, 1}})", source);
      data.num_classes = 2;
      data.class_names = {minus ? "-1" : "0", "1"};
      for (std::size_t i = 0; i < n; ++i)
        data.targets(static_cast<Eigen::Index>(i)) = values[i] > 0.0 ? 1.0 : 0.0;
      return;
    }
  }
  const std::vector<std::string> classes = sorted_distinct(labels, numeric);
  if (task == Task::binary) {
    require(classes.size() == 2, "{}: a binary target needs exactly 2 distinct labels, found {}", source,
            classes.size());
  } else {
    require(classes.size() >= 2, "{}: a multiclass target needs at least 2 distinct labels, found {}", source,
            classes.size());
  }
  std::map<double, std::size_t> numeric_class;
  for (std::size_t c = 0; numeric && c < classes.size(); ++c) {
    double x = 0.0;
    parse_double(classes[c], x);
    numeric_class[x] = c;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c =
        numeric ? numeric_class.at(values[i])
                : static_cast<std::size_t>(std::lower_bound(classes.begin(), classes.end(), labels[i]) -
                                           classes.begin());
    data.targets(static_cast<Eigen::Index>(i)) = static_cast<double>(c);
  }
  data.num_classes = classes.size();
  data.class_names = classes;
}

}  // namespace detail
}  // namespace netdp::learn
