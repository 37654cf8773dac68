// `onnxgate diff`: one model run on two configurations (runtimes, EPs, optimization levels,
// thread counts) on the same inputs, or two model files (a quantized model and its float parent,
// a re-export and the previous export) with outputs matched by name; every output compared with
// the comparison record and error metrics (harness/metrics.h), judged elementwise or, where
// metric thresholds are given and apply, by them. With `layerwise`, every intermediate value too
// (exposed as outputs of rewritten copies), naming the first node whose output diverges and the
// worst values by SQNR: the answer to "which op changed" and "where quantization loses accuracy".
// A quantized candidate's dequantized tensors stand for the float names they quantize
// (harness/models/qdq_pairs.h). When exposing intermediate values changes a side's outputs (a
// runtime that fuses QDQ pairs or other nodes only while their values are not outputs), the record
// says so.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/compare.h"
#include "harness/metrics.h"
#include "harness/models/model_inputs.h"
#include "harness/models/model_worker.h"
#include "runtime/api/runtime.h"
#include "runtime/base/status.h"

namespace onnxgate {

// One configuration: a runtime, what to call it in reports, and how to load the model on it.
struct DiffSide {
  const RuntimeUnderTest* runtime = nullptr;
  std::string label;
  LoadOptions load;
};

struct DiffOptions {
  std::string model_path;
  // The reference's model file; empty: `model_path` on both sides. Its inputs are fed the
  // candidate's feeds and its outputs must correspond by name and shape.
  std::string reference_model_path;
  // The data sets (harness/models/input_sets.h): every .npz or folder of .pb files given is one
  // set, loose .pb files one set together, and every entry of `inputs_dir` one more; none:
  // generated from `seed`. DiffModel runs `input_files` as one set.
  std::vector<std::string> input_files;
  std::string inputs_dir;
  uint32_t seed = 1;
  DimSizes dims;
  bool layerwise = false;
  Tolerance tolerance;
  // Thresholds judging the values they apply to instead of elementwise; top-k thresholds apply to
  // outputs only. `top_k` > 0 also reports top-k agreement with that k.
  MetricThresholds metrics;
  int top_k = 0;
  // Each side's load and run happens in a worker under these limits (model_worker.h).
  ModelWorkerOptions worker;
};

struct ValueDiff {
  std::string value;
  std::string candidate_value;  // the candidate's tensor when it has another name (dequantized)
  std::string node;             // the node computing it (intermediates; the reference's node)
  std::string op_type;          // (intermediates)
  ValueComparison comparison;   // the candidate's value against the reference's
  TensorMetrics metrics;
  MetricJudgement judgement;  // judged: by metric thresholds instead of `comparison`
  bool passed() const { return judgement.judged ? judgement.passed : comparison.passed; }
};

struct DiffRecord {
  std::string model_path;
  std::string reference_model_path;  // empty: the same model on both sides
  MetricThresholds metrics;
  std::string candidate;
  std::string reference;
  Tolerance tolerance;
  std::vector<ValueDiff> outputs;
  // Layerwise: every intermediate value both sides return, in node order; the values one side
  // did not return are listed in not_compared.
  std::vector<ValueDiff> intermediates;
  std::vector<std::string> not_compared;
  std::optional<size_t> first_divergence;  // index into intermediates
  // Layerwise: for each side whose outputs changed when its intermediate values were exposed, a
  // line naming it and the first output that changed.
  std::vector<std::string> pinning_changed;
  bool passed() const;
  // Up to `n` indices into intermediates with metrics, lowest SQNR first (ties: node order).
  std::vector<size_t> WorstIntermediates(size_t n) const;
};

// Errors name the model and the side for a model that does not read or load, inputs that do not
// fit, and a run that fails, crashes or runs out of time or memory in its worker; with a reference
// model, outputs that do not correspond (a name on one side only, a shape or kind that differs,
// numbers against non-numbers) name both files and the output.
StatusOr<DiffRecord> DiffModel(const DiffSide& candidate, const DiffSide& reference,
                               const DiffOptions& options);

// A diff over a dataset: each data set's record, in set order.
struct DatasetDiff {
  std::vector<std::string> set_labels;  // "data set 2 (in/b.npz)"; "generated inputs" for none
  std::vector<DiffRecord> sets;
  bool passed() const;  // every set passed
  // The set that fails most outputs, ties (and all passing) broken by the lowest output SQNR,
  // then set order.
  size_t WorstSet() const;
};

// DiffModel on every data set of `options` (input_files and inputs_dir as sets; none: one set of
// generated inputs). Errors as DiffModel's, naming the set when there are several; sets that give
// different input names are refused before anything runs.
StatusOr<DatasetDiff> DiffModelOverDataset(const DiffSide& candidate, const DiffSide& reference,
                                           const DiffOptions& options);

// Layerwise values as a summary (how many, the first divergence, the worst by SQNR) unless
// `verbose`, which lists every value.
std::string RenderDiffText(const DiffRecord& diff, bool verbose = false);
std::string RenderDiffJson(const DiffRecord& diff);
// One set: as RenderDiffText/RenderDiffJson. Several: each set's outputs (and layerwise summary)
// under its label, the worst set named, and one verdict that fails when any set fails.
std::string RenderDatasetDiffText(const DatasetDiff& diff, bool verbose = false);
std::string RenderDatasetDiffJson(const DatasetDiff& diff);

}  // namespace onnxgate
