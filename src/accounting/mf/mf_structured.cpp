// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Structured K_u for PNDP under DP-D-SGD / Muffliato-SGD(K) (MF paper A.2, A.4).
//
// After Lemma 11 the attacker set 𝒜 holds O = M (G_o + Z_o): the messages of its
// neighbours w ∉ 𝒜 at communication rounds r = 0..KT−1, restricted to the inputs of the
// other nodes (its own inputs and noise are known; the rows of its own noise make B Bᵀ block
// diagonal, so they drop out). Row (r, w) of M has entries (W^{r−Ks})_{w,v} at input (s, v),
// Ks <= r. Hence, with P_r = E_obs W^r (the attacker's neighbour rows of W^r, by sparse
// products) and H = P Pᵀ over the non-attacker columns:
//   Gram(r, r') = Σ_{j >= 0, Kj <= min(r, r')} H(r − Kj, r' − Kj) = Gram(r − K, r' − K) + H(r, r'),
// a diagonal cumulative sum. One Cholesky Gram = L Lᵀ serves every target: the columns of
// target u for step s are the stacked P_{r−Ks}[:, u], zero above row block Ks, so
// Q_s = L_trail⁻¹ P (all targets at once) and K_u[s, s'] = ⟨Q_s[:, u], Q_{s'}[:, u]⟩.

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#ifdef NETDP_HAVE_LAPACKE
#include <cblas.h>
#include <lapacke.h>
#endif

#include "accounting/exact/rank_certificate.hpp"
#include "accounting/linear_system/row_space.hpp"
#include "netdp/accounting/mf/mf_accountant.hpp"
#include "netdp/linalg/dense_kernels.hpp"
#include "netdp/util/check.hpp"

namespace netdp::accounting {
namespace {

using graph::NodeId;
using Index = Eigen::Index;

constexpr double kRankTolerance = 1e-12;

/// Entries of an observation matrix resolved explicitly when its Gram is singular: 64 MiB.
constexpr double kMaxObservationEntries = 8.0 * 1024 * 1024;

/// Whitened target columns for one input step: rows [start, start + rows) of the whitened
/// observation space, one column per node.
struct WhitenedBlock {
  Index start = 0;
  DenseMatrix values;
};

/// Cholesky gram = L Lᵀ (overwrites gram with L) and, for every input step s, the whitened
/// target columns L_trail⁻¹ P_top with L_trail the trailing block from row s·step_rows. Returns
/// false (gram unspecified) when gram is not numerically positive definite.
bool cholesky_whiten(DenseMatrix& gram, const DenseMatrix& powers, Index step_rows,
                     std::vector<WhitenedBlock>& whitened, double& condition) {
  const Index rows = gram.rows();
#ifdef NETDP_HAVE_LAPACKE
  if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', static_cast<int>(rows), gram.data(), static_cast<int>(rows)) !=
      0) {
    return false;
  }
  const Vector diag = gram.diagonal();
#else
  Eigen::LLT<Eigen::Ref<DenseMatrix> > llt(gram);  // in place
  if (llt.info() != Eigen::Success) return false;
  const Vector diag = gram.diagonal();
#endif
  const double ratio = diag.minCoeff() / diag.maxCoeff();
  if (!(ratio * ratio > kRankTolerance)) return false;
  condition = 1.0 / (ratio * ratio);
  for (std::size_t s = 0; s < whitened.size(); ++s) {
    const Index start = static_cast<Index>(s) * step_rows;
    const Index m = rows - start;
    WhitenedBlock& wb = whitened[s];
    wb.start = start;
    wb.values = powers.topRows(m);
#ifdef NETDP_HAVE_LAPACKE
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, static_cast<int>(m),
                static_cast<int>(wb.values.cols()), 1.0, gram.data() + start * rows + start,
                static_cast<int>(rows), wb.values.data(), std::max(1, static_cast<int>(m)));
#else
    gram.bottomRightCorner(m, m).triangularView<Eigen::Lower>().solveInPlace(wb.values);
#endif
  }
  return true;
}

/// The observation matrix M (rows × n·T): row block r (d rows) holds P_{r−Ks} at input step s
/// for Ks <= r (P = the stacked E_obs W^r, attacker columns already zero).
DenseMatrix observation_matrix(const DenseMatrix& powers, Index d, Index k, Index t_steps) {
  const Index rows = powers.rows();
  const Index n = powers.cols();
  DenseMatrix m = DenseMatrix::Zero(rows, n * t_steps);
  for (Index s = 0; s < t_steps; ++s) {
    const Index first = s * k * d;
    m.block(first, s * n, rows - first, n) = powers.topRows(rows - first);
  }
  return m;
}

}  // namespace

StructuredGrams mf_pndp_target_grams(const gossip::GossipMatrix& w, std::size_t rounds,
                                     std::size_t gossip_steps, std::span<const NodeId> attackers_in) {
  const std::size_t n = w.num_nodes();
  require(rounds >= 1, "rounds (gradient steps T) must be >= 1, got {}", rounds);
  require(gossip_steps >= 1, "gossip_steps (K) must be >= 1, got {}", gossip_steps);
  std::vector<NodeId> attackers(attackers_in.begin(), attackers_in.end());
  std::sort(attackers.begin(), attackers.end());
  require(!attackers.empty(), "the pndp trust model needs at least one attacker node");
  for (std::size_t i = 0; i < attackers.size(); ++i) {
    require(attackers[i] < n, "attacker {} is out of range: the graph has {} nodes", attackers[i], n);
    require(i == 0 || attackers[i] != attackers[i - 1], "attacker {} is listed twice", attackers[i]);
  }
  require(attackers.size() < n, "pndp: the attacker set contains all {} nodes; nobody is left to protect", n);
  const auto is_attacker = [&](NodeId v) {
    return std::binary_search(attackers.begin(), attackers.end(), v);
  };

  std::set<NodeId> observed_set;
  for (NodeId a : attackers) {
    for (NodeId v : w.graph().neighbors(a)) {
      if (!is_attacker(v)) observed_set.insert(v);
    }
  }
  const std::vector<NodeId> observed(observed_set.begin(), observed_set.end());
  const auto d = static_cast<Index>(observed.size());
  const auto k = static_cast<Index>(gossip_steps);
  const auto t_steps = static_cast<Index>(rounds);
  const Index comm = k * t_steps;
  const Index rows = d * comm;
  const auto ni = static_cast<Index>(n);

  StructuredGrams out;
  out.observations = static_cast<std::size_t>(rows);
  out.K.resize(n);
  for (NodeId u = 0; u < n; ++u) {
    if (!is_attacker(u)) out.K[u] = DenseMatrix::Zero(t_steps, t_steps);
  }
  if (d == 0) return out;  // isolated attackers see nothing

  // P: row block r = E_obs W^r (never a dense power: one sparse product per round).
  DenseMatrix powers(rows, ni);
  DenseMatrix block = DenseMatrix::Zero(d, ni);
  for (Index i = 0; i < d; ++i) block(i, observed[static_cast<std::size_t>(i)]) = 1.0;
  for (Index r = 0; r < comm; ++r) {
    if (r > 0) block = block * w.matrix();
    powers.middleRows(r * d, d) = block;
  }
  for (NodeId a : attackers) powers.col(a).setZero();  // Lemma 11: the attackers' inputs are known

  // Gram by diagonal cumulative sums of H = P Pᵀ (block r, r' of size d x d).
  DenseMatrix gram = linalg::lower_gram(powers);
  for (Index r = k; r < comm; ++r) {
    for (Index rp = k; rp <= r; ++rp) {
      gram.block(r * d, rp * d, d, d) += gram.block((r - k) * d, (rp - k) * d, d, d);
    }
  }
  gram.triangularView<Eigen::StrictlyUpper>() = gram.transpose();

  std::vector<WhitenedBlock> whitened(static_cast<std::size_t>(t_steps));
  DenseMatrix factor = gram;
  if (!cholesky_whiten(factor, powers, k * d, whitened, out.condition)) {
    factor.resize(0, 0);
    // Dependent observations (common for K > 1): K_u is the block of the projector on the row
    // space of the observation matrix M at u's input columns, from an orthonormal basis of row(M)
    // that is completed below the Gram's resolution; the rank decision widens it by its margin.
    const double entries = static_cast<double>(rows) * static_cast<double>(ni * t_steps);
    if (entries > kMaxObservationEntries) {
      out.subspace_margin = 1.0;
      out.warnings.push_back(
          {DiagnosticKind::rank_unresolved,
           fmt::format("the {} observations are linearly dependent in floating point and their matrix ({} x "
                       "{}) is too "
                       "large to resolve its row space: every pair is reported at the local-DP cap",
                       rows, rows, ni * t_steps)});
      return out;
    }
    const DenseMatrix m_rows = observation_matrix(powers, d, k, t_steps);
    detail::RowSpace space =
        detail::row_space(m_rows, std::move(gram), detail::rounding_floor_factor(m_rows.cols(), rows, comm),
                          detail::structural_rank(m_rows));
    // A rank cut is checked against the exact rank of M: row (r, o) holds e_oᵀ W^(r − Ks) at step s.
    if (space.rank_decided) {
      std::vector<detail::SweptRow> swept;
      swept.reserve(static_cast<std::size_t>(rows));
      for (Index r = 0; r < comm; ++r)
        for (const NodeId o : observed)
          swept.push_back({o, static_cast<std::size_t>(r), static_cast<std::size_t>(r / k)});
      const gossip::Schedule schedule = gossip::Schedule::fixed(w.matrix(), static_cast<std::size_t>(comm));
      const detail::LazyRankCertifier certifier(schedule);
      out.certificate_failure_probability =
          detail::certify_rank_cut(space, certifier, swept, static_cast<std::size_t>(k),
                                   static_cast<std::size_t>(t_steps), attackers, out.warnings);
    }
    out.subspace_margin = space.margin;
    out.condition = std::numeric_limits<double>::infinity();
    for (Index s = 0; s < t_steps; ++s) {
      WhitenedBlock& wb = whitened[static_cast<std::size_t>(s)];
      wb.start = 0;
      wb.values = space.basis.middleCols(s * ni, ni);
    }
  }
  if (out.condition > 1e10 && std::isfinite(out.condition)) {
    out.warnings.push_back(
        {DiagnosticKind::ill_conditioned,
         fmt::format("the observation Gram is ill-conditioned (condition >= {:.3e})", out.condition)});
  }

  // K_u = Q_uᵀ Q_u with Q_u = [whitened column u of every input step] (zero-padded).
  Index space = 0;
  for (const WhitenedBlock& wb : whitened) space = std::max(space, wb.start + wb.values.rows());
  DenseMatrix q_u(space, t_steps);
  for (NodeId u = 0; u < n; ++u) {
    if (is_attacker(u)) continue;
    q_u.setZero();
    for (Index s = 0; s < t_steps; ++s) {
      const WhitenedBlock& wb = whitened[static_cast<std::size_t>(s)];
      q_u.col(s).segment(wb.start, wb.values.rows()) = wb.values.col(u);
    }
    DenseMatrix& k_u = out.K[u];
#ifdef NETDP_HAVE_LAPACKE
    cblas_dsyrk(CblasColMajor, CblasLower, CblasTrans, static_cast<int>(t_steps), static_cast<int>(space),
                1.0, q_u.data(), std::max(1, static_cast<int>(space)), 0.0, k_u.data(),
                std::max(1, static_cast<int>(t_steps)));
#else
    k_u.triangularView<Eigen::Lower>() = q_u.transpose() * q_u;
#endif
    k_u.triangularView<Eigen::StrictlyUpper>() = k_u.transpose();
  }
  return out;
}

}  // namespace netdp::accounting
