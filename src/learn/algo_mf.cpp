// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Matrix-factorization algorithms (MF paper, Bellet et al.): mf-d-sgd (Algorithm 1) and
// mafalda (MAFALDA-SGD, Algorithm 2). D-SGD "adapt then combine" where node v's noise at step t
// is σ C (C_v⁻¹ ξ_v)_t (eq. 3 / Algorithm 1 line 5: the noise C⁺Z with C lower triangular and
// invertible, so C⁺ = C⁻¹ and the noise of step t only needs ξ_v(0..t)), ξ_v(s) ~ N(0, I_p).
// See docs/reference/learn.md, "Matrix-factorization algorithms".

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "netdp/learn/algorithm.hpp"
#include "netdp/mf/correlation_io.hpp"
#include "netdp/mf/factorize.hpp"
#include "netdp/mf/local_gram.hpp"
#include "netdp/mf/mafalda_per_node.hpp"
#include "netdp/mf/mafalda_privacy.hpp"
#include "netdp/util/check.hpp"
#include "train_privacy.hpp"

namespace netdp::learn {

namespace {

/// Largest (w + 1) · n · p doubles of noise history kept (2^28 doubles = 2 GiB).
constexpr std::size_t kNoiseHistoryLimit = std::size_t{1} << 28;

/// C from a Matrix Market file (mf::read_correlation checks it: square, finite, lower triangular,
/// non-zero diagonal), of size T × T.
DenseMatrix read_correlation_file(const std::string& path, std::size_t rounds) {
  DenseMatrix c;
  try {
    c = mf::read_correlation(path);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("algorithm.correlation: {}", e.what()));
  }
  require(static_cast<std::size_t>(c.rows()) == rounds,
          "algorithm.correlation '{}': C is {} x {}, expected T x T = {} x {} (algorithm.rounds)", path,
          c.rows(), c.cols(), rounds, rounds);
  return c;
}

/// algorithm.correlation: empty or `identity` (C = I), `antipgd` (C = lower-triangular ones, C⁻¹ =
/// first differences), else a Matrix Market file.
DenseMatrix correlation_from_key(const std::string& value, std::size_t rounds) {
  if (value.empty() || value == "identity") return mf::identity_correlation(rounds);
  if (value == "antipgd") return mf::antipgd_correlation(rounds);
  return read_correlation_file(value, rounds);
}

/// The participation the correlation is optimized for and accounted under (docs/reference/learn.md).
struct McParticipation {
  std::size_t k = 1;       ///< participations of a record (k_eff = ⌈T/b⌉ when cyclic)
  std::size_t b = 1;       ///< steps between participations = number of classes
  bool every_step = true;  ///< k = T, b = 1: a record may be in every step's batch
};

McParticipation resolve_participation(const AlgorithmParams& p) {
  McParticipation out;
  if (p.participations == 1 && p.separation == 0) {
    out.k = p.rounds;
    return out;
  }
  out.every_step = false;
  out.b = p.separation == 0 ? (p.rounds + p.participations - 1) / p.participations : p.separation;
  require(out.b <= p.rounds, "algorithm.separation = {} must be <= algorithm.rounds = {}", out.b, p.rounds);
  out.k = (p.rounds + out.b - 1) / out.b;
  require(out.k <= p.participations,
          "algorithm.participations = {} with separation b = {}: a record cycles through its node's batches "
          "every b steps and so takes part ⌈T/b⌉ = {} times in T = {} steps; set algorithm.participations "
          ">= {}",
          p.participations, out.b, out.k, p.rounds, out.k);
  return out;
}

/// The separation to pass to the mf optimizers: their classes are {t : t ≡ j mod b} and they refuse
/// k·b > T unless b is left to resolve as ⌈T/k⌉ (0), which gives the same b whenever ⌈T/⌈T/b⌉⌉ = b.
std::size_t mf_separation(const McParticipation& part, std::size_t rounds) {
  return (rounds + part.k - 1) / part.k == part.b ? 0 : part.b;
}

/// Cyclic batches realize (k, b)-participation only if a record's steps j, j + m_b, j + 2 m_b, …
/// (m_b = the node's batch count) lie in one class {j + i b}: m_b a multiple of b, or m_b >= T
/// (a record used at most once).
void check_cyclic_batches(const TrainContext& ctx, const McParticipation& part) {
  const std::size_t rounds = ctx.params().rounds;
  for (std::size_t v = 0; v < ctx.num_nodes(); ++v) {
    const std::size_t m = ctx.node_data(v).size();
    const auto batch = static_cast<std::size_t>(ctx.batch_divisor(v));
    const std::size_t batches = (m + batch - 1) / batch;
    require(batches % part.b == 0 || batches >= rounds,
            "node {} has {} examples in batches of {} ({} cyclic batches), so a record takes part every {} "
            "steps; (k, b)-cyclic participation with b = algorithm.separation = {} needs a batch count that "
            "is a multiple of b (or >= T = {}): choose algorithm.batch_size so that ⌈{}/batch_size⌉ = {}",
            v, m, batch, batches, batches, part.b, rounds, m, part.b);
  }
}

/// Streams node v's noise (C_v⁻¹ ξ_v)_t. C_v⁻¹ is precomputed (T × T lower triangular, w = its
/// bandwidth: 0 for C = I, 1 for AntiPGD's first differences, up to T − 1 for a dense MAFALDA C⁻¹).
/// Draws ξ(t) (n × p) are made once per step, in step order, from the training Rng (so C = I is
/// dp-d-sgd's stream and C⁻¹ = first differences antipgd's, bit for bit). Two paths:
///  * window (per-node encoders, or w < kBlock): keep the last w + 1 draws and sum
///    Σ_{s=t−w..t} C⁻¹(t, s) ξ(s), newest first;
///  * blocked (one shared encoder with w >= kBlock): when a block of kBlock steps is complete its
///    draws are pushed to every later step at once, pending(:, t') += Ξ_block C⁻¹(t', block)ᵀ (one
///    GEMM per block instead of re-reading every past draw at every step); step t adds
///    pending(:, t) plus its own block's draws so far. Memory (T + kBlock)·n·p doubles.
class CorrelatedNoise {
 public:
  static constexpr std::size_t kBlock = 16;

  /// encoders: one C shared by all nodes, or one per node.
  void reset(const std::vector<DenseMatrix>& encoders, const TrainContext& ctx) {
    inverses_.clear();
    bandwidth_ = 0;
    for (const DenseMatrix& c : encoders) {
      const auto t_size = c.rows();
      DenseMatrix inverse = c.triangularView<Eigen::Lower>().solve(DenseMatrix::Identity(t_size, t_size));
      require(inverse.allFinite(), "the correlation C is numerically singular (C⁻¹ is not finite)");
      for (Eigen::Index t = 0; t < t_size; ++t) {
        Eigen::Index first = 0;
        while (first < t && inverse(t, first) == 0.0) ++first;
        bandwidth_ = std::max(bandwidth_, static_cast<std::size_t>(t - first));
      }
      inverses_.push_back(std::move(inverse));
    }
    const std::size_t rounds = static_cast<std::size_t>(inverses_.front().rows());
    const std::size_t draw = ctx.num_nodes() * ctx.num_parameters();
    blocked_ = inverses_.size() == 1 && bandwidth_ >= kBlock;
    const std::size_t kept = blocked_ ? rounds + kBlock : bandwidth_ + 1;
    require(kept <= kNoiseHistoryLimit / draw,
            "correlated noise: C⁻¹ has bandwidth {}, so {} draws of n × p = {} x {} must be kept (> {} "
            "doubles); reduce algorithm.rounds",
            bandwidth_, kept, ctx.num_nodes(), ctx.num_parameters(), kNoiseHistoryLimit);
    const auto rows = static_cast<Eigen::Index>(draw);
    if (blocked_) {
      pending_ = DenseMatrix::Zero(rows, static_cast<Eigen::Index>(rounds));
      block_.resize(rows, static_cast<Eigen::Index>(kBlock));
      history_.clear();
    } else {
      history_.assign(bandwidth_ + 1, DenseMatrix());
    }
  }

  /// grads(v, :) += scale · (C_v⁻¹ ξ_v)_t / b_v, drawing ξ(t) now.
  void add(std::size_t t, double scale, const TrainContext& ctx, Rng& rng, DenseMatrix& grads) {
    factor_.resize(grads.rows());
    if (blocked_) {
      add_blocked(t, scale, ctx, rng, grads);
      return;
    }
    const std::size_t slots = bandwidth_ + 1;
    DenseMatrix& current = history_[t % slots];
    current.resize(grads.rows(), grads.cols());
    fill_standard_normal(current.data(), static_cast<std::size_t>(current.size()), rng);
    const std::size_t first = t >= bandwidth_ ? t - bandwidth_ : 0;
    for (std::size_t s = t + 1; s-- > first;) {
      bool any = false;
      for (Eigen::Index v = 0; v < grads.rows(); ++v) {
        const DenseMatrix& inverse = inverses_[inverses_.size() == 1 ? 0 : static_cast<std::size_t>(v)];
        const double coefficient = inverse(static_cast<Eigen::Index>(t), static_cast<Eigen::Index>(s));
        factor_(v) = scale * coefficient / ctx.batch_divisor(static_cast<std::size_t>(v));
        any = any || coefficient != 0.0;
      }
      if (any) grads.noalias() += factor_.asDiagonal() * history_[s % slots];
    }
  }

 private:
  void add_blocked(std::size_t t, double scale, const TrainContext& ctx, Rng& rng, DenseMatrix& grads) {
    const DenseMatrix& inverse = inverses_.front();
    const auto step = static_cast<Eigen::Index>(t);
    const auto slot = static_cast<Eigen::Index>(t % kBlock);
    const Eigen::Index start = step - slot;
    fill_standard_normal(block_.col(slot).data(), static_cast<std::size_t>(block_.rows()), rng);
    noise_ = pending_.col(step);
    noise_.noalias() += block_.leftCols(slot + 1) * inverse.row(step).segment(start, slot + 1).transpose();
    const Eigen::Index later = inverse.rows() - step - 1;
    if (slot + 1 == static_cast<Eigen::Index>(kBlock) && later > 0) {
      pending_.rightCols(later).noalias() +=
          block_ * inverse.block(step + 1, start, later, static_cast<Eigen::Index>(kBlock)).transpose();
    }
    for (Eigen::Index v = 0; v < grads.rows(); ++v)
      factor_(v) = scale / ctx.batch_divisor(static_cast<std::size_t>(v));
    const Eigen::Map<const DenseMatrix> noise(noise_.data(), grads.rows(), grads.cols());
    grads.noalias() += factor_.asDiagonal() * noise;
  }

  std::vector<DenseMatrix> inverses_;
  std::size_t bandwidth_ = 0;
  bool blocked_ = false;
  std::vector<DenseMatrix> history_;  ///< window path: the last w + 1 draws
  DenseMatrix pending_;               ///< blocked path: (n·p) × T, completed blocks' noise per step
  DenseMatrix block_;                 ///< blocked path: (n·p) × kBlock, the current block's draws
  Vector noise_;
  Vector factor_;
};

/// mf-d-sgd (C from algorithm.correlation, or I) and mafalda (C optimized in prepare()).
class MfDSgd : public Algorithm {
 public:
  explicit MfDSgd(bool mafalda) : mafalda_(mafalda) {}
  std::string_view name() const override { return mafalda_ ? "mafalda" : "mf-d-sgd"; }

  void prepare(TrainContext& ctx) override {
    const AlgorithmParams& p = ctx.params();
    require(p.gossip_steps == 1 && !p.chebyshev,
            "algorithm.gossip_steps = {} / chebyshev = {}: {} gossips once per step (MF paper Algorithm 1)",
            p.gossip_steps, p.chebyshev, name());
    require_fixed_schedule(
        p, fmt::format("{} is accounted (and MAFALDA optimized) for a fixed gossip matrix W; use fixed",
                       name()));
    participation_ = resolve_participation(p);
    if (!participation_.every_step) check_cyclic_batches(ctx, participation_);
    encoders_.clear();
    if (!mafalda_) {
      encoders_.push_back(correlation_from_key(p.correlation, p.rounds));
    } else {
      require(p.correlation.empty(),
              "algorithm.correlation = '{}': mafalda computes its own C (algorithm.correlation_method); use "
              "mf-d-sgd to train with a given C",
              p.correlation);
      const std::size_t separation = mf_separation(participation_, p.rounds);
      switch (p.correlation_method) {
        case CorrelationMethod::mafalda:
          encoders_.push_back(mf::mafalda_correlation(ctx.base(), p.rounds, participation_.k, separation));
          break;
        case CorrelationMethod::dmf:
          encoders_.push_back(
              mf::dmf_factorization(mf::local_gram(ctx.base(), p.rounds, 1),
                                    mf::make_participation(p.rounds, participation_.k, separation))
                  .c);
          break;
        case CorrelationMethod::per_node:
          for (mf::Factorization& node :
               mf::mafalda_per_node_correlation(ctx.base(), p.rounds, participation_.k, separation).nodes)
            encoders_.push_back(std::move(node.c));
          break;
      }
    }
    noise_.reset(encoders_, ctx);
  }

  void round(std::size_t t, DenseMatrix& theta, TrainContext& ctx, Rng& rng) override {
    const AlgorithmParams& p = ctx.params();
    ctx.clipped_mean_gradients(theta, rng, grads_, !participation_.every_step, t);
    if (p.sigma > 0.0) noise_.add(t, p.sigma * p.clip, ctx, rng, grads_);
    ctx.add_penalty(theta, grads_);
    theta -= p.step_size * grads_;
    ctx.gossip(ctx.schedule().at(t), theta);
  }

  PrivacyAccount privacy(const TrainContext& ctx) const override;

 private:
  bool mafalda_;
  McParticipation participation_;
  std::vector<DenseMatrix> encoders_;
  CorrelatedNoise noise_;
  DenseMatrix grads_;
};

/// LDP (MF paper Theorem 7 with C = C_local ⊗ I_n) through mf::mafalda_privacy at noise_std 1,
/// rescaled: μ(σ) = μ₁/σ. Record-level under the resolved participation. PNDP in the notes when
/// the literal engine is affordable (n·T <= mf::kMafaldaEngineLimit).
PrivacyAccount MfDSgd::privacy(const TrainContext& ctx) const {
  const AlgorithmParams& p = ctx.params();
  require(!encoders_.empty(), "{}: privacy() called before prepare()", name());
  mf::MafaldaPrivacyOptions options;
  options.participation = participation_.every_step
                              ? accounting::MfParticipation::every_round()
                              : accounting::MfParticipation::cyclic(participation_.k, participation_.b);
  options.noise_std = 1.0;
  options.delta = p.delta;
  options.assess = training_release(p);
  const std::size_t size = ctx.num_nodes() * p.rounds;
  options.pndp = size <= mf::kMafaldaEngineLimit;
  const mf::MafaldaPrivacy result =
      encoders_.size() == 1 ? mf::mafalda_privacy(ctx.base(), p.rounds, encoders_.front(), options)
                            : mf::mafalda_privacy(ctx.base(), p.rounds, encoders_, options);
  const double mu_one = result.ldp.privacy.mu;

  PrivacyAccount account;
  account.accountant = "mf-ldp";
  account.at_round = [mu_one](std::size_t /*rounds*/) { return single_bound_account("mf-ldp", mu_one); };
  const std::string scheme = participation_.every_step ? std::string("a record may be in every step")
                                                       : fmt::format("({}, {})-cyclic participation",
                                                                     participation_.k, participation_.b);
  account.notes.push_back(
      fmt::format("mf-ldp: record-level LDP of MF-D-SGD (MF paper Theorem 7, {}), {}: μ = {:.9g}/σ{}; ε so "
                  "far before step T is the full run's (an upper bound)",
                  encoders_.size() == 1 ? "C = C_local ⊗ I_n" : "one C_v per node, the worst node", scheme,
                  mu_one, result.ldp.privacy.exact ? "" : " (certified upper bound on the sensitivity)"));
  if (result.pndp_pairs > 0) {
    account.notes.push_back(
        fmt::format("PNDP over {} ordered pairs (not used for calibration): μ mean {:.9g}/σ, max {:.9g}/σ{}",
                    result.pndp_pairs, result.pndp_mu_mean, result.pndp_mu_max,
                    result.pndp_exact ? "" : " (upper bounds)"));
  } else {
    account.notes.push_back(
        fmt::format("PNDP not computed: n·T = {} > {} (literal engine only)", size, mf::kMafaldaEngineLimit));
  }
  if (p.calibrate_on != CalibrateOn::local) {
    account.notes.push_back(fmt::format(
        "privacy.calibrate_on = {}: {} reports and calibrates LDP (an upper bound on every pairwise view)",
        to_string(p.calibrate_on), name()));
  }
  return account;
}

}  // namespace

std::unique_ptr<Algorithm> make_mf_d_sgd() { return std::make_unique<MfDSgd>(false); }
std::unique_ptr<Algorithm> make_mafalda() { return std::make_unique<MfDSgd>(true); }

}  // namespace netdp::learn
