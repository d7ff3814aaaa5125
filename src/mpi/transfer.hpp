// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the mpi module: values as bytes between the ranks of a run. A rank's account of its
// share (a Gaussian account's grid and info) or its rows go to rank 0 as one byte string, sent in
// pieces that fit MPI's int counts.

#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "netdp/accounting/account/pairwise.hpp"
#include "netdp/util/check.hpp"

namespace netdp::mpi::detail {

/// Bytes written in order, read back in the same order by ByteReader.
class ByteWriter {
 public:
  template <class T>
  requires std::is_trivially_copyable_v<T>
  void put(const T& value) {
    const auto* p = reinterpret_cast<const char*>(&value);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }
  template <class T>
  void put_vector(std::span<const T> values) {
    put<std::uint64_t>(values.size());
    const auto* p = reinterpret_cast<const char*>(values.data());
    bytes_.insert(bytes_.end(), p, p + values.size_bytes());
  }
  void put_string(const std::string& text) { put_vector(std::span<const char>(text.data(), text.size())); }
  std::vector<char>& bytes() { return bytes_; }

 private:
  std::vector<char> bytes_;
};

class ByteReader {
 public:
  explicit ByteReader(std::span<const char> bytes) : bytes_(bytes) {}
  template <class T>
  requires std::is_trivially_copyable_v<T> T get() {
    T value;
    std::memcpy(&value, take(sizeof(T)), sizeof(T));
    return value;
  }
  template <class T>
  std::vector<T> get_vector() {
    const auto count = get<std::uint64_t>();
    require(count <= bytes_.size() / (sizeof(T) > 0 ? sizeof(T) : 1),
            "a message of another rank is truncated");
    std::vector<T> values(count);
    std::memcpy(values.data(), take(count * sizeof(T)), count * sizeof(T));
    return values;
  }
  std::string get_string() {
    const std::vector<char> chars = get_vector<char>();
    return {chars.begin(), chars.end()};
  }
  bool done() const { return offset_ == bytes_.size(); }

 private:
  const char* take(std::size_t count) {
    require(offset_ + count <= bytes_.size(), "a message of another rank is truncated");
    const char* p = bytes_.data() + offset_;
    offset_ += count;
    return p;
  }
  std::span<const char> bytes_;
  std::size_t offset_ = 0;
};

/// Waits for `request` without keeping a core busy: a rank that waits (for rank 0 to finish its
/// own share, or to write the output) tests every 200 µs and sleeps in between, where MPI's own
/// blocking calls would spin and take the core from the OpenMP threads of the rank that works.
void wait_for(MPI_Request& request);

/// MPI_Bcast of `bytes` bytes from rank `root`, waited for with wait_for.
void broadcast_bytes(void* data, std::size_t bytes, int root);

/// Sends `bytes` to rank `to`: its length, then pieces of at most 1 GiB.
void send_bytes(std::span<const char> bytes, int to, int tag);
/// Receives what send_bytes sent from rank `from`.
std::vector<char> receive_bytes(int from, int tag);

/// What a rank's work threw, as every rank rethrows it.
enum class FailureKind : int { none = 0, invalid_argument = 1, out_of_memory = 2, other = 3 };

/// Every rank learns whether any rank's work failed; if one did, every rank throws the failure of
/// the lowest such rank (a bad input fails on every rank alike, and rank 0 says it).
void agree_on_failure(FailureKind kind, const std::string& message);

/// What `work()` returns on this rank, once every rank knows that no rank's work failed (else
/// every rank throws, as agree_on_failure).
template <class Work>
auto agreed(Work&& work) -> decltype(work()) {
  decltype(work()) result{};
  FailureKind kind = FailureKind::none;
  std::string message;
  try {
    result = work();
  } catch (const std::invalid_argument& e) {
    kind = FailureKind::invalid_argument;
    message = e.what();
  } catch (const std::bad_alloc&) {
    kind = FailureKind::out_of_memory;
  } catch (const std::exception& e) {
    kind = FailureKind::other;
    message = e.what();
  }
  agree_on_failure(kind, message);
  return result;
}

/// A Gaussian account of one share, as GaussianPairwiseAccount::grid() and info() give it.
void put_grid(ByteWriter& out, const accounting::UnitMuGrid& grid);
accounting::UnitMuGrid get_grid(ByteReader& in);
void put_info(ByteWriter& out, const accounting::GaussianPairwiseAccount::Info& info);
accounting::GaussianPairwiseAccount::Info get_info(ByteReader& in);

void put_diagnostics(ByteWriter& out, const std::vector<accounting::Diagnostic>& diagnostics);
std::vector<accounting::Diagnostic> get_diagnostics(ByteReader& in);

/// Rows as an account streams them (without distances, which rank 0 adds, and without the
/// sensitivity fields, which only Gaussian accounts have: they travel as grids).
void put_rows(ByteWriter& out, std::span<const accounting::PairRow> rows);
std::vector<accounting::PairRow> get_rows(ByteReader& in);

}  // namespace netdp::mpi::detail
