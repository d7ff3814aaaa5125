// `netdp account`: pairwise privacy of every (observer, target) pair under one
// of the accountants, with a summary by distance, baselines and calibration.

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
#include "mf_options.hpp"
#include "netdp/accounting/pairwise.hpp"
#include "netdp/accounting/pairwise_summary.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/gossip/network_spec.hpp"
#include "netdp/graph/metrics.hpp"
#include "netdp/util/atomic_file.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/enum_names.hpp"
#include "netdp/util/npy.hpp"
#include "netdp/util/parse_number.hpp"
#include "network_options.hpp"
#include "output.hpp"
#include "progress.hpp"

namespace netdp::cli {
namespace {

// The flags of `netdp account`, as typed; parsed into the library's Protocol, PairQuery and the
// accountant's own options by make_account.
struct AccountOptions {
  NetworkOptions network;
  std::string method = "muffliato";  ///< muffliato | random-walk | linear-system | mf
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
  // muffliato
  std::string bound = "exact";
  bool authors_convention = false;
  bool count_observer_noise = false;
  std::size_t gradient_steps = 0;
  // random-walk
  std::string contributions = "tail";  ///< tail | worst | expected | a number (a cap the protocol enforces)
  double tail_share = 0.1;
  bool sender_known = false;
  // linear-system
  std::string view = "secure-sum";
  std::optional<int> first_power;
  std::size_t gossip_steps = 1;
  bool keep_observer_noise = false;
  std::string sign_search = "none";
  std::string release_dimension = "vector";  ///< linear-system, mf, Muffliato-GD
  MfCommandOptions mf;
  // calibration and output
  std::optional<double> target_epsilon;
  std::optional<std::string> calibrate_on;  ///< mean (default) | max | pair, with --target-epsilon
  OutputOptions output;
  bool csv = false;
  bool summary_only = false;
  std::string out;
  std::optional<std::string> field;  ///< the matrix of a .npy output: epsilon | mu | rdp_epsilon
};

bool writes_npy(const AccountOptions& o) { return o.out.ends_with(".npy"); }

// --contributions K: a finite count >= 0 (the names tail | worst | expected are matched first).
double parse_contributions(const std::string& text) {
  const std::optional<double> value = util::parse_double(text);
  require(value && std::isfinite(*value) && *value >= 0.0,
          "--contributions '{}' is not one of tail, worst, expected, or a finite number >= 0", text);
  return *value;
}

/// The field of a .npy output (--field).
enum class MatrixField { epsilon, mu, rdp_epsilon };
constexpr auto kMatrixFieldNames = std::to_array<util::EnumName<MatrixField>>(
    {{MatrixField::epsilon, "epsilon"}, {MatrixField::mu, "mu"}, {MatrixField::rdp_epsilon, "rdp_epsilon"}});
static_assert(util::is_valid_enum_table(kMatrixFieldNames));

/// --field's value (default epsilon); throws naming the value and the choices.
MatrixField matrix_field(const std::optional<std::string>& name) {
  return util::parse_enum(kMatrixFieldNames, name.value_or("epsilon"), "--field");
}

/// The n × n matrix of one field for a .npy output: row = observer, column = target, the diagonal
/// the local-DP value (epsilon, mu, or the Rényi ε α·μ²/2 of the local μ at the rows' order), NaN
/// where the account has no pair.
class NodeMatrix {
 public:
  NodeMatrix(std::size_t n, MatrixField field, const accounting::Baseline& local)
      : n_(n), field_(field), values_(n * n, std::numeric_limits<double>::quiet_NaN()), local_mu_(local.mu) {
    // The Rényi diagonal needs the rows' order (write); ε and μ are known now.
    if (field_ == MatrixField::rdp_epsilon) return;
    for (std::size_t v = 0; v < n; ++v)
      values_[v * n + v] = field_ == MatrixField::mu ? local.mu : local.epsilon;
  }
  void add(std::span<const accounting::PairRow> rows) {
    if (n_ == 0) return;
    for (const accounting::PairRow& row : rows) {
      const double value = field_ == MatrixField::epsilon ? row.epsilon
                           : field_ == MatrixField::mu
                               ? row.mu.value_or(std::numeric_limits<double>::quiet_NaN())
                               : row.rdp_epsilon;
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

// --sign-search and --release-dimension (each checked against its rule, naming the flag).
accounting::AssessOptions release_options(const AccountOptions& o) {
  return {util::parse_enum(accounting::kSignSearchNames, o.sign_search, "--sign-search"),
          accounting::parse_release_dimension(o.release_dimension, "--release-dimension")};
}

// The flags' values checked with the flags' names (the library checks them again in its words).
void check_flags(const AccountOptions& o) {
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
  require(o.method == "muffliato" || (o.group.empty() && o.gradient_steps == 0),
          "--group and --gradient-steps apply to --method muffliato only");
  require(o.method == "random-walk" || (o.contributions == "tail" && o.tail_share == 0.1),
          "--contributions and --tail-share apply to --method random-walk only");
  require(std::isfinite(o.tail_share) && o.tail_share > 0.0 && o.tail_share < 1.0,
          "--tail-share must be in (0, 1) (the share of --delta spent on the contribution count), got {}",
          o.tail_share);
  require(o.method == "muffliato" || o.bound == "exact",
          "--bound {}: only --method muffliato has a paper formula that is not a bound (the other methods "
          "always report a valid upper bound)",
          o.bound);
  const bool linear_view =
      o.method == "linear-system" || o.method == "mf" || (o.method == "muffliato" && o.gradient_steps > 0);
  require(
      linear_view || o.release_dimension == "vector",
      "--release-dimension applies to the linear views only: --method linear-system, mf, or muffliato with "
      "--gradient-steps");
  require(
      o.sign_search == "none" || release_options(o).release_dimension == 1,
      "--sign-search {} maximises over scalar releases; add --release-dimension 1 (the default release is a "
      "vector, whose worst case is the SDP value)",
      o.sign_search);
  require(!(o.output.json && o.csv), "choose one of --json and --csv");
  require(!writes_npy(o) || !(o.output.json || o.csv),
          "--out {}: a .npy file holds the n x n matrix of --field; drop --json / --csv", o.out);
  require(!o.field || writes_npy(o), "--field {} selects the matrix of a .npy output: add --out FILE.npy",
          o.field.value_or(""));
  (void)matrix_field(o.field);
  require(!o.summary_only || o.output.json,
          "--summary-only applies to --json (a CSV or a table is its rows); use --json --summary-only");
  if (o.calibrate_on) (void)accounting::parse_statistic(*o.calibrate_on);
  require(o.target_epsilon || !o.calibrate_on,
          "--calibrate-on {} chooses what --target-epsilon calibrates; add --target-epsilon E, or drop it",
          o.calibrate_on.value_or(""));
  if (o.target_epsilon) {
    require_positive(*o.target_epsilon, "--target-epsilon");
    require(o.calibrate_on != "pair" || (o.observer.given() && o.target.given()),
            "--calibrate-on pair needs --observer and --target");
  }
}

std::unique_ptr<accounting::PairwiseAccount> make_account(const AccountOptions& o,
                                                          const accounting::Protocol& protocol,
                                                          const accounting::PairQuery& query,
                                                          const accounting::ProgressCallback& progress) {
  if (o.method == "muffliato") {
    accounting::MuffliatoOptions options;
    options.bound = util::parse_enum(accounting::kMuffliatoBoundNames, o.bound, "--bound");
    options.messages = o.authors_convention ? accounting::MessageConvention::authors_code
                                            : accounting::MessageConvention::paper;
    options.observer_noise =
        o.count_observer_noise ? accounting::ObserverNoise::counted : accounting::ObserverNoise::known;
    options.release_dimension = release_options(o).release_dimension;
    options.progress = progress;
    return accounting::muffliato_account(protocol, query, options, o.gradient_steps);
  }
  if (o.method == "random-walk") {
    accounting::RandomWalkOptions options;
    if (const auto count = util::find_enum(accounting::kContributionCountNames, o.contributions)) {
      options.count = *count;
    } else {
      options.contributions = parse_contributions(o.contributions);
    }
    options.tail_share = o.tail_share;
    options.view = o.sender_known ? accounting::RandomWalkView::sender_known
                                  : accounting::RandomWalkView::anonymous_sender;
    options.progress = progress;
    return accounting::random_walk_account(protocol, query, options);
  }
  if (o.method == "linear-system") {
    accounting::LinearSystemOptions options;
    options.view = accounting::parse_linear_system_view(o.view);
    options.first_power = o.first_power;
    options.gossip_steps = o.gossip_steps;
    options.keep_observer_noise = o.keep_observer_noise;
    return accounting::linear_system_account(protocol, query, options, release_options(o), progress);
  }
  if (o.method == "mf") {
    accounting::MfOptions options;
    options.assess = release_options(o);
    options.participation = o.mf.participation();
    options.progress = progress;
    return accounting::mf_account(protocol, query, o.mf.algorithm_spec(o.gossip_steps),
                                  accounting::parse_mf_trust(o.mf.trust), options);
  }
  throw std::invalid_argument(
      fmt::format("--method '{}' is not one of: muffliato, random-walk, linear-system, mf", o.method));
}

nlohmann::ordered_json parameters_json(const AccountOptions& o, const accounting::PairQuery& query,
                                       const NodeNames& names) {
  const auto node = [&names](const std::optional<graph::NodeId>& v) {
    return v ? names.json(*v) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json p;
  p["graph"] = o.network.graph_spec;
  p["lcc"] = o.network.lcc;
  p["weights"] = o.network.weights;
  p["nodes"] = names.size();
  p["method"] = o.method;
  p["observer"] = node(query.observer);
  p["target"] = node(query.target);
  p["rounds"] = o.rounds;
  p["schedule"] = o.schedule;
  p["seed"] = o.output.seed;
  p["sensitivity"] = o.sensitivity;
  p["alpha"] = o.alpha ? nlohmann::ordered_json(*o.alpha) : nlohmann::ordered_json(nullptr);
  if (o.method == "muffliato") {
    p["bound"] = o.bound;
    p["messages"] = o.authors_convention ? "authors-code" : "paper";
    p["observer_noise"] = o.count_observer_noise ? "counted" : "known";
    nlohmann::ordered_json group = nlohmann::ordered_json::array();
    for (const graph::NodeId v : query.group) group.push_back(names.json(v));
    p["group"] = std::move(group);
    p["gradient_steps"] = o.gradient_steps;
    if (o.gradient_steps > 0) p["release_dimension"] = o.release_dimension;
  } else if (o.method == "random-walk") {
    p["contributions"] = o.contributions;
    p["tail_share"] = o.tail_share;
    p["sender_known"] = o.sender_known;
  } else if (o.method == "linear-system") {
    p["view"] = o.view;
    p["first_power"] =
        o.first_power ? nlohmann::ordered_json(*o.first_power) : nlohmann::ordered_json("paper");
    p["gossip_steps"] = o.gossip_steps;
    p["keep_observer_noise"] = o.keep_observer_noise;
    p["sign_search"] = o.sign_search;
    p["release_dimension"] = o.release_dimension;
  } else if (o.method == "mf") {
    p["sign_search"] = o.sign_search;
    p["release_dimension"] = o.release_dimension;
    p["trust"] = o.mf.trust;
    p["algorithm"] = o.mf.algorithm;
    p["gossip_steps"] = o.gossip_steps;
    p["participation"] = o.mf.participation_name();
  }
  return p;
}

void run_account(const AccountOptions& o) {
  const gossip::GossipMatrix w = load_gossip_matrix(o.network, o.output);
  const std::size_t n = w.num_nodes();
  check_flags(o);
  require(graph::is_connected(w.graph()),
          "graph '{}' is disconnected ({} components); use --lcc or a connected graph", o.network.graph_spec,
          graph::connected_components(w.graph()).count());
  const accounting::Statistic statistic = accounting::parse_statistic(o.calibrate_on.value_or("mean"));
  const accounting::Protocol protocol =
      make_protocol(w, o.network, o.schedule, o.rounds, o.output.seed, o.sensitivity);
  accounting::PairQuery query;
  query.observer = resolve_node(w.graph(), o.observer, "observer");
  query.target = resolve_node(w.graph(), o.target, "target");
  if (!o.colluders.empty()) query.colluders = resolve_node_list(w.graph(), o.colluders, "colluders");
  if (!o.group.empty()) query.group = resolve_node_list(w.graph(), o.group, "group");
  query.alpha = o.alpha;
  ProgressReporter progress = ProgressReporter::for_stderr(o.output.quiet, "netdp account");
  progress.phase(fmt::format("the {} accountant", o.method));
  const std::unique_ptr<accounting::PairwiseAccount> account =
      make_account(o, protocol, query, progress.callback());

  AccountReport report;
  report.method = o.method;
  report.bound = account->bound();
  report.valid_bound = account->valid_bound();
  report.num_nodes = n;
  report.num_edges = w.graph().num_edges();
  report.delta = o.delta;
  report.colluders = query.colluders;
  report.names = NodeNames(w.graph());
  report.parameters = parameters_json(o, query, report.names);
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
  report.warnings = account->warnings();

  // The rows stream from the accountant to the output block by block; only the summary is kept.
  const RowWriter::Format format =
      o.output.json ? (o.summary_only ? RowWriter::Format::json_summary_only : RowWriter::Format::json)
      : o.csv       ? RowWriter::Format::csv
                    : RowWriter::Format::none;
  const bool distances = gossip::uses_base_graph(protocol.schedule);
  NodeMatrix matrix(writes_npy(o) ? n : 0, matrix_field(o.field), report.local_dp);
  const auto write = [&](std::ostream& out) {
    RowWriter writer(out, format, report.names, report.bound, o.delta);
    accounting::SummaryBuilder summary(account->pair_count());
    // The consumer's own copy of each chunk: filling distances into the accountant's buffer made
    // the next chunk's rows bounce between the cores' caches.
    std::vector<accounting::PairRow> block;
    progress.phase("pairs (ε, summary, output)", account->pair_count());
    std::size_t done = 0;
    account->stream_rows(report.sigma, o.delta, [&](std::span<const accounting::PairRow> rows) {
      progress.update(done += rows.size());
      block.assign(rows.begin(), rows.end());
      if (distances) accounting::fill_distances(block, w.graph(), query);
      summary.add(block);
      writer.write(block);
      matrix.add(block);
    });
    progress.finish();
    report.summary = summary.finish(account->observer_details(report.sigma));
    for (std::string& w : accounting::summary_warnings(report.summary))
      report.warnings.push_back(std::move(w));
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
  if (!o.out.empty() && (o.output.json || o.csv || writes_npy(o))) write_human(std::cout, report);
  write_warnings(report.warnings, o.output);
}

}  // namespace

void add_account_command(CLI::App& app) {
  auto options = std::make_shared<AccountOptions>();
  auto* cmd = app.add_subcommand("account", "Pairwise privacy loss of every (observer, target) pair");
  AccountOptions& r = *options;
  add_network_options(cmd, options->network);
  cmd->add_option("--method", r.method, "muffliato | random-walk | linear-system | mf")
      ->capture_default_str();
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
  cmd->add_option("--gradient-steps", r.gradient_steps,
                  "muffliato: Muffliato-GD with this many gradient steps of --rounds gossip rounds each "
                  "(Theorem 6 / Theorem 11)");
  cmd->add_option("--bound", r.bound,
                  "muffliato: exact (the observer's whole view) | paper (Theorems 1/6/11/12/13, not an upper "
                  "bound on the view)")
      ->capture_default_str();
  cmd->add_flag("--authors-convention", r.authors_convention,
                "muffliato: powers 1..T, no t = 0 exchange (the authors' code)");
  cmd->add_flag("--count-observer-noise", r.count_observer_noise,
                "muffliato --bound paper: count the observer's own noise as noise (Theorem 1 as printed)");
  cmd->add_option(
         "--contributions", r.contributions,
         "random-walk: N_u of each target: tail (k with P(N_u > k) <= tail-share * delta, spent from "
         "delta), worst (T, or T/2 without self-loops), expected (T/n, the paper's: not a bound), or "
         "a number K (a cap the protocol enforces, Remark 5)")
      ->capture_default_str();
  cmd->add_option(
         "--tail-share", r.tail_share,
         "random-walk --contributions tail: the share of delta spent on the count's failure probability")
      ->capture_default_str();
  cmd->add_flag("--sender-known", r.sender_known,
                "random-walk: the observer knows who sent the token (Appendix B.1)");
  cmd->add_option("--view", r.view, "linear-system: secure-sum | secure-sum-adaptive | plain")
      ->capture_default_str();
  cmd->add_option("--first-power", r.first_power,
                  "linear-system: first power of W, 0 or 1 (default: the paper's)");
  cmd->add_option("--gossip-steps,-K", r.gossip_steps, "Gossip steps per injection / gradient")
      ->capture_default_str();
  cmd->add_flag("--keep-observer-noise", r.keep_observer_noise,
                "linear-system: keep the observer's own noise (the paper's first variant)");
  cmd->add_option("--sign-search", r.sign_search,
                  "linear-system, mf with --release-dimension 1: none (Σ|K|) | auto (exact / SDP-certified "
                  "maximum over sign vectors)")
      ->capture_default_str();
  cmd->add_option(
         "--release-dimension", r.release_dimension,
         "linear-system, mf, muffliato --gradient-steps: coordinates of each round's release: vector "
         "(any dimension: the certified SDP worst case) | 1 (scalar) | p")
      ->capture_default_str();
  add_mf_options(cmd, r.mf);
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
  cmd->add_option("--field", options->field,
                  "epsilon | mu | rdp_epsilon: the matrix of a .npy output (default epsilon)");
  cmd->callback([options] { run_account(*options); });
}

}  // namespace netdp::cli
