// `onnxgate ops --ep <ep>`: for every ONNX operator of every domain the linked ONNX release knows
// (ONNX 1.23.2: default domain up to opset 28, ai.onnx.ml up to 5) and each of its schema
// versions, whether the EP claims it and how its cases fared.
#include <cstdio>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "conformance/matrix.h"
#include "conformance/op_schemas.h"
#include "harness/cli/cli.h"
#include "reports/json_writer.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate {

namespace {

struct OpsFlags {
  std::string ep = "ref";
  std::string results;
  std::string json_path;
  bool only_gaps = false;
  RuntimeFlags runtime;
};

// The state of one op version on the EP: lacks (no kernel claims it), untested (claimed, no
// case), passes (claimed, every case passes), fails (claimed, some case does not pass).
std::string StateOf(bool claimed, const MatrixCell* cell) {
  if (!claimed) return "lacks";
  if (cell == nullptr) return "untested";
  int64_t bad = cell->counts.total() - cell->counts[Verdict::kPass] - cell->counts[Verdict::kSkip];
  return bad == 0 ? "passes" : "fails";
}

}  // namespace

void AddOpsCommand(CLI::App& app, CliContext& ctx) {
  static OpsFlags f;
  CLI::App* cmd = app.add_subcommand(
      "ops",
      "For every ONNX operator and schema version the linked ONNX release knows (every domain, "
      "up to its highest opset): does the EP claim it, and do its cases pass, fail, or is it "
      "lacking");
  AddRuntimeFlags(cmd, &f.runtime);
  cmd->add_option("--ep", f.ep, "Execution provider")->capture_default_str();
  cmd->add_option("--results", f.results,
                  "JSON report of a run (onnxgate run/gate --json) whose cases say pass or fail");
  cmd->add_option("--json", f.json_path, "Also write the table as JSON to this file");
  cmd->add_flag("--gaps", f.only_gaps, "Print only op versions that are not 'passes'");
  cmd->callback([&ctx] {
    ctx.action = [&ctx] {
      std::unique_ptr<RuntimeUnderTest> runtime = CreateRuntimeOrReport(f.runtime, ctx, "ops");
      if (runtime == nullptr) return 2;
      auto claims = runtime->Claims(f.ep);
      if (!claims.ok()) {
        std::fprintf(stderr, "onnxgate ops: %s\n", claims.status().message().c_str());
        return 2;
      }
      std::vector<MatrixCell> matrix;
      if (!f.results.empty()) {
        auto run = ReadRunJson(f.results);
        if (!run.ok()) {
          std::fprintf(stderr, "onnxgate ops: %s\n", run.status().message().c_str());
          return 2;
        }
        std::vector<CaseRecord> of_ep;
        for (const CaseRecord& c : run->cases) {
          if (c.ep == f.ep) of_ep.push_back(c);
        }
        matrix = BuildMatrix(of_ep);
      }
      std::map<std::pair<std::string, int64_t>, const MatrixCell*> cells;
      for (const MatrixCell& c : matrix) cells[{c.op, c.since_version}] = &c;

      nlohmann::json out = nlohmann::json::array();
      std::map<std::string, int> totals;
      for (const OperatorVersions& op : AllOperators()) {
        std::string name = QualifiedOpName(op.domain, op.op_type);
        nlohmann::json versions = nlohmann::json::array();
        std::string line;
        for (int v : op.since_versions) {
          bool claimed = false;
          for (const OpClaim& c : *claims) {
            if (c.domain == op.domain && c.op_type == op.op_type && c.since_version <= v &&
                v <= c.until_version) {
              claimed = true;
            }
          }
          auto it = cells.find({name, v});
          const MatrixCell* cell = it == cells.end() ? nullptr : it->second;
          std::string state = StateOf(claimed, cell);
          ++totals[state];
          nlohmann::json j = {{"since_version", v}, {"claimed", claimed}, {"state", state}};
          if (cell != nullptr) {
            nlohmann::json counts;
            for (Verdict verdict : kAllVerdicts) {
              if (cell->counts[verdict] > 0)
                counts[VerdictToString(verdict)] = cell->counts[verdict];
            }
            j["cases"] = counts;
          }
          versions.push_back(j);
          if (!f.only_gaps || state != "passes") {
            line += "  v" + std::to_string(v) + ":" + state;
            if (cell != nullptr) {
              line += "(" + std::to_string(cell->counts[Verdict::kPass]) + "/" +
                      std::to_string(cell->counts.total()) + ")";
            }
          }
        }
        if (!line.empty())
          std::printf("%-32s%s%s\n", name.c_str(), line.c_str(),
                      op.deprecated ? "  [deprecated]" : "");
        out.push_back({{"op", name}, {"deprecated", op.deprecated}, {"versions", versions}});
      }
      std::printf("\n%s op versions:", f.ep.c_str());
      for (const auto& [state, n] : totals) std::printf(" %d %s", n, state.c_str());
      std::printf(
          "  (states: passes = claimed, every case passes; fails = claimed, some case does "
          "not pass; untested = claimed, no case%s; lacks = no kernel)\n",
          f.results.empty() ? " — give --results to see cases" : "");
      if (!f.json_path.empty()) {
        nlohmann::json doc = {
            {"schema", "onnxgate-ops"}, {"schema_version", 1}, {"ep", f.ep}, {"operators", out}};
        Status st = WriteFileAtomically(f.json_path, doc.dump(2) + "\n");
        if (!st.ok()) {
          std::fprintf(stderr, "onnxgate ops: %s\n", st.message().c_str());
          return 2;
        }
      }
      return 0;
    };
  });
}

}  // namespace onnxgate
