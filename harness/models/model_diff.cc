// `onnxgate diff` (see model_diff.h).
#include "harness/models/model_diff.h"

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "harness/models/load_on_runtime.h"
#include "harness/models/model_feeds.h"
#include "harness/models/model_worker.h"
#include "harness/models/scratch_model.h"
#include "harness/worker.h"
#include "reports/text_escape.h"
#include "runtime/model/model_file.h"

namespace onnxgate {

namespace {

// The model at `path` loaded on `side`.
StatusOr<std::unique_ptr<LoadedModel>> LoadOn(const DiffSide& side, const std::string& path,
                                              const std::string& shown_path) {
  SetWorkerBreadcrumb("loading " + shown_path);
  StatusOr<std::unique_ptr<LoadedModel>> loaded = LoadOnRuntime(*side.runtime, path, side.load);
  if (!loaded.ok()) return loaded.status().WithContext(side.label + ": loading " + shown_path);
  return loaded;
}

// One step, run in a worker: the model at `path` loaded on `side` and run on `feeds`, or, when
// `feeds` is null, on feeds made as the load declares them from the options. Returns two groups:
// the feeds it ran on, and its outputs in the order the model declares them.
StatusOr<ValueGroups> LoadAndRun(const DiffSide& side, const std::string& path,
                                 const std::string& shown_path,
                                 const std::vector<NamedValue>* feeds, const DiffOptions& o) {
  ONNXGATE_ASSIGN_OR_RETURN(std::unique_ptr<LoadedModel> model, LoadOn(side, path, shown_path));
  std::vector<NamedValue> made;
  if (feeds == nullptr) {
    SetWorkerBreadcrumb("making the inputs of " + shown_path);
    ONNXGATE_ASSIGN_OR_RETURN(
        made, MakeModelFeeds(*model, o.model_path, FeedSource{o.input_files, o.dims, o.seed}));
    feeds = &made;
  }
  SetWorkerBreadcrumb("running " + shown_path);
  StatusOr<std::map<std::string, Value>> outputs = RunOutputsByName(*model, *feeds);
  if (!outputs.ok()) return outputs.status().WithContext(side.label + ": running " + shown_path);
  std::vector<NamedValue> ordered;
  for (const std::string& name : model->output_names()) {
    auto it = outputs->find(name);
    if (it != outputs->end()) ordered.push_back({name, std::move(it->second)});
  }
  return ValueGroups{*feeds, std::move(ordered)};
}

// LoadAndRun in the worker; "<model>: the run on <side> crashed: ..." when it dies there.
StatusOr<ValueGroups> RunStep(ModelWorker& worker, const DiffSide& side, const std::string& path,
                              const std::string& shown_path, const std::vector<NamedValue>* feeds,
                              const DiffOptions& o) {
  ONNXGATE_ASSIGN_OR_RETURN(ValueGroups groups,
                            worker.RunValues(shown_path + ": the run on " + side.label, [&] {
                              return LoadAndRun(side, path, shown_path, feeds, o);
                            }));
  if (groups.size() != 2) {
    return Internal(shown_path + ": the worker returned " + std::to_string(groups.size()) +
                    " value groups for 2");
  }
  return groups;
}

std::map<std::string, Value> ByName(std::vector<NamedValue> values) {
  std::map<std::string, Value> by_name;
  for (NamedValue& v : values) by_name.emplace(std::move(v.name), std::move(v.value));
  return by_name;
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

  ModelWorker worker(o.worker, {candidate.runtime, reference.runtime});
  // The feeds are read or generated as the candidate's load of the model declares them.
  ONNXGATE_ASSIGN_OR_RETURN(ValueGroups got,
                            RunStep(worker, candidate, o.model_path, o.model_path, nullptr, o));
  const std::vector<NamedValue>& feeds = got[0];
  ONNXGATE_ASSIGN_OR_RETURN(ValueGroups want,
                            RunStep(worker, reference, o.model_path, o.model_path, &feeds, o));
  const std::map<std::string, Value> want_by_name = ByName(std::move(want[1]));
  for (const NamedValue& g : got[1]) {
    auto w = want_by_name.find(g.name);
    if (w == want_by_name.end()) {
      return Internal(o.model_path + ": output '" + g.name + "' missing from a side's results");
    }
    diff.outputs.push_back({g.name, "", "", CompareValues(g.value, w->second, o.tolerance)});
  }
  if (!o.layerwise) return diff;

  // Layerwise: the same feeds through a copy whose intermediate values are outputs too.
  ONNXGATE_ASSIGN_OR_RETURN(ModelFile file, ModelFile::Read(o.model_path));
  ONNXGATE_ASSIGN_OR_RETURN(ExposedModel exposed, ExposeIntermediatesOfModelFile(file));
  const std::string shown = o.model_path + " (intermediate values exposed)";
  ONNXGATE_ASSIGN_OR_RETURN(ValueGroups got_layers,
                            RunStep(worker, candidate, exposed.copy.path(), shown, &feeds, o));
  ONNXGATE_ASSIGN_OR_RETURN(ValueGroups want_layers,
                            RunStep(worker, reference, exposed.copy.path(), shown, &feeds, o));
  CompareLayers(exposed.intermediates, ByName(std::move(got_layers[1])),
                ByName(std::move(want_layers[1])), &diff);
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
    if (!diff.not_compared.empty())
      out << ", " << diff.not_compared.size() << " not returned by both";
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
