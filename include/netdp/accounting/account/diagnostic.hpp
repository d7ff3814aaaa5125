// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// What an accountant says about its numbers besides the numbers: a typed diagnostic. Callers and
// tests act on the kind and the count; the text is for people (the command line prints it, Python
// raises it as a warning). Every diagnostic of an account is one of these kinds.

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "netdp/util/enum_names.hpp"

namespace netdp::accounting {

enum class DiagnosticKind {
  /// The noise map B of a linear view is zero: the view carries no noise.
  noiseless_view,
  /// B Bᵀ or B is rank deficient in floating point: a rank decision was made (with its margin).
  noise_rank_deficient,
  /// A Gram matrix (the noise B Bᵀ, the observations) has a condition number above the warning level.
  ill_conditioned,
  /// The data change is not in range(B): some combination of inputs is observed without noise.
  not_in_noise_range,
  /// Floating point did not resolve a view's exact rank (or its row space): its targets are
  /// reported at the local-DP cap.
  rank_unresolved,
  /// The exact search over released signs stopped or was not applicable: no exact value.
  sign_search_incomplete,
  /// An optimization (the SDP, the vector worst case) did not close its bracket: its upper end
  /// is reported.
  optimization_not_closed,
  /// A theorem's hypothesis fails for some pairs or rounds (MF Theorem 7's column echelon form or
  /// factorization, the random walk's amplification condition of Theorem 3).
  theorem_condition_fails,
  /// Entries of W are not short fractions: exact arithmetic reads their binary value.
  binary_weights,
  /// Views given up for the exact-arithmetic effort limit.
  effort_limit,
};

inline constexpr auto kDiagnosticKindNames = std::to_array<util::EnumName<DiagnosticKind>>({
    {DiagnosticKind::noiseless_view, "noiseless-view"},
    {DiagnosticKind::noise_rank_deficient, "noise-rank-deficient"},
    {DiagnosticKind::ill_conditioned, "ill-conditioned"},
    {DiagnosticKind::not_in_noise_range, "not-in-noise-range"},
    {DiagnosticKind::rank_unresolved, "rank-unresolved"},
    {DiagnosticKind::sign_search_incomplete, "sign-search-incomplete"},
    {DiagnosticKind::optimization_not_closed, "optimization-not-closed"},
    {DiagnosticKind::theorem_condition_fails, "theorem-condition-fails"},
    {DiagnosticKind::binary_weights, "binary-weights"},
    {DiagnosticKind::effort_limit, "effort-limit"},
});
static_assert(util::is_valid_enum_table(kDiagnosticKindNames));

struct Diagnostic {
  DiagnosticKind kind;
  std::string text;       ///< for display: what happened, with its numbers
  std::size_t count = 1;  ///< how many pairs, views or entries it concerns
  /// A tally over an account's observer sets or pairs (tally_diagnostic): the text with {0} for
  /// `count` and {1} for `of`; empty otherwise. The tallies of the accounts of shares of the
  /// observers add up (merge_diagnostics).
  std::string tally = {};
  std::size_t of = 0;  ///< a tally's total, when it has one: how many observer sets were looked at
};

/// A tally: `pattern` (a fmt pattern: {0} is `count`, {1} is `of`) with its text.
Diagnostic tally_diagnostic(DiagnosticKind kind, std::string pattern, std::size_t count, std::size_t of = 0);

/// Adds `more` to `diagnostics`, in order: a tally of the same kind and pattern as one present adds
/// its count and total to it (the text says the sums), a diagnostic equal to one present is said
/// once (a fact of the whole network that every share found), the others are appended.
void merge_diagnostics(std::vector<Diagnostic>& diagnostics, const std::vector<Diagnostic>& more);

/// The texts of `diagnostics`, in order (what front ends print).
std::vector<std::string> diagnostic_texts(const std::vector<Diagnostic>& diagnostics);

/// Σ count over the diagnostics of `kind`.
std::size_t diagnostic_count(const std::vector<Diagnostic>& diagnostics, DiagnosticKind kind);

/// `diagnostics` with each of `more` appended, its text prefixed by `prefix`.
void append_diagnostics(std::vector<Diagnostic>& diagnostics, const std::vector<Diagnostic>& more,
                        std::string_view prefix = {});

}  // namespace netdp::accounting
