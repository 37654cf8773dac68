// `onnxgate record` (see recorder.h).
#include "harness/models/recorder.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "conformance/op_schemas.h"
#include "conformance/tolerances.h"
#include "golden/golden_file.h"
#include "golden/golden_layerwise.h"
#include "golden/suite_json.h"
#include "harness/models/expected_outputs.h"
#include "harness/models/input_sets.h"
#include "harness/models/load_on_runtime.h"
#include "harness/models/model_worker.h"
#include "harness/models/recorded_tolerance.h"
#include "harness/models/reference_outputs.h"
#include "harness/models/scratch_model.h"
#include "harness/worker.h"
#include "runtime/base/atomic_file.h"
#include "runtime/base/safe_name.h"
#include "runtime/model/model_file.h"

namespace onnxgate {

namespace {

namespace fs = std::filesystem;

// The case-entry keys a record writes; every other key of an existing entry is kept.
const std::vector<std::string> kRecorderCaseKeys = {
    "name", "model", "golden", "op_types", "opset_imports", "tags", "recorded_with"};
const std::vector<std::string> kRecorderTags = {"recorded"};

bool HasExpected(const RecordOptions& o) {
  return !o.expected_files.empty() || !o.expected_dir.empty();
}

Status CheckReferenceOptions(const RecordOptions& o) {
  if (HasExpected(o)) {
    return InvalidArgument(
        "give --expected outputs or a --reference-model computing them, not both");
  }
  if (o.layerwise) {
    return InvalidArgument(
        "--layerwise stores the recorded model's intermediate values, which are not the "
        "--reference-model's; record the reference's golden without it");
  }
  return OkStatus();
}

Status CheckExpectedOptions(const RecordOptions& o, bool inputs_given) {
  if (!o.reference_model.empty()) return CheckReferenceOptions(o);
  if (!HasExpected(o)) {
    if (!o.producer.empty()) {
      return InvalidArgument("--producer names who computed the --expected outputs; none given");
    }
    return OkStatus();
  }
  if (!o.expected_files.empty() && !o.expected_dir.empty()) {
    return InvalidArgument("give --expected files or --expected-dir, not both");
  }
  if (!inputs_given) {
    return InvalidArgument(
        "expected outputs belong to given inputs: give the data sets with --input or "
        "--inputs-dir");
  }
  if (o.producer.find_first_not_of(" \t") == std::string::npos) {
    return InvalidArgument(
        "expected outputs need --producer naming who computed them, e.g. --producer \"pytorch "
        "2.5\"");
  }
  if (o.layerwise) {
    return InvalidArgument(
        "--layerwise stores the trusted runtime's intermediate values, which would not be the "
        "expected outputs' producer's; record a framework golden without it");
  }
  return OkStatus();
}

Status CheckLayerwiseOptions(const RecordOptions& o) {
  if (o.layerwise_every < 1) {
    return InvalidArgument("--layerwise-every must be at least 1, got " +
                           std::to_string(o.layerwise_every));
  }
  if (!o.layerwise && (o.layerwise_every != 1 || o.layerwise_float16)) {
    return InvalidArgument(
        "--layerwise-every and --layerwise-precision shape the intermediate values that "
        "--layerwise stores; give --layerwise");
  }
  return OkStatus();
}

Status CheckOptions(const RecordOptions& o, const std::string& case_name) {
  ONNXGATE_RETURN_IF_ERROR(CheckSafeName("suite", o.suite_name));
  ONNXGATE_RETURN_IF_ERROR(CheckSafeName("case", case_name));
  if (o.repo_root.empty()) return InvalidArgument("the repository root must be given");
  if (o.load.providers.size() != 1) {
    return InvalidArgument("a record runs on exactly one EP, the trusted one");
  }
  ToleranceOverride tolerance{o.rtol, o.atol};
  ONNXGATE_RETURN_IF_ERROR(tolerance.Validate("--rtol/--atol"));
  if (!o.created.empty() && !IsUtcTimestamp(o.created)) {
    return InvalidArgument("created time '" + o.created + "' is not like 2026-11-21T03:00:00Z");
  }
  ONNXGATE_RETURN_IF_ERROR(CheckLayerwiseOptions(o));
  const bool given = !o.input_files.empty() || !o.inputs_dir.empty();
  for (const auto& [name, sizes] : o.dims) {
    if (given && sizes.size() != 1) {
      return InvalidArgument("--dim " + name + " gives " + std::to_string(sizes.size()) +
                             " sizes; with input files each dimension takes one size");
    }
  }
  if (given && !o.input_ranges.empty()) {
    return InvalidArgument("--input-range " + o.input_ranges.begin()->first +
                           ": ranges are for generated inputs, and inputs are given");
  }
  return CheckExpectedOptions(o, given);
}

// One data set to run: its label in messages and where its inputs come from.
struct SetPlan {
  std::string label;
  FeedSource source;
  InputRanges ranges;  // of generated integer inputs
};

// The given input sets, each with the one --dim size per name; else every --dim combination of
// generated inputs.
std::vector<SetPlan> PlanSets(const RecordOptions& o, const std::vector<InputSet>& given) {
  std::vector<SetPlan> plans;
  const std::vector<DimSizes> combos = DimCombinations(o.dims);
  for (size_t s = 0; s < given.size(); ++s) {
    plans.push_back(
        {SetLabel(s, given[s]), FeedSource{given[s].files, combos.front(), o.seed}, {}});
  }
  if (!given.empty()) return plans;
  for (const DimSizes& dims : combos) {
    plans.push_back(
        {"generated inputs" + (dims.empty() ? std::string() : " with " + DimSizesText(dims)),
         FeedSource{{}, dims, o.seed}, o.input_ranges});
  }
  return plans;
}

// Runs every planned data set on the model (`file`, as read) loaded on `runtime` (in a worker):
// outputs as the runtime gives them; two value groups per set, its inputs and its outputs.
StatusOr<ValueGroups> RunSets(const RuntimeUnderTest& runtime, const RecordOptions& o,
                              const ModelFile& file, const std::vector<SetPlan>& plans) {
  SetWorkerBreadcrumb("loading " + o.model_path);
  LoadOptions load = o.load;
  load.model_bytes = &file.bytes();
  StatusOr<std::unique_ptr<LoadedModel>> loaded = LoadOnRuntime(runtime, o.model_path, load, &file);
  if (!loaded.ok()) return loaded.status().WithContext("loading " + o.model_path);
  const LoadedModel& model = **loaded;
  ValueGroups groups;
  const std::vector<std::string> output_names = model.output_names();
  for (const SetPlan& plan : plans) {
    StatusOr<std::vector<NamedValue>> feeds =
        MakeModelFeeds(model, o.model_path, plan.source, plan.ranges);
    if (!feeds.ok()) return feeds.status().WithContext(plan.label);
    SetWorkerBreadcrumb("running " + o.model_path + " on " + plan.label);
    StatusOr<std::vector<Value>> outputs = model.Run(*feeds);
    if (!outputs.ok()) return outputs.status().WithContext(o.model_path + ", " + plan.label);
    if (outputs->size() != output_names.size()) {
      return Internal(o.model_path + ": the runtime returned " + std::to_string(outputs->size()) +
                      " outputs for " + std::to_string(output_names.size()) + " declared");
    }
    std::vector<NamedValue> named;
    for (size_t i = 0; i < output_names.size(); ++i) {
      named.push_back({output_names[i], std::move((*outputs)[i])});
    }
    groups.push_back(std::move(feeds).value());
    groups.push_back(std::move(named));
  }
  return groups;
}

// The golden values of one value group, indexed by position.
std::vector<GoldenValue> GoldenValuesOf(std::vector<NamedValue> values) {
  std::vector<GoldenValue> golden;
  for (NamedValue& v : values) {
    golden.push_back(
        {std::move(v.name), static_cast<int64_t>(golden.size()), std::move(v.value), {}, {}});
  }
  return golden;
}

// "<runtime spec> <EP>", as errors of a worker name the run.
std::string RunLabel(const RecordOptions& o) {
  return (o.runtime_spec.empty() ? std::string() : o.runtime_spec + " ") + o.load.providers.front();
}

// RunSets in the worker; the data sets it ran.
StatusOr<std::vector<GoldenSet>> RunSetsInWorker(const RuntimeUnderTest& runtime,
                                                 const RecordOptions& o, const ModelFile& file,
                                                 const std::vector<SetPlan>& plans,
                                                 ModelWorker& worker) {
  ONNXGATE_ASSIGN_OR_RETURN(ValueGroups groups,
                            worker.RunValues(o.model_path + ": the run on " + RunLabel(o),
                                             [&] { return RunSets(runtime, o, file, plans); }));
  if (groups.size() != 2 * plans.size()) {
    return Internal(o.model_path + ": the worker returned " + std::to_string(groups.size()) +
                    " value groups for " + std::to_string(plans.size()) + " data set(s)");
  }
  std::vector<GoldenSet> sets(groups.size() / 2);
  for (size_t s = 0; s < sets.size(); ++s) {
    sets[s].inputs = GoldenValuesOf(std::move(groups[2 * s]));
    sets[s].outputs = GoldenValuesOf(std::move(groups[2 * s + 1]));
  }
  return sets;
}

// The exposed values --layerwise-every keeps.
std::vector<ExposedValue> KeptIntermediates(std::vector<ExposedValue> all, int64_t every) {
  std::vector<int64_t> nodes;
  for (const ExposedValue& v : all) nodes.push_back(v.node_index);
  const std::vector<bool> keep = KeepEveryNthNode(nodes, every);
  std::vector<ExposedValue> kept;
  for (size_t i = 0; i < all.size(); ++i) {
    if (keep[i]) kept.push_back(std::move(all[i]));
  }
  return kept;
}

// --layerwise: every set's intermediate values (of every --layerwise-every'th node, as float16
// with --layerwise-precision float16), from a run (in the worker) of a copy of the model that
// exposes them as outputs, on the same runtime and load options as the outputs.
Status AddIntermediates(const RuntimeUnderTest& runtime, const RecordOptions& o,
                        const ModelFile& file, ModelWorker& worker, std::vector<GoldenSet>* sets) {
  ONNXGATE_ASSIGN_OR_RETURN(ExposedModel exposed, ExposeIntermediatesOfModelFile(file));
  exposed.intermediates = KeptIntermediates(std::move(exposed.intermediates), o.layerwise_every);
  const std::string shown = o.model_path + " (intermediate values exposed)";
  const auto run = [&]() -> StatusOr<ValueGroups> {
    SetWorkerBreadcrumb("loading " + shown);
    StatusOr<std::unique_ptr<LoadedModel>> loaded = runtime.Load(exposed.copy.path(), o.load);
    if (!loaded.ok()) return loaded.status().WithContext("loading " + shown);
    ValueGroups groups;
    for (const GoldenSet& set : *sets) {
      SetWorkerBreadcrumb("running " + shown);
      StatusOr<std::map<std::string, Value>> outputs = RunOutputsByName(**loaded, FeedsOfSet(set));
      if (!outputs.ok()) return outputs.status().WithContext("running " + shown);
      std::vector<NamedValue> intermediates;
      for (const ExposedValue& v : exposed.intermediates) {
        auto it = outputs->find(v.value);
        if (it != outputs->end()) intermediates.push_back({v.value, std::move(it->second)});
      }
      groups.push_back(std::move(intermediates));
    }
    return groups;
  };
  ONNXGATE_ASSIGN_OR_RETURN(ValueGroups groups,
                            worker.RunValues(shown + ": the run on " + RunLabel(o), run));
  if (groups.size() != sets->size()) {
    return Internal(shown + ": the worker returned " + std::to_string(groups.size()) +
                    " value groups for " + std::to_string(sets->size()) + " data set(s)");
  }
  for (size_t s = 0; s < sets->size(); ++s) {
    (*sets)[s].intermediates = GoldenValuesOf(std::move(groups[s]));
    if (!o.layerwise_float16) continue;
    for (GoldenValue& v : (*sets)[s].intermediates) v.value = NarrowToFloat16(v.value);
  }
  return OkStatus();
}

std::string ProducerOf(const RuntimeUnderTest& runtime, const RecordOptions& o) {
  return runtime.name() + " " + runtime.version() + " (--runtime " + o.runtime_spec + ", EP " +
         o.load.providers.front() + ", optimization level " +
         std::to_string(o.load.optimization_level) + ", " +
         std::to_string(o.load.intra_op_threads) + " thread(s))";
}

// The golden's provenance: the model, where the inputs and (when given) the outputs came from.
std::string SourceOf(const RecordOptions& o, const std::vector<InputSet>& given,
                     const std::vector<std::string>& expected_files,
                     const std::string& checked_on) {
  std::string inputs;
  if (given.empty()) {
    inputs = "inputs generated from seed " + std::to_string(o.seed);
  } else {
    inputs = "inputs from";
    for (const InputSet& set : given) {
      for (const std::string& f : set.files) inputs += " " + fs::path(f).filename().string();
    }
  }
  std::string source =
      "onnxgate record of " + fs::path(o.model_path).filename().string() + ", " + inputs;
  if (!o.reference_model.empty()) {
    return source + ", outputs computed by reference model " +
           fs::path(o.reference_model).filename().string() + " on " + checked_on;
  }
  if (expected_files.empty()) return source;
  source += ", expected outputs computed by " + o.producer + " from";
  for (const std::string& f : expected_files) source += " " + fs::path(f).filename().string();
  return source + ", checked on " + checked_on;
}

// The input sets of --input and --inputs-dir (none: generated inputs), giving the same inputs.
StatusOr<std::vector<InputSet>> GivenInputSets(const RecordOptions& o, const DeclaredIo& declared) {
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<InputSet> given, InputSetsOf(o.input_files, o.inputs_dir));
  if (!given.empty()) {
    ONNXGATE_RETURN_IF_ERROR(CheckSameInputNames(given, NamesOf(declared.inputs)));
  }
  return given;
}

// Expected outputs given to the record: the files, paired with the sets, and their values.
struct ExpectedSets {
  std::vector<std::string> files;
  std::vector<std::vector<NamedValue>> outputs;  // per set, in the model's output order
};

// Reads and checks each set's expected outputs against the model's declared outputs; none
// without --expected/--expected-dir.
StatusOr<ExpectedSets> ReadExpectedSets(const RecordOptions& o, const std::vector<InputSet>& given,
                                        const DeclaredIo& declared) {
  ExpectedSets expected;
  if (!HasExpected(o)) return expected;
  ONNXGATE_ASSIGN_OR_RETURN(expected.files,
                            PairExpectedFiles(given, o.expected_files, o.expected_dir));
  for (size_t s = 0; s < given.size(); ++s) {
    ONNXGATE_ASSIGN_OR_RETURN(
        std::vector<NamedValue> values,
        ReadExpectedOutputs(expected.files[s], SetLabel(s, given[s]), declared.outputs));
    expected.outputs.push_back(std::move(values));
  }
  return expected;
}

// Makes the expected outputs the sets' outputs, once each agrees with its set's inputs on the
// sizes of symbolic dimensions; returns the runtime's outputs they replace, per set.
StatusOr<std::vector<std::vector<GoldenValue>>> UseExpectedOutputs(
    ExpectedSets& expected, const DeclaredIo& declared, const std::vector<InputSet>& given,
    std::vector<GoldenSet>* sets) {
  std::vector<std::vector<GoldenValue>> runtime_outputs;
  for (size_t s = 0; s < sets->size(); ++s) {
    GoldenSet& set = (*sets)[s];
    ONNXGATE_RETURN_IF_ERROR(CheckSymbolicSizes(declared, FeedsOfSet(set), expected.outputs[s],
                                                expected.files[s], SetLabel(s, given[s])));
    runtime_outputs.push_back(std::move(set.outputs));
    set.outputs = GoldenValuesOf(std::move(expected.outputs[s]));
  }
  return runtime_outputs;
}

// --reference-model: the reference's outputs on each set become the set's outputs; returns the
// recorded model's outputs they replace, per set.
StatusOr<std::vector<std::vector<GoldenValue>>> UseReferenceOutputs(const RuntimeUnderTest& runtime,
                                                                    const RecordOptions& o,
                                                                    ModelWorker& worker,
                                                                    std::vector<GoldenSet>* sets) {
  ValueGroups feeds, recorded;
  for (const GoldenSet& set : *sets) {
    feeds.push_back(FeedsOfSet(set));
    std::vector<NamedValue> outputs;
    for (const GoldenValue& v : set.outputs) outputs.push_back({v.name, v.value});
    recorded.push_back(std::move(outputs));
  }
  const ReferenceRun reference{&runtime, o.load, o.reference_model, RunLabel(o)};
  ONNXGATE_ASSIGN_OR_RETURN(ValueGroups values,
                            RunReferenceModel(reference, o.model_path, feeds, recorded, worker));
  std::vector<std::vector<GoldenValue>> runtime_outputs;
  for (size_t s = 0; s < sets->size(); ++s) {
    runtime_outputs.push_back(std::move((*sets)[s].outputs));
    (*sets)[s].outputs = GoldenValuesOf(std::move(values[s]));
  }
  return runtime_outputs;
}

// The golden's producer: the runtime's, the given producer of expected outputs, or the reference
// model's.
std::string GoldenProducer(const RecordOptions& o, bool expected, const std::string& checked_on) {
  if (!o.reference_model.empty()) {
    return o.producer.empty()
               ? fs::path(o.reference_model).filename().string() + " on " + checked_on
               : o.producer;
  }
  return expected ? o.producer : checked_on;
}

// The runtime's outputs against the expected ones (the sets' outputs now), under `tolerance`.
void MeasureRuntimeDistance(const std::vector<std::vector<GoldenValue>>& runtime_outputs,
                            const std::vector<GoldenSet>& sets, const Tolerance& tolerance,
                            RecordReport* report) {
  for (size_t s = 0; s < sets.size() && s < runtime_outputs.size(); ++s) {
    for (const GoldenValue& want : sets[s].outputs) {
      OutputChange distance{static_cast<int64_t>(s), want.name, {}};
      auto got = std::find_if(runtime_outputs[s].begin(), runtime_outputs[s].end(),
                              [&](const GoldenValue& v) { return v.name == want.name; });
      if (got == runtime_outputs[s].end()) {
        distance.comparison.summary = "the runtime returned no output of this name";
      } else {
        distance.comparison = CompareValues(got->value, want.value, tolerance);
      }
      if (!distance.comparison.passed) report->runtime_outside_tolerance = true;
      report->runtime_distance.push_back(std::move(distance));
    }
  }
}

// A warning for each integer input generated without a range from --input-range or the model's
// metadata: every value of it is 0, which is rarely what the model is meant to see.
std::vector<std::string> RangeWarnings(const RecordOptions& o, const ModelFile& file,
                                       const GoldenSet& first) {
  std::set<std::string> metadata_keys;
  for (const onnx::StringStringEntryProto& entry : file.proto().metadata_props()) {
    metadata_keys.insert(entry.key());
  }
  std::vector<std::string> warnings;
  for (const GoldenValue& input : first.inputs) {
    if (!input.value.is_tensor() || !IsInteger(input.value.tensor().dtype()) ||
        o.input_ranges.count(input.name) ||
        metadata_keys.count(InputRangeMetadataKey(input.name))) {
      continue;
    }
    warnings.push_back(
        "integer input '" + input.name + "' (" + DataTypeName(input.value.tensor().dtype()) +
        ") has no known range, so every generated value is 0: give --input-range " + input.name +
        "=LO:HI, or the model metadata " + InputRangeMetadataKey(input.name) + " = \"LO HI\"");
  }
  return warnings;
}

// The tolerance a re-record judges movement with: the options, else the existing case entry's,
// else the suite's default, else ONNX's defaults.
Tolerance ToleranceOf(const RecordOptions& o, const SuiteJson& suite, const SuiteJson* old_case) {
  Tolerance t;
  auto apply = [&t](const SuiteJson* layer) {
    if (layer == nullptr || !layer->is_object()) return;
    for (const char* key : {"rtol", "atol"}) {
      auto it = layer->find(key);
      if (it != layer->end() && it->is_number()) {
        (std::string(key) == "rtol" ? t.rtol : t.atol) = it->get<double>();
      }
    }
  };
  if (auto it = suite.find("default_tolerance"); it != suite.end()) apply(&*it);
  if (old_case != nullptr) {
    if (auto it = old_case->find("tolerance"); it != old_case->end()) apply(&*it);
  }
  if (o.rtol) t.rtol = *o.rtol;
  if (o.atol) t.atol = *o.atol;
  return t;
}

// The atol a case gets when neither --atol nor its entry gives one: scaled to the largest
// floating-point output of the sets (recorded_tolerance.h); nullopt when one is given, or there
// is no such output.
std::optional<double> DefaultAtolOf(const RecordOptions& o, const SuiteJson* old_case,
                                    const std::vector<GoldenSet>& sets) {
  if (o.atol) return std::nullopt;
  if (old_case != nullptr) {
    auto tolerance = old_case->find("tolerance");
    if (tolerance != old_case->end() && tolerance->is_object() && tolerance->contains("atol")) {
      return std::nullopt;
    }
  }
  const std::optional<double> largest = LargestOutputMagnitude(sets);
  if (!largest) return std::nullopt;
  return ScaledDefaultAtol(*largest);
}

bool SameValue(const Value& a, const Value& b) {
  return CompareValues(a, b, Tolerance{0, 0}).passed;
}

// The new sets against the replaced golden's, when they line up.
void CompareWithOld(const GoldenFile& old, const std::vector<GoldenSet>& sets,
                    const Tolerance& tolerance, RecordReport* report) {
  if (old.sets.size() != sets.size()) {
    report->not_compared = "the old golden has " + std::to_string(old.sets.size()) +
                           " data set(s), this record " + std::to_string(sets.size());
    return;
  }
  for (size_t s = 0; s < sets.size(); ++s) {
    const GoldenSet& was = old.sets[s];
    const GoldenSet& now = sets[s];
    bool same_inputs = was.inputs.size() == now.inputs.size();
    for (size_t i = 0; same_inputs && i < now.inputs.size(); ++i) {
      same_inputs = was.inputs[i].name == now.inputs[i].name &&
                    SameValue(now.inputs[i].value, was.inputs[i].value);
    }
    if (!same_inputs) {
      report->not_compared =
          "the inputs of data set " + std::to_string(s) + " differ from the old golden's";
      report->changes.clear();
      return;
    }
    for (const GoldenValue& out : now.outputs) {
      const GoldenValue* before = nullptr;
      for (const GoldenValue& w : was.outputs) {
        if (w.name == out.name) before = &w;
      }
      OutputChange change{static_cast<int64_t>(s), out.name, {}};
      if (before == nullptr) {
        change.comparison.passed = false;
        change.comparison.summary = "not in the old golden";
      } else {
        change.comparison = CompareValues(out.value, before->value, tolerance);
      }
      report->changes.push_back(std::move(change));
    }
  }
  for (const OutputChange& c : report->changes) {
    if (!c.comparison.passed) report->outputs_moved = true;
  }
}

}  // namespace

StatusOr<RecordReport> RecordCase(const RuntimeUnderTest& runtime, const RecordOptions& o) {
  const std::string case_name =
      o.case_name.empty() ? fs::path(o.model_path).stem().string() : o.case_name;
  ONNXGATE_RETURN_IF_ERROR(CheckOptions(o, case_name));

  // Everything that can fail on the user's input happens before anything is written.
  // The one read of the model file; its external data is copied into the suite in pieces below,
  // checked against the hashes taken here.
  ONNXGATE_ASSIGN_OR_RETURN(ModelFile file, ModelFile::Read(o.model_path));
  const std::vector<ActiveOp> ops = ActiveOpsOfModel(file.proto());
  const DeclaredIo declared = DeclaredIoOf(file.proto());
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<InputSet> given, GivenInputSets(o, declared));
  ONNXGATE_ASSIGN_OR_RETURN(ExpectedSets expected, ReadExpectedSets(o, given, declared));
  const std::vector<SetPlan> plans = PlanSets(o, given);
  ModelWorker worker(o.worker, {&runtime});
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<GoldenSet> sets,
                            RunSetsInWorker(runtime, o, file, plans, worker));
  if (o.layerwise) ONNXGATE_RETURN_IF_ERROR(AddIntermediates(runtime, o, file, worker, &sets));
  std::vector<std::vector<GoldenValue>> runtime_outputs;
  if (!expected.files.empty()) {
    ONNXGATE_ASSIGN_OR_RETURN(runtime_outputs,
                              UseExpectedOutputs(expected, declared, given, &sets));
  } else if (!o.reference_model.empty()) {
    ONNXGATE_ASSIGN_OR_RETURN(runtime_outputs, UseReferenceOutputs(runtime, o, worker, &sets));
  }

  const fs::path suite_dir = fs::path(o.repo_root) / "suites" / o.suite_name;
  RecordReport report;
  report.case_name = case_name;
  report.suite_json = (suite_dir / "suite.json").string();
  report.golden_path =
      (fs::path(o.repo_root) / "golden" / "data" / o.suite_name / (case_name + ".h5")).string();
  report.checked_on = ProducerOf(runtime, o);
  report.producer = GoldenProducer(o, !expected.files.empty(), report.checked_on);
  report.data_sets = static_cast<int64_t>(sets.size());
  for (const SetPlan& plan : plans) report.set_labels.push_back(plan.label);
  if (given.empty() && !sets.empty()) report.warnings = RangeWarnings(o, file, sets.front());
  report.intermediates = sets.empty() ? 0 : static_cast<int64_t>(sets.front().intermediates.size());
  // From here to the write, under the suite folder's lock (suite_json.h): concurrent records
  // into one suite each merge into what the one before wrote, so none loses its case.
  ONNXGATE_ASSIGN_OR_RETURN(FolderLock suite_lock, LockSuiteJson(report.suite_json));
  ONNXGATE_ASSIGN_OR_RETURN(SuiteJson suite, ReadSuiteJsonForUpdate(report.suite_json));
  std::map<std::string, SuiteJson> cases = SuiteCasesByName(suite);
  auto old_case = cases.find(case_name);
  const SuiteJson* old_entry = old_case == cases.end() ? nullptr : &old_case->second;
  report.tolerance = ToleranceOf(o, suite, old_entry);
  const std::optional<double> default_atol = DefaultAtolOf(o, old_entry, sets);
  if (default_atol) report.tolerance.atol = *default_atol;
  for (std::string& w : VacuousAtolWarnings(sets, report.tolerance.atol)) {
    report.warnings.push_back(std::move(w));
  }
  MeasureRuntimeDistance(runtime_outputs, sets, report.tolerance, &report);

  std::error_code ec;
  if (fs::exists(report.golden_path, ec)) {
    report.replaced = true;
    StatusOr<GoldenFile> old = ReadGolden(report.golden_path);
    if (!old.ok()) {
      report.not_compared = "the old golden cannot be read: " + old.status().message();
      report.model_changed = true;
    } else {
      report.model_changed = old->model_files_sha256.empty()
                                 ? old->model_sha256 != file.sha256()
                                 : old->model_files_sha256 != file.files_sha256();
      CompareWithOld(*old, sets, report.tolerance, &report);
    }
    if (!report.model_changed && report.outputs_moved && !o.force) return report;
  }

  // The model's copy: beside its external data in a folder of its own when it has any.
  const std::string extension = IsTextModel(o.model_path) ? ".onnxtxt" : ".onnx";
  const std::string model_rel = file.external_locations().empty()
                                    ? "models/" + case_name + extension
                                    : "models/" + case_name + "/model" + extension;
  report.model_path = (suite_dir / model_rel).string();
  ONNXGATE_RETURN_IF_ERROR(file.CopyExternalData((suite_dir / "models" / case_name).string()));
  ONNXGATE_RETURN_IF_ERROR(WriteFileAtomically(report.model_path, file.bytes()));

  GoldenFile golden;
  golden.producer = report.producer;
  golden.model_sha256 = file.sha256();
  golden.model_files_sha256 = file.files_sha256();
  golden.opset_imports = file.opset_imports();
  golden.created = o.created;
  golden.source = SourceOf(o, given, expected.files, report.checked_on);
  golden.sets = std::move(sets);
  if (o.layerwise) {
    golden.layerwise_every = o.layerwise_every;
    if (o.layerwise_float16) golden.layerwise_precision = kLayerwiseFloat16;
  }
  ONNXGATE_RETURN_IF_ERROR(WriteGolden(report.golden_path, golden));
  const uintmax_t golden_bytes = fs::file_size(report.golden_path, ec);
  report.golden_bytes = ec ? 0 : golden_bytes;

  SuiteJson op_types = SuiteJson::array();
  std::set<std::string> seen;
  for (const ActiveOp& op : ops) {
    if (seen.insert(op.op_type).second) op_types.push_back(op.op_type);
  }
  SuiteJson opsets = SuiteJson::object();
  for (const auto& [domain, version] : file.opset_imports()) opsets[domain] = version;
  SuiteJson entry = {{"name", case_name},
                     {"model", model_rel},
                     {"golden", "../../golden/data/" + o.suite_name + "/" + case_name + ".h5"},
                     {"op_types", op_types},
                     {"opset_imports", opsets},
                     {"tags", SuiteJson::array({"recorded"})},
                     {"recorded_with", report.producer}};
  if (old_case != cases.end()) {
    entry = MergeCaseEntry(std::move(entry), old_case->second, kRecorderCaseKeys, kRecorderTags);
  }
  if (o.rtol || o.atol) {
    SuiteJson& tolerance = entry["tolerance"];
    if (!tolerance.is_object()) tolerance = SuiteJson::object();
    if (o.rtol) tolerance["rtol"] = *o.rtol;
    if (o.atol) tolerance["atol"] = *o.atol;
  }
  if (default_atol) {
    SuiteJson& tolerance = entry["tolerance"];
    if (!tolerance.is_object()) tolerance = SuiteJson::object();
    tolerance["atol"] = *default_atol;
  }
  cases[case_name] = std::move(entry);

  if (!suite.contains("name")) suite["name"] = o.suite_name;
  if (!suite.contains("description")) suite["description"] = "models recorded with onnxgate record";
  if (!suite.contains("source")) suite["source"] = "onnxgate record";
  if (!suite.contains("license")) suite["license"] = "";
  if (!suite.contains("golden_producer")) suite["golden_producer"] = "onnxgate record";
  if (!suite.contains("format_version")) suite["format_version"] = kSuiteFormatVersion;
  if (!suite.contains("default_tolerance")) {
    suite["default_tolerance"] = {{"rtol", Tolerance::kDefaultRtol},
                                  {"atol", Tolerance::kDefaultAtol}};
  }
  SuiteJson& listed = suite["cases"] = SuiteJson::array();
  for (auto& [name, c] : cases) listed.push_back(std::move(c));
  ONNXGATE_RETURN_IF_ERROR(WriteSuiteJson(report.suite_json, suite));
  report.written = true;
  return report;
}

std::vector<std::string> DescribeRuntimeDistance(const RecordReport& report) {
  std::vector<std::string> lines;
  for (const OutputChange& d : report.runtime_distance) {
    const ValueComparison& v = d.comparison;
    const size_t set = static_cast<size_t>(d.set);
    lines.push_back((set < report.set_labels.size() ? report.set_labels[set]
                                                    : "data set " + std::to_string(set)) +
                    " output '" + d.output + "': max abs " + FormatShort(v.max_abs_error) +
                    ", max rel " + FormatShort(v.max_rel_error) +
                    (v.passed ? " (within tolerance)" : " (outside tolerance: " + v.summary + ")"));
  }
  return lines;
}

std::vector<std::string> DescribeChanges(const RecordReport& report) {
  std::vector<std::string> lines;
  for (const OutputChange& c : report.changes) {
    const ValueComparison& v = c.comparison;
    lines.push_back("set " + std::to_string(c.set) + " output '" + c.output + "': max abs " +
                    FormatShort(v.max_abs_error) + ", max rel " + FormatShort(v.max_rel_error) +
                    (v.passed ? " (within tolerance)" : " (moved: " + v.summary + ")"));
  }
  return lines;
}

}  // namespace onnxgate
