#include "netdp/accounting/account_request.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>

#include "netdp/util/check.hpp"

namespace netdp::accounting {
namespace {

bool is_linear_view(const AccountRequest& r) {
  return r.method == "linear-system" || r.method == "mf" || (r.method == "muffliato" && r.gradient_steps > 0);
}

/// --contributions K: a count of visits, a whole number >= 1 in plain decimal digits (the names
/// tail | worst | expected are matched first). A fraction or 1e-300 would scale the loss down to
/// nothing: a node that is visited contributes at least once.
double contribution_cap(const std::string& text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const bool digits =
      !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  require(digits && ec == std::errc() && ptr == end && value >= 1,
          "--contributions '{}' is not one of tail, worst, expected, or a whole number >= 1 (a count of "
          "visits, in decimal digits)",
          text);
  return static_cast<double>(value);
}

}  // namespace

void check_request(const AccountRequest& r) {
  require(
      r.method == "muffliato" || r.method == "random-walk" || r.method == "linear-system" || r.method == "mf",
      "--method '{}' is not one of: muffliato, random-walk, linear-system, mf", r.method);
  require(
      r.method == "muffliato" || (r.gradient_steps == 0 && !r.authors_convention && !r.count_observer_noise),
      "--gradient-steps, --authors-convention and --count-observer-noise apply to --method muffliato only");
  require(r.method == "muffliato" || r.bound == "exact",
          "--bound {}: only --method muffliato has a paper formula that is not a bound (the other methods "
          "always report a valid upper bound)",
          r.bound);
  require((r.method == "muffliato" && r.bound == "exact" && r.gradient_steps == 0) ||
              r.exact_effort == kDefaultExactEffort,
          "--exact-effort applies to the exact joint view of --method muffliato only (not to --bound paper "
          "or --gradient-steps)");
  require(std::isfinite(r.exact_effort) && r.exact_effort >= 0.0,
          "--exact-effort must be a finite number of entries >= 0 (messages x nodes of the largest view "
          "computed in exact arithmetic), got {}",
          r.exact_effort);
  require(r.method == "random-walk" || (r.contributions == "tail" && r.tail_share == 0.1 && !r.sender_known),
          "--contributions, --tail-share and --sender-known apply to --method random-walk only");
  require(std::isfinite(r.tail_share) && r.tail_share > 0.0 && r.tail_share < 1.0,
          "--tail-share must be in (0, 1) (the share of --delta spent on the contribution count), got {}",
          r.tail_share);
  require(r.method == "linear-system" || (r.view == "secure-sum" && !r.first_power && !r.keep_observer_noise),
          "--view, --first-power and --keep-observer-noise apply to --method linear-system only");
  require(r.method == "linear-system" || r.method == "mf" || r.gossip_steps == 1,
          "--gossip-steps applies to --method linear-system and mf only");
  require(r.method == "mf" || (r.trust == "pndp" && r.algorithm == "dp-d-sgd" && r.participations == 0 &&
                               r.separation == 0 && r.correlation.size() == 0),
          "--trust, --algorithm, --participations, --separation and --correlation apply to --method mf only");
  require(
      is_linear_view(r) || r.release_dimension == "vector",
      "--release-dimension applies to the linear views only: --method linear-system, mf, or muffliato with "
      "--gradient-steps");
  const AssessOptions release = release_options(r);
  require(
      r.sign_search == "none" || release.release_dimension == 1,
      "--sign-search {} maximises over scalar releases; add --release-dimension 1 (the default release is a "
      "vector, whose worst case is the SDP value)",
      r.sign_search);
  if (r.method == "muffliato") (void)util::parse_enum(kMuffliatoBoundNames, r.bound, "--bound");
  if (r.method == "random-walk" && !util::find_enum(kContributionCountNames, r.contributions))
    (void)contribution_cap(r.contributions);
  if (r.method == "linear-system") (void)parse_linear_system_view(r.view);
  if (r.method == "mf") {
    (void)parse_mf_trust(r.trust);
    require(parse_mf_algorithm(r.algorithm) != MfAlgorithm::mf_d_sgd || r.correlation.size() > 0,
            "--algorithm mf-d-sgd needs --correlation C.mtx");
  }
}

LinearSystemOptions linear_system_options(const AccountRequest& r) {
  LinearSystemOptions options;
  options.view = parse_linear_system_view(r.view);
  options.first_power = r.first_power;
  options.gossip_steps = r.gossip_steps;
  options.keep_observer_noise = r.keep_observer_noise;
  return options;
}

RandomWalkView random_walk_view(const AccountRequest& r) {
  return r.sender_known ? RandomWalkView::sender_known : RandomWalkView::anonymous_sender;
}

AssessOptions release_options(const AccountRequest& r) {
  return {util::parse_enum(kSignSearchNames, r.sign_search, "--sign-search"),
          parse_release_dimension(r.release_dimension, "--release-dimension")};
}

MfAlgorithmSpec mf_algorithm_spec(const AccountRequest& r) {
  MfAlgorithmSpec spec;
  spec.algorithm = parse_mf_algorithm(r.algorithm);
  spec.gossip_steps = r.gossip_steps;
  spec.correlation = r.correlation;
  require(spec.algorithm != MfAlgorithm::mf_d_sgd || spec.correlation.size() > 0,
          "--algorithm mf-d-sgd needs --correlation C.mtx");
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
  require(r.method == "muffliato" || query.group.empty(), "--group applies to --method muffliato only");
  if (r.method == "muffliato") {
    MuffliatoOptions options;
    options.bound = util::parse_enum(kMuffliatoBoundNames, r.bound, "--bound");
    options.messages = r.authors_convention ? MessageConvention::authors_code : MessageConvention::paper;
    options.observer_noise = r.count_observer_noise ? ObserverNoise::counted : ObserverNoise::known;
    options.release_dimension = release_options(r).release_dimension;
    options.exact_effort = r.exact_effort;
    options.progress = progress;
    return muffliato_account(protocol, query, options, r.gradient_steps);
  }
  if (r.method == "random-walk") {
    RandomWalkOptions options;
    if (const auto count = util::find_enum(kContributionCountNames, r.contributions)) {
      options.count = *count;
    } else {
      options.contributions = contribution_cap(r.contributions);
    }
    options.tail_share = r.tail_share;
    options.view = random_walk_view(r);
    options.progress = progress;
    return random_walk_account(protocol, query, options);
  }
  if (r.method == "linear-system")
    return linear_system_account(protocol, query, linear_system_options(r), release_options(r), progress,
                                 r.pair_fields);
  MfOptions options;
  options.assess = release_options(r);
  options.participation = mf_participation(r, protocol.rounds);
  options.progress = progress;
  return mf_account(protocol, query, mf_algorithm_spec(r), parse_mf_trust(r.trust), options);
}

}  // namespace netdp::accounting
