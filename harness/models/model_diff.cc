// `onnxgate diff` (see model_diff.h).
#include "harness/models/model_diff.h"

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "harness/models/model_feeds.h"
#include "harness/models/scratch_model.h"
#include "reports/text_escape.h"

namespace onnxgate {

namespace {

// The model at `path` loaded on `side`.
StatusOr<std::unique_ptr<LoadedModel>> LoadOn(const DiffSide& side, const std::string& path,
                                              const std::string& shown_path) {
  StatusOr<std::unique_ptr<LoadedModel>> loaded = side.runtime->Load(path, side.load);
  if (!loaded.ok()) return loaded.status().WithContext(side.label + ": loading " + shown_path);
  return loaded;
}

// A run of the loaded model: its outputs by name.
StatusOr<std::map<std::string, Value>> RunLoaded(const LoadedModel& model, const DiffSide& side,
                                                 const std::string& shown_path,
                                                 const std::vector<NamedValue>& feeds) {
  StatusOr<std::map<std::string, Value>> outputs = RunOutputsByName(model, feeds);
  if (!outputs.ok()) return outputs.status().WithContext(side.label + ": running " + shown_path);
  return outputs;
}

// The model at `path` loaded and run on `side`: its outputs by name.
StatusOr<std::map<std::string, Value>> RunOn(const DiffSide& side, const std::string& path,
                                             const std::string& shown_path,
                                             const std::vector<NamedValue>& feeds) {
  ONNXGATE_ASSIGN_OR_RETURN(std::unique_ptr<LoadedModel> model, LoadOn(side, path, shown_path));
  return RunLoaded(*model, side, shown_path, feeds);
}

void CompareLayers(const std::vector<ExposedValue>& exposed,
                   const std::map<std::string, Value>& candidate,
                   const std::map<std::string, Value>& reference, DiffRecord* diff) {
  for (const ExposedValue& v : exposed) {
    auto got = candidate.find(v.value);
    auto want = reference.find(v.value);
    if (got == candidate.end() || want == reference.end()) {
      diff->not_compared.push_back(v.value);
      continue;
    }
    diff->intermediates.push_back(
        {v.value, v.node, v.op_type, CompareValues(got->second, want->second, diff->tolerance)});
    if (!diff->first_divergence && !diff->intermediates.back().comparison.passed) {
      diff->first_divergence = diff->intermediates.size() - 1;
    }
  }
}

}  // namespace

bool DiffRecord::passed() const {
  for (const ValueDiff& d : outputs) {
    if (!d.comparison.passed) return false;
  }
  return !first_divergence.has_value();
}

StatusOr<DiffRecord> DiffModel(const DiffSide& candidate, const DiffSide& reference,
                               const DiffOptions& o) {
  DiffRecord diff;
  diff.model_path = o.model_path;
  diff.candidate = candidate.label;
  diff.reference = reference.label;
  diff.tolerance = o.tolerance;

  // The feeds are read or generated as the candidate's load of the model declares them.
  ONNXGATE_ASSIGN_OR_RETURN(std::unique_ptr<LoadedModel> candidate_model,
                            LoadOn(candidate, o.model_path, o.model_path));
  ONNXGATE_ASSIGN_OR_RETURN(
      std::vector<NamedValue> feeds,
      MakeModelFeeds(*candidate_model, o.model_path, FeedSource{o.input_files, o.dims, o.seed}));
  ONNXGATE_ASSIGN_OR_RETURN(auto got, RunLoaded(*candidate_model, candidate, o.model_path, feeds));
  ONNXGATE_ASSIGN_OR_RETURN(auto want, RunOn(reference, o.model_path, o.model_path, feeds));
  for (const std::string& name : candidate_model->output_names()) {
    auto g = got.find(name);
    auto w = want.find(name);
    if (g == got.end() || w == want.end()) {
      return Internal(o.model_path + ": output '" + name + "' missing from a side's results");
    }
    diff.outputs.push_back({name, "", "", CompareValues(g->second, w->second, o.tolerance)});
  }
  if (!o.layerwise) return diff;

  // Layerwise: the same feeds through a copy whose intermediate values are outputs too.
  ONNXGATE_ASSIGN_OR_RETURN(ExposedModel exposed, ExposeIntermediatesOfModelFile(o.model_path));
  const std::string shown = o.model_path + " (intermediate values exposed)";
  ONNXGATE_ASSIGN_OR_RETURN(auto got_layers, RunOn(candidate, exposed.copy.path(), shown, feeds));
  ONNXGATE_ASSIGN_OR_RETURN(auto want_layers, RunOn(reference, exposed.copy.path(), shown, feeds));
  CompareLayers(exposed.intermediates, got_layers, want_layers, &diff);
  return diff;
}

std::string RenderDiffText(const DiffRecord& diff) {
  std::ostringstream out;
  out << "model      " << EscapeForTerminal(diff.model_path) << "\n";
  out << "candidate  " << EscapeForTerminal(diff.candidate) << "\n";
  out << "reference  " << EscapeForTerminal(diff.reference) << "\n";
  out << "tolerance  " << diff.tolerance.ToString() << "\n";
  for (const ValueDiff& d : diff.outputs) {
    out << (d.comparison.passed ? "  same    output " : "  DIFFERS output ")
        << EscapeForTerminal(d.value) << ": " << EscapeForTerminal(d.comparison.summary) << "\n";
  }
  if (!diff.intermediates.empty() || !diff.not_compared.empty()) {
    out << "layerwise  " << diff.intermediates.size() << " intermediate value(s) compared";
    if (!diff.not_compared.empty()) out << ", " << diff.not_compared.size() << " not returned by both";
    out << "\n";
    for (const ValueDiff& d : diff.intermediates) {
      out << (d.comparison.passed ? "  same    " : "  DIFFERS ") << EscapeForTerminal(d.node)
          << " (" << d.op_type << ") -> " << EscapeForTerminal(d.value) << ": "
          << EscapeForTerminal(d.comparison.summary) << "\n";
    }
    if (diff.first_divergence) {
      const ValueDiff& first = diff.intermediates[*diff.first_divergence];
      out << "first divergence: node " << EscapeForTerminal(first.node) << " (" << first.op_type
          << "), output " << EscapeForTerminal(first.value) << ": max abs "
          << FormatShort(first.comparison.max_abs_error) << ", max rel "
          << FormatShort(first.comparison.max_rel_error) << "\n";
    } else {
      out << "no intermediate value diverges beyond tolerance\n";
    }
  }
  out << (diff.passed() ? "SAME: the candidate matches the reference\n"
                        : "DIFFERENT: the candidate does not match the reference\n");
  return out.str();
}

std::string RenderDiffJson(const DiffRecord& diff) {
  using Json = nlohmann::ordered_json;
  auto value_json = [](const ValueDiff& d) {
    Json j = {{"value", d.value}};
    if (!d.node.empty()) j["node"] = d.node;
    if (!d.op_type.empty()) j["op_type"] = d.op_type;
    const ValueComparison& c = d.comparison;
    j["passed"] = c.passed;
    j["max_abs_error"] = c.max_abs_error;
    j["max_rel_error"] = c.max_rel_error;
    j["mismatches"] = c.mismatches;
    j["total_elements"] = c.total_elements;
    j["min_passing_rtol"] = c.min_passing_rtol;
    j["min_passing_atol"] = c.min_passing_atol;
    j["summary"] = c.summary;
    return j;
  };
  Json j = {{"model", diff.model_path},
            {"candidate", diff.candidate},
            {"reference", diff.reference},
            {"tolerance", {{"rtol", diff.tolerance.rtol}, {"atol", diff.tolerance.atol}}},
            {"passed", diff.passed()}};
  Json outputs = Json::array();
  for (const ValueDiff& d : diff.outputs) outputs.push_back(value_json(d));
  j["outputs"] = outputs;
  Json layers = Json::array();
  for (const ValueDiff& d : diff.intermediates) layers.push_back(value_json(d));
  j["intermediates"] = layers;
  j["not_compared"] = diff.not_compared;
  if (diff.first_divergence) {
    j["first_divergence"] = value_json(diff.intermediates[*diff.first_divergence]);
  } else {
    j["first_divergence"] = nullptr;
  }
  // nlohmann writes inf and NaN as null; the summaries keep them readable.
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace onnxgate
