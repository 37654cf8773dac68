// JSON run report reader, on the one JSON reader (runtime/base/json_reader.h): every field's type
// is checked and errors name the field as a path such as cases[3].outputs[0].max_abs_error.
#include "runtime/base/json_reader.h"

#include <cmath>
#include <limits>

#include "reports/format.h"
#include "reports/json_writer.h"
#include "runtime/base/contained_file.h"

namespace onnxgate {
namespace {

// A number, or "inf", "-inf" or "nan" as the writer spells the values JSON has no number for.
Status ReadDouble(const JsonObject& f, const char* key, double* out) {
  std::optional<JsonValue> j = f.Find(key);
  if (!j) return OkStatus();
  if (!j->is_string()) {
    ONNXGATE_ASSIGN_OR_RETURN(*out, j->Number());
    return OkStatus();
  }
  const std::string& s = j->raw().get_ref<const std::string&>();
  if (s == "inf") {
    *out = std::numeric_limits<double>::infinity();
  } else if (s == "-inf") {
    *out = -std::numeric_limits<double>::infinity();
  } else if (s == "nan") {
    *out = std::numeric_limits<double>::quiet_NaN();
  } else {
    return j->TypeError("a number, \"inf\", \"-inf\" or \"nan\"");
  }
  return OkStatus();
}

// A name read with `parse` (VerdictFromString, ...), whose error is put at the field's path.
template <typename T, typename Parse>
Status ReadNamed(const JsonObject& f, const char* key, Parse parse, T* out, bool required) {
  std::optional<JsonValue> j = f.Find(key);
  if (!j) return required ? f.Get(key).status() : OkStatus();
  ONNXGATE_ASSIGN_OR_RETURN(std::string name, j->String());
  if (name.empty() && !required) return OkStatus();
  StatusOr<T> v = parse(name);
  if (!v.ok()) return j->Error(v.status().message());
  *out = *v;
  return OkStatus();
}

Status ParsePlacement(const JsonObject& f, PlacementRecord* p) {
  ONNXGATE_RETURN_IF_ERROR(f.Read("node", &p->node));
  ONNXGATE_RETURN_IF_ERROR(f.Read("op_type", &p->op_type));
  ONNXGATE_RETURN_IF_ERROR(f.Require("ep", &p->ep));
  ONNXGATE_RETURN_IF_ERROR(f.Read("subgraph", &p->subgraph));
  return f.ForEachObject("declines", [&](const JsonObject& d) -> Status {
    DeclineRecord& decline = p->declines.emplace_back();
    ONNXGATE_RETURN_IF_ERROR(d.Require("ep", &decline.ep));
    return d.Read("reason", &decline.reason);
  });
}

Status ParseOutput(const JsonObject& f, OutputComparison* o) {
  ONNXGATE_RETURN_IF_ERROR(f.Require("name", &o->output_name));
  ONNXGATE_RETURN_IF_ERROR(f.Read("set", &o->set_index));
  ONNXGATE_RETURN_IF_ERROR(f.Read("dtype", &o->dtype));
  ONNXGATE_RETURN_IF_ERROR(f.Read("expected_shape", &o->expected_shape));
  ONNXGATE_RETURN_IF_ERROR(f.Read("actual_shape", &o->actual_shape));
  ONNXGATE_RETURN_IF_ERROR(f.Require("passed", &o->passed));
  ONNXGATE_RETURN_IF_ERROR(f.Read("error", &o->error));
  for (auto [key, out] : {std::pair{"rtol", &o->rtol}, std::pair{"atol", &o->atol},
                          std::pair{"max_abs_error", &o->max_abs_error},
                          std::pair{"max_rel_error", &o->max_rel_error},
                          std::pair{"mismatch_share", &o->mismatch_share},
                          std::pair{"min_passing_rtol", &o->min_passing_rtol},
                          std::pair{"min_passing_atol", &o->min_passing_atol}}) {
    ONNXGATE_RETURN_IF_ERROR(ReadDouble(f, key, out));
  }
  ONNXGATE_RETURN_IF_ERROR(f.Read("mismatches", &o->mismatch_count));
  ONNXGATE_RETURN_IF_ERROR(f.Read("total_elements", &o->total_elements));
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<JsonObject> worst, f.OptionalObject("worst"));
  if (worst) {
    ONNXGATE_RETURN_IF_ERROR(worst->Require("index", &o->worst_index));
    ONNXGATE_RETURN_IF_ERROR(worst->Read("index_nd", &o->worst_index_nd));
    ONNXGATE_RETURN_IF_ERROR(worst->Read("expected", &o->worst_expected));
    ONNXGATE_RETURN_IF_ERROR(worst->Read("actual", &o->worst_actual));
  }
  return f.ForEachObject("metrics", [&](const JsonObject& m) -> Status {
    MetricRecord& r = o->metrics.emplace_back();
    ONNXGATE_RETURN_IF_ERROR(m.Require("metric", &r.metric));
    std::string bound;
    ONNXGATE_RETURN_IF_ERROR(m.Read("bound", &bound));
    r.at_least = bound == ">=";
    ONNXGATE_RETURN_IF_ERROR(m.Require("passed", &r.passed));
    for (auto [key, out] : {std::pair{"value", &r.value}, std::pair{"threshold", &r.threshold},
                            std::pair{"margin", &r.margin}}) {
      ONNXGATE_RETURN_IF_ERROR(ReadDouble(m, key, out));
    }
    return OkStatus();
  });
}

Status ParseDivergence(const JsonObject& d, DivergenceRecord* r) {
  ONNXGATE_RETURN_IF_ERROR(d.Require("node", &r->node));
  ONNXGATE_RETURN_IF_ERROR(d.Require("op", &r->op));
  ONNXGATE_RETURN_IF_ERROR(d.Read("value", &r->value));
  ONNXGATE_RETURN_IF_ERROR(d.Read("set", &r->set_index));
  ONNXGATE_RETURN_IF_ERROR(ReadDouble(d, "max_abs_error", &r->max_abs_error));
  ONNXGATE_RETURN_IF_ERROR(ReadDouble(d, "max_rel_error", &r->max_rel_error));
  return d.Read("summary", &r->summary);
}

Status ParseCase(const JsonObject& f, CaseRecord* c) {
  ONNXGATE_RETURN_IF_ERROR(f.Require("suite", &c->suite));
  ONNXGATE_RETURN_IF_ERROR(f.Require("case", &c->name));
  ONNXGATE_RETURN_IF_ERROR(f.Read("runtime", &c->runtime));
  ONNXGATE_RETURN_IF_ERROR(f.Require("ep", &c->ep));
  ONNXGATE_RETURN_IF_ERROR(ReadNamed(f, "verdict", VerdictFromString, &c->verdict, true));
  c->outcome = c->verdict;  // when a report leaves it out, nothing changed it
  ONNXGATE_RETURN_IF_ERROR(ReadNamed(f, "outcome", VerdictFromString, &c->outcome, false));
  ONNXGATE_RETURN_IF_ERROR(f.Read("expectation_reason", &c->expectation_reason));
  ONNXGATE_RETURN_IF_ERROR(f.Read("message", &c->message));
  ONNXGATE_RETURN_IF_ERROR(ReadDouble(f, "duration_s", &c->duration_s));
  ONNXGATE_RETURN_IF_ERROR(f.Read("op_types", &c->op_types));
  ONNXGATE_RETURN_IF_ERROR(f.Read("opset_imports", &c->opset_imports));
  ONNXGATE_RETURN_IF_ERROR(f.Read("op_versions", &c->op_versions));
  ONNXGATE_RETURN_IF_ERROR(f.ForEachObject("placements", [&](const JsonObject& e) {
    return ParsePlacement(e, &c->placements.emplace_back());
  }));
  ONNXGATE_RETURN_IF_ERROR(f.ForEachObject("fallbacks", [&](const JsonObject& e) -> Status {
    FallbackRecord& fallback = c->fallbacks.emplace_back();
    ONNXGATE_RETURN_IF_ERROR(e.Read("node", &fallback.node));
    ONNXGATE_RETURN_IF_ERROR(e.Read("op_type", &fallback.op_type));
    ONNXGATE_RETURN_IF_ERROR(e.Require("ep", &fallback.ep));
    return e.Read("shape_only", &fallback.shape_only);
  }));
  ONNXGATE_RETURN_IF_ERROR(f.ForEachObject(
      "outputs", [&](const JsonObject& e) { return ParseOutput(e, &c->outputs.emplace_back()); }));
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<JsonObject> divergence,
                            f.OptionalObject("first_divergence"));
  if (divergence) {
    ONNXGATE_RETURN_IF_ERROR(ParseDivergence(*divergence, &c->first_divergence.emplace()));
  }
  ONNXGATE_RETURN_IF_ERROR(f.Read("reproducer", &c->reproducer));
  return f.Read("runtime_log", &c->runtime_log);
}

Status ParseLatency(const JsonObject& f, LatencyRecord* r) {
  ONNXGATE_RETURN_IF_ERROR(f.Require("model", &r->model));
  ONNXGATE_RETURN_IF_ERROR(f.Read("runtime", &r->runtime));
  ONNXGATE_RETURN_IF_ERROR(f.Require("ep", &r->ep));
  ONNXGATE_RETURN_IF_ERROR(f.Read("against", &r->against));
  ONNXGATE_RETURN_IF_ERROR(f.Read("threads", &r->threads));
  ONNXGATE_RETURN_IF_ERROR(f.Read("shapes", &r->shapes));
  ONNXGATE_RETURN_IF_ERROR(f.Read("fallback", &r->fallback));
  ONNXGATE_RETURN_IF_ERROR(f.Read("repetitions", &r->repetitions));
  ONNXGATE_RETURN_IF_ERROR(f.Read("timed_by", &r->timed_by));
  ONNXGATE_RETURN_IF_ERROR(f.Read("clock", &r->clock));
  ONNXGATE_RETURN_IF_ERROR(f.Get("median_ms").status());
  for (auto [key, out] : {std::pair{"median_ms", &r->median_ms}, std::pair{"min_ms", &r->min_ms},
                          std::pair{"p90_ms", &r->p90_ms}, std::pair{"p99_ms", &r->p99_ms},
                          std::pair{"mean_ms", &r->mean_ms}, std::pair{"cv", &r->cv}}) {
    ONNXGATE_RETURN_IF_ERROR(ReadDouble(f, key, out));
  }
  for (auto [key, out] :
       {std::pair{"load_ms", &r->load_ms}, std::pair{"first_run_ms", &r->first_run_ms},
        std::pair{"baseline_median_ms", &r->baseline_median_ms},
        std::pair{"change_ratio", &r->change_ratio}, std::pair{"threshold", &r->threshold},
        std::pair{"p_value", &r->p_value}}) {
    if (!f.Has(key)) continue;
    ONNXGATE_RETURN_IF_ERROR(ReadDouble(f, key, &out->emplace()));
  }
  ONNXGATE_RETURN_IF_ERROR(
      ReadNamed(f, "verdict", LatencyVerdictFromString, &r->verdict, /*required=*/true));
  ONNXGATE_RETURN_IF_ERROR(f.Read("message", &r->message));
  return f.Read("noise", &r->noise);
}

// Counts per verdict name: {"PASS": 3, "FAIL": 1}; absent verdicts count 0.
Status ParseCounts(const JsonObject& f, VerdictCounts* counts) {
  for (Verdict v : kAllVerdicts) {
    int64_t count = 0;
    ONNXGATE_RETURN_IF_ERROR(
        f.ReadInt(VerdictToString(v), 0, std::numeric_limits<int64_t>::max(), &count));
    (*counts)[v] = count;
  }
  return OkStatus();
}

Status ParseMatrixCell(const JsonObject& f, MatrixCell* cell) {
  ONNXGATE_RETURN_IF_ERROR(f.Require("op", &cell->op));
  ONNXGATE_RETURN_IF_ERROR(f.Require("since_version", &cell->since_version));
  ONNXGATE_RETURN_IF_ERROR(f.Read("runtime", &cell->runtime));
  ONNXGATE_RETURN_IF_ERROR(f.Require("ep", &cell->ep));
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<JsonObject> counts, f.OptionalObject("counts"));
  if (counts) ONNXGATE_RETURN_IF_ERROR(ParseCounts(*counts, &cell->counts));
  return f.Read("failing_cases", &cell->failing_cases);
}

Status ParseNotRun(const JsonObject& f, NotRunRecord* r) {
  ONNXGATE_RETURN_IF_ERROR(f.Require("suite", &r->suite));
  ONNXGATE_RETURN_IF_ERROR(f.Require("case", &r->name));
  ONNXGATE_RETURN_IF_ERROR(f.Read("op_types", &r->op_types));
  ONNXGATE_RETURN_IF_ERROR(f.Read("runtime", &r->runtime));
  ONNXGATE_RETURN_IF_ERROR(f.Require("ep", &r->ep));
  ONNXGATE_RETURN_IF_ERROR(f.Read("reason", &r->reason));
  return f.Read("reproducer", &r->reproducer);
}

Status ParseCoverage(const JsonObject& f, CoverageRecord* r) {
  ONNXGATE_RETURN_IF_ERROR(f.Require("op", &r->op));
  ONNXGATE_RETURN_IF_ERROR(f.Read("covered_versions", &r->covered_versions));
  return f.Read("uncovered_versions", &r->uncovered_versions);
}

Status ParseGateExpectations(const JsonObject& f, GateExpectationsRecord* e) {
  ONNXGATE_RETURN_IF_ERROR(f.Read("runtime", &e->runtime));
  ONNXGATE_RETURN_IF_ERROR(f.Require("ep", &e->ep));
  ONNXGATE_RETURN_IF_ERROR(f.Read("file", &e->file));
  e->found = !e->file.empty();
  ONNXGATE_RETURN_IF_ERROR(f.Read("found", &e->found));
  if (e->found && e->file.empty()) return f.FieldError("file", "a found file needs its path");
  if (!e->found) ONNXGATE_RETURN_IF_ERROR(f.Read("looked_for", &e->file));
  return f.ReadInt("entries", 0, std::numeric_limits<int64_t>::max(), &e->entries);
}

Status ParseGate(const JsonObject& f, GateRecord* gate) {
  ONNXGATE_RETURN_IF_ERROR(f.Require("passed", &gate->passed));
  ONNXGATE_RETURN_IF_ERROR(f.Read("strict", &gate->strict));
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<JsonObject> u, f.OptionalObject("unexpected"));
  if (u) {
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    GateUnexpectedCounts& c = gate->unexpected;
    ONNXGATE_RETURN_IF_ERROR(u->ReadInt("failures", 0, kMax, &c.failures));
    ONNXGATE_RETURN_IF_ERROR(u->ReadInt("crashes", 0, kMax, &c.crashes));
    ONNXGATE_RETURN_IF_ERROR(u->ReadInt("timeouts", 0, kMax, &c.timeouts));
    ONNXGATE_RETURN_IF_ERROR(u->ReadInt("unresolved", 0, kMax, &c.unresolved));
    ONNXGATE_RETURN_IF_ERROR(u->ReadInt("unsupported", 0, kMax, &c.unsupported));
    ONNXGATE_RETURN_IF_ERROR(u->ReadInt("xpass", 0, kMax, &c.xpass));
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<JsonObject> against, f.OptionalObject("against_report"));
  if (against) {
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    ONNXGATE_RETURN_IF_ERROR(against->Require("file", &gate->against_report));
    ONNXGATE_RETURN_IF_ERROR(against->ReadInt("worse", 0, kMax, &gate->worse_than_release));
    ONNXGATE_RETURN_IF_ERROR(against->ReadInt("better", 0, kMax, &gate->better_than_release));
    ONNXGATE_RETURN_IF_ERROR(
        against->ReadInt("margin_grew", 0, kMax, &gate->margin_grew_since_release));
  }
  return f.ForEachObject("expectations", [&](const JsonObject& e) {
    return ParseGateExpectations(e, &gate->expectations.emplace_back());
  });
}

// The header fields: schema, tool, runtime(s), times, command line, host and selection.
Status ParseHeader(const JsonObject& f, RunRecord* run) {
  ONNXGATE_ASSIGN_OR_RETURN(JsonValue schema, f.Get("schema"));
  if (schema.raw() != kRunSchemaName) {
    return schema.TypeError("\"" + std::string(kRunSchemaName) + "\"");
  }
  ONNXGATE_ASSIGN_OR_RETURN(JsonValue version, f.Get("schema_version"));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t v, version.Int());
  if (v < 1 || v > kRunSchemaVersion) {
    return Unimplemented(version.source() + ": schema_version: this reader knows versions 1.." +
                         std::to_string(kRunSchemaVersion) + ", got " + std::to_string(v));
  }
  run->schema_version = static_cast<int>(v);
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<JsonObject> tool, f.OptionalObject("tool"));
  if (tool) {
    ONNXGATE_RETURN_IF_ERROR(tool->Read("name", &run->tool_name));
    ONNXGATE_RETURN_IF_ERROR(tool->Read("version", &run->tool_version));
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<JsonObject> runtime, f.OptionalObject("runtime"));
  if (runtime) {
    ONNXGATE_RETURN_IF_ERROR(runtime->Read("name", &run->runtime_name));
    ONNXGATE_RETURN_IF_ERROR(runtime->Read("version", &run->runtime_version));
  }
  ONNXGATE_RETURN_IF_ERROR(f.ForEachObject("runtimes", [&](const JsonObject& r) -> Status {
    RuntimeRecord& record = run->runtimes.emplace_back();
    ONNXGATE_RETURN_IF_ERROR(r.Require("label", &record.label));
    ONNXGATE_RETURN_IF_ERROR(r.Read("name", &record.name));
    ONNXGATE_RETURN_IF_ERROR(r.Read("version", &record.version));
    return r.Read("spec", &record.spec);
  }));
  ONNXGATE_RETURN_IF_ERROR(ReadNamed(f, "start_time", ParseUtcTime, &run->start_time, false));
  ONNXGATE_RETURN_IF_ERROR(ReadNamed(f, "end_time", ParseUtcTime, &run->end_time, false));
  ONNXGATE_RETURN_IF_ERROR(ReadDouble(f, "duration_s", &run->duration_s));
  ONNXGATE_RETURN_IF_ERROR(f.Read("command_line", &run->command_line));
  ONNXGATE_RETURN_IF_ERROR(f.Read("isolation", &run->isolation));
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<JsonObject> host, f.OptionalObject("host"));
  if (host) {
    ONNXGATE_RETURN_IF_ERROR(host->Read("hostname", &run->host.hostname));
    ONNXGATE_RETURN_IF_ERROR(host->Read("os", &run->host.os));
    ONNXGATE_RETURN_IF_ERROR(host->Read("cpu_model", &run->host.cpu_model));
    ONNXGATE_RETURN_IF_ERROR(host->Read("logical_cores", &run->host.logical_cores));
  }
  ONNXGATE_RETURN_IF_ERROR(f.Read("suites", &run->suites));
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<JsonObject> selection, f.OptionalObject("selection"));
  if (selection) {
    ONNXGATE_RETURN_IF_ERROR(selection->Read("filter", &run->selection.filter));
    ONNXGATE_RETURN_IF_ERROR(selection->Read("eps", &run->selection.eps));
    ONNXGATE_RETURN_IF_ERROR(selection->Read("shard_index", &run->selection.shard_index));
    ONNXGATE_RETURN_IF_ERROR(selection->Read("shard_count", &run->selection.shard_count));
  }
  return OkStatus();
}

Status ParseRun(const JsonValue& root, RunRecord* run) {
  ONNXGATE_ASSIGN_OR_RETURN(JsonObject f, root.Object());
  ONNXGATE_RETURN_IF_ERROR(ParseHeader(f, run));
  ONNXGATE_ASSIGN_OR_RETURN(JsonArray cases, f.RequiredArray("cases"));
  ONNXGATE_RETURN_IF_ERROR(cases.ForEachObject(
      [&](const JsonObject& e) { return ParseCase(e, &run->cases.emplace_back()); }));
  // Reports written before `status` existed are complete runs (an interrupted run then left no
  // sign), so absent means completed.
  run->status = RunStatus::kCompleted;
  ONNXGATE_RETURN_IF_ERROR(ReadNamed(f, "status", RunStatusFromString, &run->status, false));
  ONNXGATE_RETURN_IF_ERROR(f.Read("status_message", &run->status_message));
  ONNXGATE_RETURN_IF_ERROR(f.ForEachObject("not_run", [&](const JsonObject& e) {
    return ParseNotRun(e, &run->not_run.emplace_back());
  }));
  if (run->status == RunStatus::kCompleted && !run->not_run.empty()) {
    return f.Error("not_run: a completed run lists " + std::to_string(run->not_run.size()) +
                   " case(s) that did not run");
  }
  ONNXGATE_RETURN_IF_ERROR(f.ForEachObject("latency", [&](const JsonObject& e) {
    return ParseLatency(e, &run->latency.emplace_back());
  }));
  ONNXGATE_RETURN_IF_ERROR(f.ForEachObject("matrix", [&](const JsonObject& e) {
    return ParseMatrixCell(e, &run->matrix.emplace_back());
  }));
  ONNXGATE_RETURN_IF_ERROR(f.ForEachObject("coverage", [&](const JsonObject& e) {
    return ParseCoverage(e, &run->coverage.emplace_back());
  }));
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<JsonObject> gate, f.OptionalObject("gate"));
  if (gate) ONNXGATE_RETURN_IF_ERROR(ParseGate(*gate, &run->gate.emplace()));
  // Totals are derived data; a mismatch means the file was edited or cut, so say so.
  run->totals = CountVerdicts(run->cases);
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<JsonObject> totals, f.OptionalObject("totals"));
  if (!totals) return OkStatus();
  VerdictCounts stated;
  ONNXGATE_RETURN_IF_ERROR(ParseCounts(*totals, &stated));
  for (Verdict v : kAllVerdicts) {
    if (stated[v] != run->totals[v]) {
      return DataLoss(root.source() + ": totals." + VerdictToString(v) + " is " +
                      std::to_string(stated[v]) + " but the cases hold " +
                      std::to_string(run->totals[v]) + " with that verdict");
    }
  }
  return OkStatus();
}

}  // namespace

StatusOr<RunRecord> ParseRunJson(const std::string& text, const std::string& source) {
  RunRecord run;
  Status st = [&]() -> Status {
    ONNXGATE_ASSIGN_OR_RETURN(JsonDocument doc,
                              JsonDocument::Parse(text, source, JsonNull::kIsAbsent));
    return ParseRun(doc.root(), &run);
  }();
  if (!st.ok()) return Status(st.code(), "reading run report " + st.message());
  return run;
}

StatusOr<RunRecord> ReadRunJson(const std::string& path) {
  StatusOr<std::string> text = ReadRegularFile(path, kMaxJsonFileBytes, "run report");
  if (!text.ok()) return text.status().WithContext("reading run report");
  return ParseRunJson(*text, path);
}

}  // namespace onnxgate
