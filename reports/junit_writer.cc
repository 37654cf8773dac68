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

std::string CountAttrs(const Counts& c) {
  return Attr("tests", std::to_string(c.tests)) + Attr("failures", std::to_string(c.failures)) +
         Attr("errors", std::to_string(c.errors)) + Attr("skipped", std::to_string(c.skipped)) +
         Attr("time", Seconds(c.time_s));
}

void Property(std::ostringstream& out, const char* name, std::string_view value) {
  out << "        <property" << Attr("name", name) << Attr("value", value) << "/>\n";
}

std::string ClassName(const CaseRecord& c) {
  if (c.op_types.size() == 1) return c.suite + "." + c.op_types[0];
  return c.suite + ".model";
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
  return OneLine(SanitizeForXml(std::string(VerdictToString(c.verdict)) +
                                (text.empty() ? "" : ": " + text)),
                 kMaxMessageAttribute);
}

void WriteCase(std::ostringstream& out, const CaseRecord& c) {
  out << "    <testcase" << Attr("classname", ClassName(c)) << Attr("name", CaseDisplayName(c))
      << Attr("time", Seconds(c.duration_s)) << ">\n";
  out << "      <properties>\n";
  Property(out, "op", JoinStrings(c.op_types, ","));
  Property(out, "opset", FormatOpsetImports(c.opset_imports));
  if (!c.op_versions.empty()) Property(out, "op_versions", FormatOpVersions(c.op_versions));
  Property(out, "ep", c.ep);
  Property(out, "placement", FormatPlacementCounts(c.placements));
  Property(out, "verdict", VerdictToString(c.verdict));
  if (c.outcome != c.verdict) Property(out, "outcome", VerdictToString(c.outcome));
  if (!c.expectation_reason.empty()) Property(out, "expectation", c.expectation_reason);
  out << "      </properties>\n";

  const Kind kind = KindOf(c);
  const char* element = kind == Kind::kFailure ? "failure" : kind == Kind::kError ? "error"
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
  if (!declines.empty()) {
    out << "      <system-out>" << XmlEscapeText(JoinStrings(declines, "\n") + "\n")
        << "</system-out>\n";
  }
  out << "    </testcase>\n";
}

// A selected case the run was stopped before finishing. It is an error, not a skip: it was
// selected and never judged, and the interrupted run exits non-zero, so the counts must not
// read green.
void WriteNotRunCase(std::ostringstream& out, const NotRunRecord& r) {
  CaseRecord c;  // for the shared class and display names
  c.suite = r.suite;
  c.name = r.name;
  c.op_types = r.op_types;
  c.ep = r.ep;
  out << "    <testcase" << Attr("classname", ClassName(c)) << Attr("name", CaseDisplayName(c))
      << Attr("time", Seconds(0)) << ">\n";
  out << "      <properties>\n";
  Property(out, "op", JoinStrings(r.op_types, ","));
  Property(out, "ep", r.ep);
  Property(out, "verdict", kNotRunType);
  out << "      </properties>\n";
  std::string body = r.reason + "\n";
  if (!r.reproducer.empty()) body += "reproduce: " + r.reproducer + "\n";
  out << "      <error"
      << Attr("message", OneLine(SanitizeForXml(r.reason), kMaxMessageAttribute))
      << Attr("type", kNotRunType) << ">" << XmlEscapeText(body) << "</error>\n";
  out << "    </testcase>\n";
}

void WriteLatencyCase(std::ostringstream& out, const LatencyRecord& r) {
  out << "    <testcase" << Attr("classname", "latency." + r.model)
      << Attr("name", LatencyDisplayName(r)) << Attr("time", Seconds(r.median_ms / 1000.0))
      << ">\n";
  out << "      <properties>\n";
  Property(out, "model", r.model);
  Property(out, "ep", r.ep);
  Property(out, "threads", std::to_string(r.threads));
  Property(out, "median_ms", FormatNumber(r.median_ms));
  Property(out, "min_ms", FormatNumber(r.min_ms));
  Property(out, "p90_ms", FormatNumber(r.p90_ms));
  Property(out, "p99_ms", FormatNumber(r.p99_ms));
  Property(out, "mean_ms", FormatNumber(r.mean_ms));
  Property(out, "cv", FormatNumber(r.cv));
  if (r.baseline_median_ms) {
    Property(out, "baseline_median_ms", FormatNumber(*r.baseline_median_ms));
  }
  if (r.change_ratio) Property(out, "change", FormatChange(*r.change_ratio));
  if (r.p_value) Property(out, "p_value", FormatNumber(*r.p_value));
  Property(out, "verdict", LatencyVerdictToString(r.verdict));
  out << "      </properties>\n";
  std::string summary = FormatLatencySummary(r);
  std::string body = r.message.empty() ? summary + "\n" : summary + "\n" + r.message + "\n";
  if (r.verdict == LatencyVerdict::kRegression) {
    out << "      <failure" << Attr("message", "regression: " + summary)
        << Attr("type", "regression") << ">" << XmlEscapeText(body) << "</failure>\n";
  } else if (r.verdict == LatencyVerdict::kNoBaseline) {
    // Nothing was compared, which is what "skipped" says.
    out << "      <skipped" << Attr("message", "no baseline: " + summary) << "/>\n";
  } else {
    out << "      <system-out>" << XmlEscapeText(LatencyVerdictToString(r.verdict)) << ": "
        << XmlEscapeText(body) << "</system-out>\n";
  }
  out << "    </testcase>\n";
}

}  // namespace

std::string RenderJunitXml(const RunRecord& run) {
  // Suites in the order the run names them, then any others in the order cases meet them.
  std::vector<std::pair<std::string, std::vector<const CaseRecord*>>> suites;
  auto find_suite = [&](const std::string& name) {
    for (auto& s : suites) {
      if (s.first == name) return &s.second;
    }
    suites.push_back({name, {}});
    return &suites.back().second;
  };
  for (const std::string& name : run.suites) find_suite(name);
  for (const CaseRecord& c : run.cases) find_suite(c.suite)->push_back(&c);
  std::map<std::string, std::vector<const NotRunRecord*>> not_run;
  for (const NotRunRecord& r : run.not_run) {
    find_suite(r.suite);
    not_run[r.suite].push_back(&r);
  }
  const bool interrupted = run.status == RunStatus::kInterrupted;

  const std::string timestamp = FormatJunitTimestamp(run.start_time);
  std::ostringstream body;
  Counts all;
  for (const auto& [name, cases] : suites) {
    Counts counts;
    std::ostringstream suite_body;
    for (const CaseRecord* c : cases) {
      counts.Add(KindOf(*c), c->duration_s);
      WriteCase(suite_body, *c);
    }
    for (const NotRunRecord* r : not_run[name]) {
      counts.Add(Kind::kError, 0);
      WriteNotRunCase(suite_body, *r);
    }
    all.Add(counts);
    body << "  <testsuite" << Attr("name", name) << CountAttrs(counts)
         << Attr("timestamp", timestamp) << Attr("hostname", run.host.hostname) << ">\n";
    body << "    <properties>\n";
    body << "      <property" << Attr("name", "runtime") << Attr("value", run.runtime_name)
         << "/>\n";
    body << "      <property" << Attr("name", "tool_version") << Attr("value", run.tool_version)
         << "/>\n";
    if (interrupted) {
      body << "      <property" << Attr("name", "run_status")
           << Attr("value", RunStatusToString(run.status)) << "/>\n";
      body << "      <property" << Attr("name", "run_status_message")
           << Attr("value", run.status_message) << "/>\n";
    }
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
      Kind kind = r.verdict == LatencyVerdict::kRegression ? Kind::kFailure
                  : r.verdict == LatencyVerdict::kNoBaseline ? Kind::kSkipped
                                                             : Kind::kNone;
      counts.Add(kind, r.median_ms / 1000.0);
      WriteLatencyCase(suite_body, r);
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
  out << "<testsuites" << Attr("name", run.tool_name) << CountAttrs(top)
      << Attr("timestamp", timestamp) << ">\n"
      << body.str() << "</testsuites>\n";
  return out.str();
}

Status WriteJunitXml(const RunRecord& run, const std::string& path) {
  Status st = WriteFileAtomically(path, RenderJunitXml(run));
  if (!st.ok()) return st.WithContext("writing JUnit report " + path);
  return OkStatus();
}

}  // namespace onnxgate
