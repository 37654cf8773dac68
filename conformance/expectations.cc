// Expectations: loading, matching, applying to records, and rewriting from a run.
#include "conformance/expectations.h"

#include <fnmatch.h>

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "reports/format.h"
#include "runtime/base/atomic_file.h"
#include "runtime/base/json_reader.h"

namespace onnxgate {

using nlohmann::json;

const char* ExpectedStatusName(ExpectedStatus status) {
  switch (status) {
    case ExpectedStatus::kUnsupported: return "unsupported";
    case ExpectedStatus::kXfail: return "xfail";
    case ExpectedStatus::kNondeterministic: return "nondeterministic";
  }
  return "?";
}

bool IsXfailVerdict(Verdict verdict) {
  return verdict == Verdict::kFail || verdict == Verdict::kCrash || verdict == Verdict::kTimeout ||
         verdict == Verdict::kUnresolved;
}

namespace {

bool Matches(const Expectation& e, const CaseRecord& r) {
  if (!e.suite.empty() && e.suite != r.suite) return false;
  if (::fnmatch(e.case_pattern.c_str(), r.name.c_str(), 0) != 0) return false;
  if (e.min_opset || e.max_opset) {
    auto it = r.opset_imports.find("");
    int64_t opset = it == r.opset_imports.end() ? 0 : it->second;
    if (e.min_opset && opset < *e.min_opset) return false;
    if (e.max_opset && opset > *e.max_opset) return false;
  }
  return true;
}

// What a nondeterministic expectation predicts: a PASS, or a FAIL whose outputs all have the
// golden's shape and dtype, so that only element values differ.
bool IsChanceOutcome(const CaseRecord& r) {
  if (r.outcome == Verdict::kPass) return true;
  if (r.outcome != Verdict::kFail || r.outputs.empty()) return false;
  return std::all_of(r.outputs.begin(), r.outputs.end(),
                     [](const OutputComparison& o) { return o.error.empty(); });
}

// What an unsupported or xfail entry predicts, in verdict words: "UNSUPPORTED", "FAIL", ...
const char* PredictedVerdictName(const Expectation& e) {
  return e.status == ExpectedStatus::kUnsupported ? VerdictToString(Verdict::kUnsupported)
                                                  : VerdictToString(e.verdict);
}

bool IsGlob(const std::string& pattern) {
  return pattern.find_first_of("*?[") != std::string::npos;
}

// "verdict" of an xfail entry: the failing outcome it predicts (FAIL when absent).
Status ReadXfailVerdict(const JsonObject& entry, ExpectedStatus status, Verdict* verdict) {
  *verdict = Verdict::kFail;
  std::optional<JsonValue> name = entry.Find("verdict");
  if (!name) return OkStatus();
  ONNXGATE_RETURN_IF_ERROR(name->String().status());
  if (status != ExpectedStatus::kXfail) {
    return name->Error(std::string("only an xfail entry names a verdict, this one is ") +
                       ExpectedStatusName(status));
  }
  StatusOr<Verdict> v = VerdictFromString(*name->String());
  if (!v.ok() || !IsXfailVerdict(*v)) {
    return name->TypeError("\"FAIL\", \"CRASH\", \"TIMEOUT\" or \"UNRESOLVED\"");
  }
  *verdict = *v;
  return OkStatus();
}

// A string member that must not be empty: `missing` and `empty` say what to do in the error.
Status ReadNonEmpty(const JsonObject& entry, const char* key, const std::string& missing,
                    const std::string& empty, std::string* out) {
  std::optional<JsonValue> value = entry.Find(key);
  if (!value) return missing.empty() ? OkStatus() : entry.FieldError(key, missing);
  ONNXGATE_ASSIGN_OR_RETURN(*out, value->String());
  if (out->empty()) return value->Error(empty);
  return OkStatus();
}

StatusOr<Expectation> ParseEntry(const JsonObject& entry) {
  Expectation e;
  ONNXGATE_RETURN_IF_ERROR(
      ReadNonEmpty(entry, "case", "is missing; every entry needs a case name or glob",
                   "is empty; every entry needs a case name or glob", &e.case_pattern));
  ONNXGATE_RETURN_IF_ERROR(entry.OnlyKeys(
      {"case", "suite", "status", "verdict", "reason", "min_opset", "max_opset", "review"}));
  ONNXGATE_ASSIGN_OR_RETURN(JsonValue status, entry.Get("status"));
  ONNXGATE_ASSIGN_OR_RETURN(
      e.status,
      status.Enum<ExpectedStatus>({{"unsupported", ExpectedStatus::kUnsupported},
                                   {"xfail", ExpectedStatus::kXfail},
                                   {"nondeterministic", ExpectedStatus::kNondeterministic}}));
  ONNXGATE_RETURN_IF_ERROR(ReadXfailVerdict(entry, e.status, &e.verdict));
  ONNXGATE_RETURN_IF_ERROR(ReadNonEmpty(entry, "reason", "is missing; every entry needs a reason",
                                        "is empty; every entry needs a reason", &e.reason));
  ONNXGATE_RETURN_IF_ERROR(
      ReadNonEmpty(entry, "suite", "", "is empty (leave it out to match every suite)", &e.suite));
  ONNXGATE_RETURN_IF_ERROR(entry.Read("min_opset", &e.min_opset));
  ONNXGATE_RETURN_IF_ERROR(entry.Read("max_opset", &e.max_opset));
  if (e.min_opset && e.max_opset && *e.min_opset > *e.max_opset) {
    return entry.Error("min_opset " + std::to_string(*e.min_opset) + " is above max_opset " +
                       std::to_string(*e.max_opset) + ": the entry matches nothing");
  }
  ONNXGATE_RETURN_IF_ERROR(entry.Read("review", &e.review));
  return e;
}

}  // namespace

const Expectation* ExpectationFile::Find(const CaseRecord& record) const {
  for (const Expectation& e : entries) {
    if (Matches(e, record)) return &e;
  }
  return nullptr;
}

StatusOr<ExpectationFile> LoadExpectations(const std::string& path) {
  ONNXGATE_ASSIGN_OR_RETURN(JsonDocument doc, JsonDocument::ReadFile(path, "expectations file"));
  ONNXGATE_ASSIGN_OR_RETURN(JsonObject root, doc.RootObject());
  ExpectationFile file;
  ONNXGATE_RETURN_IF_ERROR(root.Read("ep", &file.ep));
  std::string schema;
  int64_t schema_version = 0;
  ONNXGATE_RETURN_IF_ERROR(root.Read("schema", &schema));
  ONNXGATE_RETURN_IF_ERROR(root.Read("schema_version", &schema_version));
  ONNXGATE_ASSIGN_OR_RETURN(JsonArray entries, root.RequiredArray("entries"));
  ONNXGATE_RETURN_IF_ERROR(entries.ForEachObject([&](const JsonObject& entry) -> Status {
    ONNXGATE_ASSIGN_OR_RETURN(Expectation e, ParseEntry(entry));
    file.entries.push_back(std::move(e));
    return OkStatus();
  }));
  return file;
}

StatusOr<ExpectationFile> LoadExpectationsOrEmpty(const std::string& path, const std::string& ep) {
  // Only a missing file means "no expectations" (the reader's only NotFound is the file's open);
  // one that cannot be read or parsed is an error.
  StatusOr<ExpectationFile> file = LoadExpectations(path);
  if (file.ok() || file.status().code() != StatusCode::kNotFound) return file;
  ExpectationFile empty;
  empty.ep = ep;
  return empty;
}

std::string RenderExpectations(const ExpectationFile& file) {
  json entries = json::array();
  for (const Expectation& e : file.entries) {
    json j = {
        {"case", e.case_pattern}, {"status", ExpectedStatusName(e.status)}, {"reason", e.reason}};
    if (e.status == ExpectedStatus::kXfail && e.verdict != Verdict::kFail) {
      j["verdict"] = VerdictToString(e.verdict);
    }
    if (!e.suite.empty()) j["suite"] = e.suite;
    if (e.min_opset) j["min_opset"] = *e.min_opset;
    if (e.max_opset) j["max_opset"] = *e.max_opset;
    if (e.review) j["review"] = true;
    entries.push_back(std::move(j));
  }
  json root = {{"schema", "onnxgate-expectations"},
               {"schema_version", 1},
               {"ep", file.ep},
               {"entries", std::move(entries)}};
  return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

Status WriteExpectations(const std::string& path, const ExpectationFile& file) {
  return WriteFileAtomically(path, RenderExpectations(file));
}

void ApplyExpectation(const ExpectationFile& file, const std::string& expectations_path,
                      CaseRecord& r) {
  r.verdict = r.outcome;
  r.expectation_reason.clear();
  const Expectation* e = file.Find(r);
  if (e == nullptr) return;
  if (e->status == ExpectedStatus::kNondeterministic) {
    if (IsChanceOutcome(r)) {
      if (r.outcome == Verdict::kFail) r.verdict = Verdict::kXfail;
      r.expectation_reason = e->reason;
    } else {
      r.message +=
          " [expected nondeterministic values with the golden's shapes and dtypes: " + e->reason +
          "]";
    }
    return;
  }
  const char* predicted = PredictedVerdictName(*e);
  if (r.outcome == Verdict::kPass) {
    r.verdict = Verdict::kXpass;
    r.message = "passes, but " + expectations_path + " expects " + predicted + " (" + e->reason +
                "): remove the entry '" + e->case_pattern +
                "' or run `onnxgate expectations update --from <run.json>`";
    return;
  }
  const bool predicted_here = e->status == ExpectedStatus::kUnsupported
                                  ? r.outcome == Verdict::kUnsupported
                                  : r.outcome == e->verdict;
  if (predicted_here) {
    r.verdict = r.outcome == Verdict::kUnsupported ? Verdict::kUnsupported : Verdict::kXfail;
    r.expectation_reason = e->reason;
    return;
  }
  if (r.outcome == Verdict::kSkip) return;
  // Any other outcome stays unexpected: an entry written for a numeric FAIL must not hide a case
  // that now crashes, hangs or lost its golden.
  r.message += std::string(" [") + expectations_path + " expected " + predicted + ", got " +
               VerdictToString(r.outcome) + " (entry '" + e->case_pattern + "': " + e->reason +
               ")]";
}

void ApplyExpectations(const ExpectationFile& file, const std::string& expectations_path,
                       std::vector<CaseRecord>& records) {
  for (CaseRecord& r : records) ApplyExpectation(file, expectations_path, r);
}

ExpectationFile UpdateExpectations(const ExpectationFile& file,
                                   const std::vector<CaseRecord>& run) {
  ExpectationFile out;
  out.ep = file.ep;
  std::set<const Expectation*> kept_globs;
  std::vector<Expectation> exact;
  for (const CaseRecord& r : run) {
    const Expectation* old = file.Find(r);
    bool still_nondeterministic =
        old != nullptr && old->status == ExpectedStatus::kNondeterministic && IsChanceOutcome(r);
    if (!still_nondeterministic && (r.outcome == Verdict::kPass || r.outcome == Verdict::kSkip)) {
      continue;
    }
    ExpectedStatus status = still_nondeterministic               ? ExpectedStatus::kNondeterministic
                            : r.outcome == Verdict::kUnsupported ? ExpectedStatus::kUnsupported
                                                                 : ExpectedStatus::kXfail;
    // An xfail entry names the one failing outcome it predicts.
    const Verdict verdict = status == ExpectedStatus::kXfail ? r.outcome : Verdict::kFail;
    const bool same_prediction = old != nullptr && old->status == status &&
                                 (status != ExpectedStatus::kXfail || old->verdict == verdict);
    if (same_prediction && IsGlob(old->case_pattern)) {
      kept_globs.insert(old);
      continue;
    }
    Expectation e;
    e.case_pattern = r.name;
    e.status = status;
    e.verdict = verdict;
    if (old != nullptr) {
      e.reason = old->reason;
      e.review = old->review || !same_prediction;
      e.suite = old->suite;
    } else {
      e.reason = std::string(VerdictToString(r.outcome)) + ": " + r.message;
      e.review = true;
      // Case names repeat across suites (both ONNX node suites have test_abs): a new entry
      // applies to the suite it was seen in.
      e.suite = r.suite;
    }
    exact.push_back(std::move(e));
  }
  // Globs first, in their old order, then the exact entries sorted by name.
  for (const Expectation& e : file.entries) {
    if (kept_globs.count(&e)) out.entries.push_back(e);
  }
  std::sort(exact.begin(), exact.end(), [](const Expectation& a, const Expectation& b) {
    return a.case_pattern < b.case_pattern;
  });
  for (auto& e : exact) out.entries.push_back(std::move(e));
  return out;
}

}  // namespace onnxgate
