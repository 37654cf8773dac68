// The forms of a check-model record (see model_check_report.h).
#include "reports/model_check_report.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "reports/format.h"
#include "reports/text_escape.h"
#include "runtime/onnx/domain.h"

namespace onnxgate {

namespace {

// Where a node lands, in words: "dnnl", "ref (fallback)", "nowhere (lacking)", "-".
std::string Placement(const NodeCheckRecord& n) {
  if (n.lacking) return "nowhere: no provider claims " + NodeOpName(n);
  if (n.provider.empty()) return "-";
  return n.provider + (n.falls_back ? " (fallback)" : "") +
         (n.subgraph.empty() ? "" : " in " + n.subgraph);
}

std::string Declines(const NodeCheckRecord& n) {
  std::vector<std::string> parts;
  for (const NodeCheckRecord::Decline& d : n.declines)
    parts.push_back(d.provider + ": " + d.reason);
  return JoinStrings(parts, "; ");
}

// Why a node fails the preflight; empty when it does not.
std::string NodeProblem(const ModelCheckRecord& check, const NodeCheckRecord& n) {
  if (n.lacking) return "no provider of " + check.runtime_name + " claims " + NodeOpName(n);
  if (n.falls_back && check.fallback == "forbid") {
    return "falls back to " + n.provider + " (" + Declines(n) + ")";
  }
  return "";
}

struct JunitCase {
  std::string name;
  std::string failure;  // empty: passed
  std::string out;
};

std::vector<JunitCase> JunitCases(const ModelCheckRecord& check) {
  std::vector<JunitCase> cases;
  cases.push_back({"ir_version " + std::to_string(check.ir_version),
                   check.ir_accepted
                       ? ""
                       : "IR version " + std::to_string(check.ir_version) +
                             " not accepted (accepts " + check.ir_accepted_range + ")",
                   ""});
  for (const OpsetCheckRecord& o : check.opsets) {
    cases.push_back({"opset " + DomainDisplayName(o.domain) + " " + std::to_string(o.version),
                     o.accepted ? ""
                                : "not accepted (accepts " +
                                      (o.accepted_range.empty() ? "none" : o.accepted_range) + ")",
                     ""});
  }
  cases.push_back({"load", check.loaded ? "" : check.load_error, ""});
  for (const NodeCheckRecord& n : check.nodes) {
    cases.push_back({"node " + n.node_name + " (" + NodeOpName(n) + ")", NodeProblem(check, n),
                     "placement: " + Placement(n) +
                         (n.declines.empty() ? "" : "\ndeclined by " + Declines(n))});
  }
  if (check.conversion) {
    const ConversionCheckRecord& c = *check.conversion;
    std::string failure;
    if (!c.converted || !c.loaded)
      failure = c.error;
    else if (!c.outputs_match)
      failure = "outputs differ from the original's";
    cases.push_back({"convert to opset " + std::to_string(c.target_opset), failure,
                     JoinStrings(c.output_summaries, "\n")});
  }
  return cases;
}

}  // namespace

std::string NodeOpName(const NodeCheckRecord& n) {
  return (n.domain.empty() ? "" : n.domain + ".") + n.op_type + "-" +
         (n.since_version > 0 ? std::to_string(n.since_version) : std::string("?"));
}

std::string RenderModelCheckText(const ModelCheckRecord& check) {
  std::ostringstream out;
  out << "model    " << EscapeForTerminal(check.model_path) << "\n";
  out << "runtime  " << check.runtime_name << " " << check.runtime_version << ", EPs "
      << JoinStrings(check.eps, ", ") << ", fallback " << check.fallback << "\n";
  out << "IR       " << check.ir_version
      << (check.ir_accepted ? " accepted"
                            : " NOT accepted (accepts " + check.ir_accepted_range + ")")
      << "\n";
  for (const OpsetCheckRecord& o : check.opsets) {
    out << "opset    " << DomainDisplayName(o.domain) << " " << o.version
        << (o.accepted
                ? " accepted"
                : " NOT accepted (accepts " +
                      (o.accepted_range.empty() ? std::string("none") : o.accepted_range) + ")")
        << "\n";
  }
  out << "load     " << (check.loaded ? "ok" : "FAILED: " + EscapeForTerminal(check.load_error))
      << "\n";
  out << "nodes    " << check.nodes.size() << "\n";
  for (const NodeCheckRecord& n : check.nodes) {
    out << "  " << EscapeForTerminal(n.node_name) << "  " << NodeOpName(n) << "  -> "
        << EscapeForTerminal(Placement(n)) << "\n";
    for (const NodeCheckRecord::Decline& d : n.declines) {
      out << "      declined by " << d.provider << ": " << EscapeForTerminal(d.reason) << "\n";
    }
  }
  if (check.conversion) {
    const ConversionCheckRecord& c = *check.conversion;
    out << "convert  to opset " << c.target_opset << ": ";
    if (!c.converted) {
      out << "FAILED: " << EscapeForTerminal(c.error) << "\n";
    } else if (!c.loaded) {
      out << "converted, but " << EscapeForTerminal(c.error) << "\n";
    } else {
      out << "converted, loads, outputs " << (c.outputs_match ? "match" : "DIFFER")
          << " the original's (on " << c.reference << ")\n";
    }
    for (const std::string& s : c.output_summaries) out << "      " << EscapeForTerminal(s) << "\n";
  }
  if (check.passed()) {
    out << "PASSED: the runtime can run this model as asked\n";
  } else {
    out << "FAILED:\n";
    for (const std::string& p : check.problems) out << "  - " << EscapeForTerminal(p) << "\n";
  }
  return out.str();
}

std::string RenderModelCheckJson(const ModelCheckRecord& check) {
  using Json = nlohmann::ordered_json;
  Json j = {{"model", check.model_path},
            {"model_sha256", check.model_sha256},
            {"runtime", {{"name", check.runtime_name}, {"version", check.runtime_version}}},
            {"eps", check.eps},
            {"fallback", check.fallback},
            {"passed", check.passed()},
            {"problems", check.problems},
            {"ir_version",
             {{"version", check.ir_version},
              {"accepted", check.ir_accepted},
              {"accepted_range", check.ir_accepted_range}}}};
  Json opsets = Json::array();
  for (const OpsetCheckRecord& o : check.opsets) {
    opsets.push_back({{"domain", DomainDisplayName(o.domain)},
                      {"version", o.version},
                      {"accepted", o.accepted},
                      {"accepted_range", o.accepted_range}});
  }
  j["opsets"] = opsets;
  j["loaded"] = check.loaded;
  j["load_error"] = check.load_error;
  Json nodes = Json::array();
  for (const NodeCheckRecord& n : check.nodes) {
    Json declines = Json::array();
    for (const NodeCheckRecord::Decline& d : n.declines) {
      declines.push_back({{"provider", d.provider}, {"reason", d.reason}});
    }
    nodes.push_back({{"node", n.node_name},
                     {"op_type", n.op_type},
                     {"domain", DomainDisplayName(n.domain)},
                     {"since_version", n.since_version},
                     {"provider", n.provider},
                     {"falls_back", n.falls_back},
                     {"lacking", n.lacking},
                     {"subgraph", n.subgraph},
                     {"declines", declines}});
  }
  j["nodes"] = nodes;
  if (check.conversion) {
    const ConversionCheckRecord& c = *check.conversion;
    j["conversion"] = {{"target_opset", c.target_opset},
                       {"converted", c.converted},
                       {"loaded", c.loaded},
                       {"reference", c.reference},
                       {"outputs_match", c.outputs_match},
                       {"outputs", c.output_summaries},
                       {"error", c.error}};
  }
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string RenderModelCheckJunit(const ModelCheckRecord& check) {
  const std::vector<JunitCase> cases = JunitCases(check);
  int failures = 0;
  for (const JunitCase& c : cases) failures += c.failure.empty() ? 0 : 1;
  const std::string classname = "check-model." + check.runtime_name;
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"onnxgate check-model\" tests=\"" << cases.size() << "\" failures=\""
      << failures << "\" errors=\"0\" skipped=\"0\">\n";
  out << "  <testsuite name=\"" << XmlEscapeAttribute("check-model " + check.model_path)
      << "\" tests=\"" << cases.size() << "\" failures=\"" << failures
      << "\" errors=\"0\" skipped=\"0\">\n";
  for (const JunitCase& c : cases) {
    out << "    <testcase classname=\"" << XmlEscapeAttribute(classname) << "\" name=\""
        << XmlEscapeAttribute(c.name) << "\">\n";
    if (!c.failure.empty()) {
      out << "      <failure message=\"" << XmlEscapeAttribute(OneLine(c.failure, 500)) << "\">"
          << XmlEscapeText(c.failure) << "</failure>\n";
    }
    if (!c.out.empty()) out << "      <system-out>" << XmlEscapeText(c.out) << "</system-out>\n";
    out << "    </testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
  return out.str();
}

std::string RenderModelCheckMarkdown(const ModelCheckRecord& check) {
  std::ostringstream out;
  out << "## check-model " << MarkdownCode(check.model_path) << "\n\n";
  out << "Runtime " << MarkdownCode(check.runtime_name) << " "
      << MarkdownCell(check.runtime_version, 80) << ", EPs "
      << MarkdownCell(JoinStrings(check.eps, ", "), 200) << ", fallback " << check.fallback
      << ": **" << (check.passed() ? "passed" : "failed") << "**\n\n";
  if (!check.passed()) {
    for (const std::string& p : check.problems) out << "- " << MarkdownCell(p, 400) << "\n";
    out << "\n";
  }
  out << "| check | value | accepted |\n| --- | --- | --- |\n";
  out << "| IR version | " << check.ir_version << " | "
      << (check.ir_accepted ? "yes" : "no (" + check.ir_accepted_range + ")") << " |\n";
  for (const OpsetCheckRecord& o : check.opsets) {
    out << "| opset " << MarkdownCode(DomainDisplayName(o.domain)) << " | " << o.version << " | "
        << (o.accepted ? "yes" : "no (" + MarkdownCell(o.accepted_range, 40) + ")") << " |\n";
  }
  out << "\n| node | op | placement | declined by |\n| --- | --- | --- | --- |\n";
  for (const NodeCheckRecord& n : check.nodes) {
    out << "| " << MarkdownCode(n.node_name) << " | " << MarkdownCode(NodeOpName(n)) << " | "
        << MarkdownCell(Placement(n), 200) << " | " << MarkdownCell(Declines(n), 300) << " |\n";
  }
  if (check.conversion) {
    const ConversionCheckRecord& c = *check.conversion;
    out << "\nConversion to opset " << c.target_opset << ": "
        << MarkdownCell(!c.converted || !c.loaded ? c.error
                        : c.outputs_match         ? "outputs match the original's on " + c.reference
                                          : "outputs differ from the original's on " + c.reference,
                        400)
        << "\n";
  }
  return out.str();
}

}  // namespace onnxgate
