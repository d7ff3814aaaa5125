// TrainContext: per-node minibatches, clipped gradient sums, gossip helpers.

#include <cmath>
#include <numeric>
#include <utility>

#include "netdp/gossip/spectral.hpp"
#include "netdp/learn/algorithm.hpp"
#include "netdp/util/check.hpp"

namespace netdp::learn {

double standard_normal(Rng& rng) {
  // Marsaglia polar method: exact N(0, 1) from uniform01 (one of the pair is used).
  while (true) {
    const double u = 2.0 * rng.uniform01() - 1.0;
    const double v = 2.0 * rng.uniform01() - 1.0;
    const double s = u * u + v * v;
    if (s > 0.0 && s < 1.0) return u * std::sqrt(-2.0 * std::log(s) / s);
  }
}

void fill_standard_normal(double* out, std::size_t count, Rng& rng) {
  // Marsaglia polar method, both outputs of each accepted pair used.
  std::size_t i = 0;
  while (i < count) {
    const double u = 2.0 * rng.uniform01() - 1.0;
    const double v = 2.0 * rng.uniform01() - 1.0;
    const double s = u * u + v * v;
    if (!(s > 0.0 && s < 1.0)) continue;
    const double scale = std::sqrt(-2.0 * std::log(s) / s);
    out[i++] = u * scale;
    if (i < count) out[i++] = v * scale;
  }
}

TrainContext::TrainContext(const Model& model, std::vector<Dataset> node_data, gossip::GossipMatrix base,
                           gossip::Schedule schedule, AlgorithmParams params, std::uint64_t seed)
    : model_(&model),
      node_data_(std::move(node_data)),
      base_(std::move(base)),
      schedule_(std::move(schedule)),
      params_(std::move(params)),
      seed_(seed) {
  require(!node_data_.empty(), "training needs at least one node");
  require(node_data_.size() == base_.num_nodes(), "{} data shards for a graph of {} nodes", node_data_.size(),
          base_.num_nodes());
  for (std::size_t v = 0; v < node_data_.size(); ++v) {
    require(node_data_[v].size() >= 1, "node {} has no training example", v);
  }
  cyclic_order_.resize(node_data_.size());
  for (auto& order : cyclic_order_) order.clear();
}

double TrainContext::batch_divisor(std::size_t v) const {
  const std::size_t m = node_data_[v].size();
  return static_cast<double>(params_.batch_size == 0 ? m : std::min(params_.batch_size, m));
}

void TrainContext::clipped_mean_gradients(const DenseMatrix& theta, Rng& rng, DenseMatrix& grads, bool cyclic,
                                          std::size_t t) {
  const auto n = static_cast<Eigen::Index>(num_nodes());
  const auto p = static_cast<Eigen::Index>(num_parameters());
  grads.resize(n, p);
  for (std::size_t v = 0; v < num_nodes(); ++v) {
    const Dataset& data = node_data_[v];
    const std::size_t m = data.size();
    const std::size_t b = static_cast<std::size_t>(batch_divisor(v));
    auto& order = cyclic_order_[v];
    if (order.size() != m) {
      order.resize(m);
      std::iota(order.begin(), order.end(), std::size_t{0});
    }
    std::size_t first = 0;
    if (b < m) {
      if (cyclic) {
        // One seeded shuffle at step 0, then batches in turn (⌈m/b⌉ batches).
        if (t == 0) {
          for (std::size_t i = m; i > 1; --i) std::swap(order[i - 1], order[rng.uniform_below(i)]);
        }
        const std::size_t batches = (m + b - 1) / b;
        first = (t % batches) * b;
      } else {
        // Partial Fisher–Yates: the first b entries become a uniform sample without replacement.
        for (std::size_t i = 0; i < b; ++i) std::swap(order[i], order[i + rng.uniform_below(m - i)]);
      }
    }
    const std::size_t last = std::min(first + b, m);
    const auto rows = static_cast<Eigen::Index>(last - first);
    batch_x_.resize(rows, data.features.cols());
    batch_y_.resize(rows);
    for (Eigen::Index i = 0; i < rows; ++i) {
      const auto r = static_cast<Eigen::Index>(order[first + static_cast<std::size_t>(i)]);
      batch_x_.row(i) = data.features.row(r);
      batch_y_(i) = data.targets(r);
    }
    row_ = theta.row(static_cast<Eigen::Index>(v)).transpose();
    grads.row(static_cast<Eigen::Index>(v)) =
        model_->clipped_gradient_sum(row_, batch_x_, batch_y_, params_.clip).transpose() / batch_divisor(v);
  }
}

void TrainContext::add_penalty(const DenseMatrix& theta, DenseMatrix& grads) const {
  const double l2 = model_->l2();
  if (l2 != 0.0) grads += l2 * theta;
}

void TrainContext::gossip(const SparseMatrix& w, DenseMatrix& theta) {
  buffer_.noalias() = w * theta;
  theta.swap(buffer_);
}

void TrainContext::gossip_k(const SparseMatrix& w, std::size_t k, DenseMatrix& theta) {
  if (!params_.chebyshev) {
    for (std::size_t i = 0; i < k; ++i) gossip(w, theta);
    return;
  }
  if (chebyshev_gamma_ == 0.0) {
    chebyshev_gamma_ = gossip::muffliato_chebyshev_gamma(gossip::second_eigenvalue(base_).spectral_gap);
  }
  theta = gossip::chebyshev_gossip(w, theta, k, chebyshev_gamma_);
}

}  // namespace netdp::learn
