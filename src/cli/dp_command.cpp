// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// `netdp dp`: μ-GDP <-> (ε, δ) conversions, RDP conversions and noise calibration.
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <ostream>
#include <vector>

#include "commands.hpp"
#include "netdp/dp/gdp.hpp"
#include "netdp/dp/rdp.hpp"
#include "netdp/util/check.hpp"
#include "output.hpp"

namespace netdp::cli {

namespace {

struct DpOptions {
  std::optional<double> mu;
  std::optional<double> delta;
  std::optional<double> epsilon;
  std::optional<double> target_epsilon;
  double sensitivity = 1.0;
  bool rdp = false;
  bool calibrate = false;
  OutputOptions output;
};

// The Gaussian RDP curve holds at every order, so extend the default grid (up to 1024)
// geometrically to 2^24: small μ and small targets have optimal orders in the thousands.
std::vector<double> gaussian_orders() {
  std::vector<double> orders = dp::default_rdp_orders();
  for (double alpha = 2048.0; alpha <= 16777216.0; alpha *= 2.0) orders.push_back(alpha);
  return orders;
}

nlohmann::json rdp_json(const dp::RdpConversion& conversion) {
  return {{"epsilon", conversion.epsilon}, {"alpha", conversion.alpha}};
}

// μ-GDP of the Gaussian mechanism, converted at the requested δ or ε.
nlohmann::json convert(const DpOptions& o) {
  require(o.mu.has_value(), "netdp dp: give --mu (or --calibrate with --target-epsilon and --delta)");
  require(o.delta.has_value() != o.epsilon.has_value(),
          "netdp dp: give exactly one of --delta and --epsilon");
  const double mu = *o.mu;
  nlohmann::json result{{"mu", mu}};
  if (o.delta) {
    result["delta"] = *o.delta;
    result["epsilon"] = dp::gdp_epsilon(mu, *o.delta);
  } else {
    result["epsilon"] = *o.epsilon;
    result["delta"] = dp::gdp_delta(mu, *o.epsilon);
    result["log_delta"] = dp::gdp_log_delta(mu, *o.epsilon);
  }
  if (o.rdp) {
    require(o.delta.has_value(), "netdp dp: --rdp converts at a given --delta");
    const dp::RdpCurve curve = dp::gaussian_rdp_curve(mu, gaussian_orders());
    result["rdp"] = {
        {"rho", 0.5 * mu * mu},
        {"mironov", rdp_json(dp::rdp_to_dp(curve, *o.delta, dp::RdpConversionMethod::mironov))},
        {"improved", rdp_json(dp::rdp_to_dp(curve, *o.delta, dp::RdpConversionMethod::improved))}};
  }
  return result;
}

// Smallest σ (largest μ) meeting (target ε, δ) for the given L2 sensitivity.
nlohmann::json calibrate(const DpOptions& o) {
  require(o.target_epsilon.has_value() && o.delta.has_value(),
          "netdp dp --calibrate: give --target-epsilon and --delta");
  require(!o.mu.has_value() && !o.epsilon.has_value(),
          "netdp dp --calibrate: --mu and --epsilon do not apply");
  const double epsilon = *o.target_epsilon;
  const double delta = *o.delta;
  nlohmann::json result{{"epsilon", epsilon},
                        {"delta", delta},
                        {"sensitivity", o.sensitivity},
                        {"mu", dp::gdp_mu_for(epsilon, delta)},
                        {"sigma", dp::gdp_sigma_for(epsilon, delta, o.sensitivity)}};
  if (o.rdp) {
    const dp::RdpCurve unit = dp::gaussian_rdp_curve(1.0, gaussian_orders());
    result["rdp"] = {{"mironov",
                      {{"sigma", dp::rdp_sigma_for(unit, epsilon, delta, o.sensitivity,
                                                   dp::RdpConversionMethod::mironov)}}},
                     {"improved",
                      {{"sigma", dp::rdp_sigma_for(unit, epsilon, delta, o.sensitivity,
                                                   dp::RdpConversionMethod::improved)}}}};
  }
  return result;
}

void print_dp_result(std::ostream& out, const nlohmann::json& r) {
  const auto row = [&out](const char* name, double value) {
    out << fmt::format("{:<14}{:.12g}\n", name, value);
  };
  row("mu", r["mu"].get<double>());
  row("epsilon", r["epsilon"].get<double>());
  row("delta", r["delta"].get<double>());
  if (r.contains("log_delta")) row("log_delta", r["log_delta"].get<double>());
  if (r.contains("sigma")) {
    row("sensitivity", r["sensitivity"].get<double>());
    row("sigma", r["sigma"].get<double>());
  }
  if (r.contains("rdp")) {
    const auto& rdp = r["rdp"];
    if (rdp.contains("rho")) row("rdp rho", rdp["rho"].get<double>());
    for (const char* method : {"mironov", "improved"}) {
      const auto& m = rdp[method];
      if (m.contains("alpha")) {
        out << fmt::format("{:<14}epsilon {:.12g} at alpha {:.6g}\n", fmt::format("rdp {}", method),
                           m["epsilon"].get<double>(), m["alpha"].get<double>());
      } else {
        out << fmt::format("{:<14}sigma {:.12g}\n", fmt::format("rdp {}", method), m["sigma"].get<double>());
      }
    }
  }
}

}  // namespace

void add_dp_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "dp", "Privacy currencies: mu-GDP <-> (epsilon, delta), RDP conversions, noise calibration");
  auto options = std::make_shared<DpOptions>();
  cmd->add_option("--mu", options->mu, "GDP parameter mu of the (composed) Gaussian mechanism");
  cmd->add_option("--delta", options->delta, "Target delta in (0, 1): report the smallest epsilon");
  cmd->add_option("--epsilon", options->epsilon, "Epsilon >= 0: report the exact delta(epsilon)");
  cmd->add_flag(
      "--rdp", options->rdp,
      "Also convert through RDP (alpha*mu^2/2): Mironov 2017 and Canonne-Kamath-Steinke 2020, with alpha");
  cmd->add_flag("--calibrate", options->calibrate,
                "Find the largest mu / smallest sigma meeting --target-epsilon at --delta");
  cmd->add_option("--target-epsilon", options->target_epsilon, "Target epsilon for --calibrate");
  cmd->add_option("--sensitivity", options->sensitivity,
                  "L2 sensitivity for --calibrate (sigma = sensitivity/mu)")
      ->capture_default_str();
  add_output_options(cmd, options->output);
  cmd->callback([options] {
    const nlohmann::json result = options->calibrate ? calibrate(*options) : convert(*options);
    print_result(options->output, result, [&result](std::ostream& out) { print_dp_result(out, result); });
  });
}

}  // namespace netdp::cli
