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
#include "runtime/base/contained_file.h"
#include "runtime/base/nesting_depth.h"

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

Status Bad(const std::string& path, const std::string& where, const std::string& what) {
  return InvalidArgument(path + ": " + where + ": " + what);
}

// A JSON value as an error message names it: its type, and a scalar's value (cut short).
std::string Describe(const json& value) {
  switch (value.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return value.get<bool>() ? "boolean true" : "boolean false";
    case json::value_t::string:
      return "string \"" + OneLine(value.get_ref<const std::string&>(), 40) + "\"";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return "number " + value.dump(-1, ' ', false, json::error_handler_t::replace);
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    default: return "a non-JSON value";
  }
}

// The fields an entry may have; any other is a typo that would widen what the entry matches.
constexpr const char* kEntryFields[] = {"case",   "suite",     "status",    "verdict",
                                        "reason", "min_opset", "max_opset", "review"};

Status TypeError(const std::string& path, const std::string& where, const char* expected,
                 const json& got) {
  return Bad(path, where, std::string("expected ") + expected + ", got " + Describe(got));
}

// `object[key]` when present: a string, else an error naming `where`.`key`.
StatusOr<std::optional<std::string>> OptionalString(const std::string& path,
                                                    const std::string& where, const json& object,
                                                    const char* key) {
  auto it = object.find(key);
  if (it == object.end()) return std::optional<std::string>();
  if (!it->is_string()) return TypeError(path, where + "." + key, "a string", *it);
  return std::optional<std::string>(it->get<std::string>());
}

// A required, non-empty string.
StatusOr<std::string> RequiredString(const std::string& path, const std::string& where,
                                     const json& object, const char* key, const char* purpose) {
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<std::string> value,
                            OptionalString(path, where, object, key));
  if (!value || value->empty()) {
    return Bad(path, where + "." + key,
               std::string(value ? "is empty" : "is missing") + "; every entry needs " + purpose);
  }
  return *value;
}

// An integer: a JSON number without fraction that fits int64.
StatusOr<std::optional<int64_t>> OptionalInteger(const std::string& path, const std::string& where,
                                                 const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end()) return std::optional<int64_t>();
  if (it->is_number_integer() && !it->is_number_unsigned()) {
    return std::optional<int64_t>(it->get<int64_t>());
  }
  if (it->is_number_unsigned() &&
      it->get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return std::optional<int64_t>(static_cast<int64_t>(it->get<uint64_t>()));
  }
  return TypeError(path, where + "." + key, "an integer", *it);
}

StatusOr<std::optional<bool>> OptionalBool(const std::string& path, const std::string& where,
                                           const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end()) return std::optional<bool>();
  if (!it->is_boolean()) return TypeError(path, where + "." + key, "true or false", *it);
  return std::optional<bool>(it->get<bool>());
}

StatusOr<ExpectedStatus> ParseStatus(const std::string& path, const std::string& where,
                                     const json& entry) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string status,
                            RequiredString(path, where, entry, "status", "a status"));
  for (ExpectedStatus s :
       {ExpectedStatus::kUnsupported, ExpectedStatus::kXfail, ExpectedStatus::kNondeterministic}) {
    if (status == ExpectedStatusName(s)) return s;
  }
  return Bad(path, where + ".status",
             "expected \"unsupported\", \"xfail\" or \"nondeterministic\", got \"" +
                 OneLine(status, 40) + "\"");
}

// "verdict" of an xfail entry: the failing outcome it predicts (FAIL when absent).
StatusOr<Verdict> ParseXfailVerdict(const std::string& path, const std::string& where,
                                    const json& entry, ExpectedStatus status) {
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<std::string> name,
                            OptionalString(path, where, entry, "verdict"));
  if (!name) return Verdict::kFail;
  if (status != ExpectedStatus::kXfail) {
    return Bad(path, where + ".verdict",
               std::string("only an xfail entry names a verdict, this one is ") +
                   ExpectedStatusName(status));
  }
  StatusOr<Verdict> verdict = VerdictFromString(*name);
  if (!verdict.ok() || !IsXfailVerdict(*verdict)) {
    return Bad(path, where + ".verdict",
               "expected \"FAIL\", \"CRASH\", \"TIMEOUT\" or \"UNRESOLVED\", got \"" +
                   OneLine(*name, 40) + "\"");
  }
  return *verdict;
}

StatusOr<Expectation> ParseEntry(const std::string& path, const json& entry, size_t index) {
  std::string where = "entries[" + std::to_string(index) + "]";
  if (!entry.is_object()) return TypeError(path, where, "an object", entry);
  Expectation e;
  ONNXGATE_ASSIGN_OR_RETURN(e.case_pattern,
                            RequiredString(path, where, entry, "case", "a case name or glob"));
  where += " ('" + OneLine(e.case_pattern, 120) + "')";
  for (const auto& item : entry.items()) {
    if (std::find(std::begin(kEntryFields), std::end(kEntryFields), item.key()) ==
        std::end(kEntryFields)) {
      return Bad(path, where + "." + OneLine(item.key(), 40),
                 "unknown field (expected case, suite, status, verdict, reason, min_opset, "
                 "max_opset or review)");
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(e.status, ParseStatus(path, where, entry));
  ONNXGATE_ASSIGN_OR_RETURN(e.verdict, ParseXfailVerdict(path, where, entry, e.status));
  ONNXGATE_ASSIGN_OR_RETURN(e.reason, RequiredString(path, where, entry, "reason", "a reason"));
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<std::string> suite,
                            OptionalString(path, where, entry, "suite"));
  if (suite && suite->empty()) {
    return Bad(path, where + ".suite", "is empty (leave it out to match every suite)");
  }
  e.suite = suite.value_or("");
  ONNXGATE_ASSIGN_OR_RETURN(e.min_opset, OptionalInteger(path, where, entry, "min_opset"));
  ONNXGATE_ASSIGN_OR_RETURN(e.max_opset, OptionalInteger(path, where, entry, "max_opset"));
  if (e.min_opset && e.max_opset && *e.min_opset > *e.max_opset) {
    return Bad(path, where,
               "min_opset " + std::to_string(*e.min_opset) + " is above max_opset " +
                   std::to_string(*e.max_opset) + ": the entry matches nothing");
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<bool> review, OptionalBool(path, where, entry, "review"));
  e.review = review.value_or(false);
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
  ONNXGATE_ASSIGN_OR_RETURN(std::string text,
                            ReadRegularFile(path, kMaxJsonFileBytes, "expectations file"));
  ONNXGATE_RETURN_IF_ERROR(CheckNestingDepth(text, NestingSyntax::kJson, kMaxJsonNesting, path));
  json root = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) return Bad(path, "file", "not valid JSON");
  if (!root.is_object()) return Bad(path, "file", "expected a JSON object, got " + Describe(root));
  ExpectationFile file;
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<std::string> ep,
                            OptionalString(path, "file", root, "ep"));
  file.ep = ep.value_or("");
  ONNXGATE_RETURN_IF_ERROR(OptionalString(path, "file", root, "schema").status());
  ONNXGATE_RETURN_IF_ERROR(OptionalInteger(path, "file", root, "schema_version").status());
  auto entries = root.find("entries");
  if (entries == root.end()) return Bad(path, "file.entries", "missing (an array of entries)");
  if (!entries->is_array()) {
    return Bad(path, "file.entries", "expected an array, got " + Describe(*entries));
  }
  for (size_t i = 0; i < entries->size(); ++i) {
    ONNXGATE_ASSIGN_OR_RETURN(Expectation e, ParseEntry(path, (*entries)[i], i));
    file.entries.push_back(std::move(e));
  }
  return file;
}

StatusOr<ExpectationFile> LoadExpectationsOrEmpty(const std::string& path, const std::string& ep) {
  // Only a missing file means "no expectations"; one that cannot be read is an error.
  if (auto file = OpenRegularFile(path, kMaxJsonFileBytes, "expectations file");
      !file.ok() && file.status().code() == StatusCode::kNotFound) {
    ExpectationFile empty;
    empty.ep = ep;
    return empty;
  }
  return LoadExpectations(path);
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

bool IsUnexpected(const CaseRecord& r, bool strict) {
  switch (r.verdict) {
    case Verdict::kPass:
    case Verdict::kXfail:
    case Verdict::kSkip: return false;
    case Verdict::kXpass: return strict;
    case Verdict::kUnsupported: return r.expectation_reason.empty();
    default: return true;
  }
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
