// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Values as bytes between the ranks of a run (transfer.hpp).

#include "mpi/transfer.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include "netdp/mpi/world.hpp"

namespace netdp::mpi::detail {

namespace {

constexpr std::size_t kPiece = std::size_t{1} << 30;

void put_matrix(ByteWriter& out, const DenseMatrix& m) {
  out.put<std::int64_t>(m.rows());
  out.put<std::int64_t>(m.cols());
  out.put_vector(std::span<const double>(m.data(), static_cast<std::size_t>(m.size())));
}

DenseMatrix get_matrix(ByteReader& in) {
  const auto rows = in.get<std::int64_t>();
  const auto cols = in.get<std::int64_t>();
  const std::vector<double> values = in.get_vector<double>();
  require(rows >= 0 && cols >= 0 && values.size() == static_cast<std::size_t>(rows * cols),
          "a grid from another rank has {} values for {} x {}", values.size(), rows, cols);
  return Eigen::Map<const DenseMatrix>(values.data(), rows, cols);
}

template <class T>
void put_optional(ByteWriter& out, const std::optional<T>& value) {
  out.put<std::uint8_t>(value ? 1 : 0);
  if (value) out.put(*value);
}

template <class T>
std::optional<T> get_optional(ByteReader& in) {
  if (in.get<std::uint8_t>() == 0) return std::nullopt;
  return in.get<T>();
}

void put_sensitivity(ByteWriter& out, const accounting::SensitivityFields& s) {
  out.put(s.ones);
  out.put(s.sum_abs);
  put_optional(out, s.exact_value);
  put_optional(out, s.vector_lower);
  put_optional(out, s.vector_upper);
  out.put(s.certified);
  out.put(s.sensitivity);
  out.put<std::uint8_t>(s.exact ? 1 : 0);
}

accounting::SensitivityFields get_sensitivity(ByteReader& in) {
  accounting::SensitivityFields s;
  s.ones = in.get<double>();
  s.sum_abs = in.get<double>();
  s.exact_value = get_optional<double>(in);
  s.vector_lower = get_optional<double>(in);
  s.vector_upper = get_optional<double>(in);
  s.certified = in.get<double>();
  s.sensitivity = in.get<double>();
  s.exact = in.get<std::uint8_t>() != 0;
  return s;
}

}  // namespace

void wait_for(MPI_Request& request) {
  for (;;) {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done != 0) return;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

void agree_on_failure(FailureKind kind, const std::string& message) {
  const World w = world();
  std::vector<int> kinds(static_cast<std::size_t>(w.size));
  const int mine = static_cast<int>(kind);
  MPI_Request request;
  MPI_Iallgather(&mine, 1, MPI_INT, kinds.data(), 1, MPI_INT, MPI_COMM_WORLD, &request);
  wait_for(request);
  const auto failed = std::find_if(kinds.begin(), kinds.end(), [](int k) { return k != 0; });
  if (failed == kinds.end()) return;
  const int rank = static_cast<int>(failed - kinds.begin());
  std::uint64_t length = message.size();
  broadcast_bytes(&length, sizeof length, rank);
  std::string text = w.rank == rank ? message : std::string(length, ' ');
  broadcast_bytes(text.data(), length, rank);
  if (rank != 0) text += " (on rank " + std::to_string(rank) + " of " + std::to_string(w.size) + ")";
  switch (static_cast<FailureKind>(*failed)) {
    case FailureKind::invalid_argument:
      throw std::invalid_argument(text);
    case FailureKind::out_of_memory:
      throw std::bad_alloc();
    default:
      throw std::runtime_error(text);
  }
}

void broadcast_bytes(void* data, std::size_t bytes, int root) {
  MPI_Request request;
  MPI_Ibcast(data, static_cast<int>(bytes), MPI_BYTE, root, MPI_COMM_WORLD, &request);
  wait_for(request);
}

void send_bytes(std::span<const char> bytes, int to, int tag) {
  std::uint64_t size = bytes.size();
  MPI_Request request;
  MPI_Isend(&size, 1, MPI_UINT64_T, to, tag, MPI_COMM_WORLD, &request);
  wait_for(request);
  for (std::size_t offset = 0; offset < bytes.size(); offset += kPiece) {
    const std::size_t count = std::min(kPiece, bytes.size() - offset);
    MPI_Isend(bytes.data() + offset, static_cast<int>(count), MPI_CHAR, to, tag, MPI_COMM_WORLD, &request);
    wait_for(request);
  }
}

std::vector<char> receive_bytes(int from, int tag) {
  std::uint64_t size = 0;
  MPI_Request request;
  MPI_Irecv(&size, 1, MPI_UINT64_T, from, tag, MPI_COMM_WORLD, &request);
  wait_for(request);
  std::vector<char> bytes(size);
  for (std::size_t offset = 0; offset < bytes.size(); offset += kPiece) {
    const std::size_t count = std::min(kPiece, bytes.size() - offset);
    MPI_Irecv(bytes.data() + offset, static_cast<int>(count), MPI_CHAR, from, tag, MPI_COMM_WORLD, &request);
    wait_for(request);
  }
  return bytes;
}

void put_grid(ByteWriter& out, const accounting::UnitMuGrid& grid) {
  out.put_vector(std::span<const graph::NodeId>(grid.observers));
  out.put_vector(std::span<const graph::NodeId>(grid.targets));
  put_matrix(out, grid.uncapped);
  out.put_vector(std::span<const double>(grid.caps));
  out.put<std::uint8_t>(grid.reported ? 1 : 0);
  if (grid.reported) put_matrix(out, *grid.reported);
  out.put<std::uint64_t>(grid.sensitivity.size());
  for (const accounting::SensitivityFields& s : grid.sensitivity) put_sensitivity(out, s);
  out.put<std::uint8_t>(grid.certificates ? 1 : 0);
  if (grid.certificates) {
    out.put<std::int64_t>(grid.certificates->rows());
    out.put<std::int64_t>(grid.certificates->cols());
    out.put_vector(std::span<const accounting::Certificate>(
        grid.certificates->data(), static_cast<std::size_t>(grid.certificates->size())));
  }
  out.put<std::uint8_t>(grid.lower ? 1 : 0);
  if (grid.lower) put_matrix(out, *grid.lower);
}

accounting::UnitMuGrid get_grid(ByteReader& in) {
  accounting::UnitMuGrid grid;
  grid.observers = in.get_vector<graph::NodeId>();
  grid.targets = in.get_vector<graph::NodeId>();
  grid.uncapped = get_matrix(in);
  grid.caps = in.get_vector<double>();
  if (in.get<std::uint8_t>() != 0) grid.reported = get_matrix(in);
  const auto fields = in.get<std::uint64_t>();
  for (std::uint64_t k = 0; k < fields; ++k) grid.sensitivity.push_back(get_sensitivity(in));
  if (in.get<std::uint8_t>() != 0) {
    const auto rows = in.get<std::int64_t>();
    const auto cols = in.get<std::int64_t>();
    const std::vector<accounting::Certificate> kinds = in.get_vector<accounting::Certificate>();
    require(rows >= 0 && cols >= 0 && kinds.size() == static_cast<std::size_t>(rows * cols),
            "the certificates from another rank have {} values for {} x {}", kinds.size(), rows, cols);
    grid.certificates = Eigen::Map<const accounting::UnitMuGrid::CertificateMatrix>(kinds.data(), rows, cols);
  }
  if (in.get<std::uint8_t>() != 0) grid.lower = get_matrix(in);
  return grid;
}

void put_info(ByteWriter& out, const accounting::GaussianPairwiseAccount::Info& info) {
  out.put_string(info.method);
  out.put(info.sensitivity);
  out.put(info.releases);
  put_optional(out, info.alpha);
  put_diagnostics(out, info.diagnostics);
  out.put(info.guarantee);
  std::vector<std::uint64_t> communications(info.communications.begin(), info.communications.end());
  out.put_vector(std::span<const std::uint64_t>(communications));
  out.put(info.certificate);
  put_optional(out, info.certificate_failure_probability);
}

accounting::GaussianPairwiseAccount::Info get_info(ByteReader& in) {
  accounting::GaussianPairwiseAccount::Info info;
  info.method = in.get_string();
  info.sensitivity = in.get<double>();
  info.releases = in.get<double>();
  info.alpha = get_optional<double>(in);
  info.diagnostics = get_diagnostics(in);
  info.guarantee = in.get<accounting::Guarantee>();
  for (const std::uint64_t c : in.get_vector<std::uint64_t>()) info.communications.push_back(c);
  info.certificate = in.get<accounting::Certificate>();
  info.certificate_failure_probability = get_optional<double>(in);
  return info;
}

void put_diagnostics(ByteWriter& out, const std::vector<accounting::Diagnostic>& diagnostics) {
  out.put<std::uint64_t>(diagnostics.size());
  for (const accounting::Diagnostic& d : diagnostics) {
    out.put(d.kind);
    out.put_string(d.text);
    out.put<std::uint64_t>(d.count);
    out.put_string(d.tally);
    out.put<std::uint64_t>(d.of);
  }
}

std::vector<accounting::Diagnostic> get_diagnostics(ByteReader& in) {
  std::vector<accounting::Diagnostic> out(in.get<std::uint64_t>(),
                                          {accounting::DiagnosticKind::noiseless_view, {}});
  for (accounting::Diagnostic& d : out) {
    d.kind = in.get<accounting::DiagnosticKind>();
    d.text = in.get_string();
    d.count = in.get<std::uint64_t>();
    d.tally = in.get_string();
    d.of = in.get<std::uint64_t>();
  }
  return out;
}

void put_rows(ByteWriter& out, std::span<const accounting::PairRow> rows) {
  out.put<std::uint64_t>(rows.size());
  for (const accounting::PairRow& row : rows) {
    out.put(row.observer);
    out.put(row.target);
    out.put(row.alpha);
    out.put(row.rdp_epsilon);
    out.put(row.uncapped_rdp_epsilon);
    put_optional(out, row.mu);
    out.put(row.epsilon);
    out.put<std::uint8_t>(row.capped ? 1 : 0);
    out.put(row.certificate);
    put_optional(out, row.mu_lower);
    put_optional(out, row.contributions);
    put_optional(out, row.condition_ok);
  }
}

std::vector<accounting::PairRow> get_rows(ByteReader& in) {
  std::vector<accounting::PairRow> rows(in.get<std::uint64_t>());
  for (accounting::PairRow& row : rows) {
    row.observer = in.get<graph::NodeId>();
    row.target = in.get<graph::NodeId>();
    row.alpha = in.get<double>();
    row.rdp_epsilon = in.get<double>();
    row.uncapped_rdp_epsilon = in.get<double>();
    row.mu = get_optional<double>(in);
    row.epsilon = in.get<double>();
    row.capped = in.get<std::uint8_t>() != 0;
    row.certificate = in.get<accounting::Certificate>();
    row.mu_lower = get_optional<double>(in);
    row.contributions = get_optional<double>(in);
    row.condition_ok = get_optional<bool>(in);
  }
  return rows;
}

}  // namespace netdp::mpi::detail
