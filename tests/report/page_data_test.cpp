// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The statistics of a report page against values computed by hand from the pairs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "netdp/report/report.hpp"
#include "report/page_parts.hpp"

namespace netdp::report {
namespace {

/// An account output on `nodes` nodes with the given pairs (observer, target, distance, ε, kind),
/// without a run record (so the report reads no graph).
nlohmann::json account_document(std::size_t nodes,
                                const std::vector<std::tuple<int, int, int, double, std::string>>& pairs) {
  nlohmann::json rows = nlohmann::json::array();
  std::size_t capped = 0;
  for (const auto& [o, t, d, e, kind] : pairs) {
    rows.push_back({{"observer", o}, {"target", t}, {"distance", d}, {"epsilon", e}, {"certificate", kind}});
    capped += e >= 4.0 ? 1 : 0;
  }
  return {{"pairs", rows},
          {"summary",
           {{"method", "muffliato"},
            {"bound", "exact-joint-view"},
            {"valid_bound", true},
            {"nodes", nodes},
            {"sigma", 1.0},
            {"delta", 1e-5},
            {"pairs", pairs.size()},
            {"capped_pairs", capped},
            {"certificates", {{"exact", 1}}},
            {"by_distance", nlohmann::json::array()},
            {"per_observer", nlohmann::json::array()},
            {"local_dp", {{"mu", 1.0}, {"epsilon", 4.0}}},
            {"central_dp", {{"mu", 0.5}, {"epsilon", 2.0}}},
            {"parameters", {{"rounds", 3}}}}}};
}

TEST(ReportRounding, UpNeverBelowDownNeverAboveAndWithinSixDigits) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exponent(-12, 12), mantissa(1, 10);
  for (int i = 0; i < 20000; ++i) {
    const double x = mantissa(rng) * std::pow(10.0, std::floor(exponent(rng)));
    const double r = detail::rounded_up(x).get<double>();
    ASSERT_GE(r, x);
    ASSERT_LE(r - x, 1.0001e-5 * x) << x;
    const double d = detail::rounded_down(x).get<double>();
    ASSERT_LE(d, x);
    ASSERT_LE(x - d, 1.0001e-5 * x) << x;
  }
  EXPECT_EQ(detail::rounded_down(0.7482699704976297).get<double>(), 0.748269);
  EXPECT_EQ(detail::rounded_up(4.377178095681225).get<double>(), 4.37718);
  EXPECT_EQ(detail::rounded_up(2.5).get<double>(), 2.5);
  EXPECT_TRUE(detail::rounded_up(std::nan("")).is_null());
  EXPECT_TRUE(detail::rounded_up(INFINITY).is_null());
}

TEST(ReportPageData, BoxesPerDistanceAreTheQuantilesOfThePairs) {
  // Distance 1: ε = 1, 2, 3, 4 (type-7 quartiles 1.75, 2.5, 3.25); distance 2: one pair.
  const Input input = input_from_json(account_document(3, {{0, 1, 1, 1.0, "exact"},
                                                           {1, 0, 1, 2.0, "exact"},
                                                           {1, 2, 1, 3.0, "upper-bound"},
                                                           {2, 1, 1, 4.0, "cap-in-span"},
                                                           {0, 2, 2, 0.5, "exact"}}),
                                      "a.json");
  const nlohmann::json data = page_data({input}, ReportOptions{});
  const nlohmann::json& a = data["accounts"][0];
  ASSERT_EQ(a["by_distance"].size(), 2u);
  const nlohmann::json& d1 = a["by_distance"][0];
  EXPECT_EQ(d1["pairs"], 4);
  EXPECT_DOUBLE_EQ(d1["min"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(d1["q1"].get<double>(), 1.75);
  EXPECT_DOUBLE_EQ(d1["median"].get<double>(), 2.5);
  EXPECT_DOUBLE_EQ(d1["q3"].get<double>(), 3.25);
  EXPECT_DOUBLE_EQ(d1["max"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(d1["mean"].get<double>(), 2.5);
  EXPECT_DOUBLE_EQ(a["by_distance"][1]["median"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(a["capped_fraction"].get<double>(), 1.0 / 5.0);
  EXPECT_TRUE(data["graph"].is_null());
  EXPECT_EQ(data["notes"].size(), 1u);  // no network recorded: said so
}

TEST(ReportPageData, CdfHoldsEveryOrderStatisticOfFewPairsAndExactFractionsOfMany) {
  std::vector<std::tuple<int, int, int, double, std::string>> pairs;
  const std::size_t n = 40;  // 1560 pairs: more than the 512 points of the CDF
  for (std::size_t o = 0; o < n; ++o)
    for (std::size_t t = 0; t < n; ++t)
      if (o != t) pairs.emplace_back(o, t, 1, 0.001 * static_cast<double>(o * n + t), "exact");
  const nlohmann::json data =
      page_data({input_from_json(account_document(n, pairs), "a.json")}, ReportOptions{});
  const nlohmann::json& cdf = data["accounts"][0]["cdf"];
  ASSERT_EQ(cdf["epsilon"].size(), 512u);
  std::vector<double> sorted;
  for (const auto& p : pairs) sorted.push_back(std::get<3>(p));
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t k = 0; k < 512; ++k) {
    const double fraction = cdf["fraction"][k].get<double>();
    const auto rank = static_cast<std::size_t>(std::llround(fraction * static_cast<double>(sorted.size())));
    EXPECT_DOUBLE_EQ(cdf["epsilon"][k].get<double>(), detail::rounded_up(sorted[rank - 1]).get<double>());
  }
  EXPECT_DOUBLE_EQ(cdf["fraction"][511].get<double>(), 1.0);
}

TEST(ReportPageData, HeatmapBlocksHoldTheMaximumOfTheirPairs) {
  std::vector<std::tuple<int, int, int, double, std::string>> pairs;
  for (int o = 0; o < 6; ++o)
    for (int t = 0; t < 6; ++t)
      if (o != t) pairs.emplace_back(o, t, 1, o * 10 + t, t == 5 ? "cap-in-span" : "exact");
  ReportOptions options;
  options.max_heatmap_cells = 3;  // blocks of 2 nodes
  const nlohmann::json data = page_data({input_from_json(account_document(6, pairs), "a.json")}, options);
  const nlohmann::json& h = data["accounts"][0]["heatmap"];
  EXPECT_EQ(h["block"], 2);
  EXPECT_EQ(h["size"], 3);
  EXPECT_EQ(h["labels"][2], "4–5");
  const nlohmann::json& c = h["cells"];
  ASSERT_EQ(c["row"].size(), 9u);
  for (std::size_t i = 0; i < 9; ++i) {
    const int row = c["row"][i], col = c["col"][i];
    double max = -1;  // ε of the pairs (o, t) with o in block row and t in block col, o != t
    std::string kind_of_max;
    for (int o = 2 * row; o < 2 * row + 2; ++o) {
      for (int t = 2 * col; t < 2 * col + 2; ++t) {
        if (o != t && o * 10.0 + t > max) {
          max = o * 10.0 + t;
          kind_of_max = t == 5 ? "cap-in-span" : "exact";
        }
      }
    }
    EXPECT_DOUBLE_EQ(c["epsilon_max"][i].get<double>(), max);
    EXPECT_EQ(c["certificate"][i], kind_of_max);
  }
  ReportOptions small;
  small.max_heatmap_nodes = 5;
  EXPECT_TRUE(
      page_data({input_from_json(account_document(6, pairs), "a.json")}, small)["accounts"][0]["heatmap"]
          .is_null());
}

TEST(ReportPageData, RefusesNoInputAndPairsOutsideTheNodes) {
  EXPECT_THROW(page_data({}, ReportOptions{}), std::invalid_argument);
  try {
    page_data({input_from_json(account_document(2, {{0, 7, 1, 1.0, "exact"}}), "bad.json")}, ReportOptions{});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("target 7"), std::string::npos) << e.what();
  }
}

TEST(ReportRunRecord, TheNetworkSurvivesTheRecord) {
  gossip::NetworkSpec spec;
  spec.graph = "data/g.csv";
  spec.lcc = true;
  spec.weighting = gossip::Weighting::metropolis;
  spec.seed = 42;
  spec.read.source_column = "from";
  spec.read.symmetrize = true;
  const gossip::NetworkSpec back = network_from_record(run_record("netdp account", spec));
  EXPECT_EQ(back.graph, spec.graph);
  EXPECT_EQ(back.lcc, spec.lcc);
  EXPECT_EQ(back.weighting, spec.weighting);
  EXPECT_EQ(back.seed, spec.seed);
  EXPECT_EQ(back.read.source_column, "from");
  EXPECT_TRUE(back.read.symmetrize);
  EXPECT_THROW(network_from_record(nlohmann::json::object()), std::invalid_argument);
}

TEST(ReportRunRecord, CommandLinesAreShellQuoted) {
  const char* argv[] = {"/usr/bin/netdp", "account", "--graph",  "my graph.edges",
                        "--title",        "it's",    "--rounds", "20"};
  EXPECT_EQ(command_line(8, argv), "netdp account --graph 'my graph.edges' --title 'it'\\''s' --rounds 20");
}

}  // namespace
}  // namespace netdp::report
