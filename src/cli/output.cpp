#include "output.hpp"

#include <fstream>
#include <iostream>

#include "netdp/util/check.hpp"

namespace netdp::cli {

void add_output_options(CLI::App* command, OutputOptions& options) {
  command->add_flag("--json", options.json, "Print machine-readable JSON on stdout");
}

void print_result(const OutputOptions& options, const nlohmann::json& result,
                  const std::function<void(std::ostream&)>& human) {
  if (options.json) {
    std::cout << result.dump(2) << "\n";
  } else {
    human(std::cout);
  }
}

void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  require(static_cast<bool>(out), "cannot open output file '{}' for writing", path);
  out << text;
  out.close();
  require(static_cast<bool>(out), "failed to write output file '{}'", path);
}

}  // namespace netdp::cli
