// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// The data readers that take a path: the first byte picks the reader (IDX images with a fixed
// labels file, CSV, LIBSVM), the rest is the file's content.
#include "fuzz_target.hpp"
#include "netdp/learn/dataset.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string content = netdp::fuzz::bytes_of(data + 1, size - 1);
  const std::string path = netdp::fuzz::temporary_file("data", content);
  netdp::fuzz::refuses_cleanly([&] {
    switch (data[0] % 4) {
      case 0: {
        // Two labels (IDX1, unsigned byte): 00 00 08 01, count 2, labels 0 and 1.
        const std::string labels = netdp::fuzz::temporary_file(
            "labels", std::string("\x00\x00\x08\x01\x00\x00\x00\x02\x00\x01", 10));
        (void)netdp::learn::read_idx(path, labels);
        break;
      }
      case 1:
        (void)netdp::learn::read_idx(
            netdp::fuzz::temporary_file(
                "images",
                std::string("\x00\x00\x08\x03\x00\x00\x00\x02\x00\x00\x00\x01\x00\x00\x00\x01\x05\x07", 18)),
            path);
        break;
      case 2: {
        netdp::learn::CsvOptions options;
        options.target_column = "y";
        (void)netdp::learn::read_csv(path, options);
        break;
      }
      default:
        (void)netdp::learn::read_libsvm(path);
    }
  });
  return 0;
}
