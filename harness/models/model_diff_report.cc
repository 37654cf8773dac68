// `onnxgate diff` reports: text for the terminal and JSON (see model_diff.h).
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "harness/models/model_diff.h"
#include "reports/text_escape.h"

namespace onnxgate {
namespace {

constexpr size_t kWorstShown = 3;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::string Short6(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  std::ostringstream s;
  s.precision(6);
  s << x;
  return s.str();
}

// Why a value passed or failed: its metric verdicts or its elementwise summary.
std::string VerdictText(const ValueDiff& d) {
  return d.judgement.judged ? DescribeVerdicts(d.judgement.verdicts) : d.comparison.summary;
}

// "relu (Conv) -> relu [candidate relu_DequantizeLinear_Output]".
std::string LayerName(const ValueDiff& d) {
  std::string s =
      EscapeForTerminal(d.node) + " (" + d.op_type + ") -> " + EscapeForTerminal(d.value);
  if (!d.candidate_value.empty()) s += " [candidate " + EscapeForTerminal(d.candidate_value) + "]";
  return s;
}

std::string SqnrAndCosine(const TensorMetrics& m) {
  return "sqnr " + Short6(m.sqnr_db) + " dB, cosine " + Short6(m.cosine);
}

bool ShowsMetrics(const DiffRecord& diff, const ValueDiff& d) {
  return d.metrics.computed &&
         (!diff.reference_model_path.empty() || !diff.metrics.empty() || !d.metrics.top_k.empty());
}

void RenderOutputs(const DiffRecord& diff, std::ostream& out) {
  for (const ValueDiff& d : diff.outputs) {
    out << (d.passed() ? "  same    output " : "  DIFFERS output ") << EscapeForTerminal(d.value)
        << ": " << EscapeForTerminal(VerdictText(d)) << "\n";
    if (ShowsMetrics(diff, d)) out << "          " << DescribeMetrics(d.metrics) << "\n";
  }
}

void RenderLayerLines(const DiffRecord& diff, std::ostream& out) {
  for (const ValueDiff& d : diff.intermediates) {
    out << (d.passed() ? "  same    " : "  DIFFERS ") << LayerName(d) << ": "
        << EscapeForTerminal(VerdictText(d));
    if (ShowsMetrics(diff, d) && !d.judgement.judged) out << "; " << SqnrAndCosine(d.metrics);
    out << "\n";
  }
}

void RenderWorst(const DiffRecord& diff, std::ostream& out) {
  std::vector<size_t> worst = diff.WorstIntermediates(kWorstShown);
  // Nothing differs when even the worst value is exact (SQNR +inf).
  if (worst.empty() || diff.intermediates[worst[0]].metrics.sqnr_db == kInfinity) return;
  out << "worst values by SQNR:\n";
  for (size_t i : worst) {
    const ValueDiff& d = diff.intermediates[i];
    out << "  " << LayerName(d) << ": " << SqnrAndCosine(d.metrics) << ", max abs "
        << Short6(d.metrics.max_abs) << "\n";
  }
}

void RenderLayerwise(const DiffRecord& diff, bool verbose, std::ostream& out) {
  out << "layerwise  " << diff.intermediates.size() << " intermediate value(s) compared";
  if (!diff.not_compared.empty()) {
    out << ", " << diff.not_compared.size() << " not returned by both";
  }
  out << "\n";
  if (verbose) RenderLayerLines(diff, out);
  if (diff.first_divergence) {
    const ValueDiff& first = diff.intermediates[*diff.first_divergence];
    out << "first divergence: node " << EscapeForTerminal(first.node) << " (" << first.op_type
        << "), output " << EscapeForTerminal(first.value) << ": ";
    if (first.judgement.judged) {
      out << EscapeForTerminal(DescribeVerdicts(first.judgement.verdicts)) << "\n";
    } else {
      out << "max abs " << FormatShort(first.comparison.max_abs_error) << ", max rel "
          << FormatShort(first.comparison.max_rel_error) << "\n";
    }
  }
  RenderWorst(diff, out);
  for (const std::string& change : diff.pinning_changed) {
    out << "pinning changed the run: " << EscapeForTerminal(change) << "\n";
  }
  if (!diff.first_divergence) {
    out << (diff.pinning_changed.empty()
                ? "no intermediate value diverges beyond tolerance\n"
                : "no intermediate value diverges, but the values compared are those of the "
                  "runs with intermediate values pinned (above), not of the plain runs\n");
  }
}

nlohmann::ordered_json MetricsJson(const TensorMetrics& m) {
  nlohmann::ordered_json j = {{"max_abs", m.max_abs},   {"mean_abs", m.mean_abs},
                              {"p99_abs", m.p99_abs},   {"max_rel", m.max_rel},
                              {"mean_rel", m.mean_rel}, {"p99_rel", m.p99_rel},
                              {"cosine", m.cosine},     {"sqnr_db", m.sqnr_db}};
  if (m.integer) j["max_steps"] = m.max_steps;
  for (const TopKAgreement& t : m.top_k) j["top" + std::to_string(t.k)] = t.agreement;
  return j;
}

nlohmann::ordered_json ValueJson(const ValueDiff& d) {
  using Json = nlohmann::ordered_json;
  Json j = {{"value", d.value}};
  if (!d.candidate_value.empty()) j["candidate_value"] = d.candidate_value;
  if (!d.node.empty()) j["node"] = d.node;
  if (!d.op_type.empty()) j["op_type"] = d.op_type;
  const ValueComparison& c = d.comparison;
  j["passed"] = d.passed();
  j["judged_by"] = d.judgement.judged ? "metrics" : "elementwise";
  j["max_abs_error"] = c.max_abs_error;
  j["max_rel_error"] = c.max_rel_error;
  j["mismatches"] = c.mismatches;
  j["total_elements"] = c.total_elements;
  j["min_passing_rtol"] = c.min_passing_rtol;
  j["min_passing_atol"] = c.min_passing_atol;
  j["summary"] = c.summary;
  if (d.metrics.computed) j["metrics"] = MetricsJson(d.metrics);
  if (d.judgement.judged) {
    Json verdicts = Json::array();
    for (const MetricVerdict& v : d.judgement.verdicts) {
      verdicts.push_back({{"metric", v.metric},
                          {"value", v.value},
                          {"bound", v.at_least ? ">=" : "<="},
                          {"threshold", v.limit},
                          {"passed", v.passed},
                          {"margin", v.margin}});
    }
    j["verdicts"] = verdicts;
  }
  return j;
}

}  // namespace

namespace {

void RenderHeader(const DiffRecord& diff, std::ostream& out) {
  out << "model      " << EscapeForTerminal(diff.model_path) << "\n";
  if (!diff.reference_model_path.empty()) {
    out << "against    " << EscapeForTerminal(diff.reference_model_path) << "\n";
  }
  out << "candidate  " << EscapeForTerminal(diff.candidate) << "\n";
  out << "reference  " << EscapeForTerminal(diff.reference) << "\n";
  out << "tolerance  " << diff.tolerance.ToString() << "\n";
  if (!diff.metrics.empty()) out << "metrics    " << diff.metrics.ToString() << "\n";
}

// The outputs and, with layerwise values, their summary.
void RenderValues(const DiffRecord& diff, bool verbose, std::ostream& out) {
  RenderOutputs(diff, out);
  if (!diff.intermediates.empty() || !diff.not_compared.empty()) {
    RenderLayerwise(diff, verbose, out);
  }
}

// "output logits: sqnr 31.2 dB, cosine 0.9995" for the set's output of lowest SQNR, or its
// first failing output's verdict.
std::string WorstOutputText(const DiffRecord& diff) {
  const ValueDiff* worst = nullptr;
  for (const ValueDiff& d : diff.outputs) {
    if (!d.passed())
      return "output " + EscapeForTerminal(d.value) + ": " + EscapeForTerminal(VerdictText(d));
    if (d.metrics.computed && (worst == nullptr || d.metrics.sqnr_db < worst->metrics.sqnr_db)) {
      worst = &d;
    }
  }
  if (worst == nullptr) return "no output with metrics";
  return "output " + EscapeForTerminal(worst->value) + ": " + SqnrAndCosine(worst->metrics);
}

}  // namespace

std::string RenderDiffText(const DiffRecord& diff, bool verbose) {
  std::ostringstream out;
  RenderHeader(diff, out);
  RenderValues(diff, verbose, out);
  out << (diff.passed() ? "SAME: the candidate matches the reference\n"
                        : "DIFFERENT: the candidate does not match the reference\n");
  return out.str();
}

std::string RenderDatasetDiffText(const DatasetDiff& diff, bool verbose) {
  if (diff.sets.size() == 1) return RenderDiffText(diff.sets.front(), verbose);
  std::ostringstream out;
  RenderHeader(diff.sets.front(), out);
  out << "data sets  " << diff.sets.size() << "\n";
  size_t failed = 0;
  for (size_t s = 0; s < diff.sets.size(); ++s) {
    const bool passed = diff.sets[s].passed();
    failed += passed ? 0 : 1;
    out << EscapeForTerminal(diff.set_labels[s]) << ": " << (passed ? "same" : "DIFFERS") << "\n";
    RenderValues(diff.sets[s], verbose, out);
  }
  const size_t worst = diff.WorstSet();
  out << "worst set: " << EscapeForTerminal(diff.set_labels[worst]) << ", "
      << WorstOutputText(diff.sets[worst]) << "\n";
  if (failed == 0) {
    out << "SAME: the candidate matches the reference on all " << diff.sets.size()
        << " data sets\n";
  } else {
    out << "DIFFERENT: the candidate does not match the reference on " << failed << " of "
        << diff.sets.size() << " data sets\n";
  }
  return out.str();
}

namespace {

nlohmann::ordered_json DiffJson(const DiffRecord& diff) {
  using Json = nlohmann::ordered_json;
  Json j = {{"model", diff.model_path}};
  j["reference_model"] =
      diff.reference_model_path.empty() ? Json(nullptr) : Json(diff.reference_model_path);
  j["candidate"] = diff.candidate;
  j["reference"] = diff.reference;
  j["tolerance"] = {{"rtol", diff.tolerance.rtol}, {"atol", diff.tolerance.atol}};
  Json thresholds = Json::object();
  for (const MetricThreshold& t : diff.metrics.items) thresholds[t.name] = t.limit;
  j["metric_thresholds"] = thresholds;
  j["passed"] = diff.passed();
  Json outputs = Json::array();
  for (const ValueDiff& d : diff.outputs) outputs.push_back(ValueJson(d));
  j["outputs"] = outputs;
  Json layers = Json::array();
  for (const ValueDiff& d : diff.intermediates) layers.push_back(ValueJson(d));
  j["intermediates"] = layers;
  j["not_compared"] = diff.not_compared;
  if (diff.first_divergence) {
    j["first_divergence"] = ValueJson(diff.intermediates[*diff.first_divergence]);
  } else {
    j["first_divergence"] = nullptr;
  }
  Json worst = Json::array();
  for (size_t i : diff.WorstIntermediates(kWorstShown))
    worst.push_back(diff.intermediates[i].value);
  j["worst_intermediates"] = worst;
  j["pinning_changed"] = diff.pinning_changed;
  return j;
}

// nlohmann writes inf and NaN as null; the summaries keep them readable.
std::string Dump(const nlohmann::ordered_json& j) {
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string RenderDiffJson(const DiffRecord& diff) { return Dump(DiffJson(diff)); }

// Several sets: the first set's model, sides, tolerance and thresholds at the top, then
// "data_sets" (each set's record with its "data_set" label first) and "worst_data_set".
std::string RenderDatasetDiffJson(const DatasetDiff& diff) {
  using Json = nlohmann::ordered_json;
  if (diff.sets.size() == 1) return RenderDiffJson(diff.sets.front());
  const Json first = DiffJson(diff.sets.front());
  Json j;
  for (const char* key :
       {"model", "reference_model", "candidate", "reference", "tolerance", "metric_thresholds"}) {
    j[key] = first[key];
  }
  j["passed"] = diff.passed();
  Json sets = Json::array();
  for (size_t s = 0; s < diff.sets.size(); ++s) {
    Json one = {{"data_set", diff.set_labels[s]}};
    one.update(DiffJson(diff.sets[s]));
    sets.push_back(std::move(one));
  }
  j["data_sets"] = sets;
  j["worst_data_set"] = diff.set_labels[diff.WorstSet()];
  return Dump(j);
}

}  // namespace onnxgate
