// onnxgate_import_onnx_tests: imports ONNX backend test folders as a suite with goldens.
// Exit codes: 0 imported (skipped cases are listed), 2 usage or infrastructure error.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "golden/importer.h"

namespace {

const char kUsage[] =
    "usage: onnxgate_import_onnx_tests --source DIR --suite NAME --repo-root DIR --producer TEXT\n"
    "           [--description TEXT] [--provenance TEXT] [--license TEXT] [--created UTC-TIME]\n"
    "           [--rtol X] [--atol X]\n"
    "Copies each DIR/test_*/model.onnx to REPO/suites/NAME/models/, writes its test data sets to\n"
    "REPO/golden/data/NAME/<case>.h5 and lists the cases in REPO/suites/NAME/suite.json.\n"
    "--created fixes the time written into the goldens, so that re-imports are byte-identical.\n";

bool ParseDouble(const std::string& text, double* out) {
  char* end = nullptr;
  *out = std::strtod(text.c_str(), &end);
  return !text.empty() && end != nullptr && *end == '\0';
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string key = argv[i];
    if (key == "-h" || key == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (key.rfind("--", 0) != 0 || i + 1 >= argc) {
      std::fprintf(stderr, "bad argument '%s'\n%s", key.c_str(), kUsage);
      return 2;
    }
    args[key.substr(2)] = argv[++i];
  }
  static const char* const kKnown[] = {"source",  "suite",   "repo-root", "producer", "description",
                                       "provenance", "license", "created", "rtol", "atol"};
  for (const auto& [key, value] : args) {
    bool known = false;
    for (const char* k : kKnown) known = known || key == k;
    if (!known) {
      std::fprintf(stderr, "unknown option --%s\n%s", key.c_str(), kUsage);
      return 2;
    }
  }
  for (const char* required : {"source", "suite", "repo-root", "producer"}) {
    if (args.count(required) == 0) {
      std::fprintf(stderr, "missing --%s\n%s", required, kUsage);
      return 2;
    }
  }
  onnxgate::ImportOptions options;
  options.source_dir = args["source"];
  options.suite_name = args["suite"];
  options.repo_root = args["repo-root"];
  options.producer = args["producer"];
  options.description = args["description"];
  options.source = args["provenance"];
  options.license = args["license"];
  options.created = args["created"];
  if ((args.count("rtol") && !ParseDouble(args["rtol"], &options.default_rtol)) ||
      (args.count("atol") && !ParseDouble(args["atol"], &options.default_atol))) {
    std::fprintf(stderr, "--rtol and --atol take numbers\n");
    return 2;
  }
  onnxgate::StatusOr<onnxgate::ImportReport> report = onnxgate::ImportOnnxTests(options);
  if (!report.ok()) {
    std::fprintf(stderr, "import failed: %s\n", report.status().ToString().c_str());
    return 2;
  }
  std::printf("imported %zu cases (%lld test data sets) into %s\n", report->imported.size(),
              static_cast<long long>(report->data_sets), report->suite_json.c_str());
  if (!report->skipped.empty()) {
    std::printf("skipped %zu cases:\n", report->skipped.size());
    for (const auto& s : report->skipped) std::printf("  %s: %s\n", s.name.c_str(), s.reason.c_str());
  }
  return 0;
}
