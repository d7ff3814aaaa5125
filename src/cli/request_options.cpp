#include "request_options.hpp"

#include "netdp/mf/correlation_io.hpp"

namespace netdp::cli {

accounting::AccountRequest RequestOptions::resolved() const {
  accounting::AccountRequest out = request;
  if (!correlation_path.empty()) out.correlation = mf::read_correlation(correlation_path);
  return out;
}

void add_request_options(CLI::App* command, RequestOptions& options) {
  accounting::AccountRequest& r = options.request;
  command->add_option("--method", r.method, "muffliato | random-walk | linear-system | mf")
      ->capture_default_str();
  command->add_option("--gradient-steps", r.gradient_steps,
                      "muffliato: Muffliato-GD with this many gradient steps of --rounds gossip rounds each "
                      "(Theorem 6 / Theorem 11)");
  command
      ->add_option(
          "--bound", r.bound,
          "muffliato: exact (the observer's whole view) | paper (Theorems 1/6/11/12/13, not an upper "
          "bound on the view)")
      ->capture_default_str();
  command
      ->add_option("--exact-effort", r.exact_effort,
                   "muffliato (exact joint view): the largest view, in messages x nodes, computed in exact "
                   "arithmetic for its certificate; the targets a larger view reaches are reported at the "
                   "local-DP cap, counted as cap-undetermined")
      ->capture_default_str();
  command->add_flag(
      "--count-observer-noise", r.count_observer_noise,
      "muffliato --bound paper: count the observer's own noise as noise (Theorem 1 as printed)");
  command
      ->add_option(
          "--contributions", r.contributions,
          "random-walk: N_u of each target: tail (k with P(N_u > k) <= tail-share * delta, spent from "
          "delta), worst (T, or T/2 without self-loops), expected (T/n, the paper's: not a bound), or "
          "a number K (a cap the protocol enforces, Remark 5)")
      ->capture_default_str();
  command
      ->add_option(
          "--tail-share", r.tail_share,
          "random-walk --contributions tail: the share of delta spent on the count's failure probability")
      ->capture_default_str();
  command->add_flag("--sender-known", r.sender_known,
                    "random-walk: the observer knows who sent the token (Appendix B.1)");
  command->add_option("--view", r.view, "linear-system: secure-sum | secure-sum-adaptive | plain")
      ->capture_default_str();
  command->add_option("--first-power", r.first_power,
                      "linear-system: first power of W, 0 or 1 (default: the paper's)");
  command
      ->add_option("--gossip-steps,-K", r.gossip_steps,
                   "linear-system, mf: gossip steps per injection / gradient")
      ->capture_default_str();
  command
      ->add_option(
          "--release-dimension", r.release_dimension,
          "linear-system, mf, muffliato --gradient-steps: coordinates of each round's release: vector "
          "(any dimension: the certified SDP worst case) | 1 (scalar) | p")
      ->capture_default_str();
  command->add_option("--trust", r.trust, "mf: ldp | pndp | secldp")->capture_default_str();
  command
      ->add_option("--algorithm", r.algorithm,
                   "mf: dp-d-sgd | muffliato-sgd | antipgd | decor | zip-dl | mf-d-sgd")
      ->capture_default_str();
  command->add_option("--participations", r.participations, "mf: k of (k, b)-cyclic participation");
  command->add_option("--separation", r.separation, "mf: b of (k, b)-cyclic participation");
  command->add_option("--correlation", options.correlation_path,
                      "mf: Matrix Market file of the correlation C (mf-d-sgd)");
}

}  // namespace netdp::cli
