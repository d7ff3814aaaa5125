// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// One account across the processes of a run (distributed_account.hpp).

#include "netdp/mpi/distributed_account.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <new>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "mpi/transfer.hpp"
#include "netdp/mpi/world.hpp"
#include "netdp/util/check.hpp"

namespace netdp::mpi {

namespace {

using accounting::PairwiseAccount;

constexpr int kTagAccount = 1;
constexpr int kTagRows = 2;
constexpr int kTagCurve = 3;

// ------------------------------------------------------------------ Gaussian accounts

/// Rank 0: its own share's account joined with every other rank's grid, in rank order.
std::unique_ptr<PairwiseAccount> gather_gaussian(std::unique_ptr<PairwiseAccount> local) {
  const World w = world();
  std::vector<accounting::UnitMuGrid> grids;
  std::vector<accounting::GaussianPairwiseAccount::Info> infos;
  const auto* own = dynamic_cast<const accounting::GaussianPairwiseAccount*>(local.get());
  require(own != nullptr, "a Gaussian account of rank 0 is not a GaussianPairwiseAccount");
  grids.push_back(own->grid());
  infos.push_back(own->info());
  local.reset();
  for (int rank = 1; rank < w.size; ++rank) {
    const std::vector<char> bytes = detail::receive_bytes(rank, kTagAccount);
    detail::ByteReader in(bytes);
    if (in.get<std::uint8_t>() == 0) continue;  // an empty share
    grids.push_back(detail::get_grid(in));
    infos.push_back(detail::get_info(in));
  }
  return accounting::join_gaussian_accounts(std::move(grids), std::move(infos));
}

/// A rank other than 0: its share's grid and info to rank 0.
void send_gaussian(const PairwiseAccount* local) {
  detail::ByteWriter out;
  const auto* account = dynamic_cast<const accounting::GaussianPairwiseAccount*>(local);
  out.put<std::uint8_t>(account != nullptr ? 1 : 0);
  if (account != nullptr) {
    detail::put_grid(out, account->grid());
    detail::put_info(out, account->info());
  }
  detail::send_bytes(out.bytes(), 0, kTagAccount);
}

// ------------------------------------------------------------------ accounts evaluated per (σ, δ)

/// What rank 0 asks of the other ranks.
struct Command {
  enum Kind : std::int32_t { done = 0, stream = 1, curve = 2 };
  Kind kind = done;
  double sigma = 0.0;
  double delta = 0.0;
  graph::NodeId observer = 0;
  graph::NodeId target = 0;
  std::int32_t owner = 0;  ///< curve: the rank whose share holds the observer
};

void broadcast(Command& command) { detail::broadcast_bytes(&command, sizeof(Command), 0); }

/// A rank's share's rows at (σ, δ), chunk by chunk, as one byte string.
std::vector<char> share_rows(const PairwiseAccount* local, double sigma, double delta) {
  detail::ByteWriter out;
  if (local != nullptr)
    local->stream_rows(sigma, delta,
                       [&out](std::span<const accounting::PairRow> rows) { detail::put_rows(out, rows); });
  return std::move(out.bytes());
}

/// The other ranks' side: build their share, tell rank 0 its size and diagnostics, then answer
/// rank 0's commands until it is done. A failure here stops the run (rank 0 is waiting).
void serve(const PairwiseAccount* local) {
  detail::ByteWriter facts;
  facts.put<std::uint64_t>(local != nullptr ? local->pair_count() : 0);
  const std::vector<accounting::Diagnostic> diagnostics =
      local != nullptr ? local->diagnostics() : std::vector<accounting::Diagnostic>{};
  detail::put_diagnostics(facts, diagnostics);
  detail::send_bytes(facts.bytes(), 0, kTagAccount);
  for (;;) {
    Command command;
    broadcast(command);
    if (command.kind == Command::done) return;
    try {
      if (command.kind == Command::stream) {
        detail::send_bytes(share_rows(local, command.sigma, command.delta), 0, kTagRows);
      } else if (command.kind == Command::curve && command.owner == world().rank) {
        detail::ByteWriter out;
        try {
          const dp::RdpCurve curve =
              local->rdp_curve(command.observer, command.target, command.sigma, command.delta);
          out.put<std::uint8_t>(1);
          out.put_vector(std::span<const double>(curve.orders()));
          out.put_vector(std::span<const double>(curve.epsilons()));
        } catch (const std::invalid_argument& e) {
          out.put<std::uint8_t>(0);
          out.put_string(e.what());
        }
        detail::send_bytes(out.bytes(), 0, kTagCurve);
      }
    } catch (const std::bad_alloc&) {
      worker_failure("out of memory while computing its share's rows", 2);
    } catch (const std::exception& e) {
      worker_failure(e.what(), 1);
    }
  }
}

/// Rank 0's account of every observer when the rows are computed at each (σ, δ): its own share's
/// account, then every other rank's rows, asked for at each stream.
class RowsFromEveryRank final : public PairwiseAccount {
 public:
  RowsFromEveryRank(std::unique_ptr<PairwiseAccount> local, std::vector<std::vector<graph::NodeId>> shares)
      : local_(std::move(local)),
        shares_(std::move(shares)),
        pair_count_(local_->pair_count()),
        diagnostics_(local_->diagnostics()) {
    for (int rank = 1; rank < world().size; ++rank) {
      const std::vector<char> bytes = detail::receive_bytes(rank, kTagAccount);
      detail::ByteReader in(bytes);
      pair_count_ += in.get<std::uint64_t>();
      accounting::merge_diagnostics(diagnostics_, detail::get_diagnostics(in));
    }
  }
  ~RowsFromEveryRank() override {
    // After a failed stream the other ranks may still be sending: the run is stopped instead
    // (Session::finish aborts on the failure's status).
    if (broken_) return;
    Command command;
    broadcast(command);
  }
  RowsFromEveryRank(const RowsFromEveryRank&) = delete;
  RowsFromEveryRank& operator=(const RowsFromEveryRank&) = delete;

  std::string_view method() const override { return local_->method(); }
  bool gaussian() const override { return local_->gaussian(); }
  std::size_t pair_count() const override { return pair_count_; }
  double releases(double delta) const override { return local_->releases(delta); }
  double sensitivity() const override { return local_->sensitivity(); }
  std::vector<accounting::Diagnostic> diagnostics() const override { return diagnostics_; }
  accounting::Guarantee guarantee() const override { return local_->guarantee(); }
  std::optional<double> certificate_failure_probability() const override {
    return local_->certificate_failure_probability();
  }
  std::vector<accounting::ObserverDetail> observer_details(double sigma) const override {
    return local_->observer_details(sigma);
  }

  void stream_rows(double sigma, double delta, const accounting::RowSink& sink) const override {
    require(!broken_, "the ranks of this run stopped answering after a failed stream");
    Command command;
    command.kind = Command::stream;
    command.sigma = sigma;
    command.delta = delta;
    broadcast(command);
    broken_ = true;  // until every rank's rows are in
    local_->stream_rows(sigma, delta, sink);
    for (int rank = 1; rank < world().size; ++rank) {
      const std::vector<char> bytes = detail::receive_bytes(rank, kTagRows);
      detail::ByteReader in(bytes);
      while (!in.done()) {
        const std::vector<accounting::PairRow> rows = detail::get_rows(in);
        if (!rows.empty()) sink(rows);
      }
    }
    broken_ = false;
  }

  dp::RdpCurve rdp_curve(graph::NodeId observer, graph::NodeId target, double sigma,
                         double delta) const override {
    int owner = -1;
    for (std::size_t r = 0; r < shares_.size(); ++r)
      if (std::binary_search(shares_[r].begin(), shares_[r].end(), observer)) owner = static_cast<int>(r);
    require(owner >= 0, "({}, {}) is not a pair of this account", observer, target);
    if (owner == 0) return local_->rdp_curve(observer, target, sigma, delta);
    Command command{Command::curve, sigma, delta, observer, target, owner};
    broadcast(command);
    const std::vector<char> bytes = detail::receive_bytes(owner, kTagCurve);
    detail::ByteReader in(bytes);
    if (in.get<std::uint8_t>() == 0) throw std::invalid_argument(in.get_string());
    std::vector<double> orders = in.get_vector<double>();
    std::vector<double> values = in.get_vector<double>();
    return dp::RdpCurve(std::move(orders), std::move(values));
  }

 private:
  std::unique_ptr<PairwiseAccount> local_;
  std::vector<std::vector<graph::NodeId>> shares_;
  std::size_t pair_count_ = 0;
  std::vector<accounting::Diagnostic> diagnostics_;
  mutable bool broken_ = false;
};

}  // namespace

std::vector<double> observer_costs(const graph::Graph& g, accounting::Method method) {
  std::vector<double> cost(g.num_nodes(), 1.0);
  if (method == accounting::Method::random_walk) return cost;
  for (graph::NodeId v = 0; v < g.num_nodes(); ++v) {
    const double neighbourhood = static_cast<double>(g.degree(v)) + 1.0;
    cost[v] =
        method == accounting::Method::mf ? neighbourhood * neighbourhood * neighbourhood : neighbourhood;
  }
  return cost;
}

std::vector<std::vector<graph::NodeId>> balanced_shares(std::span<const double> cost, std::size_t parts) {
  require(parts >= 1, "observer shares: parts must be >= 1");
  for (const double c : cost)
    require(std::isfinite(c) && c >= 0.0, "observer shares: a cost must be finite and >= 0, got {}", c);
  std::vector<graph::NodeId> order(cost.size());
  std::iota(order.begin(), order.end(), graph::NodeId{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](graph::NodeId a, graph::NodeId b) { return cost[a] > cost[b]; });
  std::vector<std::vector<graph::NodeId>> shares(parts);
  std::vector<double> load(parts, 0.0);
  for (const graph::NodeId v : order) {
    const auto least = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    shares[least].push_back(v);
    load[least] += cost[v];
  }
  for (std::vector<graph::NodeId>& share : shares) std::sort(share.begin(), share.end());
  return shares;
}

std::vector<std::vector<graph::NodeId>> consecutive_shares(std::size_t n, std::size_t parts) {
  require(parts >= 1, "observer shares: parts must be >= 1");
  std::vector<std::vector<graph::NodeId>> shares(parts);
  graph::NodeId next = 0;
  for (std::size_t r = 0; r < parts; ++r) {
    const std::size_t size = n / parts + (r < n % parts ? 1 : 0);
    for (std::size_t k = 0; k < size; ++k) shares[r].push_back(next++);
  }
  return shares;
}

bool splits_observers(const accounting::Protocol& protocol, const accounting::PairQuery& query,
                      const accounting::AccountRequest& request) {
  if (query.observer || !query.colluders.empty() || !query.group.empty()) return false;
  const bool orbits =
      request.method == accounting::Method::muffliato && protocol.network.graph().symmetry_hints().count > 0;
  return !orbits;
}

std::unique_ptr<PairwiseAccount> make_distributed_account(const accounting::Protocol& protocol,
                                                          const accounting::PairQuery& query,
                                                          const accounting::AccountRequest& request,
                                                          const accounting::ProgressCallback& progress,
                                                          std::vector<ShareReport>* shares_out) {
  const World w = world();
  if (!w.distributed()) return accounting::make_account(protocol, query, request, progress);
  if (!splits_observers(protocol, query, request)) {
    // One view, or one observer per orbit: rank 0 builds the account whole; the others wait.
    return detail::agreed([&]() -> std::unique_ptr<PairwiseAccount> {
      if (w.rank != 0) return nullptr;
      return accounting::make_account(protocol, query, request, progress);
    });
  }
  // Every rank knows whether the account is Gaussian without asking: it is the method's. A
  // Gaussian account's grids are joined in observer order whatever the shares; the random walk's
  // rows stream rank after rank, so its shares are consecutive (and every pair costs the same).
  const bool gaussian = request.method != accounting::Method::random_walk;
  const auto parts = static_cast<std::size_t>(w.size);
  // The observers asked for (a sample, or every node), dealt out by their place in that list.
  std::vector<graph::NodeId> asked = query.observers;
  if (asked.empty()) {
    asked.resize(protocol.network.num_nodes());
    std::iota(asked.begin(), asked.end(), graph::NodeId{0});
  }
  const std::vector<double> node_cost = observer_costs(protocol.network.graph(), request.method);
  std::vector<double> cost;
  for (const graph::NodeId v : asked) cost.push_back(node_cost[v]);
  std::vector<std::vector<graph::NodeId>> shares =
      gaussian ? balanced_shares(cost, parts) : consecutive_shares(asked.size(), parts);
  for (std::vector<graph::NodeId>& share : shares)
    for (graph::NodeId& place : share) place = asked[place];
  const std::vector<graph::NodeId>& share = shares[static_cast<std::size_t>(w.rank)];
  double seconds = 0.0;
  std::unique_ptr<PairwiseAccount> local = detail::agreed([&]() -> std::unique_ptr<PairwiseAccount> {
    if (share.empty()) return nullptr;
    accounting::PairQuery mine = query;
    mine.observers = share;
    const auto start = std::chrono::steady_clock::now();
    auto account = accounting::make_account(protocol, mine, request, progress);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return account;
  });
  // How long each rank took on its share, at rank 0 (the run's balance, shown to the user).
  const std::array<double, 2> mine{static_cast<double>(share.size()), seconds};
  std::vector<double> all(2 * parts);
  MPI_Request gathered;
  MPI_Igather(mine.data(), 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, 0, MPI_COMM_WORLD, &gathered);
  detail::wait_for(gathered);
  if (shares_out != nullptr && w.rank == 0) {
    shares_out->clear();
    for (std::size_t r = 0; r < parts; ++r)
      shares_out->push_back({static_cast<int>(r), static_cast<std::size_t>(all[2 * r]), all[2 * r + 1]});
  }
  if (gaussian) {
    if (w.rank == 0) return gather_gaussian(std::move(local));
    send_gaussian(local.get());
    return nullptr;
  }
  if (w.rank == 0) return std::make_unique<RowsFromEveryRank>(std::move(local), std::move(shares));
  serve(local.get());
  return nullptr;
}

}  // namespace netdp::mpi
