// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// No lost output and no wrong acceptance: a write error on standard output is an error (exit 2),
// a signal leaves no temporary file, --out reaches standard output through a pipe, every option
// refuses an empty value and an integer that is not plain decimal digits, and the checks of the
// accountant's request see the files it names. Most cases run the real binary.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <streambuf>
#include <string>
#include <thread>
#include <vector>

#include "cli/cli_runner.hpp"

extern char** environ;

namespace netdp::cli {
namespace {

namespace fs = std::filesystem;

/// A folder of its own for one test, removed at the end.
class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : path_(fs::temp_directory_path() / ("netdp-" + name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

struct ShellResult {
  int status = -1;  ///< the exit code, or -1 when killed by a signal
  std::string out;
  std::string err;
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Runs `netdp ARGS` in `dir` through the shell, its stderr to err.txt, followed by `tail` (shell
/// redirections of its stdout, a pipe, more commands): the status is the shell's.
ShellResult run_shell(const fs::path& dir, const std::string& args, const std::string& tail) {
  const std::string command = "cd '" + dir.string() + "' || exit 1; timeout 120 '" +
                              std::string(NETDP_BINARY) + "' " + args + " 2> err.txt < /dev/null " + tail;
  const int status = std::system(command.c_str());
  ShellResult r;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = read_text(dir / "err.txt");
  return r;
}

/// The names of the files in `dir` that hold ".tmp.".
std::vector<std::string> temporaries(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.find(".tmp.") != std::string::npos) out.push_back(name);
  }
  return out;
}

TEST(OutputIntegrity, AWriteErrorOnStandardOutputIsExitTwo) {
  const TempDir dir("stdout-full");
  for (const std::string& args :
       {std::string("account --graph karate --rounds 3 --json"),
        std::string("account --graph karate --rounds 3 --csv"),
        std::string("account --graph karate --rounds 3"),
        std::string("account --graph karate --rounds 3 --json "
                    "--summary-only"),
        std::string("graph --graph karate"), std::string("graph --graph karate --json"),
        std::string("dp --mu 1 --delta 1e-5"), std::string("dp --mu 1 --delta 1e-5 --json"),
        std::string("gossip --graph karate"), std::string("factorize --rounds 4 --json"),
        std::string("help graphs"), std::string("account --help")}) {
    SCOPED_TRACE(args);
    const ShellResult full = run_shell(dir.path(), args, "> /dev/full");
    EXPECT_EQ(full.status, 2);
    EXPECT_NE(full.err.find("netdp: error: cannot write to standard output: No space left on device"),
              std::string::npos)
        << full.err;
    EXPECT_EQ(full.err.find("failure"), std::string::npos) << full.err;
    // The same command with a working stdout succeeds: the status is the write's, not the command's.
    EXPECT_EQ(run_shell(dir.path(), args, "> out.txt").status, 0);
    EXPECT_FALSE(read_text(dir.path() / "out.txt").empty());
  }
}

/// A stream buffer that counts the writes it receives and, when `fail`, accepts none of them.
class CountingBuffer : public std::streambuf {
 public:
  explicit CountingBuffer(bool fail) : fail_(fail) {}
  std::size_t writes() const { return writes_; }

 protected:
  std::streamsize xsputn(const char*, std::streamsize n) override {
    ++writes_;
    return fail_ ? 0 : n;
  }
  int_type overflow(int_type c) override {
    ++writes_;
    return fail_ ? traits_type::eof() : c;
  }

 private:
  bool fail_;
  std::size_t writes_ = 0;
};

/// Runs the command in this process with std::cout writing to `buffer`.
testing::CliResult run_with_stdout(std::vector<std::string> args, std::streambuf* buffer) {
  args.insert(args.begin(), "netdp");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  std::ostringstream err;
  std::streambuf* old_out = std::cout.rdbuf(buffer);
  std::streambuf* old_err = std::cerr.rdbuf(err.rdbuf());
  testing::CliResult result;
  result.status = run(static_cast<int>(argv.size()), argv.data());
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  std::cout.clear();
  result.err = err.str();
  return result;
}

TEST(OutputIntegrity, StreamedRowsStopOnceStandardOutputHasFailed) {
  // The random walk computes its rows while they are written, in blocks of 2^15 pairs (eight on 512
  // nodes). The first failed write ends the run with exit status 2 and no further write; that the
  // accountant then computes no further block is PairwiseAccount.AThrowingSinkStopsTheStreamAtItsChunk.
  const std::vector<std::string> args = {"account",  "--graph", "hypercube:d=9", "--method", "random-walk",
                                         "--rounds", "400",     "--csv",         "--quiet",  "--threads",
                                         "1"};
  CountingBuffer whole(false);
  const testing::CliResult ok = run_with_stdout(args, &whole);
  ASSERT_EQ(ok.status, 0) << ok.err;
  ASSERT_GE(whole.writes(), 8u) << "the run must write several blocks for the test to mean something";
  CountingBuffer failing(true);
  const testing::CliResult lost = run_with_stdout(args, &failing);
  EXPECT_EQ(lost.status, 2);
  EXPECT_NE(lost.err.find("cannot write to standard output"), std::string::npos) << lost.err;
  EXPECT_EQ(failing.writes(), 1u) << "writes went on after the first failed one";
}

/// Starts `netdp ARGS` in `dir` (stdout and stderr to /dev/null), returns its pid.
pid_t spawn_netdp(const fs::path& dir, const std::vector<std::string>& args) {
  std::vector<std::string> all = {NETDP_BINARY};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  // The child starts with the default action of every signal and none blocked.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (const int s : {SIGTERM, SIGINT, SIGHUP}) sigaddset(&defaults, s);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  const std::string cwd = fs::current_path().string();
  fs::current_path(dir);
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, argv[0], &actions, &attributes, argv.data(), environ);
  fs::current_path(cwd);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  return spawned == 0 ? pid : -1;
}

TEST(OutputIntegrity, ASignalDuringAWriteRemovesTheTemporaryFile) {
  // The rows of a random walk on 1024 nodes are computed while the output is written to the
  // temporary file (with --summary-only, only the summary at the end): each signal arrives while
  // it exists.
  const TempDir dir("signal-tmp");
  for (const int signal_number : {SIGTERM, SIGINT, SIGHUP}) {
    SCOPED_TRACE(signal_number);
    const pid_t pid =
        spawn_netdp(dir.path(), {"account", "--graph", "hypercube:d=10", "--method", "random-walk",
                                 "--rounds", "400", "--json", "--summary-only", "--out", "x.json"});
    ASSERT_GT(pid, 0);
    const auto start = std::chrono::steady_clock::now();
    bool seen = false;
    while (!seen && std::chrono::steady_clock::now() - start < std::chrono::seconds(120)) {
      seen = !temporaries(dir.path()).empty();
      if (!seen) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (!seen) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
    ASSERT_TRUE(seen) << "no temporary file appeared";
    ASSERT_EQ(::kill(pid, signal_number), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the run ended before the signal: use a larger run";
    EXPECT_EQ(WTERMSIG(status), signal_number);
    EXPECT_TRUE(temporaries(dir.path()).empty()) << temporaries(dir.path()).front();
    EXPECT_FALSE(fs::exists(dir.path() / "x.json"));
  }
}

TEST(OutputIntegrity, OutToStandardOutputWorksThroughAPipe) {
  const TempDir dir("out-stdout");
  const std::string args = "account --graph karate --rounds 3 --json --quiet";
  ASSERT_EQ(run_shell(dir.path(), args, "> plain.txt").status, 0);
  const std::string plain = read_text(dir.path() / "plain.txt");
  ASSERT_FALSE(plain.empty());
  for (const std::string& out : {std::string("/dev/stdout"), std::string("-")}) {
    SCOPED_TRACE(out);
    // Through a pipe; into a file stdout is redirected to; and the JSON alone (no human table).
    const ShellResult piped = run_shell(dir.path(), args + " --out " + out, "| cat > piped.txt");
    EXPECT_EQ(piped.status, 0) << piped.err;
    EXPECT_EQ(testing::without_command_line(read_text(dir.path() / "piped.txt")),
              testing::without_command_line(plain));
    const ShellResult redirected = run_shell(dir.path(), args + " --out " + out, "> redirected.txt");
    EXPECT_EQ(redirected.status, 0) << redirected.err;
    EXPECT_EQ(testing::without_command_line(read_text(dir.path() / "redirected.txt")),
              testing::without_command_line(plain));
    EXPECT_TRUE(temporaries(dir.path()).empty());
  }
  // A CSV through /dev/stdout, and a JSON to a named pipe read by another process.
  const ShellResult csv =
      run_shell(dir.path(), "account --graph karate --rounds 3 --csv --out /dev/stdout", "| cat > csv.txt");
  EXPECT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(read_text(dir.path() / "csv.txt").rfind("observer,target,", 0), 0u);
  ASSERT_EQ(::mkfifo((dir.path() / "fifo").c_str(), 0600), 0);
  const ShellResult fifo =
      run_shell(dir.path(), "account --graph karate --rounds 3 --json --quiet --out fifo",
                "> table.txt & cat fifo > from-fifo.txt; wait $!");
  EXPECT_EQ(fifo.status, 0) << fifo.err;
  EXPECT_EQ(testing::without_command_line(read_text(dir.path() / "from-fifo.txt")),
            testing::without_command_line(plain));
}

// The destinations of a long account are checked before it starts, not when it ends.
TEST(OutputIntegrity, OutputPathsAreCheckedBeforeTheAccount) {
  const TempDir dir("out-checked");
  const std::string missing = (dir.path() / "no-such-folder" / "x.json").string();
  const testing::CliResult out =
      testing::run_cli({"account", "--graph", "karate", "--rounds", "3", "--json", "--out", missing});
  EXPECT_EQ(out.status, 2);
  EXPECT_NE(out.err.find("--out '" + missing + "': the folder"), std::string::npos) << out.err;
  EXPECT_NE(out.err.find("does not exist"), std::string::npos) << out.err;
  const testing::CliResult folder = testing::run_cli(
      {"account", "--graph", "karate", "--rounds", "3", "--json", "--out", dir.path().string()});
  EXPECT_EQ(folder.status, 2);
  EXPECT_NE(folder.err.find("is a folder, not a file"), std::string::npos) << folder.err;
  const std::string prefix = (dir.path() / "no-such-folder" / "m").string();
  const testing::CliResult maxima = testing::run_cli(
      {"account", "--graph", "karate", "--rounds", "3", "--json", "--summary-only", "--maxima", prefix});
  EXPECT_EQ(maxima.status, 2);
  EXPECT_NE(maxima.err.find("--maxima '" + prefix + ".observer_max.npy'"), std::string::npos) << maxima.err;
  EXPECT_TRUE(out.out.empty() && folder.out.empty() && maxima.out.empty());
  // A symbolic link is checked where it points, as the write follows it: a dangling one is refused
  // at once, one into another folder is written through.
  const auto dangling = dir.path() / "dangling.json";
  std::filesystem::create_symlink(dir.path() / "no-such-folder" / "y.json", dangling);
  const testing::CliResult refused = testing::run_cli(
      {"account", "--graph", "karate", "--rounds", "3", "--json", "--out", dangling.string()});
  EXPECT_EQ(refused.status, 2);
  EXPECT_NE(refused.err.find("cannot resolve the symbolic link"), std::string::npos) << refused.err;
  std::filesystem::create_directory(dir.path() / "elsewhere");
  std::ofstream(dir.path() / "elsewhere" / "z.json") << "old";
  const auto link = dir.path() / "link.json";
  std::filesystem::create_symlink(dir.path() / "elsewhere" / "z.json", link);
  const testing::CliResult through = testing::run_cli(
      {"account", "--graph", "karate", "--rounds", "3", "--json", "--summary-only", "--out", link.string()});
  EXPECT_EQ(through.status, 0) << through.err;
  EXPECT_NE(read_text(dir.path() / "elsewhere" / "z.json").find("\"summary\""), std::string::npos);
}

TEST(OutputIntegrity, ANonUtf8LabelIsRefusedAndJsonNeverFails) {
  const TempDir dir("utf8");
  std::ofstream(dir.path() / "latin1.csv", std::ios::binary) << "Source,Target\na,b\nb,c\xff\nc,a\n";
  for (const std::string& args : {std::string("graph --graph csv:latin1.csv --json"),
                                  std::string("account --graph csv:latin1.csv --rounds 3 --json")}) {
    const ShellResult r = run_shell(dir.path(), args, "> out.txt");
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_NE(r.err.find("latin1.csv: line 3: byte 0xff at column 4 is not valid UTF-8"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("iconv -f latin1 -t utf-8"), std::string::npos) << r.err;
  }
  // Text from the command line reaches the JSON as it is typed: a bad byte there is replaced, the
  // output stays valid JSON.
  std::ofstream(dir.path() / "ok.csv", std::ios::binary) << "Source,Target\na,b\nb,c\nc,a\n";
  fs::copy_file(dir.path() / "ok.csv", dir.path() / "ok\xff.csv");
  const ShellResult odd =
      run_shell(dir.path(), "account --graph 'csv:ok\xff.csv' --rounds 3 --json", "> out.txt");
  EXPECT_EQ(odd.status, 0) << odd.err;
  const nlohmann::json j = nlohmann::json::parse(read_text(dir.path() / "out.txt"));
  EXPECT_EQ(j["summary"]["parameters"]["graph"], "csv:ok\xef\xbf\xbd.csv");
}

/// The options of `netdp COMMAND` and their value types, read from its --help.
std::vector<std::pair<std::string, std::string>> typed_options(const std::string& command) {
  const testing::CliResult help = testing::run_cli({command, "--help"});
  EXPECT_EQ(help.status, 0);
  std::vector<std::pair<std::string, std::string>> out;
  // An option line: indented, "--name" (with a short alias "-x," before or ",-x" after), then its
  // type: UINT, INT, FLOAT or TEXT (TEXT:FILE and the like count as TEXT).
  std::istringstream in(help.out);
  for (std::string text; std::getline(in, text);) {
    if (text.empty() || (text[0] != ' ' && text[0] != '\t')) continue;
    std::istringstream words(text);
    std::string names;
    std::string type;
    if (!(words >> names >> type)) continue;
    std::string name;
    std::istringstream aliases(names);
    for (std::string alias; std::getline(aliases, alias, ',');)
      if (alias.rfind("--", 0) == 0) name = alias;
    const std::string base = type.substr(0, type.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ"));
    if (name.size() > 2 && (base == "UINT" || base == "INT" || base == "FLOAT" || base == "TEXT"))
      out.emplace_back(name, base);
  }
  return out;
}

TEST(OutputIntegrity, EveryOptionRefusesAnEmptyValueAndNonDecimalIntegers) {
  std::size_t integers = 0;
  for (const std::string command :
       {"graph", "dp", "gossip", "account", "compare", "asymptotic", "train", "factorize", "audit"}) {
    const auto options = typed_options(command);
    EXPECT_GE(options.size(), 4u) << command << ": its --help lists too few typed options";
    for (const auto& [option, type] : options) {
      SCOPED_TRACE(command + " " + option + " " + type);
      const testing::CliResult empty = testing::run_cli({command, option, ""});
      EXPECT_EQ(empty.status, 2);
      EXPECT_NE(empty.err.find(option), std::string::npos) << empty.err;
      EXPECT_NE(empty.err.find("an empty value is not allowed"), std::string::npos) << empty.err;
      if (type != "INT" && type != "UINT") continue;
      ++integers;
      for (const char* value : {"0x10", "1.5", "1e3", "0b1", "+3", " 4", "4 "}) {
        const testing::CliResult bad = testing::run_cli({command, option, value});
        EXPECT_EQ(bad.status, 2) << value;
        EXPECT_NE(bad.err.find(option), std::string::npos) << bad.err;
        EXPECT_NE(bad.err.find(std::string("must be a whole number in plain decimal digits")),
                  std::string::npos)
            << bad.err;
        EXPECT_NE(bad.err.find(value), std::string::npos) << bad.err;
      }
    }
  }
  EXPECT_GE(integers, 20u);
}

TEST(OutputIntegrity, LeadingZerosAreDecimal) {
  // CLI11 alone reads 010 as octal 8.
  const auto rounds = [](const char* value) {
    const testing::CliResult r =
        testing::run_cli({"account", "--graph", "ring:n=5", "--rounds", value, "--json", "--summary-only"});
    EXPECT_EQ(r.status, 0) << r.err;
    return nlohmann::json::parse(r.out)["summary"]["parameters"]["rounds"].get<int>();
  };
  EXPECT_EQ(rounds("010"), 10);
  EXPECT_EQ(rounds("0010"), 10);
}

TEST(OutputIntegrity, MfDSgdReadsTheCorrelationThatFactorizeWrote) {
  // check_request sees the request with C read from --correlation, for account and audit alike.
  const TempDir dir("mf-d-sgd");
  const std::string c = (dir.path() / "C.mtx").string();
  const testing::CliResult factorize =
      testing::run_cli({"factorize", "--rounds", "4", "--method", "sqrt", "--out", c, "--quiet"});
  ASSERT_EQ(factorize.status, 0) << factorize.err;
  const std::vector<std::string> mf = {"--graph",       "ring:n=5", "--method", "mf",
                                       "--algorithm",   "mf-d-sgd", "--rounds", "4",
                                       "--correlation", c};
  std::vector<std::string> account = {"account", "--json", "--summary-only", "--quiet"};
  account.insert(account.end(), mf.begin(), mf.end());
  const testing::CliResult a = testing::run_cli(account);
  ASSERT_EQ(a.status, 0) << a.err;
  const nlohmann::json summary = nlohmann::json::parse(a.out)["summary"];
  EXPECT_EQ(summary["parameters"]["algorithm"], "mf-d-sgd");
  EXPECT_GT(summary["pairs"].get<int>(), 0);
  EXPECT_GT(summary["epsilon_max"].get<double>(), 0.0);
  std::vector<std::string> audit = {"audit", "--json", "--quiet", "--trials", "200", "--target", "1"};
  audit.insert(audit.end(), mf.begin(), mf.end());
  const testing::CliResult u = testing::run_cli(audit);
  EXPECT_TRUE(u.status == 0 || u.status == 3) << u.err;
  EXPECT_EQ(u.err.find("needs --correlation"), std::string::npos) << u.err;
  EXPECT_EQ(nlohmann::json::parse(u.out)["algorithm"], "mf-d-sgd");
  // Without the file, both still refuse.
  account.resize(account.size() - 2);
  EXPECT_NE(testing::run_cli(account).err.find("--algorithm mf-d-sgd needs --correlation C.mtx"),
            std::string::npos);
}

}  // namespace
}  // namespace netdp::cli
