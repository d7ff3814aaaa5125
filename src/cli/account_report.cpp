#include "account_report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <limits>
#include <ostream>

namespace netdp::cli {
namespace {

using Json = nlohmann::ordered_json;
using accounting::PairRow;
using accounting::Range;

Json optional_json(const std::optional<double>& value) { return value ? Json(*value) : Json(nullptr); }

Json row_json(const PairRow& row, const AccountReport& report) {
  const double delta = report.delta;
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
  j["bound"] = report.bound;
  if (row.sensitivity) {
    const accounting::SensitivityFields& s = *row.sensitivity;
    j["sensitivity_squared_ones"] = s.ones;
    j["sensitivity_squared_sum_abs"] = s.sum_abs;
    j["sensitivity_squared_exact"] = optional_json(s.exact_value);
    j["sensitivity_squared_vector_lower"] = optional_json(s.vector_lower);
    j["sensitivity_squared_vector_upper"] = optional_json(s.vector_upper);
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

std::vector<std::string> shown_warnings(const AccountReport& report) {
  const std::size_t shown = std::min(report.warnings.size(), kMaxWarningsShown);
  return {report.warnings.begin(), report.warnings.begin() + static_cast<std::ptrdiff_t>(shown)};
}

}  // namespace

Json summary_json(const AccountReport& report) {
  const accounting::PairwiseSummary& summary = report.summary;
  const auto field = [](const std::optional<Range>& r, double Range::*member) {
    return r ? Json((*r).*member) : Json(nullptr);
  };
  Json s;
  s["method"] = report.method;
  s["bound"] = report.bound;
  s["valid_bound"] = report.valid_bound;
  s["nodes"] = report.num_nodes;
  s["sigma"] = report.sigma;
  s["delta"] = report.delta;
  s["pairs"] = summary.pairs;
  s["epsilon_min"] = field(summary.epsilon, &Range::min);
  s["epsilon_mean"] = field(summary.epsilon, &Range::mean);
  s["epsilon_max"] = field(summary.epsilon, &Range::max);
  s["epsilon_median"] = optional_json(summary.epsilon_median);
  s["epsilon_p90"] = optional_json(summary.epsilon_p90);
  s["epsilon_p99"] = optional_json(summary.epsilon_p99);
  s["mu_max"] = optional_json(summary.mu_max);
  s["capped_pairs"] = summary.capped_pairs;
  s["colluders"] = report.colluders;
  Json distances = Json::array();
  for (const accounting::DistanceSummary& d : summary.by_distance) {
    Json j;
    j["distance"] = d.distance ? Json(*d.distance) : Json(nullptr);
    j["pairs"] = d.epsilon.count;
    j["epsilon_min"] = d.epsilon.min;
    j["epsilon_mean"] = d.epsilon.mean;
    j["epsilon_max"] = d.epsilon.max;
    j["mu_min"] = field(d.mu, &Range::min);
    j["mu_mean"] = field(d.mu, &Range::mean);
    j["mu_max"] = field(d.mu, &Range::max);
    distances.push_back(std::move(j));
  }
  s["by_distance"] = std::move(distances);
  Json observers = Json::array();
  for (const accounting::ObserverSummary& o : summary.per_observer) {
    Json j{{"observer", o.observer}, {"epsilon_mean", o.epsilon_mean}, {"epsilon_max", o.epsilon_max}};
    if (o.detail) {
      j["communications"] = o.detail->communications;
      j["mean_rdp_epsilon_eq7"] = o.detail->mean_rdp_epsilon_eq7;
    }
    observers.push_back(std::move(j));
  }
  s["per_observer"] = std::move(observers);
  s["local_dp"] = {{"mu", report.local_dp.mu}, {"epsilon", report.local_dp.epsilon}};
  s["central_dp"] = {{"mu", report.central_dp.mu}, {"epsilon", report.central_dp.epsilon}};
  s["parameters"] = report.parameters;
  s["calibration"] = report.calibration;
  s["warnings"] = shown_warnings(report);
  s["warnings_total"] = report.warnings.size();
  return s;
}

void write_json(std::ostream& out, const AccountReport& report, bool with_pairs) {
  out << "{\n";
  if (with_pairs) {
    out << "\"pairs\": [";
    for (std::size_t i = 0; i < report.rows.size(); ++i) {
      out << (i == 0 ? "\n" : ",\n") << row_json(report.rows[i], report).dump();
    }
    out << "\n],\n";
  }
  out << "\"summary\": " << summary_json(report).dump(2) << "\n}\n";
}

void write_csv(std::ostream& out, const AccountReport& report) {
  if (report.rows.empty()) return;
  const Json header = row_json(report.rows.front(), report);
  bool first = true;
  for (const auto& item : header.items()) {
    out << (first ? "" : ",") << item.key();
    first = false;
  }
  out << "\n";
  for (const PairRow& row : report.rows) {
    first = true;
    const Json values = row_json(row, report);
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
  if (report.valid_bound) {
    fmt::print(out, "bound {}: every value is an upper bound on the loss of the observer's whole view\n",
               report.bound);
  } else {
    fmt::print(out,
               "bound {}: the paper's message-by-message formula, NOT an upper bound on the observer's whole "
               "view\n",
               report.bound);
  }
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
  const auto& observers = report.summary.per_observer;
  if (observers.size() > 1) {
    double lo = observers.front().epsilon_mean;
    double hi = lo;
    double sum = 0.0;
    for (const accounting::ObserverSummary& o : observers) {
      lo = std::min(lo, o.epsilon_mean);
      hi = std::max(hi, o.epsilon_mean);
      sum += o.epsilon_mean;
    }
    fmt::print(out, "\nmean epsilon per observer: min {:.6g}  mean {:.6g}  max {:.6g} over {} observers\n",
               lo, sum / static_cast<double>(observers.size()), hi, observers.size());
  }
  fmt::print(out,
             "\nbaselines for the same sigma: local DP epsilon {:.6g} (mu {:.6g}), central DP epsilon {:.6g} "
             "(mu {:.6g})\n",
             report.local_dp.epsilon, report.local_dp.mu, report.central_dp.epsilon, report.central_dp.mu);
  if (s["capped_pairs"].get<std::size_t>() > 0) {
    fmt::print(out, "{} pairs hit the local-DP cap\n", s["capped_pairs"].get<std::size_t>());
  }
  for (const std::string& w : shown_warnings(report)) fmt::print(out, "warning: {}\n", w);
  if (report.warnings.size() > kMaxWarningsShown) {
    fmt::print(out, "... and {} more warnings\n", report.warnings.size() - kMaxWarningsShown);
  }
}

}  // namespace netdp::cli
