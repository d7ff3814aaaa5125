// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Accounts: netdp.Account (built once, evaluated at any σ and δ, calibrated, its rows streamed),
// the one-call account() and calibrate() on it, and `netdp compare`'s table. The accountants are
// the library's, through accounting::make_account (the AccountRequest every front end fills).

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "netdp/accounting/account/account_request.hpp"
#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/account/pairwise_summary.hpp"
#include "netdp/accounting/mf/mf_compare.hpp"
#include "netdp/gossip/network_spec.hpp"
#include "netdp/gossip/schedule.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/graph.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/util/check.hpp"

namespace netdp::python {
namespace {

/// `name`_min, _mean, _max of a range into `out` (the command line's summary fields).
void put_range(py::dict& out, const std::string& name, const std::optional<accounting::Range>& r) {
  for (const char* part : {"_min", "_mean", "_max"}) {
    if (!r) {
      out[py::str(name + part)] = py::none();
      continue;
    }
    const std::string key = name + part;
    out[py::str(key)] = key.ends_with("_min") ? r->min : key.ends_with("_mean") ? r->mean : r->max;
  }
}

/// The library's summary of the rows (accounting::summarize), with the field names of
/// `netdp account --json`'s summary.
py::dict summary_dict(const accounting::PairwiseSummary& s) {
  const auto optional = [](const std::optional<double>& x) { return x ? py::cast(*x) : py::none(); };
  py::dict out;
  out["pairs"] = s.pairs;
  put_range(out, "epsilon", s.epsilon);
  out["epsilon_median"] = optional(s.epsilon_median);
  out["epsilon_p90"] = optional(s.epsilon_p90);
  out["epsilon_p99"] = optional(s.epsilon_p99);
  out["mu_max"] = optional(s.mu_max);
  out["capped_pairs"] = s.capped_pairs;
  out["condition_failed_pairs"] = s.condition_failed_pairs;
  py::dict certificates;
  for (const auto& [kind, name] : accounting::kCertificateNames)
    certificates[py::str(std::string(name))] = s.certificates[kind];
  out["certificates"] = certificates;
  py::list by_distance;
  for (const accounting::DistanceSummary& d : s.by_distance) {
    py::dict row;
    row["distance"] = d.distance ? py::cast(*d.distance) : py::none();
    row["pairs"] = d.epsilon.count;
    put_range(row, "epsilon", d.epsilon);
    put_range(row, "mu", d.mu);
    by_distance.append(row);
  }
  out["by_distance"] = by_distance;
  py::list per_observer;
  for (const accounting::ObserverSummary& o : s.per_observer) {
    py::dict row;
    row["observer_index"] = o.observer;
    row["epsilon_mean"] = o.epsilon_mean;
    row["epsilon_max"] = o.epsilon_max;
    per_observer.append(row);
  }
  out["per_observer"] = per_observer;
  return out;
}

/// The rows' fields, one vector per column.
struct Columns {
  std::vector<std::int64_t> observer;
  std::vector<std::int64_t> target;
  std::vector<std::int64_t> distance;  ///< −1: none
  std::vector<double> mu;              ///< NaN: not Gaussian
  std::vector<double> epsilon;
  std::vector<double> rdp_epsilon;
  std::vector<double> uncapped_rdp_epsilon;
  std::vector<double> alpha;
  std::vector<std::uint8_t> capped;
  std::vector<std::uint8_t> certificate;  ///< code: the order of accounting::kCertificateNames
  std::vector<double> mu_lower;           ///< NaN: none

  void reserve(std::size_t rows) {
    for (auto* v : {&observer, &target, &distance}) v->reserve(rows);
    for (auto* v : {&mu, &epsilon, &rdp_epsilon, &uncapped_rdp_epsilon, &alpha}) v->reserve(rows);
    capped.reserve(rows);
    certificate.reserve(rows);
    mu_lower.reserve(rows);
  }
  void add(std::span<const accounting::PairRow> rows) {
    for (const accounting::PairRow& r : rows) {
      observer.push_back(r.observer);
      target.push_back(r.target);
      distance.push_back(r.distance ? static_cast<std::int64_t>(*r.distance) : -1);
      mu.push_back(r.mu.value_or(std::numeric_limits<double>::quiet_NaN()));
      epsilon.push_back(r.epsilon);
      rdp_epsilon.push_back(r.rdp_epsilon);
      uncapped_rdp_epsilon.push_back(r.uncapped_rdp_epsilon);
      alpha.push_back(r.alpha);
      capped.push_back(r.capped ? 1 : 0);
      certificate.push_back(static_cast<std::uint8_t>(r.certificate));
      mu_lower.push_back(r.mu_lower.value_or(std::numeric_limits<double>::quiet_NaN()));
    }
  }
};

/// The protocol and the pairs of a call, as `netdp account` builds them from its flags.
struct Problem {
  accounting::Protocol protocol;
  accounting::PairQuery query;
};

/// The network side of a call: where, how long, and which pairs.
struct Setting {
  std::string weights = "hamilton";
  std::optional<SparseMatrix> matrix;  ///< the user's W (weights= a matrix), instead of `weights`
  std::size_t rounds = 10;
  std::string schedule = "fixed";
  std::uint64_t seed = 1;
  double sensitivity = 1.0;
  std::vector<graph::NodeId> observers;  ///< empty: every node
  std::vector<graph::NodeId> targets;    ///< empty: every node
  std::vector<graph::NodeId> colluders;
  std::vector<graph::NodeId> group;
  std::optional<double> alpha;
};

Problem make_problem(const graph::Graph& g, const Setting& s) {
  require(s.rounds >= 1, "rounds must be >= 1, got {}", s.rounds);
  require(graph::is_connected(g), "the graph is disconnected ({} components); pass a connected graph",
          graph::connected_components(g).count());
  std::optional<gossip::Weighting> weighting;
  if (!s.matrix) weighting = gossip::parse_weighting(s.weights);
  Problem out{accounting::Protocol(s.matrix ? gossip::matrix_on_graph(*s.matrix, g)
                                            : gossip::make_gossip_matrix(g, *weighting)),
              {}};
  out.protocol.weighting = weighting;
  out.protocol.schedule = gossip::parse_schedule_spec(s.schedule);
  out.protocol.rounds = s.rounds;
  out.protocol.seed = s.seed;
  out.protocol.sensitivity = s.sensitivity;
  // One observer or target is the account's own query (the accountant builds only its part);
  // several are selected from the account's rows.
  if (s.observers.size() == 1) out.query.observer = s.observers.front();
  if (s.targets.size() == 1) out.query.target = s.targets.front();
  out.query.colluders = s.colluders;
  out.query.group = s.group;
  out.query.alpha = s.alpha;
  return out;
}

void check_delta(double delta) {
  require(delta > 0.0 && delta < 1.0, "delta must be in (0, 1), got {}", delta);
}

void check_sigma(double sigma) {
  require(std::isfinite(sigma) && sigma > 0.0, "sigma must be a finite number > 0, got {}", sigma);
}

/// The rows' columns as numpy arrays, with the certificate codes' names.
py::dict columns_dict(Columns&& columns) {
  const auto n = static_cast<py::ssize_t>(columns.epsilon.size());
  py::dict out;
  out["observer"] = owned_array(std::move(columns.observer), {n});
  out["target"] = owned_array(std::move(columns.target), {n});
  out["distance"] = owned_array(std::move(columns.distance), {n});
  out["mu"] = owned_array(std::move(columns.mu), {n});
  out["epsilon"] = owned_array(std::move(columns.epsilon), {n});
  out["rdp_epsilon"] = owned_array(std::move(columns.rdp_epsilon), {n});
  out["uncapped_rdp_epsilon"] = owned_array(std::move(columns.uncapped_rdp_epsilon), {n});
  out["alpha"] = owned_array(std::move(columns.alpha), {n});
  out["capped"] = owned_array(std::move(columns.capped), {n});
  out["certificate_code"] = owned_array(std::move(columns.certificate), {n});
  out["mu_lower"] = owned_array(std::move(columns.mu_lower), {n});
  py::list certificate_names;
  for (const auto& entry : accounting::kCertificateNames) certificate_names.append(std::string(entry.name));
  out["certificate_names"] = certificate_names;
  return out;
}

py::dict calibration_dict(const accounting::Calibration& calibration, const std::string& on) {
  py::dict out;
  out["sigma"] = calibration.sigma;
  out["achieved_epsilon"] = calibration.achieved_epsilon;
  out["closed_form"] = calibration.closed_form;
  out["evaluations"] = calibration.evaluations;
  out["on"] = on;
  return out;
}

/// Calibration is on every pair of an account, or its one observer and/or target.
void check_calibration_scope(const Setting& setting) {
  require(setting.observers.size() <= 1 && setting.targets.size() <= 1,
          "calibrate takes one observer and one target at most (or every pair), got {} and {}",
          setting.observers.size(), setting.targets.size());
}

using SharedAccount = std::shared_ptr<const accounting::PairwiseAccount>;

SharedAccount build_account(const Problem& problem, const accounting::AccountRequest& request) {
  return run_interruptibly<SharedAccount>([problem, request] {
    return SharedAccount(accounting::make_account(problem.protocol, problem.query, request));
  });
}

/// The rows of an account at (σ, δ) handed to Python in chunks of `chunk` rows (the last may have
/// fewer), as they are
/// computed: a thread of its own streams them (without the GIL) into a queue of at most two chunks
/// and waits while it is full. Dropping the stream (a loop left early, or Ctrl-C) stops that thread
/// at its next chunk.
class RowStream {
 public:
  RowStream(SharedAccount account, graph::Graph g, accounting::PairQuery query,
            std::vector<graph::NodeId> observers, std::vector<graph::NodeId> targets, double sigma,
            double delta, std::size_t chunk)
      : state_(std::make_shared<State>()) {
    std::thread([state = state_, account = std::move(account), g = std::move(g), query = std::move(query),
                 observers = std::move(observers), targets = std::move(targets), sigma, delta, chunk] {
      Columns pending;
      // The library is held while rows are computed, not while a full queue waits for Python
      // (which may call the library meanwhile).
      std::unique_lock<std::mutex> one_call(library_mutex());
      const auto hand_over = [&state, &pending, &one_call] {
        one_call.unlock();
        std::unique_lock<std::mutex> lock(state->mutex);
        state->changed.wait(lock, [&state] { return state->ready.size() < 2 || state->cancelled; });
        if (state->cancelled) throw Cancelled{};
        state->ready.push_back(std::move(pending));
        pending = Columns{};
        lock.unlock();
        state->changed.notify_all();
        one_call.lock();
      };
      try {
        std::vector<accounting::PairRow> block;
        account->stream_selected_rows(
            sigma, delta, observers, targets, [&](std::span<const accounting::PairRow> rows) {
              block.assign(rows.begin(), rows.end());
              accounting::fill_distances(block, g, query);
              for (std::span<const accounting::PairRow> rest(block); !rest.empty();) {
                const std::size_t take = std::min(rest.size(), chunk - pending.epsilon.size());
                pending.add(rest.first(take));
                rest = rest.subspan(take);
                if (pending.epsilon.size() == chunk) hand_over();
              }
            });
        if (!pending.epsilon.empty()) hand_over();
      } catch (const Cancelled&) {
      } catch (...) {
        const std::lock_guard<std::mutex> lock(state->mutex);
        state->error = std::current_exception();
      }
      {
        const std::lock_guard<std::mutex> lock(state->mutex);
        state->finished = true;
      }
      state->changed.notify_all();
    }).detach();
  }

  RowStream(const RowStream&) = delete;
  RowStream& operator=(const RowStream&) = delete;
  RowStream(RowStream&&) = default;
  RowStream& operator=(RowStream&&) = default;

  ~RowStream() {
    if (!state_) return;
    {
      const std::lock_guard<std::mutex> lock(state_->mutex);
      state_->cancelled = true;
    }
    state_->changed.notify_all();
  }

  /// The next chunk's columns; StopIteration after the last.
  py::dict next() {
    State& s = *state_;
    if (wait_interruptibly(s.mutex, s.changed, [&s] { return !s.ready.empty() || s.finished; }))
      throw py::error_already_set();
    std::unique_lock<std::mutex> lock(s.mutex);
    if (s.ready.empty()) {
      if (s.error) std::rethrow_exception(std::exchange(s.error, nullptr));
      throw py::stop_iteration();
    }
    Columns columns = std::move(s.ready.front());
    s.ready.pop_front();
    lock.unlock();
    s.changed.notify_all();
    return columns_dict(std::move(columns));
  }

 private:
  struct Cancelled {};
  struct State {
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<Columns> ready;
    bool finished = false;
    bool cancelled = false;
    std::exception_ptr error;
  };
  std::shared_ptr<State> state_;
};

/// An account built once from a graph, the protocol and the accountant's options: the σ-free
/// structure (the library's PairwiseAccount), then evaluated, calibrated and streamed at any σ, δ.
class Account {
 public:
  Account(const graph::Graph& g, const Setting& setting, const accounting::AccountRequest& request)
      : graph_(g),
        setting_(setting),
        request_(request),
        problem_(make_problem(g, setting)),
        built_(build_account(problem_, request)) {}

  /// Every selected row at (σ, δ) as numpy columns, with the summary `netdp account --json` writes.
  py::dict evaluate(double sigma, double delta) const {
    check_sigma(sigma);
    check_delta(delta);
    struct Output {
      Columns columns;
      accounting::PairwiseSummary summary;
      accounting::Baseline local_dp, central_dp;
    };
    // The rows are streamed into the columns and the summary, observer block by block: the
    // account's rows are never all held as PairRow (an all-pairs run of 2048 nodes has 4.2 M).
    Output output = run_interruptibly<Output>([g = graph_, query = problem_.query, built = built_,
                                               observers = selected_observers(), targets = setting_.targets,
                                               sigma, delta] {
      Output out;
      accounting::SummaryBuilder summarizing(built->pair_count());
      out.columns.reserve(built->pair_count());
      std::vector<accounting::PairRow> block;
      built->stream_selected_rows(sigma, delta, observers, targets,
                                  [&](std::span<const accounting::PairRow> rows) {
                                    summarizing.add_with_distances(rows, block, &g, query);
                                    out.columns.add(block);
                                  });
      out.summary = summarizing.finish();
      out.local_dp = accounting::local_dp_baseline(*built, sigma, delta);
      out.central_dp = accounting::central_dp_baseline(*built, g.num_nodes(), sigma, delta);
      return out;
    });
    py::dict out = columns_dict(std::move(output.columns));
    describe(out);
    py::dict summary = summary_dict(output.summary);
    summary["nodes"] = graph_.num_nodes();
    summary["local_dp"] =
        py::dict(py::arg("mu") = output.local_dp.mu, py::arg("epsilon") = output.local_dp.epsilon);
    summary["central_dp"] =
        py::dict(py::arg("mu") = output.central_dp.mu, py::arg("epsilon") = output.central_dp.epsilon);
    out["summary"] = summary;
    return out;
  }

  /// The smallest σ whose `on` statistic (mean, max, or pair for a one-pair account) of ε at δ is
  /// at most `target_epsilon` (accounting::calibrate_sigma).
  py::dict calibrate(double target_epsilon, double delta, const std::string& on) const {
    check_delta(delta);
    check_calibration_scope(setting_);
    const accounting::Statistic statistic = accounting::parse_statistic(on);
    const accounting::Calibration calibration =
        run_interruptibly<accounting::Calibration>([built = built_, statistic, target_epsilon, delta] {
          return accounting::calibrate_sigma(*built, statistic, target_epsilon, delta);
        });
    return calibration_dict(calibration, on);
  }

  /// calibrate on the one pair (observer, target), from an account of that pair alone.
  py::dict calibrate_pair(graph::NodeId observer, graph::NodeId target, double target_epsilon,
                          double delta) const {
    Setting one = setting_;
    one.observers = {observer};
    one.targets = {target};
    one.colluders.clear();
    return Account(graph_, one, request_).calibrate(target_epsilon, delta, "pair");
  }

  /// The selected rows at (σ, δ), `chunk` at a time, as they are computed.
  RowStream rows(double sigma, double delta, std::size_t chunk) const {
    check_sigma(sigma);
    check_delta(delta);
    require(chunk >= 1, "chunk must be >= 1, got {}", chunk);
    return RowStream(built_, graph_, problem_.query, selected_observers(), setting_.targets, sigma, delta,
                     chunk);
  }

  /// The row of one pair at (σ, δ).
  py::dict pair(graph::NodeId observer, graph::NodeId target, double sigma, double delta) const {
    check_sigma(sigma);
    check_delta(delta);
    require(problem_.query.colluders.empty(),
            "pair() takes an observer, and this account's observer is a coalition: use evaluate()");
    require(observer < graph_.num_nodes() && target < graph_.num_nodes() && observer != target,
            "pair ({}, {}) is not a pair of distinct nodes of the graph (0..{})", observer, target,
            graph_.num_nodes() - 1);
    std::vector<accounting::PairRow> rows =
        run_interruptibly<std::vector<accounting::PairRow>>([built = built_, observer, target, sigma, delta] {
          return built->rows(sigma, delta, std::vector<graph::NodeId>{observer},
                             std::vector<graph::NodeId>{target});
        });
    require(rows.size() == 1, "the account has {} rows for observer {} and target {}, not one", rows.size(),
            graph_.label(observer), graph_.label(target));
    accounting::fill_distances(rows, graph_, problem_.query);
    Columns columns;
    columns.add(rows);
    py::dict out = columns_dict(std::move(columns));
    describe(out);
    return out;
  }

  std::size_t pair_count() const { return built_->pair_count(); }
  std::string method() const { return std::string(built_->method()); }

 private:
  // What describes every result of this account (the rows' columns are added beside).
  void describe(py::dict& out) const {
    const std::optional<double> failure = built_->certificate_failure_probability();
    out["certificate_failure_probability"] = failure ? py::cast(*failure) : py::none();
    out["method"] = std::string(built_->method());
    out["bound"] = util::name_of(accounting::kGuaranteeNames, built_->guarantee());
    out["valid_bound"] = built_->valid_bound();
    out["warnings"] = built_->warnings();
    py::list diagnostics;
    for (const accounting::Diagnostic& d : built_->diagnostics()) {
      py::dict item;
      item["kind"] = std::string(util::name_of(accounting::kDiagnosticKindNames, d.kind));
      item["count"] = d.count;
      item["text"] = d.text;
      diagnostics.append(item);
    }
    out["diagnostics"] = diagnostics;
  }

  // A coalition's account has its own observer (the coalition); otherwise the selected ones.
  std::vector<graph::NodeId> selected_observers() const {
    return problem_.query.colluders.empty() ? setting_.observers : std::vector<graph::NodeId>{};
  }

  graph::Graph graph_;
  Setting setting_;
  accounting::AccountRequest request_;
  Problem problem_;
  SharedAccount built_;
};

/// `netdp compare`: the MF paper's Figure 2 table, with the command's field names.
py::dict compare(const graph::Graph& g, const std::string& weights, std::size_t rounds,
                 std::size_t gossip_steps, double sigma, double alpha, const std::string& variant,
                 bool secure_sum) {
  require(variant == "propagated" || variant == "per-step",
          "--variant '{}' is not one of: propagated, per-step", variant);
  const gossip::GossipMatrix w = gossip::make_gossip_matrix(g, gossip::parse_weighting(weights));
  const accounting::MuffliatoVariant muffliato = variant == "propagated"
                                                     ? accounting::MuffliatoVariant::propagated
                                                     : accounting::MuffliatoVariant::per_step;
  const accounting::FigureTwo figure = run_interruptibly<accounting::FigureTwo>(
      [w, rounds, gossip_steps, sigma, alpha, muffliato, secure_sum] {
        return accounting::figure_two(w, rounds, gossip_steps, sigma, alpha, muffliato, secure_sum);
      });
  py::list by_distance;
  for (const accounting::MfComparisonRow& r : figure.rows) {
    py::dict d;
    d["distance"] = r.distance;
    d["pairs"] = r.pairs;
    d["mf_min"] = r.mf_min;
    d["mf_mean"] = r.mf_mean;
    d["mf_max"] = r.mf_max;
    d["muffliato_min"] = r.muffliato_min;
    d["muffliato_mean"] = r.muffliato_mean;
    d["muffliato_max"] = r.muffliato_max;
    d["muffliato_exact_min"] = r.muffliato_exact_min;
    d["muffliato_exact_mean"] = r.muffliato_exact_mean;
    d["muffliato_exact_max"] = r.muffliato_exact_max;
    for (const auto& [distance, range] : figure.secure_sum) {
      if (distance != r.distance) continue;
      d["secure_sum_min"] = range.min;
      d["secure_sum_mean"] = range.mean;
      d["secure_sum_max"] = range.max;
    }
    by_distance.append(d);
  }
  py::dict out;
  out["by_distance"] = by_distance;
  out["local_dp"] = figure.local_dp;
  out["central_dp"] = figure.central_dp;
  out["secure_sum_omitted"] =
      figure.secure_sum_omitted.empty() ? py::none() : py::cast(figure.secure_sum_omitted);
  return out;
}

}  // namespace

void bind_accounting(py::module_& m) {
  py::class_<accounting::AccountRequest>(m, "AccountRequest",
                                         "The accountant's options; set them by name with set().")
      .def(py::init<>())
      .def("set", &accounting::set_account_option, py::arg("name"), py::arg("text"),
           "Sets one option of account_options() from its text, as the command line reads it.")
      .def_readwrite("correlation", &accounting::AccountRequest::correlation);
  m.def(
      "account_options",
      [] {
        py::list out;
        for (const accounting::AccountOption& option : accounting::account_options()) {
          py::list methods;
          for (const auto& entry : accounting::kMethodNames)
            if (option.applies_to(entry.value)) methods.append(entry.name);
          py::dict row;
          row["name"] = option.name;
          row["type"] = util::name_of(accounting::kOptionTypeNames, option.type);
          row["default"] = option.default_value;
          row["values"] = option.values;
          row["methods"] = methods;
          row["help"] = option.help;
          out.append(row);
        }
        return out;
      },
      "The accountant options' table: name, type, default, accepted values, methods, help.");

  py::class_<Setting>(m, "Setting", "Where the protocol runs and which pairs a call reports.")
      .def(py::init<>())
      .def_readwrite("weights", &Setting::weights)
      .def_readwrite("matrix", &Setting::matrix)
      .def_readwrite("rounds", &Setting::rounds)
      .def_readwrite("schedule", &Setting::schedule)
      .def_readwrite("seed", &Setting::seed)
      .def_readwrite("sensitivity", &Setting::sensitivity)
      .def_readwrite("observers", &Setting::observers)
      .def_readwrite("targets", &Setting::targets)
      .def_readwrite("colluders", &Setting::colluders)
      .def_readwrite("group", &Setting::group)
      .def_readwrite("alpha", &Setting::alpha);

  py::class_<RowStream>(m, "RowStream", "The rows of an account at (sigma, delta), a chunk at a time.")
      .def("__iter__", [](RowStream& s) -> RowStream& { return s; })
      .def("__next__", &RowStream::next);

  py::class_<Account>(m, "Account", "An account built once, evaluated at any sigma and delta.")
      .def(py::init<const graph::Graph&, const Setting&, const accounting::AccountRequest&>(),
           py::arg("graph"), py::arg("setting"), py::arg("request"))
      .def("evaluate", &Account::evaluate, py::arg("sigma"), py::arg("delta"))
      .def("calibrate", &Account::calibrate, py::arg("target_epsilon"), py::arg("delta"), py::arg("on"))
      .def("calibrate_pair", &Account::calibrate_pair, py::arg("observer"), py::arg("target"),
           py::arg("target_epsilon"), py::arg("delta"))
      .def("rows", &Account::rows, py::arg("sigma"), py::arg("delta"), py::arg("chunk"))
      .def("pair", &Account::pair, py::arg("observer"), py::arg("target"), py::arg("sigma"), py::arg("delta"))
      .def_property_readonly("pair_count", &Account::pair_count)
      .def_property_readonly("method", &Account::method);

  // The one-call forms: an Account built for the call.
  m.def(
      "account",
      [](const graph::Graph& g, const Setting& setting, const accounting::AccountRequest& request,
         double sigma, double delta) {
        check_sigma(sigma);  // refused before the account is built
        check_delta(delta);
        return Account(g, setting, request).evaluate(sigma, delta);
      },
      py::arg("graph"), py::arg("setting"), py::arg("request"), py::arg("sigma"), py::arg("delta"));
  m.def(
      "calibrate",
      [](const graph::Graph& g, const Setting& setting, const accounting::AccountRequest& request,
         double target_epsilon, double delta, const std::string& on) {
        check_delta(delta);  // refused before the account is built
        check_calibration_scope(setting);
        static_cast<void>(accounting::parse_statistic(on));
        return Account(g, setting, request).calibrate(target_epsilon, delta, on);
      },
      py::arg("graph"), py::arg("setting"), py::arg("request"), py::arg("target_epsilon"), py::arg("delta"),
      py::arg("on"));
  m.def("compare", &compare, py::arg("graph"), py::arg("weights"), py::arg("rounds"), py::arg("gossip_steps"),
        py::arg("sigma"), py::arg("alpha"), py::arg("variant"), py::arg("secure_sum"));
}

}  // namespace netdp::python
