// The training configuration schema (keys, defaults, descriptions) and its validation.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string_view>

#include "netdp/gossip/network_spec.hpp"
#include "netdp/learn/algorithm.hpp"
#include "netdp/learn/train.hpp"
#include "train_config.hpp"

namespace netdp::learn {

namespace {

enum class Rule {
  text,
  choice,
  count,
  positive_count,
  real_nonneg,
  real_positive,
  probability_open,
  boolean,
  schedule,
  optional_positive,
  delta,
  node
};

struct KeyRule {
  ConfigKey key;
  Rule rule;
  std::vector<std::string_view> choices;  // Rule::choice
};

const std::vector<KeyRule>& rules() {
  static const std::vector<KeyRule> table = {
      {{"data.source", "synthetic-logistic",
        "synthetic-logistic | synthetic-linear | mnist | idx | csv | libsvm | housing | houses"},
       Rule::choice,
       {"synthetic-logistic", "synthetic-linear", "mnist", "idx", "csv", "libsvm", "housing", "houses"}},
      {{"data.path", "",
        "mnist: directory of train-images-idx3-ubyte(.gz) / train-labels-idx1-ubyte(.gz); csv, "
        "libsvm, housing, houses: the file"},
       Rule::text,
       {}},
      {{"data.images", "", "idx: the images file"}, Rule::text, {}},
      {{"data.labels", "", "idx: the labels file"}, Rule::text, {}},
      {{"data.task", "binary", "csv / libsvm: binary | multiclass | regression"},
       Rule::choice,
       {"binary", "multiclass", "regression"}},
      {{"data.csv_target", "", "csv: the target column (housing/houses: median_house_value when empty)"},
       Rule::text,
       {}},
      {{"data.csv_features", "", "csv: comma-separated feature columns (empty: all but the target)"},
       Rule::text,
       {}},
      {{"data.csv_missing", "error", "csv: error | drop_row | mean_impute"},
       Rule::choice,
       {"error", "drop_row", "mean_impute"}},
      {{"data.csv_categorical", "error", "csv: error | one_hot | drop"},
       Rule::choice,
       {"error", "one_hot", "drop"}},
      {{"data.examples", "2000", "synthetic: number of examples"}, Rule::positive_count, {}},
      {{"data.features", "10", "synthetic: number of features"}, Rule::positive_count, {}},
      {{"data.noise", "0.1", "synthetic: label noise (linear: std of the additive noise)"},
       Rule::real_nonneg,
       {}},
      {{"data.max_examples", "0", "keep the first N examples after loading (0: all)"}, Rule::count, {}},
      {{"data.test_fraction", "0.2", "fraction held out for testing, in (0, 1)"}, Rule::probability_open, {}},
      {{"data.standardize", "true", "standardize features with the train set's mean and std"},
       Rule::boolean,
       {}},
      {{"data.normalize", "false", "scale every example to unit L2 norm (after standardizing)"},
       Rule::boolean,
       {}},
      {{"data.target_scale", "1",
        "regression: divide every target by this > 0 (housing: 1e5 gives sklearn's units of $100,000)"},
       Rule::real_positive,
       {}},
      {{"data.partition", "iid", "iid | dirichlet | shards | position"},
       Rule::choice,
       {"iid", "dirichlet", "shards", "position"}},
      {{"data.alpha", "0.5", "dirichlet: concentration α > 0"}, Rule::real_positive, {}},
      {{"data.shards", "2", "shards: shards per node"}, Rule::positive_count, {}},
      {{"network.graph", "er:n=20,p=0.3,connected=1", "graph SPEC as in `netdp graph --graph`"},
       Rule::text,
       {}},
      {{"network.lcc", "false", "restrict the graph to its largest connected component"}, Rule::boolean, {}},
      {{"network.weights", "hamilton", "gossip weighting: hamilton | metropolis | closed-row | lazy-uniform"},
       Rule::choice,
       {"hamilton", "metropolis", "closed-row", "lazy-uniform"}},
      {{"model.kind", "logistic", "logistic | linear | mlp"}, Rule::choice, {"logistic", "linear", "mlp"}},
      {{"model.l2", "0", "L2 coefficient λ of λ/2‖θ‖²"}, Rule::real_nonneg, {}},
      {{"model.hidden", "32", "mlp: hidden units"}, Rule::positive_count, {}},
      {{"algorithm.name", "dp-d-sgd", "the training algorithm (see docs/learn.md)"}, Rule::text, {}},
      {{"algorithm.rounds", "100", "T, gradient steps"}, Rule::positive_count, {}},
      {{"algorithm.step_size", "0.1", "η > 0"}, Rule::real_positive, {}},
      {{"algorithm.batch_size", "32", "b per node per step (0: the whole local data set)"}, Rule::count, {}},
      {{"algorithm.clip", "1", "clipping bound C > 0 (inf: no clipping, non-private algorithms only)"},
       Rule::real_positive,
       {}},
      {{"algorithm.sigma", "1",
        "noise multiplier σ >= 0 (noise std σ C); ignored with privacy.target_epsilon"},
       Rule::real_nonneg,
       {}},
      {{"algorithm.gossip_steps", "1", "K gossip steps per gradient step"}, Rule::positive_count, {}},
      {{"algorithm.chebyshev", "false", "Chebyshev-accelerated gossip (Muffliato Algorithm 1; fixed schedule)"},
       Rule::boolean,
       {}},
      {{"algorithm.schedule", "fixed", "fixed | pairwise | er-per-round:p=P | dropout:p=P"},
       Rule::schedule,
       {}},
      {{"algorithm.correlation", "",
        "mf-d-sgd: C (T × T lower triangular): identity (also when empty) | antipgd | a Matrix Market file"},
       Rule::text,
       {}},
      {{"algorithm.correlation_method", "mafalda",
        "mafalda: mafalda (C_local optimized on the network) | dmf (centralized optimum at every node) | "
        "per-node (one C_v per node)"},
       Rule::choice,
       {"mafalda", "dmf", "per-node"}},
      {{"algorithm.participations", "1", "mf-d-sgd / mafalda: k participations of a record"},
       Rule::positive_count,
       {}},
      {{"algorithm.separation", "0", "mf-d-sgd / mafalda: b steps between participations (0: ⌈T/k⌉)"},
       Rule::count,
       {}},
      {{"algorithm.walk_contribution_cap", "0",
        "random-walk-dp-sgd: a node takes at most K gradient steps, then passes the token on (0: no cap)"},
       Rule::count,
       {}},
      {{"algorithm.walk_burn_in", "0",
        "random-walk-dp-sgd: steps the token only walks before anybody contributes"},
       Rule::count,
       {}},
      {{"privacy.target_epsilon", "", "calibrate σ to this ε (empty: use algorithm.sigma)"},
       Rule::optional_positive,
       {}},
      {{"privacy.delta", "1e-5", "δ of the reported (ε, δ), in (0, 1)"}, Rule::delta, {}},
      {{"privacy.calibrate_on", "mean",
        "mean | max (pairwise, where the algorithm has a pairwise accountant) | "
        "local"},
       Rule::choice,
       {"mean", "max", "local"}},
      {{"train.seed", "1", "seed of everything random (data, partition, graph, batches, noise)"},
       Rule::count,
       {}},
      {{"train.eval_every", "10", "evaluate every N rounds (and after the last); 0: only after the last"},
       Rule::count,
       {}},
      {{"train.eval_node", "random", "node whose model is tested: random (seeded) or a node index"},
       Rule::node,
       {}},
  };
  return table;
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

[[noreturn]] void reject(const std::string& key, const std::string& value, std::string_view rule) {
  throw std::invalid_argument(fmt::format("config {} = '{}': {}", key, value, rule));
}

void validate(const KeyRule& r, const std::string& value) {
  const std::string& key = r.key.key;
  switch (r.rule) {
    case Rule::text:
      return;
    case Rule::choice:
      if (std::find(r.choices.begin(), r.choices.end(), value) == r.choices.end()) {
        reject(key, value, fmt::format("expected one of {}", fmt::join(r.choices, ", ")));
      }
      return;
    case Rule::count:
      (void)parse_count(key, value);
      return;
    case Rule::positive_count:
      if (parse_count(key, value) == 0) reject(key, value, "must be >= 1");
      return;
    case Rule::real_nonneg:
      if (const double x = parse_real(key, value); !(x >= 0.0) || std::isinf(x))
        reject(key, value, "must be finite and >= 0");
      return;
    case Rule::real_positive:
      if (const double x = parse_real(key, value); !(x > 0.0) || (std::isinf(x) && key != "algorithm.clip")) {
        reject(key, value, "must be a finite number > 0");
      }
      return;
    case Rule::probability_open:
      if (const double x = parse_real(key, value); !(x > 0.0 && x < 1.0))
        reject(key, value, "must be in (0, 1)");
      return;
    case Rule::delta:
      if (const double x = parse_real(key, value); !(x > 0.0 && x < 1.0))
        reject(key, value, "must be in (0, 1)");
      return;
    case Rule::boolean:
      (void)parse_bool(key, value);
      return;
    case Rule::optional_positive:
      if (!value.empty()) {
        if (const double x = parse_real(key, value); !(x > 0.0) || std::isinf(x)) {
          reject(key, value, "must be empty or a finite number > 0");
        }
      }
      return;
    case Rule::schedule:
      try {
        (void)gossip::parse_schedule_spec(value);
      } catch (const std::invalid_argument& e) {
        reject(key, value, e.what());
      }
      return;
    case Rule::node:
      if (value != "random") (void)parse_count(key, value);
      return;
  }
}

}  // namespace

std::size_t parse_count(const std::string& key, const std::string& value) {
  if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos || value.size() > 18) {
    reject(key, value, "must be a non-negative integer");
  }
  return static_cast<std::size_t>(std::stoull(value));
}

double parse_real(const std::string& key, const std::string& value) {
  if (value == "inf") return std::numeric_limits<double>::infinity();
  std::size_t used = 0;
  double x = 0.0;
  try {
    x = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (value.empty() || used != value.size() || std::isnan(x)) reject(key, value, "is not a number");
  return x;
}

bool parse_bool(const std::string& key, const std::string& value) {
  if (value == "true" || value == "1") return true;
  if (value == "false" || value == "0") return false;
  reject(key, value, "expected true or false");
}

const std::vector<ConfigKey>& config_schema() {
  static const std::vector<ConfigKey> keys = [] {
    std::vector<ConfigKey> out;
    for (const auto& r : rules()) out.push_back(r.key);
    return out;
  }();
  return keys;
}

FlatConfig resolve_config(const FlatConfig& given) {
  FlatConfig out;
  for (const auto& r : rules()) out[r.key.key] = r.key.default_value;
  for (const auto& [key, value] : given) {
    if (out.find(key) == out.end()) {
      std::string best;
      std::size_t best_distance = std::numeric_limits<std::size_t>::max();
      for (const auto& r : rules()) {
        const std::size_t d = edit_distance(key, r.key.key);
        if (d < best_distance) {
          best_distance = d;
          best = r.key.key;
        }
      }
      throw std::invalid_argument(fmt::format("unknown config key '{}' (did you mean '{}'?)", key, best));
    }
    out[key] = value;
  }
  for (const auto& r : rules()) validate(r, out[r.key.key]);
  // Cross-key rules.
  const std::string& name = out["algorithm.name"];
  bool known = false;
  for (const auto& entry : algorithm_registry()) known = known || entry.name == name;
  if (!known) {
    std::string names;
    for (const auto& entry : algorithm_registry())
      names += (names.empty() ? "" : ", ") + std::string(entry.name);
    reject("algorithm.name", name, "expected one of " + names);
  }
  if (std::isinf(parse_real("algorithm.clip", out["algorithm.clip"])) && name != "d-sgd") {
    reject("algorithm.clip", out["algorithm.clip"], "a private algorithm needs a finite clipping bound");
  }
  return out;
}

}  // namespace netdp::learn
