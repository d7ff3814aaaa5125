#pragma once
// Every accountant's options by the names that `netdp account` and `netdp.account` give them
// (the flag without its dashes; in Python, dashes become underscores), and the one place that
// turns them into a PairwiseAccount. The command line, the audit and the Python bindings fill an
// AccountRequest and call make_account; none of them maps options to accountants on its own.
// Errors name the options as the command line spells them (`--bound`), the messages every front
// end shows (docs/cli.md, docs/python.md).

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "netdp/accounting/pairwise.hpp"
#include "netdp/util/types.hpp"

namespace netdp::accounting {

struct AccountRequest {
  std::string method = "muffliato";  ///< muffliato | random-walk | linear-system | mf
  // muffliato
  std::string bound = "exact";        ///< exact (the whole view) | paper (Theorems 1/6/11/12/13: not a bound)
  bool authors_convention = false;    ///< powers 1..T, no t = 0 exchange (the authors' code)
  bool count_observer_noise = false;  ///< --bound paper: Theorem 1 as printed
  std::size_t gradient_steps = 0;     ///< > 0: Muffliato-GD with this many steps of `rounds` rounds
  double exact_effort = kDefaultExactEffort;  ///< MuffliatoOptions::exact_effort
  // random-walk
  std::string contributions = "tail";  ///< tail | worst | expected | a cap K (a number)
  double tail_share = 0.1;             ///< the share of δ spent on the tail count
  bool sender_known = false;           ///< Appendix B.1's view
  // linear-system
  std::string view = "secure-sum";  ///< secure-sum | secure-sum-adaptive | plain
  std::optional<int> first_power;   ///< 0 or 1 (default: the paper's)
  bool keep_observer_noise = false;
  // linear-system, mf (and Muffliato-GD's release dimension)
  std::size_t gossip_steps = 1;              ///< K
  std::string sign_search = "none";          ///< none | auto (scalar releases)
  std::string release_dimension = "vector";  ///< vector | 1 | p
  // mf
  std::string trust = "pndp";          ///< ldp | pndp | secldp
  std::string algorithm = "dp-d-sgd";  ///< dp-d-sgd | muffliato-sgd | antipgd | decor | zip-dl | mf-d-sgd
  std::size_t participations = 0;      ///< k of (k, b)-cyclic participation (0: every round)
  std::size_t separation = 0;          ///< b
  DenseMatrix correlation;             ///< mf-d-sgd's C (a front end reads `--correlation`)
  // every method
  /// Keep each pair's fields beyond μ (the linear views' sensitivity fields, 88 bytes a pair) for
  /// its row. A front end that prints no rows (a summary, a matrix of one field) sets false: the
  /// rows then carry no `sensitivity`, and an all-pairs linear-system account holds its μ only.
  bool pair_fields = true;
};

/// Checks that every option set applies to the method and holds a valid value; throws
/// std::invalid_argument naming the option and the rule (make_account calls it).
void check_request(const AccountRequest& request);

/// The account of `request` for the protocol and query (built at σ = 1).
std::unique_ptr<PairwiseAccount> make_account(const Protocol& protocol, const PairQuery& query,
                                              const AccountRequest& request,
                                              const ProgressCallback& progress = {});

/// The linear-system view of `view`, `first_power`, `gossip_steps`, `keep_observer_noise` (rounds
/// are the protocol's, set by the accountant).
LinearSystemOptions linear_system_options(const AccountRequest& request);
/// The random walk's view: Appendix B.1's with `sender_known`, else eq. (7)'s anonymous sender.
RandomWalkView random_walk_view(const AccountRequest& request);
/// `sign_search` and `release_dimension`, parsed.
AssessOptions release_options(const AccountRequest& request);
/// The MF algorithm of `algorithm`, `gossip_steps` and `correlation`.
MfAlgorithmSpec mf_algorithm_spec(const AccountRequest& request);
/// Every round, or (participations, separation)-cyclic over `rounds` steps (separation 0: ⌈T/k⌉),
/// checked by checked_cyclic_separation.
MfParticipation mf_participation(const AccountRequest& request, std::size_t rounds);
/// "every-round" or "cyclic:k=K,b=B".
std::string mf_participation_name(const AccountRequest& request);

}  // namespace netdp::accounting
