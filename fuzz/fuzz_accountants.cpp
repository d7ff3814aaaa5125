// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Every accountant on small drawn protocols: a graph (classic families and random graphs of up to
// 12 nodes), a weighting, T, a schedule, the pairs asked for and the accountant's options, all
// decoded from the input bytes, then built through make_account (the one entry point of the CLI,
// the audit and Python) and evaluated at two noise levels. A finding is a crash or sanitizer report,
// an exception other than std::invalid_argument (a refusal of a bad combination is expected), an ε
// or Rényi ε that is negative or not finite, or a pair whose ε rises when σ doubles.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "fuzz_target.hpp"
#include "netdp/accounting/account/account_request.hpp"
#include "netdp/gossip/network_spec.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/spec.hpp"

namespace {

using namespace netdp;

/// The input read as a sequence of small choices; past its end every choice is the first.
class Choices {
 public:
  Choices(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::size_t pick(std::size_t count) { return next() % count; }
  bool flag() { return (next() & 1U) != 0; }
  template <class T, std::size_t N>
  const T& one_of(const T (&options)[N]) {
    return options[pick(N)];
  }

 private:
  std::uint8_t next() { return used_ < size_ ? data_[used_++] : 0; }
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t used_ = 0;
};

std::string graph_spec(Choices& c) {
  const std::size_t n = 2 + c.pick(11);  // 2..12 nodes
  const std::string size = std::to_string(n);
  switch (c.pick(9)) {
    case 0:
      return "path:n=" + size;
    case 1:
      return "ring:n=" + std::to_string(std::max<std::size_t>(n, 3));
    case 2:
      return "star:n=" + size;
    case 3:
      return "complete:n=" + size;
    case 4:
      return "grid:rows=2,cols=" + std::to_string(1 + n / 2);
    case 5:
      return "hypercube:d=" + std::to_string(1 + c.pick(3));
    case 6:
      return "er:n=" + size + ",p=0.4,connected=1,seed=" + std::to_string(c.pick(256));
    case 7:
      return "ba:n=" + std::to_string(std::max<std::size_t>(n, 4)) +
             ",m=2,seed=" + std::to_string(c.pick(256));
    default:
      return "florentine";
  }
}

accounting::AccountRequest request_of(Choices& c) {
  // Set by name from text, as the command line and Python do (the option table's parser).
  accounting::AccountRequest r;
  const auto set = [&r](std::string_view name, std::string_view text) {
    accounting::set_account_option(r, name, text);
  };
  static const char* const kMethods[] = {"muffliato", "random-walk", "linear-system", "mf"};
  const std::string method = c.one_of(kMethods);
  set("method", method);
  static const char* const kDimensions[] = {"vector", "1", "2"};
  if (method == "muffliato") {
    const bool paper = !c.flag();
    set("bound", paper ? "paper" : "exact");
    r.authors_convention = c.flag();
    if (paper) r.count_observer_noise = c.flag();
    if (c.pick(4) == 0) {
      r.gradient_steps = 1 + c.pick(3);
      set("release_dimension", c.one_of(kDimensions));
    }
  } else if (method == "random-walk") {
    static const char* const kContributions[] = {"tail", "worst", "expected", "1", "3"};
    const std::string contributions = c.one_of(kContributions);
    set("contributions", contributions);
    if (contributions == "tail" && c.flag()) r.tail_share = 0.5;
    r.sender_known = c.flag();
  } else if (method == "linear-system") {
    static const char* const kViews[] = {"secure-sum", "secure-sum-adaptive", "plain"};
    const std::string view = c.one_of(kViews);
    set("view", view);
    if (c.flag()) r.first_power = static_cast<int>(c.pick(2));
    if (view == "secure-sum") r.gossip_steps = 1 + c.pick(3);  // K > 1: Theorem 8 only
    r.keep_observer_noise = c.pick(4) == 0;
    const std::string dimension = c.one_of(kDimensions);
    set("release_dimension", dimension);
    if (dimension == "1" && c.flag()) set("sign_search", "auto");
  } else {
    static const char* const kTrust[] = {"ldp", "pndp", "secldp"};
    static const char* const kAlgorithms[] = {"dp-d-sgd", "muffliato-sgd", "antipgd", "decor", "zip-dl"};
    set("trust", c.one_of(kTrust));
    const std::string algorithm = c.one_of(kAlgorithms);
    set("algorithm", algorithm);
    if (algorithm == "muffliato-sgd") r.gossip_steps = 1 + c.pick(2);
    set("release_dimension", c.one_of(kDimensions));
  }
  return r;
}

/// The finding: printed and aborted, so that libFuzzer and the corpus replay both stop on it.
[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "accountant finding: %s\n", what.c_str());
  std::abort();
}

void check_rows(const std::vector<accounting::PairRow>& low, const std::vector<accounting::PairRow>& high,
                const std::string& context) {
  if (low.size() != high.size()) finding(context + ": the row count depends on sigma");
  for (std::size_t i = 0; i < low.size(); ++i) {
    for (const auto* row : {&low[i], &high[i]}) {
      if (!std::isfinite(row->epsilon) || row->epsilon < 0.0 || !std::isfinite(row->rdp_epsilon) ||
          row->rdp_epsilon < 0.0)
        finding(context + ": epsilon " + std::to_string(row->epsilon) + ", Renyi epsilon " +
                std::to_string(row->rdp_epsilon) + " for observer " + std::to_string(row->observer) +
                ", target " + std::to_string(row->target));
    }
    if (high[i].epsilon > low[i].epsilon)
      finding(context + ": epsilon rises with sigma for observer " + std::to_string(low[i].observer) +
              ", target " + std::to_string(low[i].target) + ": " + std::to_string(low[i].epsilon) + " -> " +
              std::to_string(high[i].epsilon));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Choices c(data, size);
  gossip::NetworkSpec network;
  network.graph = graph_spec(c);
  network.weighting = gossip::kAllWeightings[c.pick(gossip::kAllWeightings.size())];
  accounting::AccountRequest request = request_of(c);
  const std::size_t rounds =
      request.method == accounting::Method::random_walk ? 1 + c.pick(64) : 1 + c.pick(6);
  static const char* const kSchedules[] = {"fixed", "fixed", "pairwise", "er-per-round:p=0.5",
                                           "dropout:p=0.7"};
  // The random walk and MF account a fixed W only.
  const bool fixed_only =
      request.method == accounting::Method::random_walk || request.method == accounting::Method::mf;
  const std::string schedule = fixed_only ? "fixed" : c.one_of(kSchedules);
  const std::size_t query_kind = c.pick(4);
  const std::size_t a = c.pick(12);
  const std::size_t b = c.pick(12);
  static const double kSigmas[] = {0.3, 1.0, 4.0, 25.0};
  const double sigma = c.one_of(kSigmas);
  const std::string context = network.graph + " " + std::string(gossip::weighting_name(network.weighting)) +
                              " T=" + std::to_string(rounds) + " " +
                              std::string(util::name_of(accounting::kMethodNames, request.method)) +
                              " schedule " + schedule;
  // NETDP_FUZZ_VERBOSE=1: each protocol, its row count or the refusal (to see what a corpus reaches).
  static const bool verbose = std::getenv("NETDP_FUZZ_VERBOSE") != nullptr;
  try {
    accounting::Protocol protocol(gossip::load_network(network));
    protocol.weighting = network.weighting;
    protocol.schedule = gossip::parse_schedule_spec(schedule);
    protocol.rounds = rounds;
    const std::size_t n = protocol.network.num_nodes();
    const auto first = static_cast<graph::NodeId>(a % n);
    const auto other = static_cast<graph::NodeId>((first + 1 + b % (n - 1)) % n);  // != first
    accounting::PairQuery query;
    if (query_kind == 1) query.observer = first;
    if (query_kind == 2) {
      query.observer = first;
      query.target = other;
    }
    if (query_kind == 3) query.colluders = {first, other};
    const auto account = accounting::make_account(protocol, query, request);
    constexpr double kDelta = 1e-5;
    const auto low = account->rows(sigma, kDelta);
    check_rows(low, account->rows(2.0 * sigma, kDelta), context);
    if (verbose) std::fprintf(stderr, "%s: %zu rows\n", context.c_str(), low.size());
  } catch (const std::invalid_argument& e) {
    if (verbose) std::fprintf(stderr, "%s: refused: %s\n", context.c_str(), e.what());
  }
  return 0;
}
