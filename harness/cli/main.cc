// onnxgate: validation and regression test framework for ONNX runtimes.
#include <unistd.h>

#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "harness/cli/cli.h"
#include "harness/cli/did_you_mean.h"
#include "runtime/onnx/op_spec.h"

namespace {

std::string ExecutablePath(const char* argv0) {
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return argv0;
  buf[n] = '\0';
  return buf;
}

// The installed data folder (<prefix>/share/onnxgate next to <prefix>/bin/onnxgate) when the
// binary runs from an install that holds one, else empty.
std::string InstalledDataDir(const std::string& executable) {
  namespace fs = std::filesystem;
  const fs::path dir =
      (fs::path(executable).parent_path() / ONNXGATE_INSTALLED_DATA_DIR).lexically_normal();
  std::error_code ec;
  if (!fs::is_directory(dir / "suites", ec)) return "";
  return dir.string();
}

// $ONNXGATE_ROOT, else the installed data folder, else the source tree the binary was built from.
std::string DefaultRoot(const std::string& executable) {
  if (const char* env = std::getenv("ONNXGATE_ROOT")) return env;
  const std::string installed = InstalledDataDir(executable);
  if (!installed.empty()) return installed;
  return ONNXGATE_SOURCE_DIR;
}

}  // namespace

int main(int argc, char** argv) {
  // A reader that goes away (`onnxgate gate ... | head`) must not kill the run before it writes
  // its reports: writes to a closed stdout fail with EPIPE instead, and are ignored.
  std::signal(SIGPIPE, SIG_IGN);
  onnxgate::CliContext ctx;
  ctx.argv.assign(argv, argv + argc);
  ctx.executable = ExecutablePath(argv[0]);
  ctx.root = DefaultRoot(ctx.executable);

  CLI::App app{
      "onnxgate " ONNXGATE_VERSION
      ": validation and regression test framework for ONNX runtimes.\n"
      "Runs conformance suites on a runtime's execution providers, compares outputs with HDF5\n"
      "goldens under rtol/atol and writes JUnit XML, JSON, Markdown and HTML reports.\n"
      "Exit codes: 0 all expectations met, 1 unexpected results, 2 usage or infrastructure error."};
  app.require_subcommand(1);
  app.add_option("--root", ctx.root,
                 "Folder holding suites/, golden/data/, conformance/ and adapters/ (default: "
                 "$ONNXGATE_ROOT, else " ONNXGATE_INSTALLED_DATA_DIR
                 " next to an installed binary, else the source tree this binary was built from)")
      ->capture_default_str();
  app.set_version_flag("--version", std::string("onnxgate ") + ONNXGATE_VERSION + " (ONNX " +
                                        onnxgate::OnnxReleaseVersion() + ")");
  onnxgate::AddRunCommands(app, ctx);
  onnxgate::AddImportCommand(app, ctx);
  onnxgate::AddListCommand(app, ctx);
  onnxgate::AddExpectationsCommand(app, ctx);
  onnxgate::AddOpsCommand(app, ctx);
  onnxgate::AddZooCommand(app, ctx);
  onnxgate::AddBenchCommands(app, ctx);
  onnxgate::AddRecordCommand(app, ctx);
  onnxgate::AddCheckModelCommand(app, ctx);
  onnxgate::AddDiffCommand(app, ctx);
  onnxgate::AddSweepCommand(app, ctx);
  onnxgate::AddReportCommand(app, ctx);
  onnxgate::AddMergeCommand(app, ctx);
  onnxgate::AddDiffReportsCommand(app, ctx);
  onnxgate::AddMatrixCommand(app, ctx);
  onnxgate::AddHistoryCommand(app, ctx);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0 through here; usage errors exit 2.
    int code = app.exit(e);
    if (code != 0) {
      const std::string hint =
          onnxgate::DidYouMean(app, std::vector<std::string>(argv + 1, argv + argc));
      if (!hint.empty()) std::fprintf(stderr, "onnxgate: %s", hint.c_str());
    }
    return code == 0 ? 0 : 2;
  }
  return ctx.action ? ctx.action() : 2;
}
