// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The training configuration's one table: for every key its struct member, rule, default and
// description. It drives parse_train_config, to_flat_config, validate, config_schema and the key
// table of docs/reference/learn.md (config_schema_markdown).

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "enum_names.hpp"
#include "netdp/accounting/account/account_request.hpp"
#include "netdp/accounting/worst_case/vector_max.hpp"
#include "netdp/gossip/network_spec.hpp"
#include "netdp/graph/spec.hpp"
#include "netdp/learn/algorithm.hpp"
#include "netdp/learn/train_config.hpp"
#include "netdp/util/parse_number.hpp"

namespace netdp::learn {

namespace {

[[noreturn]] void reject(std::string_view key, std::string_view value, std::string_view rule) {
  throw std::invalid_argument(fmt::format("config {} = '{}': {}", key, value, rule));
}

// "1e-05" → "1e-5", "1.2e+10" → "1.2e10" (text without an exponent is returned as is).
std::string compact_exponent(const std::string& text) {
  const auto e = text.find('e');
  if (e == std::string::npos) return text;
  std::string out = text.substr(0, e + 1);
  std::size_t i = e + 1;
  if (text[i] == '-') out += '-';
  if (text[i] == '-' || text[i] == '+') ++i;
  while (i + 1 < text.size() && text[i] == '0') ++i;
  return out + text.substr(i);
}

// The shorter of the shortest fixed and the shortest scientific text that reads back as x
// (0.1, 1e-5, 1.2e10, inf).
std::string format_real(double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  const std::string plain = compact_exponent(fmt::format("{}", x));
  std::string scientific;
  for (int digits = 0; digits <= std::numeric_limits<double>::max_digits10; ++digits) {
    scientific = fmt::format("{:.{}e}", x, digits);
    if (std::strtod(scientific.c_str(), nullptr) == x) break;
  }
  scientific = compact_exponent(scientific);
  return scientific.size() < plain.size() ? scientific : plain;
}

// ---- The rules: how the text of a key becomes its typed value and which values are valid.
// Each has value_type; parse(key, text), which throws on text that is no value of the type;
// violation(value), the rule a parsed value breaks (if any); format(value), the canonical text;
// and accepted(), the values it takes (for the documentation).

struct Text {
  using value_type = std::string;
  std::string_view what;
  std::string parse(std::string_view /*key*/, const std::string& text) const { return text; }
  std::optional<std::string> violation(const std::string& /*value*/) const { return std::nullopt; }
  std::string format(const std::string& value) const { return value; }
  std::string accepted() const { return std::string(what); }
};

// A comma-separated list of names (empty items dropped).
struct TextList {
  using value_type = std::vector<std::string>;
  std::vector<std::string> parse(std::string_view /*key*/, const std::string& text) const {
    std::vector<std::string> out;
    for (std::size_t start = 0; start < text.size();) {
      const std::size_t comma = std::min(text.find(',', start), text.size());
      if (comma > start) out.push_back(text.substr(start, comma - start));
      start = comma + 1;
    }
    return out;
  }
  std::optional<std::string> violation(const std::vector<std::string>& /*value*/) const {
    return std::nullopt;
  }
  std::string format(const std::vector<std::string>& value) const {
    return fmt::format("{}", fmt::join(value, ","));
  }
  std::string accepted() const { return "comma-separated names"; }
};

template <class T>
struct Integer {
  using value_type = T;
  T min = 0;
  T parse(std::string_view key, const std::string& text) const {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 18) {
      reject(key, text, "must be a non-negative integer");
    }
    return static_cast<T>(std::stoull(text));
  }
  std::string requirement() const { return fmt::format(">= {}", min); }
  std::optional<std::string> violation(T value) const {
    if (value < min) return "must be " + requirement();
    return std::nullopt;
  }
  std::string format(T value) const { return fmt::format("{}", value); }
  std::string accepted() const { return "integer " + requirement(); }
};
using Count = Integer<std::size_t>;

struct Real {
  using value_type = double;
  enum class Range { nonnegative, positive, positive_or_inf, open_unit } range;
  double parse(std::string_view key, const std::string& text) const {
    const std::optional<double> x = util::parse_double(text);  // "inf" included
    if (!x || std::isnan(*x)) reject(key, text, "is not a number");
    return *x;
  }
  // What the rule asks of a value ("must be ..."), and the values it accepts (documentation).
  struct Wording {
    std::string_view requirement;
    std::string_view accepted;
  };
  Wording wording() const {
    switch (range) {
      case Range::nonnegative:
        return {"finite and >= 0", "real >= 0"};
      case Range::positive:
        return {"a finite number > 0", "real > 0"};
      case Range::positive_or_inf:
        return {"a number > 0 or inf", "real > 0, or inf"};
      case Range::open_unit:
        return {"in (0, 1)", "real in (0, 1)"};
    }
    return {};
  }
  std::string requirement() const { return std::string(wording().requirement); }
  bool admits(double x) const {
    switch (range) {
      case Range::nonnegative:
        return x >= 0.0 && std::isfinite(x);
      case Range::positive:
        return x > 0.0 && std::isfinite(x);
      case Range::positive_or_inf:
        return x > 0.0;
      case Range::open_unit:
        return x > 0.0 && x < 1.0;
    }
    return false;
  }
  std::optional<std::string> violation(double x) const {
    if (admits(x)) return std::nullopt;
    return "must be " + requirement();
  }
  std::string format(double x) const { return format_real(x); }
  std::string accepted() const { return std::string(wording().accepted); }
};

// An optional value: the text `empty` (e.g. "" or "random") stands for none.
template <class Inner>
struct Optional {
  using value_type = std::optional<typename Inner::value_type>;
  Inner inner;
  std::string_view empty;
  std::string empty_label() const { return empty.empty() ? "empty" : std::string(empty); }
  value_type parse(std::string_view key, const std::string& text) const {
    if (text == empty) return std::nullopt;
    return inner.parse(key, text);
  }
  std::optional<std::string> violation(const value_type& value) const {
    if (!value || !inner.violation(*value)) return std::nullopt;
    return fmt::format("must be {} or {}", empty_label(), inner.requirement());
  }
  std::string format(const value_type& value) const {
    return value ? inner.format(*value) : std::string(empty);
  }
  std::string accepted() const { return empty_label() + " | " + inner.accepted(); }
};

struct Flag {
  using value_type = bool;
  bool parse(std::string_view key, const std::string& text) const {
    if (text == "true" || text == "1") return true;
    if (text == "false" || text == "0") return false;
    reject(key, text, "expected true or false");
  }
  std::optional<std::string> violation(bool /*value*/) const { return std::nullopt; }
  std::string format(bool value) const { return value ? "true" : "false"; }
  std::string accepted() const { return "true | false"; }
};

template <class E>
struct Choice {
  using value_type = E;
  E parse(std::string_view key, const std::string& text) const {
    if (const auto value = value_named<E>(text)) return *value;
    reject(key, text, "expected one of " + joined_names<E>(", "));
  }
  std::optional<std::string> violation(E value) const {
    if (value_named<E>(name_of(value))) return std::nullopt;
    return "expected one of " + joined_names<E>(", ");
  }
  std::string format(E value) const { return std::string(name_of(value)); }
  std::string accepted() const { return joined_names<E>(" | "); }
};

struct Schedule {
  using value_type = gossip::ScheduleSpec;
  gossip::ScheduleSpec parse(std::string_view key, const std::string& text) const {
    try {
      return gossip::parse_schedule_spec(text);
    } catch (const std::invalid_argument& e) {
      reject(key, text, e.what());
    }
  }
  std::optional<std::string> violation(const gossip::ScheduleSpec& value) const {
    try {
      (void)gossip::parse_schedule_spec(format(value));
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return std::nullopt;
  }
  std::string format(const gossip::ScheduleSpec& value) const { return gossip::schedule_spec_string(value); }
  std::string accepted() const {
    std::string forms(gossip::schedule_spec_forms());
    for (std::size_t at = forms.find(", "); at != std::string::npos; at = forms.find(", ", at))
      forms.replace(at, 2, " | ");
    return forms;
  }
};

// A name of algorithm_registry().
struct AlgorithmName {
  using value_type = std::string;
  static std::string names(std::string_view separator) {
    std::string out;
    for (const AlgorithmEntry& entry : algorithm_registry()) {
      if (!out.empty()) out += separator;
      out += entry.name;
    }
    return out;
  }
  std::string parse(std::string_view /*key*/, const std::string& text) const { return text; }
  std::optional<std::string> violation(const std::string& value) const {
    for (const AlgorithmEntry& entry : algorithm_registry()) {
      if (entry.name == value) return std::nullopt;
    }
    return "expected one of " + names(", ");
  }
  std::string format(const std::string& value) const { return value; }
  std::string accepted() const { return names(" | "); }
};

// A key that is an option of the accountants' option table (accounting::account_options()): its
// text is parsed by the table's own rule, so the key takes what the flag and the Python keyword
// take, and `read` gets the typed value. `allowed` may narrow the table's values for training.
template <class T>
struct TableOption {
  using value_type = T;
  std::string_view option;
  T (*read)(const accounting::AccountRequest&);
  std::string (*format_value)(T);
  std::optional<std::string> (*allowed)(T) = nullptr;
  std::string_view accepted_values = {};  ///< when `allowed` narrows the table's values

  std::string values() const {
    if (!accepted_values.empty()) return std::string(accepted_values);
    return std::string(accounting::find_account_option(option)->values);
  }
  // "expected one of a, b" for the table's values, "expected a or b" for training's narrower ones.
  std::string rule() const {
    const bool narrowed = !accepted_values.empty();
    std::string text = values();
    const std::string separator = narrowed ? " or " : ", ";
    for (std::size_t at = text.find(" | "); at != std::string::npos; at = text.find(" | ", at))
      text.replace(at, 3, separator);
    return (narrowed ? "expected " : "expected one of ") + text;
  }
  T parse(std::string_view key, const std::string& text) const {
    accounting::AccountRequest request;
    try {
      accounting::set_account_option(request, option, text);
    } catch (const std::invalid_argument&) {
      reject(key, text, rule());
    }
    return read(request);
  }
  std::optional<std::string> violation(T value) const {
    if (allowed && allowed(value)) return rule();
    return std::nullopt;
  }
  std::string format(T value) const { return format_value(value); }
  std::string accepted() const { return values(); }
};

// privacy.bound: the account option `bound`.
TableOption<accounting::MuffliatoBound> bound_key() {
  return {"bound", [](const accounting::AccountRequest& r) { return r.bound_or_default(); },
          [](accounting::MuffliatoBound b) {
            return std::string(util::name_of(accounting::kMuffliatoBoundNames, b));
          }};
}

// privacy.release_dimension: the account option `release_dimension`, "vector" (0) or 1 only.
// Training releases a gradient vector, so a rank-p value for 1 < p would be a claim about the
// model that the accountant cannot check; 1 gives Σ|K| (no sign search), an upper bound for every
// release dimension.
TableOption<std::size_t> release_dimension_key() {
  return {"release_dimension",
          [](const accounting::AccountRequest& r) { return r.release_dimension_or_default(); },
          [](std::size_t d) { return d == 1 ? std::string("1") : std::string("vector"); },
          [](std::size_t d) -> std::optional<std::string> {
            if (d == accounting::kAnyReleaseDimension || d == 1) return std::nullopt;
            return "a rank above 1";
          },
          "vector | 1"};
}

// ---- The table.

struct Entry {
  std::string_view key;
  std::string_view description;
  std::string accepted;
  std::function<void(TrainConfig&, const std::string&)> parse;  ///< parse, check, store
  std::function<std::string(const TrainConfig&)> format;
  std::function<std::optional<std::string>(const TrainConfig&)> violation;
};

// The entry of the field `field(config)` (a generic lambda, so that it serves const and mutable configs).
template <class Rule, class Field>
Entry bind_field(std::string_view key, Field field, Rule rule, std::string_view description) {
  Entry entry{key, description, rule.accepted(), {}, {}, {}};
  entry.parse = [=](TrainConfig& config, const std::string& text) {
    typename Rule::value_type value = rule.parse(key, text);
    if (const auto why = rule.violation(value)) reject(key, text, *why);
    field(config) = std::move(value);
  };
  entry.format = [=](const TrainConfig& config) { return rule.format(field(config)); };
  entry.violation = [=](const TrainConfig& config) { return rule.violation(field(config)); };
  return entry;
}

// The entry of key `key` = member `member` of section `section` under `rule`.
template <class Section, class Rule>
Entry bind_key(std::string_view key, Section TrainConfig::*section,
               typename Rule::value_type Section::*member, Rule rule, std::string_view description) {
  return bind_field(
      key, [=](auto& config) -> auto& { return (config.*section).*member; }, rule, description);
}

// A key of how the network's graph file is read (NetworkSpec::read).
template <class Rule>
Entry bind_read_key(std::string_view key, typename Rule::value_type graph::ReadOptions::*member, Rule rule,
                    std::string_view description) {
  return bind_field(
      key, [=](auto& config) -> auto& { return config.network.read.*member; }, rule, description);
}

const std::vector<Entry>& table() {
  using Range = Real::Range;
  constexpr auto data = &TrainConfig::data;
  constexpr auto network = &TrainConfig::network;
  constexpr auto model = &TrainConfig::model;
  constexpr auto algorithm = &TrainConfig::algorithm;
  constexpr auto privacy = &TrainConfig::privacy;
  constexpr auto train = &TrainConfig::train;
  constexpr auto limits = &TrainConfig::limits;
  using A = AlgorithmConfig;
  static const std::vector<Entry> entries = {
      bind_key("data.source", data, &DataConfig::source, Choice<DataSource>{},
               "where the examples come from (synthetic-*: generated, no files; docs/reference/learn-data.md)"),
      bind_key(
          "data.path", data, &DataConfig::path, Text{"path"},
          "mnist: directory of train-images-idx3-ubyte(.gz) / train-labels-idx1-ubyte(.gz); csv, libsvm, "
          "housing, houses: the file"),
      bind_key("data.images", data, &DataConfig::images, Text{"path"}, "idx: the images file"),
      bind_key("data.labels", data, &DataConfig::labels, Text{"path"}, "idx: the labels file"),
      bind_key("data.task", data, &DataConfig::task, Choice<Task>{}, "csv / libsvm: what the target is"),
      bind_key("data.csv_target", data, &DataConfig::csv_target, Text{"column name"},
               "csv: the target column (housing/houses: median_house_value when empty)"),
      bind_key("data.csv_features", data, &DataConfig::csv_features, TextList{},
               "csv: the feature columns (empty: all but the target)"),
      bind_key("data.csv_missing", data, &DataConfig::csv_missing, Choice<CsvOptions::Missing>{},
               "csv: what to do with an empty field"),
      bind_key("data.csv_categorical", data, &DataConfig::csv_categorical, Choice<CsvOptions::Categorical>{},
               "csv: what to do with a non-numeric column"),
      bind_key("data.examples", data, &DataConfig::examples, Count{1}, "synthetic: number of examples"),
      bind_key("data.features", data, &DataConfig::features, Count{1}, "synthetic: number of features"),
      bind_key("data.noise", data, &DataConfig::noise, Real{Range::nonnegative},
               "synthetic: label noise (linear: std of the additive noise)"),
      bind_key("data.max_examples", data, &DataConfig::max_examples, Count{0},
               "keep the first N examples after loading (0: all)"),
      bind_key("data.test_fraction", data, &DataConfig::test_fraction, Real{Range::open_unit},
               "fraction held out for testing"),
      bind_key("data.standardize", data, &DataConfig::standardize, Flag{},
               "standardize features with the train set's mean and std"),
      bind_key("data.normalize", data, &DataConfig::normalize, Flag{},
               "scale every example to unit L2 norm (after standardizing)"),
      bind_key("data.target_scale", data, &DataConfig::target_scale, Real{Range::positive},
               "regression: divide every target by this (housing: 1e5 gives sklearn's units of $100,000, the "
               "scale of the MF paper's Fig. 3 losses)"),
      bind_key("data.partition", data, &DataConfig::partition, Choice<PartitionSpec::Kind>{},
               "how the training examples are spread over the nodes"),
      bind_key("data.alpha", data, &DataConfig::alpha, Real{Range::positive}, "dirichlet: concentration α"),
      bind_key("data.shards", data, &DataConfig::shards, Count{1}, "shards: shards per node"),
      bind_key("network.graph", network, &gossip::NetworkSpec::graph, Text{"graph SPEC"},
               "the graph, as in `netdp graph --graph`"),
      bind_key("network.lcc", network, &gossip::NetworkSpec::lcc, Flag{},
               "restrict the graph to its largest connected component"),
      bind_key("network.weights", network, &gossip::NetworkSpec::weighting, Choice<gossip::Weighting>{},
               "gossip weighting (docs/reference/gossip.md)"),
      bind_key(
          "network.matrix", network, &gossip::NetworkSpec::matrix, Text{"path of a Matrix Market W"},
          "your own gossip matrix instead of network.weights; network.graph, when given, names its nodes"),
      bind_read_key("network.symmetrize", &graph::ReadOptions::symmetrize, Flag{},
                    "read a directed graph file's arcs as undirected edges (refused without it)"),
      bind_read_key("network.source_column", &graph::ReadOptions::source_column, Text{"column name"},
                    "csv/tsv graph: the column of an edge's first end (empty: the header's guess)"),
      bind_read_key("network.target_column", &graph::ReadOptions::target_column, Text{"column name"},
                    "csv/tsv graph: the column of an edge's second end (empty: the header's guess)"),
      bind_read_key("network.weight_column", &graph::ReadOptions::weight_column, Text{"column name"},
                    "csv/tsv graph: the column of the edge weights (empty: Weight, if any)"),
      bind_key("model.kind", model, &ModelSpec::kind, Choice<ModelSpec::Kind>{},
               "the model (docs/reference/learn-models.md)"),
      bind_key("model.l2", model, &ModelSpec::l2, Real{Range::nonnegative}, "L2 coefficient λ of λ/2‖θ‖²"),
      bind_key("model.hidden", model, &ModelSpec::hidden, Count{1}, "mlp: hidden units"),
      bind_key("algorithm.name", algorithm, &A::name, AlgorithmName{},
               "the training algorithm (docs/reference/learn.md, \"Algorithms\")"),
      bind_key("algorithm.rounds", algorithm, &A::rounds, Count{1}, "T, gradient steps"),
      bind_key("algorithm.step_size", algorithm, &A::step_size, Real{Range::positive}, "η"),
      bind_key("algorithm.batch_size", algorithm, &A::batch_size, Count{0},
               "b per node per step (0: the whole local data set)"),
      bind_key("algorithm.clip", algorithm, &A::clip, Real{Range::positive_or_inf},
               "clipping bound C (inf: no clipping, non-private algorithms only)"),
      bind_key("algorithm.sigma", algorithm, &A::sigma, Real{Range::nonnegative},
               "noise multiplier σ (noise std σ C); ignored with privacy.target_epsilon"),
      bind_key("algorithm.gossip_steps", algorithm, &A::gossip_steps, Count{1},
               "K gossip steps per gradient step"),
      bind_key("algorithm.chebyshev", algorithm, &A::chebyshev, Flag{},
               "Chebyshev-accelerated gossip (Muffliato Algorithm 1; fixed schedule)"),
      bind_key("algorithm.schedule", algorithm, &A::schedule, Schedule{},
               "W_t of each gradient step (gossip schedule SPEC, as `netdp account --schedule`)"),
      bind_key(
          "algorithm.correlation", algorithm, &A::correlation, Text{"identity, antipgd or a file"},
          "mf-d-sgd: C (T × T lower triangular): identity (also when empty), antipgd, or a Matrix Market "
          "file"),
      bind_key(
          "algorithm.correlation_method", algorithm, &A::correlation_method, Choice<CorrelationMethod>{},
          "mafalda: mafalda (C_local optimized on the network), dmf (centralized optimum at every node), "
          "per-node (one C_v per node)"),
      bind_key("algorithm.participations", algorithm, &A::participations, Count{1},
               "mf-d-sgd / mafalda: k participations of a record"),
      bind_key("algorithm.separation", algorithm, &A::separation, Count{0},
               "mf-d-sgd / mafalda: b steps between participations (0: ⌈T/k⌉)"),
      bind_key(
          "algorithm.walk_contribution_cap", algorithm, &A::walk_contribution_cap, Count{0},
          "random-walk-dp-sgd: a node takes at most K gradient steps, then passes the token on (0: no cap)"),
      bind_key("algorithm.walk_burn_in", algorithm, &A::walk_burn_in, Count{0},
               "random-walk-dp-sgd: steps the token only walks before anybody contributes (must be < "
               "algorithm.rounds)"),
      bind_key("privacy.target_epsilon", privacy, &PrivacyConfig::target_epsilon,
               Optional<Real>{Real{Range::positive}, ""},
               "calibrate σ to this ε (empty: use algorithm.sigma)"),
      bind_key("privacy.delta", privacy, &PrivacyConfig::delta, Real{Range::open_unit},
               "δ of the reported (ε, δ)"),
      bind_key("privacy.calibrate_on", privacy, &PrivacyConfig::calibrate_on, Choice<CalibrateOn>{},
               "the ε reported and calibrated: mean or max over pairs (where the algorithm has a pairwise "
               "accountant), or local (everything a node sends)"),
      bind_key("privacy.bound", privacy, &PrivacyConfig::bound, bound_key(),
               "muffliato, randomized-gossip: exact (the whole view of every observer, an upper bound) or "
               "paper (Theorems 6 / 11 as printed: NOT an upper bound, labelled in summary.json)"),
      bind_key(
          "privacy.release_dimension", privacy, &PrivacyConfig::release_dimension, release_dimension_key(),
          "linear-view pairwise accountants (dp-d-sgd, secure-gossip, antipgd, muffliato, randomized-gossip, "
          "mf-d-sgd, mafalda): vector (the worst gradient vector per pair, certified SDP value) or 1 "
          "(Σ|K| per pair: valid for any release, looser)"),
      bind_key("train.seed", train, &RunConfig::seed, Integer<std::uint64_t>{0},
               "seed of everything random (data, partition, graph, batches, noise)"),
      bind_key("train.eval_every", train, &RunConfig::eval_every, Count{0},
               "evaluate every N rounds (and after the last); 0: only after the last"),
      bind_key("train.eval_node", train, &RunConfig::eval_node, Optional<Count>{Count{0}, "random"},
               "node whose model is tested: random (drawn from the seed) or a node index"),
      bind_key(
          "limits.pairwise_work", limits, &ResourceLimits::pairwise_work, Real{Range::positive_or_inf},
          "linear-view pairwise accountants (dp-d-sgd, secure-gossip, muffliato, randomized-gossip): "
          "largest admitted estimate of work: n(n-1)(rT)^3 for per-pair views, multiply-adds "
          "Σ_v m_v²·nT for the whole views of Muffliato-GD on a time-varying schedule and randomized-gossip"),
      bind_key("limits.mf_literal_work", limits, &ResourceLimits::mf_literal_work,
               Real{Range::positive_or_inf},
               "antipgd's pairwise MF accountant (dense): largest admitted estimate of work n(nT)^2 dT"),
      bind_key("limits.gossip_ticks", limits, &ResourceLimits::gossip_ticks, Count{1},
               "randomized-gossip: largest admitted T·K (edges drawn before training, 16 bytes each)"),
  };
  return entries;
}

const Entry* find_entry(std::string_view key) {
  for (const Entry& entry : table()) {
    if (entry.key == key) return &entry;
  }
  return nullptr;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

[[noreturn]] void reject_unknown_key(const std::string& key) {
  std::string_view best;
  std::size_t best_distance = std::numeric_limits<std::size_t>::max();
  for (const Entry& entry : table()) {
    const std::size_t d = edit_distance(key, entry.key);
    if (d < best_distance) {
      best_distance = d;
      best = entry.key;
    }
  }
  throw std::invalid_argument(fmt::format("unknown config key '{}' (did you mean '{}'?)", key, best));
}

// The rules that tie keys together (each key's own rule already holds).
void check_across_keys(const TrainConfig& config) {
  if (std::isinf(config.algorithm.clip) && make_algorithm(config.algorithm.name)->is_private()) {
    reject("algorithm.clip", format_real(config.algorithm.clip),
           "a private algorithm needs a finite clipping bound");
  }
}

std::string markdown_cell(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

TrainConfig parse_train_config(const FlatConfig& given) {
  for (const auto& item : given) {
    if (find_entry(item.first) == nullptr) reject_unknown_key(item.first);
  }
  TrainConfig config;
  for (const Entry& entry : table()) {
    const auto it = given.find(std::string(entry.key));
    if (it != given.end()) entry.parse(config, it->second);
  }
  // A user's W without a graph is on the graph of its own support.
  if (given.contains("network.matrix") && !given.contains("network.graph")) config.network.graph.clear();
  check_across_keys(config);
  return config;
}

void validate_train_config(const TrainConfig& config) {
  for (const Entry& entry : table()) {
    if (const auto why = entry.violation(config)) reject(entry.key, entry.format(config), *why);
  }
  check_across_keys(config);
}

FlatConfig to_flat_config(const TrainConfig& config) {
  FlatConfig out;
  for (const Entry& entry : table()) out.emplace(entry.key, entry.format(config));
  return out;
}

void resolve_relative_paths(FlatConfig& config, const std::filesystem::path& base) {
  const auto resolved = [&base](const std::string& path) {
    if (path.empty() || std::filesystem::path(path).is_absolute()) return path;
    return (base / path).lexically_normal().string();
  };
  for (const char* key : {"data.path", "data.images", "data.labels", "network.matrix"}) {
    const auto it = config.find(key);
    if (it != config.end()) it->second = resolved(it->second);
  }
  if (const auto it = config.find("network.graph"); it != config.end()) {
    const graph::ParsedSpec spec = graph::parse_spec(it->second);
    if (!spec.path.empty()) it->second = spec.name + ":" + resolved(spec.path);
  }
  if (const auto it = config.find("algorithm.correlation");
      it != config.end() && it->second != "identity" && it->second != "antipgd") {
    it->second = resolved(it->second);
  }
}

FlatConfig resolve_config(const FlatConfig& given) { return to_flat_config(parse_train_config(given)); }

const std::vector<ConfigKey>& config_schema() {
  static const std::vector<ConfigKey> keys = [] {
    const TrainConfig defaults;
    std::vector<ConfigKey> out;
    for (const Entry& entry : table()) {
      out.push_back(
          {std::string(entry.key), entry.format(defaults), std::string(entry.description), entry.accepted});
    }
    return out;
  }();
  return keys;
}

std::string config_schema_markdown() {
  std::string out = "| key | default | accepted | meaning |\n|---|---|---|---|\n";
  for (const ConfigKey& key : config_schema()) {
    out += fmt::format("| `{}` | {} | {} | {} |\n", key.key,
                       key.default_value.empty() ? std::string() : "`" + key.default_value + "`",
                       markdown_cell(key.rule), markdown_cell(key.description));
  }
  return out;
}

}  // namespace netdp::learn
