// JUnit XML writer: suites, cases per EP, failure/error/skipped bodies, the latency suite.
#include "reports/junit_writer.h"

#include <cstdio>
#include <map>
#include <sstream>
#include <utility>

#include "reports/format.h"
#include "reports/text_escape.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate {
namespace {

// Longest message attribute; the full text goes into the element body.
constexpr size_t kMaxMessageAttribute = 1000;

enum class Kind { kNone, kFailure, kError, kSkipped };

// The error type of a case that was selected but not run (the run was interrupted).
constexpr char kNotRunType[] = "NOT_RUN";

// An UNSUPPORTED that no expectation predicts fails the gate (and fails `run`, which wants every
// case to pass), so it is a failure here too: a CI test tab must not be green on a red job.
Kind KindOf(const CaseRecord& c) {
  if (c.verdict == Verdict::kUnsupported && c.expectation_reason.empty()) return Kind::kFailure;
  switch (c.verdict) {
    case Verdict::kPass: return Kind::kNone;
    case Verdict::kFail: return Kind::kFailure;
    case Verdict::kCrash:
    case Verdict::kTimeout:
    case Verdict::kUnresolved:
    case Verdict::kXpass: return Kind::kError;
    case Verdict::kUnsupported:
    case Verdict::kXfail:
    case Verdict::kSkip: return Kind::kSkipped;
  }
  return Kind::kError;
}

struct Counts {
  int64_t tests = 0, failures = 0, errors = 0, skipped = 0;
  double time_s = 0;
  void Add(Kind kind, double seconds) {
    ++tests;
    failures += kind == Kind::kFailure;
    errors += kind == Kind::kError;
    skipped += kind == Kind::kSkipped;
    time_s += seconds;
  }
  void Add(const Counts& o) {
    tests += o.tests, failures += o.failures, errors += o.errors, skipped += o.skipped;
    time_s += o.time_s;
  }
};

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3f", s < 0 ? 0.0 : s);
  return buf;
}

std::string Attr(const char* name, std::string_view value) {
  return std::string(" ") + name + "=\"" + XmlEscapeAttribute(value) + "\"";
}

// The strict schema has no skipped count on <testsuites>, only on <testsuite>.
std::string CountAttrs(const Counts& c, bool with_skipped = true) {
  return Attr("tests", std::to_string(c.tests)) + Attr("failures", std::to_string(c.failures)) +
         Attr("errors", std::to_string(c.errors)) +
         (with_skipped ? Attr("skipped", std::to_string(c.skipped)) : std::string()) +
         Attr("time", Seconds(c.time_s));
}

// The properties of one testcase. The extended dialect writes them as <properties>; the strict
// schema allows none inside a testcase, so there they become the first lines of <system-out>.
class CaseProperties {
 public:
  void Add(const char* name, std::string_view value) {
    items_.emplace_back(name, std::string(value));
  }
  void WriteElement(std::ostringstream& out) const {
    out << "      <properties>\n";
    for (const auto& [name, value] : items_) {
      out << "        <property" << Attr("name", name) << Attr("value", value) << "/>\n";
    }
    out << "      </properties>\n";
  }
  std::string AsLines() const {
    std::string text;
    for (const auto& [name, value] : items_) text += name + ": " + value + "\n";
    return text;
  }

 private:
  std::vector<std::pair<std::string, std::string>> items_;
};

// Opens a testcase and writes its properties where the schema allows them; returns the text
// that must lead the case's <system-out> (empty in the extended dialect).
std::string OpenCase(std::ostringstream& out, JunitSchema schema, const std::string& classname,
                     const std::string& name, double seconds, const CaseProperties& properties) {
  out << "    <testcase" << Attr("classname", classname) << Attr("name", name)
      << Attr("time", Seconds(seconds)) << ">\n";
  if (schema == JunitSchema::kExtended) {
    properties.WriteElement(out);
    return "";
  }
  return properties.AsLines();
}

void WriteSystemOut(std::ostringstream& out, const std::string& text) {
  if (text.empty()) return;
  out << "      <system-out>" << XmlEscapeText(text) << "</system-out>\n";
}

// What the runtime wrote to stderr during the case; both dialects allow it after <system-out>.
void WriteSystemErr(std::ostringstream& out, const std::string& text) {
  if (text.empty()) return;
  out << "      <system-err>" << XmlEscapeText(text) << "</system-err>\n";
}

// Suite, then the op for a case of one op, else the case (the model) itself.
std::string ClassName(const std::string& suite, const std::string& name,
                      const std::vector<std::string>& op_types) {
  if (op_types.size() == 1) return suite + "." + op_types[0];
  return suite + "." + name;
}

// The full text of a non-passing case: message, comparison lines, reproducer.
std::string Body(const CaseRecord& c) {
  std::string body;
  if (!c.message.empty()) body += c.message + "\n";
  for (const std::string& line : FailingComparisons(c)) body += line + "\n";
  if (!c.expectation_reason.empty()) body += "expectation: " + c.expectation_reason + "\n";
  if (!c.reproducer.empty()) body += "reproduce: " + c.reproducer + "\n";
  return body;
}

std::string ShortMessage(const CaseRecord& c) {
  std::string text = c.message;
  // CI pages show the message attribute most prominently: give a FAIL its numbers there too.
  std::vector<std::string> lines = FailingComparisons(c);
  if (!lines.empty() && c.verdict == Verdict::kFail) {
    text += (text.empty() ? "" : ": ") + lines[0];
  } else if (text.empty() && !lines.empty()) {
    text = lines[0];
  }
  if (c.verdict == Verdict::kXpass && text.empty()) {
    text = "passed although expected to fail";
    if (!c.expectation_reason.empty()) text += " (" + c.expectation_reason + ")";
  }
  if (KindOf(c) == Kind::kSkipped && !c.expectation_reason.empty()) {
    text = c.expectation_reason;
  }
  // Sanitize first so dropped control characters do not leave double spaces behind.
  return OneLine(
      SanitizeForXml(std::string(VerdictToString(c.verdict)) + (text.empty() ? "" : ": " + text)),
      kMaxMessageAttribute);
}

void WriteCase(std::ostringstream& out, const CaseRecord& c, JunitSchema schema) {
  CaseProperties properties;
  properties.Add("op", JoinStrings(c.op_types, ","));
  properties.Add("opset", FormatOpsetImports(c.opset_imports));
  if (!c.op_versions.empty()) properties.Add("op_versions", FormatOpVersions(c.op_versions));
  if (!c.runtime.empty()) properties.Add("runtime", c.runtime);
  properties.Add("ep", c.ep);
  properties.Add("placement", FormatPlacementCounts(c.placements));
  properties.Add("verdict", VerdictToString(c.verdict));
  if (c.outcome != c.verdict) properties.Add("outcome", VerdictToString(c.outcome));
  if (!c.expectation_reason.empty()) properties.Add("expectation", c.expectation_reason);
  std::string system_out = OpenCase(out, schema, ClassName(c.suite, c.name, c.op_types),
                                    CaseDisplayName(c), c.duration_s, properties);

  const Kind kind = KindOf(c);
  const char* element = kind == Kind::kFailure ? "failure"
                        : kind == Kind::kError ? "error"
                                               : "skipped";
  if (kind == Kind::kFailure || kind == Kind::kError) {
    out << "      <" << element << Attr("message", ShortMessage(c))
        << Attr("type", VerdictToString(c.verdict)) << ">" << XmlEscapeText(Body(c)) << "</"
        << element << ">\n";
  } else if (kind == Kind::kSkipped) {
    out << "      <skipped" << Attr("message", ShortMessage(c)) << ">" << XmlEscapeText(Body(c))
        << "</skipped>\n";
  }
  // Fallback from the EP under test is silent in the verdict; say where it happened.
  std::vector<std::string> declines = FormatDeclines(c.placements);
  if (!declines.empty()) system_out += JoinStrings(declines, "\n") + "\n";
  WriteSystemOut(out, system_out);
  WriteSystemErr(out, c.runtime_log);
  out << "    </testcase>\n";
}

// A selected case the run was stopped before finishing. It is an error, not a skip: it was
// selected and never judged, and the interrupted run exits non-zero, so the counts must not
// read green.
void WriteNotRunCase(std::ostringstream& out, const NotRunRecord& r, JunitSchema schema) {
  CaseRecord c;  // for the shared display name
  c.name = r.name;
  c.runtime = r.runtime;
  c.ep = r.ep;
  CaseProperties properties;
  properties.Add("op", JoinStrings(r.op_types, ","));
  if (!r.runtime.empty()) properties.Add("runtime", r.runtime);
  properties.Add("ep", r.ep);
  properties.Add("verdict", kNotRunType);
  std::string system_out = OpenCase(out, schema, ClassName(r.suite, r.name, r.op_types),
                                    CaseDisplayName(c), 0, properties);
  std::string body = r.reason + "\n";
  if (!r.reproducer.empty()) body += "reproduce: " + r.reproducer + "\n";
  out << "      <error" << Attr("message", OneLine(SanitizeForXml(r.reason), kMaxMessageAttribute))
      << Attr("type", kNotRunType) << ">" << XmlEscapeText(body) << "</error>\n";
  WriteSystemOut(out, system_out);
  out << "    </testcase>\n";
}

void WriteLatencyCase(std::ostringstream& out, const LatencyRecord& r, JunitSchema schema) {
  CaseProperties properties;
  properties.Add("model", r.model);
  if (!r.runtime.empty()) properties.Add("runtime", r.runtime);
  properties.Add("ep", r.ep);
  properties.Add("threads", std::to_string(r.threads));
  if (!r.shapes.empty()) properties.Add("shapes", r.shapes);
  if (!r.fallback.empty()) properties.Add("fallback", r.fallback);
  properties.Add("median_ms", FormatNumber(r.median_ms));
  properties.Add("min_ms", FormatNumber(r.min_ms));
  properties.Add("p90_ms", FormatNumber(r.p90_ms));
  properties.Add("p99_ms", FormatNumber(r.p99_ms));
  properties.Add("mean_ms", FormatNumber(r.mean_ms));
  properties.Add("cv", FormatNumber(r.cv));
  if (r.baseline_median_ms) {
    properties.Add("baseline_median_ms", FormatNumber(*r.baseline_median_ms));
  }
  if (r.change_ratio) properties.Add("change", FormatChange(*r.change_ratio));
  if (r.p_value) properties.Add("p_value", FormatNumber(*r.p_value));
  properties.Add("verdict", LatencyVerdictToString(r.verdict));
  if (!r.noise.empty()) properties.Add("unreliable", r.noise);
  std::string system_out = OpenCase(out, schema, "latency." + LatencyModelShapes(r),
                                    LatencyDisplayName(r), r.median_ms / 1000.0, properties);
  std::string summary = FormatLatencySummary(r);
  std::string body = r.message.empty() ? summary + "\n" : summary + "\n" + r.message + "\n";
  if (!r.noise.empty()) body += "unreliable: " + r.noise + "\n";
  if (r.verdict == LatencyVerdict::kRegression) {
    out << "      <failure" << Attr("message", "regression: " + summary)
        << Attr("type", "regression") << ">" << XmlEscapeText(body) << "</failure>\n";
  } else if (r.verdict == LatencyVerdict::kError) {
    out << "      <error" << Attr("message", "not measured: " + r.message) << Attr("type", "error")
        << ">" << XmlEscapeText(r.message + "\n") << "</error>\n";
  } else if (r.verdict == LatencyVerdict::kNoBaseline) {
    // Nothing was compared, which is what "skipped" says; the message says why (with --compare:
    // a configuration never measured).
    const std::string why = r.message.empty() ? summary : summary + "; " + r.message;
    out << "      <skipped" << Attr("message", "no baseline: " + why) << "/>\n";
  } else {
    system_out += std::string(LatencyVerdictToString(r.verdict)) + ": " + body;
  }
  WriteSystemOut(out, system_out);
  out << "    </testcase>\n";
}

// A gate's testsuite properties: gate_passed, then "expectations:<ep>" per EP of the suite's
// runtime: the file judged by, or "none found: <file looked for>".
void WriteGateProperties(std::ostringstream& body, const GateRecord& gate,
                         const std::string& runtime_label) {
  body << "      <property" << Attr("name", "gate_passed")
       << Attr("value", gate.passed ? "true" : "false") << "/>\n";
  for (const GateExpectationsRecord& e : gate.expectations) {
    if (e.runtime != runtime_label) continue;
    const std::string value = e.found ? e.file : "none found: " + e.file;
    body << "      <property" << Attr("name", "expectations:" + e.ep) << Attr("value", value)
         << "/>\n";
  }
}

}  // namespace

const char* JunitSchemaName(JunitSchema schema) {
  return schema == JunitSchema::kStrict ? "strict" : "extended";
}

StatusOr<JunitSchema> JunitSchemaFromName(const std::string& name) {
  for (JunitSchema s : {JunitSchema::kStrict, JunitSchema::kExtended}) {
    if (name == JunitSchemaName(s)) return s;
  }
  return InvalidArgument("unknown JUnit schema '" + name + "' (expected strict or extended)");
}

std::string RenderJunitXml(const RunRecord& run, JunitSchema schema) {
  // Suites in the order the run names them, then any others in the order cases meet them. A
  // side-by-side run has one <testsuite> per suite and runtime, so CI pages count each runtime
  // apart.
  struct SuiteGroup {
    std::string name;          // "onnx-node", or "onnx-node on onnxruntime" side by side
    std::string runtime_name;  // its "runtime" property
    std::string label;         // the records' runtime label; empty with one runtime
    std::vector<const CaseRecord*> cases;
    std::vector<const NotRunRecord*> not_run;
  };
  std::vector<SuiteGroup> suites;
  auto find_suite = [&](const std::string& suite, const std::string& runtime) {
    const std::string name = runtime.empty() ? suite : suite + " on " + runtime;
    for (SuiteGroup& s : suites) {
      if (s.name == name) return &s;
    }
    std::string runtime_name = run.runtime_name;
    for (const RuntimeRecord& r : run.runtimes) {
      if (!runtime.empty() && r.label == runtime) runtime_name = r.name;
    }
    suites.push_back({name, runtime_name, runtime, {}, {}});
    return &suites.back();
  };
  for (const std::string& name : run.suites) {
    for (const std::string& label : RecordRuntimeLabels(run)) find_suite(name, label);
  }
  for (const CaseRecord& c : run.cases) find_suite(c.suite, c.runtime)->cases.push_back(&c);
  for (const NotRunRecord& r : run.not_run) {
    find_suite(r.suite, r.runtime)->not_run.push_back(&r);
  }
  const bool interrupted = run.status == RunStatus::kInterrupted;

  const std::string timestamp = FormatJunitTimestamp(run.start_time);
  std::ostringstream body;
  Counts all;
  for (const SuiteGroup& group : suites) {
    Counts counts;
    std::ostringstream suite_body;
    for (const CaseRecord* c : group.cases) {
      counts.Add(KindOf(*c), c->duration_s);
      WriteCase(suite_body, *c, schema);
    }
    for (const NotRunRecord* r : group.not_run) {
      counts.Add(Kind::kError, 0);
      WriteNotRunCase(suite_body, *r, schema);
    }
    all.Add(counts);
    body << "  <testsuite" << Attr("name", group.name) << CountAttrs(counts)
         << Attr("timestamp", timestamp) << Attr("hostname", run.host.hostname) << ">\n";
    body << "    <properties>\n";
    body << "      <property" << Attr("name", "runtime") << Attr("value", group.runtime_name)
         << "/>\n";
    body << "      <property" << Attr("name", "tool_version") << Attr("value", run.tool_version)
         << "/>\n";
    if (!run.isolation.empty()) {
      body << "      <property" << Attr("name", "isolation") << Attr("value", run.isolation)
           << "/>\n";
    }
    if (interrupted) {
      body << "      <property" << Attr("name", "run_status")
           << Attr("value", RunStatusToString(run.status)) << "/>\n";
      body << "      <property" << Attr("name", "run_status_message")
           << Attr("value", run.status_message) << "/>\n";
    }
    if (run.gate) WriteGateProperties(body, *run.gate, group.label);
    body << "    </properties>\n";
    body << suite_body.str();
    // CI pages show a suite's system-err beside its counts: the place to say the list is short.
    if (interrupted) {
      body << "    <system-err>" << XmlEscapeText(run.status_message + "\n") << "</system-err>\n";
    }
    body << "  </testsuite>\n";
  }
  if (!run.latency.empty()) {
    Counts counts;
    std::ostringstream suite_body;
    for (const LatencyRecord& r : run.latency) {
      Kind kind = r.verdict == LatencyVerdict::kRegression   ? Kind::kFailure
                  : r.verdict == LatencyVerdict::kError      ? Kind::kError
                  : r.verdict == LatencyVerdict::kNoBaseline ? Kind::kSkipped
                                                             : Kind::kNone;
      counts.Add(kind, r.median_ms / 1000.0);
      WriteLatencyCase(suite_body, r, schema);
    }
    all.Add(counts);
    body << "  <testsuite" << Attr("name", "latency") << CountAttrs(counts)
         << Attr("timestamp", timestamp) << Attr("hostname", run.host.hostname) << ">\n"
         << suite_body.str() << "  </testsuite>\n";
  }

  Counts top = all;
  top.time_s = run.duration_s;  // wall time, not the sum: cases run in parallel
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  const bool extended = schema == JunitSchema::kExtended;
  out << "<testsuites" << Attr("name", run.tool_name) << CountAttrs(top, extended)
      << (extended ? Attr("timestamp", timestamp) : std::string()) << ">\n"
      << body.str() << "</testsuites>\n";
  return out.str();
}

Status WriteJunitXml(const RunRecord& run, const std::string& path, JunitSchema schema) {
  Status st = WriteFileAtomically(path, RenderJunitXml(run, schema));
  if (!st.ok()) return st.WithContext("writing JUnit report " + path);
  return OkStatus();
}

}  // namespace onnxgate
