// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Privacy of MF-D-SGD with one encoder C_v per node through the MF accountant
// (docs/reference/mf-mafalda.md, "One C per node"; MF paper Theorem 7 with a block-diagonal local C).
#include <Eigen/QR>
#include <algorithm>
#include <cstddef>

#include "mafalda_privacy_internal.hpp"
#include "netdp/mf/mafalda_per_node.hpp"
#include "netdp/util/check.hpp"

namespace netdp::mf {
namespace {

/// The global encoder of the accountant (noise coordinate i belongs to node i mod n):
/// C[s·n + v, t·n + v] = C_v[s, t], zero across nodes.
DenseMatrix global_encoder(const std::vector<DenseMatrix>& c_per_node) {
  const auto n = static_cast<Eigen::Index>(c_per_node.size());
  const Eigen::Index m = c_per_node.front().rows();
  const Eigen::Index t_count = c_per_node.front().cols();
  DenseMatrix c = DenseMatrix::Zero(m * n, t_count * n);
  for (Eigen::Index v = 0; v < n; ++v) {
    const DenseMatrix& cv = c_per_node[static_cast<std::size_t>(v)];
    for (Eigen::Index s = 0; s < m; ++s) {
      for (Eigen::Index t = 0; t < t_count; ++t) c(s * n + v, t * n + v) = cv(s, t);
    }
  }
  return c;
}

/// Under LDP, A = 𝐖_T (invertible) and B = 𝐖_T C⁺; with every C_v of full column rank C⁺C = I,
/// so A = B C, row(B) = range(C) and K = Cᵀ C: node u's K_u is C_uᵀ C_u (block-diagonal C).
/// Returns the worst node (largest certified sensitivity).
accounting::MfPairResult ldp_closed_form(const std::vector<DenseMatrix>& c_per_node,
                                         const accounting::MfOptions& options, std::size_t rounds) {
  const auto classes = accounting::participation_classes(options.participation, rounds);
  accounting::MfPairResult worst;
  bool first = true;
  for (std::size_t u = 0; u < c_per_node.size(); ++u) {
    const DenseMatrix& cu = c_per_node[u];
    const Eigen::ColPivHouseholderQR<DenseMatrix> qr(cu);
    require(qr.rank() == cu.cols(),
            "mafalda_privacy: the LDP closed form needs every C_v of full column rank {}, got rank {} for "
            "node {}",
            cu.cols(), qr.rank(), u);
    accounting::TargetGram gram;
    gram.K = cu.transpose() * cu;
    gram.rank = static_cast<std::size_t>(cu.rows()) * c_per_node.size();
    gram.observations = gram.rank;
    accounting::MfPairResult result = accounting::assess_over_classes(gram, classes, options);
    result.privacy.target = static_cast<graph::NodeId>(u);
    if (first || result.privacy.sensitivity_squared_certified > worst.privacy.sensitivity_squared_certified) {
      worst = std::move(result);
      first = false;
    }
  }
  return worst;
}

}  // namespace

MafaldaPrivacy mafalda_privacy(const gossip::GossipMatrix& w, std::size_t rounds,
                               const std::vector<DenseMatrix>& c_per_node,
                               const MafaldaPrivacyOptions& options) {
  require(rounds >= 1, "mafalda_privacy: rounds must be >= 1, got {}", rounds);
  require(c_per_node.size() == w.num_nodes(), "mafalda_privacy: {} encoders C_v for n = {} nodes",
          c_per_node.size(), w.num_nodes());
  const auto t_count = static_cast<Eigen::Index>(rounds);
  const Eigen::Index m = c_per_node.front().rows();
  for (std::size_t v = 0; v < c_per_node.size(); ++v) {
    const DenseMatrix& cv = c_per_node[v];
    require(cv.cols() == t_count, "mafalda_privacy: C_{} must have T = {} columns, got {}", v, rounds,
            cv.cols());
    require(cv.rows() >= t_count, "mafalda_privacy: C_{} must have at least T = {} rows, got {}", v, rounds,
            cv.rows());
    require(cv.rows() == m,
            "mafalda_privacy: every C_v must have the same number of rows; C_0 has {}, C_{} has {}", m, v,
            cv.rows());
    require(cv.allFinite(), "mafalda_privacy: C_{} must be finite", v);
  }
  // The global encoder is only built when the engine runs (the closed form needs the C_v alone).
  const bool need_engine =
      !detail::ldp_closed_form_chosen(w, rounds, options) || (options.pndp && w.num_nodes() > 1);
  accounting::MfAlgorithmSpec spec;
  spec.algorithm = accounting::MfAlgorithm::mf_d_sgd;
  if (need_engine) spec.correlation = global_encoder(c_per_node);
  return detail::assemble_privacy(w, rounds, options, spec, [&] {
    return ldp_closed_form(c_per_node, detail::engine_options(options), rounds);
  });
}

}  // namespace netdp::mf
