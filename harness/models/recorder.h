// `onnxgate record`: a user's model becomes a suite case. The model (and its external data) is
// run on a trusted runtime and EP, its outputs become the case's HDF5 golden (producer: runtime,
// version, EP and load options), and the model is copied into the suite beside an entry in
// suite.json. Re-recording a case compares the new outputs with the old golden first, and refuses
// to replace outputs that moved while the model stayed the same unless forced.
//
// A dataset (several input sets, input_sets.h) makes one case whose golden holds a data set per
// input set. Expected outputs computed elsewhere (a framework: expected_outputs.h) may replace the
// runtime's as the golden's outputs, with the framework as its producer; the runtime still runs
// every set, and how far its outputs are from the framework's is reported. So may a reference
// model's outputs on the same sets (an INT8 model's FP32 parent: reference_outputs.h).
//
// Nothing is half-written: the run, the comparison and every check happen before the first file
// is written; the model files, the golden and suite.json are each written through a temporary
// file and a rename, suite.json last, so an interrupted record leaves the suite listing the old
// case or the new one, never a case without its files.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "conformance/tolerances.h"
#include "harness/compare.h"
#include "harness/models/model_feeds.h"
#include "harness/models/model_worker.h"
#include "runtime/api/runtime.h"
#include "runtime/base/status.h"

namespace onnxgate {

struct RecordOptions {
  std::string model_path;
  std::string suite_name;
  std::string case_name;  // empty: the model file's name without its extension
  std::string repo_root;  // holds suites/ and golden/data/
  // --input: every .npz file and every folder of .pb files is one data set; .pb files given
  // directly make one data set together (input_sets.h). With `inputs_dir` also empty, inputs are
  // generated from `seed`.
  std::vector<std::string> input_files;
  std::string inputs_dir;  // --inputs-dir: a folder whose .npz files and folders are data sets
  uint32_t seed = 1;
  // --input-range: ranges [lo, hi) of generated integer inputs, over the model's metadata.
  InputRanges input_ranges;
  // --expected: the outputs computed elsewhere, one .npz per data set, paired by order; or
  // --expected-dir: a folder with <set name>.npz for each set. They become the golden's outputs
  // after the checks of expected_outputs.h; `producer` ("pytorch 2.5") is then the golden's
  // producer, and must be given.
  std::vector<std::string> expected_files;
  std::string expected_dir;
  std::string producer;
  // --reference-model: the golden's outputs are this model's on the same data sets, run on the
  // same runtime and EP (harness/models/reference_outputs.h); its producer is "<file> on
  // <runtime>" unless `producer` names it. Not with expected outputs or --layerwise.
  std::string reference_model;
  // --dim: named dynamic dimensions and their sizes. With generated inputs every combination of
  // sizes is one data set of the golden (batch=1,4,16: three); with input files each name takes
  // one size, which the files must agree with.
  std::map<std::string, std::vector<int64_t>> dims;
  std::string runtime_spec;  // as given to --runtime, for the golden's provenance
  LoadOptions load;          // providers: the trusted EP alone
  // The case's tolerance in suite.json; unset keeps what the entry has.
  std::optional<double> rtol;
  std::optional<double> atol;
  bool force = false;  // replace moved outputs of an unchanged model
  // Also store every intermediate value the runtime computes (golden format 3), so that a case
  // that later fails is attributed to the first node whose value departs from them.
  bool layerwise = false;
  // With `layerwise`, a smaller golden (golden/golden_layerwise.h): the values of every Nth node
  // in node order and of the last node only, and float32 values stored as float16.
  int64_t layerwise_every = 1;
  bool layerwise_float16 = false;
  std::string created;  // the golden's creation time; empty: now
  // The model is loaded and run in a worker under these limits (model_worker.h).
  ModelWorkerOptions worker;
};

// How one output of one data set compares with the golden being replaced.
struct OutputChange {
  int64_t set = 0;
  std::string output;
  ValueComparison comparison;
};

struct RecordReport {
  std::string case_name;
  std::string model_path;  // the copy in the suite
  std::string golden_path;
  std::string suite_json;
  std::string producer;    // the golden's: the runtime's (ProducerOf), or the given producer
  std::string checked_on;  // the runtime, version, EP and load options that ran the data sets
  int64_t data_sets = 0;
  int64_t intermediates = 0;   // per data set, with `layerwise`
  uint64_t golden_bytes = 0;   // the size of the golden written
  bool replaced = false;       // a golden of this case existed
  bool model_changed = false;  // ... for other model files than these
  // Against the replaced golden, when its sets line up with the new ones (same count, inputs and
  // output names); empty otherwise.
  std::vector<OutputChange> changes;
  std::string not_compared;    // why the old golden could not be compared, when it could not
  bool outputs_moved = false;  // some change fails the case's tolerance
  // The data sets, as messages name them ("data set 1 (b.npz)"; generated: "generated inputs").
  std::vector<std::string> set_labels;
  // Integer inputs generated without a known range (all 0): one line each, naming the input.
  std::vector<std::string> warnings;
  // With expected outputs: the runtime's outputs against them, per set and output, under the
  // case's tolerance (`tolerance`: the options', else the case entry's, else the suite's default).
  std::vector<OutputChange> runtime_distance;
  Tolerance tolerance;
  bool runtime_outside_tolerance = false;
  // False when the record was refused: the model is unchanged, its outputs moved and `force` was
  // off. Nothing was written then.
  bool written = false;
};

// Records the case. Errors name the file and the mismatch: bad options, a model that does not read
// or load (the runtime's status, with the model named), inputs that do not fit it, data sets that
// give different inputs, expected outputs whose names, element types or shapes do not fit it, a
// --dim or --input-range it lacks, a run that fails, or crashes or runs out of time or memory in
// its worker; nothing is written then. A refused re-record is a report with `written` false.
StatusOr<RecordReport> RecordCase(const RuntimeUnderTest& runtime, const RecordOptions& options);

// One line per change: "set 0 output 'y': max abs 0.032, max rel 0.11 (moved)".
std::vector<std::string> DescribeChanges(const RecordReport& report);

// One line per output of runtime_distance: "data set 0 (a.npz) output 'y': max abs 1.2e-07, max
// rel 3.1e-06 (within tolerance)".
std::vector<std::string> DescribeRuntimeDistance(const RecordReport& report);

}  // namespace onnxgate
