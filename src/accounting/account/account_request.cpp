// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/accounting/account/account_request.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "netdp/accounting/account/registry.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/parse_number.hpp"

namespace netdp::accounting {
namespace {

constexpr unsigned kMuffliato = method_bit(Method::muffliato);
constexpr unsigned kRandomWalk = method_bit(Method::random_walk);
constexpr unsigned kLinearSystem = method_bit(Method::linear_system);
constexpr unsigned kMf = method_bit(Method::mf);
constexpr unsigned kEvery = kMuffliato | kRandomWalk | kLinearSystem | kMf;

/// `name` in backticks: how a message names an option (util/option_spelling.hpp).
std::string quoted(std::string_view name) { return fmt::format("`{}`", name); }

/// "a", "a and b", "a, b and c".
std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += i + 1 == words.size() ? " and " : ", ";
    out += words[i];
  }
  return out;
}

std::string method_list(const AccountOption& option) {
  std::vector<std::string> names;
  for (const auto& entry : kMethodNames)
    if (option.applies_to(entry.value)) names.emplace_back(entry.name);
  return joined(names);
}

/// --contributions K: a count of visits, a whole number >= 1 in plain decimal digits (the names
/// tail | worst | expected are matched first). A fraction or 1e-300 would scale the loss down to
/// nothing: a node that is visited contributes at least once.
Contributions parse_contributions(std::string_view text) {
  if (const auto count = util::find_enum(kContributionCountNames, text)) return {*count, 0};
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const bool digits =
      !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  require(digits && ec == std::errc() && ptr == end && value >= 1,
          "`contributions` '{}' is not one of tail, worst, expected, or a whole number >= 1 (a count of "
          "visits, in decimal digits)",
          text);
  return {ContributionCount::tail, value};
}

template <class Int>
Int parse_whole(std::string_view name, std::string_view text, bool allow_negative) {
  Int value = 0;
  const char* begin = text.data();
  const char* end = begin + text.size();
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  require(!text.empty() && ec == std::errc() && ptr == end && (allow_negative || text.front() != '-'),
          "`{}` must be a whole number{}, got '{}'", name, allow_negative ? "" : " >= 0", text);
  return value;
}

double parse_real(std::string_view name, std::string_view text) {
  const std::optional<double> value = util::parse_double(std::string(text));
  require(value.has_value(), "`{}` must be a number, got '{}'", name, text);
  return *value;
}

bool parse_flag(std::string_view name, std::string_view text) {
  require(text == "true" || text == "false", "`{}` is a flag: true or false, got '{}'", name, text);
  return text == "true";
}

using enum OptionType;

// The help lines are the command line's; an option's applicability opens its line.
constexpr std::array kOptions = std::to_array<AccountOption>({
    {"method", choice, "muffliato", "muffliato | random-walk | linear-system | mf", kEvery, true, "",
     "the accountant family: muffliato (gossip averaging), random-walk (random-walk DP-SGD), linear-system "
     "(gossip with noise every round), mf (matrix-factorization mechanisms)",
     [](AccountRequest& r, std::string_view t) {
       r.method = util::parse_option_value(kMethodNames, t, "method");
     },
     [](const AccountRequest& r) { return r.method != Method::muffliato; }},
    {"gradient_steps", count, "0", "integer >= 0", kMuffliato, true, "",
     "muffliato: Muffliato-GD with this many gradient steps of --rounds gossip rounds each (Theorem 6 / "
     "Theorem 11); 0: one averaging",
     [](AccountRequest& r, std::string_view t) {
       r.gradient_steps = parse_whole<std::size_t>("gradient_steps", t, false);
     },
     [](const AccountRequest& r) { return r.gradient_steps > 0; }},
    {"authors_convention", flag, "", "", kMuffliato, false, "",
     "muffliato: powers 1..T, no t = 0 exchange (the authors' code)",
     [](AccountRequest& r, std::string_view t) {
       r.authors_convention = parse_flag("authors_convention", t);
     },
     [](const AccountRequest& r) { return r.authors_convention; }},
    {"count_observer_noise", flag, "", "", kMuffliato, true, "",
     "muffliato --bound paper: count the observer's own noise as noise (Theorem 1 as printed)",
     [](AccountRequest& r, std::string_view t) {
       r.count_observer_noise = parse_flag("count_observer_noise", t);
     },
     [](const AccountRequest& r) { return r.count_observer_noise; }},
    {"bound", choice, "exact", "exact | paper", kMuffliato, true, "",
     "muffliato: exact (the observer's whole view) | paper (Theorems 1/6/11/12/13, not an upper bound on "
     "the view)",
     [](AccountRequest& r, std::string_view t) {
       r.bound = util::parse_enum(kMuffliatoBoundNames, t, "`bound`");
     },
     [](const AccountRequest& r) { return r.bound.has_value(); }, true},
    {"exact_effort", real, "8388608", "real >= 0", kMuffliato, true, "",
     "muffliato (exact joint view): the largest view, in messages x nodes, computed in exact arithmetic for "
     "its certificate; the targets a larger view reaches are reported at the local-DP cap, counted as "
     "cap-undetermined",
     [](AccountRequest& r, std::string_view t) { r.exact_effort = parse_real("exact_effort", t); },
     [](const AccountRequest& r) { return r.exact_effort.has_value(); }, true},
    {"contributions", count_or_choice, "tail", "tail | worst | expected | K >= 1", kRandomWalk, true, "",
     "random-walk: N_u of each target: tail (k with P(N_u > k) <= tail-share * delta, spent from delta), "
     "worst (T, or T/2 without self-loops), expected (T/n, the paper's: not a bound), or a number K (a cap "
     "the protocol enforces, Remark 5)",
     [](AccountRequest& r, std::string_view t) { r.contributions = parse_contributions(t); },
     [](const AccountRequest& r) { return r.contributions.has_value(); }},
    {"tail_share", real, "0.1", "real in (0, 1)", kRandomWalk, true, "",
     "random-walk --contributions tail: the share of delta spent on the count's failure probability",
     [](AccountRequest& r, std::string_view t) { r.tail_share = parse_real("tail_share", t); },
     [](const AccountRequest& r) { return r.tail_share.has_value(); }},
    {"sender_known", flag, "", "", kRandomWalk, true, "",
     "random-walk: the observer knows who sent the token (Appendix B.1)",
     [](AccountRequest& r, std::string_view t) { r.sender_known = parse_flag("sender_known", t); },
     [](const AccountRequest& r) { return r.sender_known; }},
    {"view", choice, "secure-sum", "secure-sum | secure-sum-adaptive | plain", kLinearSystem, true, "",
     "linear-system: what the observer sees: secure-sum (Theorem 8), secure-sum-adaptive (Theorem 9), "
     "plain (Theorem 10)",
     [](AccountRequest& r, std::string_view t) { r.view = parse_linear_system_view(t); },
     [](const AccountRequest& r) { return r.view.has_value(); }},
    {"first_power", integer, "", "0 | 1", kLinearSystem, true, "",
     "linear-system: first power of W, 0 or 1 (default: the paper's choice for the view)",
     [](AccountRequest& r, std::string_view t) { r.first_power = parse_whole<int>("first_power", t, true); },
     [](const AccountRequest& r) { return r.first_power.has_value(); }},
    {"keep_observer_noise", flag, "", "", kLinearSystem, false, "",
     "linear-system: keep the observer's own noise (the paper's first variant)",
     [](AccountRequest& r, std::string_view t) {
       r.keep_observer_noise = parse_flag("keep_observer_noise", t);
     },
     [](const AccountRequest& r) { return r.keep_observer_noise; }},
    {"gossip_steps", count, "1", "integer >= 1", kLinearSystem | kMf, true, "K",
     "linear-system, mf: gossip steps per injection / gradient",
     [](AccountRequest& r, std::string_view t) {
       r.gossip_steps = parse_whole<std::size_t>("gossip_steps", t, false);
     },
     [](const AccountRequest& r) { return r.gossip_steps.has_value(); }},
    {"release_dimension", dimension, "vector", "vector | integer >= 1", kLinearSystem | kMf | kMuffliato,
     true, "",
     "linear-system, mf, muffliato --gradient-steps: coordinates of each round's release: vector (any "
     "dimension: the certified SDP worst case) | 1 (scalar) | p",
     [](AccountRequest& r, std::string_view t) {
       r.release_dimension = parse_release_dimension(t, "`release_dimension`");
     },
     [](const AccountRequest& r) { return r.release_dimension.has_value(); }, true},
    {"sign_search", choice, "none", "none | auto", kLinearSystem | kMf, false, "",
     "linear-system, mf with --release-dimension 1: none (Σ|K|) | auto (exact / SDP-certified maximum over "
     "sign vectors)",
     [](AccountRequest& r, std::string_view t) {
       r.sign_search = util::parse_enum(kSignSearchNames, t, "`sign_search`");
     },
     [](const AccountRequest& r) { return r.sign_search.has_value(); }, true},
    {"trust", choice, "pndp", "ldp | pndp | secldp", kMf, true, "",
     "mf: the trust model: ldp (every message is public), pndp (the messages the observer receives), "
     "secldp (every message, the observer's own secrets known)",
     [](AccountRequest& r, std::string_view t) { r.trust = parse_mf_trust(t); },
     [](const AccountRequest& r) { return r.trust.has_value(); }},
    {"algorithm", choice, "dp-d-sgd", "dp-d-sgd | muffliato-sgd | antipgd | decor | zip-dl | mf-d-sgd", kMf,
     true, "", "mf: the training algorithm whose noise correlations are accounted (MF paper, Section 4)",
     [](AccountRequest& r, std::string_view t) { r.algorithm = parse_mf_algorithm(t); },
     [](const AccountRequest& r) { return r.algorithm.has_value(); }},
    {"participations", count, "0", "integer >= 0", kMf, true, "",
     "mf: k of (k, b)-cyclic participation; 0: every round",
     [](AccountRequest& r, std::string_view t) {
       r.participations = parse_whole<std::size_t>("participations", t, false);
     },
     [](const AccountRequest& r) { return r.participations > 0; }},
    {"separation", count, "0", "integer >= 0", kMf, true, "",
     "mf: b of (k, b)-cyclic participation; 0: ceil(T/k)",
     [](AccountRequest& r, std::string_view t) {
       r.separation = parse_whole<std::size_t>("separation", t, false);
     },
     [](const AccountRequest& r) { return r.separation > 0; }},
    {"correlation", matrix, "", "a T x T lower-triangular matrix", kMf, true, "",
     "mf: Matrix Market file of the correlation C of mf-d-sgd (none: the identity)",
     [](AccountRequest& /*r*/, std::string_view /*t*/) {
       require(false, "`correlation` is a matrix, not text: read it from a file first");
     },
     [](const AccountRequest& r) { return r.correlation.size() > 0; }},
});

bool is_linear_view(const AccountRequest& r) {
  return r.method == Method::linear_system || r.method == Method::mf ||
         (r.method == Method::muffliato && r.gradient_steps > 0);
}

}  // namespace

std::string Contributions::name() const {
  return cap > 0 ? std::to_string(cap) : std::string(util::name_of(kContributionCountNames, count));
}

std::span<const AccountOption> account_options() { return kOptions; }

const AccountOption* find_account_option(std::string_view name) {
  for (const AccountOption& option : kOptions)
    if (option.name == name) return &option;
  return nullptr;
}

void set_account_option(AccountRequest& r, std::string_view name, std::string_view text) {
  const AccountOption* option = find_account_option(name);
  require(option != nullptr, "unknown accountant option '{}'", name);
  option->parse(r, text);
}

bool account_option_set(const AccountRequest& r, std::string_view name) {
  const AccountOption* option = find_account_option(name);
  return option != nullptr && option->is_set(r);
}

void check_request(const AccountRequest& r) {
  // The options that apply to some methods only, refused together with the others of their methods.
  for (const AccountOption& option : kOptions) {
    if (option.applies_to(r.method) || !option.is_set(r) || option.own_rule) continue;
    std::vector<std::string> peers;
    for (const AccountOption& peer : kOptions)
      if (peer.methods == option.methods && !peer.own_rule) peers.push_back(quoted(peer.name));
    require(false, "{} {} to `method` {} only", joined(peers), peers.size() > 1 ? "apply" : "applies",
            method_list(option));
  }
  require(r.method == Method::muffliato || !r.bound.has_value(),
          "`bound` {}: only `method` muffliato has a paper formula that is not a bound (the other methods "
          "always report a valid upper bound)",
          util::name_of(kMuffliatoBoundNames, r.bound_or_default()));
  require((r.method == Method::muffliato && r.bound_or_default() == MuffliatoBound::exact &&
           r.gradient_steps == 0) ||
              !r.exact_effort.has_value(),
          "`exact_effort` applies to the exact joint view of `method` muffliato only (not to `bound` paper "
          "or `gradient_steps`)");
  const double effort = r.exact_effort_or_default();
  require(std::isfinite(effort) && effort >= 0.0,
          "`exact_effort` must be a finite number of entries >= 0 (messages x nodes of the largest view "
          "computed in exact arithmetic), got {}",
          effort);
  require(r.gossip_steps_or_default() >= 1,
          "`gossip_steps` must be >= 1 (gossip steps per injection), got {}", r.gossip_steps_or_default());
  require(!r.first_power || *r.first_power == 0 || *r.first_power == 1,
          "`first_power` must be 0 or 1, got {}", r.first_power.value_or(0));
  const double share = r.tail_share_or_default();
  require(std::isfinite(share) && share > 0.0 && share < 1.0,
          "`tail_share` must be in (0, 1) (the share of `delta` spent on the contribution count), got {}",
          share);
  require(is_linear_view(r) || !r.release_dimension.has_value(),
          "`release_dimension` applies to the linear views only: `method` linear-system, mf, or muffliato "
          "with `gradient_steps`");
  require(r.sign_search_or_default() == SignSearch::none || r.release_dimension_or_default() == 1,
          "`sign_search` {} maximises over scalar releases; add `release_dimension` 1 (the default release "
          "is a vector, whose worst case is the SDP value)",
          util::name_of(kSignSearchNames, r.sign_search_or_default()));
  require(
      r.method != Method::mf || r.algorithm_or_default() != MfAlgorithm::mf_d_sgd || r.correlation.size() > 0,
      "`algorithm` mf-d-sgd needs `correlation` C.mtx");
}

LinearSystemOptions linear_system_options(const AccountRequest& r) {
  LinearSystemOptions options;
  options.view = r.view_or_default();
  options.first_power = r.first_power;
  options.gossip_steps = r.gossip_steps_or_default();
  options.keep_observer_noise = r.keep_observer_noise;
  return options;
}

RandomWalkView random_walk_view(const AccountRequest& r) {
  return r.sender_known ? RandomWalkView::sender_known : RandomWalkView::anonymous_sender;
}

AssessOptions release_options(const AccountRequest& r) {
  return {r.sign_search_or_default(), r.release_dimension_or_default()};
}

MfAlgorithmSpec mf_algorithm_spec(const AccountRequest& r) {
  MfAlgorithmSpec spec;
  spec.algorithm = r.algorithm_or_default();
  spec.gossip_steps = r.gossip_steps_or_default();
  spec.correlation = r.correlation;
  require(spec.algorithm != MfAlgorithm::mf_d_sgd || spec.correlation.size() > 0,
          "`algorithm` mf-d-sgd needs `correlation` C.mtx");
  return spec;
}

MfParticipation mf_participation(const AccountRequest& r, std::size_t rounds) {
  if (r.participations > 0 || r.separation > 0)
    return MfParticipation::cyclic(r.participations,
                                   checked_cyclic_separation(rounds, r.participations, r.separation));
  return MfParticipation::every_round();
}

std::string mf_participation_name(const AccountRequest& r) {
  return r.participations > 0 ? fmt::format("cyclic:k={},b={}", r.participations, r.separation)
                              : "every-round";
}

std::unique_ptr<PairwiseAccount> make_account(const Protocol& protocol, const PairQuery& query,
                                              const AccountRequest& r, const ProgressCallback& progress) {
  check_request(r);
  const AccountantFamily& family = accountant_family(r.method);
  if (const auto why = family.refusal(protocol, query, r)) throw std::invalid_argument(*why);
  return family.build(protocol, query, r, progress);
}

}  // namespace netdp::accounting
