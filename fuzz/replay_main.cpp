// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Runs a fuzz target without libFuzzer (any compiler). Two modes:
//   replay FOLDER|FILE...       every file of the given folders (in name order) through
//                               LLVMFuzzerTestOneInput; `make test` runs it under ASan+UBSan, so each
//                               input that once crashed stays a regression case;
//   replay --random SECONDS [--seed S] [--keep DIR]
//                               random inputs (up to 96 bytes) for SECONDS: a property test for the
//                               targets whose input is a list of choices (the accountants). Before each
//                               input runs it is written to DIR/last-input (default: the working
//                               folder), so the input of a crash or abort is left there to replay.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

int run_random(double seconds, std::uint64_t seed, const std::filesystem::path& keep) {
  std::mt19937_64 engine(seed);
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  const std::filesystem::path last = keep / "last-input";
  std::size_t count = 0;
  std::vector<std::uint8_t> bytes;
  while (std::chrono::steady_clock::now() < end) {
    bytes.resize(engine() % 97);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(engine());
    std::ofstream(last, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    ++count;
  }
  std::filesystem::remove(last);
  std::cout << "ran " << count << " random inputs in " << seconds << " s (seed " << seed << "), no finding\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[1]) == "--random") {
    std::uint64_t seed = 1;
    std::filesystem::path keep = ".";
    for (int i = 3; i + 1 < argc; i += 2) {
      const std::string flag = argv[i];
      if (flag == "--seed") {
        seed = std::stoull(argv[i + 1]);
      } else if (flag == "--keep") {
        keep = argv[i + 1];
      } else {
        std::cerr << "replay: unknown option " << flag << "\n";
        return 2;
      }
    }
    return run_random(std::stod(argv[2]), seed, keep);
  }
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path path(argv[i]);
    if (!std::filesystem::is_directory(path)) {
      files.push_back(path);
      continue;
    }
    for (const auto& entry : std::filesystem::directory_iterator(path))
      if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::cerr << "replay: no corpus files given\n";
    return 1;
  }
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  std::cout << "replayed " << files.size() << " inputs\n";
  return 0;
}
