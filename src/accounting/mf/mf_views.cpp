// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Literal dense views of the MF paper's algorithms under LDP / PNDP / SecLDP
// (Appendix A). Conventions: docs/reference/accounting-mf.md.

#include "netdp/accounting/mf/mf_views.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <array>
#include <set>
#include <utility>

#include "netdp/util/check.hpp"
#include "netdp/util/enum_names.hpp"
#include "netdp/util/memory.hpp"

namespace netdp::accounting {
namespace {

using graph::NodeId;
using Index = Eigen::Index;

constexpr auto kTrustNames = std::to_array<util::EnumName<MfTrust>>({
    {MfTrust::ldp, "ldp"},
    {MfTrust::pndp, "pndp"},
    {MfTrust::secldp, "secldp"},
});
static_assert(util::is_valid_enum_table(kTrustNames));
constexpr auto kAlgorithmNames = std::to_array<util::EnumName<MfAlgorithm>>({
    {MfAlgorithm::dp_d_sgd, "dp-d-sgd"},
    {MfAlgorithm::muffliato_sgd, "muffliato-sgd"},
    {MfAlgorithm::antipgd, "antipgd"},
    {MfAlgorithm::decor, "decor"},
    {MfAlgorithm::zip_dl, "zip-dl"},
    {MfAlgorithm::mf_d_sgd, "mf-d-sgd"},
});
static_assert(util::is_valid_enum_table(kAlgorithmNames));

/// How the noise enters the inputs: noise added to input (t, v) is (map Z)_{t*n+v}.
struct NoiseModel {
  DenseMatrix map;                          // nT x m (the paper's C†)
  std::vector<std::vector<NodeId>> owners;  // nodes that know noise coordinate i
  DenseMatrix encoder;                      // m x nT with map * encoder = I (Theorem 5's C)
  bool local = true;                        // node v's noise uses only coordinates v owns
};

bool is_local(const DenseMatrix& map, const std::vector<std::vector<NodeId>>& owners, std::size_t n) {
  for (Index row = 0; row < map.rows(); ++row) {
    const auto v = static_cast<NodeId>(static_cast<std::size_t>(row) % n);
    for (Index col = 0; col < map.cols(); ++col) {
      const auto& own = owners[static_cast<std::size_t>(col)];
      if (map(row, col) != 0.0 && std::find(own.begin(), own.end(), v) == own.end()) return false;
    }
  }
  return true;
}

NoiseModel independent_noise(std::size_t n, std::size_t rounds) {
  const auto nt = static_cast<Index>(n * rounds);
  NoiseModel noise{DenseMatrix::Identity(nt, nt), {}, DenseMatrix::Identity(nt, nt), true};
  for (Index i = 0; i < nt; ++i)
    noise.owners.push_back({static_cast<NodeId>(static_cast<std::size_t>(i) % n)});
  return noise;
}

// AntiPGD (A.3): node v adds z_{t,v} − z_{t−1,v}; map = D ⊗ I_n, C = D⁻¹ ⊗ I_n = 1_{t>=s} ⊗ I_n.
NoiseModel antipgd_noise(std::size_t n, std::size_t rounds) {
  NoiseModel noise = independent_noise(n, rounds);
  const auto ni = static_cast<Index>(n);
  for (Index t = 1; t < static_cast<Index>(rounds); ++t) {
    for (Index v = 0; v < ni; ++v) noise.map(t * ni + v, (t - 1) * ni + v) = -1.0;
  }
  for (Index t = 0; t < static_cast<Index>(rounds); ++t) {
    for (Index s = 0; s < t; ++s) {
      for (Index v = 0; v < ni; ++v) noise.encoder(t * ni + v, s * ni + v) = 1.0;
    }
  }
  return noise;
}

// DECOR (A.5): Z = [local (nT); secrets (|E|T)], node i adds z_{t,i} + scale Σ_e Inc[i,e] s_{t,e}
// with the orientation e = (u, v), u < v: Inc[u,e] = +1, Inc[v,e] = −1. C = [I; 0].
NoiseModel decor_noise(const graph::Graph& g, std::size_t rounds, double scale) {
  const std::size_t n = g.num_nodes();
  const auto edges = g.edges();
  const auto ni = static_cast<Index>(n);
  const auto ne = static_cast<Index>(edges.size());
  const auto nt = static_cast<Index>(n * rounds);
  const Index m = nt + ne * static_cast<Index>(rounds);
  NoiseModel noise{DenseMatrix::Zero(nt, m), {}, DenseMatrix::Zero(m, nt), true};
  noise.map.leftCols(nt).setIdentity();
  noise.encoder.topRows(nt).setIdentity();
  for (Index i = 0; i < nt; ++i)
    noise.owners.push_back({static_cast<NodeId>(static_cast<std::size_t>(i) % n)});
  for (Index t = 0; t < static_cast<Index>(rounds); ++t) {
    for (Index e = 0; e < ne; ++e) {
      const auto& edge = edges[static_cast<std::size_t>(e)];
      const Index col = nt + t * ne + e;
      noise.map(t * ni + edge.u, col) = scale;
      noise.map(t * ni + edge.v, col) = -scale;
    }
  }
  for (Index t = 0; t < static_cast<Index>(rounds); ++t) {
    for (const auto& edge : edges) noise.owners.push_back({edge.u, edge.v});
  }
  return noise;
}

// MF-D-SGD (Algorithm 1): noise C†Z for a local (m_l x T) or global (m x nT) encoder C.
NoiseModel correlated_noise(const DenseMatrix& c, std::size_t n, std::size_t rounds) {
  const auto nt = static_cast<Index>(n * rounds);
  require(c.size() > 0, "mf-d-sgd needs a correlation (encoder) matrix C; none was given");
  require(c.allFinite(), "the correlation matrix C must have finite entries");
  require(c.cols() == static_cast<Index>(rounds) || c.cols() == nt,
          "the correlation matrix C has {} columns; it must have T = {} (local, C ⊗ I_n) or nT = {} (global)",
          c.cols(), rounds, nt);
  NoiseModel noise;
  if (c.cols() == static_cast<Index>(rounds)) {
    const auto ni = static_cast<Index>(n);
    const DenseMatrix pinv = c.completeOrthogonalDecomposition().pseudoInverse();  // T x m_l
    noise.encoder = DenseMatrix::Zero(c.rows() * ni, nt);
    noise.map = DenseMatrix::Zero(nt, c.rows() * ni);
    for (Index j = 0; j < c.rows(); ++j) {
      for (Index t = 0; t < c.cols(); ++t) {
        for (Index v = 0; v < ni; ++v) {
          noise.encoder(j * ni + v, t * ni + v) = c(j, t);
          noise.map(t * ni + v, j * ni + v) = pinv(t, j);
        }
      }
    }
  } else {
    require(c.rows() % static_cast<Index>(n) == 0,
            "a global correlation matrix C must have a multiple of n = {} rows (coordinate i belongs to node "
            "i mod "
            "n), got {}",
            n, c.rows());
    noise.encoder = c;
    noise.map = c.completeOrthogonalDecomposition().pseudoInverse();
  }
  for (Index i = 0; i < noise.map.cols(); ++i) {
    noise.owners.push_back({static_cast<NodeId>(static_cast<std::size_t>(i) % n)});
  }
  noise.local = is_local(noise.map, noise.owners, n);
  return noise;
}

/// Message map (n·K·T x nT): message of node v at communication round r is
/// Σ_{s : Ks <= r} (W^{r−Ks})_{v,·} x_s (MF paper eq. 6 and A.4), x = G + noise.
DenseMatrix message_map(const DenseMatrix& w, std::size_t rounds, std::size_t k) {
  const Index n = w.rows();
  const auto comm = static_cast<Index>(rounds * k);
  DenseMatrix messages = DenseMatrix::Zero(n * comm, n * static_cast<Index>(rounds));
  DenseMatrix state = DenseMatrix::Zero(n, n * static_cast<Index>(rounds));
  for (Index r = 0; r < comm; ++r) {
    if (r > 0) state = w * state;
    if (r % static_cast<Index>(k) == 0)
      state.block(0, (r / static_cast<Index>(k)) * n, n, n).diagonal().array() += 1.0;
    messages.middleRows(r * n, n) = state;
  }
  return messages;
}

std::vector<NodeId> validated_attackers(const MfAdversary& adversary, std::size_t n) {
  std::vector<NodeId> attackers = adversary.attackers;
  std::sort(attackers.begin(), attackers.end());
  for (std::size_t i = 0; i < attackers.size(); ++i) {
    require(attackers[i] < n, "attacker {} is out of range: the graph has {} nodes", attackers[i], n);
    require(i == 0 || attackers[i] != attackers[i - 1], "attacker {} is listed twice", attackers[i]);
  }
  switch (adversary.trust) {
    case MfTrust::ldp:
      require(attackers.empty(), "the ldp trust model has no attacker nodes, got {}", attackers.size());
      break;
    case MfTrust::pndp:
      require(!attackers.empty(), "the pndp trust model needs at least one attacker node");
      require(attackers.size() < n, "pndp: the attacker set contains all {} nodes; nobody is left to protect",
              n);
      break;
    case MfTrust::secldp:
      require(attackers.size() < n, "secldp: the attacker set contains all {} nodes", n);
      break;
  }
  return attackers;
}

bool contains(const std::vector<NodeId>& sorted, NodeId v) {
  return std::binary_search(sorted.begin(), sorted.end(), v);
}

/// Nodes whose messages the adversary reads (sorted).
std::vector<NodeId> observed_senders(const graph::Graph& g, MfTrust trust,
                                     const std::vector<NodeId>& attackers, bool include_own) {
  std::vector<NodeId> out;
  if (trust != MfTrust::pndp) {
    for (NodeId v = 0; v < g.num_nodes(); ++v) out.push_back(v);
    return out;
  }
  std::set<NodeId> senders;
  for (NodeId a : attackers) {
    for (NodeId w : g.neighbors(a)) {
      if (!contains(attackers, w)) senders.insert(w);
    }
    if (include_own) senders.insert(a);
  }
  return {senders.begin(), senders.end()};
}

// The literal view's dense A and B are checked against the memory limit before they are built.
void check_size(Index rows, Index cols, const char* what) {
  util::require_memory(8.0 * static_cast<double>(rows) * static_cast<double>(cols), "the literal MF view",
                       fmt::format("its matrix {}, {} x {} entries of 8 bytes", what, rows, cols),
                       "use the structured path (PNDP with dp-d-sgd or muffliato-sgd) or a smaller input");
}

/// Appends the known-noise rows (unit rows of B, zero rows of A) and zeroes the attackers' input columns.
void finish_view(MfView& out, const std::vector<std::vector<NodeId>>& owners,
                 const std::vector<NodeId>& attackers, std::size_t n) {
  std::vector<Index> known;
  for (std::size_t i = 0; i < owners.size(); ++i) {
    for (NodeId o : owners[i]) {
      if (contains(attackers, o)) {
        known.push_back(static_cast<Index>(i));
        break;
      }
    }
  }
  auto& a = out.view.A;
  auto& b = out.view.B;
  const Index messages = a.rows();
  a.conservativeResize(messages + static_cast<Index>(known.size()), Eigen::NoChange);
  b.conservativeResize(messages + static_cast<Index>(known.size()), Eigen::NoChange);
  a.bottomRows(static_cast<Index>(known.size())).setZero();
  b.bottomRows(static_cast<Index>(known.size())).setZero();
  for (std::size_t k = 0; k < known.size(); ++k) {
    b(messages + static_cast<Index>(k), known[k]) = 1.0;
    out.row_rounds.push_back(0);
  }
  // Lemma 11: the attackers' own inputs are known, Ã = A (I − K^G† K^G) zeroes their columns.
  for (NodeId att : attackers) {
    for (std::size_t t = 0; t < out.view.rounds; ++t) {
      const auto col = static_cast<Index>(t * n + att);
      a.col(col).setZero();
      if (out.encoder.size() > 0) out.encoder.col(col).setZero();
    }
  }
  out.message_rows = static_cast<std::size_t>(messages);
}

MfView build_gossip_view(const gossip::GossipMatrix& w, std::size_t rounds, const MfAlgorithmSpec& spec,
                         const MfAdversary& adversary, const std::vector<NodeId>& attackers) {
  const std::size_t n = w.num_nodes();
  const graph::Graph& g = w.graph();
  NoiseModel noise;
  switch (spec.algorithm) {
    case MfAlgorithm::antipgd:
      noise = antipgd_noise(n, rounds);
      break;
    case MfAlgorithm::decor:
      require_positive(spec.decor_secret_scale, "decor_secret_scale");
      noise = decor_noise(g, rounds, spec.decor_secret_scale);
      break;
    case MfAlgorithm::mf_d_sgd:
      noise = correlated_noise(spec.correlation, n, rounds);
      break;
    default:
      noise = independent_noise(n, rounds);
  }
  const std::size_t k = spec.gossip_steps;
  // A node always knows the messages it sent; they add nothing when its noise is its own
  // (the paper omits them), but they do for a global encoder mixing other nodes' noise.
  const auto senders = observed_senders(g, adversary.trust, attackers, !noise.local);
  const auto ni = static_cast<Index>(n);
  const auto rows = static_cast<Index>(senders.size() * rounds * k);
  check_size(rows, ni * static_cast<Index>(rounds), "A");
  check_size(rows, noise.map.cols(), "B");

  const DenseMatrix messages = message_map(DenseMatrix(w.matrix()), rounds, k);
  MfView out;
  out.view.num_nodes = n;
  out.view.rounds = rounds;
  out.gossip_steps = k;
  out.view.A.resize(rows, ni * static_cast<Index>(rounds));
  Index row = 0;
  for (std::size_t r = 0; r < rounds * k; ++r) {
    for (NodeId v : senders) {
      out.view.A.row(row++) = messages.row(static_cast<Index>(r) * ni + v);
      out.row_rounds.push_back(r);
    }
  }
  out.view.B = out.view.A * noise.map;
  out.encoder = std::move(noise.encoder);
  finish_view(out, noise.owners, attackers, n);
  return out;
}

// Zip-DL (A.6, our reading of Biswas et al. 2025): node i holds x_t^i = θ_t^i − η g_t^i and sends
// x_t^i + ξ_t^{i→j} to each neighbour j; ξ_t^{i→·} = (I − 11ᵀ/s_i) z_t^{i,·} (zero-sum over its
// s_i messages); the receiver averages θ_{t+1}^j = W_jj x_t^j + Σ_i W_ji (x_t^i + ξ_t^{i→j}).
MfView build_zip_dl_view(const gossip::GossipMatrix& w, std::size_t rounds, const MfAdversary& adversary,
                         const std::vector<NodeId>& attackers) {
  const std::size_t n = w.num_nodes();
  const graph::Graph& g = w.graph();
  const auto ni = static_cast<Index>(n);
  const auto nt = static_cast<Index>(n * rounds);
  std::vector<Index> arc_offset(n + 1, 0);
  for (NodeId i = 0; i < n; ++i) arc_offset[i + 1] = arc_offset[i] + static_cast<Index>(g.degree(i));
  const Index arcs = arc_offset[n];
  const Index m = arcs * static_cast<Index>(rounds);

  // ξ at one round as a function of z at that round (arcs x arcs, block diagonal per sender).
  DenseMatrix xi = DenseMatrix::Zero(arcs, arcs);
  std::vector<std::vector<NodeId>> owners(static_cast<std::size_t>(m));
  for (NodeId i = 0; i < n; ++i) {
    const Index s = static_cast<Index>(g.degree(i));
    if (s == 0) continue;
    xi.block(arc_offset[i], arc_offset[i], s, s) =
        DenseMatrix::Identity(s, s) - DenseMatrix::Constant(s, s, 1.0 / static_cast<double>(s));
  }
  for (Index t = 0; t < static_cast<Index>(rounds); ++t) {
    for (NodeId i = 0; i < n; ++i) {
      for (Index a = arc_offset[i]; a < arc_offset[i + 1]; ++a)
        owners[static_cast<std::size_t>(t * arcs + a)] = {i};
    }
  }
  // Observed arcs (sender i, receiver j).
  std::vector<std::pair<Index, NodeId>> observed;  // (arc, sender)
  for (NodeId i = 0; i < n; ++i) {
    const auto nbrs = g.neighbors(i);
    for (std::size_t k = 0; k < nbrs.size(); ++k) {
      const bool keep =
          adversary.trust != MfTrust::pndp || (contains(attackers, nbrs[k]) && !contains(attackers, i));
      if (keep) observed.emplace_back(arc_offset[i] + static_cast<Index>(k), i);
    }
  }
  const auto rows = static_cast<Index>(observed.size() * rounds);
  check_size(rows, nt, "A");
  check_size(rows, m, "B");

  const DenseMatrix wd(w.matrix());
  DenseMatrix xg = DenseMatrix::Zero(ni, nt);  // x_t as a function of G
  DenseMatrix xz = DenseMatrix::Zero(ni, m);   // x_t as a function of Z
  MfView out;
  out.view.num_nodes = n;
  out.view.rounds = rounds;
  out.view.A.resize(rows, nt);
  out.view.B.resize(rows, m);
  Index row = 0;
  for (Index t = 0; t < static_cast<Index>(rounds); ++t) {
    if (t > 0) {
      // x_t = W x_{t−1} + ν_{t−1} + g_t, ν^j = Σ_i W_ji ξ^{i→j} at round t−1.
      DenseMatrix nu = DenseMatrix::Zero(ni, m);
      for (NodeId i = 0; i < n; ++i) {
        const auto nbrs = g.neighbors(i);
        for (std::size_t k = 0; k < nbrs.size(); ++k) {
          const Index arc = arc_offset[i] + static_cast<Index>(k);
          nu.row(nbrs[k]).segment((t - 1) * arcs, arcs) += wd(nbrs[k], i) * xi.row(arc);
        }
      }
      xg = wd * xg;
      xz = wd * xz + nu;
    }
    xg.block(0, t * ni, ni, ni).diagonal().array() += 1.0;
    for (const auto& [arc, sender] : observed) {
      out.view.A.row(row) = xg.row(sender);
      out.view.B.row(row) = xz.row(sender);
      out.view.B.row(row).segment(t * arcs, arcs) += xi.row(arc);
      out.row_rounds.push_back(static_cast<std::size_t>(t));
      ++row;
    }
  }
  finish_view(out, owners, attackers, n);
  return out;
}

}  // namespace

std::string_view to_string(MfTrust trust) { return util::name_of(kTrustNames, trust); }

std::string_view to_string(MfAlgorithm algorithm) { return util::name_of(kAlgorithmNames, algorithm); }

MfTrust parse_mf_trust(std::string_view name) { return util::parse_enum(kTrustNames, name, "trust model"); }

MfAlgorithm parse_mf_algorithm(std::string_view name) {
  return util::parse_enum(kAlgorithmNames, name, "MF algorithm");
}

MfView build_mf_view(const gossip::GossipMatrix& w, std::size_t rounds, const MfAlgorithmSpec& spec,
                     const MfAdversary& adversary) {
  require(rounds >= 1, "rounds (gradient steps T) must be >= 1, got {}", rounds);
  require(spec.gossip_steps >= 1, "gossip_steps (K) must be >= 1, got {}", spec.gossip_steps);
  require(spec.gossip_steps == 1 || spec.algorithm == MfAlgorithm::muffliato_sgd,
          "gossip_steps = {} is only meaningful for muffliato-sgd; {} uses K = 1", spec.gossip_steps,
          to_string(spec.algorithm));
  require(spec.correlation.size() == 0 || spec.algorithm == MfAlgorithm::mf_d_sgd,
          "a correlation matrix is only used by mf-d-sgd, not {}", to_string(spec.algorithm));
  const auto attackers = validated_attackers(adversary, w.num_nodes());
  if (spec.algorithm == MfAlgorithm::zip_dl) return build_zip_dl_view(w, rounds, adversary, attackers);
  return build_gossip_view(w, rounds, spec, adversary, attackers);
}

std::size_t checked_cyclic_separation(std::size_t rounds, std::size_t participations,
                                      std::size_t separation) {
  require(rounds >= 1, "rounds T must be >= 1, got {}", rounds);
  require(participations >= 1, "participations k must be >= 1, got {}", participations);
  require(participations <= rounds, "participations k = {} must be <= rounds T = {}", participations, rounds);
  const std::size_t b = separation == 0 ? (rounds + participations - 1) / participations : separation;
  require(
      participations * b <= rounds || separation == 0,
      "participations k = {} times separation b = {} is {} > rounds T = {} (a record cannot participate k "
      "times b steps apart)",
      participations, b, participations * b, rounds);
  return std::min(b, rounds);
}

std::vector<std::vector<std::size_t>> participation_classes(const MfParticipation& participation,
                                                            std::size_t rounds) {
  require(rounds >= 1, "rounds (gradient steps T) must be >= 1, got {}", rounds);
  std::vector<std::vector<std::size_t>> classes;
  if (participation.kind == MfParticipation::Kind::every_round) {
    classes.emplace_back();
    for (std::size_t t = 0; t < rounds; ++t) classes.back().push_back(t);
    return classes;
  }
  require(participation.k >= 1, "(k, b)-cyclic participation needs k >= 1 participations, got {}",
          participation.k);
  require(participation.b >= 1 && participation.b <= rounds,
          "(k, b)-cyclic participation needs 1 <= b <= T = {}, got b = {}", rounds, participation.b);
  for (std::size_t j = 0; j < participation.b; ++j) {
    classes.emplace_back();
    for (std::size_t i = 0; i < participation.k && j + i * participation.b < rounds; ++i) {
      classes.back().push_back(j + i * participation.b);
    }
  }
  return classes;
}

}  // namespace netdp::accounting
