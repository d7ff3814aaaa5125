// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#include "netdp/cli/app.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <vector>

#include "commands.hpp"
#include "netdp/linalg/thread_policy.hpp"
#include "netdp/mpi/world.hpp"
#include "netdp/report/report.hpp"
#include "netdp/util/memory.hpp"
#include "netdp/util/option_spelling.hpp"
#include "train_output.hpp"

namespace netdp::cli {
namespace {

/// The checks every option of `app` and its subcommands makes on its value, before CLI11 converts
/// it (which takes an empty value for 0 or "", and reads 0x10, 010 and 0b10 as hexadecimal, octal and
/// binary integers):
/// - no value is empty;
/// - an integer (INT, UINT) is plain decimal digits, after a '-' for a signed one; leading zeros are
///   dropped (010 is ten);
/// - an unsigned one is not negative and below 2^64: the conversion would wrap -3 to 2^64 − 3, or
///   saturate, a count that then allocates until the process is killed.
/// CLI11 prefixes the message with the option's name.
void check_every_value(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    if (option->get_type_size_max() == 0) continue;  // a flag
    const std::string type = option->get_type_name().substr(0, option->get_type_name().find(':'));
    const bool is_unsigned = type == "UINT";
    const bool is_integer = is_unsigned || type == "INT";
    // transform, not check: it runs first and may rewrite the value (check's may not).
    option->transform(CLI::Validator(
        [is_integer, is_unsigned](std::string& value) {
          if (value.empty())
            return std::string("an empty value is not allowed: give a value or drop the option");
          if (!is_integer) return std::string();
          const bool negative = value[0] == '-';
          const std::size_t first_digit = negative ? 1 : 0;
          const bool digits = value.size() > first_digit &&
                              value.find_first_not_of("0123456789", first_digit) == std::string::npos;
          if (is_unsigned && negative && digits)
            return std::string("must be a whole number >= 0, got ") + value;
          if (!digits)
            return "must be a whole number in plain decimal digits" +
                   std::string(is_unsigned ? "" : " (with '-' if negative)") + ", got '" + value + "'";
          // Leading zeros dropped, so that no conversion reads the number as octal.
          const std::size_t nonzero = value.find_first_not_of('0', first_digit);
          value = (negative ? "-" : "") +
                  (nonzero == std::string::npos ? std::string("0") : value.substr(nonzero));
          if (negative && value == "-0") value = "0";
          if (is_unsigned) {
            // Past 2^64 − 1 the conversion would saturate to a count no run can reach.
            std::uint64_t parsed = 0;
            if (std::from_chars(value.data(), value.data() + value.size(), parsed).ec ==
                std::errc::result_out_of_range)
              return std::string("must be a whole number below 2^64, got ") + value;
          }
          return std::string();
        },
        "", "checked value"));
  }
  for (CLI::App* sub : app.get_subcommands({})) check_every_value(*sub);
}

/// std::cout's buffer as the process starts: a command that runs with it (not with a test's
/// buffer) writes through a DescriptorBuffer.
std::streambuf* const process_stdout = std::cout.rdbuf();

/// std::cout's buffer while a command runs: writes to descriptor 1 with write(2) and keeps the errno
/// of the first failed write, which the C stdio buffer otherwise behind std::cout does not keep
/// (its error flag holds no reason, and errno is long overwritten when the command ends).
class DescriptorBuffer : public std::streambuf {
 public:
  DescriptorBuffer() { reset(); }
  DescriptorBuffer(const DescriptorBuffer&) = delete;
  DescriptorBuffer& operator=(const DescriptorBuffer&) = delete;
  ~DescriptorBuffer() override { sync(); }
  /// The errno of the first failed write, 0 if none failed.
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (sync() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override {
    const char* next = pbase();
    while (next < pptr()) {
      const ssize_t written = ::write(STDOUT_FILENO, next, static_cast<std::size_t>(pptr() - next));
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) {
        if (error_ == 0) error_ = written < 0 ? errno : EIO;
        reset();  // what could not be written is dropped; the command fails with error()
        return -1;
      }
      next += written;
    }
    reset();
    return 0;
  }

 private:
  void reset() { setp(buffer_.data(), buffer_.data() + buffer_.size()); }

  std::array<char, std::size_t{1} << 16> buffer_{};
  int error_ = 0;
};

/// One line to standard error in one write, so that it reaches the user whole even when other
/// processes (mpirun's own messages) write to the same terminal.
void say(const std::string& line) {
  const std::string text = line + "\n";
  std::cerr.write(text.data(), static_cast<std::streamsize>(text.size()));
  std::cerr.flush();
}

/// Checks that everything the command printed reached standard output: flushes std::cout and C's
/// stdout and checks their error state, and closes a duplicate of descriptor 1, which reports a
/// write error the file system defers to close (NFS) without closing standard output itself.
/// `buffer` is std::cout's DescriptorBuffer, if it has one. Returns "" when all went well, else why
/// not.
std::string standard_output_failure(const DescriptorBuffer* buffer) {
  errno = 0;
  std::cout.flush();
  const bool stream_failed = std::cout.fail();
  const int stream_errno = buffer != nullptr && buffer->error() != 0 ? buffer->error() : errno;
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0 || stream_failed) {
    const int error = stream_errno != 0 ? stream_errno : errno;
    return error != 0 ? std::strerror(error) : "write error";
  }
  const int copy = ::dup(STDOUT_FILENO);
  if (copy >= 0 && ::close(copy) != 0) return std::strerror(errno);
  return {};
}

/// The command's status once its output is checked: a lost output turns any other status into 2,
/// with the reason on stderr (a command that already stopped with 2 has said why).
int checked_status(int status, const DescriptorBuffer* buffer) {
  const std::string failure = standard_output_failure(buffer);
  if (failure.empty()) return status;
  if (status != 2) say("netdp: error: cannot write to standard output: " + failure);
  std::cout.clear();  // the next command run in this process starts clean
  std::clearerr(stdout);
  return 2;
}

/// Whether the command line's command is one that splits its work across the ranks of an mpirun.
bool runs_on_every_rank(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (!word.starts_with("-")) return word == "account" || word == "compare";
  }
  return false;
}

}  // namespace

int run(int argc, char** argv) {
  // Under mpirun, only `account` and `compare` work across the ranks; rank 0 alone runs any other
  // command.
  if (mpi::world().rank != 0 && !runs_on_every_rank(argc, argv)) return 0;
  if (const auto note = linalg::apply_thread_policy().note) std::cerr << "netdp: warning: " << *note << "\n";
  CLI::App app{"netdp: pairwise privacy accounting for differentially private decentralized learning", "netdp"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("netdp ") + kNetdpVersion);
  add_graph_command(app);
  add_dp_command(app);
  add_gossip_command(app);
  add_account_command(app);
  add_compare_command(app);
  add_asymptotic_command(app);
  add_train_command(app);
  add_factorize_command(app);
  add_audit_command(app);
  add_report_command(app);
  add_help_command(app);
  check_every_value(app);
  std::cout.clear();
  // The process's own stdout: written through a DescriptorBuffer, for the reason of a failure.
  DescriptorBuffer descriptor_buffer;
  const bool own_stdout = std::cout.rdbuf() == process_stdout;
  if (own_stdout) {
    std::fflush(stdout);
    std::cout.rdbuf(&descriptor_buffer);
  }
  int status = 0;
  set_invoked_command(report::command_line(argc, argv));
  try {
    app.parse(argc, argv);
  } catch (const ExitStatus& e) {
    status = e.code;
  } catch (const CLI::ParseError& e) {
    status = app.exit(e) == 0 ? 0 : 2;
  } catch (const std::invalid_argument& e) {
    // The library names options as `tail_share`; the command line shows the flag, --tail-share.
    const auto is_flag = [&](const std::string& flag) {
      const std::vector<CLI::App*> commands = app.get_subcommands({});
      return std::any_of(commands.begin(), commands.end(),
                         [&](CLI::App* command) { return command->get_option_no_throw(flag) != nullptr; });
    };
    say("netdp: error: " + util::spelled_as_flags(e.what(), is_flag));
    status = 2;
  } catch (const std::bad_alloc&) {
    const std::vector<CLI::App*> parsed = app.get_subcommands();
    const std::string who = parsed.empty() ? "netdp" : "netdp " + parsed.front()->get_name();
    say("netdp: error: " + util::out_of_memory_message(who, "--max-memory"));
    status = 2;
  } catch (const std::exception& e) {
    say(std::string("netdp: failure: ") + e.what());
    status = 1;
  }
  status = checked_status(status, own_stdout ? &descriptor_buffer : nullptr);
  if (own_stdout) std::cout.rdbuf(process_stdout);
  return status;
}

}  // namespace netdp::cli
