// `onnxgate diff` (see model_diff.h).
#include "harness/models/model_diff.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

#include "harness/models/expected_outputs.h"
#include "harness/models/input_sets.h"
#include "harness/models/load_on_runtime.h"
#include "harness/models/model_feeds.h"
#include "harness/models/model_worker.h"
#include "harness/models/qdq_pairs.h"
#include "harness/models/scratch_model.h"
#include "harness/worker.h"
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

// The thresholds that may judge an intermediate value: all but top-k (classes are an output's).
MetricThresholds IntermediateThresholds(const MetricThresholds& all) {
  MetricThresholds kept;
  for (const MetricThreshold& t : all.items) {
    if (t.name.rfind("top", 0) != 0) kept.items.push_back(t);
  }
  return kept;
}

ValueDiff CompareOne(const std::string& name, const Value& got, const Value& want,
                     const DiffOptions& o, const MetricThresholds& thresholds) {
  ValueDiff d;
  d.value = name;
  d.comparison = CompareValues(got, want, o.tolerance);
  d.metrics = ComputeValueMetrics(got, want, thresholds.TopKs(o.top_k));
  d.judgement = JudgeMetrics(d.metrics, thresholds);
  return d;
}

// The candidate's name of each reference value: a quantized candidate's dequantized tensor where
// it has one, else the same name.
std::string CandidateNameOf(const std::string& reference_name,
                            const std::map<std::string, std::string>& dequantized,
                            const std::map<std::string, Value>& candidate) {
  auto dq = dequantized.find(reference_name);
  if (dq != dequantized.end() && candidate.count(dq->second)) return dq->second;
  return reference_name;
}

void CompareLayers(const std::vector<ExposedValue>& exposed,
                   const std::map<std::string, std::string>& dequantized,
                   const std::map<std::string, Value>& candidate,
                   const std::map<std::string, Value>& reference, const DiffOptions& o,
                   DiffRecord* diff) {
  const MetricThresholds thresholds = IntermediateThresholds(o.metrics);
  for (const ExposedValue& v : exposed) {
    const std::string candidate_name = CandidateNameOf(v.value, dequantized, candidate);
    auto got = candidate.find(candidate_name);
    auto want = reference.find(v.value);
    if (got == candidate.end() || want == reference.end()) {
      diff->not_compared.push_back(v.value);
      continue;
    }
    ValueDiff d = CompareOne(v.value, got->second, want->second, o, thresholds);
    if (candidate_name != v.value) d.candidate_value = candidate_name;
    d.node = v.node;
    d.op_type = v.op_type;
    diff->intermediates.push_back(std::move(d));
    if (!diff->first_divergence && !diff->intermediates.back().passed()) {
      diff->first_divergence = diff->intermediates.size() - 1;
    }
  }
}

// With two model files: every output of one is an output of the other, of the same kind and
// shape, numbers against numbers.
Status CheckOutputsCorrespond(const std::vector<NamedValue>& got,
                              const std::map<std::string, Value>& want, const DiffOptions& o) {
  const std::string both = o.model_path + " and " + o.reference_model_path;
  auto differ = [&](const std::string& output, const std::string& why) {
    return InvalidArgument(both + ": outputs do not correspond: output '" + output + "' " + why);
  };
  if (got.size() != want.size()) {
    std::string names;
    for (const auto& [name, value] : want) names += (names.empty() ? "" : ", ") + name;
    for (const NamedValue& g : got) {
      if (!want.count(g.name))
        return differ(g.name, "is not an output of " + o.reference_model_path);
    }
    return InvalidArgument(both + ": outputs do not correspond: " + std::to_string(got.size()) +
                           " output(s) against " + std::to_string(want.size()) + " (" + names +
                           ")");
  }
  for (const NamedValue& g : got) {
    auto w = want.find(g.name);
    if (w == want.end()) return differ(g.name, "is not an output of " + o.reference_model_path);
    if (g.value.kind() != w->second.kind()) return differ(g.name, "is a different kind of value");
    if (!g.value.is_tensor()) continue;
    const Tensor& a = g.value.tensor();
    const Tensor& e = w->second.tensor();
    if (a.shape() != e.shape()) {
      return differ(g.name, "has shape " + a.shape().ToString() + " in " + o.model_path + " and " +
                                e.shape().ToString() + " in " + o.reference_model_path);
    }
    const bool a_numeric = IsFloatingPoint(a.dtype()) || IsInteger(a.dtype());
    const bool e_numeric = IsFloatingPoint(e.dtype()) || IsInteger(e.dtype());
    if (a.dtype() != e.dtype() && !(a_numeric && e_numeric)) {
      return differ(g.name, std::string("has element type ") + DataTypeName(a.dtype()) + " in " +
                                o.model_path + " and " + DataTypeName(e.dtype()) + " in " +
                                o.reference_model_path);
    }
  }
  return OkStatus();
}

// The graph outputs of a side's run with intermediate values exposed against its plain run: the
// first that differs, as a line for the record, or "" when none does.
std::string PinningChange(const DiffSide& side, const std::vector<NamedValue>& plain,
                          const std::map<std::string, Value>& pinned, const Tolerance& tolerance) {
  for (const NamedValue& p : plain) {
    auto it = pinned.find(p.name);
    if (it == pinned.end()) continue;
    ValueComparison c = CompareValues(it->second, p.value, tolerance);
    if (!c.passed) {
      return side.label + ": exposing intermediate values changed output '" + p.name + "' (" +
             c.summary +
             "): it computes differently when they are pinned (fused nodes, such as "
             "QDQ pairs, run unfused), so its intermediate values are not what its plain run "
             "computed";
    }
  }
  return "";
}

struct LayerRun {
  std::map<std::string, Value> values;
  std::vector<ExposedValue> intermediates;
};

// `path` with every intermediate value exposed, run on `side` over `feeds`.
StatusOr<LayerRun> RunLayers(ModelWorker& worker, const DiffSide& side, const ModelFile& file,
                             const std::vector<NamedValue>& feeds, const DiffOptions& o) {
  ONNXGATE_ASSIGN_OR_RETURN(ExposedModel exposed, ExposeIntermediatesOfModelFile(file));
  const std::string shown = file.path() + " (intermediate values exposed)";
  ONNXGATE_ASSIGN_OR_RETURN(ValueGroups groups,
                            RunStep(worker, side, exposed.copy.path(), shown, &feeds, o));
  return LayerRun{ByName(std::move(groups[1])), std::move(exposed.intermediates)};
}

Status DiffLayers(ModelWorker& worker, const DiffSide& candidate, const DiffSide& reference,
                  const std::vector<NamedValue>& feeds, const ValueGroups& got,
                  const ValueGroups& want, const DiffOptions& o, DiffRecord* diff) {
  const std::string& reference_path =
      o.reference_model_path.empty() ? o.model_path : o.reference_model_path;
  ONNXGATE_ASSIGN_OR_RETURN(ModelFile candidate_file, ModelFile::Read(o.model_path));
  ONNXGATE_ASSIGN_OR_RETURN(LayerRun got_layers,
                            RunLayers(worker, candidate, candidate_file, feeds, o));
  LayerRun want_layers;
  std::map<std::string, std::string> dequantized;
  if (o.reference_model_path.empty()) {
    ONNXGATE_ASSIGN_OR_RETURN(want_layers, RunLayers(worker, reference, candidate_file, feeds, o));
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(ModelFile reference_file, ModelFile::Read(reference_path));
    ONNXGATE_ASSIGN_OR_RETURN(want_layers, RunLayers(worker, reference, reference_file, feeds, o));
    dequantized = DequantizedTensorOf(candidate_file.proto());
  }
  CompareLayers(want_layers.intermediates, dequantized, got_layers.values, want_layers.values, o,
                diff);
  for (auto [side, plain, pinned] : {std::tuple{&candidate, &got[1], &got_layers.values},
                                     std::tuple{&reference, &want[1], &want_layers.values}}) {
    std::string change = PinningChange(*side, *plain, *pinned, o.tolerance);
    if (!change.empty()) diff->pinning_changed.push_back(change);
  }
  return OkStatus();
}

}  // namespace

bool DiffRecord::passed() const {
  for (const ValueDiff& d : outputs) {
    if (!d.passed()) return false;
  }
  return !first_divergence.has_value();
}

std::vector<size_t> DiffRecord::WorstIntermediates(size_t n) const {
  std::vector<size_t> order;
  for (size_t i = 0; i < intermediates.size(); ++i) {
    if (intermediates[i].metrics.computed) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [this](size_t a, size_t b) {
    return intermediates[a].metrics.sqnr_db < intermediates[b].metrics.sqnr_db;
  });
  if (order.size() > n) order.resize(n);
  return order;
}

StatusOr<DiffRecord> DiffModel(const DiffSide& candidate, const DiffSide& reference,
                               const DiffOptions& o) {
  DiffRecord diff;
  diff.model_path = o.model_path;
  diff.reference_model_path = o.reference_model_path;
  diff.metrics = o.metrics;
  diff.candidate = candidate.label;
  diff.reference = reference.label;
  diff.tolerance = o.tolerance;
  const std::string& reference_path =
      o.reference_model_path.empty() ? o.model_path : o.reference_model_path;

  ModelWorker worker(o.worker, {candidate.runtime, reference.runtime});
  // The feeds are read or generated as the candidate's load of the model declares them.
  ONNXGATE_ASSIGN_OR_RETURN(ValueGroups got,
                            RunStep(worker, candidate, o.model_path, o.model_path, nullptr, o));
  const std::vector<NamedValue>& feeds = got[0];
  ONNXGATE_ASSIGN_OR_RETURN(ValueGroups want,
                            RunStep(worker, reference, reference_path, reference_path, &feeds, o));
  const std::map<std::string, Value> want_by_name = ByName(want[1]);
  if (!o.reference_model_path.empty()) {
    ONNXGATE_RETURN_IF_ERROR(CheckOutputsCorrespond(got[1], want_by_name, o));
  }
  for (const NamedValue& g : got[1]) {
    auto w = want_by_name.find(g.name);
    if (w == want_by_name.end()) {
      return Internal(o.model_path + ": output '" + g.name + "' missing from a side's results");
    }
    diff.outputs.push_back(CompareOne(g.name, g.value, w->second, o, o.metrics));
  }
  if (!o.layerwise) return diff;
  ONNXGATE_RETURN_IF_ERROR(DiffLayers(worker, candidate, reference, feeds, got, want, o, &diff));
  return diff;
}

bool DatasetDiff::passed() const {
  return std::all_of(sets.begin(), sets.end(), [](const DiffRecord& d) { return d.passed(); });
}

namespace {

size_t FailingOutputs(const DiffRecord& d) {
  return static_cast<size_t>(std::count_if(d.outputs.begin(), d.outputs.end(),
                                           [](const ValueDiff& v) { return !v.passed(); }));
}

// The lowest SQNR of a set's outputs (+inf when none has metrics).
double LowestOutputSqnr(const DiffRecord& d) {
  double lowest = std::numeric_limits<double>::infinity();
  for (const ValueDiff& v : d.outputs) {
    if (v.metrics.computed && v.metrics.sqnr_db < lowest) lowest = v.metrics.sqnr_db;
  }
  return lowest;
}

// The names of the inputs the model is fed (those without an initializer), in graph order.
StatusOr<std::vector<std::string>> FedInputNames(const std::string& model_path) {
  ONNXGATE_ASSIGN_OR_RETURN(ModelFile file, ModelFile::Read(model_path));
  std::vector<std::string> names;
  for (const ValueInfo& v : DeclaredIoOf(file.proto()).inputs) names.push_back(v.name);
  return names;
}

}  // namespace

size_t DatasetDiff::WorstSet() const {
  size_t worst = 0;
  for (size_t s = 1; s < sets.size(); ++s) {
    const size_t failing = FailingOutputs(sets[s]), worst_failing = FailingOutputs(sets[worst]);
    if (failing > worst_failing ||
        (failing == worst_failing && LowestOutputSqnr(sets[s]) < LowestOutputSqnr(sets[worst]))) {
      worst = s;
    }
  }
  return worst;
}

StatusOr<DatasetDiff> DiffModelOverDataset(const DiffSide& candidate, const DiffSide& reference,
                                           const DiffOptions& o) {
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<InputSet> sets, InputSetsOf(o.input_files, o.inputs_dir));
  DatasetDiff dataset;
  if (sets.empty()) {
    ONNXGATE_ASSIGN_OR_RETURN(DiffRecord only, DiffModel(candidate, reference, o));
    dataset.set_labels.push_back("generated inputs");
    dataset.sets.push_back(std::move(only));
    return dataset;
  }
  if (sets.size() > 1) {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<std::string> inputs, FedInputNames(o.model_path));
    ONNXGATE_RETURN_IF_ERROR(CheckSameInputNames(sets, inputs));
  }
  for (size_t s = 0; s < sets.size(); ++s) {
    DiffOptions one = o;
    one.input_files = sets[s].files;
    one.inputs_dir.clear();
    const std::string label = SetLabel(s, sets[s]);
    StatusOr<DiffRecord> diff = DiffModel(candidate, reference, one);
    if (!diff.ok()) return sets.size() > 1 ? diff.status().WithContext(label) : diff.status();
    dataset.set_labels.push_back(label);
    dataset.sets.push_back(std::move(diff).value());
  }
  return dataset;
}

}  // namespace onnxgate
