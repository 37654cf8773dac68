// The path of one case: golden -> golden checks -> staleness check -> load -> run each set ->
// compare outputs. Everything wrong with the golden or the model's files is settled before the
// runtime sees the model, so a broken or stale golden is UNRESOLVED, never the runtime's FAIL.
#include "harness/case_runner.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <set>

#include "conformance/op_schemas.h"
#include "golden/golden_file.h"
#include "golden/golden_layerwise.h"
#include "golden/golden_read_bound.h"
#include "harness/case_metrics.h"
#include "harness/compare.h"
#include "harness/fallback_nodes.h"
#include "harness/models/load_on_runtime.h"
#include "harness/models/model_feeds.h"
#include "harness/models/scratch_model.h"
#include "harness/worker.h"
#include "runtime/model/model_file.h"

namespace onnxgate {

namespace {

// A runtime that declines is UNSUPPORTED; one whose own process died mid-request (an adapter) is
// CRASH, as a worker killed by a signal is; any other refusal to load leaves the case unjudged.
Verdict LoadFailureVerdict(const Status& st) {
  if (st.code() == StatusCode::kUnimplemented) return Verdict::kUnsupported;
  if (st.code() == StatusCode::kAborted) return Verdict::kCrash;
  return Verdict::kUnresolved;
}

// The same for a run, where any other error is the runtime's failure.
Verdict RunFailureVerdict(const Status& st) {
  if (st.code() == StatusCode::kUnimplemented) return Verdict::kUnsupported;
  if (st.code() == StatusCode::kAborted) return Verdict::kCrash;
  return Verdict::kFail;
}

OutputComparison ToRecord(const std::string& name, int64_t set_index, const Value& expected,
                          const Value* actual, const Tolerance& tol, const ValueComparison* cmp) {
  OutputComparison o;
  o.output_name = name;
  o.set_index = set_index;
  o.dtype = DataTypeShortName(expected.elem_type());
  o.rtol = tol.rtol;
  o.atol = tol.atol;
  if (expected.is_tensor()) o.expected_shape = expected.tensor().shape().dims();
  if (actual != nullptr && actual->is_tensor()) o.actual_shape = actual->tensor().shape().dims();
  if (cmp == nullptr) {
    o.error = "output missing";
    return o;
  }
  o.passed = cmp->passed;
  o.max_abs_error = cmp->max_abs_error;
  o.max_rel_error = cmp->max_rel_error;
  o.mismatch_count = cmp->mismatches;
  o.total_elements = cmp->total_elements;
  o.mismatch_share =
      cmp->total_elements > 0 ? static_cast<double>(cmp->mismatches) / cmp->total_elements : 0.0;
  o.min_passing_rtol = cmp->min_passing_rtol;
  o.min_passing_atol = cmp->min_passing_atol;
  for (const TensorComparison& part : cmp->parts) {
    if (!part.structure_error.empty() && o.error.empty())
      o.error = part.path.empty() ? part.structure_error : part.path + ": " + part.structure_error;
    if (!part.passed || o.worst_index < 0) {
      o.worst_index = part.worst.flat_index;
      o.worst_index_nd = part.worst.index;
      o.worst_expected = part.worst.expected;
      o.worst_actual = part.worst.actual;
      if (!part.passed) break;
    }
  }
  return o;
}

std::string ListNames(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

std::string Short(const std::string& digest) { return digest.substr(0, 12) + "..."; }

// Why the golden at `path` cannot judge a run even though it reads: it compares nothing, or one
// of its per-output tolerances is outside the sane bounds of conformance/tolerances.h (an rtol
// of 1e300 would pass anything). "" when it can.
std::string GoldenUnfitness(const GoldenFile& golden, const std::string& path) {
  if (golden.sets.empty()) return path + ": golden compares nothing: it has no data sets";
  for (size_t s = 0; s < golden.sets.size(); ++s) {
    if (golden.sets[s].outputs.empty()) {
      return path + ": /sets/" + std::to_string(s) +
             "/outputs is empty: golden compares nothing (a data set with no expected output)";
    }
    for (const GoldenValue& out : golden.sets[s].outputs) {
      ToleranceOverride tolerance{out.rtol, out.atol};
      Status valid = tolerance.Validate(path + ": output '" + out.name + "'");
      if (!valid.ok()) return valid.message();
    }
  }
  return "";
}

bool HoldsIntermediates(const GoldenFile& golden) {
  return std::any_of(golden.sets.begin(), golden.sets.end(),
                     [](const GoldenSet& set) { return !set.intermediates.empty(); });
}

class CaseRun {
 public:
  CaseRun(const RuntimeUnderTest& runtime, const Suite& suite, const SuiteCase& c,
          const CaseRunOptions& options)
      : runtime_(runtime), c_(c), options_(options) {
    record_.suite = suite.name;
    record_.name = c.name;
    record_.op_types = c.op_types;
    record_.opset_imports = c.opset_imports;
    record_.ep = options.ep;
  }

  CaseRecord Run() {
    auto start = std::chrono::steady_clock::now();
    Finish(RunSteps());
    record_.duration_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::move(record_);
  }

 private:
  struct Outcome {
    Verdict verdict;
    std::string message;
  };

  // The active version of every op of `model`, as ONNX's schemas give it.
  void RecordOpVersions(const onnx::ModelProto& model) {
    record_.op_versions.clear();
    for (const ActiveOp& op : ActiveOpsOfModel(model)) {
      record_.op_versions[QualifiedOpName(op.domain, op.op_type)] = op.since_version;
    }
  }

  void Finish(const Outcome& outcome) {
    record_.outcome = outcome.verdict;
    record_.verdict = outcome.verdict;
    record_.message = outcome.message;
  }

  Outcome RunSteps() {
    // The model file is read once, here: its op versions, its hashes for the golden's staleness
    // check, and the model a conversion or an attribution rewrites all come from this read.
    SetWorkerBreadcrumb("reading " + c_.model_path + " and hashing its external data");
    StatusOr<ModelFile> file = ModelFile::Read(c_.model_path);
    // The active version of each op comes from ONNX's schemas, not from the runtime, so cases the
    // runtime declines still land in the right cell of the conformance matrix.
    if (file.ok()) RecordOpVersions(file->proto());
    // A provider that cannot run on this machine (no device) leaves the case unrun: SKIP with
    // the runtime's reason, before the golden is read.
    for (const std::string& provider : Providers()) {
      if (Status available = runtime_.ProviderAvailability(provider);
          available.code() == StatusCode::kUnavailable) {
        return {Verdict::kSkip,
                "provider '" + provider + "' is unavailable here: " + available.message()};
      }
    }
    // A golden that cannot be read, fails its checksums ("golden corrupted"), compares nothing
    // or carries an absurd tolerance cannot judge the runtime. The read has a memory bound of its
    // own (golden/golden_read_bound.h), also when the worker has none: libhdf5 allocates without
    // bound on some corrupted files.
    SetWorkerBreadcrumb("reading golden " + c_.golden_path);
    auto golden = ReadGoldenBounded(c_.golden_path);
    if (!golden.ok()) return {Verdict::kUnresolved, golden.status().message()};
    if (std::string why = GoldenUnfitness(*golden, c_.golden_path); !why.empty()) {
      return {Verdict::kUnresolved, why};
    }
    if (!file.ok()) return {Verdict::kUnresolved, file.status().message()};
    if (std::string why = ModelChange(*golden, *file); !why.empty()) {
      return {Verdict::kUnresolved, why};
    }

    std::string model_path = c_.model_path;
    std::optional<ScratchModel> converted;
    if (options_.convert_to_opset > 0) {
      SetWorkerBreadcrumb("converting " + c_.model_path + " to opset " +
                          std::to_string(options_.convert_to_opset));
      auto copy = ConvertModelFile(*file, options_.convert_to_opset);
      if (!copy.ok()) {
        return {Verdict::kSkip, "not converted to opset " +
                                    std::to_string(options_.convert_to_opset) + ": " +
                                    copy.status().message()};
      }
      converted.emplace(std::move(copy).value());
      model_path = converted->path();
      // The cell of the matrix is the converted model's: its opset and active op versions.
      record_.opset_imports[""] = options_.convert_to_opset;
      // From here on the model is the converted copy: its op versions, its attribution.
      file = ModelFile::Read(model_path);
      record_.op_versions.clear();
      if (file.ok()) RecordOpVersions(file->proto());
    }
    SetWorkerBreadcrumb("loading " + model_path + " on " + options_.ep);
    // The runtime may parse the bytes read above instead of reading the file again.
    LoadOptions load = options_.load;
    if (file.ok()) load.model_bytes = &file->bytes();
    auto model = LoadOnRuntime(runtime_, model_path, load, file.ok() ? &*file : nullptr);
    if (file.ok() && model.ok()) NoteGraph(file->proto());
    // Only a failure's attribution needs the model again, and only when the golden holds
    // intermediate values; otherwise it is released while the runtime holds its own copy.
    if (!HoldsIntermediates(*golden)) file = Internal(c_.model_path + ": released after the load");
    if (!model.ok()) {
      return {LoadFailureVerdict(model.status()), model.status().message()};
    }
    RecordPlacements(**model);
    if (auto refused = JudgeFallback(/*after_run=*/false)) return *refused;

    bool all_passed = true;
    std::string first_failure;
    size_t first_failing_set = 0;
    for (size_t s = 0; s < golden->sets.size(); ++s) {
      const GoldenSet& set = golden->sets[s];
      std::vector<NamedValue> feeds = FeedsOfSet(set);
      for (const std::string& name : (*model)->input_names()) {
        auto it = std::find_if(feeds.begin(), feeds.end(),
                               [&](const NamedValue& f) { return f.name == name; });
        if (it == feeds.end()) {
          return {Verdict::kUnresolved,
                  c_.golden_path + ": /sets/" + std::to_string(s) + "/inputs has no input '" +
                      name + "' (model inputs: " + ListNames((*model)->input_names()) + ")"};
        }
      }
      SetWorkerBreadcrumb("running set " + std::to_string(s) + " of " + c_.model_path + " on " +
                          options_.ep);
      auto outputs = (*model)->Run(feeds);
      if (!outputs.ok()) {
        return {RunFailureVerdict(outputs.status()),
                "set " + std::to_string(s) + ": run failed: " + outputs.status().message()};
      }
      if (s == 0) {
        RecordPlacements(**model);
        if (auto refused = JudgeFallback(/*after_run=*/true)) return *refused;
      }
      std::vector<std::string> names = (*model)->output_names();
      for (const GoldenValue& expected : set.outputs) {
        auto it = std::find(names.begin(), names.end(), expected.name);
        const Value* actual = nullptr;
        if (it != names.end() && static_cast<size_t>(it - names.begin()) < outputs->size()) {
          actual = &(*outputs)[it - names.begin()];
        }
        Tolerance tol = ResolveTolerance(expected);
        OutputComparison rec;
        std::string summary;
        if (actual == nullptr) {
          rec = ToRecord(expected.name, static_cast<int64_t>(s), expected.value, nullptr, tol,
                         nullptr);
          summary = "output missing from the model's outputs (" + ListNames(names) + ")";
        } else {
          ValueComparison cmp = CompareValues(*actual, expected.value, tol);
          rec = ToRecord(expected.name, static_cast<int64_t>(s), expected.value, actual, tol, &cmp);
          summary = cmp.summary;
          JudgeOutputByMetrics(*actual, expected.value, c_.metrics, &rec, &summary);
        }
        if (!rec.passed && all_passed) {
          all_passed = false;
          first_failing_set = s;
          first_failure =
              "set " + std::to_string(s) + " output '" + expected.name + "': " + summary;
        }
        record_.outputs.push_back(std::move(rec));
      }
    }
    if (all_passed) return {Verdict::kPass, ""};
    if (!golden->sets[first_failing_set].intermediates.empty()) {
      first_failure += "; " + AttributeFailure(file, *golden, first_failing_set);
    }
    return {Verdict::kFail, first_failure};
  }

  // A failing set whose golden holds the model's intermediate values (record --layerwise): the
  // model runs again with them exposed as outputs, and the first node in node order whose value
  // (an intermediate or a graph output) departs from the golden's is the case's first divergence.
  // Returns what to add to the message: the node, or why none could be named.
  std::string AttributeFailure(const StatusOr<ModelFile>& file, const GoldenFile& golden,
                               size_t set_index) {
    const GoldenSet& set = golden.sets[set_index];
    SetWorkerBreadcrumb("attributing the failure of " + c_.model_path + " layer by layer");
    if (!file.ok()) return "no layerwise attribution: " + file.status().message();
    StatusOr<ExposedModel> exposed = ExposeIntermediatesOfModelFile(*file);
    if (!exposed.ok()) return "no layerwise attribution: " + exposed.status().message();
    auto layered = runtime_.Load(exposed->copy.path(), options_.load);
    if (!layered.ok()) {
      return "no layerwise attribution: the copy with intermediate values exposed does not "
             "load: " +
             layered.status().message();
    }
    auto got = RunOutputsByName(**layered, FeedsOfSet(set));
    if (!got.ok()) {
      return "no layerwise attribution: the copy with intermediate values exposed does not run: " +
             got.status().message();
    }
    std::map<std::string, const GoldenValue*> want;
    for (const GoldenValue& v : set.intermediates) want[v.name] = &v;
    for (const GoldenValue& v : set.outputs) want[v.name] = &v;
    // Intermediate values and graph outputs together, in the order of the nodes computing them.
    std::vector<ExposedValue> walk = exposed->intermediates;
    walk.insert(walk.end(), exposed->graph_outputs.begin(), exposed->graph_outputs.end());
    std::stable_sort(walk.begin(), walk.end(), [](const ExposedValue& a, const ExposedValue& b) {
      return a.node_index < b.node_index;
    });
    size_t compared = 0;
    std::string last_matching_node;
    bool skipped = false;  // a value the golden does not keep, since the last that matched
    for (const ExposedValue& v : walk) {
      auto expected = want.find(v.value);
      auto actual = got->find(v.value);
      if (actual == got->end()) continue;
      if (expected == want.end()) {
        skipped = true;
        continue;
      }
      ++compared;
      ValueComparison cmp = CompareWithLayerwise(actual->second, *expected->second, golden);
      if (cmp.passed) {
        last_matching_node = v.node;
        skipped = false;
        continue;
      }
      if (golden.layerwise_every > 1 && skipped) {
        return SparseDivergence(golden, last_matching_node, v, cmp);
      }
      DivergenceRecord& d = record_.first_divergence.emplace();
      d.node = v.node;
      d.op = QualifiedOpName(v.domain, v.op_type);
      d.value = v.value;
      d.set_index = static_cast<int64_t>(set_index);
      d.max_abs_error = cmp.max_abs_error;
      d.max_rel_error = cmp.max_rel_error;
      d.summary = cmp.summary;
      return "first divergence: node " + v.node + " (" + d.op + "), value '" + v.value +
             "': " + cmp.summary;
    }
    if (compared == 0) {
      return "no layerwise attribution: the copy with intermediate values exposed returns none "
             "of the values the golden holds";
    }
    return "no layerwise attribution: every value matches the golden's when the model runs with "
           "its intermediate values exposed";
  }

  // Why the model's files are not the ones the golden was written for (a stale golden: "model
  // changed"), or cannot be hashed; "" when they are. The model file is compared with
  // model_sha256; it and every external data file it names with model_files_sha256, which a
  // golden without one cannot vouch for.
  std::string ModelChange(const GoldenFile& golden, const ModelFile& file) const {
    if (file.sha256() != golden.model_sha256) {
      return c_.golden_path + ": model changed (stale golden): written for a model with sha256 " +
             Short(golden.model_sha256) + ", but " + c_.model_path + " has sha256 " +
             Short(file.sha256());
    }
    if (golden.model_files_sha256.empty()) {
      if (file.external_locations().empty()) return "";
      return c_.golden_path +
             ": has no model_files_sha256, so it cannot vouch for the external "
             "data files " +
             c_.model_path + " names (" + ListNames(file.external_locations()) +
             "); re-import the golden";
    }
    if (file.files_sha256() != golden.model_files_sha256) {
      return c_.golden_path +
             ": model changed (stale golden): written for model files with sha256 " +
             Short(golden.model_files_sha256) + ", but " + c_.model_path +
             " and its external data files (" + ListNames(file.external_locations()) +
             ") have sha256 " + Short(file.files_sha256()) +
             ": an external data file was replaced or edited";
    }
    return "";
  }

  // A value against the golden's: a float16-stored intermediate of a golden recorded with
  // --layerwise-precision float16 widened back to float32 and compared with a tolerance no
  // tighter than its rounding allows (golden/golden_layerwise.h).
  ValueComparison CompareWithLayerwise(const Value& actual, const GoldenValue& expected,
                                       const GoldenFile& golden) const {
    const bool stored_float16 = golden.layerwise_precision == kLayerwiseFloat16 &&
                                expected.value.is_tensor() && actual.is_tensor() &&
                                expected.value.tensor().dtype() == DataType::kFloat16 &&
                                actual.tensor().dtype() == DataType::kFloat;
    if (!stored_float16) return CompareValues(actual, expected.value, ResolveTolerance(expected));
    GoldenValue widened = expected;
    widened.value = WidenFloat16(expected.value);
    Tolerance tolerance = ResolveTolerance(widened);
    tolerance.rtol = std::max(tolerance.rtol, kFloat16StoredRtol);
    tolerance.atol = std::max(tolerance.atol, kFloat16StoredAtol);
    return CompareValues(actual, widened.value, tolerance);
  }

  // A golden keeping 1 node in N whose first departing value `v` follows nodes it keeps
  // nothing of: any of them may be the first that diverged, so no single op is blamed (the case
  // counts under every op it uses) and the message names the span.
  static std::string SparseDivergence(const GoldenFile& golden, const std::string& last_matching,
                                      const ExposedValue& v, const ValueComparison& cmp) {
    return "first divergence after " +
           (last_matching.empty() ? std::string("the model's inputs") : "node " + last_matching) +
           ", at or before node " + v.node + " (" + QualifiedOpName(v.domain, v.op_type) +
           "), value '" + v.value + "': " + cmp.summary +
           " (the golden keeps the values of 1 node in " + std::to_string(golden.layerwise_every) +
           ", so no single node is named)";
  }

  Tolerance ResolveTolerance(const GoldenValue& expected) const {
    const ToleranceOverride& case_layer = c_.tolerance;
    ToleranceOverride output_layer;
    if (auto it = c_.output_tolerance.find(expected.name); it != c_.output_tolerance.end()) {
      output_layer = it->second;
    }
    if (expected.rtol) output_layer.rtol = expected.rtol;
    if (expected.atol) output_layer.atol = expected.atol;
    ToleranceLayers defaults;
    const ToleranceLayers& layers = options_.tolerances ? *options_.tolerances : defaults;
    return layers.Resolve(c_.op_types, expected.value.elem_type(), case_layer, output_layer,
                          options_.cli_tolerance);
  }

  // Where the nodes ran, as the runtime says now. Called after the load and again after the
  // first run: a runtime may only know once it has run (ONNX Runtime's profile says it).
  void RecordPlacements(const LoadedModel& model) {
    record_.placements.clear();
    for (const NodePlacement& p : model.placements()) {
      PlacementRecord r{p.node_name, p.op_type, p.provider, {}, p.subgraph};
      for (const DeclineReason& d : p.declines) r.declines.push_back({d.provider, d.reason});
      record_.placements.push_back(std::move(r));
    }
    if (options_.load.fallback != FallbackPolicy::kAllow) {
      record_.fallbacks = FallbackNodes(model.placements(), Providers().front(),
                                        int64_nodes_ ? &*int64_nodes_ : nullptr);
    }
  }

  // The providers of the case's target, in priority order.
  std::vector<std::string> Providers() const {
    return options_.load.providers.empty() ? std::vector<std::string>{options_.ep}
                                           : options_.load.providers;
  }

  // What the fallback judgment needs of the model before it is released: the nodes a load must
  // place (NodesToPlace), and
  // under a policy that records fallbacks, which nodes return int64 (the shape-only rule).
  void NoteGraph(const onnx::ModelProto& proto) {
    if (options_.load.fallback == FallbackPolicy::kAllow) return;
    nodes_to_place_ = NodesToPlace(proto, options_.load.optimization_level);
    if (HasTypeDependentNodes(proto)) int64_nodes_ = NodesWithInt64Outputs(proto);
  }

  // --fallback forbid, judged here whatever the runtime (one may refuse at load already): a node
  // placed on a provider other than the first is UNSUPPORTED naming it; a runtime that reports
  // no placement for a graph with nodes to place (NodesToPlace) cannot be checked, which is
  // UNRESOLVED, never a pass.
  // The placements may only be known once the model has run, so their absence is judged then.
  std::optional<Outcome> JudgeFallback(bool after_run) const {
    if (options_.load.fallback != FallbackPolicy::kForbid) return std::nullopt;
    if (!record_.fallbacks.empty()) {
      const FallbackRecord& f = record_.fallbacks.front();
      std::string more;
      if (record_.fallbacks.size() > 1) {
        more = " (and " + std::to_string(record_.fallbacks.size() - 1) + " more node(s))";
      }
      return Outcome{Verdict::kUnsupported, "fallback is forbidden: " + f.op_type + " node '" +
                                                f.node + "' runs on '" + f.ep + "', not on '" +
                                                Providers().front() + "'" + more};
    }
    if (after_run && record_.placements.empty() && nodes_to_place_ > 0) {
      return Outcome{Verdict::kUnresolved,
                     "runtime " + runtime_.name() +
                         " reports no node placements, so --fallback forbid cannot be checked"};
    }
    return std::nullopt;
  }

  const RuntimeUnderTest& runtime_;
  const SuiteCase& c_;
  const CaseRunOptions& options_;
  CaseRecord record_;
  int nodes_to_place_ = 0;
  std::optional<std::set<std::string>> int64_nodes_;
};

}  // namespace

CaseRecord RunCase(const RuntimeUnderTest& runtime, const Suite& suite, const SuiteCase& c,
                   const CaseRunOptions& options) {
  return CaseRun(runtime, suite, c, options).Run();
}

}  // namespace onnxgate
