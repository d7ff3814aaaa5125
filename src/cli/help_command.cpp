// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// `netdp help [specs|graphs|schedules|weightings|options]`: the SPEC grammars the options take, each
// printed by the module that parses it (graph::spec_help from the SPEC table, gossip::weighting_help
// from the weighting table, gossip::schedule_spec_help beside the schedule parser), and the
// accountants' option reference from the option table (docs/reference/cli.md holds it).

#include <iostream>
#include <memory>
#include <string>

#include "commands.hpp"
#include "netdp/accounting/account/option_reference.hpp"
#include "netdp/gossip/network_spec.hpp"
#include "netdp/gossip/weighting.hpp"
#include "netdp/graph/spec.hpp"

namespace netdp::cli {

void add_help_command(CLI::App& app) {
  auto topic = std::make_shared<std::string>("specs");
  CLI::App* cmd = app.add_subcommand(
      "help",
      "The SPEC grammars: graphs (--graph), schedules (--schedule), weightings (--weights); and the "
      "accountants' options as a Markdown table (options; python-options: as Python keywords)");
  cmd->add_option("topic", *topic,
                  "specs (the three grammars) | graphs | schedules | weightings | options | python-options")
      ->check(CLI::IsMember({"specs", "graphs", "schedules", "weightings", "options", "python-options"}))
      ->capture_default_str();
  cmd->callback([topic] {
    const bool all = *topic == "specs";
    if (all || *topic == "graphs") std::cout << graph::spec_help();
    if (all) std::cout << "\n";
    if (all || *topic == "schedules") std::cout << gossip::schedule_spec_help();
    if (all) std::cout << "\n";
    if (all || *topic == "weightings") std::cout << gossip::weighting_help();
    if (*topic == "options")
      std::cout << accounting::account_options_markdown(accounting::OptionSpelling::command_line);
    if (*topic == "python-options")
      std::cout << accounting::account_options_markdown(accounting::OptionSpelling::python);
  });
}

}  // namespace netdp::cli
