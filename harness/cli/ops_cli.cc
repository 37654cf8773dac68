// `onnxgate ops --ep <ep>`: for every ONNX operator of every domain the linked ONNX release knows
// (ONNX 1.23.2: default domain up to opset 28, ai.onnx.ml up to 5) and each of its schema
// versions, whether the EP claims it and how its cases fared. A runtime that lists no claims
// (an adapter over another runtime's API) gets the table from the results alone.
#include <cstdio>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "conformance/matrix.h"
#include "conformance/op_schemas.h"
#include "harness/cli/cli.h"
#include "harness/ep_target.h"
#include "reports/json_writer.h"
#include "reports/text_escape.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate {

namespace {

struct OpsFlags {
  std::string ep;
  std::string results;
  std::string json_path;
  bool only_gaps = false;
  RuntimeFlags runtime;
};

// What the providers of the target claim; nullopt when none of them lists a claim.
std::optional<std::vector<OpClaim>> ClaimsOf(const RuntimeUnderTest& runtime,
                                             const EpTarget& target, Status* why_none) {
  std::vector<OpClaim> all;
  for (const std::string& provider : target.providers) {
    StatusOr<std::vector<OpClaim>> claims = runtime.Claims(provider);
    if (!claims.ok()) {
      *why_none = claims.status();
      continue;
    }
    all.insert(all.end(), claims->begin(), claims->end());
  }
  if (all.empty()) {
    if (why_none->ok()) *why_none = NotFound("the runtime lists no claims for " + target.label);
    return std::nullopt;
  }
  return all;
}

bool Claimed(const std::vector<OpClaim>& claims, const OperatorVersions& op, int v) {
  for (const OpClaim& c : claims) {
    if (c.domain == op.domain && c.op_type == op.op_type && c.since_version <= v &&
        v <= c.until_version) {
      return true;
    }
  }
  return false;
}

// The state of one op version on the EP: lacks (no kernel claims it), untested (claimed, or
// claims unknown, and no case), passes (every case passes), fails (some case does not pass).
std::string StateOf(std::optional<bool> claimed, const MatrixCell* cell) {
  if (claimed == false) return "lacks";
  if (cell == nullptr) return "untested";
  int64_t bad = cell->counts.total() - cell->counts[Verdict::kPass] - cell->counts[Verdict::kSkip];
  return bad == 0 ? "passes" : "fails";
}

// The matrix of the report's cases on `ep`; a warning on stderr when it has none of them.
StatusOr<std::vector<MatrixCell>> MatrixOfResults(const std::string& path, const std::string& ep) {
  ONNXGATE_ASSIGN_OR_RETURN(RunRecord run, ReadRunJson(path));
  std::vector<CaseRecord> of_ep;
  std::set<std::string> others;
  for (const CaseRecord& c : run.cases) {
    if (c.ep == ep) {
      of_ep.push_back(c);
    } else {
      others.insert(c.ep);
    }
  }
  if (of_ep.empty()) {
    std::string list;
    for (const std::string& o : others) list += (list.empty() ? "" : ", ") + o;
    std::fprintf(stderr,
                 "onnxgate ops: warning: %s has no case on EP '%s' (its cases ran on: %s); give "
                 "--ep to match\n",
                 EscapeForTerminal(path).c_str(), EscapeForTerminal(ep).c_str(),
                 list.empty() ? "none" : EscapeForTerminal(list).c_str());
  }
  return BuildMatrix(of_ep);
}

// Prints the table and returns it as JSON.
nlohmann::json PrintTable(const OpsFlags& f, const std::optional<std::vector<OpClaim>>& claims,
                          const std::vector<MatrixCell>& matrix) {
  std::map<std::pair<std::string, int64_t>, const MatrixCell*> cells;
  for (const MatrixCell& c : matrix) cells[{c.op, c.since_version}] = &c;
  nlohmann::json out = nlohmann::json::array();
  std::map<std::string, int> totals;
  for (const OperatorVersions& op : AllOperators()) {
    std::string name = QualifiedOpName(op.domain, op.op_type);
    nlohmann::json versions = nlohmann::json::array();
    std::string line;
    for (int v : op.since_versions) {
      std::optional<bool> claimed;
      if (claims) claimed = Claimed(*claims, op, v);
      auto it = cells.find({name, v});
      const MatrixCell* cell = it == cells.end() ? nullptr : it->second;
      std::string state = StateOf(claimed, cell);
      ++totals[state];
      nlohmann::json j = {{"since_version", v}, {"state", state}};
      j["claimed"] = claimed ? nlohmann::json(*claimed) : nlohmann::json(nullptr);
      if (cell != nullptr) {
        nlohmann::json counts;
        for (Verdict verdict : kAllVerdicts) {
          if (cell->counts[verdict] > 0) counts[VerdictToString(verdict)] = cell->counts[verdict];
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
      std::printf("%-32s%s%s\n", name.c_str(), line.c_str(), op.deprecated ? "  [deprecated]" : "");
    out.push_back({{"op", name}, {"deprecated", op.deprecated}, {"versions", versions}});
  }
  std::printf("\n%s op versions:", EscapeForTerminal(f.ep).c_str());
  for (const auto& [state, n] : totals) std::printf(" %d %s", n, state.c_str());
  if (claims) {
    std::printf(
        "  (states: passes = claimed, every case passes; fails = claimed, some case does "
        "not pass; untested = claimed, no case%s; lacks = no kernel)\n",
        f.results.empty() ? " — give --results to see cases" : "");
  } else {
    std::printf(
        "  (from the results alone, the runtime lists no claims: passes = every case passes; "
        "fails = some case does not pass; untested = no case)\n");
  }
  return out;
}

int OpsCommand(OpsFlags& f, const CliContext& ctx) {
  std::unique_ptr<RuntimeUnderTest> runtime = CreateRuntimeOrReport(f.runtime, ctx, "ops");
  if (runtime == nullptr) return 2;
  if (f.ep.empty() && !runtime->providers().empty()) f.ep = runtime->providers().front();
  StatusOr<EpTarget> target = ParseEpTarget(f.ep);
  Status offered = target.ok() ? CheckTargetOffered(*runtime, *target) : target.status();
  if (!offered.ok()) {
    std::fprintf(stderr, "onnxgate ops: %s\n", EscapeForTerminal(offered.message()).c_str());
    return 2;
  }
  Status why_none;
  const std::optional<std::vector<OpClaim>> claims = ClaimsOf(*runtime, *target, &why_none);
  // Without claims the table can only come from results.
  if (!claims && f.results.empty()) {
    std::fprintf(stderr, "onnxgate ops: %s (give --results to see the op versions of a run)\n",
                 EscapeForTerminal(why_none.message()).c_str());
    return 2;
  }
  std::vector<MatrixCell> matrix;
  if (!f.results.empty()) {
    StatusOr<std::vector<MatrixCell>> of_results = MatrixOfResults(f.results, f.ep);
    if (!of_results.ok()) {
      std::fprintf(stderr, "onnxgate ops: %s\n",
                   EscapeForTerminal(of_results.status().message()).c_str());
      return 2;
    }
    matrix = std::move(of_results).value();
  }
  const nlohmann::json table = PrintTable(f, claims, matrix);
  if (!f.json_path.empty()) {
    nlohmann::json doc = {{"schema", "onnxgate-ops"},
                          {"schema_version", 1},
                          {"ep", f.ep},
                          {"claims_listed", claims.has_value()},
                          {"operators", table}};
    Status st = WriteFileAtomically(f.json_path, doc.dump(2) + "\n");
    if (!st.ok()) {
      std::fprintf(stderr, "onnxgate ops: %s\n", st.message().c_str());
      return 2;
    }
  }
  return 0;
}

}  // namespace

void AddOpsCommand(CLI::App& app, CliContext& ctx) {
  static OpsFlags f;
  CLI::App* cmd = app.add_subcommand(
      "ops",
      "For every ONNX operator and schema version the linked ONNX release knows (every domain, "
      "up to its highest opset): does the EP claim it, and do its cases pass, fail, or is it "
      "lacking. A runtime that lists no claims gets the table from --results alone");
  AddRuntimeFlags(cmd, &f.runtime);
  cmd->add_option("--ep", f.ep,
                  "Execution provider, or a '+'-joined priority list as run named it (default: "
                  "the runtime's first provider, ref for builtin)");
  cmd->add_option("--results", f.results,
                  "JSON report of a run (onnxgate run/gate --json) whose cases on --ep say pass "
                  "or fail (a warning when it has none)");
  cmd->add_option("--json", f.json_path, "Also write the table as JSON to this file");
  cmd->add_flag("--gaps", f.only_gaps, "Print only op versions that are not 'passes'");
  cmd->callback([&ctx] { ctx.action = [&ctx] { return OpsCommand(f, ctx); }; });
}

}  // namespace onnxgate
