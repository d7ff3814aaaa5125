// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// MF views vs literal dense constructions written here exactly as the MF paper
// writes them (Appendix A), through K = Cᵀ B⁺ B C restricted to the target's
// columns (Theorem 7 / eq. 8), with pseudo-inverses by SVD.

#include "netdp/accounting/mf/mf_views.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector>

#include "accounting/linear_system_test_helpers.hpp"
#include "netdp/accounting/mf/mf_accountant.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/util/memory.hpp"

namespace netdp::accounting {
namespace {

using graph::NodeId;
using Index = Eigen::Index;

using testing::brute_force_sign_max;
using testing::pinv;

DenseMatrix kron(const DenseMatrix& a, const DenseMatrix& b) {
  DenseMatrix out(a.rows() * b.rows(), a.cols() * b.cols());
  for (Index i = 0; i < a.rows(); ++i) {
    for (Index j = 0; j < a.cols(); ++j)
      out.block(i * b.rows(), j * b.cols(), b.rows(), b.cols()) = a(i, j) * b;
  }
  return out;
}

DenseMatrix power(const DenseMatrix& w, Index k) {
  DenseMatrix p = DenseMatrix::Identity(w.rows(), w.cols());
  for (Index i = 0; i < k; ++i) p = p * w;
  return p;
}

/// 𝐖_T of eq. (5): block lower-triangular Toeplitz, block (t, s) = W^{t−s}.
DenseMatrix workload(const DenseMatrix& w, Index t_steps) {
  const Index n = w.rows();
  DenseMatrix out = DenseMatrix::Zero(n * t_steps, n * t_steps);
  for (Index t = 0; t < t_steps; ++t) {
    for (Index s = 0; s <= t; ++s) out.block(t * n, s * n, n, n) = power(w, t - s);
  }
  return out;
}

/// K^S_PNDP = I_T ⊗ K_𝒜 (eq. 19): selects the messages of the attackers' neighbours.
DenseMatrix neighbour_selector(const graph::Graph& g, const std::vector<NodeId>& attackers, Index t_steps) {
  std::vector<NodeId> nb;
  for (NodeId a : attackers) {
    for (NodeId v : g.neighbors(a)) {
      if (std::find(attackers.begin(), attackers.end(), v) == attackers.end()) nb.push_back(v);
    }
  }
  std::sort(nb.begin(), nb.end());
  nb.erase(std::unique(nb.begin(), nb.end()), nb.end());
  const auto n = static_cast<Index>(g.num_nodes());
  DenseMatrix k = DenseMatrix::Zero(static_cast<Index>(nb.size()), n);
  for (std::size_t i = 0; i < nb.size(); ++i) k(static_cast<Index>(i), nb[i]) = 1.0;
  return kron(DenseMatrix::Identity(t_steps, t_steps), k);
}

/// [0_aT 0; 0 I_(n−a)T] of A.2 in time-major order: the identity without the attackers' columns.
DenseMatrix others(Index n, Index t_steps, const std::vector<NodeId>& attackers) {
  DenseMatrix p = DenseMatrix::Identity(n * t_steps, n * t_steps);
  for (Index t = 0; t < t_steps; ++t) {
    for (NodeId a : attackers) p(t * n + a, t * n + a) = 0.0;
  }
  return p;
}

/// Rows selecting the noise coordinates of the given columns (the [0 I_aT 0] block of B).
DenseMatrix selector_rows(Index cols, const std::vector<Index>& picked) {
  DenseMatrix s = DenseMatrix::Zero(static_cast<Index>(picked.size()), cols);
  for (std::size_t i = 0; i < picked.size(); ++i) s(static_cast<Index>(i), picked[i]) = 1.0;
  return s;
}

DenseMatrix stack(const DenseMatrix& top, const DenseMatrix& bottom) {
  DenseMatrix out(top.rows() + bottom.rows(), top.cols());
  out << top, bottom;
  return out;
}

/// Theorem 7 / eq. (8): the target's T×T block of Cᵀ B⁺ B C (with A = B C, = A_uᵀ(BBᵀ)⁺A_u).
DenseMatrix paper_k(const DenseMatrix& a, const DenseMatrix& b, Index n, Index t_steps, NodeId u) {
  const DenseMatrix c = pinv(b) * a;  // any C with A = B C gives the same Cᵀ B⁺ B C
  const DenseMatrix full = c.transpose() * pinv(b) * b * c;
  DenseMatrix k(t_steps, t_steps);
  for (Index s = 0; s < t_steps; ++s) {
    for (Index t = 0; t < t_steps; ++t) k(s, t) = full(s * n + u, t * n + u);
  }
  return k;
}

graph::Graph small_graph() {
  // Irregular 6-node graph (degrees 3,3,2,3,3,2): closed-row W is not symmetric.
  return graph::Graph::from_edges(6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}, {0, 3}, {1, 4}});
}

gossip::GossipMatrix closed_row(const graph::Graph& g) {
  return gossip::make_gossip_matrix(g, gossip::Weighting::closed_row);
}

void expect_close(const DenseMatrix& got, const DenseMatrix& want, const char* what) {
  ASSERT_EQ(got.rows(), want.rows()) << what;
  ASSERT_EQ(got.cols(), want.cols()) << what;
  EXPECT_LE((got - want).norm(), 1e-9 * std::max(1.0, want.norm())) << what << "\n got\n"
                                                                    << got << "\n want\n"
                                                                    << want;
}

std::vector<Index> noise_columns_of(Index n, Index t_steps, const std::vector<NodeId>& nodes) {
  std::vector<Index> cols;
  for (Index t = 0; t < t_steps; ++t) {
    for (NodeId a : nodes) cols.push_back(t * n + a);
  }
  return cols;
}

bool is_in(const std::vector<NodeId>& set, NodeId v) {
  return std::find(set.begin(), set.end(), v) != set.end();
}

/// Compares the builder (literal engine path) and, when given, the structured path with the reference.
void compare_all_targets(const gossip::GossipMatrix& w, Index t_steps, const MfAlgorithmSpec& spec,
                         const MfAdversary& adversary, const DenseMatrix& a_ref, const DenseMatrix& b_ref,
                         bool structured) {
  const auto n = static_cast<Index>(w.num_nodes());
  const MfView view = build_mf_view(w, static_cast<std::size_t>(t_steps), spec, adversary);
  StructuredGrams grams;
  if (structured)
    grams =
        mf_pndp_target_grams(w, static_cast<std::size_t>(t_steps), spec.gossip_steps, adversary.attackers);
  for (NodeId u = 0; u < static_cast<NodeId>(n); ++u) {
    if (is_in(adversary.attackers, u)) continue;
    const DenseMatrix want = paper_k(a_ref, b_ref, n, t_steps, u);
    expect_close(target_gram_literal(view.view, u).K, want, "literal view");
    if (structured) expect_close(grams.K[u], want, "structured path");
  }
}

TEST(MfViews, LdpDpDsgdIsLocalDpAsInAppendixA2) {
  const auto w = closed_row(small_graph());
  const Index t_steps = 4;
  const DenseMatrix wt = workload(DenseMatrix(w.matrix()), t_steps);
  compare_all_targets(w, t_steps, {}, {MfTrust::ldp, {}}, wt, wt, false);
  // A = B = 𝐖_T is invertible: the attacker reads every input plus its noise, K_u = I.
  const MfView view = build_mf_view(w, 4, {}, {MfTrust::ldp, {}});
  expect_close(target_gram_literal(view.view, 2).K, DenseMatrix::Identity(4, 4), "closed form K_u = I");
}

TEST(MfViews, PndpDpDsgdMatchesAppendixA2) {
  const graph::Graph g = small_graph();
  const auto w = closed_row(g);
  const Index n = 6;
  const Index t_steps = 4;
  const DenseMatrix wt = workload(DenseMatrix(w.matrix()), t_steps);
  for (const std::vector<NodeId>& attackers :
       {std::vector<NodeId>{0}, std::vector<NodeId>{2}, std::vector<NodeId>{0, 2}}) {
    const DenseMatrix k = neighbour_selector(g, attackers, t_steps);
    const DenseMatrix known = selector_rows(n * t_steps, noise_columns_of(n, t_steps, attackers));
    const DenseMatrix a_ref =
        stack(k * wt, DenseMatrix::Zero(known.rows(), n * t_steps)) * others(n, t_steps, attackers);
    const DenseMatrix b_ref = stack(k * wt, known);
    compare_all_targets(w, t_steps, {}, {MfTrust::pndp, attackers}, a_ref, b_ref, true);
  }
}

TEST(MfViews, PndpSumAbsIsEquationEight) {
  const graph::Graph g = small_graph();
  const auto w = closed_row(g);
  const Index n = 6;
  const Index t_steps = 4;
  const DenseMatrix wt = workload(DenseMatrix(w.matrix()), t_steps);
  const std::vector<NodeId> attackers{1};
  const DenseMatrix k = neighbour_selector(g, attackers, t_steps);
  const DenseMatrix known = selector_rows(n * t_steps, noise_columns_of(n, t_steps, attackers));
  const DenseMatrix a_ref =
      stack(k * wt, DenseMatrix::Zero(known.rows(), n * t_steps)) * others(n, t_steps, attackers);
  const DenseMatrix b_ref = stack(k * wt, known);
  MfOptions options;
  options.noise_std = 2.0;
  const MfAccounting result = account_mf(w, 4, {}, {MfTrust::pndp, attackers}, {}, options);
  ASSERT_TRUE(result.structured);
  ASSERT_EQ(result.pairs.size(), 5u);
  for (const MfPairResult& pair : result.pairs) {
    const DenseMatrix kk = paper_k(a_ref, b_ref, n, t_steps, pair.privacy.target);
    EXPECT_NEAR(pair.privacy.sensitivity_squared_sum_abs, kk.cwiseAbs().sum(), 1e-9 * kk.cwiseAbs().sum());
    EXPECT_NEAR(pair.privacy.sensitivity_squared_ones, kk.sum(), 1e-9 * std::max(1.0, kk.cwiseAbs().sum()));
    EXPECT_GE(pair.privacy.sensitivity_squared_certified, pair.privacy.sensitivity_squared_ones - 1e-12);
    EXPECT_NEAR(pair.privacy.mu, pair.privacy.sensitivity / 2.0, 1e-15);
  }
}

TEST(MfViews, MuffliatoSgdMatchesAppendixA4) {
  const graph::Graph g = small_graph();
  const auto w = closed_row(g);
  const Index n = 6;
  const Index t_steps = 3;
  for (Index k_steps : {1, 2, 3}) {
    // A_Muffliato = 𝐖_{KT} (I_T ⊗ [I_n; 0_{(K−1)n×n}]).
    DenseMatrix inject = DenseMatrix::Zero(k_steps * n, n);
    inject.topRows(n).setIdentity();
    const DenseMatrix a_muff = workload(DenseMatrix(w.matrix()), k_steps * t_steps) *
                               kron(DenseMatrix::Identity(t_steps, t_steps), inject);
    const std::vector<NodeId> attackers{3};
    const DenseMatrix k = neighbour_selector(g, attackers, k_steps * t_steps);
    const DenseMatrix known = selector_rows(n * t_steps, noise_columns_of(n, t_steps, attackers));
    const DenseMatrix a_ref =
        stack(k * a_muff, DenseMatrix::Zero(known.rows(), n * t_steps)) * others(n, t_steps, attackers);
    const DenseMatrix b_ref = stack(k * a_muff, known);
    MfAlgorithmSpec spec;
    spec.algorithm = MfAlgorithm::muffliato_sgd;
    spec.gossip_steps = static_cast<std::size_t>(k_steps);
    compare_all_targets(w, t_steps, spec, {MfTrust::pndp, attackers}, a_ref, b_ref, true);
    compare_all_targets(w, t_steps, spec, {MfTrust::ldp, {}}, a_muff, a_muff, false);
  }
}

TEST(MfViews, AntiPgdMatchesAppendixA3) {
  const graph::Graph g = small_graph();
  const auto w = closed_row(g);
  const Index n = 6;
  const Index t_steps = 4;
  const DenseMatrix wt = workload(DenseMatrix(w.matrix()), t_steps);
  DenseMatrix d_t = DenseMatrix::Identity(t_steps, t_steps);
  for (Index t = 1; t < t_steps; ++t) d_t(t, t - 1) = -1.0;
  const DenseMatrix d = kron(d_t, DenseMatrix::Identity(n, n));
  MfAlgorithmSpec spec;
  spec.algorithm = MfAlgorithm::antipgd;
  compare_all_targets(w, t_steps, spec, {MfTrust::ldp, {}}, wt, wt * d, false);
  const std::vector<NodeId> attackers{4};
  const DenseMatrix k = neighbour_selector(g, attackers, t_steps);
  const DenseMatrix known = selector_rows(n * t_steps, noise_columns_of(n, t_steps, attackers));
  const DenseMatrix a_ref =
      stack(k * wt, DenseMatrix::Zero(known.rows(), n * t_steps)) * others(n, t_steps, attackers);
  compare_all_targets(w, t_steps, spec, {MfTrust::pndp, attackers}, a_ref, stack(k * wt * d, known), false);
}

TEST(MfViews, DecorMatchesAppendixA5) {
  const graph::Graph g = small_graph();
  const auto w = closed_row(g);
  const Index n = 6;
  const Index t_steps = 3;
  const DenseMatrix wt = workload(DenseMatrix(w.matrix()), t_steps);
  const auto edges = g.edges();
  const auto ne = static_cast<Index>(edges.size());
  DenseMatrix incidence = DenseMatrix::Zero(n, ne);  // C_nodes†: +1 at the tail, −1 at the head
  for (Index e = 0; e < ne; ++e) {
    incidence(edges[static_cast<std::size_t>(e)].u, e) = 1.0;
    incidence(edges[static_cast<std::size_t>(e)].v, e) = -1.0;
  }
  DenseMatrix noise_map(n * t_steps, n * t_steps + ne * t_steps);  // [I_nT  I_T ⊗ C_nodes†]
  noise_map << DenseMatrix::Identity(n * t_steps, n * t_steps),
      kron(DenseMatrix::Identity(t_steps, t_steps), incidence);
  MfAlgorithmSpec spec;
  spec.algorithm = MfAlgorithm::decor;
  compare_all_targets(w, t_steps, spec, {MfTrust::ldp, {}}, wt, wt * noise_map, false);

  const std::vector<NodeId> attackers{0};
  std::vector<Index> known_cols = noise_columns_of(n, t_steps, attackers);  // own local noise
  for (Index t = 0; t < t_steps; ++t) {
    for (Index e = 0; e < ne; ++e) {  // secrets of the attacker's edges
      const auto& edge = edges[static_cast<std::size_t>(e)];
      if (edge.u == 0 || edge.v == 0) known_cols.push_back(n * t_steps + t * ne + e);
    }
  }
  const DenseMatrix known = selector_rows(noise_map.cols(), known_cols);
  const DenseMatrix zero = DenseMatrix::Zero(known.rows(), n * t_steps);
  const DenseMatrix k = neighbour_selector(g, attackers, t_steps);
  compare_all_targets(w, t_steps, spec, {MfTrust::pndp, attackers},
                      stack(k * wt, zero) * others(n, t_steps, attackers), stack(k * wt * noise_map, known),
                      false);
  compare_all_targets(w, t_steps, spec, {MfTrust::secldp, attackers},
                      stack(wt, zero) * others(n, t_steps, attackers), stack(wt * noise_map, known), false);
  // SecLDP with nobody's secrets: the eavesdropper of every message cannot cancel the secrets.
  compare_all_targets(w, t_steps, spec, {MfTrust::secldp, {}}, wt, wt * noise_map, false);
}

TEST(MfViews, MfDsgdWithLocalAndGlobalCorrelation) {
  const graph::Graph g = small_graph();
  const auto w = closed_row(g);
  const Index n = 6;
  const Index t_steps = 4;
  const DenseMatrix wt = workload(DenseMatrix(w.matrix()), t_steps);
  DenseMatrix c_local(t_steps, t_steps);
  c_local << 1.0, 0, 0, 0, 0.5, 1.2, 0, 0, -0.3, 0.4, 0.9, 0, 0.2, -0.1, 0.6, 1.1;
  const DenseMatrix c = kron(c_local, DenseMatrix::Identity(n, n));
  const DenseMatrix c_dagger = pinv(c);
  for (const DenseMatrix& given : {c_local, c}) {
    MfAlgorithmSpec spec;
    spec.algorithm = MfAlgorithm::mf_d_sgd;
    spec.correlation = given;
    compare_all_targets(w, t_steps, spec, {MfTrust::ldp, {}}, wt, wt * c_dagger, false);
    const std::vector<NodeId> attackers{5};
    const DenseMatrix k = neighbour_selector(g, attackers, t_steps);
    const DenseMatrix known = selector_rows(n * t_steps, noise_columns_of(n, t_steps, attackers));
    const DenseMatrix a_ref =
        stack(k * wt, DenseMatrix::Zero(known.rows(), n * t_steps)) * others(n, t_steps, attackers);
    compare_all_targets(w, t_steps, spec, {MfTrust::pndp, attackers}, a_ref, stack(k * wt * c_dagger, known),
                        false);
    const MfView view = build_mf_view(w, 4, spec, {MfTrust::pndp, attackers});
    const Theorem7Check check = check_theorem7(view);
    EXPECT_TRUE(check.column_echelon);
    EXPECT_TRUE(check.factorization_holds);
    EXPECT_LE(check.factorization_residual, 1e-9);
  }
  // C = I is DP-D-SGD.
  MfAlgorithmSpec identity;
  identity.algorithm = MfAlgorithm::mf_d_sgd;
  identity.correlation = DenseMatrix::Identity(t_steps, t_steps);
  const MfView a = build_mf_view(w, 4, identity, {MfTrust::pndp, {1}});
  const MfView b = build_mf_view(w, 4, {}, {MfTrust::pndp, {1}});
  expect_close(target_gram_literal(a.view, 3).K, target_gram_literal(b.view, 3).K, "C = I vs DP-D-SGD");
}

/// Zip-DL simulated round by round (no matrices of the builder): node i sends x_t^i + ξ^{i→j},
/// ξ^{i→·} = (I − 11ᵀ/s_i) z^{i,·}; θ_{t+1}^j = W_jj x_t^j + Σ_i W_ji (x_t^i + ξ^{i→j}); x = θ + g.
/// Returns the messages received by `attacker` for inputs g (T×n) and noise z (T × arcs).
Vector simulate_zip_dl(const graph::Graph& g, const DenseMatrix& w, const DenseMatrix& inputs,
                       const DenseMatrix& noise, NodeId attacker) {
  const auto n = static_cast<Index>(g.num_nodes());
  std::vector<Index> offset(g.num_nodes() + 1, 0);
  for (NodeId i = 0; i < g.num_nodes(); ++i) offset[i + 1] = offset[i] + static_cast<Index>(g.degree(i));
  std::vector<double> observed;
  Vector x = inputs.row(0).transpose();
  for (Index t = 0; t < inputs.rows(); ++t) {
    Vector theta = Vector::Zero(n);
    for (NodeId j = 0; j < g.num_nodes(); ++j) theta(j) += w(j, j) * x(j);
    for (NodeId i = 0; i < g.num_nodes(); ++i) {
      const auto nb = g.neighbors(i);
      const auto s = static_cast<double>(nb.size());
      const double mean = noise.row(t).segment(offset[i], static_cast<Index>(nb.size())).sum() / s;
      for (std::size_t k = 0; k < nb.size(); ++k) {
        const double message = x(i) + noise(t, offset[i] + static_cast<Index>(k)) - mean;
        theta(nb[k]) += w(nb[k], i) * message;
        if (nb[k] == attacker) observed.push_back(message);
      }
    }
    if (t + 1 < inputs.rows()) x = theta + inputs.row(t + 1).transpose();
  }
  return Eigen::Map<Vector>(observed.data(), static_cast<Index>(observed.size()));
}

TEST(MfViews, ZipDlMatchesARoundByRoundSimulation) {
  const graph::Graph g = small_graph();
  const auto w = closed_row(g);
  const DenseMatrix wd(w.matrix());
  const Index n = 6;
  const Index t_steps = 3;
  const Index arcs = static_cast<Index>(2 * g.num_edges());
  const NodeId attacker = 1;
  // Columns of A and B by simulating unit inputs / unit noises.
  const Index rows =
      simulate_zip_dl(g, wd, DenseMatrix::Zero(t_steps, n), DenseMatrix::Zero(t_steps, arcs), attacker)
          .size();
  DenseMatrix a(rows, n * t_steps);
  DenseMatrix b(rows, arcs * t_steps);
  for (Index c = 0; c < n * t_steps; ++c) {
    DenseMatrix inputs = DenseMatrix::Zero(t_steps, n);
    inputs(c / n, c % n) = 1.0;
    a.col(c) = simulate_zip_dl(g, wd, inputs, DenseMatrix::Zero(t_steps, arcs), attacker);
  }
  for (Index c = 0; c < arcs * t_steps; ++c) {
    DenseMatrix noise = DenseMatrix::Zero(t_steps, arcs);
    noise(c / arcs, c % arcs) = 1.0;
    b.col(c) = simulate_zip_dl(g, wd, DenseMatrix::Zero(t_steps, n), noise, attacker);
  }
  // Known: the attacker's own inputs (Lemma 11) and the noises it drew (its arcs).
  std::vector<Index> own;
  Index first_arc = 0;
  for (NodeId i = 0; i < attacker; ++i) first_arc += static_cast<Index>(g.degree(i));
  for (Index t = 0; t < t_steps; ++t) {
    for (Index k = 0; k < static_cast<Index>(g.degree(attacker)); ++k)
      own.push_back(t * arcs + first_arc + k);
  }
  const DenseMatrix known = selector_rows(arcs * t_steps, own);
  const DenseMatrix a_ref =
      stack(a, DenseMatrix::Zero(known.rows(), n * t_steps)) * others(n, t_steps, {attacker});
  MfAlgorithmSpec spec;
  spec.algorithm = MfAlgorithm::zip_dl;
  compare_all_targets(w, t_steps, spec, {MfTrust::pndp, {attacker}}, a_ref, stack(b, known), false);
  const Theorem7Check pndp = check_theorem7(build_mf_view(w, 3, spec, {MfTrust::pndp, {attacker}}));
  EXPECT_TRUE(pndp.column_echelon);
  EXPECT_TRUE(pndp.factorization_holds) << pndp.range_residual;
  // Under LDP the zero-sum noise cancels in the sum of a node's messages: x is read exactly.
  const Theorem7Check ldp = check_theorem7(build_mf_view(w, 3, spec, {MfTrust::ldp, {}}));
  EXPECT_FALSE(ldp.factorization_holds);
  EXPECT_GT(ldp.range_residual, 1e-3);
  EXPECT_EQ(diagnostic_count(ldp.warnings, DiagnosticKind::not_in_noise_range), 1u);
}

TEST(MfViews, StructuredClosedForms) {
  // T = 1: the attacker reads x_w + z_w of each neighbour once: K_u = 1 for neighbours, 0 otherwise.
  const graph::Graph g = small_graph();
  const auto w = closed_row(g);
  const StructuredGrams one = mf_pndp_target_grams(w, 1, 1, std::vector<NodeId>{0});
  for (NodeId u = 1; u < 6; ++u) {
    EXPECT_NEAR(one.K[u](0, 0), g.has_edge(0, u) ? 1.0 : 0.0, 1e-12) << u;
  }
  // Two nodes: the attacker subtracts its own message from what it receives: K = I_T.
  const auto pair = closed_row(graph::path(2));
  const StructuredGrams two = mf_pndp_target_grams(pair, 5, 1, std::vector<NodeId>{0});
  expect_close(two.K[1], DenseMatrix::Identity(5, 5), "two nodes");
  EXPECT_EQ(two.K[0].size(), 0);
}

TEST(MfViews, StructuredRankDeficientGramFallsBackToEigendecomposition) {
  // Complete graph K_4, K = 2: a neighbour's round-1 message is a combination of the round-0
  // messages the attacker already reads (after removing its own input), so the Gram is singular.
  const auto w = closed_row(graph::complete(4));
  MfAlgorithmSpec spec;
  spec.algorithm = MfAlgorithm::muffliato_sgd;
  spec.gossip_steps = 2;
  const std::vector<NodeId> attackers{0};
  const StructuredGrams grams = mf_pndp_target_grams(w, 3, 2, attackers);
  // The row space is resolved (its zero directions are structural, no rank cut to certify).
  EXPECT_LT(grams.subspace_margin, 1.0);
  EXPECT_TRUE(grams.warnings.empty());
  const MfView view = build_mf_view(w, 3, spec, {MfTrust::pndp, attackers});
  for (NodeId u = 1; u < 4; ++u)
    expect_close(grams.K[u], target_gram_literal(view.view, u).K, "rank-deficient Gram");
}

/// K_u = A_uᵀ (B Bᵀ)⁺ A_u of a literal view in long double (SVD of B), and the gap of B's
/// spectrum around the rank it decides: the smallest kept and the largest dropped singular
/// value, relative to the largest.
struct LongDoubleK {
  DenseMatrix k;
  long double smallest_kept = 0;
  long double largest_dropped = 0;
};
LongDoubleK long_double_k(const LinearView& view, NodeId u, long double relative_cut = 1e-12L) {
  using LongMatrix = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;
  const LongMatrix b = view.B.cast<long double>();
  const auto t_steps = static_cast<Index>(view.rounds);
  const auto n = static_cast<Index>(view.num_nodes);
  LongMatrix a_u(view.A.rows(), t_steps);
  for (Index s = 0; s < t_steps; ++s) a_u.col(s) = view.A.col(s * n + u).cast<long double>();
  const Eigen::JacobiSVD<LongMatrix> svd(b, Eigen::ComputeThinU);
  const auto& sv = svd.singularValues();
  Index rank = 0;
  while (rank < sv.size() && sv(rank) > relative_cut * sv(0)) ++rank;
  const LongMatrix x =
      sv.head(rank).cwiseInverse().asDiagonal() * (svd.matrixU().leftCols(rank).transpose() * a_u);
  LongDoubleK out;
  out.k = (x.transpose() * x).cast<double>();
  out.smallest_kept = rank > 0 ? sv(rank - 1) / sv(0) : 0;
  out.largest_dropped = rank < sv.size() ? sv(rank) / sv(0) : 0;
  return out;
}

TEST(MfViews, DependentObservationsAgreeWithALongDoubleOracleAndAreNeverUnderReported) {
  // Muffliato-SGD(K > 1) makes the attacker's observations linearly dependent (later messages
  // are combinations of earlier ones), so both paths decide a rank: on random graphs they must
  // match K_u from a long-double SVD of B, and the reported bound must not be below its sign max.
  std::size_t cases = 0;
  std::size_t dependent = 0;
  for (std::uint64_t seed = 1; seed <= 24; ++seed) {
    const std::size_t n = 6 + seed % 7;
    const graph::Graph g = graph::erdos_renyi(n, 0.4, seed, {.connected = true});
    const auto weighting = seed % 2 == 0 ? gossip::Weighting::hamilton : gossip::Weighting::closed_row;
    const auto w = gossip::make_gossip_matrix(g, weighting);
    MfAlgorithmSpec spec;
    spec.algorithm = MfAlgorithm::muffliato_sgd;
    spec.gossip_steps = 2 + seed % 3;
    const auto t_steps = static_cast<std::size_t>(2 + seed % 3);
    const std::vector<NodeId> attackers{static_cast<NodeId>(seed % n)};
    const MfView view = build_mf_view(w, t_steps, spec, {MfTrust::pndp, attackers});
    const StructuredGrams grams = mf_pndp_target_grams(w, t_steps, spec.gossip_steps, attackers);
    MfOptions options;
    options.noise_std = 1.0;
    options.path = MfOptions::Path::structured;
    const MfAccounting structured = account_mf(w, t_steps, spec, {MfTrust::pndp, attackers}, {}, options);
    options.path = MfOptions::Path::literal;
    const MfAccounting literal = account_mf(w, t_steps, spec, {MfTrust::pndp, attackers}, {}, options);
    ASSERT_EQ(structured.pairs.size(), literal.pairs.size());
    dependent +=
        view.view.B.rows() > static_cast<Index>(Eigen::JacobiSVD<DenseMatrix>(view.view.B).rank()) ? 1 : 0;
    for (const MfPairResult& pair : structured.pairs) {
      const NodeId u = pair.privacy.target;
      const LongDoubleK oracle = long_double_k(view.view, u);
      // The oracle's own rank decision needs a clear gap (true zeros are ~1e-16, genuine ones ~1e-3).
      ASSERT_GT(oracle.smallest_kept, 1e-8L) << "seed " << seed;
      ASSERT_LT(oracle.largest_dropped, 1e-14L) << "seed " << seed;
      expect_close(grams.K[u], oracle.k, "structured path");
      expect_close(target_gram_literal(view.view, u).K, oracle.k, "literal path");
      const double exact = brute_force_sign_max(oracle.k);
      EXPECT_GE(pair.privacy.sensitivity_squared_certified, exact - 1e-12) << "seed " << seed << " u " << u;
      ++cases;
    }
    for (const MfPairResult& pair : literal.pairs) {
      const double exact = brute_force_sign_max(long_double_k(view.view, pair.privacy.target).k);
      EXPECT_GE(pair.privacy.sensitivity_squared_certified, exact - 1e-12) << "seed " << seed;
    }
  }
  EXPECT_GT(cases, 100u);
  EXPECT_GT(dependent, 12u);  // most views are rank deficient: the rank decisions are exercised
}

TEST(MfViews, SingularValuesBelowTheGramsResolutionAreKept) {
  // Two G(n, p) draws (networkx seeds 22 and 3) where Muffliato-SGD with many gossip steps gives
  // the attacker directions with singular values 6e-9 and 6e-7 of the largest: their squares are
  // below 1e-12 of the Gram's largest eigenvalue, where a Gram-only rank decision drops them.
  struct Case {
    std::size_t n;
    std::vector<graph::Edge> edges;
    NodeId attacker;
    std::size_t gossip_steps;
    std::size_t t_steps;
    bool gram_cut_loses;  ///< a cut at the Gram's resolution would under-report some pair
  };
  const std::vector<Case> cases{{13,
                                 {{0, 2},
                                  {0, 3},
                                  {0, 5},
                                  {0, 6},
                                  {0, 10},
                                  {1, 7},
                                  {1, 11},
                                  {2, 10},
                                  {3, 7},
                                  {3, 10},
                                  {3, 11},
                                  {4, 5},
                                  {6, 8},
                                  {7, 12},
                                  {8, 10},
                                  {9, 12},
                                  {10, 11}},
                                 4,
                                 12,
                                 2,
                                 true},
                                {14,
                                 {{0, 1}, {0, 6},  {0, 7},  {0, 9},  {0, 10},  {1, 4},   {1, 10}, {2, 3},
                                  {3, 5}, {3, 6},  {3, 7},  {5, 6},  {5, 12},  {6, 8},   {6, 9},  {6, 12},
                                  {7, 9}, {7, 10}, {7, 13}, {8, 10}, {10, 11}, {10, 13}, {11, 12}},
                                 1,
                                 7,
                                 4,
                                 false}};
  for (const Case& c : cases) {
    const auto w =
        gossip::make_gossip_matrix(graph::Graph::from_edges(c.n, c.edges), gossip::Weighting::hamilton);
    MfAlgorithmSpec spec;
    spec.algorithm = MfAlgorithm::muffliato_sgd;
    spec.gossip_steps = c.gossip_steps;
    const std::vector<NodeId> attackers{c.attacker};
    const MfView view = build_mf_view(w, c.t_steps, spec, {MfTrust::pndp, attackers});
    const StructuredGrams grams = mf_pndp_target_grams(w, c.t_steps, c.gossip_steps, attackers);
    MfOptions options;
    options.path = MfOptions::Path::structured;
    const MfAccounting structured = account_mf(w, c.t_steps, spec, {MfTrust::pndp, attackers}, {}, options);
    options.path = MfOptions::Path::literal;
    const MfAccounting literal = account_mf(w, c.t_steps, spec, {MfTrust::pndp, attackers}, {}, options);
    long double smallest = 1;
    double worst_gap = 0.0;
    double lost_by_gram_cut = 0.0;
    for (std::size_t i = 0; i < structured.pairs.size(); ++i) {
      const NodeId u = structured.pairs[i].privacy.target;
      const LongDoubleK oracle = long_double_k(view.view, u);
      smallest = std::min(smallest, oracle.smallest_kept);
      ASSERT_LT(oracle.largest_dropped, 1e-14L);
      const double exact = brute_force_sign_max(oracle.k);
      // Singular values below 1e-6 σ_max dropped: eigenvalues of B Bᵀ below 1e-12 λ_max.
      lost_by_gram_cut =
          std::max(lost_by_gram_cut, exact - brute_force_sign_max(long_double_k(view.view, u, 1e-6L).k));
      // The oracle itself is accurate to about κ(B)·1e-19 (long double): 1e-9 relative.
      EXPECT_GE(structured.pairs[i].privacy.sensitivity_squared_certified, exact * (1 - 1e-9)) << "u " << u;
      EXPECT_GE(literal.pairs[i].privacy.sensitivity_squared_certified, exact * (1 - 1e-9)) << "u " << u;
      worst_gap = std::max({worst_gap, (grams.K[u] - oracle.k).cwiseAbs().maxCoeff(),
                            (target_gram_literal(view.view, u).K - oracle.k).cwiseAbs().maxCoeff()});
    }
    EXPECT_LT(smallest, 1e-4L);  // the case is the one it is meant to be
    if (c.gram_cut_loses) {
      EXPECT_GT(lost_by_gram_cut, 1e-3);
    }
    EXPECT_LT(worst_gap, 1e-6) << "K_u far from the oracle";
    std::cout << "smallest singular " << static_cast<double>(smallest) << ", largest |K - oracle| "
              << worst_gap << ", margin " << grams.subspace_margin << ", lost by a Gram cut "
              << lost_by_gram_cut << "\n";
  }
}

TEST(MfViews, CyclicParticipationClasses) {
  const auto classes = participation_classes(MfParticipation::cyclic(2, 3), 7);
  const std::vector<std::vector<std::size_t>> want{{0, 3}, {1, 4}, {2, 5}};
  EXPECT_EQ(classes, want);
  EXPECT_EQ(participation_classes(MfParticipation::every_round(), 3),
            (std::vector<std::vector<std::size_t>>{{0, 1, 2}}));
  EXPECT_THROW(participation_classes(MfParticipation::cyclic(0, 2), 5), std::invalid_argument);
  EXPECT_THROW(participation_classes(MfParticipation::cyclic(2, 6), 5), std::invalid_argument);

  // sens² is the max over classes; checked by brute force over the signs of each class here.
  DenseMatrix k(6, 6);
  k.setRandom();
  k = (k * k.transpose()).eval();
  TargetGram gram;
  gram.K = k;
  MfOptions options;
  options.participation = MfParticipation::cyclic(2, 3);
  const MfPairResult result =
      assess_over_classes(gram, participation_classes(options.participation, 6), options);
  double best = 0.0;
  double best_sum_abs = 0.0;
  for (const auto& cls : participation_classes(options.participation, 6)) {
    const Vector s0 = Vector::Ones(2);
    for (double sign : {1.0, -1.0}) {
      Vector c(2);
      c << 1.0, sign;
      DenseMatrix sub(2, 2);
      sub << k(static_cast<Index>(cls[0]), static_cast<Index>(cls[0])),
          k(static_cast<Index>(cls[0]), static_cast<Index>(cls[1])),
          k(static_cast<Index>(cls[1]), static_cast<Index>(cls[0])),
          k(static_cast<Index>(cls[1]), static_cast<Index>(cls[1]));
      best = std::max(best, c.dot(sub * c));
      best_sum_abs = std::max(best_sum_abs, sub.cwiseAbs().sum());
      (void)s0;
    }
  }
  EXPECT_GE(result.privacy.sensitivity_squared_certified, best * (1 - 1e-12));
  EXPECT_NEAR(result.privacy.sensitivity_squared_sum_abs, best_sum_abs, 1e-12 * best_sum_abs);
  ASSERT_TRUE(result.privacy.sensitivity_squared_exact.has_value());
  EXPECT_NEAR(*result.privacy.sensitivity_squared_exact, best, 1e-9 * best);
}

TEST(MfViews, IndependentNoiseIsCappedAtLocalDp) {
  // Ring C_8, node 0 attacks its neighbour 1 for T = 10 steps: K_1 has negative entries and
  // Σ|K| exceeds T, the local-DP value of the target's own noisy inputs (K_u ⪯ I). A scalar release
  // is certified at min(SDP bound, Σ|K|): the SDP bound is below T (tr(KG) <= tr(G) <= T).
  const auto w = closed_row(graph::ring(8));
  MfOptions options;
  options.assess.sign_search = SignSearch::none;
  options.assess.release_dimension = 1;  // scalar
  const std::vector<NodeId> target{1};
  const MfAccounting scalar = account_mf(w, 10, {}, {MfTrust::pndp, {0}}, target, options);
  const PairSensitivity& p = scalar.pairs.at(0).privacy;
  EXPECT_GT(p.sensitivity_squared_sum_abs, 10.0);
  EXPECT_LT(p.sensitivity_squared_certified, 10.0);
  EXPECT_DOUBLE_EQ(p.mu, std::sqrt(p.sensitivity_squared_certified));
  // The default (a vector release, the SDP value) is below the cap, reported as exact, and the
  // scalar value is not above it.
  const MfAccounting exact = account_mf(w, 10, {}, {MfTrust::pndp, {0}}, target, {});
  EXPECT_TRUE(exact.pairs.at(0).privacy.exact);
  EXPECT_LE(p.sensitivity_squared_certified, exact.pairs.at(0).privacy.sensitivity_squared_certified);
  EXPECT_LT(exact.pairs.at(0).privacy.sensitivity_squared_certified, 10.0);
  EXPECT_GT(exact.pairs.at(0).privacy.sensitivity_squared_certified,
            exact.pairs.at(0).privacy.sensitivity_squared_ones);
  EXPECT_THROW(assess_over_classes(TargetGram{}, {{0}}, options, -1.0), std::invalid_argument);
}

TEST(MfViews, Theorem7ChecksDetectViolations) {
  const auto w = closed_row(small_graph());
  for (MfAlgorithm algorithm : {MfAlgorithm::dp_d_sgd, MfAlgorithm::antipgd, MfAlgorithm::decor}) {
    MfAlgorithmSpec spec;
    spec.algorithm = algorithm;
    const MfView view = build_mf_view(w, 3, spec, {MfTrust::pndp, {2}});
    const Theorem7Check check = check_theorem7(view);
    EXPECT_TRUE(check.column_echelon) << to_string(algorithm);
    EXPECT_TRUE(check.factorization_holds) << to_string(algorithm);
    EXPECT_LE(check.factorization_residual, 1e-12) << to_string(algorithm);
  }
  MfView view = build_mf_view(w, 3, {}, {MfTrust::pndp, {2}});
  view.view.A(0, view.view.A.cols() - 1) = 1.0;  // a round-0 observation of a last-step input
  const Theorem7Check broken = check_theorem7(view);
  EXPECT_FALSE(broken.column_echelon);
  EXPECT_GE(diagnostic_count(broken.warnings, DiagnosticKind::theorem_condition_fails), 1u);
  // B has full row rank here, so some C still exists; the construction's encoder no longer factors A.
  EXPECT_GT(broken.factorization_residual, 1e-3);
}

TEST(MfViews, BadInputsAreRejected) {
  const auto w = closed_row(small_graph());
  MfAlgorithmSpec spec;
  EXPECT_THROW(build_mf_view(w, 0, spec, {MfTrust::pndp, {0}}), std::invalid_argument);
  EXPECT_THROW(build_mf_view(w, 3, spec, {MfTrust::pndp, {9}}), std::invalid_argument);
  EXPECT_THROW(build_mf_view(w, 3, spec, {MfTrust::pndp, {1, 1}}), std::invalid_argument);
  EXPECT_THROW(build_mf_view(w, 3, spec, {MfTrust::pndp, {}}), std::invalid_argument);
  EXPECT_THROW(build_mf_view(w, 3, spec, {MfTrust::ldp, {0}}), std::invalid_argument);
  spec.gossip_steps = 2;
  EXPECT_THROW(build_mf_view(w, 3, spec, {MfTrust::pndp, {0}}), std::invalid_argument);
  spec = {};
  spec.algorithm = MfAlgorithm::mf_d_sgd;
  EXPECT_THROW(build_mf_view(w, 3, spec, {MfTrust::pndp, {0}}), std::invalid_argument);  // no C
  spec.correlation = DenseMatrix::Identity(5, 5);
  EXPECT_THROW(build_mf_view(w, 3, spec, {MfTrust::pndp, {0}}), std::invalid_argument);  // wrong shape
  spec = {};
  spec.algorithm = MfAlgorithm::decor;
  spec.decor_secret_scale = 0.0;
  EXPECT_THROW(build_mf_view(w, 3, spec, {MfTrust::pndp, {0}}), std::invalid_argument);
  util::set_memory_limit(100);  // as --max-memory 100: A alone takes more
  EXPECT_THROW(build_mf_view(w, 3, {}, {MfTrust::pndp, {0}}), std::invalid_argument);
  util::set_memory_limit(0);
  EXPECT_THROW(parse_mf_trust("pdnp"), std::invalid_argument);
  EXPECT_THROW(parse_mf_algorithm("dpsgd"), std::invalid_argument);
  EXPECT_EQ(parse_mf_algorithm("zip-dl"), MfAlgorithm::zip_dl);
  EXPECT_EQ(parse_mf_trust("secldp"), MfTrust::secldp);

  MfOptions options;
  options.noise_std = 0.0;
  EXPECT_THROW(account_mf(w, 3, {}, {MfTrust::pndp, {0}}, {}, options), std::invalid_argument);
  options = {};
  options.delta = 1.0;
  EXPECT_THROW(account_mf(w, 3, {}, {MfTrust::pndp, {0}}, {}, options), std::invalid_argument);
  options = {};
  options.path = MfOptions::Path::structured;
  MfAlgorithmSpec decor;
  decor.algorithm = MfAlgorithm::decor;
  EXPECT_THROW(account_mf(w, 3, decor, {MfTrust::pndp, {0}}, {}, options), std::invalid_argument);
  const std::vector<NodeId> attacker_as_target{0};
  EXPECT_THROW(account_mf(w, 3, {}, {MfTrust::pndp, {0}}, attacker_as_target, {}), std::invalid_argument);
}

TEST(MfViews, AllPairsLiteralAndStructuredAgreeAndIgnoreThreadCount) {
  const auto w = closed_row(small_graph());
  MfOptions literal;
  literal.path = MfOptions::Path::literal;
  literal.participation = MfParticipation::cyclic(2, 2);
  MfOptions structured = literal;
  structured.path = MfOptions::Path::automatic;
  std::size_t calls = 0;
  structured.progress = [&](std::size_t done, std::size_t total) {
    ++calls;
    EXPECT_LE(done, total);
  };
  const MfAccounting a = account_mf_all_pairs(w, 4, {}, MfTrust::pndp, literal);
  const MfAccounting b = account_mf_all_pairs(w, 4, {}, MfTrust::pndp, structured);
  EXPECT_EQ(calls, 6u);
  EXPECT_FALSE(a.structured);
  EXPECT_TRUE(b.structured);
  ASSERT_EQ(a.pairs.size(), 30u);
  ASSERT_EQ(b.pairs.size(), 30u);
  ASSERT_EQ(b.theorem7.size(), 6u);
  for (std::size_t i = 0; i < a.pairs.size(); ++i) {
    EXPECT_EQ(a.pairs[i].privacy.target, b.pairs[i].privacy.target);
    EXPECT_EQ(a.pairs[i].privacy.observers, b.pairs[i].privacy.observers);
    const double want = a.pairs[i].privacy.sensitivity_squared_sum_abs;
    EXPECT_NEAR(b.pairs[i].privacy.sensitivity_squared_sum_abs, want, 1e-9 * std::max(1.0, want));
  }
  structured.progress = nullptr;
  omp_set_num_threads(1);
  const MfAccounting one = account_mf_all_pairs(w, 4, {}, MfTrust::pndp, structured);
  omp_set_num_threads(2);
  const MfAccounting two = account_mf_all_pairs(w, 4, {}, MfTrust::pndp, structured);
  for (std::size_t i = 0; i < one.pairs.size(); ++i) {
    EXPECT_EQ(one.pairs[i].privacy.sensitivity_squared_certified,
              two.pairs[i].privacy.sensitivity_squared_certified);
    EXPECT_EQ(one.pairs[i].privacy.epsilon, two.pairs[i].privacy.epsilon);
  }
}

}  // namespace
}  // namespace netdp::accounting
