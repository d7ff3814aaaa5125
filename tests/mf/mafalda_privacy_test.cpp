// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Tests of MAFALDA-SGD's privacy against the MF accountant's literal engine.
#include "netdp/mf/mafalda_privacy.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <stdexcept>

#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/generators.hpp"

namespace netdp::mf {
namespace {

using accounting::MfParticipation;

/// A well-conditioned lower-triangular encoder: I + 0.3 × (uniform strictly lower part).
DenseMatrix random_lower_encoder(Eigen::Index t_count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  DenseMatrix c = DenseMatrix::Identity(t_count, t_count);
  for (Eigen::Index i = 0; i < t_count; ++i) {
    for (Eigen::Index j = 0; j < i; ++j) c(i, j) = 0.3 * uniform(rng);
  }
  return c;
}

double relative(double got, double want) { return std::abs(got - want) / std::max(std::abs(want), 1e-300); }

gossip::GossipMatrix small_ring() {
  return gossip::make_gossip_matrix(graph::ring(4), gossip::Weighting::closed_row);
}

TEST(MafaldaPrivacy, LdpClosedFormMatchesTheEngine) {
  const std::size_t rounds = 5;
  const DenseMatrix c = random_lower_encoder(static_cast<Eigen::Index>(rounds), 3);
  for (const MfParticipation& participation :
       {MfParticipation::every_round(), MfParticipation::cyclic(2, 2)}) {
    MafaldaPrivacyOptions options;
    options.participation = participation;
    options.noise_std = 2.0;
    options.pndp = false;
    options.ldp_path = MafaldaPrivacyOptions::LdpPath::engine;
    const MafaldaPrivacy engine = mafalda_privacy(small_ring(), rounds, c, options);
    options.ldp_path = MafaldaPrivacyOptions::LdpPath::closed_form;
    const MafaldaPrivacy closed = mafalda_privacy(small_ring(), rounds, c, options);
    EXPECT_FALSE(engine.ldp_closed_form);
    EXPECT_TRUE(closed.ldp_closed_form);
    EXPECT_LT(relative(closed.ldp.privacy.sensitivity_squared_certified,
                       engine.ldp.privacy.sensitivity_squared_certified),
              1e-9);
    EXPECT_LT(relative(closed.ldp.privacy.mu, engine.ldp.privacy.mu), 1e-9);
    EXPECT_GE(closed.ldp.privacy.epsilon, 0.0);
  }
}

TEST(MafaldaPrivacy, IdentityEncoderIsDpDSgd) {
  const std::size_t rounds = 4;
  const gossip::GossipMatrix w = small_ring();
  MafaldaPrivacyOptions options;
  options.noise_std = 3.0;
  options.ldp_path = MafaldaPrivacyOptions::LdpPath::engine;
  const MafaldaPrivacy got =
      mafalda_privacy(w, rounds, DenseMatrix::Identity(static_cast<Eigen::Index>(rounds), 4), options);

  accounting::MfOptions engine;
  engine.noise_std = options.noise_std;
  engine.delta = options.delta;
  const accounting::MfAlgorithmSpec dp_d_sgd;  // the default algorithm
  const auto pndp = accounting::account_mf_all_pairs(w, rounds, dp_d_sgd, accounting::MfTrust::pndp, engine);
  double mu_max = 0.0;
  double mu_sum = 0.0;
  double eps_max = 0.0;
  for (const auto& pair : pndp.pairs) {
    mu_max = std::max(mu_max, pair.privacy.mu);
    mu_sum += pair.privacy.mu;
    eps_max = std::max(eps_max, pair.privacy.epsilon);
  }
  ASSERT_EQ(got.pndp_pairs, pndp.pairs.size());
  EXPECT_LT(relative(got.pndp_mu_max, mu_max), 1e-9);
  EXPECT_LT(relative(got.pndp_mu_mean, mu_sum / static_cast<double>(pndp.pairs.size())), 1e-9);
  EXPECT_LT(relative(got.pndp_epsilon_max, eps_max), 1e-9);
  // LDP with independent noise: K_u = I_T, node-level sens² = T, μ = √T / ν.
  EXPECT_LT(relative(got.ldp.privacy.sensitivity_squared_certified, static_cast<double>(rounds)), 1e-9);
  EXPECT_LT(relative(got.ldp.privacy.mu, std::sqrt(static_cast<double>(rounds)) / options.noise_std), 1e-9);
  // PNDP never exceeds LDP: the attacker sees a subset of the messages.
  EXPECT_LE(got.pndp_mu_max, got.ldp.privacy.mu * (1.0 + 1e-12));
}

TEST(MafaldaPrivacy, RecordLevelIsNotAboveNodeLevel) {
  const std::size_t rounds = 6;
  const DenseMatrix c = random_lower_encoder(static_cast<Eigen::Index>(rounds), 11);
  MafaldaPrivacyOptions node;
  const MafaldaPrivacy node_level = mafalda_privacy(small_ring(), rounds, c, node);
  MafaldaPrivacyOptions record = node;
  record.participation = MfParticipation::cyclic(2, 3);
  const MafaldaPrivacy record_level = mafalda_privacy(small_ring(), rounds, c, record);
  EXPECT_LE(record_level.ldp.privacy.mu, node_level.ldp.privacy.mu * (1.0 + 1e-12));
  EXPECT_LE(record_level.pndp_mu_max, node_level.pndp_mu_max * (1.0 + 1e-12));
  EXPECT_LE(record_level.pndp_mu_mean, node_level.pndp_mu_mean * (1.0 + 1e-12));
  EXPECT_GT(record_level.ldp.privacy.mu, 0.0);
}

TEST(MafaldaPrivacy, RejectsBadEncoders) {
  const gossip::GossipMatrix w = small_ring();
  EXPECT_THROW(mafalda_privacy(w, 3, DenseMatrix::Identity(4, 4)), std::invalid_argument);
  EXPECT_THROW(mafalda_privacy(w, 3, DenseMatrix::Identity(2, 3)), std::invalid_argument);
  DenseMatrix nan = DenseMatrix::Identity(3, 3);
  nan(1, 0) = std::nan("");
  EXPECT_THROW(mafalda_privacy(w, 3, nan), std::invalid_argument);
  MafaldaPrivacyOptions closed;
  closed.ldp_path = MafaldaPrivacyOptions::LdpPath::closed_form;
  DenseMatrix singular = DenseMatrix::Identity(3, 3);
  singular(2, 2) = 0.0;
  EXPECT_THROW(mafalda_privacy(w, 3, singular, closed), std::invalid_argument);
}

}  // namespace
}  // namespace netdp::mf
