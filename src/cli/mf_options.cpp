#include "mf_options.hpp"

#include <fmt/format.h>

#include "netdp/mf/correlation_io.hpp"
#include "netdp/util/check.hpp"

namespace netdp::cli {

accounting::MfAlgorithmSpec MfCommandOptions::algorithm_spec(std::size_t gossip_steps) const {
  accounting::MfAlgorithmSpec spec;
  spec.algorithm = accounting::parse_mf_algorithm(algorithm);
  spec.gossip_steps = gossip_steps;
  if (!correlation_path.empty()) spec.correlation = mf::read_correlation(correlation_path);
  require(spec.algorithm != accounting::MfAlgorithm::mf_d_sgd || !correlation_path.empty(),
          "--algorithm mf-d-sgd needs --correlation C.mtx");
  return spec;
}

accounting::MfParticipation MfCommandOptions::participation() const {
  if (participations > 0 || separation > 0)
    return accounting::MfParticipation::cyclic(participations, separation);
  return accounting::MfParticipation::every_round();
}

std::string MfCommandOptions::participation_name() const {
  return participations > 0 ? fmt::format("cyclic:k={},b={}", participations, separation) : "every-round";
}

void add_mf_options(CLI::App* command, MfCommandOptions& options) {
  command->add_option("--trust", options.trust, "mf: ldp | pndp | secldp")->capture_default_str();
  command
      ->add_option("--algorithm", options.algorithm,
                   "mf: dp-d-sgd | muffliato-sgd | antipgd | decor | zip-dl | mf-d-sgd")
      ->capture_default_str();
  command->add_option("--participations", options.participations, "mf: k of (k, b)-cyclic participation");
  command->add_option("--separation", options.separation, "mf: b of (k, b)-cyclic participation");
  command->add_option("--correlation", options.correlation_path,
                      "mf: Matrix Market file of the correlation C (mf-d-sgd)");
}

}  // namespace netdp::cli
