// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "account_report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <ostream>
#include <string_view>
#include <utility>

#include "netdp/util/atomic_file.hpp"
#include "netdp/util/format_up.hpp"
#include "netdp/util/parallel_errors.hpp"
#include "output.hpp"

namespace netdp::cli {
namespace {

using Json = nlohmann::ordered_json;
using accounting::PairRow;
using accounting::Range;
using util::format_up;

/// A privacy loss (or a calibrated σ) for people: six digits, never below the value.
std::string rounded_up(double x) { return format_up(x); }

Json optional_json(const std::optional<double>& value) { return value ? Json(*value) : Json(nullptr); }

/// Appends the fields of one row, in the order of the CSV header, as JSON members or CSV cells.
class RowFormatter {
 public:
  RowFormatter(fmt::memory_buffer& out, bool json, bool names_only, const NodeNames& names)
      : out_(out), json_(json), names_only_(names_only), names_(names) {}

  void row(const PairRow& row, const std::string& bound, double delta) {
    if (json_) out_.push_back('{');
    field("observer", [&] { node(row.observer); });
    field("target", [&] { node(row.target); });
    if (names_.relabelled()) {
      field("observer_index", [&] { fmt::format_to(std::back_inserter(out_), "{}", row.observer); });
      field("target_index", [&] { fmt::format_to(std::back_inserter(out_), "{}", row.target); });
    }
    field("distance", [&] { number(row.distance ? std::optional<double>(*row.distance) : std::nullopt); });
    field("alpha", [&] { number(row.alpha); });
    field("rdp_epsilon", [&] { number(row.rdp_epsilon); });
    field("uncapped_rdp_epsilon", [&] { number(row.uncapped_rdp_epsilon); });
    field("mu", [&] { number(row.mu); });
    field("delta", [&] { number(delta); });
    field("epsilon", [&] { number(row.epsilon); });
    field("capped", [&] { boolean(row.capped); });
    field("bound", [&] { fmt::format_to(std::back_inserter(out_), "\"{}\"", bound); });
    field("certificate", [&] {
      const std::string_view kind = accounting::certificate_name(row.certificate);
      if (json_)
        fmt::format_to(std::back_inserter(out_), "\"{}\"", kind);
      else
        out_.append(kind.data(), kind.data() + kind.size());
    });
    field("mu_lower", [&] { number(row.mu_lower); });
    if (row.sensitivity) {
      const accounting::SensitivityFields& s = *row.sensitivity;
      field("sensitivity_squared_ones", [&] { number(s.ones); });
      field("sensitivity_squared_sum_abs", [&] { number(s.sum_abs); });
      field("sensitivity_squared_exact", [&] { number(s.exact_value); });
      field("sensitivity_squared_vector_lower", [&] { number(s.vector_lower); });
      field("sensitivity_squared_vector_upper", [&] { number(s.vector_upper); });
      field("sensitivity_squared_certified", [&] { number(s.certified); });
      field("sensitivity", [&] { number(s.sensitivity); });
      field("exact", [&] { boolean(s.exact); });
    }
    if (row.contributions) field("contributions", [&] { number(*row.contributions); });
    if (row.condition_ok) field("condition_ok", [&] { boolean(*row.condition_ok); });
    if (json_) out_.push_back('}');
  }

 private:
  template <class Value>
  void field(std::string_view name, Value value) {
    if (!first_) out_.push_back(',');
    first_ = false;
    if (names_only_) {
      fmt::format_to(std::back_inserter(out_), "{}", name);
      return;
    }
    if (json_) fmt::format_to(std::back_inserter(out_), "\"{}\":", name);
    value();
  }
  void number(std::optional<double> x) {
    if (!x || (json_ && !std::isfinite(*x))) {
      if (json_) fmt::format_to(std::back_inserter(out_), "null");
      return;
    }
    fmt::format_to(std::back_inserter(out_), "{}", *x);
  }
  void boolean(bool b) { fmt::format_to(std::back_inserter(out_), "{}", b ? "true" : "false"); }
  void node(graph::NodeId v) {
    const std::string& text = json_ ? names_.json_text(v) : names_.csv_text(v);
    out_.append(text.data(), text.data() + text.size());
  }

  fmt::memory_buffer& out_;
  bool json_;
  bool names_only_;
  const NodeNames& names_;
  bool first_ = true;
};

std::vector<std::string> shown_warnings(const AccountReport& report) {
  const std::size_t shown = std::min(report.warnings.size(), kMaxWarningsShown);
  return {report.warnings.begin(), report.warnings.begin() + static_cast<std::ptrdiff_t>(shown)};
}

}  // namespace

nlohmann::ordered_json sample_json(std::size_t sampled, std::size_t nodes, std::uint64_t seed,
                                   double confidence,
                                   const std::vector<accounting::DistanceEstimate>& estimates) {
  Json j;
  j["observers"] = sampled;
  j["of"] = nodes;
  j["seed"] = seed;
  j["confidence"] = confidence;
  j["note"] =
      "the summary covers the sampled observers' pairs only; by_distance estimates the mean over all pairs "
      "(an estimate, not a bound), and sample_max is a lower bound on the largest loss of all pairs";
  Json rows = Json::array();
  for (const accounting::DistanceEstimate& e : estimates) {
    rows.push_back({{"distance", e.distance},
                    {"sampled_pairs", e.sampled_pairs},
                    {"estimated_pairs", e.estimated_pairs},
                    {"mean", e.mean},
                    {"ci_low", optional_json(e.ci_low)},
                    {"ci_high", optional_json(e.ci_high)},
                    {"sample_max", e.sample_max}});
  }
  j["by_distance"] = std::move(rows);
  return j;
}

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
  Json certificates;
  for (const auto& [kind, name] : accounting::kCertificateNames)
    certificates[std::string(name)] = summary.certificates[kind];
  s["certificates"] = std::move(certificates);
  s["certificate_failure_probability"] = optional_json(report.certificate_failure_probability);
  if (!report.sample.is_null()) s["sample"] = report.sample;
  if (!report.top.empty()) {
    Json top = Json::array();
    for (const accounting::PairRow& row : report.top) {
      Json pair;
      pair["observer"] = report.names.json(row.observer);
      pair["target"] = report.names.json(row.target);
      pair["distance"] = row.distance ? Json(*row.distance) : Json(nullptr);
      pair["epsilon"] = row.epsilon;
      pair["mu"] = optional_json(row.mu);
      pair["certificate"] = accounting::certificate_name(row.certificate);
      top.push_back(std::move(pair));
    }
    s["top"] = std::move(top);
  }
  if (summary.histogram)
    s["histogram"] = {{"edges", summary.histogram->edges}, {"counts", summary.histogram->counts}};
  s["condition_failed_pairs"] = summary.condition_failed_pairs;
  Json colluders = Json::array();
  for (const graph::NodeId v : report.colluders) colluders.push_back(report.names.json(v));
  s["colluders"] = std::move(colluders);
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
    Json j{{"observer", report.names.json(o.observer)}};
    if (report.names.relabelled()) j["observer_index"] = o.observer;
    j["epsilon_mean"] = o.epsilon_mean;
    j["epsilon_max"] = o.epsilon_max;
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
  s["run"] = report.run;
  s["calibration"] = report.calibration;
  s["warnings"] = shown_warnings(report);
  s["warnings_total"] = report.warnings.size();
  return s;
}

RowWriter::RowWriter(std::ostream& out, std::string destination, Format format, const NodeNames& names,
                     std::string bound, double delta)
    : out_(out),
      destination_(std::move(destination)),
      format_(format),
      names_(names),
      bound_(std::move(bound)),
      delta_(delta) {
  if (format_ == Format::json || format_ == Format::json_summary_only) out_ << "{\n";
  if (format_ == Format::json) out_ << "\"pairs\": [";
}

void RowWriter::write(std::span<const PairRow> rows) {
  util::check_written(out_, destination_);
  if (rows.empty() || format_ == Format::json_summary_only || format_ == Format::none) return;
  const bool json = format_ == Format::json;
  // Slices of rows are formatted in parallel, each into its own buffer, and written in order.
  constexpr std::size_t kSlice = 4096;
  const std::size_t slices = (rows.size() + kSlice - 1) / kSlice;
  if (buffers_.size() < slices) buffers_.resize(slices);
  const bool first_in_output = first_;
  util::ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 1) if (slices > 1)
  for (std::ptrdiff_t b = 0; b < static_cast<std::ptrdiff_t>(slices); ++b) {
    errors.run(static_cast<std::int64_t>(b), [&] {
      const std::size_t begin = static_cast<std::size_t>(b) * kSlice;
      const std::size_t end = std::min(rows.size(), begin + kSlice);
      fmt::memory_buffer& buffer = buffers_[static_cast<std::size_t>(b)];
      buffer.clear();
      if (!json && first_in_output && begin == 0) {
        RowFormatter(buffer, false, true, names_).row(rows.front(), bound_, delta_);
        buffer.push_back('\n');
      }
      for (std::size_t k = begin; k < end; ++k) {
        if (json) buffer.append(std::string_view(first_in_output && k == 0 ? "\n" : ",\n"));
        RowFormatter(buffer, json, false, names_).row(rows[k], bound_, delta_);
        if (!json) buffer.push_back('\n');
      }
    });
  }
  errors.rethrow();
  first_ = false;
  for (std::size_t b = 0; b < slices; ++b)
    out_.write(buffers_[b].data(), static_cast<std::streamsize>(buffers_[b].size()));
  util::check_written(out_, destination_);
}

void RowWriter::finish(const AccountReport& report) {
  if (format_ == Format::json) out_ << "\n],\n";
  if (format_ == Format::json || format_ == Format::json_summary_only) {
    out_ << "\"summary\": " << dump_json(summary_json(report)) << "\n}\n";
  }
}

namespace {

std::string coalition(const AccountReport& report) {
  std::string out;
  for (const graph::NodeId v : report.colluders) out += (out.empty() ? "" : ",") + report.names.label(v);
  return out;
}

}  // namespace

void write_human(std::ostream& out, const AccountReport& report) {
  const Json s = summary_json(report);
  const Json& p = report.parameters;
  const auto text = [&p](const char* key) {
    return p.contains(key) ? dump_json(p[key], -1) : std::string("-");
  };
  const std::string graph = p.value("graph", std::string("-"));
  const std::string weights =
      p.contains("matrix") ? "from " + p["matrix"].get<std::string>() : p.value("weights", std::string("-"));
  fmt::print(out, "netdp account: {} accountant on graph {} ({} nodes, {} edges), weights {}, T = {}\n",
             report.method, graph.empty() ? "of W's support" : graph, report.num_nodes, report.num_edges,
             weights, text("rounds"));
  fmt::print(out, "sigma {}  delta {:.3g}  sensitivity {}  threat model: {}\n", rounded_up(report.sigma),
             report.delta, text("sensitivity"),
             report.colluders.empty() ? std::string("each observer alone")
                                      : fmt::format("the coalition {} pooling its views", coalition(report)));
  if (report.valid_bound) {
    fmt::print(out, "bound {}: every value is an upper bound on the loss of the observer's whole view\n",
               report.bound);
  } else {
    // The random walk's paper formula is its expected count of contributions; Muffliato's is Theorem 1.
    const char* formula = report.method == "random-walk" ? "the paper's expected count of contributions T/n"
                                                         : "the paper's message-by-message formula";
    fmt::print(out, "bound {}: {}, NOT an upper bound on the observer's whole view\n", report.bound, formula);
  }
  if (!report.calibration.is_null()) {
    const Json& c = report.calibration;
    fmt::print(out, "calibration: sigma = {} gives {} epsilon = {} at delta = {:.3g} (target {:.6g})\n",
               rounded_up(c["sigma"].get<double>()), c["calibrate_on"].get<std::string>(),
               rounded_up(c["achieved_epsilon"].get<double>()), report.delta,
               c["target_epsilon"].get<double>());
  }
  if (s["epsilon_max"].is_number()) {
    fmt::print(out, "epsilon over {} pairs: min {}  mean {}  max {}\n", s["pairs"].get<std::size_t>(),
               rounded_up(s["epsilon_min"].get<double>()), rounded_up(s["epsilon_mean"].get<double>()),
               rounded_up(s["epsilon_max"].get<double>()));
  }
  fmt::print(out, "\nprivacy loss epsilon by shortest-path distance (delta = {:.3g})\n", report.delta);
  fmt::print(out, "{:>8} {:>8} {:>12} {:>12} {:>12}\n", "distance", "pairs", "min", "mean", "max");
  for (const Json& d : s["by_distance"]) {
    fmt::print(out, "{:>8} {:>8} {:>12} {:>12} {:>12}\n",
               d["distance"].is_null() ? std::string("-") : dump_json(d["distance"], -1),
               d["pairs"].get<std::size_t>(), rounded_up(d["epsilon_min"].get<double>()),
               rounded_up(d["epsilon_mean"].get<double>()), rounded_up(d["epsilon_max"].get<double>()));
  }
  if (!report.sample.is_null()) {
    const Json& sample = report.sample;
    fmt::print(
        out,
        "\nsampled {} of {} observers (seed {}): estimated mean epsilon over ALL pairs by distance, {:.0f} % "
        "confidence interval (an estimate, not a bound)\n",
        sample["observers"].get<std::size_t>(), sample["of"].get<std::size_t>(),
        sample["seed"].get<std::uint64_t>(), 100.0 * sample["confidence"].get<double>());
    fmt::print(out, "{:>8} {:>12} {:>12} {:>12} {:>12} {:>12}\n", "distance", "est. pairs", "mean", "ci low",
               "ci high", "sample max");
    for (const Json& d : sample["by_distance"]) {
      const auto bound = [](const Json& v) {
        return v.is_null() ? std::string("-") : fmt::format("{:.6g}", v.get<double>());
      };
      fmt::print(out, "{:>8} {:>12.6g} {:>12.6g} {:>12} {:>12} {:>12}\n", d["distance"].get<std::uint32_t>(),
                 d["estimated_pairs"].get<double>(), d["mean"].get<double>(), bound(d["ci_low"]),
                 bound(d["ci_high"]), rounded_up(d["sample_max"].get<double>()));
    }
  }
  if (s.contains("top")) {
    fmt::print(out, "\nthe {} pairs of largest epsilon\n{:>12} {:>12} {:>8} {:>12} {}\n", s["top"].size(),
               "observer", "target", "distance", "epsilon", "certificate");
    for (const Json& t : s["top"])
      fmt::print(out, "{:>12} {:>12} {:>8} {:>12} {}\n", dump_json(t["observer"], -1),
                 dump_json(t["target"], -1),
                 t["distance"].is_null() ? std::string("-") : dump_json(t["distance"], -1),
                 rounded_up(t["epsilon"].get<double>()), t["certificate"].get<std::string>());
  }
  if (s.contains("histogram")) {
    const Json& h = s["histogram"];
    fmt::print(out, "\nhistogram of epsilon over the pairs\n{:>12} {:>12} {:>10}\n", "from", "to", "pairs");
    for (std::size_t b = 0; b < h["counts"].size(); ++b)
      fmt::print(out, "{:>12.6g} {:>12.6g} {:>10}\n", h["edges"][b].get<double>(),
                 h["edges"][b + 1].get<double>(), h["counts"][b].get<std::size_t>());
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
    fmt::print(out, "\nmean epsilon per observer: min {}  mean {}  max {} over {} observers\n",
               rounded_up(lo), rounded_up(sum / static_cast<double>(observers.size())), rounded_up(hi),
               observers.size());
  }
  fmt::print(out,
             "\nbaselines for the same sigma: local DP epsilon {} (mu {}), central DP epsilon {} (mu {})\n",
             rounded_up(report.local_dp.epsilon), rounded_up(report.local_dp.mu),
             rounded_up(report.central_dp.epsilon), rounded_up(report.central_dp.mu));
  fmt::print(out, "{}\n", accounting::certificate_sentence(report.summary.certificates));
  if (report.certificate_failure_probability &&
      report.summary.certificates[accounting::Certificate::exact] +
              report.summary.certificates[accounting::Certificate::cap_in_span] >
          0)
    fmt::print(out,
               "exact values come from exact arithmetic modulo random primes: all are right except with "
               "probability at most {:.2g}\n",
               *report.certificate_failure_probability);
  const std::size_t capped = report.summary.capped_pairs;
  const std::size_t failed = report.summary.condition_failed_pairs;
  if (capped > failed) {
    fmt::print(out,
               "{} of {} pairs hit the local-DP cap (the view is worth no more than the target's own noisy "
               "contributions)\n",
               capped - failed, report.summary.pairs);
  }
  if (failed > 0) {
    fmt::print(
        out, "{} of {} pairs report local DP because the amplification condition failed (see the warning)\n",
        failed, report.summary.pairs);
  }
}

}  // namespace netdp::cli
