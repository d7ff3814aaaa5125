// The compiled part of `import netdp` (the package in python/netdp wraps it): graphs, gossip
// matrices, the accountants through accounting::make_account (the AccountRequest every front end
// fills), and the dp module's conversions. No accounting happens here: each function converts
// Python values to the library's types, calls the library, and hands back numpy arrays that own
// the C++ buffers (docs/python.md).

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "netdp/accounting/account/account_request.hpp"
#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/account/pairwise_summary.hpp"
#include "netdp/accounting/mf/mf_compare.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/dp/rdp.hpp"
#include "netdp/gossip/network_spec.hpp"
#include "netdp/gossip/schedule.hpp"
#include "netdp/gossip/spectral.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/graph.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/learn/toml_config.hpp"
#include "netdp/learn/train.hpp"
#include "netdp/linalg/thread_policy.hpp"
#include "netdp/mf/factorize_request.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/memory.hpp"

namespace py = pybind11;

namespace netdp::python {
namespace {

/// A numpy array that owns `values` (moved to the heap; freed with the array).
template <class T>
py::array_t<T> owned_array(std::vector<T>&& values, std::vector<py::ssize_t> shape) {
  auto* heap = new std::vector<T>(std::move(values));
  const py::capsule owner(heap, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>(shape, heap->data(), owner);
}

/// Runs `work` (a callable that owns everything it touches and never touches Python) on a thread
/// of its own, without the GIL, and waits for its result, checking for signals every 100 ms: Ctrl-C
/// raises KeyboardInterrupt within that time, and the interrupted work finishes in the background,
/// its result dropped (the library has no point to stop at). An exception of `work` is rethrown.
template <class Result, class Work>
Result run_interruptibly(Work work) {
  struct State {
    std::mutex mutex;
    std::condition_variable finished;
    bool done = false;
    std::optional<Result> result;
    std::exception_ptr error;
  };
  const auto state = std::make_shared<State>();
  std::thread([state, work = std::move(work)]() mutable {
    try {
      state->result.emplace(work());
    } catch (...) {
      state->error = std::current_exception();
    }
    {
      const std::lock_guard<std::mutex> lock(state->mutex);
      state->done = true;
    }
    state->finished.notify_all();
  }).detach();
  bool interrupted = false;
  {
    const py::gil_scoped_release release;
    std::unique_lock<std::mutex> lock(state->mutex);
    while (
        !state->finished.wait_for(lock, std::chrono::milliseconds(100), [&state] { return state->done; })) {
      lock.unlock();
      {
        const py::gil_scoped_acquire acquire;
        interrupted = PyErr_CheckSignals() != 0;
      }
      if (interrupted) break;
      lock.lock();
    }
  }
  if (interrupted) throw py::error_already_set();  // the KeyboardInterrupt PyErr_CheckSignals set
  if (state->error) std::rethrow_exception(state->error);
  return std::move(*state->result);
}

graph::Graph graph_from_spec(const std::string& spec, bool lcc, std::uint64_t seed) {
  return gossip::load_graph({.graph = spec, .lcc = lcc, .seed = seed});
}

graph::Graph graph_from_edges(std::size_t num_nodes,
                              const py::array_t<std::int64_t, py::array::c_style>& edges,
                              std::optional<std::vector<std::string>> labels) {
  require(edges.ndim() == 2 && (edges.shape(1) == 2 || edges.shape(0) == 0),
          "edges must be an (m, 2) array of node indices, got shape ({}{})", edges.shape(0),
          edges.ndim() == 2 ? ", " + std::to_string(edges.shape(1)) : "");
  std::vector<graph::Edge> list;
  const auto view = edges.unchecked<2>();
  for (py::ssize_t i = 0; i < edges.shape(0); ++i) {
    const std::int64_t u = view(i, 0);
    const std::int64_t v = view(i, 1);
    require(u >= 0 && v >= 0 && static_cast<std::uint64_t>(u) < num_nodes &&
                static_cast<std::uint64_t>(v) < num_nodes,
            "edge {} = ({}, {}) has an endpoint outside 0..{}", i, u, v, num_nodes - 1);
    require(u != v, "edge {} = ({}, {}) is a self-loop: a gossip graph has none", i, u, v);
    list.push_back({static_cast<graph::NodeId>(u), static_cast<graph::NodeId>(v)});
  }
  graph::Graph g = graph::Graph::from_edges(num_nodes, list);
  if (labels) g.set_labels(std::move(*labels));
  return g;
}

py::array_t<std::int64_t> graph_edges(const graph::Graph& g) {
  std::vector<std::int64_t> flat;
  for (const graph::Edge& e : g.edges()) {
    flat.push_back(e.u);
    flat.push_back(e.v);
  }
  const auto m = static_cast<py::ssize_t>(flat.size() / 2);
  return owned_array(std::move(flat), {m, 2});
}

std::vector<std::string> graph_labels(const graph::Graph& g) {
  std::vector<std::string> out;
  out.reserve(g.num_nodes());
  for (graph::NodeId v = 0; v < g.num_nodes(); ++v) out.push_back(g.label(v));
  return out;
}

/// W in CSR: (indptr, indices, data), rows summing to 1.
py::tuple gossip_csr(const graph::Graph& g, const std::string& weights) {
  const gossip::GossipMatrix w = gossip::make_gossip_matrix(g, gossip::parse_weighting(weights));
  const SparseMatrix& m = w.matrix();
  std::vector<std::int64_t> indptr(m.outerIndexPtr(), m.outerIndexPtr() + m.rows() + 1);
  std::vector<std::int64_t> indices(m.innerIndexPtr(), m.innerIndexPtr() + m.nonZeros());
  std::vector<double> data(m.valuePtr(), m.valuePtr() + m.nonZeros());
  const auto rows = static_cast<py::ssize_t>(indptr.size());
  const auto nnz = static_cast<py::ssize_t>(data.size());
  return py::make_tuple(owned_array(std::move(indptr), {rows}), owned_array(std::move(indices), {nnz}),
                        owned_array(std::move(data), {nnz}));
}

py::dict gossip_spectrum(const graph::Graph& g, const std::string& weights) {
  const gossip::GossipMatrix w = gossip::make_gossip_matrix(g, gossip::parse_weighting(weights));
  const gossip::SecondEigenvalue second = gossip::second_eigenvalue(w);
  py::dict out;
  out["second_eigenvalue_modulus"] = second.modulus;
  out["spectral_gap"] = second.spectral_gap;
  out["symmetric"] = w.is_symmetric();
  const std::optional<double> mixing = gossip::mixing_time_bound(w);
  out["mixing_time_bound"] = mixing ? py::cast(*mixing) : py::none();
  return out;
}

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

/// The rows of an account as numpy columns, plus what describes them.
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

/// calibrate_sigma on the account of one query (every pair, or one observer and/or target).
py::dict calibrate(const graph::Graph& g, const Setting& setting, const accounting::AccountRequest& request,
                   double target_epsilon, double delta, const std::string& on) {
  check_delta(delta);
  require(setting.observers.size() <= 1 && setting.targets.size() <= 1,
          "calibrate takes one observer and one target at most (or every pair), got {} and {}",
          setting.observers.size(), setting.targets.size());
  const accounting::Statistic statistic = accounting::parse_statistic(on);
  const Problem problem = make_problem(g, setting);
  const accounting::Calibration calibration =
      run_interruptibly<accounting::Calibration>([problem, request, statistic, target_epsilon, delta] {
        const auto built = accounting::make_account(problem.protocol, problem.query, request);
        return accounting::calibrate_sigma(*built, statistic, target_epsilon, delta);
      });
  py::dict out;
  out["sigma"] = calibration.sigma;
  out["achieved_epsilon"] = calibration.achieved_epsilon;
  out["closed_form"] = calibration.closed_form;
  out["evaluations"] = calibration.evaluations;
  out["on"] = on;
  return out;
}

py::dict account(const graph::Graph& g, const Setting& setting, const accounting::AccountRequest& request,
                 double sigma, double delta) {
  require(std::isfinite(sigma) && sigma > 0.0, "sigma must be a finite number > 0, got {}", sigma);
  check_delta(delta);
  struct Output {
    std::unique_ptr<accounting::PairwiseAccount> built;
    Columns columns;
    accounting::PairwiseSummary summary;
  };
  // The rows are streamed into the columns and the summary, observer block by block: the
  // account's rows are never all held as PairRow (an all-pairs run of 2048 nodes has 4.2 M).
  Output output =
      run_interruptibly<Output>([g, problem = make_problem(g, setting), setting, request, sigma, delta] {
        const accounting::PairQuery& query = problem.query;
        Output out;
        out.built = accounting::make_account(problem.protocol, query, request);
        accounting::SummaryBuilder summarizing(out.built->pair_count());
        out.columns.reserve(out.built->pair_count());
        std::vector<accounting::PairRow> block;
        out.built->stream_selected_rows(
            sigma, delta, query.colluders.empty() ? setting.observers : std::vector<graph::NodeId>{},
            setting.targets, [&](std::span<const accounting::PairRow> rows) {
              summarizing.add_with_distances(rows, block, &g, query);
              out.columns.add(block);
            });
        out.summary = summarizing.finish();
        return out;
      });
  Columns& columns = output.columns;
  const accounting::PairwiseSummary& summary = output.summary;
  const std::unique_ptr<accounting::PairwiseAccount>& built = output.built;
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
  const std::optional<double> failure = built->certificate_failure_probability();
  out["certificate_failure_probability"] = failure ? py::cast(*failure) : py::none();
  out["method"] = std::string(built->method());
  out["bound"] = util::name_of(accounting::kGuaranteeNames, built->guarantee());
  out["valid_bound"] = built->valid_bound();
  out["warnings"] = built->warnings();
  py::list diagnostics;
  for (const accounting::Diagnostic& d : built->diagnostics()) {
    py::dict item;
    item["kind"] = std::string(util::name_of(accounting::kDiagnosticKindNames, d.kind));
    item["count"] = d.count;
    item["text"] = d.text;
    diagnostics.append(item);
  }
  out["diagnostics"] = diagnostics;
  out["summary"] = summary_dict(summary);
  return out;
}

/// `netdp train` on a config: a TOML file (its relative paths from its folder) or keys already
/// flat, then overrides (relative paths from the working directory), as the command merges them.
py::dict train(const std::optional<std::string>& path, learn::FlatConfig given, learn::FlatConfig overrides) {
  if (path) {
    given = learn::load_toml_config(*path);
    learn::resolve_relative_paths(given, std::filesystem::absolute(*path).parent_path());
  }
  learn::resolve_relative_paths(overrides, std::filesystem::current_path());
  for (auto& [key, value] : overrides) given[key] = std::move(value);
  const learn::TrainResult result = run_interruptibly<learn::TrainResult>(
      [config = learn::parse_train_config(given)] { return learn::run_training(config); });
  const auto nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::int64_t> round;
  std::vector<double> train_loss, test_loss, test_accuracy, average_loss, average_accuracy, consensus,
      epsilon;
  for (const learn::EvalRecord& r : result.history) {
    round.push_back(static_cast<std::int64_t>(r.round));
    train_loss.push_back(r.train_loss);
    test_loss.push_back(r.test_loss);
    test_accuracy.push_back(r.test_accuracy.value_or(nan));
    average_loss.push_back(r.average_model_test_loss);
    average_accuracy.push_back(r.average_model_accuracy.value_or(nan));
    consensus.push_back(r.consensus_distance);
    epsilon.push_back(r.epsilon_so_far);
  }
  const auto n = static_cast<py::ssize_t>(round.size());
  py::dict metrics;  // metrics.csv's columns
  metrics["round"] = owned_array(std::move(round), {n});
  metrics["train_loss"] = owned_array(std::move(train_loss), {n});
  metrics["test_loss"] = owned_array(std::move(test_loss), {n});
  metrics["test_accuracy"] = owned_array(std::move(test_accuracy), {n});
  metrics["average_model_test_loss"] = owned_array(std::move(average_loss), {n});
  metrics["average_model_accuracy"] = owned_array(std::move(average_accuracy), {n});
  metrics["consensus_distance"] = owned_array(std::move(consensus), {n});
  metrics["epsilon"] = owned_array(std::move(epsilon), {n});
  py::dict summary;
  summary["algorithm"] = result.algorithm;
  summary["sigma"] = result.sigma;
  summary["epsilon"] = result.epsilon;
  summary["delta"] = result.delta;
  summary["accountant"] = result.accountant;
  summary["valid_bound"] = result.valid_bound;
  summary["target_epsilon"] = result.target_epsilon ? py::cast(*result.target_epsilon) : py::none();
  summary["final_test_loss"] = result.final_test_loss;
  summary["final_test_accuracy"] =
      result.final_test_accuracy ? py::cast(*result.final_test_accuracy) : py::none();
  summary["warnings"] = result.warnings;
  summary["config"] = result.config;
  py::dict out;
  out["metrics"] = metrics;
  out["summary"] = summary;
  return out;
}

/// `netdp factorize`: C, its loss, sensitivity and certificate (dl: on the graph's W).
py::dict factorize(const mf::FactorizeRequest& request, const std::optional<graph::Graph>& g,
                   const std::string& weights) {
  mf::check_factorize_request(request);
  std::optional<gossip::GossipMatrix> w;
  if (g) w = gossip::make_gossip_matrix(*g, gossip::parse_weighting(weights));
  mf::Factorization f = run_interruptibly<mf::Factorization>([request, w] {
    const DenseMatrix h = mf::workload_gram(request, w ? &*w : nullptr);
    return mf::factorize(request, h,
                         mf::make_participation(request.rounds, request.participations, request.separation));
  });
  const bool certified = f.certificate_kind != mf::CertificateKind::none && std::isfinite(f.certificate);
  py::dict certificate;
  certificate["kind"] = mf::to_string(f.certificate_kind);
  certificate["value"] = certified ? py::cast(f.certificate) : py::none();
  certificate["lower_bound"] = f.lower_bound;
  certificate["global_lower_bound"] = f.global_lower_bound;
  certificate["iterations"] = f.iterations;
  certificate["converged"] = f.converged;
  py::dict out;
  out["c"] = py::array_t<double>(py::cast(std::move(f.c)));
  out["loss"] = f.loss;
  out["sensitivity"] = f.sensitivity;
  out["sensitivity_exact"] = f.sensitivity_exact;
  out["trace"] = f.trace;
  out["certificate"] = certificate;
  return out;
}

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
}  // namespace netdp::python

PYBIND11_MODULE(_netdp, m) {
  using namespace netdp;
  if (const auto note = linalg::apply_thread_policy().note)
    PyErr_WarnEx(PyExc_RuntimeWarning, note->c_str(), 1);
  m.doc() = "The compiled core of netdp; use the netdp package, which wraps it.";
  // A run refused for its memory estimate is MemoryError, an input file that cannot be opened
  // FileNotFoundError; other refusals stay ValueError.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const util::MemoryLimitError& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    } catch (const std::bad_alloc&) {
      PyErr_SetString(PyExc_MemoryError,
                      util::out_of_memory_message("this netdp call", "netdp.set_max_memory").c_str());
    } catch (const FileError& e) {
      PyErr_SetString(PyExc_FileNotFoundError, e.what());
    }
  });
  m.def(
      "set_max_memory",
      [](const std::optional<std::string>& size) {
        util::set_memory_limit(size ? util::parse_memory_size(*size) : 0.0);
      },
      py::arg("size"),
      "Refuse (MemoryError) any call whose memory estimate exceeds this, as --max-memory (e.g. '512M'); "
      "None: the "
      "machine's memory.");

  py::class_<graph::Graph>(m, "Graph", "An undirected simple graph (the library's graph::Graph).")
      .def_static("from_spec", &python::graph_from_spec, py::arg("spec"), py::arg("lcc") = false,
                  py::arg("seed") = 1,
                  "The graph of a SPEC string (`netdp help specs`), e.g. 'hypercube:d=6'.")
      .def_static("from_edges", &python::graph_from_edges, py::arg("num_nodes"), py::arg("edges"),
                  py::arg("labels") = py::none(),
                  "A graph on num_nodes nodes from an (m, 2) array of indices.")
      .def_property_readonly("num_nodes", &graph::Graph::num_nodes)
      .def_property_readonly("num_edges", &graph::Graph::num_edges)
      .def_property_readonly("labels", &python::graph_labels,
                             "Each node's label (its index when unlabelled).")
      .def_property_readonly("relabelled", &graph::Graph::relabelled)
      .def_property_readonly("notes", &graph::Graph::notes)
      .def("edges", &python::graph_edges, "The edges once each as an (m, 2) array, u < v.")
      .def("find", &graph::Graph::find, py::arg("label"), "The index of the node with this label, or None.");

  m.def("gossip_csr", &python::gossip_csr, py::arg("graph"), py::arg("weights"));
  m.def("gossip_spectrum", &python::gossip_spectrum, py::arg("graph"), py::arg("weights"));

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

  py::class_<python::Setting>(m, "Setting", "Where the protocol runs and which pairs a call reports.")
      .def(py::init<>())
      .def_readwrite("weights", &python::Setting::weights)
      .def_readwrite("matrix", &python::Setting::matrix)
      .def_readwrite("rounds", &python::Setting::rounds)
      .def_readwrite("schedule", &python::Setting::schedule)
      .def_readwrite("seed", &python::Setting::seed)
      .def_readwrite("sensitivity", &python::Setting::sensitivity)
      .def_readwrite("observers", &python::Setting::observers)
      .def_readwrite("targets", &python::Setting::targets)
      .def_readwrite("colluders", &python::Setting::colluders)
      .def_readwrite("group", &python::Setting::group)
      .def_readwrite("alpha", &python::Setting::alpha);
  m.def("account", &python::account, py::arg("graph"), py::arg("setting"), py::arg("request"),
        py::arg("sigma"), py::arg("delta"));
  m.def("calibrate", &python::calibrate, py::arg("graph"), py::arg("setting"), py::arg("request"),
        py::arg("target_epsilon"), py::arg("delta"), py::arg("on"));

  py::class_<mf::FactorizeRequest>(m, "FactorizeRequest",
                                   "The MF problem, named as `netdp factorize` names it.")
      .def(py::init<>())
      .def_property(
          "workload",
          [](const mf::FactorizeRequest& r) { return util::name_of(mf::kWorkloadNames, r.workload); },
          [](mf::FactorizeRequest& r, const std::string& name) { r.workload = mf::parse_workload(name); })
      .def_readwrite("rounds", &mf::FactorizeRequest::rounds)
      .def_readwrite("participations", &mf::FactorizeRequest::participations)
      .def_readwrite("separation", &mf::FactorizeRequest::separation)
      .def_readwrite("initial_power", &mf::FactorizeRequest::initial_power)
      .def_property(
          "method",
          [](const mf::FactorizeRequest& r) { return util::name_of(mf::kFactorizeMethodNames, r.method); },
          [](mf::FactorizeRequest& r, const std::string& name) {
            r.method = mf::parse_factorize_method(name);
          })
      .def_readwrite("bands", &mf::FactorizeRequest::bands);
  m.def("factorize", &python::factorize, py::arg("request"), py::arg("graph"), py::arg("weights"));
  m.def("compare", &python::compare, py::arg("graph"), py::arg("weights"), py::arg("rounds"),
        py::arg("gossip_steps"), py::arg("sigma"), py::arg("alpha"), py::arg("variant"),
        py::arg("secure_sum"));
  m.def("train", &python::train, py::arg("path"), py::arg("config"), py::arg("overrides"));

  m.def("default_rdp_orders", &dp::default_rdp_orders);
  m.def("gaussian_rdp", &dp::gaussian_rdp, py::arg("alpha"), py::arg("mu"));
  m.def(
      "rdp_to_dp",
      [](std::vector<double> orders, std::vector<double> epsilons, double delta, const std::string& method) {
        require(method == "improved" || method == "mironov", "method '{}' is not one of: improved, mironov",
                method);
        const dp::RdpConversion c = dp::rdp_to_dp(
            dp::RdpCurve(std::move(orders), std::move(epsilons)), delta,
            method == "improved" ? dp::RdpConversionMethod::improved : dp::RdpConversionMethod::mironov);
        return py::make_tuple(c.epsilon, c.alpha);
      },
      py::arg("orders"), py::arg("epsilons"), py::arg("delta"), py::arg("method"));
  m.def("gdp_epsilon", py::overload_cast<double, double>(&dp::gdp_epsilon), py::arg("mu"), py::arg("delta"));
  m.def("gdp_delta", &dp::gdp_delta, py::arg("mu"), py::arg("epsilon"));
  m.def("gdp_mu_for", &dp::gdp_mu_for, py::arg("epsilon"), py::arg("delta"));
}
