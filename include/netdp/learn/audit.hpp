#pragma once
// Empirical privacy auditing: the observer's view of the simulated protocol on two neighbouring
// inputs, the Neyman–Pearson optimal attack on it, and a lower confidence bound on μ and ε
// (dp/audit_bounds.hpp) to set beside an accountant's claim (docs/audit.md).
//
// Muffliato gossip averaging (Cyffers et al. Algorithm 1, the paper's convention): every node
// releases y = x + η, η ~ N(0, σ² I), and at rounds t = 0..T−1 the observer v receives
// (W_{t−1} ⋯ W_0 y)_w from each neighbour w of v under W_t. Its view is A y for a matrix A that
// the audit identifies by running the same gossip on the unit inputs; v knows its own y_v. The
// two inputs differ in the target's x_u by d = Δ (zero elsewhere: the view's law shifts by
// d·A e_u whatever the other inputs are). With A′ = A without column v, the optimal test
// statistic is s = cᵀ(view − A e_v y_v), c = (A′ᵀ)⁺ e_u: s = gᵀ y_{−v} with g = Π_{row(A′)} e_u,
// N(0, σ²‖g‖²) without the change and shifted by d·g_u with it. The threshold is the midpoint
// d·g_u/2, fixed before the trials; the statistical guarantee does not depend on how A′'s rank
// is decided (a worse c only weakens the attack).

#include <cstddef>
#include <cstdint>
#include <functional>

#include "netdp/dp/audit_bounds.hpp"
#include "netdp/gossip/schedule.hpp"
#include "netdp/graph/graph.hpp"

namespace netdp::learn {

struct AuditOptions {
  std::size_t trials = 100000;  ///< per input (x_u and x_u + d)
  std::uint64_t seed = 1;
  double confidence = 0.95;  ///< of the lower bounds (both error rates together)
  double delta = 1e-5;       ///< of the ε lower bound
  /// Called with the trials done so far (both inputs), from the calling thread.
  std::function<void(std::size_t)> progress;
};

struct AuditResult {
  std::size_t trials = 0;           ///< per input
  std::size_t messages = 0;         ///< rows of the observer's view A
  double threshold = 0.0;           ///< of the test statistic
  std::size_t false_positives = 0;  ///< trials on x_u with s > threshold
  std::size_t false_negatives = 0;  ///< trials on x_u + d with s <= threshold
  double attack_mu = 0.0;           ///< d·‖g‖/σ: the μ of the designed test under the model
  dp::PrivacyLowerBound bound;      ///< valid with probability >= options.confidence
};

/// Audits Muffliato gossip averaging on `schedule` (its rounds are the T gossip rounds) for the
/// pair (observer, target), noise σ and sensitivity Δ. Trials run in parallel in fixed batches,
/// each seeded from (seed, input, batch): the result does not depend on the thread count, and
/// memory does not grow with the trial count. Throws unless observer != target are nodes,
/// σ, Δ > 0 and trials >= 1.
AuditResult audit_muffliato(const gossip::Schedule& schedule, graph::NodeId observer, graph::NodeId target,
                            double sigma, double sensitivity, const AuditOptions& options);

}  // namespace netdp::learn
