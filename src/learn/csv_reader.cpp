// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// CSV with a header row (RFC 4180 quoting: "a, b" and "" for a quote; a quoted field may not span
// lines). Missing: an empty field, "NA" or "nan" (any case). A selected column with any present
// non-numeric value is categorical.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <set>

#include "dataset_internal.hpp"
#include "netdp/learn/dataset.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/csv_fields.hpp"
#include "netdp/util/memory.hpp"
#include "netdp/util/text_lines.hpp"

namespace netdp::learn {
namespace {

bool is_missing(const std::string& field) {
  std::string t;
  for (char c : field)
    if (c != ' ' && c != '\t') t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return t.empty() || t == "na" || t == "nan";
}

std::size_t column_index(const std::vector<std::string>& header, const std::string& name,
                         const std::string& path) {
  const auto it = std::find(header.begin(), header.end(), name);
  if (it == header.end()) {
    std::string names;
    for (const auto& h : header) names += (names.empty() ? "" : ", ") + h;
    require(false, "{}: no column '{}' in the header (columns: {})", path, name, names);
  }
  return static_cast<std::size_t>(it - header.begin());
}

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

}  // namespace

Dataset read_csv(const std::string& path, const CsvOptions& options) {
  require(!options.target_column.empty(), "read_csv({}): CsvOptions::target_column is required", path);
  std::ifstream in(path);
  require_readable(in.good(), "{}: cannot open (missing or unreadable)", path);
  util::TextLines lines(in, path);
  std::string line;
  require(lines.next(line), "{}: empty file (a header row is required)", path);
  const std::vector<std::string> header = util::split_csv(lines, line);

  const std::size_t target = column_index(header, options.target_column, path);
  std::vector<std::size_t> columns;
  if (options.feature_columns.empty()) {
    for (std::size_t c = 0; c < header.size(); ++c)
      if (c != target) columns.push_back(c);
  } else {
    for (const auto& name : options.feature_columns) {
      const std::size_t c = column_index(header, name, path);
      require(c != target, "{}: column '{}' is the target, it cannot also be a feature", path, name);
      require(std::find(columns.begin(), columns.end(), c) == columns.end(),
              "{}: feature column '{}' listed twice", path, name);
      columns.push_back(c);
    }
  }

  // Raw fields of the selected columns, row by row. What they hold is checked as they are read:
  // each field is a string (its object and its characters), each row a vector and its line number,
  // and the features become n x (columns + 1) doubles afterwards.
  std::vector<std::vector<std::string>> rows;
  std::vector<std::size_t> line_of;
  double held = 0.0;
  while (lines.next(line)) {
    if (util::is_blank(line)) continue;
    std::vector<std::string> fields = util::split_csv(lines, line);
    if (fields.size() != header.size())
      lines.fail(line, fmt::format("{} fields, the header has {}", fields.size(), header.size()));
    std::vector<std::string> row;
    row.reserve(columns.size() + 1);
    for (std::size_t c : columns) row.push_back(std::move(fields[c]));
    row.push_back(std::move(fields[target]));
    held += static_cast<double>(sizeof(std::vector<std::string>) + 2 * sizeof(std::size_t) +
                                (sizeof(std::string) + sizeof(double)) * row.size() + line.size());
    util::require_memory(
        2.0 * held, fmt::format("reading {}", path),
        fmt::format("{} rows of {} fields read so far, held as text and then as numbers, twice "
                    "for the growing buffers",
                    rows.size() + 1, row.size()),
        "use a smaller file or fewer columns");
    rows.push_back(std::move(row));
    line_of.push_back(lines.line_number());
  }
  require(!rows.empty(), "{}: no data rows after the header", path);
  const std::size_t n = rows.size(), t = columns.size();

  // Missing values: error, or drop the row (features and target alike).
  std::vector<bool> keep(n, true);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j <= t; ++j) {
      if (!is_missing(rows[i][j])) continue;
      const std::string& name = header[j == t ? target : columns[j]];
      require(options.missing != CsvOptions::Missing::error,
              "{}: line {}: column '{}' is missing (choose CsvOptions::Missing::drop_row or mean_impute)",
              path, line_of[i], name);
      require(j < t || options.missing == CsvOptions::Missing::drop_row,
              "{}: line {}: the target '{}' is missing (mean_impute fills features only; use drop_row)", path,
              line_of[i], name);
      if (options.missing == CsvOptions::Missing::drop_row) keep[i] = false;
    }
  }
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < n; ++i)
    if (keep[i]) kept.push_back(i);
  require(!kept.empty(), "{}: every row has a missing value (Missing::drop_row left nothing)", path);

  // Feature columns: numeric, or categorical (per options.categorical). Missing → NaN for now.
  Dataset data;
  std::vector<std::vector<double>> out_columns;
  for (std::size_t j = 0; j < t; ++j) {
    const std::string& name = header[columns[j]];
    std::vector<double> values(kept.size(), kMissing);
    std::set<std::string> categories;
    std::size_t first_text = n;
    for (std::size_t k = 0; k < kept.size(); ++k) {
      const std::string& field = rows[kept[k]][j];
      if (is_missing(field)) continue;
      if (!detail::parse_double(field, values[k])) {
        categories.insert(field);
        if (first_text == n) first_text = kept[k];
      }
    }
    if (categories.empty()) {
      out_columns.push_back(std::move(values));
      data.feature_names.push_back(name);
      continue;
    }
    require(options.categorical != CsvOptions::Categorical::error,
            "{}: line {}: column '{}' is categorical ('{}' is not a number; choose "
            "CsvOptions::Categorical::one_hot "
            "or drop)",
            path, line_of[first_text], name, rows[first_text][j]);
    if (options.categorical == CsvOptions::Categorical::drop) continue;
    // One-hot, categories in sorted order; numeric-looking values of the column are categories too.
    for (std::size_t k = 0; k < kept.size(); ++k) {
      const std::string& field = rows[kept[k]][j];
      if (!is_missing(field)) categories.insert(field);
    }
    for (const std::string& category : categories) {
      std::vector<double> indicator(kept.size());
      for (std::size_t k = 0; k < kept.size(); ++k) {
        const std::string& field = rows[kept[k]][j];
        indicator[k] = is_missing(field) ? kMissing : (field == category ? 1.0 : 0.0);
      }
      out_columns.push_back(std::move(indicator));
      data.feature_names.push_back(name + "=" + category);
    }
  }

  // Mean imputation over the rows where the value is present.
  for (std::size_t j = 0; j < out_columns.size(); ++j) {
    auto& values = out_columns[j];
    double sum = 0.0;
    std::size_t present = 0;
    for (double v : values)
      if (!std::isnan(v)) sum += v, ++present;
    require(present > 0, "{}: column '{}' has no value at all to impute from", path, data.feature_names[j]);
    for (double& v : values)
      if (std::isnan(v)) v = sum / static_cast<double>(present);
  }

  data.features.resize(static_cast<Eigen::Index>(kept.size()), static_cast<Eigen::Index>(out_columns.size()));
  for (std::size_t j = 0; j < out_columns.size(); ++j)
    for (std::size_t k = 0; k < kept.size(); ++k)
      data.features(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(j)) = out_columns[j][k];

  std::vector<std::string> labels;
  std::vector<std::size_t> label_lines;
  for (std::size_t i : kept) {
    labels.push_back(rows[i][t]);
    label_lines.push_back(line_of[i]);
  }
  detail::assign_targets(data, labels, options.task, label_lines, path);
  return data;
}

}  // namespace netdp::learn
