#include "netdp/cli/app.hpp"

#include <charconv>
#include <cstdint>
#include <exception>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "netdp/util/memory.hpp"
#include "train_output.hpp"

namespace netdp::cli {
namespace {

/// Every unsigned option (counts, node ids, seeds) of `app` and its subcommands refuses a negative
/// value and one past 2^64 − 1: the conversion to an unsigned type would wrap -3 to 2^64 − 3, or
/// saturate, a count that then allocates until the process is killed.
void refuse_negative_counts(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    if (option->get_type_name() != "UINT") continue;
    option->check(CLI::Validator(
        [](std::string& value) {
          const auto first = value.find_first_not_of(" \t");
          if (first != std::string::npos && value[first] == '-')
            return std::string("must be a whole number >= 0, got ") + value;
          // Past 2^64 − 1 the conversion would saturate to a count no run can reach.
          std::uint64_t parsed = 0;
          const char* begin = value.data() + (first == std::string::npos ? value.size() : first);
          if (std::from_chars(begin, value.data() + value.size(), parsed).ec ==
              std::errc::result_out_of_range)
            return std::string("must be a whole number below 2^64, got ") + value;
          return std::string();
        },
        "", "not negative"));
  }
  for (CLI::App* sub : app.get_subcommands({})) refuse_negative_counts(*sub);
}

}  // namespace

int run(int argc, char** argv) {
  CLI::App app{"netdp: pairwise privacy accounting for differentially private decentralized learning"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("netdp ") + kNetdpVersion);
  add_graph_command(app);
  add_dp_command(app);
  add_gossip_command(app);
  add_account_command(app);
  add_compare_command(app);
  add_asymptotic_command(app);
  add_train_command(app);
  add_factorize_command(app);
  add_audit_command(app);
  add_help_command(app);
  refuse_negative_counts(app);
  try {
    app.parse(argc, argv);
  } catch (const ExitStatus& e) {
    return e.code;
  } catch (const CLI::ParseError& e) {
    const int status = app.exit(e);
    return status == 0 ? 0 : 2;
  } catch (const std::invalid_argument& e) {
    std::cerr << "netdp: error: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    const std::vector<CLI::App*> parsed = app.get_subcommands();
    const std::string who = parsed.empty() ? "netdp" : "netdp " + parsed.front()->get_name();
    std::cerr << "netdp: error: " << util::out_of_memory_message(who, "--max-memory") << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "netdp: failure: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace netdp::cli
