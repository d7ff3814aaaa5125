// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Typed diagnostics of the accountants (diagnostic.hpp).

#include "netdp/accounting/account/diagnostic.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace netdp::accounting {

std::vector<std::string> diagnostic_texts(const std::vector<Diagnostic>& diagnostics) {
  std::vector<std::string> out;
  out.reserve(diagnostics.size());
  for (const Diagnostic& d : diagnostics) out.push_back(d.text);
  return out;
}

std::size_t diagnostic_count(const std::vector<Diagnostic>& diagnostics, DiagnosticKind kind) {
  std::size_t total = 0;
  for (const Diagnostic& d : diagnostics)
    if (d.kind == kind) total += d.count;
  return total;
}

void append_diagnostics(std::vector<Diagnostic>& diagnostics, const std::vector<Diagnostic>& more,
                        std::string_view prefix) {
  for (const Diagnostic& d : more)
    diagnostics.push_back({d.kind, std::string(prefix) + d.text, d.count,
                           d.tally.empty() ? std::string() : std::string(prefix) + d.tally, d.of});
}

Diagnostic tally_diagnostic(DiagnosticKind kind, std::string pattern, std::size_t count, std::size_t of) {
  std::string text = fmt::format(fmt::runtime(pattern), count, of);
  return {kind, std::move(text), count, std::move(pattern), of};
}

void merge_diagnostics(std::vector<Diagnostic>& diagnostics, const std::vector<Diagnostic>& more) {
  for (const Diagnostic& d : more) {
    const auto same = std::find_if(diagnostics.begin(), diagnostics.end(), [&d](const Diagnostic& e) {
      if (!d.tally.empty()) return e.kind == d.kind && e.tally == d.tally;
      return e.kind == d.kind && e.text == d.text && e.count == d.count;
    });
    if (same == diagnostics.end()) {
      diagnostics.push_back(d);
    } else if (!d.tally.empty()) {
      *same = tally_diagnostic(d.kind, d.tally, same->count + d.count, same->of + d.of);
    }
  }
}

}  // namespace netdp::accounting
