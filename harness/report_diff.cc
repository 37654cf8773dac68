// DiffReports and its renderings.
#include "harness/report_diff.h"

#include <map>
#include <nlohmann/json.hpp>

#include "reports/text_escape.h"

namespace onnxgate {

namespace {

std::string Key(const std::string& suite, const std::string& name, const std::string& target) {
  return suite + "/" + name + " [" + target + "]";
}

bool Passes(Verdict v) { return v == Verdict::kPass || v == Verdict::kXpass; }
bool Dies(Verdict v) { return v == Verdict::kCrash || v == Verdict::kTimeout; }

VerdictChange ChangeOf(Verdict before, Verdict after) {
  if (Passes(before) && !Passes(after)) return VerdictChange::kWorse;
  if (!Passes(before) && Passes(after)) return VerdictChange::kBetter;
  if (Dies(after) && !Dies(before)) return VerdictChange::kWorse;
  return VerdictChange::kOther;
}

std::string OpVersions(const CaseRecord& c) {
  std::string out;
  for (const auto& [op, version] : c.op_versions) {
    out += (out.empty() ? "" : ", ") + op + " v" + std::to_string(version);
  }
  return out.empty() ? "(no op versions)" : out;
}

// Changes grouped by op version: worse first, then better, then the others.
std::map<std::pair<int, std::string>, std::vector<const CaseChange*>> Groups(
    const ReportDiff& diff) {
  std::map<std::pair<int, std::string>, std::vector<const CaseChange*>> groups;
  for (const CaseChange& c : diff.changes) {
    groups[{static_cast<int>(c.change), c.op_version}].push_back(&c);
  }
  return groups;
}

// A Markdown table cell: no '|', '`' or line break can end it.
std::string Cell(std::string text) {
  for (char& ch : text) {
    if (ch == '|' || ch == '`' || ch == '\n' || ch == '\r') ch = ' ';
  }
  return text;
}

std::string CaseLine(const CaseChange& c) {
  return std::string(VerdictToString(c.before)) + " -> " + VerdictToString(c.after) + "  " +
         Key(c.suite, c.name, c.target);
}

}  // namespace

const char* VerdictChangeName(VerdictChange change) {
  switch (change) {
    case VerdictChange::kWorse: return "worse";
    case VerdictChange::kBetter: return "better";
    case VerdictChange::kOther: return "changed";
  }
  return "?";
}

size_t ReportDiff::Count(VerdictChange change) const {
  size_t n = 0;
  for (const CaseChange& c : changes) n += c.change == change ? 1 : 0;
  return n;
}

ReportDiff DiffReports(const RunRecord& before, const RunRecord& after) {
  std::map<std::string, const CaseRecord*> earlier;
  for (const CaseRecord& c : before.cases) earlier[Key(c.suite, c.name, TargetName(c))] = &c;
  ReportDiff diff;
  for (const CaseRecord& c : after.cases) {
    const std::string key = Key(c.suite, c.name, TargetName(c));
    const auto found = earlier.find(key);
    if (found == earlier.end()) {
      diff.only_after.push_back(key);
      continue;
    }
    const Verdict was = found->second->outcome;
    earlier.erase(found);
    if (was == c.outcome) continue;
    diff.changes.push_back({c.suite, c.name, TargetName(c), was, c.outcome,
                            ChangeOf(was, c.outcome), OpVersions(c), c.message});
  }
  for (const auto& [key, record] : earlier) diff.only_before.push_back(key);
  return diff;
}

std::string RenderReportDiffText(const ReportDiff& diff, size_t max_lines) {
  std::string out = std::to_string(diff.Count(VerdictChange::kWorse)) + " worse, " +
                    std::to_string(diff.Count(VerdictChange::kBetter)) + " better, " +
                    std::to_string(diff.Count(VerdictChange::kOther)) + " changed otherwise";
  if (!diff.only_before.empty() || !diff.only_after.empty()) {
    out += "; " + std::to_string(diff.only_before.size()) + " case(s) only in the first report, " +
           std::to_string(diff.only_after.size()) + " only in the second";
  }
  out += "\n";
  size_t lines = 0;
  for (const auto& [group, cases] : Groups(diff)) {
    out += "  " + std::string(VerdictChangeName(static_cast<VerdictChange>(group.first))) + ": " +
           EscapeForTerminal(group.second) + "\n";
    for (const CaseChange* c : cases) {
      if (lines++ >= max_lines) continue;
      out += "    " + EscapeForTerminal(CaseLine(*c)) + "\n";
    }
  }
  if (lines > max_lines) out += "  ... and " + std::to_string(lines - max_lines) + " more\n";
  return out;
}

std::string RenderReportDiffMarkdown(const ReportDiff& diff, size_t max_lines) {
  std::string out = "## Verdict changes\n\n**" + std::to_string(diff.Count(VerdictChange::kWorse)) +
                    " worse**, " + std::to_string(diff.Count(VerdictChange::kBetter)) +
                    " better, " + std::to_string(diff.Count(VerdictChange::kOther)) +
                    " changed otherwise.\n\n| change | op versions | case | before | after |\n"
                    "|---|---|---|---|---|\n";
  size_t lines = 0;
  for (const auto& [group, cases] : Groups(diff)) {
    for (const CaseChange* c : cases) {
      if (lines++ >= max_lines) continue;
      out += std::string("| ") + VerdictChangeName(c->change) + " | " + Cell(group.second) +
             " | `" + Cell(Key(c->suite, c->name, c->target)) + "` | " +
             VerdictToString(c->before) + " | " + VerdictToString(c->after) + " |\n";
    }
  }
  if (lines > max_lines) out += "\n... and " + std::to_string(lines - max_lines) + " more\n";
  return out;
}

std::string RenderReportDiffJson(const ReportDiff& diff) {
  nlohmann::json j;
  j["worse"] = diff.Count(VerdictChange::kWorse);
  j["better"] = diff.Count(VerdictChange::kBetter);
  j["changed"] = diff.Count(VerdictChange::kOther);
  j["cases"] = nlohmann::json::array();
  for (const CaseChange& c : diff.changes) {
    j["cases"].push_back({{"suite", c.suite},
                          {"case", c.name},
                          {"target", c.target},
                          {"before", VerdictToString(c.before)},
                          {"after", VerdictToString(c.after)},
                          {"change", VerdictChangeName(c.change)},
                          {"op_versions", c.op_version},
                          {"message", c.message}});
  }
  j["only_before"] = diff.only_before;
  j["only_after"] = diff.only_after;
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace onnxgate
