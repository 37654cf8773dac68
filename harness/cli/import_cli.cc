// `onnxgate import-onnx-tests <dir> --suite <name>`: ONNX backend test folders -> suite + goldens.
#include <cstdio>

#include "golden/importer.h"
#include "harness/cli/cli.h"
#include "reports/text_escape.h"

namespace onnxgate {

void AddImportCommand(CLI::App& app, CliContext& ctx) {
  static ImportOptions options;
  options.producer = "ONNX backend test data generator";
  CLI::App* cmd = app.add_subcommand(
      "import-onnx-tests",
      "Turn ONNX backend test folders (test_*/model.onnx, test_data_set_*/input_*.pb, "
      "output_*.pb)\n"
      "into suites/<suite>/ (suite.json + models) and golden/data/<suite>/<case>.h5");
  cmd->add_option("dir", options.source_dir, "Folder holding the test_* case folders")->required();
  cmd->add_option("--suite", options.suite_name, "Name of the suite to write")->required();
  cmd->add_option("--producer", options.producer, "Who computed the expected outputs, with version")
      ->capture_default_str();
  cmd->add_option("--description", options.description, "suite.json description");
  cmd->add_option("--source", options.source, "Provenance written to suite.json and every golden");
  cmd->add_option("--license", options.license, "Licence of the imported data, for suite.json");
  cmd->add_option("--created", options.created,
                  "UTC time written into the goldens (fixed value: byte-identical re-imports)");
  cmd->callback([&ctx] {
    ctx.action = [&ctx] {
      options.repo_root = ctx.root;
      auto report = ImportOnnxTests(options);
      if (!report.ok()) {
        std::fprintf(stderr, "onnxgate import-onnx-tests: %s\n", report.status().message().c_str());
        return 2;
      }
      for (const SkippedCase& s : report->skipped) {
        std::printf("skipped %s: %s\n", EscapeForTerminal(s.name).c_str(),
                    EscapeForTerminal(s.reason).c_str());
      }
      // Entries of the previous suite.json that this import did not rewrite stay as they were.
      for (const std::string& name : report->kept) {
        std::printf("kept %s: its previous suite.json entry (not written by this import)\n",
                    EscapeForTerminal(name).c_str());
      }
      std::printf("imported %zu case(s) with %lld data set(s) into %s; %zu skipped; %zu kept\n",
                  report->imported.size(), static_cast<long long>(report->data_sets),
                  report->suite_json.c_str(), report->skipped.size(), report->kept.size());
      return 0;
    };
  });
}

}  // namespace onnxgate
