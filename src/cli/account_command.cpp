// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// `netdp account`: pairwise privacy of every (observer, target) pair under one
// of the accountants, with a summary by distance, baselines and calibration.

#include <fmt/ostream.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <set>
#include <sstream>

#include "account_report.hpp"
#include "commands.hpp"
#include "netdp/accounting/account/pair_extremes.hpp"
#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/account/pairwise_summary.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/gossip/network_spec.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/mpi/distributed_account.hpp"
#include "netdp/util/atomic_file.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/enum_names.hpp"
#include "netdp/util/npy.hpp"
#include "netdp/util/parse_number.hpp"
#include "network_options.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "request_options.hpp"

namespace netdp::cli {
namespace {

// The flags of `netdp account`, as typed; parsed into the library's Protocol, PairQuery and the
// accountant's own options by accounting::make_account.
struct AccountOptions {
  NetworkOptions network;
  RequestOptions accountant;  ///< --method and the accountant's own flags
  std::size_t rounds = 10;
  std::size_t max_rounds = 1000000;
  double sigma = 1.0;
  double delta = 1e-5;
  std::optional<double> alpha;
  double sensitivity = 1.0;  ///< Δ
  NodeOption observer;
  NodeOption target;
  std::string colluders;
  std::string group;
  std::string schedule = "fixed";
  // calibration and output
  std::optional<double> target_epsilon;
  std::optional<std::string> calibrate_on;  ///< mean (default) | max | pair, with --target-epsilon
  OutputOptions output;
  bool csv = false;
  bool summary_only = false;
  std::string out;
  std::optional<std::string> field;             ///< the matrix of a .npy output (MatrixField)
  std::optional<std::size_t> observers_sample;  ///< K observers drawn by --seed instead of all
  std::size_t top = 0;                          ///< --top K: the K pairs of largest ε
  std::size_t histogram_bins = 0;               ///< --histogram BINS
  std::string maxima;                           ///< --maxima PREFIX: per-observer and per-target maxima
};

bool writes_npy(const AccountOptions& o) { return o.out.ends_with(".npy"); }

/// The confidence of a sampled run's intervals.
constexpr double kSampleConfidence = 0.95;

/// The field of a .npy output (--field).
enum class MatrixField { epsilon, mu, rdp_epsilon, mu_lower, certificate };
constexpr auto kMatrixFieldNames =
    std::to_array<util::EnumName<MatrixField>>({{MatrixField::epsilon, "epsilon"},
                                                {MatrixField::mu, "mu"},
                                                {MatrixField::rdp_epsilon, "rdp_epsilon"},
                                                {MatrixField::mu_lower, "mu_lower"},
                                                {MatrixField::certificate, "certificate"}});
static_assert(util::is_valid_enum_table(kMatrixFieldNames));

/// --field's value (default epsilon); throws naming the value and the choices.
MatrixField matrix_field(const std::optional<std::string>& name) {
  return util::parse_enum(kMatrixFieldNames, name.value_or("epsilon"), "--field");
}

/// The n × n matrix of one field for a .npy output: row = observer, column = target, the diagonal
/// the local-DP value (epsilon, mu, or the Rényi ε α·μ²/2 of the local μ at the rows' order), NaN
/// where the account has no pair. `certificate` holds each pair's kind as its code (the order of
/// accounting::kCertificateNames: 0 exact, 1 upper-bound, 2 cap-in-span, 3 cap-undetermined,
/// 4 paper-formula), `mu_lower` the certified lower bound on μ (NaN: none).
class NodeMatrix {
 public:
  NodeMatrix(std::size_t n, MatrixField field, const accounting::Baseline& local)
      : n_(n), field_(field), values_(n * n, std::numeric_limits<double>::quiet_NaN()), local_mu_(local.mu) {
    // The Rényi diagonal needs the rows' order (write); ε and μ are known now.
    if (field_ == MatrixField::rdp_epsilon || field_ == MatrixField::certificate ||
        field_ == MatrixField::mu_lower)
      return;
    for (std::size_t v = 0; v < n; ++v)
      values_[v * n + v] = field_ == MatrixField::mu ? local.mu : local.epsilon;
  }
  void add(std::span<const accounting::PairRow> rows) {
    if (n_ == 0) return;
    for (const accounting::PairRow& row : rows) {
      const double nan = std::numeric_limits<double>::quiet_NaN();
      double value = row.rdp_epsilon;
      switch (field_) {
        case MatrixField::epsilon:
          value = row.epsilon;
          break;
        case MatrixField::mu:
          value = row.mu.value_or(nan);
          break;
        case MatrixField::rdp_epsilon:
          break;
        case MatrixField::mu_lower:
          value = row.mu_lower.value_or(nan);
          break;
        case MatrixField::certificate:
          value = static_cast<double>(row.certificate);
          break;
      }
      values_[static_cast<std::size_t>(row.observer) * n_ + row.target] = value;
      if (field_ == MatrixField::rdp_epsilon) alphas_.insert(row.alpha);
    }
  }
  void write(std::ostream& out) {
    if (field_ == MatrixField::rdp_epsilon && alphas_.size() == 1) {
      for (std::size_t v = 0; v < n_; ++v)
        values_[v * n_ + v] = *alphas_.begin() * local_mu_ * local_mu_ / 2.0;
    }
    util::write_npy_matrix(out, values_.data(), n_, n_);
  }

 private:
  std::size_t n_;
  MatrixField field_;
  std::vector<double> values_;
  double local_mu_;
  std::set<double> alphas_;
};

// The flags' values checked with the flags' names (the library checks them again in its words).
// `request` is the accountant's request with its files read (RequestOptions::resolved).
void check_flags(const AccountOptions& o, const accounting::AccountRequest& request) {
  require_positive(o.sigma, "--sigma");
  require_positive(o.sensitivity, "--sensitivity");
  // μ = Δ/σ at most (a pair's loss never exceeds the local one), and ε ≈ μ²/2 must stay finite.
  require(o.sensitivity / o.sigma <= 1e150,
          "--sigma {} is so small that the noise ratio Δ/σ = {:g} overflows the privacy loss (ε ≈ (Δ/σ)²/2): "
          "σ must be at least Δ·1e-150",
          o.sigma, o.sensitivity / o.sigma);
  require(o.rounds >= 1, "--rounds must be >= 1, got {}", o.rounds);
  require(o.rounds <= o.max_rounds,
          "--rounds {} exceeds --max-rounds {} (a guard against a mistyped count: every accountant's time "
          "grows with the rounds); raise --max-rounds for a longer run",
          o.rounds, o.max_rounds);
  require(o.delta > 0.0 && o.delta < 1.0, "--delta must be in (0, 1), got {}", o.delta);
  require(o.delta >= std::numeric_limits<double>::min(),
          "--delta {} is subnormal: δ must be a normal number (>= {:g}), below which the conversions lose "
          "their accuracy",
          o.delta, std::numeric_limits<double>::min());
  if (o.alpha) require(std::isfinite(*o.alpha) && *o.alpha > 1.0, "--alpha must be > 1, got {}", *o.alpha);
  accounting::check_request(request);
  require(!(o.output.json && o.csv), "choose one of --json and --csv");
  require(!writes_npy(o) || !(o.output.json || o.csv),
          "--out {}: a .npy file holds the n x n matrix of --field; drop --json / --csv", o.out);
  require(!o.field || writes_npy(o), "--field {} selects the matrix of a .npy output: add --out FILE.npy",
          o.field.value_or(""));
  (void)matrix_field(o.field);
  require(!o.summary_only || o.output.json,
          "--summary-only applies to --json (a CSV or a table is its rows); use --json --summary-only");
  if (o.calibrate_on) (void)accounting::parse_statistic(*o.calibrate_on);
  require(o.histogram_bins <= 100000, "--histogram {} bins: at most 100000 (a summary, not the pairs)",
          o.histogram_bins);
  // Before the account, which can take hours: where its results go.
  if (!o.out.empty()) util::check_destination(o.out, "--out");
  if (!o.maxima.empty()) {
    for (const char* suffix : {".observer_max.npy", ".target_max.npy", ".labels.txt"})
      util::check_destination(o.maxima + suffix, "--maxima");
  }
  require(o.top <= 1000000, "--top {}: at most 1000000 pairs (for more, list the pairs with --csv)", o.top);
  require(!o.observers_sample || (!o.observer.given() && o.colluders.empty() && o.group.empty()),
          "--observers-sample {} draws observers of its own; drop --observer, --colluders and --group",
          o.observers_sample.value_or(0));
  require(o.target_epsilon || !o.calibrate_on,
          "--calibrate-on {} chooses what --target-epsilon calibrates; add --target-epsilon E, or drop it",
          o.calibrate_on.value_or(""));
  if (o.target_epsilon) {
    require_positive(*o.target_epsilon, "--target-epsilon");
    require(o.calibrate_on != "pair" || (o.observer.given() && o.target.given()),
            "--calibrate-on pair needs --observer and --target");
  }
}

nlohmann::ordered_json parameters_json(const AccountOptions& o, const accounting::AccountRequest& r,
                                       const accounting::PairQuery& query, const NodeNames& names) {
  const auto node = [&names](const std::optional<graph::NodeId>& v) {
    return v ? names.json(*v) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json p;
  const gossip::NetworkSpec network = network_spec(o.network, o.output.seed);
  p["graph"] = network.graph;
  p["lcc"] = network.lcc;
  p["weights"] = network.matrix.empty() ? o.network.weights : "file";
  if (!network.matrix.empty()) p["matrix"] = network.matrix;
  p["nodes"] = names.size();
  p["method"] = util::name_of(accounting::kMethodNames, r.method);
  p["observer"] = node(query.observer);
  p["target"] = node(query.target);
  p["rounds"] = o.rounds;
  p["schedule"] = o.schedule;
  p["seed"] = o.output.seed;
  if (o.observers_sample) p["observers_sample"] = *o.observers_sample;
  p["sensitivity"] = o.sensitivity;
  p["alpha"] = o.alpha ? nlohmann::ordered_json(*o.alpha) : nlohmann::ordered_json(nullptr);
  const std::string release_dimension = accounting::release_dimension_name(r.release_dimension_or_default());
  const std::string_view sign_search =
      util::name_of(accounting::kSignSearchNames, accounting::release_options(r).sign_search);
  if (r.method == accounting::Method::muffliato) {
    p["bound"] = util::name_of(accounting::kMuffliatoBoundNames, r.bound_or_default());
    p["messages"] = r.authors_convention ? "authors-code" : "paper";
    p["observer_noise"] = r.count_observer_noise ? "counted" : "known";
    nlohmann::ordered_json group = nlohmann::ordered_json::array();
    for (const graph::NodeId v : query.group) group.push_back(names.json(v));
    p["group"] = std::move(group);
    p["gradient_steps"] = r.gradient_steps;
    if (r.gradient_steps > 0) p["release_dimension"] = release_dimension;
  } else if (r.method == accounting::Method::random_walk) {
    p["contributions"] = r.contributions_or_default().name();
    p["tail_share"] = r.tail_share_or_default();
    p["sender_known"] = r.sender_known;
  } else if (r.method == accounting::Method::linear_system) {
    p["view"] = accounting::linear_system_view_name(r.view_or_default());
    p["first_power"] =
        r.first_power ? nlohmann::ordered_json(*r.first_power) : nlohmann::ordered_json("paper");
    p["gossip_steps"] = r.gossip_steps_or_default();
    p["keep_observer_noise"] = r.keep_observer_noise;
    p["sign_search"] = sign_search;
    p["release_dimension"] = release_dimension;
  } else if (r.method == accounting::Method::mf) {
    p["sign_search"] = sign_search;
    p["release_dimension"] = release_dimension;
    p["trust"] = accounting::to_string(r.trust_or_default());
    p["algorithm"] = accounting::to_string(r.algorithm_or_default());
    p["gossip_steps"] = r.gossip_steps_or_default();
    p["participation"] = accounting::mf_participation_name(r);
  }
  return p;
}

/// Whether the output lists the pairs (JSON with its rows, CSV), not only what sums them up.
bool prints_rows(const AccountOptions& o) { return (o.output.json && !o.summary_only) || o.csv; }

void run_account(const AccountOptions& o) {
  const gossip::GossipMatrix w = load_gossip_matrix(o.network, o.output);
  const std::size_t n = w.num_nodes();
  accounting::AccountRequest request = o.accountant.resolved();
  check_flags(o, request);
  if (!graph::is_connected(w.graph())) {
    const std::size_t components = graph::connected_components(w.graph()).count();
    const gossip::NetworkSpec network = network_spec(o.network, o.output.seed);
    require(!network.graph.empty(),
            "the graph of --matrix {} (W's support) is disconnected ({} components): gossip never mixes "
            "across them; give a W whose support is connected",
            network.matrix, components);
    throw std::invalid_argument(
        fmt::format("graph '{}' is disconnected ({} components); use --lcc or a connected graph",
                    network.graph, components));
  }
  const accounting::Statistic statistic = accounting::parse_statistic(o.calibrate_on.value_or("mean"));
  const accounting::Protocol protocol =
      make_protocol(w, o.network, o.schedule, o.rounds, o.output.seed, o.sensitivity);
  accounting::PairQuery query;
  query.observer = resolve_node(w.graph(), o.observer, "observer");
  query.target = resolve_node(w.graph(), o.target, "target");
  if (!o.colluders.empty()) query.colluders = resolve_node_list(w.graph(), o.colluders, "colluders");
  if (!o.group.empty()) query.group = resolve_node_list(w.graph(), o.group, "group");
  query.alpha = o.alpha;
  if (o.observers_sample) {
    require(*o.observers_sample >= 1 && *o.observers_sample <= n,
            "--observers-sample must be 1 to the {} nodes of the graph, got {}", n, *o.observers_sample);
    query.observers = accounting::sample_observers(n, *o.observers_sample, o.output.seed);
  }
  ProgressReporter progress = ProgressReporter::for_stderr(o.output.quiet, "netdp account");
  progress.phase(fmt::format("the {} accountant", util::name_of(accounting::kMethodNames, request.method)));
  request.pair_fields = prints_rows(o);  // a summary or a matrix needs each pair's μ only
  // Under mpirun, split across the ranks: rank 0 gets the whole account, and writes everything.
  std::vector<mpi::ShareReport> shares;
  const std::unique_ptr<accounting::PairwiseAccount> account =
      mpi::make_distributed_account(protocol, query, request, progress.callback(), &shares);
  if (!account) return;
  if (!o.output.quiet) {
    for (const mpi::ShareReport& share : shares)
      fmt::print(std::cerr, "netdp: rank {} of {} accounted {} observers in {:.3g} s\n", share.rank,
                 shares.size(), share.observers, share.seconds);
  }

  AccountReport report;
  report.method = util::name_of(accounting::kMethodNames, request.method);
  report.bound = util::name_of(accounting::kGuaranteeNames, account->guarantee());
  report.valid_bound = account->valid_bound();
  report.certificate_failure_probability = account->certificate_failure_probability();
  report.num_nodes = n;
  report.num_edges = w.graph().num_edges();
  report.delta = o.delta;
  report.colluders = query.colluders;
  report.names = NodeNames(w.graph());
  report.parameters = parameters_json(o, request, query, report.names);
  report.run = run_json(o.network, o.output);
  report.sigma = o.sigma;
  if (o.target_epsilon) {
    progress.phase(fmt::format("calibration to ε = {} ({}), evaluations", *o.target_epsilon,
                               o.calibrate_on.value_or("mean")));
    accounting::CalibrationOptions calibration_options;
    calibration_options.sigma_start = o.sigma;
    calibration_options.progress = [&progress](std::size_t evaluations) { progress.update(evaluations); };
    const accounting::Calibration c =
        accounting::calibrate_sigma(*account, statistic, *o.target_epsilon, o.delta, calibration_options);
    report.sigma = c.sigma;
    report.calibration = {{"target_epsilon", *o.target_epsilon},
                          {"calibrate_on", o.calibrate_on.value_or("mean")},
                          {"sigma", c.sigma},
                          {"achieved_epsilon", c.achieved_epsilon},
                          {"closed_form", c.closed_form},
                          {"evaluations", c.evaluations}};
  }
  report.local_dp = accounting::local_dp_baseline(*account, report.sigma, o.delta);
  report.central_dp = accounting::central_dp_baseline(*account, n, report.sigma, o.delta);
  // What the graph's reader changed leads the warnings of the JSON (it was printed when read).
  const std::vector<std::string>& graph_notes = w.graph().notes();
  report.warnings = graph_notes;
  for (std::string& warning : account->warnings()) report.warnings.push_back(std::move(warning));

  // The rows stream from the accountant to the output block by block; only the summary is kept.
  const RowWriter::Format format =
      o.output.json ? (o.summary_only ? RowWriter::Format::json_summary_only : RowWriter::Format::json)
      : o.csv       ? RowWriter::Format::csv
                    : RowWriter::Format::none;
  const bool distances = gossip::uses_base_graph(protocol.schedule);
  NodeMatrix matrix(writes_npy(o) ? n : 0, matrix_field(o.field), report.local_dp);
  // --out - or /dev/stdout: the machine output goes to stdout, in place of the human table.
  const bool to_stdout = o.out.empty() || util::is_standard_output(o.out);
  accounting::PairExtremes extremes(o.top > 0 || !o.maxima.empty() ? n : 0, o.top);
  const auto write = [&](std::ostream& out) {
    RowWriter writer(out, to_stdout ? "standard output" : "'" + o.out + "'", format, report.names,
                     report.bound, o.delta);
    accounting::SummaryBuilder summary(account->pair_count());
    std::optional<accounting::SampleEstimator> estimator;
    if (o.observers_sample) estimator.emplace(n, *o.observers_sample);
    // The consumer's own copy of each chunk: filling distances into the accountant's buffer made
    // the next chunk's rows bounce between the cores' caches.
    std::vector<accounting::PairRow> block;
    progress.phase("pairs (ε, summary, output)", account->pair_count());
    std::size_t done = 0;
    account->stream_rows(report.sigma, o.delta, [&](std::span<const accounting::PairRow> rows) {
      progress.update(done += rows.size());
      summary.add_with_distances(rows, block, distances ? &w.graph() : nullptr, query);
      if (estimator) estimator->add(block);
      if (o.top > 0 || !o.maxima.empty()) extremes.add(block);
      writer.write(block);
      matrix.add(block);
    });
    progress.finish();
    report.summary = summary.finish(account->observer_details(report.sigma), o.histogram_bins);
    report.top = extremes.top();
    if (estimator)
      report.sample = sample_json(*o.observers_sample, n, o.output.seed, kSampleConfidence,
                                  estimator->finish(kSampleConfidence));
    for (accounting::Diagnostic& d : accounting::summary_warnings(report.summary))
      report.warnings.push_back(std::move(d.text));
    writer.finish(report);
    if (format == RowWriter::Format::none && !writes_npy(o)) write_human(out, report);
  };
  // Machine output to stdout or the file; with a file, the human table to stdout; warnings to stderr.
  if (o.out.empty()) {
    write(std::cout);
  } else if (writes_npy(o)) {
    std::ostringstream none;
    write(none);
    progress.phase("writing " + o.out);
    util::write_file_atomically(o.out, [&](std::ostream& file) { matrix.write(file); });
    write_labels_file(o.out, report.names);
    progress.finish();
  } else {
    util::write_file_atomically(o.out, write);
  }
  if (!o.maxima.empty()) {
    for (const auto& [suffix, values] : {std::pair{".observer_max.npy", &extremes.observer_max()},
                                         std::pair{".target_max.npy", &extremes.target_max()}}) {
      util::write_file_atomically(o.maxima + suffix, [&](std::ostream& file) {
        util::write_npy_vector(file, values->data(), values->size());
      });
    }
    write_labels_file(o.maxima + ".npy", report.names);
  }
  if (!to_stdout && (o.output.json || o.csv || writes_npy(o))) write_human(std::cout, report);
  write_warnings(
      {report.warnings.begin() + static_cast<std::ptrdiff_t>(graph_notes.size()), report.warnings.end()},
      o.output);
}

}  // namespace

void add_account_command(CLI::App& app) {
  auto options = std::make_shared<AccountOptions>();
  auto* cmd = app.add_subcommand("account", "Pairwise privacy loss of every (observer, target) pair");
  AccountOptions& r = *options;
  add_network_options(cmd, options->network);
  add_request_options(cmd, r.accountant);
  cmd->add_option("--rounds,-T", r.rounds, "Rounds T (gossip rounds, walk steps, or gradient steps)")
      ->capture_default_str();
  cmd->add_option("--max-rounds", options->max_rounds, "Refuse --rounds above this (a guard against typos)")
      ->capture_default_str();
  cmd->add_option("--sigma", r.sigma, "Noise standard deviation σ (ν for linear views)")
      ->capture_default_str();
  cmd->add_option("--delta", r.delta, "δ of the reported (ε, δ)")->capture_default_str();
  cmd->add_option(
      "--alpha", r.alpha,
      "Rényi order of rdp_epsilon (default: 2 for Gaussian methods; optimised per pair for random-walk)");
  cmd->add_option("--sensitivity", r.sensitivity, "L2 sensitivity Δ of one contribution")
      ->capture_default_str();
  add_node_option(cmd, r.observer, "observer", "Only this observer (default: every node)");
  add_node_option(cmd, r.target, "target", "Only this target (default: every node)");
  cmd->add_option("--colluders", r.colluders, "A colluding set of observers by their labels, e.g. 1,5,7");
  cmd->add_option("--schedule", r.schedule,
                  "fixed | pairwise | er-per-round:p=P | dropout:p=P (`netdp help schedules`)")
      ->capture_default_str();
  cmd->add_option("--group", r.group, "muffliato: a group of targets by their labels (Theorem 13), e.g. 2,3");
  cmd->add_option("--target-epsilon", options->target_epsilon,
                  "Calibrate σ so that the chosen ε meets this target");
  cmd->add_option(
      "--calibrate-on", options->calibrate_on,
      "With --target-epsilon: calibrate the mean, max or one --observer/--target pair (default: mean)");
  add_output_options(cmd, options->output, "JSON: {\"pairs\": [...], \"summary\": {...}}");
  cmd->add_flag("--csv", options->csv, "CSV, one line per pair");
  cmd->add_flag("--summary-only", options->summary_only, "JSON without the pairs");
  cmd->add_option(
      "--out", options->out,
      "Write the JSON/CSV/table to this file; a name ending in .npy gets the n x n matrix of --field "
      "(float64, row = observer, column = target, diagonal = local DP, NaN = no pair) and F.labels.txt "
      "beside it, the label of node i on line i+1");
  cmd->add_option(
      "--observers-sample", options->observers_sample,
      "Account K observers drawn at random by --seed (every pair of each), and estimate the mean "
      "epsilon of all pairs by distance with 95 % confidence intervals (for graphs whose n^2 pairs "
      "are too many)");
  cmd->add_option("--top", options->top,
                  "Also list the K pairs of largest epsilon in the summary (kept as the pairs stream: with "
                  "--summary-only, the worst pairs of an account too large to list)");
  cmd->add_option(
      "--histogram", options->histogram_bins,
      "Also give a histogram of every pair's epsilon in BINS equal bins over [0, max] in the summary");
  cmd->add_option(
      "--maxima", options->maxima,
      "Write PREFIX.observer_max.npy and PREFIX.target_max.npy: each node's largest epsilon as an "
      "observer and as a target (float64 vectors, NaN: no pair), labels in PREFIX.labels.txt");
  cmd->add_option("--field", options->field,
                  "epsilon | mu | rdp_epsilon | mu_lower | certificate: the matrix of a .npy output (default "
                  "epsilon; certificate holds each pair's kind as a code: 0 exact, 1 upper-bound, 2 "
                  "cap-in-span, 3 cap-undetermined, 4 paper-formula)");
  cmd->callback([options] { run_account(*options); });
}

}  // namespace netdp::cli
