#pragma once
// Private to the cli module: `netdp account` requests, and one adapter per
// accountant that computes the noise-independent structure once and then
// produces rows for any σ (so that calibration re-evaluates cheaply).

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "account_report.hpp"
#include "netdp/gossip/gossip_matrix.hpp"

namespace netdp::cli {

struct AccountRequest {
  std::string method = "muffliato";  ///< muffliato | random-walk | linear-system | mf
  std::size_t rounds = 10;
  double sigma = 1.0;
  double delta = 1e-5;
  std::optional<double> alpha;
  double sensitivity = 1.0;  ///< Δ
  std::optional<graph::NodeId> observer;
  std::optional<graph::NodeId> target;
  std::vector<graph::NodeId> colluders;
  std::string schedule = "fixed";
  std::string weights = "hamilton";  ///< weighting of time-varying schedules' graphs
  std::uint64_t seed = 1;
  // muffliato
  bool authors_convention = false;
  bool count_observer_noise = false;
  std::vector<graph::NodeId> group;  ///< Theorem 13: a group of targets
  std::size_t gradient_steps = 0;    ///< Muffliato-GD: gradient steps (0 = plain gossip averaging)
  // random-walk
  std::optional<double> contributions;
  bool sender_known = false;
  // linear-system
  std::string view = "secure-sum";
  std::optional<int> first_power;
  std::size_t gossip_steps = 1;
  bool keep_observer_noise = false;
  std::string sign_search = "none";
  // mf
  std::string trust = "pndp";
  std::string algorithm = "dp-d-sgd";
  std::size_t participations = 0;
  std::size_t separation = 0;
  std::string correlation_path;
};

/// Called as progress(done, total) during the structural computation.
using Progress = std::function<void(std::size_t done, std::size_t total)>;

class Accountant {
 public:
  virtual ~Accountant() = default;
  /// The per-pair rows at noise σ (distance left unset).
  virtual std::vector<AccountRow> rows(double sigma) const = 0;
  /// Whether the rows are μ-GDP (then ε is monotone in μ ∝ 1/σ).
  virtual bool gaussian() const = 0;
  /// How many noisy releases of a target's data a local-DP observer would see.
  virtual double releases() const = 0;
  virtual std::vector<std::string> warnings() const { return {}; }
  /// Extra per-observer summary fields at noise σ (e.g. Muffliato's T_v and eq. 7).
  virtual std::map<graph::NodeId, nlohmann::ordered_json> observer_extras(double /*sigma*/) const {
    return {};
  }
};

/// Validates the request against the matrix (nodes in range, method-specific
/// options) and computes the accountant's structure. Throws std::invalid_argument.
std::unique_ptr<Accountant> make_accountant(const gossip::GossipMatrix& w, const AccountRequest& request,
                                            const Progress& progress);

}  // namespace netdp::cli
