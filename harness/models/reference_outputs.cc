// A reference model's outputs on a record's data sets (see reference_outputs.h).
#include "harness/models/reference_outputs.h"

#include <map>

#include "harness/models/load_on_runtime.h"
#include "harness/models/model_feeds.h"
#include "harness/worker.h"

namespace onnxgate {
namespace {

// In the worker: the reference loaded once and run on every set's feeds, all its outputs.
StatusOr<ValueGroups> RunAllSets(const ReferenceRun& r, const ValueGroups& feeds) {
  SetWorkerBreadcrumb("loading " + r.model_path);
  StatusOr<std::unique_ptr<LoadedModel>> model = LoadOnRuntime(*r.runtime, r.model_path, r.load);
  if (!model.ok()) return model.status().WithContext(r.label + ": loading " + r.model_path);
  ValueGroups groups;
  for (size_t s = 0; s < feeds.size(); ++s) {
    SetWorkerBreadcrumb("running " + r.model_path + " on data set " + std::to_string(s));
    StatusOr<std::map<std::string, Value>> outputs = RunOutputsByName(**model, feeds[s]);
    if (!outputs.ok()) {
      return outputs.status().WithContext(r.label + ": running " + r.model_path + " on data set " +
                                          std::to_string(s));
    }
    std::vector<NamedValue> named;
    for (auto& [name, value] : *outputs) named.push_back({name, std::move(value)});
    groups.push_back(std::move(named));
  }
  return groups;
}

// The reference's values of `recorded`'s outputs, in their order.
StatusOr<std::vector<NamedValue>> Correspond(const std::vector<NamedValue>& recorded,
                                             std::vector<NamedValue> reference, size_t set,
                                             const std::string& recorded_model,
                                             const std::string& reference_model) {
  auto differ = [&](const std::string& output, const std::string& why) {
    return InvalidArgument(recorded_model + " and reference model " + reference_model +
                           ": outputs do not correspond: output '" + output + "' " + why +
                           " (data set " + std::to_string(set) + ")");
  };
  std::map<std::string, Value> by_name;
  for (NamedValue& v : reference) by_name.emplace(std::move(v.name), std::move(v.value));
  std::vector<NamedValue> ordered;
  for (const NamedValue& r : recorded) {
    auto it = by_name.find(r.name);
    if (it == by_name.end()) return differ(r.name, "is not an output of " + reference_model);
    const Value v = it->second;
    if (v.kind() != r.value.kind()) return differ(r.name, "is a different kind of value");
    if (v.is_tensor() && v.tensor().shape() != r.value.tensor().shape()) {
      return differ(r.name, "has shape " + r.value.tensor().shape().ToString() + " in " +
                                recorded_model + " and " + v.tensor().shape().ToString() + " in " +
                                reference_model);
    }
    ordered.push_back({r.name, v});
    by_name.erase(it);
  }
  if (!by_name.empty()) {
    return differ(by_name.begin()->first, "is not an output of " + recorded_model);
  }
  return ordered;
}

}  // namespace

StatusOr<ValueGroups> RunReferenceModel(const ReferenceRun& reference,
                                        const std::string& recorded_model, const ValueGroups& feeds,
                                        const ValueGroups& recorded, ModelWorker& worker) {
  ONNXGATE_ASSIGN_OR_RETURN(
      ValueGroups groups, worker.RunValues(reference.model_path + ": the run on " + reference.label,
                                           [&] { return RunAllSets(reference, feeds); }));
  if (groups.size() != feeds.size() || recorded.size() != feeds.size()) {
    return Internal(reference.model_path + ": the worker returned " +
                    std::to_string(groups.size()) + " value groups for " +
                    std::to_string(feeds.size()) + " data set(s)");
  }
  ValueGroups ordered;
  for (size_t s = 0; s < groups.size(); ++s) {
    ONNXGATE_ASSIGN_OR_RETURN(
        std::vector<NamedValue> values,
        Correspond(recorded[s], std::move(groups[s]), s, recorded_model, reference.model_path));
    ordered.push_back(std::move(values));
  }
  return ordered;
}

}  // namespace onnxgate
