#pragma once
// Private to the learn module: the accountants attached to the training algorithms and σ
// calibration (docs/learn.md, "Privacy").

#include <cstddef>
#include <functional>

#include "netdp/learn/algorithm.hpp"

namespace netdp::learn {

/// sens²(t): the squared record-level sensitivity, in units of C, of a node's first t noisy
/// releases after de-correlating the noise (μ-GDP of the local view = sqrt(sens²(t)) / σ).
using SquaredSensitivity = std::function<double(std::size_t rounds)>;

/// Independent noise each step (C = I), a record in every step: sens²(t) = t.
SquaredSensitivity identity_correlation_sensitivity();
/// Anti-PGD's noise ξ_t − ξ_{t−1}: de-correlated by prefix sums, sens²(t) = Σ_{k=1}^t k².
SquaredSensitivity prefix_sum_correlation_sensitivity();

/// "local-gdp": everything node v ever sends, as seen by anybody (an upper bound on every
/// pairwise view, which is post-processing of it). μ(σ, t) = sqrt(sens²(t)) / σ.
PrivacyAccount local_gdp_account(const TrainContext& ctx, const SquaredSensitivity& sensitivity);

/// Muffliato-GD/SGD pairwise accountant (Cyffers et al. Theorems 6 / 11 through
/// accounting::muffliato_gd_all_pairs): mean or max over all ordered pairs per
/// params().calibrate_on ("local" gives local_gdp_account).
PrivacyAccount muffliato_account(const TrainContext& ctx);

/// The smallest σ (to relative 1e-9, by bisection on log σ) whose account_epsilon after
/// `rounds` steps is <= target; the returned σ never exceeds the target. Throws if no σ in
/// [1e-6, 1e9] meets it.
double calibrate_sigma(const PrivacyAccount& account, std::size_t rounds, double delta, double target);

}  // namespace netdp::learn
