// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Tests of MAFALDA with one C per node (include/netdp/mf/mafalda_per_node.hpp) against the
// dense workload A = (I_T ⊗ W)^p 𝐖_T written out literally, the shared MAFALDA C and D-MF.
#include "netdp/mf/mafalda_per_node.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "mf/mf_test_helpers.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/spec.hpp"

namespace netdp::mf {
namespace {

using gossip::GossipMatrix;
using gossip::Weighting;

/// The dense nT × nT workload (I_T ⊗ W)^p 𝐖_T: block (t, s) = W^{t−s+p} for s ≤ t, time-major.
DenseMatrix literal_workload(const GossipMatrix& gm, Eigen::Index t_count, std::size_t initial_power) {
  const DenseMatrix w(gm.matrix());
  const Eigen::Index n = w.rows();
  DenseMatrix a = DenseMatrix::Zero(n * t_count, n * t_count);
  for (Eigen::Index t = 0; t < t_count; ++t) {
    DenseMatrix power = initial_power == 1 ? w : DenseMatrix::Identity(n, n);
    for (Eigen::Index s = t; s >= 0; --s) {
      a.block(t * n, s * n, n, n) = power;
      power = power * w;
    }
  }
  return a;
}

/// A_v = the T columns s·n + v of the workload (what K^{(T,n)} moves to block v), H_v = A_vᵀA_v.
std::vector<DenseMatrix> literal_per_node(const GossipMatrix& gm, std::size_t rounds,
                                          std::size_t initial_power) {
  const auto t_count = static_cast<Eigen::Index>(rounds);
  const auto n = static_cast<Eigen::Index>(gm.num_nodes());
  const DenseMatrix a = literal_workload(gm, t_count, initial_power);
  std::vector<DenseMatrix> h;
  for (Eigen::Index v = 0; v < n; ++v) {
    DenseMatrix a_v(n * t_count, t_count);
    for (Eigen::Index s = 0; s < t_count; ++s) a_v.col(s) = a.col(s * n + v);
    h.push_back(a_v.transpose() * a_v);
  }
  return h;
}

using testing::relative_error;

/// Row-stochastic, neither symmetric nor reversible (cycle products 0.5^n ≠ 0.2^n).
GossipMatrix drifting_ring(int n) {
  std::vector<Eigen::Triplet<double>> entries;
  for (int u = 0; u < n; ++u) {
    entries.emplace_back(u, u, 0.3);
    entries.emplace_back(u, (u + 1) % n, 0.5);
    entries.emplace_back(u, (u + n - 1) % n, 0.2);
  }
  SparseMatrix w(n, n);
  w.setFromTriplets(entries.begin(), entries.end());
  return GossipMatrix::from_support(w);
}

GossipMatrix from_spec(const std::string& spec, Weighting weighting) {
  return gossip::make_gossip_matrix(graph::from_spec(spec), weighting);
}

struct GramCase {
  std::string name;
  GossipMatrix w;
  std::vector<LocalGramMethod> methods;
};

std::vector<GramCase> gram_cases() {
  using M = LocalGramMethod;
  return {
      {"ring hamilton (symmetric)",
       from_spec("ring:n=6", Weighting::hamilton),
       {M::automatic, M::spectral, M::dense_powers}},
      {"florentine closed-row (reversible)",
       from_spec("florentine", Weighting::closed_row),
       {M::automatic, M::spectral, M::dense_powers}},
      {"er metropolis (symmetric)",
       from_spec("er:n=9,p=0.4,seed=5,connected=1", Weighting::metropolis),
       {M::automatic, M::spectral, M::dense_powers}},
      {"drifting ring (general)", drifting_ring(5), {M::automatic, M::dense_powers}},
  };
}

TEST(LocalGramPerNode, MatchesTheDenseWorkloadAndSumsToLemma10sH) {
  for (const GramCase& c : gram_cases()) {
    for (const std::size_t p : {std::size_t{0}, std::size_t{1}}) {
      const std::size_t rounds = 6;
      const std::vector<DenseMatrix> want = literal_per_node(c.w, rounds, p);
      const DenseMatrix h = local_gram(c.w, rounds, p);
      for (const LocalGramMethod method : c.methods) {
        const std::vector<DenseMatrix> got = local_gram_per_node(c.w, rounds, p, method);
        ASSERT_EQ(got.size(), c.w.num_nodes()) << c.name;
        DenseMatrix sum = DenseMatrix::Zero(h.rows(), h.cols());
        for (std::size_t v = 0; v < got.size(); ++v) {
          EXPECT_LT(relative_error(got[v], want[v]), 1e-10)
              << c.name << " p = " << p << " method " << static_cast<int>(method) << " node " << v;
          sum += got[v];
        }
        EXPECT_LT(relative_error(sum, h), 1e-10) << c.name << " p = " << p;
      }
    }
  }
}

TEST(LocalGramPerNode, SpectralAgreesWithColumnPowersAtLongHorizons) {
  // T = 200: eigenvalue powers underflow; the Hankel sums must still agree with the sparse powers.
  const GossipMatrix w = from_spec("karate", Weighting::hamilton);
  const auto spectral = local_gram_per_node(w, 200, 1, LocalGramMethod::spectral);
  const auto powers = local_gram_per_node(w, 200, 1, LocalGramMethod::dense_powers);
  for (std::size_t v = 0; v < spectral.size(); ++v)
    EXPECT_LT(relative_error(spectral[v], powers[v]), 1e-10) << v;
}

TEST(LocalGramPerNode, ResultsDoNotDependOnTheThreadCount) {
  const GossipMatrix w = from_spec("florentine", Weighting::closed_row);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const auto one = local_gram_per_node(w, 10, 1);
  const auto one_fit = per_node_factorization(one, make_participation(10));
  omp_set_num_threads(std::max(2, threads));
  const auto many = local_gram_per_node(w, 10, 1);
  const auto many_fit = per_node_factorization(many, make_participation(10));
  omp_set_num_threads(threads);
  for (std::size_t v = 0; v < one.size(); ++v) {
    EXPECT_EQ(one[v], many[v]) << v;
    EXPECT_EQ(one_fit.nodes[v].c, many_fit.nodes[v].c) << v;
  }
  EXPECT_EQ(one_fit.loss, many_fit.loss);
}

TEST(LocalGramPerNode, RejectsBadArguments) {
  const GossipMatrix w = from_spec("ring:n=4", Weighting::hamilton);
  EXPECT_THROW(local_gram_per_node(w, 0), std::invalid_argument);
  EXPECT_THROW(local_gram_per_node(w, 4, 2), std::invalid_argument);
  EXPECT_THROW(local_gram_per_node(w, kLocalGramMaxRounds + 1), std::invalid_argument);
  EXPECT_THROW(local_gram_per_node(drifting_ring(4), 4, 1, LocalGramMethod::spectral), std::invalid_argument);
}

/// ‖A C⁻¹‖²_F for the block-diagonal C (node v's noise C_v⁻¹ z_v), from the dense workload.
double literal_objective_trace(const GossipMatrix& w, std::size_t rounds,
                               const std::vector<Factorization>& nodes) {
  const auto t_count = static_cast<Eigen::Index>(rounds);
  const auto n = static_cast<Eigen::Index>(w.num_nodes());
  DenseMatrix c_inv = DenseMatrix::Zero(n * t_count, n * t_count);
  for (Eigen::Index v = 0; v < n; ++v) {
    const DenseMatrix inv = nodes[static_cast<std::size_t>(v)].c.inverse();
    for (Eigen::Index s = 0; s < t_count; ++s) {
      for (Eigen::Index t = 0; t < t_count; ++t) c_inv(s * n + v, t * n + v) = inv(s, t);
    }
  }
  return (literal_workload(w, t_count, 1) * c_inv).squaredNorm();
}

TEST(MafaldaPerNode, LossIsTheLiteralObjective) {
  const GossipMatrix w = from_spec("florentine", Weighting::hamilton);
  const std::size_t rounds = 5;
  const PerNodeFactorization f = mafalda_per_node_correlation(w, rounds);
  double trace_sum = 0.0;
  double loss_sum = 0.0;
  for (const Factorization& node : f.nodes) {
    EXPECT_TRUE(node.c.isLowerTriangular(0.0));
    EXPECT_NEAR(node.sensitivity, 1.0, 1e-12);
    trace_sum += node.trace;
    loss_sum += node.loss;
  }
  const double literal = literal_objective_trace(w, rounds, f.nodes);
  EXPECT_NEAR(trace_sum, literal, 1e-9 * literal);
  EXPECT_NEAR(f.loss, f.sensitivity * f.sensitivity * literal, 1e-9 * literal);
  EXPECT_NEAR(f.loss, loss_sum, 1e-9 * loss_sum);  // unit sensitivity: the loss separates
  EXPECT_LE(f.lower_bound, f.loss * (1.0 + 1e-12));
  EXPECT_GE(f.lower_bound, f.loss * (1.0 - 1e-8));  // the sum of the nodes' dual bounds
}

TEST(MafaldaPerNode, BeatsSharedMafaldaWhichBeatsDmf) {
  for (const std::string spec : {"ring:n=8", "karate", "florentine", "er:n=12,p=0.3,seed=3,connected=1"}) {
    const GossipMatrix w = from_spec(spec, Weighting::hamilton);
    for (const auto& [k, b] : {std::pair<std::size_t, std::size_t>{1, 0}, {2, 4}}) {
      const std::size_t rounds = 8;
      const Participation p = make_participation(rounds, k, b);
      const std::vector<DenseMatrix> hs = local_gram_per_node(w, rounds, 1);
      const DenseMatrix h = local_gram(w, rounds, 1);
      const Factorization shared = optimal_factorization(h, p);
      const Factorization dmf = dmf_factorization(h, p);
      const PerNodeFactorization per_node = per_node_factorization(hs, p);
      EXPECT_LE(shared.loss, dmf.loss * (1.0 + 1e-12)) << spec << " k = " << k;
      // The shared C is a feasible point of the separated problem, with the same objective
      // (Σ_v H_v = H): each node's dual bound lies below the shared C's value on H_v, and each
      // node's loss is within its certificate (relative duality gap) of that bound.
      const std::vector<DenseMatrix> shared_cs(hs.size(), shared.c);
      const PerNodeFactorization as_per_node = evaluate_per_node(hs, shared_cs, p);
      EXPECT_NEAR(as_per_node.loss, shared.loss, 1e-9 * shared.loss) << spec;
      double worst_gap = 0.0;
      for (std::size_t v = 0; v < hs.size(); ++v) {
        const Factorization& node = per_node.nodes[v];
        ASSERT_EQ(node.certificate_kind, CertificateKind::duality_gap) << spec;
        EXPECT_LE(node.certificate, 1e-8) << spec << " node " << v;
        EXPECT_LE(node.lower_bound, as_per_node.nodes[v].loss * (1.0 + 1e-12)) << spec << " node " << v;
        EXPECT_LE(node.loss * (1.0 - node.certificate), as_per_node.nodes[v].loss * (1.0 + 1e-12))
            << spec << " node " << v;
        worst_gap = std::max(worst_gap, node.certificate);
      }
      EXPECT_LE(per_node.lower_bound, shared.loss * (1.0 + 1e-12)) << spec << " k = " << k;
      EXPECT_GT(per_node.global_lower_bound, 0.0) << spec << " k = " << k;
      // A bound over every family (C_1, …, C_n): below the per-node loss and the shared C's.
      EXPECT_LE(per_node.global_lower_bound, per_node.loss * (1.0 + 1e-12)) << spec << " k = " << k;
      EXPECT_LE(per_node.global_lower_bound, shared.loss * (1.0 + 1e-12)) << spec << " k = " << k;
      EXPECT_LE(per_node.loss, shared.loss * (1.0 + worst_gap + 1e-12)) << spec << " k = " << k;
    }
  }
}

TEST(MafaldaPerNode, IrregularGraphsGainFromPerNodeCorrelations) {
  // On a vertex-transitive ring every H_v is the same, so nothing is gained; on the Florentine
  // graph (degrees 1 to 6) the H_v differ and the separated optimum is strictly better.
  const Participation p = make_participation(8);
  const auto gain = [&](const std::string& spec) {
    const GossipMatrix w = from_spec(spec, Weighting::hamilton);
    const double shared = optimal_factorization(local_gram(w, 8, 1), p).loss;
    return shared - per_node_factorization(local_gram_per_node(w, 8, 1), p).loss;
  };
  EXPECT_NEAR(
      gain("ring:n=8"), 0.0,
      1e-8 * optimal_factorization(local_gram(from_spec("ring:n=8", Weighting::hamilton), 8, 1), p).loss);
  EXPECT_GT(gain("florentine"), 1e-6);
}

TEST(MafaldaPerNode, TheScaleOfTheGramsDoesNotMatter) {
  // tr(cH X⁻¹) = c tr(H X⁻¹): the same encoders, the loss and its dual bound scaled by c.
  const GossipMatrix w = from_spec("florentine", Weighting::closed_row);
  const Participation p = make_participation(8, 2, 4);
  const std::vector<DenseMatrix> hs = local_gram_per_node(w, 8, 1);
  std::vector<DenseMatrix> small;
  for (const DenseMatrix& h : hs) small.push_back(1e-3 * h);
  const PerNodeFactorization base = per_node_factorization(hs, p);
  const PerNodeFactorization scaled = per_node_factorization(small, p);
  // Both runs optimize the same normalized H_v up to rounding: equal to the optimizer's gap.
  EXPECT_NEAR(scaled.loss, 1e-3 * base.loss, 1e-8 * 1e-3 * base.loss);
  EXPECT_NEAR(scaled.lower_bound, 1e-3 * base.lower_bound, 1e-8 * 1e-3 * base.loss);
  for (std::size_t v = 0; v < hs.size(); ++v) {
    EXPECT_LE(scaled.nodes[v].certificate, 1e-8) << v;
    EXPECT_LT(relative_error(scaled.nodes[v].c, base.nodes[v].c), 1e-6) << v;
  }
}

TEST(MafaldaPerNode, RejectsMismatchedInputs) {
  const Participation p = make_participation(4);
  const std::vector<DenseMatrix> hs(3, DenseMatrix::Identity(4, 4));
  EXPECT_THROW(per_node_factorization({}, p), std::invalid_argument);
  EXPECT_THROW(per_node_factorization({DenseMatrix::Identity(3, 3)}, p), std::invalid_argument);
  EXPECT_THROW(evaluate_per_node(hs, std::vector<DenseMatrix>(2, DenseMatrix::Identity(4, 4)), p),
               std::invalid_argument);
  EXPECT_THROW(evaluate_per_node(hs, std::vector<DenseMatrix>(3, DenseMatrix::Zero(4, 4)), p),
               std::invalid_argument);
}

/// Well-conditioned lower-triangular encoders, a different one per node.
std::vector<DenseMatrix> random_encoders(std::size_t n, Eigen::Index t_count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<DenseMatrix> cs;
  for (std::size_t v = 0; v < n; ++v) {
    DenseMatrix c = DenseMatrix::Identity(t_count, t_count);
    for (Eigen::Index i = 0; i < t_count; ++i) {
      c(i, i) = 1.0 + 0.5 * uniform(rng);
      for (Eigen::Index j = 0; j < i; ++j) c(i, j) = 0.4 * uniform(rng);
    }
    cs.push_back(c);
  }
  return cs;
}

TEST(MafaldaPerNodePrivacy, LdpClosedFormIsTheWorstNodeAndMatchesTheEngine) {
  const GossipMatrix w = from_spec("ring:n=4", Weighting::closed_row);
  const std::size_t rounds = 4;
  const std::vector<DenseMatrix> cs = random_encoders(w.num_nodes(), 4, 11);
  for (const auto& participation :
       {accounting::MfParticipation::every_round(), accounting::MfParticipation::cyclic(2, 2)}) {
    MafaldaPrivacyOptions options;
    options.participation = participation;
    options.noise_std = 2.0;
    options.pndp = false;
    options.ldp_path = MafaldaPrivacyOptions::LdpPath::engine;
    const MafaldaPrivacy engine = mafalda_privacy(w, rounds, cs, options);
    options.ldp_path = MafaldaPrivacyOptions::LdpPath::closed_form;
    const MafaldaPrivacy closed = mafalda_privacy(w, rounds, cs, options);
    EXPECT_TRUE(closed.ldp_closed_form);
    EXPECT_FALSE(engine.ldp_closed_form);
    const double want = engine.ldp.privacy.sensitivity_squared_certified;
    EXPECT_NEAR(closed.ldp.privacy.sensitivity_squared_certified, want, 1e-9 * want);
    EXPECT_EQ(closed.ldp.privacy.target, engine.ldp.privacy.target);
    // The worst node: each node alone, through the single-C closed form, never exceeds it.
    double worst = 0.0;
    for (const DenseMatrix& c : cs) {
      worst =
          std::max(worst, mafalda_privacy(w, rounds, c, options).ldp.privacy.sensitivity_squared_certified);
    }
    EXPECT_NEAR(closed.ldp.privacy.sensitivity_squared_certified, worst, 1e-12 * worst);
  }
}

TEST(MafaldaPerNodePrivacy, OptimizedEncodersHaveUnitLdpSensitivity) {
  // The optimizer's sens_Π (docs/reference/mf.md) and the accountant's LDP sensitivity agree: every C_v is
  // scaled to sens_Π(C_v) = 1, so the (k, b)-cyclic record-level LDP μ is 1/ν, engine and closed form.
  const GossipMatrix w = from_spec("florentine", Weighting::hamilton);
  const std::size_t rounds = 6;
  for (const auto& [k, b] : {std::pair<std::size_t, std::size_t>{1, 6}, {2, 3}}) {
    std::vector<DenseMatrix> cs;
    for (const Factorization& node : mafalda_per_node_correlation(w, rounds, k, b).nodes)
      cs.push_back(node.c);
    MafaldaPrivacyOptions options;
    options.participation = accounting::MfParticipation::cyclic(k, b);
    options.noise_std = 4.0;
    options.pndp = false;
    for (const auto path :
         {MafaldaPrivacyOptions::LdpPath::engine, MafaldaPrivacyOptions::LdpPath::closed_form}) {
      options.ldp_path = path;
      EXPECT_NEAR(mafalda_privacy(w, rounds, cs, options).ldp.privacy.mu, 1.0 / options.noise_std, 1e-9)
          << "k = " << k;
    }
  }
}

TEST(MafaldaPerNodePrivacy, EqualEncodersGiveTheSharedResult) {
  const GossipMatrix w = from_spec("ring:n=4", Weighting::hamilton);
  const std::size_t rounds = 3;
  const DenseMatrix c = random_encoders(1, 3, 5).front();
  MafaldaPrivacyOptions options;
  options.ldp_path = MafaldaPrivacyOptions::LdpPath::engine;
  const MafaldaPrivacy shared = mafalda_privacy(w, rounds, c, options);
  const MafaldaPrivacy per_node = mafalda_privacy(w, rounds, std::vector<DenseMatrix>(4, c), options);
  EXPECT_NEAR(per_node.ldp.privacy.mu, shared.ldp.privacy.mu, 1e-9 * shared.ldp.privacy.mu);
  EXPECT_EQ(per_node.pndp_pairs, shared.pndp_pairs);
  EXPECT_NEAR(per_node.pndp_mu_mean, shared.pndp_mu_mean, 1e-9 * shared.pndp_mu_mean);
  EXPECT_NEAR(per_node.pndp_mu_max, shared.pndp_mu_max, 1e-9 * shared.pndp_mu_max);
}

TEST(MafaldaPerNodePrivacy, RejectsMismatchedEncoders) {
  const GossipMatrix w = from_spec("ring:n=4", Weighting::hamilton);
  const DenseMatrix c = DenseMatrix::Identity(3, 3);
  EXPECT_THROW(mafalda_privacy(w, 3, std::vector<DenseMatrix>(3, c)), std::invalid_argument);
  EXPECT_THROW(mafalda_privacy(w, 4, std::vector<DenseMatrix>(4, c)), std::invalid_argument);
  std::vector<DenseMatrix> mixed(4, c);
  mixed[2] = DenseMatrix::Identity(4, 3);
  EXPECT_THROW(mafalda_privacy(w, 3, mixed), std::invalid_argument);
  std::vector<DenseMatrix> singular(4, c);
  singular[1](2, 2) = 0.0;
  MafaldaPrivacyOptions options;
  options.ldp_path = MafaldaPrivacyOptions::LdpPath::closed_form;
  options.pndp = false;
  EXPECT_THROW(mafalda_privacy(w, 3, singular, options), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::mf
