// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Every field of `netdp account`'s summary recomputed from the rows it summarises, for every
// accountant and for the JSON and CSV outputs.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"

namespace netdp::cli {
namespace {

using testing::CliResult;
using testing::run_cli;
using Json = nlohmann::json;

/// One row as the tests need it, read from a JSON pair or a CSV line.
struct Row {
  std::string observer;
  std::optional<double> distance;
  double epsilon = 0.0;
  std::optional<double> mu;
  bool capped = false;
  std::optional<bool> condition_ok;
};

std::optional<double> number_or_null(const Json& j) {
  return j.is_null() ? std::nullopt : std::optional<double>(j.get<double>());
}

std::vector<Row> rows_of_json(const Json& pairs) {
  std::vector<Row> rows;
  for (const Json& p : pairs) {
    Row r;
    r.observer = p["observer"].dump();
    r.distance = number_or_null(p["distance"]);
    r.epsilon = p["epsilon"].get<double>();
    r.mu = number_or_null(p["mu"]);
    r.capped = p["capped"].get<bool>();
    if (p.contains("condition_ok")) r.condition_ok = p["condition_ok"].get<bool>();
    rows.push_back(r);
  }
  return rows;
}

// CSV cells: a quoted cell may hold commas; "" inside quotes is a quote.
std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      cells.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  return cells;
}

std::vector<Row> rows_of_csv(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = csv_cells(line);
  const auto column = [&header](const std::string& name) -> std::optional<std::size_t> {
    const auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? std::nullopt : std::optional<std::size_t>(it - header.begin());
  };
  const auto cell_number = [](const std::string& cell) {
    return cell.empty() ? std::nullopt : std::optional<double>(std::stod(cell));
  };
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    const std::vector<std::string> cells = csv_cells(line);
    EXPECT_EQ(cells.size(), header.size()) << line;
    if (cells.size() != header.size()) break;
    Row r;
    r.observer = cells[column("observer").value()];
    r.distance = cell_number(cells[column("distance").value()]);
    r.epsilon = std::stod(cells[column("epsilon").value()]);
    r.mu = cell_number(cells[column("mu").value()]);
    r.capped = cells[column("capped").value()] == "true";
    if (const auto c = column("condition_ok")) r.condition_ok = cells[*c] == "true";
    rows.push_back(r);
  }
  return rows;
}

/// The smallest value with at least a fraction q of the values at or below it.
double quantile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size())));
  return values[std::min(values.size() - 1, rank == 0 ? 0 : rank - 1)];
}

struct Stats {
  std::size_t count = 0;
  double min = INFINITY;
  double max = -INFINITY;
  double sum = 0.0;
  void add(double x) {
    ++count;
    min = std::min(min, x);
    max = std::max(max, x);
    sum += x;
  }
  double mean() const { return sum / static_cast<double>(count); }
};

void expect_close(const Json& reported, double recomputed, const std::string& what) {
  ASSERT_TRUE(reported.is_number()) << what << ": " << reported.dump();
  EXPECT_NEAR(reported.get<double>(), recomputed, 1e-12 * std::max(1.0, std::abs(recomputed))) << what;
}

// Checks every field of `summary` that the rows determine.
void expect_summary_matches_rows(const Json& summary, const std::vector<Row>& rows,
                                 const std::string& label) {
  SCOPED_TRACE(label);
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(summary["pairs"].get<std::size_t>(), rows.size());
  Stats epsilon;
  Stats mu;
  std::vector<double> epsilons;
  std::size_t capped = 0;
  std::size_t condition_failed = 0;
  std::map<double, std::pair<Stats, Stats>> by_distance;  // distance (−1: none) → ε, μ
  std::map<std::string, Stats> by_observer;
  for (const Row& r : rows) {
    epsilon.add(r.epsilon);
    epsilons.push_back(r.epsilon);
    if (r.mu) mu.add(*r.mu);
    capped += r.capped ? 1 : 0;
    condition_failed += r.condition_ok == false ? 1 : 0;
    auto& group = by_distance[r.distance.value_or(-1.0)];
    group.first.add(r.epsilon);
    if (r.mu) group.second.add(*r.mu);
    by_observer[r.observer].add(r.epsilon);
  }
  expect_close(summary["epsilon_min"], epsilon.min, "epsilon_min");
  expect_close(summary["epsilon_mean"], epsilon.mean(), "epsilon_mean");
  expect_close(summary["epsilon_max"], epsilon.max, "epsilon_max");
  expect_close(summary["epsilon_median"], quantile(epsilons, 0.5), "epsilon_median");
  expect_close(summary["epsilon_p90"], quantile(epsilons, 0.9), "epsilon_p90");
  expect_close(summary["epsilon_p99"], quantile(epsilons, 0.99), "epsilon_p99");
  if (mu.count > 0) {
    expect_close(summary["mu_max"], mu.max, "mu_max");
  } else {
    EXPECT_TRUE(summary["mu_max"].is_null());
  }
  EXPECT_EQ(summary["capped_pairs"].get<std::size_t>(), capped);
  EXPECT_EQ(summary["condition_failed_pairs"].get<std::size_t>(), condition_failed);
  // A condition failure is always announced, with its total.
  if (condition_failed > 0) {
    const std::string total =
        std::to_string(condition_failed) + " of " + std::to_string(rows.size()) + " pairs";
    EXPECT_NE(summary["warnings"].dump().find(total), std::string::npos) << summary["warnings"].dump();
  }
  EXPECT_GE(summary["warnings_total"].get<std::size_t>(), summary["warnings"].size());

  ASSERT_EQ(summary["by_distance"].size(), by_distance.size());
  for (const Json& d : summary["by_distance"]) {
    const double key = d["distance"].is_null() ? -1.0 : d["distance"].get<double>();
    ASSERT_TRUE(by_distance.contains(key)) << d.dump();
    const auto& [e, m] = by_distance[key];
    const std::string at = "distance " + d["distance"].dump();
    EXPECT_EQ(d["pairs"].get<std::size_t>(), e.count) << at;
    expect_close(d["epsilon_min"], e.min, at + " epsilon_min");
    expect_close(d["epsilon_mean"], e.mean(), at + " epsilon_mean");
    expect_close(d["epsilon_max"], e.max, at + " epsilon_max");
    if (m.count > 0) {
      expect_close(d["mu_min"], m.min, at + " mu_min");
      expect_close(d["mu_mean"], m.mean(), at + " mu_mean");
      expect_close(d["mu_max"], m.max, at + " mu_max");
    } else {
      EXPECT_TRUE(d["mu_max"].is_null()) << at;
    }
  }
  ASSERT_EQ(summary["per_observer"].size(), by_observer.size());
  for (const Json& o : summary["per_observer"]) {
    const std::string key = o["observer"].dump();
    ASSERT_TRUE(by_observer.contains(key)) << key;
    expect_close(o["epsilon_mean"], by_observer[key].mean(), "observer " + key + " epsilon_mean");
    expect_close(o["epsilon_max"], by_observer[key].max, "observer " + key + " epsilon_max");
  }
}

// Checks the human table's overall ε line and distance rows against the JSON summary.
void expect_table_matches_summary(const std::string& table, const Json& summary, const std::string& label) {
  SCOPED_TRACE(label + "(table)");
  const auto close = [](double printed, const Json& value) {
    return std::abs(printed - value.get<double>()) <= 1e-5 * std::max(1e-300, std::abs(value.get<double>()));
  };
  std::istringstream in(table);
  std::string line;
  bool overall = false;
  std::size_t distance_rows = 0;
  bool in_distances = false;
  while (std::getline(in, line)) {
    if (line.rfind("epsilon over ", 0) == 0) {
      std::size_t pairs = 0;
      double lo = 0.0;
      double mean = 0.0;
      double hi = 0.0;
      ASSERT_EQ(std::sscanf(line.c_str(), "epsilon over %zu pairs: min %lf mean %lf max %lf", &pairs, &lo,
                            &mean, &hi),
                4)
          << line;
      EXPECT_EQ(pairs, summary["pairs"].get<std::size_t>());
      EXPECT_TRUE(close(lo, summary["epsilon_min"]) && close(mean, summary["epsilon_mean"]) &&
                  close(hi, summary["epsilon_max"]))
          << line;
      overall = true;
    } else if (line.find("distance") != std::string::npos && line.find("pairs") != std::string::npos) {
      in_distances = true;
    } else if (in_distances) {
      if (line.empty()) {
        in_distances = false;
        continue;
      }
      ASSERT_LT(distance_rows, summary["by_distance"].size()) << line;
      const Json& d = summary["by_distance"][distance_rows++];
      char distance[32] = {};
      std::size_t pairs = 0;
      double lo = 0.0;
      double mean = 0.0;
      double hi = 0.0;
      ASSERT_EQ(std::sscanf(line.c_str(), "%31s %zu %lf %lf %lf", distance, &pairs, &lo, &mean, &hi), 5)
          << line;
      EXPECT_EQ(std::string(distance), d["distance"].is_null() ? "-" : d["distance"].dump()) << line;
      EXPECT_EQ(pairs, d["pairs"].get<std::size_t>()) << line;
      EXPECT_TRUE(close(lo, d["epsilon_min"]) && close(mean, d["epsilon_mean"]) &&
                  close(hi, d["epsilon_max"]))
          << line;
    }
  }
  EXPECT_TRUE(overall) << table;
  EXPECT_EQ(distance_rows, summary["by_distance"].size()) << table;
}

Json parse_json(const std::string& text) {
  Json j = Json::parse(text, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << text.substr(0, 400);
  return j;
}

// One case per accountant and threat model; the rows of --json and of --csv are each checked
// against the summary (the CSV's summary comes from --json --summary-only of the same command).
class SummaryMatchesRows : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(SummaryMatchesRows, InJsonAndCsv) {
  std::vector<std::string> args = {"account", "--quiet"};
  for (const std::string& a : GetParam()) args.push_back(a);
  std::string label;
  for (const std::string& a : GetParam()) label += a + " ";

  std::vector<std::string> json_args = args;
  json_args.push_back("--json");
  const CliResult json_run = run_cli(json_args);
  ASSERT_EQ(json_run.status, 0) << json_run.err;
  const Json full = parse_json(json_run.out);
  ASSERT_TRUE(full.contains("pairs") && full.contains("summary"));
  expect_summary_matches_rows(full["summary"], rows_of_json(full["pairs"]), label + "--json");

  std::vector<std::string> csv_args = args;
  csv_args.push_back("--csv");
  const CliResult csv_run = run_cli(csv_args);
  ASSERT_EQ(csv_run.status, 0) << csv_run.err;
  json_args.push_back("--summary-only");
  const CliResult summary_run = run_cli(json_args);
  ASSERT_EQ(summary_run.status, 0) << summary_run.err;
  const Json summary_only = parse_json(summary_run.out);
  EXPECT_FALSE(summary_only.contains("pairs"));
  expect_summary_matches_rows(summary_only["summary"], rows_of_csv(csv_run.out), label + "--csv");

  // The human table prints the same summary (6 significant digits): the overall line and one line
  // per distance, "distance pairs min mean max".
  const CliResult human = run_cli(args);
  ASSERT_EQ(human.status, 0) << human.err;
  expect_table_matches_summary(human.out, summary_only["summary"], label);
}

INSTANTIATE_TEST_SUITE_P(
    EveryAccountant, SummaryMatchesRows,
    ::testing::Values(
        std::vector<std::string>{"--graph", "karate", "--method", "muffliato", "--rounds", "6"},
        std::vector<std::string>{"--graph", "path:n=5", "--weights", "hamilton", "--method", "muffliato",
                                 "--rounds", "4", "--sigma", "0.3"},
        std::vector<std::string>{"--graph", "karate", "--method", "muffliato", "--rounds", "6", "--bound",
                                 "paper"},
        std::vector<std::string>{"--graph", "ring:n=8", "--method", "muffliato", "--rounds", "3",
                                 "--gradient-steps", "2"},
        std::vector<std::string>{"--graph", "ring:n=9", "--method", "muffliato", "--rounds", "4",
                                 "--colluders", "0,4"},
        std::vector<std::string>{"--graph", "ring:n=8", "--method", "muffliato", "--rounds",
                                 "5", "--schedule", "er-per-round:p=0.5"},
        std::vector<std::string>{"--graph", "ring:n=8", "--method", "random-walk", "--rounds",
                                 "400", "--sigma", "1"},
        std::vector<std::string>{"--graph", "exponential:n=16", "--method", "random-walk", "--rounds",
                                 "160", "--sigma", "4"},
        std::vector<std::string>{"--graph", "ring:n=8", "--method", "linear-system", "--rounds", "5"},
        std::vector<std::string>{"--graph", "ring:n=7", "--method", "linear-system", "--rounds", "4",
                                 "--view", "plain", "--sigma", "0.5"},
        std::vector<std::string>{"--graph", "ring:n=9", "--method", "linear-system", "--rounds", "4",
                                 "--colluders", "0,4"},
        std::vector<std::string>{"--graph", "er:n=30,p=0.2,seed=3,connected=1", "--method", "mf", "--rounds",
                                 "8"},
        std::vector<std::string>{"--graph", "ring:n=8", "--method", "mf", "--rounds", "6", "--trust", "ldp"}),
    [](const ::testing::TestParamInfo<std::vector<std::string>>& info) {
      // e.g. "random_walk_6": the method and the case's index.
      const auto method = std::find(info.param.begin(), info.param.end(), "--method");
      std::string name = method + 1 < info.param.end() ? *(method + 1) : "case";
      std::replace(name.begin(), name.end(), '-', '_');
      return name + "_" + std::to_string(info.index);
    });

}  // namespace
}  // namespace netdp::cli
