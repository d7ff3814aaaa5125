// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// MAFALDA-SGD's privacy through the MF accountant (MF paper, Theorem 7 with C = C_local ⊗ I_n).
#include "netdp/mf/mafalda_privacy.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <cstddef>

#include "mafalda_privacy_internal.hpp"
#include "netdp/util/check.hpp"

namespace netdp::mf {
namespace detail {

accounting::MfOptions engine_options(const MafaldaPrivacyOptions& options) {
  accounting::MfOptions out;
  out.participation = options.participation;
  out.noise_std = options.noise_std;
  out.delta = options.delta;
  out.assess = options.assess;
  return out;
}

bool ldp_closed_form_chosen(const gossip::GossipMatrix& w, std::size_t rounds,
                            const MafaldaPrivacyOptions& options) {
  const bool small = w.num_nodes() * rounds <= kMafaldaEngineLimit;
  return options.ldp_path == MafaldaPrivacyOptions::LdpPath::closed_form ||
         (options.ldp_path == MafaldaPrivacyOptions::LdpPath::automatic && !small);
}

MafaldaPrivacy assemble_privacy(const gossip::GossipMatrix& w, std::size_t rounds,
                                const MafaldaPrivacyOptions& options, const accounting::MfAlgorithmSpec& spec,
                                const std::function<accounting::MfPairResult()>& closed_ldp) {
  const accounting::MfOptions engine = engine_options(options);
  MafaldaPrivacy out;
  if (ldp_closed_form_chosen(w, rounds, options)) {
    out.ldp = closed_ldp();
    out.ldp_closed_form = true;
  } else {
    const accounting::MfAccounting ldp =
        accounting::account_mf_all_pairs(w, rounds, spec, accounting::MfTrust::ldp, engine);
    require(!ldp.pairs.empty(), "mafalda_privacy: the LDP accounting returned no node");
    out.ldp = *std::max_element(ldp.pairs.begin(), ldp.pairs.end(), [](const auto& a, const auto& b) {
      return a.privacy.sensitivity_squared_certified < b.privacy.sensitivity_squared_certified;
    });
  }
  if (!options.pndp || w.num_nodes() <= 1) return out;
  const accounting::MfAccounting pndp =
      accounting::account_mf_all_pairs(w, rounds, spec, accounting::MfTrust::pndp, engine);
  out.pndp_pairs = pndp.pairs.size();
  for (const accounting::MfPairResult& pair : pndp.pairs) {
    out.pndp_mu_mean += pair.privacy.mu;
    out.pndp_epsilon_mean += pair.privacy.epsilon;
    out.pndp_mu_max = std::max(out.pndp_mu_max, pair.privacy.mu);
    out.pndp_epsilon_max = std::max(out.pndp_epsilon_max, pair.privacy.epsilon);
    out.pndp_exact = out.pndp_exact && pair.privacy.exact;
  }
  if (out.pndp_pairs > 0) {
    out.pndp_mu_mean /= static_cast<double>(out.pndp_pairs);
    out.pndp_epsilon_mean /= static_cast<double>(out.pndp_pairs);
  }
  return out;
}

}  // namespace detail

namespace {

/// Under LDP every message is public: A = W_T (block (t, s) = W^{t−s}, invertible), B = W_T(C†⊗I_n).
/// With C of full column rank, A = B C and row(B) = range(C ⊗ I_n), so K = Cᵀ B⁺B C = CᵀC ⊗ I_n:
/// every node's K_u is C_localᵀ C_local, whatever the graph (the paper's sens_Π_local(C_local)).
accounting::MfPairResult ldp_closed_form(const DenseMatrix& c_local, const accounting::MfOptions& options,
                                         std::size_t rounds) {
  const Eigen::ColPivHouseholderQR<DenseMatrix> qr(c_local);
  require(qr.rank() == c_local.cols(),
          "mafalda_privacy: the LDP closed form needs C_local of full column rank {}, got rank {}",
          c_local.cols(), qr.rank());
  accounting::TargetGram gram;
  gram.K = c_local.transpose() * c_local;
  gram.rank = static_cast<std::size_t>(c_local.rows());
  gram.observations = static_cast<std::size_t>(c_local.rows());
  return accounting::assess_over_classes(
      gram, accounting::participation_classes(options.participation, rounds), options);
}

}  // namespace

MafaldaPrivacy mafalda_privacy(const gossip::GossipMatrix& w, std::size_t rounds, const DenseMatrix& c_local,
                               const MafaldaPrivacyOptions& options) {
  require(rounds >= 1, "mafalda_privacy: rounds must be >= 1, got {}", rounds);
  require(c_local.cols() == static_cast<Eigen::Index>(rounds),
          "mafalda_privacy: C_local must have T = {} columns, got {}", rounds, c_local.cols());
  require(c_local.rows() >= c_local.cols(), "mafalda_privacy: C_local must have at least T = {} rows, got {}",
          rounds, c_local.rows());
  require(c_local.allFinite(), "mafalda_privacy: C_local must be finite");
  accounting::MfAlgorithmSpec spec;
  spec.algorithm = accounting::MfAlgorithm::mf_d_sgd;
  spec.correlation = c_local;
  return detail::assemble_privacy(w, rounds, options, spec, [&] {
    return ldp_closed_form(c_local, detail::engine_options(options), rounds);
  });
}

}  // namespace netdp::mf
