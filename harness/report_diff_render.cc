// The text, Markdown and JSON renderings of a ReportDiff.
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "harness/report_diff.h"
#include "reports/format.h"
#include "reports/text_escape.h"

namespace onnxgate {

namespace {

std::string Key(const std::string& suite, const std::string& name, const std::string& target) {
  return suite + "/" + name + " [" + target + "]";
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

std::string MoreLine(size_t lines, size_t max_lines, const std::string& indent) {
  if (lines <= max_lines) return "";
  return indent + "... and " + std::to_string(lines - max_lines) + " more\n";
}

void WriteMarginMarkdown(const ReportDiff& diff, size_t max_lines, size_t& lines,
                         std::string& out) {
  if (diff.margin_grew.empty()) return;
  out +=
      "\n### Larger errors, still passing\n\n| op versions | case | output | max abs error "
      "before | after | tolerance used |\n|---|---|---|---:|---:|---:|\n";
  for (const auto& [op_version, cases] : GroupMarginGrowth(diff)) {
    for (const MarginGrowth* g : cases) {
      if (lines++ >= max_lines) continue;
      out += "| " + Cell(op_version) + " | `" + Cell(Key(g->suite, g->name, g->target)) + "` | " +
             Cell(g->output) + " (set " + std::to_string(g->set_index) + ") | " +
             FormatNumber(g->error_before) + " | " + FormatNumber(g->error_after) + " | " +
             FormatPercent(g->tolerance_used) + " |\n";
    }
  }
}

}  // namespace

std::map<std::pair<VerdictChange, std::string>, std::vector<const CaseChange*>> GroupChanges(
    const ReportDiff& diff) {
  std::map<std::pair<VerdictChange, std::string>, std::vector<const CaseChange*>> groups;
  for (const CaseChange& c : diff.changes) groups[{c.change, c.op_version}].push_back(&c);
  return groups;
}

std::map<std::string, std::vector<const MarginGrowth*>> GroupMarginGrowth(const ReportDiff& diff) {
  std::map<std::string, std::vector<const MarginGrowth*>> groups;
  for (const MarginGrowth& g : diff.margin_grew) groups[g.op_version].push_back(&g);
  return groups;
}

std::string DescribeMarginGrowth(const MarginGrowth& g) {
  std::string out = g.output + " (set " + std::to_string(g.set_index) + "): max abs error " +
                    FormatNumber(g.error_before) + " -> " + FormatNumber(g.error_after);
  if (g.error_before > 0) {
    char factor[32];
    std::snprintf(factor, sizeof(factor), " (x%.3g)", g.error_after / g.error_before);
    out += factor;
  }
  return out + ", " + FormatPercent(g.tolerance_used) + " of its tolerance";
}

std::string RenderReportDiffText(const ReportDiff& diff, size_t max_lines) {
  std::string out = EscapeForTerminal(ReportDiffSummary(diff)) + "\n";
  size_t lines = 0;
  for (const auto& [group, cases] : GroupChanges(diff)) {
    out += "  " + std::string(VerdictChangeName(group.first)) + ": " +
           EscapeForTerminal(group.second) + "\n";
    for (const CaseChange* c : cases) {
      if (lines++ >= max_lines) continue;
      out += "    " + EscapeForTerminal(CaseLine(*c)) + "\n";
    }
  }
  for (const auto& [op_version, cases] : GroupMarginGrowth(diff)) {
    out += "  larger error, still passing: " + EscapeForTerminal(op_version) + "\n";
    for (const MarginGrowth* g : cases) {
      if (lines++ >= max_lines) continue;
      out += "    " + EscapeForTerminal(Key(g->suite, g->name, g->target)) + "  " +
             EscapeForTerminal(DescribeMarginGrowth(*g)) + "\n";
    }
  }
  return out + MoreLine(lines, max_lines, "  ");
}

std::string RenderReportDiffMarkdown(const ReportDiff& diff, size_t max_lines) {
  std::string out = "## Verdict changes\n\n**" + Cell(ReportDiffSummary(diff)) +
                    ".**\n\n| change | op versions | case | before | after |\n"
                    "|---|---|---|---|---|\n";
  size_t lines = 0;
  for (const auto& [group, cases] : GroupChanges(diff)) {
    for (const CaseChange* c : cases) {
      if (lines++ >= max_lines) continue;
      out += std::string("| ") + VerdictChangeName(c->change) + " | " + Cell(group.second) +
             " | `" + Cell(Key(c->suite, c->name, c->target)) + "` | " +
             VerdictToString(c->before) + " | " + VerdictToString(c->after) + " |\n";
    }
  }
  WriteMarginMarkdown(diff, max_lines, lines, out);
  return out + MoreLine(lines, max_lines, "\n");
}

std::string RenderReportDiffJson(const ReportDiff& diff) {
  using Json = nlohmann::json;
  Json j;
  j["worse"] = diff.Count(VerdictChange::kWorse);
  j["better"] = diff.Count(VerdictChange::kBetter);
  j["changed"] = diff.Count(VerdictChange::kOther);
  j["margin_grew"] = diff.margin_grew.size();
  j["cases"] = Json::array();
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
  j["margin_grew_cases"] = Json::array();
  for (const MarginGrowth& g : diff.margin_grew) {
    j["margin_grew_cases"].push_back({{"suite", g.suite},
                                      {"case", g.name},
                                      {"target", g.target},
                                      {"op_versions", g.op_version},
                                      {"output", g.output},
                                      {"set", g.set_index},
                                      {"max_abs_error_before", g.error_before},
                                      {"max_abs_error_after", g.error_after},
                                      {"tolerance_used", g.tolerance_used}});
  }
  j["only_before"] = diff.only_before;
  j["only_after"] = diff.only_after;
  if (!diff.target_before.empty()) {
    j["targets_matched"] = {{"before", diff.target_before}, {"after", diff.target_after}};
  }
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace onnxgate
