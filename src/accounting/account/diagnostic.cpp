// Typed diagnostics of the accountants (diagnostic.hpp).

#include "netdp/accounting/account/diagnostic.hpp"

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
  for (const Diagnostic& d : more) diagnostics.push_back({d.kind, std::string(prefix) + d.text, d.count});
}

}  // namespace netdp::accounting
