// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Every accountant's options as typed values, the one table that names them, and the one place
// that turns them into a PairwiseAccount. Text is parsed once, at the edge: the command line and
// the Python keywords go through set_account_option, which reads the table; a C++ caller sets the
// fields. An unset optional is the option's default; an option set for a method it does not apply
// to is refused (check_request).
//
// Messages name an option by its identifier in backticks, `tail_share` (the field here and the
// Python keyword); the command line shows it as its flag, --tail-share (util/option_spelling.hpp).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/accounting/linear_system/linear_system.hpp"
#include "netdp/accounting/mf/mf_accountant.hpp"
#include "netdp/accounting/muffliato/muffliato.hpp"
#include "netdp/accounting/random_walk/random_walk.hpp"
#include "netdp/util/enum_names.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting {

/// The accountant families.
enum class Method { muffliato, random_walk, linear_system, mf };
inline constexpr auto kMethodNames = std::to_array<util::EnumName<Method>>({
    {Method::muffliato, "muffliato"},
    {Method::random_walk, "random-walk"},
    {Method::linear_system, "linear-system"},
    {Method::mf, "mf"},
});
static_assert(util::is_valid_enum_table(kMethodNames));
/// A method's bit in a set of methods (AccountOption::methods).
constexpr unsigned method_bit(Method method) { return 1U << static_cast<unsigned>(method); }

/// The random walk's count N_u of a target's contributions: a rule, or a cap K >= 1 that the
/// protocol enforces (Remark 5).
struct Contributions {
  ContributionCount count = ContributionCount::tail;
  std::uint64_t cap = 0;  ///< > 0: the cap K (count is then ignored)
  /// "tail", "worst", "expected", or K in decimal digits.
  std::string name() const;
};

struct AccountRequest {
  Method method = Method::muffliato;
  // muffliato
  std::size_t gradient_steps = 0;       ///< > 0: Muffliato-GD with this many steps of `rounds` rounds
  bool authors_convention = false;      ///< powers 1..T, no t = 0 exchange (the authors' code)
  bool count_observer_noise = false;    ///< bound paper: Theorem 1 as printed
  std::optional<MuffliatoBound> bound;  ///< default exact (the whole view)
  std::optional<double> exact_effort;   ///< default kDefaultExactEffort (MuffliatoOptions::exact_effort)
  // random-walk
  std::optional<Contributions> contributions;  ///< default tail
  std::optional<double> tail_share;            ///< default 0.1: the share of δ spent on the tail count
  bool sender_known = false;                   ///< Appendix B.1's view
  // linear-system
  std::optional<LinearSystemView> view;  ///< default secure-sum
  std::optional<int> first_power;        ///< 0 or 1 (default: the paper's)
  bool keep_observer_noise = false;
  // linear-system, mf (and Muffliato-GD's release dimension)
  std::optional<std::size_t> gossip_steps;       ///< K, default 1
  std::optional<std::size_t> release_dimension;  ///< p, default kAnyReleaseDimension (a vector)
  std::optional<SignSearch> sign_search;         ///< default none
  // mf
  std::optional<MfTrust> trust;          ///< default pndp
  std::optional<MfAlgorithm> algorithm;  ///< default dp-d-sgd
  std::size_t participations = 0;        ///< k of (k, b)-cyclic participation (0: every round)
  std::size_t separation = 0;            ///< b
  DenseMatrix correlation;               ///< mf-d-sgd's C
  // every method
  /// Keep each pair's fields beyond μ (the linear views' sensitivity fields, 88 bytes a pair) for
  /// its row. A front end that prints no rows (a summary, a matrix of one field) sets false: the
  /// rows then carry no `sensitivity`, and an all-pairs linear-system account holds its μ only.
  bool pair_fields = true;

  // The value of each optional option, its default when unset (the one place that states them).
  MuffliatoBound bound_or_default() const { return bound.value_or(MuffliatoBound::exact); }
  double exact_effort_or_default() const { return exact_effort.value_or(kDefaultExactEffort); }
  Contributions contributions_or_default() const { return contributions.value_or(Contributions{}); }
  double tail_share_or_default() const { return tail_share.value_or(0.1); }
  LinearSystemView view_or_default() const { return view.value_or(LinearSystemView::secure_sum); }
  std::size_t gossip_steps_or_default() const { return gossip_steps.value_or(1); }
  std::size_t release_dimension_or_default() const {
    return release_dimension.value_or(kAnyReleaseDimension);
  }
  SignSearch sign_search_or_default() const { return sign_search.value_or(SignSearch::none); }
  MfTrust trust_or_default() const { return trust.value_or(MfTrust::pndp); }
  MfAlgorithm algorithm_or_default() const { return algorithm.value_or(MfAlgorithm::dp_d_sgd); }
};

/// The kind of value an option takes, as a front end reads it.
enum class OptionType {
  flag,             ///< present or not (Python: bool)
  count,            ///< a whole number >= 0
  integer,          ///< a whole number
  real,             ///< a number
  choice,           ///< one of the names in `values`
  count_or_choice,  ///< a name in `values` or a whole number (random-walk contributions)
  dimension,        ///< "vector" or a whole number >= 1
  matrix,           ///< a matrix (the command line reads a Matrix Market file)
};

inline constexpr auto kOptionTypeNames = std::to_array<util::EnumName<OptionType>>({
    {OptionType::flag, "flag"},
    {OptionType::count, "count"},
    {OptionType::integer, "integer"},
    {OptionType::real, "real"},
    {OptionType::choice, "choice"},
    {OptionType::count_or_choice, "count_or_choice"},
    {OptionType::dimension, "dimension"},
    {OptionType::matrix, "matrix"},
});
static_assert(util::is_valid_enum_table(kOptionTypeNames));

/// One accountant option: its name, type, default, accepted values, the methods it applies to,
/// and its one-line documentation. The command line's flags, the Python keywords and the option
/// reference of docs/reference/cli.md come from this table.
struct AccountOption {
  std::string_view name;  ///< the identifier: tail_share (flag --tail-share)
  OptionType type;
  std::string_view default_value;  ///< as the help shows it ("" when the default is described in `help`)
  std::string_view values;         ///< choices or range, e.g. "tail | worst | expected | K >= 1"
  unsigned methods;                ///< method_bit of each method it applies to
  bool audited;                    ///< offered by `netdp audit` too
  std::string_view short_flag;     ///< a one-letter flag ("K"), or ""
  std::string_view help;           ///< the help line, its applicability first
  /// Sets the option from its text; throws naming the option and the rule.
  void (*parse)(AccountRequest& request, std::string_view text);
  /// Whether the option is set (differs from an unset request's value).
  bool (*is_set)(const AccountRequest& request);
  /// Whether check_request states this option's applicability by its own rule (it depends on more
  /// than the method, e.g. `exact_effort` on `bound`), instead of the generic "applies to" rule.
  bool own_rule = false;

  /// Whether the option applies to `method` (a bit of `methods`).
  constexpr bool applies_to(Method method) const { return (methods & method_bit(method)) != 0; }
};

/// Every option of AccountRequest, in the order the help lists them.
std::span<const AccountOption> account_options();
/// The option named `name` (identifier), or nullptr.
const AccountOption* find_account_option(std::string_view name);
/// Sets option `name` of `request` from its text (the command line's value; a flag takes "true" or
/// "false"). Throws std::invalid_argument naming the option and the rule for a value it does not
/// take, and for `correlation`, which is a matrix.
void set_account_option(AccountRequest& request, std::string_view name, std::string_view text);
/// Whether option `name` is set in `request` (differs from an unset request's value).
bool account_option_set(const AccountRequest& request, std::string_view name);

/// Checks that every option set applies to the method and holds a valid value; throws
/// std::invalid_argument naming the option and the rule (make_account calls it).
void check_request(const AccountRequest& request);

/// The account of `request` for the protocol and query (built at σ = 1).
std::unique_ptr<PairwiseAccount> make_account(const Protocol& protocol, const PairQuery& query,
                                              const AccountRequest& request,
                                              const ProgressCallback& progress = {});

/// The linear-system view of `view`, `first_power`, `gossip_steps`, `keep_observer_noise` (rounds
/// are the protocol's, set by the accountant).
LinearSystemOptions linear_system_options(const AccountRequest& request);
/// The random walk's view: Appendix B.1's with `sender_known`, else eq. (7)'s anonymous sender.
RandomWalkView random_walk_view(const AccountRequest& request);
/// `sign_search` and `release_dimension`.
AssessOptions release_options(const AccountRequest& request);
/// The MF algorithm of `algorithm`, `gossip_steps` and `correlation`.
MfAlgorithmSpec mf_algorithm_spec(const AccountRequest& request);
/// Every round, or (participations, separation)-cyclic over `rounds` steps (separation 0: ⌈T/k⌉),
/// checked by checked_cyclic_separation.
MfParticipation mf_participation(const AccountRequest& request, std::size_t rounds);
/// "every-round" or "cyclic:k=K,b=B".
std::string mf_participation_name(const AccountRequest& request);

}  // namespace netdp::accounting
