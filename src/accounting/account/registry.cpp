// The accountant families (registry.hpp) and the combinations each refuses.

#include "netdp/accounting/account/registry.hpp"

#include <fmt/format.h>

#include <array>
#include <stdexcept>

#include "accounting/account/pairwise_detail.hpp"

namespace netdp::accounting {

namespace detail {

std::optional<std::string> muffliato_refusal(const Protocol& protocol, const PairQuery& q,
                                             MuffliatoBound bound, std::size_t gradient_steps) {
  if (!q.group.empty() && q.target) return "give either a target or a group, not both";
  if (gradient_steps == 0) return std::nullopt;
  // Theorems 6 and 11 are stated for one observer and one target.
  if (bound == MuffliatoBound::paper && (!q.group.empty() || !q.colluders.empty()))
    return "Muffliato-GD (gradient steps) does not combine with a group or colluders";
  if (!q.group.empty()) return "Muffliato-GD (gradient steps) does not combine with a group of targets";
  if (protocol.schedule.kind != gossip::ScheduleSpec::Kind::fixed && !q.colluders.empty())
    return "Muffliato-GD on a time-varying schedule does not combine with colluders";
  return std::nullopt;
}

std::optional<std::string> fixed_schedule_refusal(const Protocol& protocol, Method method) {
  if (protocol.schedule.kind == gossip::ScheduleSpec::Kind::fixed) return std::nullopt;
  return fmt::format("the {} method needs the fixed schedule, got '{}'", util::name_of(kMethodNames, method),
                     gossip::schedule_spec_string(protocol.schedule));
}

}  // namespace detail

namespace {

/// A group of targets is Muffliato's alone (Theorem 13, and the exact view of a group).
std::optional<std::string> group_refusal(const PairQuery& q) {
  if (q.group.empty()) return std::nullopt;
  return std::string("`group` applies to `method` muffliato only");
}

std::optional<std::string> muffliato_refusal(const Protocol& protocol, const PairQuery& q,
                                             const AccountRequest& r) {
  return detail::muffliato_refusal(protocol, q, r.bound_or_default(), r.gradient_steps);
}

std::unique_ptr<PairwiseAccount> build_muffliato(const Protocol& protocol, const PairQuery& q,
                                                 const AccountRequest& r, const ProgressCallback& progress) {
  MuffliatoOptions options;
  options.bound = r.bound_or_default();
  options.messages = r.authors_convention ? MessageConvention::authors_code : MessageConvention::paper;
  options.observer_noise = r.count_observer_noise ? ObserverNoise::counted : ObserverNoise::known;
  options.release_dimension = r.release_dimension_or_default();
  options.exact_effort = r.exact_effort_or_default();
  options.progress = progress;
  return muffliato_account(protocol, q, options, r.gradient_steps);
}

std::optional<std::string> random_walk_refusal(const Protocol& protocol, const PairQuery& q,
                                               const AccountRequest& /*request*/) {
  if (auto why = group_refusal(q)) return why;
  return detail::fixed_schedule_refusal(protocol, Method::random_walk);
}

std::unique_ptr<PairwiseAccount> build_random_walk(const Protocol& protocol, const PairQuery& q,
                                                   const AccountRequest& r,
                                                   const ProgressCallback& progress) {
  RandomWalkOptions options;
  const Contributions contributions = r.contributions_or_default();
  if (contributions.cap > 0) {
    options.contributions = static_cast<double>(contributions.cap);
  } else {
    options.count = contributions.count;
  }
  options.tail_share = r.tail_share_or_default();
  options.view = random_walk_view(r);
  options.progress = progress;
  return random_walk_account(protocol, q, options);
}

std::optional<std::string> linear_system_refusal(const Protocol& /*protocol*/, const PairQuery& q,
                                                 const AccountRequest& /*request*/) {
  return group_refusal(q);
}

std::unique_ptr<PairwiseAccount> build_linear_system(const Protocol& protocol, const PairQuery& q,
                                                     const AccountRequest& r,
                                                     const ProgressCallback& progress) {
  return linear_system_account(protocol, q, linear_system_options(r), release_options(r), progress,
                               r.pair_fields);
}

std::optional<std::string> mf_refusal(const Protocol& protocol, const PairQuery& q, const AccountRequest& r) {
  if (auto why = group_refusal(q)) return why;
  // Under local DP every message is public: there is no observer to choose.
  if (r.trust == MfTrust::ldp && (q.observer || !q.colluders.empty()))
    return std::string("`trust` ldp has no observer nor colluders: every message is public");
  return detail::fixed_schedule_refusal(protocol, Method::mf);
}

std::unique_ptr<PairwiseAccount> build_mf(const Protocol& protocol, const PairQuery& q,
                                          const AccountRequest& r, const ProgressCallback& progress) {
  MfOptions options;
  options.assess = release_options(r);
  options.participation = mf_participation(r, protocol.rounds);
  options.progress = progress;
  return mf_account(protocol, q, mf_algorithm_spec(r), r.trust_or_default(), options);
}

constexpr std::array kFamilies = std::to_array<AccountantFamily>({
    {Method::muffliato,
     "gossip averaging with local noise: the exact joint view of every observer (default), or the Muffliato "
     "paper's Theorems 1, 6, 11, 12, 13 by name (not a bound); Muffliato-GD with gradient steps",
     muffliato_refusal, build_muffliato},
    {Method::random_walk,
     "random-walk DP-SGD: the token's visits, Rényi DP per pair (Cyffers, Bellet & Upadhyay, Theorem 3, "
     "Appendix B.1)",
     random_walk_refusal, build_random_walk},
    {Method::linear_system,
     "gossip as a linear system with noise injected every round (Koskela & Kulkarni, Theorems 8, 9, 10)",
     linear_system_refusal, build_linear_system},
    {Method::mf,
     "matrix-factorization mechanisms over the gossip matrix (Bellet et al., Theorem 7): DP-D-SGD, "
     "Muffliato-SGD, AntiPGD, DECOR, Zip-DL, MF-D-SGD",
     mf_refusal, build_mf},
});

}  // namespace

std::span<const AccountantFamily> accountant_families() { return kFamilies; }

const AccountantFamily& accountant_family(Method method) {
  for (const AccountantFamily& family : kFamilies)
    if (family.method == method) return family;
  throw std::invalid_argument("no accountant family for this method");
}

}  // namespace netdp::accounting
