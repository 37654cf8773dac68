// JSON run report reader: checks every field's type and names the field (as a path such as
// cases[3].outputs[0].max_abs_error) in its errors.
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "reports/format.h"
#include "reports/json_writer.h"
#include "runtime/base/atomic_file.h"
#include "runtime/base/contained_file.h"
#include "runtime/base/nesting_depth.h"

namespace onnxgate {
namespace {

using Json = nlohmann::json;

enum Presence { kOptional, kRequired };

const char* TypeName(const Json& j) { return j.type_name(); }

// Typed access to the members of one JSON object. Absent members and null leave the output
// untouched (its default) unless required; present members of the wrong type are errors.
class Fields {
 public:
  Fields(const Json& object, std::string path) : object_(object), path_(std::move(path)) {}

  static StatusOr<Fields> Of(const Json& j, const std::string& path) {
    if (!j.is_object()) {
      return InvalidArgument((path.empty() ? std::string("the document") : path) +
                             ": expected an object, got " + TypeName(j));
    }
    return Fields(j, path);
  }

  std::string Path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

  // The member, or nullptr when absent or null (an error when required).
  StatusOr<const Json*> Find(const char* key, Presence presence) const {
    auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) {
      if (presence == kRequired) return InvalidArgument(Path(key) + ": required field is missing");
      return static_cast<const Json*>(nullptr);
    }
    return &*it;
  }

  Status Str(const char* key, std::string* out, Presence presence = kOptional) const {
    ONNXGATE_ASSIGN_OR_RETURN(const Json* j, Find(key, presence));
    if (j == nullptr) return OkStatus();
    if (!j->is_string()) return TypeError(key, "a string", *j);
    *out = j->get<std::string>();
    return OkStatus();
  }

  template <typename Int>
  Status Integer(const char* key, Int* out, Presence presence = kOptional) const {
    ONNXGATE_ASSIGN_OR_RETURN(const Json* j, Find(key, presence));
    if (j == nullptr) return OkStatus();
    return IntegerValue(*j, Path(key), out);
  }

  Status Bool(const char* key, bool* out, Presence presence = kOptional) const {
    ONNXGATE_ASSIGN_OR_RETURN(const Json* j, Find(key, presence));
    if (j == nullptr) return OkStatus();
    if (!j->is_boolean()) return TypeError(key, "true or false", *j);
    *out = j->get<bool>();
    return OkStatus();
  }

  Status Double(const char* key, double* out, Presence presence = kOptional) const {
    ONNXGATE_ASSIGN_OR_RETURN(const Json* j, Find(key, presence));
    if (j == nullptr) return OkStatus();
    return DoubleValue(*j, Path(key), out);
  }

  Status OptionalDouble(const char* key, std::optional<double>* out) const {
    ONNXGATE_ASSIGN_OR_RETURN(const Json* j, Find(key, kOptional));
    if (j == nullptr) return OkStatus();
    double value;
    ONNXGATE_RETURN_IF_ERROR(DoubleValue(*j, Path(key), &value));
    *out = value;
    return OkStatus();
  }

  // Calls parse(element, path) for each element of an array member.
  template <typename Parse>
  Status Array(const char* key, Parse parse, Presence presence = kOptional) const {
    ONNXGATE_ASSIGN_OR_RETURN(const Json* j, Find(key, presence));
    if (j == nullptr) return OkStatus();
    if (!j->is_array()) return TypeError(key, "an array", *j);
    for (size_t i = 0; i < j->size(); ++i) {
      ONNXGATE_RETURN_IF_ERROR(parse((*j)[i], Path(key) + "[" + std::to_string(i) + "]"));
    }
    return OkStatus();
  }

  Status StrList(const char* key, std::vector<std::string>* out) const {
    out->clear();
    return Array(key, [&](const Json& e, const std::string& path) -> Status {
      if (!e.is_string()) return InvalidArgument(path + ": expected a string, got " + TypeName(e));
      out->push_back(e.get<std::string>());
      return OkStatus();
    });
  }

  Status IntList(const char* key, std::vector<int64_t>* out) const {
    out->clear();
    return Array(key, [&](const Json& e, const std::string& path) -> Status {
      int64_t value;
      ONNXGATE_RETURN_IF_ERROR(IntegerValue(e, path, &value));
      out->push_back(value);
      return OkStatus();
    });
  }

  Status IntMap(const char* key, std::map<std::string, int64_t>* out) const {
    out->clear();
    ONNXGATE_ASSIGN_OR_RETURN(const Json* j, Find(key, kOptional));
    if (j == nullptr) return OkStatus();
    if (!j->is_object()) return TypeError(key, "an object", *j);
    for (auto it = j->begin(); it != j->end(); ++it) {
      int64_t value;
      ONNXGATE_RETURN_IF_ERROR(
          IntegerValue(it.value(), Path(key) + "[\"" + it.key() + "\"]", &value));
      (*out)[it.key()] = value;
    }
    return OkStatus();
  }

  template <typename Int>
  static Status IntegerValue(const Json& j, const std::string& path, Int* out) {
    if (!j.is_number_integer()) {
      return InvalidArgument(path + ": expected an integer, got " +
                             (j.is_number() ? j.dump() : std::string(TypeName(j))));
    }
    constexpr auto kMax = std::numeric_limits<Int>::max();
    const bool fits =
        j.is_number_unsigned()
            ? j.get<uint64_t>() <= static_cast<uint64_t>(kMax)
            : j.get<int64_t>() >= std::numeric_limits<Int>::min() && j.get<int64_t>() <= kMax;
    if (!fits) return InvalidArgument(path + ": integer " + j.dump() + " is out of range");
    *out = j.is_number_unsigned() ? static_cast<Int>(j.get<uint64_t>())
                                  : static_cast<Int>(j.get<int64_t>());
    return OkStatus();
  }

  static Status DoubleValue(const Json& j, const std::string& path, double* out) {
    if (j.is_number()) {
      *out = j.get<double>();
      return OkStatus();
    }
    if (j.is_string()) {
      const std::string s = j.get<std::string>();
      if (s == "inf") {
        *out = std::numeric_limits<double>::infinity();
      } else if (s == "-inf") {
        *out = -std::numeric_limits<double>::infinity();
      } else if (s == "nan") {
        *out = std::numeric_limits<double>::quiet_NaN();
      } else {
        return InvalidArgument(path + ": expected a number, \"inf\", \"-inf\" or \"nan\", got \"" +
                               s + "\"");
      }
      return OkStatus();
    }
    return InvalidArgument(path + ": expected a number, got " + TypeName(j));
  }

 private:
  Status TypeError(const char* key, const char* expected, const Json& got) const {
    return InvalidArgument(Path(key) + ": expected " + expected + ", got " + TypeName(got));
  }

  const Json& object_;
  std::string path_;
};

Status ParseVerdict(const Fields& f, const char* key, Verdict* out, Presence presence) {
  std::string name;
  ONNXGATE_RETURN_IF_ERROR(f.Str(key, &name, presence));
  if (name.empty() && presence == kOptional) return OkStatus();
  StatusOr<Verdict> v = VerdictFromString(name);
  if (!v.ok()) return v.status().WithContext(f.Path(key));
  *out = *v;
  return OkStatus();
}

Status ParsePlacement(const Json& j, const std::string& path, PlacementRecord* p) {
  ONNXGATE_ASSIGN_OR_RETURN(Fields f, Fields::Of(j, path));
  ONNXGATE_RETURN_IF_ERROR(f.Str("node", &p->node));
  ONNXGATE_RETURN_IF_ERROR(f.Str("op_type", &p->op_type));
  ONNXGATE_RETURN_IF_ERROR(f.Str("ep", &p->ep, kRequired));
  ONNXGATE_RETURN_IF_ERROR(f.Str("subgraph", &p->subgraph));
  return f.Array("declines", [&](const Json& e, const std::string& epath) -> Status {
    ONNXGATE_ASSIGN_OR_RETURN(Fields d, Fields::Of(e, epath));
    DeclineRecord decline;
    ONNXGATE_RETURN_IF_ERROR(d.Str("ep", &decline.ep, kRequired));
    ONNXGATE_RETURN_IF_ERROR(d.Str("reason", &decline.reason));
    p->declines.push_back(std::move(decline));
    return OkStatus();
  });
}

Status ParseOutput(const Json& j, const std::string& path, OutputComparison* o) {
  ONNXGATE_ASSIGN_OR_RETURN(Fields f, Fields::Of(j, path));
  ONNXGATE_RETURN_IF_ERROR(f.Str("name", &o->output_name, kRequired));
  ONNXGATE_RETURN_IF_ERROR(f.Integer("set", &o->set_index));
  ONNXGATE_RETURN_IF_ERROR(f.Str("dtype", &o->dtype));
  ONNXGATE_RETURN_IF_ERROR(f.IntList("expected_shape", &o->expected_shape));
  ONNXGATE_RETURN_IF_ERROR(f.IntList("actual_shape", &o->actual_shape));
  ONNXGATE_RETURN_IF_ERROR(f.Bool("passed", &o->passed, kRequired));
  ONNXGATE_RETURN_IF_ERROR(f.Str("error", &o->error));
  ONNXGATE_RETURN_IF_ERROR(f.Double("rtol", &o->rtol));
  ONNXGATE_RETURN_IF_ERROR(f.Double("atol", &o->atol));
  ONNXGATE_RETURN_IF_ERROR(f.Double("max_abs_error", &o->max_abs_error));
  ONNXGATE_RETURN_IF_ERROR(f.Double("max_rel_error", &o->max_rel_error));
  ONNXGATE_RETURN_IF_ERROR(f.Integer("mismatches", &o->mismatch_count));
  ONNXGATE_RETURN_IF_ERROR(f.Double("mismatch_share", &o->mismatch_share));
  ONNXGATE_RETURN_IF_ERROR(f.Integer("total_elements", &o->total_elements));
  ONNXGATE_RETURN_IF_ERROR(f.Double("min_passing_rtol", &o->min_passing_rtol));
  ONNXGATE_RETURN_IF_ERROR(f.Double("min_passing_atol", &o->min_passing_atol));
  ONNXGATE_ASSIGN_OR_RETURN(const Json* worst, f.Find("worst", kOptional));
  if (worst != nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(Fields w, Fields::Of(*worst, f.Path("worst")));
    ONNXGATE_RETURN_IF_ERROR(w.Integer("index", &o->worst_index, kRequired));
    ONNXGATE_RETURN_IF_ERROR(w.IntList("index_nd", &o->worst_index_nd));
    ONNXGATE_RETURN_IF_ERROR(w.Str("expected", &o->worst_expected));
    ONNXGATE_RETURN_IF_ERROR(w.Str("actual", &o->worst_actual));
  }
  return OkStatus();
}

Status ParseCase(const Json& j, const std::string& path, CaseRecord* c) {
  ONNXGATE_ASSIGN_OR_RETURN(Fields f, Fields::Of(j, path));
  ONNXGATE_RETURN_IF_ERROR(f.Str("suite", &c->suite, kRequired));
  ONNXGATE_RETURN_IF_ERROR(f.Str("case", &c->name, kRequired));
  ONNXGATE_RETURN_IF_ERROR(f.Str("runtime", &c->runtime));
  ONNXGATE_RETURN_IF_ERROR(f.Str("ep", &c->ep, kRequired));
  ONNXGATE_RETURN_IF_ERROR(ParseVerdict(f, "verdict", &c->verdict, kRequired));
  c->outcome = c->verdict;  // when a report leaves it out, nothing changed it
  ONNXGATE_RETURN_IF_ERROR(ParseVerdict(f, "outcome", &c->outcome, kOptional));
  ONNXGATE_RETURN_IF_ERROR(f.Str("expectation_reason", &c->expectation_reason));
  ONNXGATE_RETURN_IF_ERROR(f.Str("message", &c->message));
  ONNXGATE_RETURN_IF_ERROR(f.Double("duration_s", &c->duration_s));
  ONNXGATE_RETURN_IF_ERROR(f.StrList("op_types", &c->op_types));
  ONNXGATE_RETURN_IF_ERROR(f.IntMap("opset_imports", &c->opset_imports));
  ONNXGATE_RETURN_IF_ERROR(f.IntMap("op_versions", &c->op_versions));
  ONNXGATE_RETURN_IF_ERROR(f.Array("placements", [&](const Json& e, const std::string& p) {
    c->placements.emplace_back();
    return ParsePlacement(e, p, &c->placements.back());
  }));
  ONNXGATE_RETURN_IF_ERROR(f.Array("outputs", [&](const Json& e, const std::string& p) {
    c->outputs.emplace_back();
    return ParseOutput(e, p, &c->outputs.back());
  }));
  ONNXGATE_ASSIGN_OR_RETURN(const Json* divergence, f.Find("first_divergence", kOptional));
  if (divergence != nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(Fields d, Fields::Of(*divergence, f.Path("first_divergence")));
    DivergenceRecord& r = c->first_divergence.emplace();
    ONNXGATE_RETURN_IF_ERROR(d.Str("node", &r.node, kRequired));
    ONNXGATE_RETURN_IF_ERROR(d.Str("op", &r.op, kRequired));
    ONNXGATE_RETURN_IF_ERROR(d.Str("value", &r.value));
    ONNXGATE_RETURN_IF_ERROR(d.Integer("set", &r.set_index));
    ONNXGATE_RETURN_IF_ERROR(d.Double("max_abs_error", &r.max_abs_error));
    ONNXGATE_RETURN_IF_ERROR(d.Double("max_rel_error", &r.max_rel_error));
    ONNXGATE_RETURN_IF_ERROR(d.Str("summary", &r.summary));
  }
  return f.Str("reproducer", &c->reproducer);
}

Status ParseLatency(const Json& j, const std::string& path, LatencyRecord* r) {
  ONNXGATE_ASSIGN_OR_RETURN(Fields f, Fields::Of(j, path));
  ONNXGATE_RETURN_IF_ERROR(f.Str("model", &r->model, kRequired));
  ONNXGATE_RETURN_IF_ERROR(f.Str("runtime", &r->runtime));
  ONNXGATE_RETURN_IF_ERROR(f.Str("ep", &r->ep, kRequired));
  ONNXGATE_RETURN_IF_ERROR(f.Integer("threads", &r->threads));
  ONNXGATE_RETURN_IF_ERROR(f.Integer("repetitions", &r->repetitions));
  ONNXGATE_RETURN_IF_ERROR(f.Double("median_ms", &r->median_ms, kRequired));
  ONNXGATE_RETURN_IF_ERROR(f.Double("min_ms", &r->min_ms));
  ONNXGATE_RETURN_IF_ERROR(f.Double("p90_ms", &r->p90_ms));
  ONNXGATE_RETURN_IF_ERROR(f.Double("p99_ms", &r->p99_ms));
  ONNXGATE_RETURN_IF_ERROR(f.Double("mean_ms", &r->mean_ms));
  ONNXGATE_RETURN_IF_ERROR(f.Double("cv", &r->cv));
  ONNXGATE_RETURN_IF_ERROR(f.OptionalDouble("load_ms", &r->load_ms));
  ONNXGATE_RETURN_IF_ERROR(f.OptionalDouble("first_run_ms", &r->first_run_ms));
  ONNXGATE_RETURN_IF_ERROR(f.OptionalDouble("baseline_median_ms", &r->baseline_median_ms));
  ONNXGATE_RETURN_IF_ERROR(f.OptionalDouble("change_ratio", &r->change_ratio));
  ONNXGATE_RETURN_IF_ERROR(f.OptionalDouble("threshold", &r->threshold));
  ONNXGATE_RETURN_IF_ERROR(f.OptionalDouble("p_value", &r->p_value));
  std::string verdict;
  ONNXGATE_RETURN_IF_ERROR(f.Str("verdict", &verdict, kRequired));
  StatusOr<LatencyVerdict> v = LatencyVerdictFromString(verdict);
  if (!v.ok()) return v.status().WithContext(f.Path("verdict"));
  r->verdict = *v;
  return f.Str("message", &r->message);
}

Status ParseMatrixCell(const Json& j, const std::string& path, MatrixCell* cell) {
  ONNXGATE_ASSIGN_OR_RETURN(Fields f, Fields::Of(j, path));
  ONNXGATE_RETURN_IF_ERROR(f.Str("op", &cell->op, kRequired));
  ONNXGATE_RETURN_IF_ERROR(f.Integer("since_version", &cell->since_version, kRequired));
  ONNXGATE_RETURN_IF_ERROR(f.Str("runtime", &cell->runtime));
  ONNXGATE_RETURN_IF_ERROR(f.Str("ep", &cell->ep, kRequired));
  ONNXGATE_ASSIGN_OR_RETURN(const Json* counts, f.Find("counts", kOptional));
  if (counts != nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(Fields c, Fields::Of(*counts, f.Path("counts")));
    for (Verdict v : kAllVerdicts) {
      int64_t count = 0;
      ONNXGATE_RETURN_IF_ERROR(c.Integer(VerdictToString(v), &count));
      if (count < 0) {
        return InvalidArgument(c.Path(VerdictToString(v)) + ": expected a count >= 0, got " +
                               std::to_string(count));
      }
      cell->counts[v] = count;
    }
  }
  return f.StrList("failing_cases", &cell->failing_cases);
}

Status ParseNotRun(const Json& j, const std::string& path, NotRunRecord* r) {
  ONNXGATE_ASSIGN_OR_RETURN(Fields f, Fields::Of(j, path));
  ONNXGATE_RETURN_IF_ERROR(f.Str("suite", &r->suite, kRequired));
  ONNXGATE_RETURN_IF_ERROR(f.Str("case", &r->name, kRequired));
  ONNXGATE_RETURN_IF_ERROR(f.StrList("op_types", &r->op_types));
  ONNXGATE_RETURN_IF_ERROR(f.Str("runtime", &r->runtime));
  ONNXGATE_RETURN_IF_ERROR(f.Str("ep", &r->ep, kRequired));
  ONNXGATE_RETURN_IF_ERROR(f.Str("reason", &r->reason));
  return f.Str("reproducer", &r->reproducer);
}

Status ParseCoverage(const Json& j, const std::string& path, CoverageRecord* r) {
  ONNXGATE_ASSIGN_OR_RETURN(Fields f, Fields::Of(j, path));
  ONNXGATE_RETURN_IF_ERROR(f.Str("op", &r->op, kRequired));
  ONNXGATE_RETURN_IF_ERROR(f.IntList("covered_versions", &r->covered_versions));
  return f.IntList("uncovered_versions", &r->uncovered_versions);
}

Status ParseTime(const Fields& f, const char* key, UtcTime* out) {
  std::string text;
  ONNXGATE_RETURN_IF_ERROR(f.Str(key, &text));
  if (text.empty()) return OkStatus();
  StatusOr<UtcTime> t = ParseUtcTime(text);
  if (!t.ok()) return t.status().WithContext(f.Path(key));
  *out = *t;
  return OkStatus();
}

Status ParseRun(const Json& j, RunRecord* run) {
  ONNXGATE_ASSIGN_OR_RETURN(Fields f, Fields::Of(j, ""));
  std::string schema;
  ONNXGATE_RETURN_IF_ERROR(f.Str("schema", &schema, kRequired));
  if (schema != kRunSchemaName) {
    return InvalidArgument(std::string("schema: expected \"") + kRunSchemaName + "\", got \"" +
                           schema + "\"");
  }
  ONNXGATE_RETURN_IF_ERROR(f.Integer("schema_version", &run->schema_version, kRequired));
  if (run->schema_version < 1 || run->schema_version > kRunSchemaVersion) {
    return Unimplemented("schema_version: this reader knows versions 1.." +
                         std::to_string(kRunSchemaVersion) + ", got " +
                         std::to_string(run->schema_version));
  }
  ONNXGATE_ASSIGN_OR_RETURN(const Json* tool, f.Find("tool", kOptional));
  if (tool != nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(Fields t, Fields::Of(*tool, "tool"));
    ONNXGATE_RETURN_IF_ERROR(t.Str("name", &run->tool_name));
    ONNXGATE_RETURN_IF_ERROR(t.Str("version", &run->tool_version));
  }
  ONNXGATE_ASSIGN_OR_RETURN(const Json* runtime, f.Find("runtime", kOptional));
  if (runtime != nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(Fields r, Fields::Of(*runtime, "runtime"));
    ONNXGATE_RETURN_IF_ERROR(r.Str("name", &run->runtime_name));
    ONNXGATE_RETURN_IF_ERROR(r.Str("version", &run->runtime_version));
  }
  ONNXGATE_RETURN_IF_ERROR(f.Array("runtimes", [&](const Json& e, const std::string& p) -> Status {
    ONNXGATE_ASSIGN_OR_RETURN(Fields r, Fields::Of(e, p));
    RuntimeRecord record;
    ONNXGATE_RETURN_IF_ERROR(r.Str("label", &record.label, kRequired));
    ONNXGATE_RETURN_IF_ERROR(r.Str("name", &record.name));
    ONNXGATE_RETURN_IF_ERROR(r.Str("version", &record.version));
    ONNXGATE_RETURN_IF_ERROR(r.Str("spec", &record.spec));
    run->runtimes.push_back(std::move(record));
    return OkStatus();
  }));
  ONNXGATE_RETURN_IF_ERROR(ParseTime(f, "start_time", &run->start_time));
  ONNXGATE_RETURN_IF_ERROR(ParseTime(f, "end_time", &run->end_time));
  ONNXGATE_RETURN_IF_ERROR(f.Double("duration_s", &run->duration_s));
  ONNXGATE_RETURN_IF_ERROR(f.StrList("command_line", &run->command_line));
  ONNXGATE_ASSIGN_OR_RETURN(const Json* host, f.Find("host", kOptional));
  if (host != nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(Fields h, Fields::Of(*host, "host"));
    ONNXGATE_RETURN_IF_ERROR(h.Str("hostname", &run->host.hostname));
    ONNXGATE_RETURN_IF_ERROR(h.Str("os", &run->host.os));
    ONNXGATE_RETURN_IF_ERROR(h.Str("cpu_model", &run->host.cpu_model));
    ONNXGATE_RETURN_IF_ERROR(h.Integer("logical_cores", &run->host.logical_cores));
  }
  ONNXGATE_RETURN_IF_ERROR(f.StrList("suites", &run->suites));
  ONNXGATE_ASSIGN_OR_RETURN(const Json* selection, f.Find("selection", kOptional));
  if (selection != nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(Fields s, Fields::Of(*selection, "selection"));
    ONNXGATE_RETURN_IF_ERROR(s.Str("filter", &run->selection.filter));
    ONNXGATE_RETURN_IF_ERROR(s.StrList("eps", &run->selection.eps));
    ONNXGATE_RETURN_IF_ERROR(s.Integer("shard_index", &run->selection.shard_index));
    ONNXGATE_RETURN_IF_ERROR(s.Integer("shard_count", &run->selection.shard_count));
  }
  ONNXGATE_RETURN_IF_ERROR(f.Array(
      "cases",
      [&](const Json& e, const std::string& p) {
        run->cases.emplace_back();
        return ParseCase(e, p, &run->cases.back());
      },
      kRequired));
  // Reports written before `status` existed are complete runs (an interrupted run then left no
  // sign), so absent means completed.
  std::string status = RunStatusToString(RunStatus::kCompleted);
  ONNXGATE_RETURN_IF_ERROR(f.Str("status", &status));
  StatusOr<RunStatus> run_status = RunStatusFromString(status);
  if (!run_status.ok()) return run_status.status().WithContext(f.Path("status"));
  run->status = *run_status;
  ONNXGATE_RETURN_IF_ERROR(f.Str("status_message", &run->status_message));
  ONNXGATE_RETURN_IF_ERROR(f.Array("not_run", [&](const Json& e, const std::string& p) {
    run->not_run.emplace_back();
    return ParseNotRun(e, p, &run->not_run.back());
  }));
  if (run->status == RunStatus::kCompleted && !run->not_run.empty()) {
    return InvalidArgument("not_run: a completed run lists " + std::to_string(run->not_run.size()) +
                           " case(s) that did not run");
  }
  ONNXGATE_RETURN_IF_ERROR(f.Array("latency", [&](const Json& e, const std::string& p) {
    run->latency.emplace_back();
    return ParseLatency(e, p, &run->latency.back());
  }));
  ONNXGATE_RETURN_IF_ERROR(f.Array("matrix", [&](const Json& e, const std::string& p) {
    run->matrix.emplace_back();
    return ParseMatrixCell(e, p, &run->matrix.back());
  }));
  ONNXGATE_RETURN_IF_ERROR(f.Array("coverage", [&](const Json& e, const std::string& p) {
    run->coverage.emplace_back();
    return ParseCoverage(e, p, &run->coverage.back());
  }));

  // Totals are derived data; a mismatch means the file was edited or cut, so say so.
  run->totals = CountVerdicts(run->cases);
  ONNXGATE_ASSIGN_OR_RETURN(const Json* totals, f.Find("totals", kOptional));
  if (totals != nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(Fields t, Fields::Of(*totals, "totals"));
    for (Verdict v : kAllVerdicts) {
      int64_t count = 0;
      ONNXGATE_RETURN_IF_ERROR(t.Integer(VerdictToString(v), &count));
      if (count != run->totals[v]) {
        return DataLoss(std::string("totals.") + VerdictToString(v) + " is " +
                        std::to_string(count) + " but the cases hold " +
                        std::to_string(run->totals[v]) + " with that verdict");
      }
    }
  }
  return OkStatus();
}

}  // namespace

StatusOr<RunRecord> ParseRunJson(const std::string& text, const std::string& source) {
  const std::string context = "reading run report " + source;
  RunRecord run;
  if (Status st = CheckNestingDepth(text, NestingSyntax::kJson, kMaxJsonNesting, source);
      !st.ok()) {
    return st.WithContext(context);
  }
  try {
    Json j = Json::parse(text);
    Status st = ParseRun(j, &run);
    if (!st.ok()) return st.WithContext(context);
  } catch (const Json::parse_error& e) {
    return DataLoss(context + ": not valid JSON: " + e.what());
  } catch (const Json::exception& e) {
    return Internal(context + ": " + e.what());
  }
  return run;
}

StatusOr<RunRecord> ReadRunJson(const std::string& path) {
  StatusOr<std::string> text = ReadRegularFile(path, kMaxJsonFileBytes, "run report");
  if (!text.ok()) return text.status().WithContext("reading run report");
  return ParseRunJson(*text, path);
}

}  // namespace onnxgate
