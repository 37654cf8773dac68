// The onnxgate command line: each command adds itself to the CLI11 app and sets `action`, which
// main() runs after parsing. Exit codes: 0 met, 1 unexpected results, 2 usage or infrastructure.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace onnxgate {

struct CliContext {
  std::string root;                  // --root: holds suites/, golden/data/, conformance/
  std::vector<std::string> argv;     // as invoked
  std::string executable;            // absolute path of this binary, for reproducer lines
  std::function<int()> action;       // what the chosen command runs
};

void AddRunCommands(CLI::App& app, CliContext& ctx);       // run, gate
void AddImportCommand(CLI::App& app, CliContext& ctx);     // import-onnx-tests
void AddListCommand(CLI::App& app, CliContext& ctx);       // list (and CTest scripts)
void AddExpectationsCommand(CLI::App& app, CliContext& ctx);  // expectations update
void AddOpsCommand(CLI::App& app, CliContext& ctx);        // ops: op versions x EP claims x cases
void AddZooCommand(CLI::App& app, CliContext& ctx);        // zoo generate, zoo list
void AddBenchCommands(CLI::App& app, CliContext& ctx);     // bench, baseline update

}  // namespace onnxgate
