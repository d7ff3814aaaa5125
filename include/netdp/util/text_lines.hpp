// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Line-by-line reading of text files with the line number at hand, so that
// every parse error can cite "file: line N: why: 'content'".

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <istream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "netdp/util/memory.hpp"

namespace netdp::util {

class TextLines {
 public:
  /// `source` names the stream in messages (usually the path); it must outlive this object.
  TextLines(std::istream& in, const std::string& source) : in_(in), source_(source) {}

  /// The longest line read: 64 MiB, or a sixteenth of the memory limit when that is less (a line's
  /// text, its growth and its split tokens take up to ~16 bytes per byte read).
  static std::size_t max_line_bytes() {
    constexpr double kLongest = 64.0 * 1024 * 1024;
    return static_cast<std::size_t>(std::max(1024.0, std::min(kLongest, memory_limit() / 16.0)));
  }

  /// Reads the next line (a trailing '\r' is removed); false at end of input. Throws on a control
  /// byte other than a tab (NUL, ESC, …): the file is not text, and on a line longer than
  /// max_line_bytes(), both as soon as the byte is read: an unbounded stream (/dev/zero, a binary
  /// file) is never buffered whole.
  bool next(std::string& line) {
    line.clear();
    std::streambuf* buffer = in_.rdbuf();
    const std::size_t longest = max_line_bytes();
    bool any = false;
    for (;;) {
      const int c = buffer == nullptr ? std::char_traits<char>::eof() : buffer->sbumpc();
      if (c == std::char_traits<char>::eof()) {
        in_.setstate(any ? std::ios::eofbit : std::ios::eofbit | std::ios::failbit);
        if (!any) return false;
        break;
      }
      any = true;
      if (c == '\n') break;
      const auto byte = static_cast<unsigned char>(c);
      if ((byte < 0x20 && byte != '\t' && byte != '\r') || byte == 0x7f) {
        line += static_cast<char>(c);
        ++number_;
        fail(line, fmt::format("byte 0x{:02x} at column {}: not a text file", byte, line.size()));
      }
      if (line.size() == longest) {
        ++number_;
        fail(line, fmt::format("longer than {} bytes, the longest line read (64 MiB, or a sixteenth of the "
                               "memory limit of {}): not a text file of this format",
                               longest, format_bytes(memory_limit())));
      }
      line += static_cast<char>(c);
    }
    ++number_;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    for (std::size_t i = 0; i < line.size(); ++i) {
      const auto byte = static_cast<unsigned char>(line[i]);
      if ((byte < 0x20 && byte != '\t') || byte == 0x7f) {
        fail(line, fmt::format("byte 0x{:02x} at column {}: not a text file", byte, i + 1));
      }
    }
    return true;
  }

  /// Throws std::invalid_argument "source: line N: why: 'line'", the line cut at 120 characters and
  /// its bytes outside printable ASCII written as \xHH.
  [[noreturn]] void fail(std::string_view line, std::string_view why) const {
    throw std::invalid_argument(fmt::format("{}: line {}: {}: '{}'", source_, number_, why, printable(line)));
  }

  /// `text` cut at 120 bytes (with "..."), bytes outside printable ASCII written as \xHH.
  static std::string printable(std::string_view text) {
    constexpr std::size_t kShown = 120;
    std::string out;
    for (const char c : text.substr(0, kShown)) {
      const auto byte = static_cast<unsigned char>(c);
      if (byte < 0x20 || byte >= 0x7f) {
        out += fmt::format("\\x{:02x}", byte);
      } else {
        out += c;
      }
    }
    if (text.size() > kShown) out += "...";
    return out;
  }

  std::size_t line_number() const { return number_; }
  const std::string& source() const { return source_; }

 private:
  std::istream& in_;
  const std::string& source_;
  std::size_t number_ = 0;
};

/// The offset of the first byte of `text` that does not belong to a valid UTF-8 sequence (a stray
/// continuation byte, a truncated or overlong sequence, a surrogate, a code point past U+10FFFF, or
/// a byte 0xf8..0xff), or npos when `text` is valid UTF-8 (ASCII is).
inline std::size_t invalid_utf8_offset(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x80) {
      ++i;
      continue;
    }
    std::size_t length = 0;
    unsigned lowest = 0x80;  // the allowed range of the second byte (overlongs and surrogates excluded)
    unsigned highest = 0xbf;
    if (byte >= 0xc2 && byte <= 0xdf) {
      length = 2;
    } else if (byte >= 0xe0 && byte <= 0xef) {
      length = 3;
      if (byte == 0xe0) lowest = 0xa0;
      if (byte == 0xed) highest = 0x9f;
    } else if (byte >= 0xf0 && byte <= 0xf4) {
      length = 4;
      if (byte == 0xf0) lowest = 0x90;
      if (byte == 0xf4) highest = 0x8f;
    } else {
      return i;
    }
    if (i + length > text.size()) return i;
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      const unsigned low = k == 1 ? lowest : 0x80;
      const unsigned high = k == 1 ? highest : 0xbf;
      if (next < low || next > high) return i;
    }
    i += length;
  }
  return std::string_view::npos;
}

/// True if the line holds only whitespace.
inline bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t\r\n\v\f") == std::string_view::npos;
}

/// Splits on runs of whitespace (space, tab, \v, \f, \r, \n).
inline std::vector<std::string_view> split_whitespace(std::string_view line) {
  std::vector<std::string_view> tokens;
  constexpr std::string_view kSpace = " \t\r\n\v\f";
  std::size_t pos = line.find_first_not_of(kSpace);
  while (pos != std::string_view::npos) {
    const std::size_t end = line.find_first_of(kSpace, pos);
    tokens.push_back(line.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos));
    pos = line.find_first_not_of(kSpace, end);
  }
  return tokens;
}

}  // namespace netdp::util
