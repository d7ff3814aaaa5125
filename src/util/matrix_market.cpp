// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/util/matrix_market.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <istream>
#include <optional>
#include <ostream>
#include <string_view>

#include "netdp/util/atomic_file.hpp"
#include "netdp/util/check.hpp"
#include "netdp/util/enum_names.hpp"
#include "netdp/util/memory.hpp"
#include "netdp/util/text_lines.hpp"

namespace netdp::util {
namespace {

constexpr auto kFieldNames = std::to_array<EnumName<MatrixMarketField>>({
    {MatrixMarketField::real, "real"},
    {MatrixMarketField::integer, "integer"},
    {MatrixMarketField::pattern, "pattern"},
});
static_assert(is_valid_enum_table(kFieldNames));
constexpr auto kSymmetryNames = std::to_array<EnumName<MatrixMarketSymmetry>>({
    {MatrixMarketSymmetry::general, "general"},
    {MatrixMarketSymmetry::symmetric, "symmetric"},
});
static_assert(is_valid_enum_table(kSymmetryNames));

std::string lowercase(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

bool parse_u64(std::string_view token, std::uint64_t& out) {
  const char* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), end, out);
  return ec == std::errc() && ptr == end;
}

bool parse_double(std::string_view token, double& out) {
  const char* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), end, out);
  return ec == std::errc() && ptr == end && std::isfinite(out);
}

MatrixMarketHeader parse_banner(TextLines& reader) {
  std::string line;
  require(reader.next(line), "{}: empty file (expected a %%MatrixMarket banner)", reader.source());
  const std::string lower = lowercase(line);
  const std::vector<std::string_view> words = split_whitespace(lower);
  if (words.size() != 5 || words[0] != "%%matrixmarket" || words[1] != "matrix") {
    reader.fail(line, "expected banner '%%MatrixMarket matrix coordinate <field> <symmetry>'");
  }
  if (words[2] != "coordinate") reader.fail(line, "only the 'coordinate' format is supported");
  const std::optional<MatrixMarketField> field = find_enum(kFieldNames, words[3]);
  if (!field) reader.fail(line, "field must be one of: " + names_of(kFieldNames));
  const std::optional<MatrixMarketSymmetry> symmetry = find_enum(kSymmetryNames, words[4]);
  if (!symmetry) reader.fail(line, "symmetry must be one of: " + names_of(kSymmetryNames));
  MatrixMarketHeader header;
  header.field = *field;
  header.symmetry = *symmetry;
  return header;
}

void parse_size_line(TextLines& reader, MatrixMarketHeader& header) {
  std::string line;
  while (reader.next(line)) {
    if (is_blank(line) || line[0] == '%') continue;
    const std::vector<std::string_view> words = split_whitespace(line);
    if (words.size() != 3 || !parse_u64(words[0], header.rows) || !parse_u64(words[1], header.cols) ||
        !parse_u64(words[2], header.nnz)) {
      reader.fail(line, "expected the size line 'rows cols entries' (non-negative integers)");
    }
    if (header.symmetry == MatrixMarketSymmetry::symmetric && header.rows != header.cols) {
      reader.fail(line, "a symmetric matrix must be square");
    }
    return;
  }
  throw std::invalid_argument(fmt::format("{}: missing the size line 'rows cols entries'", reader.source()));
}

MatrixMarketEntry parse_entry(TextLines& reader, const std::string& line, const MatrixMarketHeader& header) {
  const std::vector<std::string_view> words = split_whitespace(line);
  const std::size_t expected = header.field == MatrixMarketField::pattern ? 2 : 3;
  if (words.size() != expected) {
    reader.fail(line, fmt::format("expected {} fields per entry", expected));
  }
  std::uint64_t row = 0;
  std::uint64_t col = 0;
  if (!parse_u64(words[0], row) || !parse_u64(words[1], col)) {
    reader.fail(line, "indices must be positive integers");
  }
  if (row < 1 || row > header.rows || col < 1 || col > header.cols) {
    reader.fail(line, fmt::format("index outside 1..{} x 1..{}", header.rows, header.cols));
  }
  if (header.symmetry == MatrixMarketSymmetry::symmetric && row < col) {
    reader.fail(line, "a symmetric file stores the lower triangle only (row >= col)");
  }
  MatrixMarketEntry entry{row - 1, col - 1, 1.0};
  if (header.field != MatrixMarketField::pattern) {
    if (!parse_double(words[2], entry.value)) reader.fail(line, "value is not a finite number");
    if (header.field == MatrixMarketField::integer && entry.value != std::floor(entry.value)) {
      reader.fail(line, "value of an integer matrix is not an integer");
    }
  }
  return entry;
}

}  // namespace

MatrixMarketData parse_matrix_market(std::istream& in, const std::string& source,
                                     const MatrixMarketHeaderCheck& check_header) {
  TextLines reader(in, source);
  MatrixMarketData data;
  data.header = parse_banner(reader);
  parse_size_line(reader, data.header);
  require_memory(static_cast<double>(sizeof(MatrixMarketEntry)) * static_cast<double>(data.header.nnz),
                 fmt::format("{}: the {} entries its size line declares", source, data.header.nnz),
                 fmt::format("{} bytes per entry", sizeof(MatrixMarketEntry)),
                 "check the size line 'rows cols entries' of the file");
  if (check_header) check_header(data.header);
  // Reserve at most a modest amount up front: nnz comes from the file.
  data.entries.reserve(std::min<std::uint64_t>(data.header.nnz, 1u << 20));
  std::string line;
  while (reader.next(line)) {
    if (is_blank(line) || line[0] == '%') continue;
    if (data.entries.size() == data.header.nnz) {
      reader.fail(line, fmt::format("more entries than the {} announced", data.header.nnz));
    }
    data.entries.push_back(parse_entry(reader, line, data.header));
  }
  require(data.entries.size() == data.header.nnz, "{}: {} entries announced, {} found", source,
          data.header.nnz, data.entries.size());
  return data;
}

MatrixMarketData read_matrix_market(const std::string& path, const MatrixMarketHeaderCheck& check_header) {
  std::ifstream in(path);
  require_readable(static_cast<bool>(in), "cannot open Matrix Market file '{}' (missing or unreadable)",
                   path);
  return parse_matrix_market(in, path, check_header);
}

std::vector<MatrixMarketEntry> expand_symmetric(const MatrixMarketData& data) {
  std::vector<MatrixMarketEntry> out = data.entries;
  if (data.header.symmetry == MatrixMarketSymmetry::symmetric) {
    for (const MatrixMarketEntry& e : data.entries) {
      if (e.row != e.col) out.push_back({e.col, e.row, e.value});
    }
  }
  return out;
}

void write_matrix_market(std::ostream& out, const MatrixMarketHeader& header,
                         const std::vector<MatrixMarketEntry>& entries) {
  const bool symmetric = header.symmetry == MatrixMarketSymmetry::symmetric;
  require(!symmetric || header.rows == header.cols, "a symmetric matrix must be square, got {} x {}",
          header.rows, header.cols);
  out << "%%MatrixMarket matrix coordinate " << name_of(kFieldNames, header.field) << ' '
      << name_of(kSymmetryNames, header.symmetry) << '\n';
  out << header.rows << ' ' << header.cols << ' ' << entries.size() << '\n';
  for (const MatrixMarketEntry& e : entries) {
    require(e.row < header.rows && e.col < header.cols, "entry ({}, {}) is outside the {} x {} matrix", e.row,
            e.col, header.rows, header.cols);
    require(!symmetric || e.row >= e.col,
            "entry ({}, {}) is in the upper triangle; a symmetric file stores row >= col", e.row, e.col);
    require(std::isfinite(e.value), "entry ({}, {}) has a non-finite value {}", e.row, e.col, e.value);
    switch (header.field) {
      case MatrixMarketField::pattern:
        out << fmt::format("{} {}\n", e.row + 1, e.col + 1);
        break;
      case MatrixMarketField::integer:
        require(e.value == std::floor(e.value), "entry ({}, {}) value {} is not an integer", e.row, e.col,
                e.value);
        out << fmt::format("{} {} {:.0f}\n", e.row + 1, e.col + 1, e.value);
        break;
      case MatrixMarketField::real:
        out << fmt::format("{} {} {:.17g}\n", e.row + 1, e.col + 1, e.value);
        break;
    }
  }
}

void write_matrix_market(const std::string& path, const MatrixMarketHeader& header,
                         const std::vector<MatrixMarketEntry>& entries) {
  write_file_atomically(path, [&](std::ostream& out) { write_matrix_market(out, header, entries); });
}

}  // namespace netdp::util
