// `onnxgate merge SHARD.json...`: one run's reports from the JSON reports of its shards
// (harness/report_merge.h), judged as the unsharded gate would be.
#include <cstdio>

#include "harness/cli/cli.h"
#include "harness/report_merge.h"
#include "reports/json_writer.h"

namespace onnxgate {

namespace {

struct MergeFlags {
  std::vector<std::string> shards;
  bool no_strict = false;
  std::string json_path, junit_path, markdown_path, html_path;
  JunitSchema junit_schema = JunitSchema::kStrict;
};

// 0 when every case met its expectation, 1 when some did not, 2 for an interrupted run; prints
// the totals and the result.
int Judge(const RunRecord& run, bool strict) {
  size_t unexpected = 0;
  for (const CaseRecord& r : run.cases) unexpected += IsUnexpected(r, strict) ? 1 : 0;
  const VerdictCounts totals = CountVerdicts(run.cases);
  std::printf("Merged: %zu case(s) x EP", run.cases.size());
  for (Verdict v : kAllVerdicts) {
    if (totals[v] > 0) std::printf(", %zu %s", static_cast<size_t>(totals[v]), VerdictToString(v));
  }
  std::printf("\n");
  if (run.status == RunStatus::kInterrupted) {
    std::printf("Result: INTERRUPTED (%s)\n", run.status_message.c_str());
    return 2;
  }
  std::printf("%s\n", unexpected == 0 ? "Result: all expectations met" : "Result: FAILED");
  return unexpected == 0 ? 0 : 1;
}

}  // namespace

void AddMergeCommand(CLI::App& app, CliContext& ctx) {
  static MergeFlags f;
  CLI::App* cmd = app.add_subcommand(
      "merge", "Merge the JSON reports of one run's shards into that run's reports");
  cmd->add_option("shards", f.shards, "JSON reports of the shards (onnxgate run/gate --json)")
      ->required();
  cmd->add_flag("--no-strict", f.no_strict,
                "Judge as gate --no-strict does: an expected failure that passed is not a failure");
  AddReportOutputs(cmd, &f.json_path, &f.junit_path, &f.markdown_path, &f.html_path,
                   &f.junit_schema);
  cmd->callback([&ctx] {
    ctx.action = [] {
      std::vector<RunRecord> shards;
      for (const std::string& path : f.shards) {
        StatusOr<RunRecord> run = ReadRunJson(path);
        if (!run.ok()) {
          std::fprintf(stderr, "onnxgate merge: %s\n", run.status().message().c_str());
          return 2;
        }
        shards.push_back(std::move(run).value());
      }
      StatusOr<RunRecord> merged = MergeShardReports(shards, f.shards, !f.no_strict);
      if (!merged.ok()) {
        std::fprintf(stderr, "onnxgate merge: %s\n", merged.status().message().c_str());
        return 2;
      }
      if (!WriteReportsOf(*merged, f.json_path, f.junit_path, f.markdown_path, f.html_path,
                          f.junit_schema)) {
        return 2;
      }
      return Judge(*merged, !f.no_strict);
    };
  });
}

}  // namespace onnxgate
