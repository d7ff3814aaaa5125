// The netdp command: parses arguments and hands over to the cli module.
#include "netdp/cli/app.hpp"

int main(int argc, char** argv) { return netdp::cli::run(argc, argv); }
