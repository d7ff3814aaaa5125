#include "account_report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <limits>
#include <map>
#include <ostream>

namespace netdp::cli {
namespace {

using Json = nlohmann::ordered_json;

// Running min / mean / max of one quantity.
struct Stats {
  std::size_t count = 0;
  double sum = 0.0;
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  void add(double x) {
    ++count;
    sum += x;
    min = std::min(min, x);
    max = std::max(max, x);
  }
  double mean() const { return count == 0 ? 0.0 : sum / static_cast<double>(count); }
};

Json optional_json(const std::optional<double>& value) { return value ? Json(*value) : Json(nullptr); }

Json row_json(const AccountRow& row, double delta) {
  Json j;
  j["observer"] = row.observer;
  j["target"] = row.target;
  j["distance"] = row.distance ? Json(*row.distance) : Json(nullptr);
  j["alpha"] = row.alpha;
  j["rdp_epsilon"] = row.rdp_epsilon;
  j["uncapped_rdp_epsilon"] = row.uncapped_rdp_epsilon;
  j["mu"] = optional_json(row.mu);
  j["delta"] = delta;
  j["epsilon"] = row.epsilon;
  j["capped"] = row.capped;
  if (row.sensitivity) {
    const SensitivityFields& s = *row.sensitivity;
    j["sensitivity_squared_ones"] = s.ones;
    j["sensitivity_squared_sum_abs"] = s.sum_abs;
    j["sensitivity_squared_exact"] = optional_json(s.exact_value);
    j["sensitivity_squared_certified"] = s.certified;
    j["sensitivity"] = s.sensitivity;
    j["exact"] = s.exact;
  }
  if (row.contributions) j["contributions"] = *row.contributions;
  if (row.condition_ok) j["condition_ok"] = *row.condition_ok;
  return j;
}

std::string csv_value(const Json& value) {
  if (value.is_null()) return "";
  if (value.is_number_float()) return fmt::format("{}", value.get<double>());
  return value.dump();
}

}  // namespace

Json summary_json(const AccountReport& report) {
  std::map<std::int64_t, std::pair<Stats, Stats>> by_distance;  // distance (-1: unknown) -> (ε, μ)
  std::map<graph::NodeId, Stats> by_observer;
  Stats overall;
  Stats overall_mu;
  std::size_t capped = 0;
  for (const AccountRow& row : report.rows) {
    auto& [eps, mu] = by_distance[row.distance ? static_cast<std::int64_t>(*row.distance) : -1];
    eps.add(row.epsilon);
    if (row.mu) {
      mu.add(*row.mu);
      overall_mu.add(*row.mu);
    }
    by_observer[row.observer].add(row.epsilon);
    overall.add(row.epsilon);
    capped += row.capped ? 1 : 0;
  }
  Json s;
  s["method"] = report.method;
  s["nodes"] = report.num_nodes;
  s["sigma"] = report.sigma;
  s["delta"] = report.delta;
  s["pairs"] = overall.count;
  s["epsilon_min"] = overall.count ? Json(overall.min) : Json(nullptr);
  s["epsilon_mean"] = overall.count ? Json(overall.mean()) : Json(nullptr);
  s["epsilon_max"] = overall.count ? Json(overall.max) : Json(nullptr);
  s["mu_max"] = overall_mu.count ? Json(overall_mu.max) : Json(nullptr);
  s["capped_pairs"] = capped;
  s["colluders"] = report.colluders;
  Json distances = Json::array();
  for (const auto& [distance, stats] : by_distance) {
    const auto& [eps, mu] = stats;
    Json d;
    d["distance"] = distance < 0 ? Json(nullptr) : Json(distance);
    d["pairs"] = eps.count;
    d["epsilon_min"] = eps.min;
    d["epsilon_mean"] = eps.mean();
    d["epsilon_max"] = eps.max;
    d["mu_min"] = mu.count ? Json(mu.min) : Json(nullptr);
    d["mu_mean"] = mu.count ? Json(mu.mean()) : Json(nullptr);
    d["mu_max"] = mu.count ? Json(mu.max) : Json(nullptr);
    distances.push_back(std::move(d));
  }
  s["by_distance"] = std::move(distances);
  Json observers = Json::array();
  for (const auto& [observer, eps] : by_observer) {
    Json o{{"observer", observer}, {"epsilon_mean", eps.mean()}, {"epsilon_max", eps.max}};
    if (const auto it = report.observer_extras.find(observer); it != report.observer_extras.end()) {
      for (const auto& item : it->second.items()) o[item.key()] = item.value();
    }
    observers.push_back(std::move(o));
  }
  s["per_observer"] = std::move(observers);
  s["local_dp"] = {{"mu", report.local_dp.mu}, {"epsilon", report.local_dp.epsilon}};
  s["central_dp"] = {{"mu", report.central_dp.mu}, {"epsilon", report.central_dp.epsilon}};
  s["parameters"] = report.parameters;
  s["calibration"] = report.calibration;
  s["warnings"] = report.warnings;
  return s;
}

void write_json(std::ostream& out, const AccountReport& report, bool with_pairs) {
  out << "{\n";
  if (with_pairs) {
    out << "\"pairs\": [";
    for (std::size_t i = 0; i < report.rows.size(); ++i) {
      out << (i == 0 ? "\n" : ",\n") << row_json(report.rows[i], report.delta).dump();
    }
    out << "\n],\n";
  }
  out << "\"summary\": " << summary_json(report).dump(2) << "\n}\n";
}

void write_csv(std::ostream& out, const AccountReport& report) {
  if (report.rows.empty()) return;
  const Json header = row_json(report.rows.front(), report.delta);
  bool first = true;
  for (const auto& item : header.items()) {
    out << (first ? "" : ",") << item.key();
    first = false;
  }
  out << "\n";
  for (const AccountRow& row : report.rows) {
    first = true;
    const Json values = row_json(row, report.delta);
    for (const auto& item : values.items()) {
      out << (first ? "" : ",") << csv_value(item.value());
      first = false;
    }
    out << "\n";
  }
}

void write_human(std::ostream& out, const AccountReport& report) {
  const Json s = summary_json(report);
  fmt::print(out, "method {}  nodes {}  sigma {:.6g}  delta {:.3g}  pairs {}\n", report.method,
             report.num_nodes, report.sigma, report.delta, s["pairs"].get<std::size_t>());
  if (!report.colluders.empty()) fmt::print(out, "colluders {}\n", fmt::join(report.colluders, ","));
  if (!report.calibration.is_null()) fmt::print(out, "calibration {}\n", report.calibration.dump());
  fmt::print(out, "\nprivacy loss epsilon by shortest-path distance (delta = {:.3g})\n", report.delta);
  fmt::print(out, "{:>8} {:>8} {:>12} {:>12} {:>12}\n", "distance", "pairs", "min", "mean", "max");
  for (const Json& d : s["by_distance"]) {
    fmt::print(out, "{:>8} {:>8} {:>12.6g} {:>12.6g} {:>12.6g}\n",
               d["distance"].is_null() ? std::string("-") : d["distance"].dump(),
               d["pairs"].get<std::size_t>(), d["epsilon_min"].get<double>(), d["epsilon_mean"].get<double>(),
               d["epsilon_max"].get<double>());
  }
  const Json& observers = s["per_observer"];
  if (observers.size() > 1) {
    Stats means;
    for (const Json& o : observers) means.add(o["epsilon_mean"].get<double>());
    fmt::print(out, "\nmean epsilon per observer: min {:.6g}  mean {:.6g}  max {:.6g} over {} observers\n",
               means.min, means.mean(), means.max, means.count);
  }
  fmt::print(out,
             "\nbaselines for the same sigma: local DP epsilon {:.6g} (mu {:.6g}), central DP epsilon {:.6g} "
             "(mu {:.6g})\n",
             report.local_dp.epsilon, report.local_dp.mu, report.central_dp.epsilon, report.central_dp.mu);
  if (s["capped_pairs"].get<std::size_t>() > 0) {
    fmt::print(out, "{} pairs hit the local-DP cap\n", s["capped_pairs"].get<std::size_t>());
  }
  for (const std::string& w : report.warnings) fmt::print(out, "warning: {}\n", w);
}

}  // namespace netdp::cli
