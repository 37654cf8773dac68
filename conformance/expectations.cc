// Expectations: loading, matching, applying to records, and rewriting from a run.
#include "conformance/expectations.h"

#include <fnmatch.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "runtime/base/atomic_file.h"
#include "runtime/base/nesting_depth.h"
#include "runtime/base/contained_file.h"

namespace onnxgate {

using nlohmann::json;

const char* ExpectedStatusName(ExpectedStatus status) {
  switch (status) {
    case ExpectedStatus::kUnsupported:
      return "unsupported";
    case ExpectedStatus::kXfail:
      return "xfail";
    case ExpectedStatus::kNondeterministic:
      return "nondeterministic";
  }
  return "?";
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

bool IsGlob(const std::string& pattern) {
  return pattern.find_first_of("*?[") != std::string::npos;
}

Status Bad(const std::string& path, const std::string& where, const std::string& what) {
  return InvalidArgument(path + ": " + where + ": " + what);
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
  json root = json::parse(text, nullptr, false);
  if (root.is_discarded() || !root.is_object()) return Bad(path, "file", "not a JSON object");
  ExpectationFile file;
  if (root.contains("ep") && root["ep"].is_string()) file.ep = root["ep"].get<std::string>();
  auto entries = root.find("entries");
  if (entries == root.end() || !entries->is_array()) return Bad(path, "file", "'entries' must be an array");
  for (size_t i = 0; i < entries->size(); ++i) {
    const json& j = (*entries)[i];
    std::string where = "entries[" + std::to_string(i) + "]";
    if (!j.is_object() || !j.contains("case") || !j["case"].is_string()) {
      return Bad(path, where, "needs a string 'case'");
    }
    Expectation e;
    e.case_pattern = j["case"].get<std::string>();
    where += " ('" + e.case_pattern + "')";
    std::string status = j.value("status", "");
    if (status == "unsupported") {
      e.status = ExpectedStatus::kUnsupported;
    } else if (status == "xfail") {
      e.status = ExpectedStatus::kXfail;
    } else if (status == "nondeterministic") {
      e.status = ExpectedStatus::kNondeterministic;
    } else {
      return Bad(path, where + ".status",
                 "must be \"unsupported\", \"xfail\" or \"nondeterministic\", got \"" + status +
                     "\"");
    }
    if (!j.contains("reason") || !j["reason"].is_string() || j["reason"].get<std::string>().empty()) {
      return Bad(path, where + ".reason", "every entry needs a non-empty reason");
    }
    e.reason = j["reason"].get<std::string>();
    if (j.contains("suite")) e.suite = j["suite"].get<std::string>();
    if (j.contains("min_opset")) e.min_opset = j["min_opset"].get<int64_t>();
    if (j.contains("max_opset")) e.max_opset = j["max_opset"].get<int64_t>();
    e.review = j.value("review", false);
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
    json j = {{"case", e.case_pattern}, {"status", ExpectedStatusName(e.status)}, {"reason", e.reason}};
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
      r.message += " [expected nondeterministic values with the golden's shapes and dtypes: " +
                   e->reason + "]";
    }
    return;
  }
  switch (r.outcome) {
    case Verdict::kPass:
      r.verdict = Verdict::kXpass;
      r.message = "passes, but " + expectations_path + " expects " + ExpectedStatusName(e->status) +
                  " (" + e->reason + "): remove the entry '" + e->case_pattern +
                  "' or run `onnxgate expectations update --from <run.json>`";
      break;
    case Verdict::kUnsupported:
      if (e->status == ExpectedStatus::kUnsupported) {
        r.expectation_reason = e->reason;
      } else {
        r.message += " [expected xfail: " + e->reason + "]";
      }
      break;
    case Verdict::kFail:
    case Verdict::kCrash:
    case Verdict::kTimeout:
    case Verdict::kUnresolved:
      if (e->status == ExpectedStatus::kXfail) {
        r.verdict = Verdict::kXfail;
        r.expectation_reason = e->reason;
      } else {
        r.message += " [expected unsupported: " + e->reason + "]";
      }
      break;
    default:
      break;
  }
}

void ApplyExpectations(const ExpectationFile& file, const std::string& expectations_path,
                       std::vector<CaseRecord>& records) {
  for (CaseRecord& r : records) ApplyExpectation(file, expectations_path, r);
}

bool IsUnexpected(const CaseRecord& r, bool strict) {
  switch (r.verdict) {
    case Verdict::kPass:
    case Verdict::kXfail:
    case Verdict::kSkip:
      return false;
    case Verdict::kXpass:
      return strict;
    case Verdict::kUnsupported:
      return r.expectation_reason.empty();
    default:
      return true;
  }
}

ExpectationFile UpdateExpectations(const ExpectationFile& file, const std::vector<CaseRecord>& run) {
  ExpectationFile out;
  out.ep = file.ep;
  std::set<const Expectation*> kept_globs;
  std::vector<Expectation> exact;
  for (const CaseRecord& r : run) {
    const Expectation* old = file.Find(r);
    bool still_nondeterministic = old != nullptr &&
                                  old->status == ExpectedStatus::kNondeterministic &&
                                  IsChanceOutcome(r);
    if (!still_nondeterministic && (r.outcome == Verdict::kPass || r.outcome == Verdict::kSkip)) {
      continue;
    }
    ExpectedStatus status = still_nondeterministic ? ExpectedStatus::kNondeterministic
                            : r.outcome == Verdict::kUnsupported ? ExpectedStatus::kUnsupported
                                                                  : ExpectedStatus::kXfail;
    if (old != nullptr && IsGlob(old->case_pattern) && old->status == status) {
      kept_globs.insert(old);
      continue;
    }
    Expectation e;
    e.case_pattern = r.name;
    e.status = status;
    if (old != nullptr) {
      e.reason = old->reason;
      e.review = old->review || old->status != status;
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
  std::sort(exact.begin(), exact.end(),
            [](const Expectation& a, const Expectation& b) { return a.case_pattern < b.case_pattern; });
  for (auto& e : exact) out.entries.push_back(std::move(e));
  return out;
}

}  // namespace onnxgate
