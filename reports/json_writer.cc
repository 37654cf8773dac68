// JSON run report writer; field names and meanings are documented in
// docs/report-json-schema.md, which must change together with this file.
#include "reports/json_writer.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "reports/format.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate {
namespace {

// Keeps keys in the order written, so the file reads top-down like the schema document.
using Json = nlohmann::ordered_json;

// JSON has no infinities or NaN; they are spelled as strings the reader understands.
Json Number(double value) {
  if (std::isfinite(value)) return value;
  return FormatNumber(value);
}

Json IntMap(const std::map<std::string, int64_t>& map) {
  Json out = Json::object();
  for (const auto& [key, value] : map) out[key] = value;
  return out;
}

Json PlacementJson(const PlacementRecord& p) {
  Json declines = Json::array();
  for (const DeclineRecord& d : p.declines) {
    declines.push_back({{"ep", d.ep}, {"reason", d.reason}});
  }
  Json j = {{"node", p.node}, {"op_type", p.op_type}, {"ep", p.ep}, {"declines", declines}};
  if (!p.subgraph.empty()) j["subgraph"] = p.subgraph;
  return j;
}

Json OutputJson(const OutputComparison& o) {
  Json j;
  j["name"] = o.output_name;
  j["set"] = o.set_index;
  j["dtype"] = o.dtype;
  j["expected_shape"] = o.expected_shape;
  j["actual_shape"] = o.actual_shape;
  j["passed"] = o.passed;
  if (!o.error.empty()) j["error"] = o.error;
  j["rtol"] = Number(o.rtol);
  j["atol"] = Number(o.atol);
  j["max_abs_error"] = Number(o.max_abs_error);
  j["max_rel_error"] = Number(o.max_rel_error);
  j["mismatches"] = o.mismatch_count;
  j["mismatch_share"] = Number(o.mismatch_share);
  j["total_elements"] = o.total_elements;
  if (o.worst_index >= 0) {
    j["worst"] = {{"index", o.worst_index},
                  {"index_nd", o.worst_index_nd},
                  {"expected", o.worst_expected},
                  {"actual", o.worst_actual}};
  }
  j["min_passing_rtol"] = Number(o.min_passing_rtol);
  j["min_passing_atol"] = Number(o.min_passing_atol);
  if (!o.metrics.empty()) {
    Json metrics = Json::array();
    for (const MetricRecord& m : o.metrics) {
      metrics.push_back({{"metric", m.metric},
                         {"value", Number(m.value)},
                         {"bound", m.at_least ? ">=" : "<="},
                         {"threshold", Number(m.threshold)},
                         {"passed", m.passed},
                         {"margin", Number(m.margin)}});
    }
    j["metrics"] = metrics;
  }
  return j;
}

Json CaseJson(const CaseRecord& c) {
  Json j;
  j["suite"] = c.suite;
  j["case"] = c.name;
  if (!c.runtime.empty()) j["runtime"] = c.runtime;
  j["ep"] = c.ep;
  j["verdict"] = VerdictToString(c.verdict);
  j["outcome"] = VerdictToString(c.outcome);
  j["expectation_reason"] = c.expectation_reason;
  j["message"] = c.message;
  j["duration_s"] = Number(c.duration_s);
  j["op_types"] = c.op_types;
  j["opset_imports"] = IntMap(c.opset_imports);
  j["op_versions"] = IntMap(c.op_versions);
  Json placements = Json::array();
  for (const PlacementRecord& p : c.placements) placements.push_back(PlacementJson(p));
  j["placements"] = placements;
  if (!c.fallbacks.empty()) {
    Json fallbacks = Json::array();
    for (const FallbackRecord& f : c.fallbacks) {
      fallbacks.push_back(
          {{"node", f.node}, {"op_type", f.op_type}, {"ep", f.ep}, {"shape_only", f.shape_only}});
    }
    j["fallbacks"] = fallbacks;
  }
  Json outputs = Json::array();
  for (const OutputComparison& o : c.outputs) outputs.push_back(OutputJson(o));
  j["outputs"] = outputs;
  if (c.first_divergence) {
    const DivergenceRecord& d = *c.first_divergence;
    j["first_divergence"] = {{"node", d.node},
                             {"op", d.op},
                             {"value", d.value},
                             {"set", d.set_index},
                             {"max_abs_error", Number(d.max_abs_error)},
                             {"max_rel_error", Number(d.max_rel_error)},
                             {"summary", d.summary}};
  }
  j["reproducer"] = c.reproducer;
  if (!c.runtime_log.empty()) j["runtime_log"] = c.runtime_log;
  return j;
}

Json LatencyJson(const LatencyRecord& r) {
  Json j;
  j["model"] = r.model;
  if (!r.runtime.empty()) j["runtime"] = r.runtime;
  j["ep"] = r.ep;
  if (!r.against.empty()) j["against"] = r.against;
  j["threads"] = r.threads;
  if (!r.shapes.empty()) j["shapes"] = r.shapes;
  if (!r.fallback.empty()) j["fallback"] = r.fallback;
  if (!r.timed_by.empty()) j["timed_by"] = r.timed_by;
  if (!r.clock.empty()) j["clock"] = r.clock;
  j["repetitions"] = r.repetitions;
  j["median_ms"] = Number(r.median_ms);
  j["min_ms"] = Number(r.min_ms);
  j["p90_ms"] = Number(r.p90_ms);
  j["p99_ms"] = Number(r.p99_ms);
  j["mean_ms"] = Number(r.mean_ms);
  j["cv"] = Number(r.cv);
  const auto optional = [&](const char* key, const std::optional<double>& value) {
    if (value) j[key] = Number(*value);
  };
  optional("load_ms", r.load_ms);
  optional("first_run_ms", r.first_run_ms);
  optional("baseline_median_ms", r.baseline_median_ms);
  optional("change_ratio", r.change_ratio);
  optional("threshold", r.threshold);
  optional("p_value", r.p_value);
  j["verdict"] = LatencyVerdictToString(r.verdict);
  j["message"] = r.message;
  if (!r.noise.empty()) {
    j["unreliable"] = true;
    j["noise"] = r.noise;
  }
  return j;
}

// Only the verdicts that occur, to keep a matrix of a few hundred cells short; absent means 0.
Json MatrixCellJson(const MatrixCell& cell) {
  Json counts = Json::object();
  for (Verdict v : kAllVerdicts) {
    if (cell.counts[v] != 0) counts[VerdictToString(v)] = cell.counts[v];
  }
  Json j = {{"op", cell.op}, {"since_version", cell.since_version}};
  if (!cell.runtime.empty()) j["runtime"] = cell.runtime;
  j["ep"] = cell.ep;
  j["counts"] = counts;
  j["failing_cases"] = cell.failing_cases;
  return j;
}

Json NotRunJson(const NotRunRecord& r) {
  Json j = {{"suite", r.suite}, {"case", r.name}, {"op_types", r.op_types}};
  if (!r.runtime.empty()) j["runtime"] = r.runtime;
  j["ep"] = r.ep;
  j["reason"] = r.reason;
  j["reproducer"] = r.reproducer;
  return j;
}

Json CoverageJson(const CoverageRecord& r) {
  return {{"op", r.op},
          {"covered_versions", r.covered_versions},
          {"uncovered_versions", r.uncovered_versions}};
}

// The gate's outcome: passed, strict, unexpected outcomes by kind, the file per runtime/EP.
Json GateJson(const GateRecord& gate) {
  const GateUnexpectedCounts& u = gate.unexpected;
  Json expectations = Json::array();
  for (const GateExpectationsRecord& e : gate.expectations) {
    Json j = {{"runtime", e.runtime}, {"ep", e.ep}};
    j["file"] = e.found ? Json(e.file) : Json(nullptr);
    j["found"] = e.found;
    if (!e.found) j["looked_for"] = e.file;
    j["entries"] = e.entries;
    expectations.push_back(j);
  }
  Json out = {{"passed", gate.passed},
              {"strict", gate.strict},
              {"unexpected",
               {{"total", u.total()},
                {"failures", u.failures},
                {"crashes", u.crashes},
                {"timeouts", u.timeouts},
                {"unresolved", u.unresolved},
                {"unsupported", u.unsupported},
                {"xpass", u.xpass}}},
              {"expectations", expectations}};
  if (!gate.against_report.empty()) {
    out["against_report"] = {{"file", gate.against_report},
                             {"worse", gate.worse_than_release},
                             {"better", gate.better_than_release},
                             {"margin_grew", gate.margin_grew_since_release}};
  }
  return out;
}

}  // namespace

std::string RenderRunJson(const RunRecord& run) {
  Json j;
  j["schema"] = kRunSchemaName;
  j["schema_version"] = run.schema_version;
  j["tool"] = {{"name", run.tool_name}, {"version", run.tool_version}};
  j["runtime"] = {{"name", run.runtime_name}, {"version", run.runtime_version}};
  if (!run.runtimes.empty()) {
    Json runtimes = Json::array();
    for (const RuntimeRecord& r : run.runtimes) {
      runtimes.push_back(
          {{"label", r.label}, {"name", r.name}, {"version", r.version}, {"spec", r.spec}});
    }
    j["runtimes"] = runtimes;
  }
  j["start_time"] = FormatUtcTime(run.start_time);
  j["end_time"] = FormatUtcTime(run.end_time);
  j["duration_s"] = Number(run.duration_s);
  j["command_line"] = run.command_line;
  if (!run.isolation.empty()) j["isolation"] = run.isolation;
  j["host"] = {{"hostname", run.host.hostname},
               {"os", run.host.os},
               {"cpu_model", run.host.cpu_model},
               {"logical_cores", run.host.logical_cores}};
  j["suites"] = run.suites;
  j["selection"] = {{"filter", run.selection.filter},
                    {"eps", run.selection.eps},
                    {"shard_index", run.selection.shard_index},
                    {"shard_count", run.selection.shard_count}};
  const VerdictCounts counts = CountVerdicts(run.cases);
  Json totals = Json::object();
  for (Verdict v : kAllVerdicts) totals[VerdictToString(v)] = counts[v];
  j["totals"] = totals;
  Json cases = Json::array();
  for (const CaseRecord& c : run.cases) cases.push_back(CaseJson(c));
  j["cases"] = cases;
  j["status"] = RunStatusToString(run.status);
  j["status_message"] = run.status_message;
  Json not_run = Json::array();
  for (const NotRunRecord& r : run.not_run) not_run.push_back(NotRunJson(r));
  j["not_run"] = not_run;
  Json latency = Json::array();
  for (const LatencyRecord& r : run.latency) latency.push_back(LatencyJson(r));
  j["latency"] = latency;
  Json matrix = Json::array();
  for (const MatrixCell& cell : run.matrix) matrix.push_back(MatrixCellJson(cell));
  j["matrix"] = matrix;
  Json coverage = Json::array();
  for (const CoverageRecord& r : run.coverage) coverage.push_back(CoverageJson(r));
  j["coverage"] = coverage;
  if (run.gate) j["gate"] = GateJson(*run.gate);
  // `replace` turns invalid UTF-8 into U+FFFD instead of throwing.
  return j.dump(2, ' ', /*ensure_ascii=*/false, Json::error_handler_t::replace) + "\n";
}

Status WriteRunJson(const RunRecord& run, const std::string& path) {
  Status st = WriteFileAtomically(path, RenderRunJson(run));
  if (!st.ok()) return st.WithContext("writing JSON report " + path);
  return OkStatus();
}

}  // namespace onnxgate
