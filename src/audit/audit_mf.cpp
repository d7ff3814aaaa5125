// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The MF paper's algorithms as the audit runs them (audit.hpp, audit_mf): each node's noise as
// its Appendix A describes it, drawn from i.i.d. coordinates Z that the nodes own, and the
// messages each trust model shows (docs/reference/audit.md, "MF views"; docs/reference/accounting-mf.md for the
// conventions, which the simulation follows without using the accountant's matrices).

#include <Eigen/QR>
#include <algorithm>
#include <memory>
#include <vector>

#include "audit_detail.hpp"
#include "audit_linear.hpp"
#include "netdp/audit/audit.hpp"
#include "netdp/util/check.hpp"

namespace netdp::audit {
namespace {

using accounting::MfAlgorithm;
using accounting::MfTrust;
using detail::Receive;

bool attacks(const Attackers& attackers, graph::NodeId v) {
  return std::find(attackers.nodes.begin(), attackers.nodes.end(), v) != attackers.nodes.end();
}

/// The nodes whose messages the attackers read: under PNDP their neighbours outside the
/// coalition and the attackers themselves (a node knows what it sends; the messages add nothing
/// when its noise is its own, and are part of its view when it is not); every node otherwise.
std::vector<graph::NodeId> observed_senders(const graph::Graph& g, MfTrust trust,
                                            const Attackers& attackers) {
  std::vector<graph::NodeId> out;
  for (graph::NodeId v = 0; v < g.num_nodes(); ++v) {
    bool seen = trust != MfTrust::pndp || attacks(attackers, v);
    for (const graph::NodeId w : g.neighbors(v)) seen = seen || attacks(attackers, w);
    if (seen) out.push_back(v);
  }
  return out;
}

/// Algorithm 1 of the MF paper with the noise ζ_s of each algorithm (Appendix A): ψ += G_s + ζ_s,
/// then K gossip steps, every node's message its state before averaging.
detail::Injections gossip_algorithm(const gossip::GossipMatrix& w, const Attackers& attackers,
                                    const MfAuditSpec& spec) {
  const std::size_t n = w.num_nodes();
  const std::size_t rounds = spec.rounds;
  const auto ni = static_cast<Eigen::Index>(n);
  detail::Injections out;
  out.rounds = rounds;
  out.steps = spec.algorithm.gossip_steps;
  out.first_power = 0;
  out.rows = {observed_senders(w.graph(), spec.trust, attackers)};
  switch (spec.algorithm.algorithm) {
    case MfAlgorithm::dp_d_sgd:
    case MfAlgorithm::muffliato_sgd:  // ζ_s = z_s (A.2, A.4)
      detail::use_local_noise(out, n, rounds, attackers);
      break;
    case MfAlgorithm::antipgd: {  // ζ_s = z_s − z_{s−1} (A.3)
      detail::use_local_noise(out, n, rounds, attackers);
      out.add_noise = [ni, local = out.add_noise](std::size_t s, const DenseMatrix& z, DenseMatrix& state) {
        local(s, z, state);
        if (s > 0) state -= z.middleRows(static_cast<Eigen::Index>(s - 1) * ni, ni);
      };
      break;
    }
    case MfAlgorithm::decor: {  // ζ_{s,i} = z_{s,i} + κ Σ_e ±s_{s,e}, + for the edge's lower end (A.5)
      require(spec.algorithm.decor_secret_scale > 0.0, "audit: the DECOR secret scale must be > 0, got {}",
              spec.algorithm.decor_secret_scale);
      detail::use_local_noise(out, n, rounds, attackers);
      const auto edges = std::make_shared<const std::vector<graph::Edge>>(w.graph().edges());
      const std::size_t local = out.noises;
      out.noises += edges->size() * rounds;
      for (std::size_t s = 0; s < rounds; ++s) {
        for (std::size_t e = 0; e < edges->size(); ++e) {
          if (attacks(attackers, (*edges)[e].u) || attacks(attackers, (*edges)[e].v))
            out.known_noises.push_back(local + s * edges->size() + e);
        }
      }
      const double scale = spec.algorithm.decor_secret_scale;
      out.add_noise = [own = out.add_noise, edges, local, scale](std::size_t s, const DenseMatrix& z,
                                                                 DenseMatrix& state) {
        own(s, z, state);
        for (std::size_t e = 0; e < edges->size(); ++e) {
          const auto secret = z.row(static_cast<Eigen::Index>(local + s * edges->size() + e));
          state.row(static_cast<Eigen::Index>((*edges)[e].u)) += scale * secret;
          state.row(static_cast<Eigen::Index>((*edges)[e].v)) -= scale * secret;
        }
      };
      break;
    }
    case MfAlgorithm::mf_d_sgd: {  // ζ = C†Z, coordinate i of Z drawn by node i mod n
      const DenseMatrix& c = spec.algorithm.correlation;
      require(c.size() > 0 && c.allFinite(), "audit: mf-d-sgd needs a finite correlation matrix C");
      const bool local = c.cols() == static_cast<Eigen::Index>(rounds);
      require(local || (c.cols() == static_cast<Eigen::Index>(n * rounds) && c.rows() % ni == 0),
              "audit: the correlation matrix C is {} x {}; it must have T = {} columns, or n·T = {} and a "
              "multiple of n rows",
              c.rows(), c.cols(), rounds, n * rounds);
      const auto pinv =
          std::make_shared<const DenseMatrix>(c.completeOrthogonalDecomposition().pseudoInverse());
      out.noises = local ? static_cast<std::size_t>(c.rows()) * n : static_cast<std::size_t>(c.rows());
      for (std::size_t i = 0; i < out.noises; ++i)
        if (attacks(attackers, i % n)) out.known_noises.push_back(i);
      out.add_noise = [ni, pinv, local](std::size_t s, const DenseMatrix& z, DenseMatrix& state) {
        const auto step = static_cast<Eigen::Index>(s);
        if (local) {  // node v's noise at step s: Σ_j C†(s, j) z_{j·n + v}
          for (Eigen::Index j = 0; j < pinv->cols(); ++j)
            state += (*pinv)(step, j) * z.middleRows(j * ni, ni);
        } else {
          state.noalias() += pinv->middleRows(step * ni, ni) * z;
        }
      };
      break;
    }
    case MfAlgorithm::zip_dl:
      break;  // not a state injection (zip_dl_protocol)
  }
  return out;
}

/// Zip-DL (A.6, as docs/reference/accounting-mf.md reads Biswas et al. 2025): node i holds x_t^i = θ_t^i + g_t^i
/// and sends x_t^i + ξ_t^{i→j} to each neighbour j, ξ_t^{i→·} = (I − 11ᵀ/s_i) z_t^{i,·} over its s_i
/// messages (z drawn and known by i); θ_{t+1}^j = W_jj x_t^j + Σ_i W_ji (x_t^i + ξ_t^{i→j}). The
/// attackers read the messages sent to them from outside the coalition (PNDP) or every message.
detail::LinearProtocol zip_dl_protocol(const gossip::GossipMatrix& w, const Attackers& attackers,
                                       const MfAuditSpec& spec) {
  const graph::Graph& g = w.graph();
  const std::size_t n = g.num_nodes();
  // Arcs i → j in the order of i's neighbour list; z of arc a at step t is coordinate t·arcs + a.
  struct Arc {
    graph::NodeId from = 0;
    graph::NodeId to = 0;
    std::size_t first = 0;  ///< the sender's first arc
    std::size_t count = 0;  ///< the sender's arcs
    bool observed = false;
  };
  auto arcs = std::make_shared<std::vector<Arc>>();
  for (graph::NodeId i = 0; i < n; ++i) {
    const std::size_t first = arcs->size();
    for (const graph::NodeId j : g.neighbors(i)) {
      const bool observed = spec.trust != MfTrust::pndp || (attacks(attackers, j) && !attacks(attackers, i));
      arcs->push_back({i, j, first, g.degree(i), observed});
    }
  }
  detail::LinearProtocol protocol;
  protocol.inputs = n * spec.rounds;
  protocol.noises = arcs->size() * spec.rounds;
  protocol.rounds = spec.rounds;
  protocol.messages = static_cast<double>(arcs->size()) * static_cast<double>(spec.rounds);
  for (std::size_t t = 0; t < spec.rounds; ++t) {
    for (std::size_t a = 0; a < arcs->size(); ++a)
      if (attacks(attackers, (*arcs)[a].from)) protocol.known_noises.push_back(t * arcs->size() + a);
  }
  const SparseMatrix& matrix = w.matrix();
  protocol.run = [&matrix, arcs, n, rounds = spec.rounds](const DenseMatrix& gradients, const DenseMatrix& z,
                                                          const Receive& receive) {
    const auto nodes = static_cast<Eigen::Index>(n);
    const auto count = static_cast<Eigen::Index>(arcs->size());
    DenseMatrix theta = DenseMatrix::Zero(nodes, gradients.cols());
    Eigen::RowVectorXd mean(gradients.cols());
    DenseMatrix sent(count, gradients.cols());
    std::size_t k = 0;
    for (std::size_t t = 0; t < rounds; ++t) {
      const DenseMatrix x = theta + gradients.middleRows(static_cast<Eigen::Index>(t) * nodes, nodes);
      const auto zt = z.middleRows(static_cast<Eigen::Index>(t) * count, count);
      for (std::size_t a = 0; a < arcs->size(); ++a) {
        const Arc& arc = (*arcs)[a];
        if (a == arc.first) {  // the mean of the sender's z, removed from each of its messages
          mean = zt.middleRows(static_cast<Eigen::Index>(arc.first), static_cast<Eigen::Index>(arc.count))
                     .colwise()
                     .mean();
        }
        sent.row(static_cast<Eigen::Index>(a)) =
            x.row(static_cast<Eigen::Index>(arc.from)) + zt.row(static_cast<Eigen::Index>(a)) - mean;
        if (arc.observed) receive(k++, sent.row(static_cast<Eigen::Index>(a)));
      }
      for (Eigen::Index j = 0; j < nodes; ++j) theta.row(j) = matrix.coeff(j, j) * x.row(j);
      for (std::size_t a = 0; a < arcs->size(); ++a) {
        const Arc& arc = (*arcs)[a];
        theta.row(static_cast<Eigen::Index>(arc.to)) +=
            matrix.coeff(static_cast<Eigen::Index>(arc.to), static_cast<Eigen::Index>(arc.from)) *
            sent.row(static_cast<Eigen::Index>(a));
      }
    }
  };
  return protocol;
}

}  // namespace

AuditResult audit_mf(const gossip::GossipMatrix& w, const Attackers& attackers, graph::NodeId target,
                     double sigma, double sensitivity, const MfAuditSpec& spec, std::size_t release_dimension,
                     const AuditOptions& options) {
  const std::size_t n = w.num_nodes();
  detail::check_pair(n, attackers, target, sigma, sensitivity, spec.trust != MfTrust::pndp);
  require(spec.trust != MfTrust::ldp || attackers.nodes.empty(),
          "audit: the ldp trust model has no attacker nodes (every message is public), got {}",
          attackers.nodes.size());
  require(spec.rounds >= 1, "audit: the MF views need T >= 1 gradient steps");
  require(spec.algorithm.gossip_steps == 1 || spec.algorithm.algorithm == MfAlgorithm::muffliato_sgd,
          "audit: gossip steps K = {} apply to muffliato-sgd only", spec.algorithm.gossip_steps);
  const gossip::Schedule schedule =
      gossip::Schedule::fixed(w.matrix(), spec.rounds * spec.algorithm.gossip_steps);
  const detail::LinearProtocol protocol =
      spec.algorithm.algorithm == MfAlgorithm::zip_dl
          ? zip_dl_protocol(w, attackers, spec)
          : detail::injection_protocol(schedule, gossip_algorithm(w, attackers, spec));
  // The classes of steps the target may change in (one class: every step).
  std::vector<std::vector<std::size_t>> classes;
  for (const std::vector<std::size_t>& steps :
       accounting::participation_classes(spec.participation, spec.rounds)) {
    classes.emplace_back();
    for (const std::size_t s : steps) classes.back().push_back(s * n + target);
  }
  return detail::attack_worst_shift(protocol, classes, sensitivity, release_dimension, sigma, options);
}

}  // namespace netdp::audit
