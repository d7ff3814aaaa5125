// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "algo_test_problem.hpp"
#include "netdp/gossip/schedules.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/generators.hpp"
#include "netdp/learn/algorithm.hpp"
#include "netdp/learn/train.hpp"
#include "netdp/mf/correlation_io.hpp"
#include "netdp/mf/factorize.hpp"
#include "netdp/mf/mafalda_per_node.hpp"
#include "netdp/mf/mafalda_privacy.hpp"
#include "util/temp_file.hpp"

namespace netdp::learn {
namespace {

using test::linear_problem;
using test::Problem;
using test::run;

AlgorithmParams clipped_params(const std::string& name, std::size_t rounds, double sigma) {
  return test::params_for(name, rounds, sigma, 10.0);
}

TrainContext context(const Problem& problem, const AlgorithmParams& params, std::uint64_t seed = 3) {
  return TrainContext(*problem.model, problem.shards, problem.w,
                      gossip::fixed_schedule(problem.w, params.rounds), params, seed);
}

// A temporary Matrix Market file, removed at scope exit.
class MatrixFile {
 public:
  const std::string& path() const { return file_.path(); }
  void write_text(const std::string& text) const { std::ofstream(file_.path()) << text; }
  void write_matrix(const DenseMatrix& c) const { mf::write_correlation(file_.path(), c); }

 private:
  netdp::testing::TempFile file_ = netdp::testing::TempFile::empty_name(".mtx");
};

// The error message of running `params` (empty when it does not throw std::invalid_argument).
std::string error_of(const Problem& problem, const AlgorithmParams& params) {
  try {
    run(problem, params);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(AlgoMfTest, WithoutCorrelationFileEqualsDpDSgd) {
  const Problem problem = linear_problem(5, 100, 3);
  EXPECT_EQ(run(problem, clipped_params("mf-d-sgd", 4, 1.0)),
            run(problem, clipped_params("dp-d-sgd", 4, 1.0)));
}

TEST(AlgoMfTest, SigmaZeroEqualsDSgd) {
  const Problem problem = linear_problem(5, 100, 3);
  const DenseMatrix baseline = run(problem, clipped_params("d-sgd", 6, 0.0));
  MatrixFile file;
  file.write_matrix(mf::antipgd_correlation(6));
  AlgorithmParams mf_file = clipped_params("mf-d-sgd", 6, 0.0);
  mf_file.correlation = file.path();
  EXPECT_EQ(run(problem, mf_file), baseline);
  for (const std::string method : {"mafalda", "dmf", "per-node"}) {
    AlgorithmParams mafalda = clipped_params("mafalda", 6, 0.0);
    mafalda.correlation_method =
        parse_train_config({{"algorithm.correlation_method", method}}).algorithm.correlation_method;
    EXPECT_EQ(run(problem, mafalda), baseline) << method;
  }
}

TEST(AlgoMfTest, PrefixSumCorrelationReproducesAntiPgd) {
  // C = lower-triangular ones, C⁻¹ = first differences: the noise ξ(t) − ξ(t−1) of antipgd.
  const Problem problem = linear_problem(5, 100, 3);
  MatrixFile file;
  file.write_matrix(mf::antipgd_correlation(7));
  AlgorithmParams mf = clipped_params("mf-d-sgd", 7, 0.7);
  mf.batch_size = 4;
  mf.correlation = file.path();
  AlgorithmParams anti = mf;
  anti.name = "antipgd";
  anti.correlation.clear();
  const DenseMatrix expected = run(problem, anti, 5);
  EXPECT_EQ(run(problem, mf, 5), expected);  // the same operations in the same order: bit for bit
  mf.correlation = "antipgd";                // the built-in name of the same C
  EXPECT_EQ(run(problem, mf, 5), expected);
}

// Gradients made negligible (clip 1e-300, noise scale σ·clip = 1): θ ← W (θ − η N_t) with the
// literal noise N = C⁻¹ Ξ (dense inverse) for a dense lower-triangular T × T C, same draws per step.
void expect_literal_noise(std::size_t rounds) {
  const Problem problem = linear_problem(3, 30, 2);
  const auto t_size = static_cast<Eigen::Index>(rounds);
  DenseMatrix c = DenseMatrix::Zero(t_size, t_size);
  for (Eigen::Index i = 0; i < t_size; ++i) {
    for (Eigen::Index j = 0; j <= i; ++j)
      c(i, j) = i == j ? 1.0 + 0.1 * static_cast<double>(i) : 0.3 / (1.0 + static_cast<double>(i - j));
  }
  MatrixFile file;
  file.write_matrix(c);
  AlgorithmParams p = clipped_params("mf-d-sgd", rounds, 1e300);
  p.clip = 1e-300;
  p.step_size = 0.7;
  p.correlation = file.path();
  const DenseMatrix theta = run(problem, p, 9);

  Rng rng(9);
  const Eigen::Index n = 3;
  const auto dims = static_cast<Eigen::Index>(problem.model->num_parameters());
  std::vector<DenseMatrix> xi(rounds, DenseMatrix(n, dims));
  for (DenseMatrix& draw : xi) fill_standard_normal(draw.data(), static_cast<std::size_t>(draw.size()), rng);
  const DenseMatrix inverse = c.inverse();
  const DenseMatrix w = DenseMatrix(problem.w.matrix());
  DenseMatrix expected = DenseMatrix::Zero(n, dims);
  for (std::size_t t = 0; t < rounds; ++t) {
    DenseMatrix noise = DenseMatrix::Zero(n, dims);
    for (std::size_t s = 0; s <= t; ++s)
      noise += inverse(static_cast<Eigen::Index>(t), static_cast<Eigen::Index>(s)) * xi[s];
    for (Eigen::Index v = 0; v < n; ++v)
      noise.row(v) *=
          p.sigma * p.clip / static_cast<double>(problem.shards[static_cast<std::size_t>(v)].size());
    expected = w * (expected - p.step_size * noise);
  }
  EXPECT_LE((theta - expected).norm(), 1e-9 * expected.norm()) << "T = " << rounds;
}

TEST(AlgoMfTest, NoiseIsTheLiteralCInverseTimesTheDraws) {
  expect_literal_noise(5);   // window path (bandwidth 4)
  expect_literal_noise(37);  // blocked path: two full blocks of 16 and a partial one
}

TEST(AlgoMfTest, MafaldaConvergesOnThePlantedProblem) {
  const Problem problem = linear_problem(6, 240, 3);
  AlgorithmParams p = clipped_params("mafalda", 80, 1e-5);
  p.step_size = 0.3;
  p.batch_size = 2;  // 40 examples per node: 20 cyclic batches, so b = 20 and k = 4
  p.participations = 4;
  p.separation = 20;
  const DenseMatrix theta = run(problem, p);
  const Vector average = theta.colwise().mean().transpose();
  EXPECT_LE((average.head(3) - problem.planted).norm(), 1e-2 * (1.0 + problem.planted.norm()));
  EXPECT_LE((theta.rowwise() - average.transpose()).norm(), 1e-2);
}

TEST(AlgoMfTest, BadCorrelationFilesGiveClearErrors) {
  const Problem problem = linear_problem(4, 40, 2);
  AlgorithmParams p = clipped_params("mf-d-sgd", 3, 1.0);
  p.correlation = "/nonexistent/netdp_c.mtx";
  EXPECT_NE(error_of(problem, p).find("/nonexistent/netdp_c.mtx"), std::string::npos) << error_of(problem, p);

  MatrixFile file;
  p.correlation = file.path();
  const std::string banner = "%%MatrixMarket matrix coordinate real general\n";
  file.write_text(banner + "3 4 3\n1 1 1\n2 2 1\n3 3 1\n");
  EXPECT_NE(error_of(problem, p).find("must be square"), std::string::npos) << error_of(problem, p);
  file.write_text(banner + "4 4 4\n1 1 1\n2 2 1\n3 3 1\n4 4 1\n");
  EXPECT_NE(error_of(problem, p).find("expected T x T = 3 x 3"), std::string::npos) << error_of(problem, p);
  file.write_text(banner + "3 3 4\n1 1 1\n2 2 1\n3 3 1\n1 3 0.5\n");
  EXPECT_NE(error_of(problem, p).find("entry (1, 3) = 0.5 is above the diagonal"), std::string::npos)
      << error_of(problem, p);
  file.write_text(banner + "3 3 3\n1 1 1\n2 1 1\n3 3 1\n");
  EXPECT_NE(error_of(problem, p).find("diagonal entry (2, 2) = 0"), std::string::npos)
      << error_of(problem, p);
  EXPECT_NE(error_of(problem, p).find(file.path()), std::string::npos);
  p.correlation.clear();
  p.name = "mafalda";
  p.correlation = file.path();
  EXPECT_NE(error_of(problem, p).find("mafalda computes its own C"), std::string::npos);
}

TEST(AlgoMfTest, ParticipationAndScheduleAreChecked) {
  const Problem problem = linear_problem(4, 80, 2);  // 20 examples per node
  AlgorithmParams p = clipped_params("mafalda", 12, 1.0);
  p.batch_size = 5;  // 4 cyclic batches
  p.participations = 2;
  p.separation = 4;  // ⌈12/4⌉ = 3 participations > 2
  EXPECT_NE(error_of(problem, p).find("set algorithm.participations >= 3"), std::string::npos)
      << error_of(problem, p);
  p.participations = 3;
  p.separation = 3;  // 4 batches is not a multiple of 3
  p.participations = 4;
  EXPECT_NE(error_of(problem, p).find("4 cyclic batches"), std::string::npos) << error_of(problem, p);
  p.separation = 4;
  p.participations = 3;
  EXPECT_EQ(error_of(problem, p), "");
  p.rounds = 10;  // b = 4 does not divide T: classes {0, 4, 8}, {1, 5, 9}, {2, 6}, {3, 7}
  EXPECT_EQ(error_of(problem, p), "");
  p.schedule = gossip::parse_schedule_spec("dropout:p=0.5");
  EXPECT_NE(error_of(problem, p).find("fixed gossip matrix"), std::string::npos);
}

TEST(AlgoMfTest, MafaldaAccountIsMafaldaPrivacy) {
  const Problem problem = linear_problem(5, 100, 2);  // 20 examples per node
  AlgorithmParams p = clipped_params("mafalda", 12, 1.0);
  p.batch_size = 5;  // 4 cyclic batches = b
  p.participations = 3;
  p.separation = 4;
  p.delta = 1e-6;
  TrainContext ctx = context(problem, p);
  auto algorithm = make_algorithm("mafalda");
  algorithm->prepare(ctx);
  const PrivacyAccount account = algorithm->privacy(ctx);
  EXPECT_EQ(account.accountant, "mf-ldp");

  mf::MafaldaPrivacyOptions options;
  options.participation = accounting::MfParticipation::cyclic(3, 4);
  options.noise_std = 2.5;
  options.delta = 1e-6;
  options.pndp = false;
  const DenseMatrix c = mf::mafalda_correlation(problem.w, 12, 3, 4);
  const mf::MafaldaPrivacy direct = mf::mafalda_privacy(problem.w, 12, c, options);
  const std::vector<double> mus = account.mus(2.5, 12);
  ASSERT_EQ(mus.size(), 1u);
  EXPECT_NEAR(mus[0], direct.ldp.privacy.mu, 1e-12 * direct.ldp.privacy.mu);
  EXPECT_GE(account_epsilon(account, 2.5, 12, 1e-6), direct.ldp.privacy.epsilon - 1e-9);
  bool pndp_note = false;
  for (const std::string& note : account.notes) pndp_note = pndp_note || note.find("PNDP over") == 0;
  EXPECT_TRUE(pndp_note);  // n·T = 60: the literal PNDP engine runs
}

TEST(AlgoMfTest, PerNodeAccountIsPerNodeMafaldaPrivacy) {
  const Problem problem = linear_problem(5, 100, 2);  // 20 examples per node
  AlgorithmParams p = clipped_params("mafalda", 12, 1.0);
  p.batch_size = 5;  // 4 cyclic batches = b
  p.participations = 3;
  p.separation = 4;
  p.correlation_method = CorrelationMethod::per_node;
  TrainContext ctx = context(problem, p);
  auto algorithm = make_algorithm("mafalda");
  algorithm->prepare(ctx);
  const PrivacyAccount account = algorithm->privacy(ctx);

  mf::MafaldaPrivacyOptions options;
  options.participation = accounting::MfParticipation::cyclic(3, 4);
  options.delta = p.delta;
  options.pndp = false;
  std::vector<DenseMatrix> cs;
  for (mf::Factorization& node : mf::mafalda_per_node_correlation(problem.w, 12, 3, 4).nodes)
    cs.push_back(std::move(node.c));
  const mf::MafaldaPrivacy direct = mf::mafalda_privacy(problem.w, 12, cs, options);
  EXPECT_NEAR(account.mus(1.0, 12)[0], direct.ldp.privacy.mu, 1e-12 * direct.ldp.privacy.mu);
  // On the vertex-transitive ring every H_v = H/n, so each C_v is the shared (unit-sensitivity)
  // MAFALDA C and the runs agree up to the optimizers' rounding.
  AlgorithmParams shared = p;
  shared.correlation_method = CorrelationMethod::mafalda;
  const DenseMatrix per_node = run(problem, p);
  EXPECT_LE((per_node - run(problem, shared)).norm(), 1e-8 * per_node.norm());
}

TEST(AlgoMfTest, PrefixSumAccountIsAntiPgdsSensitivity) {
  // Every step may use a record: sens² of C = ones is max ‖C c‖² over |c_t| <= 1 = Σ_{k=1}^T k².
  const Problem problem = linear_problem(4, 40, 2);
  MatrixFile file;
  file.write_matrix(mf::antipgd_correlation(6));
  AlgorithmParams p = clipped_params("mf-d-sgd", 6, 1.0);
  p.correlation = file.path();
  TrainContext ctx = context(problem, p);
  auto algorithm = make_algorithm("mf-d-sgd");
  algorithm->prepare(ctx);
  const PrivacyAccount account = algorithm->privacy(ctx);
  double squares = 0.0;
  for (int k = 1; k <= 6; ++k) squares += k * k;
  EXPECT_NEAR(account.mus(3.0, 6)[0], std::sqrt(squares) / 3.0, 1e-9);
}

TEST(AlgoMfTest, SameSeedSameMetrics) {
  const FlatConfig config = {{"data.examples", "240"},          {"data.features", "3"},
                             {"network.graph", "ring:n=6"},     {"algorithm.name", "mafalda"},
                             {"algorithm.rounds", "8"},         {"algorithm.batch_size", "8"},
                             {"algorithm.participations", "2"}, {"algorithm.separation", "4"},
                             {"algorithm.sigma", "0.5"},        {"train.eval_every", "4"}};
  const TrainResult a = run_training(config);
  const TrainResult b = run_training(config);
  ASSERT_EQ(a.history.size(), 2u);
  ASSERT_EQ(b.history.size(), 2u);
  for (std::size_t i = 0; i < a.history.size(); ++i) {
    EXPECT_EQ(a.history[i].train_loss, b.history[i].train_loss);
    EXPECT_EQ(a.history[i].test_loss, b.history[i].test_loss);
    EXPECT_EQ(a.history[i].epsilon_so_far, b.history[i].epsilon_so_far);
  }
  EXPECT_EQ(a.accountant, "mf-ldp");
  EXPECT_GT(a.epsilon, 0.0);
}

}  // namespace
}  // namespace netdp::learn
