// Plain result records of one run, filled by the harness and read by every report writer.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "runtime/base/status.h"

namespace onnxgate {

// The version of the record layout as the JSON report writes it. Adding fields keeps the
// version (readers ignore what they do not know); renaming, removing or changing the meaning of
// a field bumps it.
inline constexpr int kRunSchemaVersion = 1;
inline constexpr char kRunSchemaName[] = "onnxgate-run";

// The verdict of one case on one EP, in LLVM lit's vocabulary. PASS..SKIP are raw outcomes;
// XFAIL and XPASS only appear once expectations have been applied.
enum class Verdict {
  kPass = 0,
  kFail,         // numbers differ
  kUnsupported,  // the runtime declines (no kernel for this op version or type)
  kUnresolved,   // the test itself is broken: unreadable model or golden, stale golden
  kCrash,
  kTimeout,
  kSkip,
  kXfail,  // failed as the expectations predict
  kXpass,  // passed although the expectations predict a failure
};
inline constexpr int kNumVerdicts = 9;
inline constexpr std::array<Verdict, kNumVerdicts> kAllVerdicts = {
    Verdict::kPass,    Verdict::kFail, Verdict::kUnsupported, Verdict::kUnresolved, Verdict::kCrash,
    Verdict::kTimeout, Verdict::kSkip, Verdict::kXfail,       Verdict::kXpass};

// "PASS", "FAIL", "UNSUPPORTED", ...
const char* VerdictToString(Verdict verdict);
// Parses the upper-case spelling (lower case is accepted too); InvalidArgument listing the
// valid names otherwise.
StatusOr<Verdict> VerdictFromString(const std::string& name);

// Counts per verdict.
class VerdictCounts {
 public:
  int64_t& operator[](Verdict v) { return counts_[static_cast<int>(v)]; }
  int64_t operator[](Verdict v) const { return counts_[static_cast<int>(v)]; }
  int64_t total() const;
  bool operator==(const VerdictCounts& other) const { return counts_ == other.counts_; }
  bool operator!=(const VerdictCounts& other) const { return !(*this == other); }

 private:
  std::array<int64_t, kNumVerdicts> counts_{};
};

struct DeclineRecord {
  std::string ep;
  std::string reason;
};

// Where one node ran, and why the EPs before it declined it.
struct PlacementRecord {
  std::string node;
  std::string op_type;
  std::string ep;
  std::vector<DeclineRecord> declines;
  std::string subgraph;  // the EP's kernel that ran it with other nodes; empty: it ran alone
};

// A node that ran on a provider other than its target's first (the first of an --ep list): a
// fallback. `shape_only` marks a node that only computes shapes (harness/fallback_nodes.h has the
// rule), counted apart from compute nodes.
struct FallbackRecord {
  std::string node;
  std::string op_type;
  std::string ep;  // the provider it ran on
  bool shape_only = false;
};

// The comparison of one output of one golden set. Errors are in the units of the output; the
// "smallest passing" tolerances are +infinity when no value would make the output pass (NaN
// against a number, a shape mismatch, rtol against an expected zero).
// One metric threshold applied to an output (suite.json "metrics"): margin is how far the value is
// on the passing side (negative when it fails).
struct MetricRecord {
  std::string metric;  // "cosine", "top1", "max_abs", ...
  double value = 0.0;
  double threshold = 0.0;
  bool at_least = false;  // a lower bound (cosine, sqnr_db, top<K>); else an upper bound
  bool passed = false;
  double margin = 0.0;
};

struct OutputComparison {
  std::string output_name;
  int64_t set_index = 0;
  std::string dtype;  // as ONNX type strings write it: "float", "int64", ...
  std::vector<int64_t> expected_shape;
  std::vector<int64_t> actual_shape;
  bool passed = false;
  double rtol = 0.0;
  double atol = 0.0;
  double max_abs_error = 0.0;
  double max_rel_error = 0.0;
  int64_t mismatch_count = 0;
  double mismatch_share = 0.0;  // mismatch_count / total_elements, 0..1
  int64_t total_elements = 0;
  int64_t worst_index = -1;             // flat index of the worst element; -1 when there is none
  std::vector<int64_t> worst_index_nd;  // the same index per dimension
  std::string worst_expected;
  std::string worst_actual;
  double min_passing_rtol = 0.0;  // at the atol above
  double min_passing_atol = 0.0;  // at the rtol above
  // Why the output failed when it is not about element values: "dtype mismatch", "shape
  // mismatch", "output missing". Empty otherwise.
  std::string error;
  // The case's metric thresholds that applied to this output; when any did, `passed` is their
  // verdict instead of rtol/atol's.
  std::vector<MetricRecord> metrics;
};

// Where a failing case first departs from its golden, when the golden holds the model's
// intermediate values (`onnxgate record --layerwise`): the first node, in node order, whose value
// is outside the case's tolerance.
struct DivergenceRecord {
  std::string node;
  std::string op;     // qualified, as op_versions names it
  std::string value;  // the ONNX value it computes
  int64_t set_index = 0;
  double max_abs_error = 0.0;
  double max_rel_error = 0.0;
  std::string summary;
};

// One case on one EP of one runtime.
struct CaseRecord {
  std::string suite;
  std::string name;
  std::vector<std::string> op_types;
  std::map<std::string, int64_t> opset_imports;  // domain ("" for ai.onnx) -> version
  std::map<std::string, int64_t> op_versions;    // qualified op -> active version (since_version)
  // The runtime's label (RuntimeRecord::label) in a run of several runtimes side by side; empty
  // when the run has one runtime (run.runtime_name). The same holds for the other records.
  std::string runtime;
  std::string ep;
  Verdict verdict = Verdict::kPass;  // after expectations
  Verdict outcome = Verdict::kPass;  // the raw outcome before expectations
  std::string expectation_reason;    // the matching expectation's reason; empty when none matched
  std::string message;               // one line
  double duration_s = 0.0;
  std::vector<PlacementRecord> placements;
  // The placements that fell back from the target's first provider, recorded under --fallback
  // warn and forbid (empty under allow: the placements still show where each node ran).
  std::vector<FallbackRecord> fallbacks;
  std::vector<OutputComparison> outputs;
  // A FAIL attributed to one node (DivergenceRecord); the conformance matrix then counts the
  // case under that node's op only, not under every op the case contains.
  std::optional<DivergenceRecord> first_divergence;
  std::string reproducer;  // a command line that runs this case alone
  // What the runtime (its library, plugin or adapter process) wrote to stderr during the case,
  // at most kMaxRuntimeLogBytes of it; empty when it wrote nothing.
  std::string runtime_log;
};

// The most of a case's runtime log a record keeps; a longer log ends with kRuntimeLogTruncated.
inline constexpr size_t kMaxRuntimeLogBytes = size_t{64} << 10;
inline constexpr char kRuntimeLogTruncated[] = "\n[runtime log truncated at 64 KiB]\n";

enum class LatencyVerdict {
  kRegression = 0,
  kImprovement,
  kUnchanged,
  kInconclusive,  // the median moved but the noise is too high to decide
  kNoBaseline,
  kError,  // not measured: the model could not be read, loaded or run (the message says why)
};
// "regression", "improvement", "unchanged", "inconclusive", "no-baseline", "error".
const char* LatencyVerdictToString(LatencyVerdict verdict);
StatusOr<LatencyVerdict> LatencyVerdictFromString(const std::string& name);

// One model measured on one EP with a thread count. Times in milliseconds of steady state.
struct LatencyRecord {
  std::string model;
  std::string runtime;  // set when a bench compares two runtimes
  std::string ep;
  std::string against;  // bench --against: the reference's runtime/EP (TargetName) measured beside
  int64_t threads = 1;
  std::string shapes;  // symbolic dimensions bound, "batch=4,seq=128"; empty when none
  // Nodes placed outside the target's first provider (bench --fallback allow|warn), "3 of 41
  // nodes on ref (Gather x2, Shape x1; 3 shape-only)"; empty when none fell back.
  std::string fallback;
  std::string model_sha256;  // of the model file measured
  std::string timed_by;      // "harness" or "runtime" (the runtime's own timed-runs request)
  std::string clock;         // "wall" or "cpu": the clock the samples were read on
  int64_t repetitions = 0;
  double median_ms = 0.0;
  double min_ms = 0.0;
  double p90_ms = 0.0;
  double p99_ms = 0.0;
  double mean_ms = 0.0;
  double cv = 0.0;                     // coefficient of variation: stddev / mean
  std::optional<double> load_ms;       // session load time
  std::optional<double> first_run_ms;  // the first run, apart from steady state
  std::optional<double> baseline_median_ms;
  std::optional<double> change_ratio;  // (median - baseline median) / baseline median
  std::optional<double> threshold;     // the change ratio above which a move counts
  std::optional<double> p_value;       // of the Mann-Whitney U test against the baseline
  LatencyVerdict verdict = LatencyVerdict::kNoBaseline;
  std::string message;
  // Why the verdict is unreliable: the spread of the samples (cv) on either side exceeded the
  // threshold, so a change of the threshold's size is within the repetitions' own scatter.
  // Empty when it did not, and when nothing was compared.
  std::string noise;
};

struct HostRecord {
  std::string hostname;
  std::string os;
  std::string cpu_model;
  int64_t logical_cores = 0;
};

// Which cases the run selected.
struct SelectionRecord {
  std::string filter;            // the case filter as given, empty for all
  std::vector<std::string> eps;  // the EPs the run was asked for
  int64_t shard_index = 0;
  int64_t shard_count = 1;
};

// One cell of the conformance matrix: the cases that exercise one op at one active version on one
// EP, counted by verdict (after expectations). A case counts in the cell of every op it uses,
// except a case with a first_divergence: it counts under that op alone; and a failing case judged
// by metric thresholds without one: the model is blamed, and it counts in no cell.
struct MatrixCell {
  std::string op;  // qualified: "Conv", "ai.onnx.ml.LabelEncoder"
  int64_t since_version = 0;
  std::string runtime;
  std::string ep;
  VerdictCounts counts;
  std::vector<std::string> failing_cases;  // FAIL, CRASH, TIMEOUT, UNRESOLVED, XPASS: names
};

// Coverage of one ONNX operator by the run's cases: which of its versions (up to the opsets
// onnxgate covers) at least one case exercises, and which none does.
struct CoverageRecord {
  std::string op;  // qualified
  std::vector<int64_t> covered_versions;
  std::vector<int64_t> uncovered_versions;
};

using UtcTime = std::chrono::system_clock::time_point;

// Whether every selected case x EP was judged. An interrupted run's reports hold only the cases
// that finished, so they must say so, or a partial run reads like a complete one.
enum class RunStatus {
  kCompleted = 0,
  kInterrupted,  // stopped (SIGINT/SIGTERM) before every selected case finished
};
// "completed", "interrupted".
const char* RunStatusToString(RunStatus status);
StatusOr<RunStatus> RunStatusFromString(const std::string& name);

// A selected case x EP that has no verdict because the run was stopped before it finished. Kept
// apart from `cases` so that totals, the matrix and coverage count only judged cases.
struct NotRunRecord {
  std::string suite;
  std::string name;
  std::vector<std::string> op_types;
  std::string runtime;
  std::string ep;
  std::string reason;      // "not run: the run was interrupted by SIGTERM"
  std::string reproducer;  // a command line that runs this case alone
};

// One runtime of a run.
struct RuntimeRecord {
  std::string label;  // unique in the run: its name, else name@version, else name#N
  std::string name;
  std::string version;
  std::string spec;  // as --runtime named it: builtin, ort, plugin:<file>, adapter:<command>
};

// The expectations file one runtime/EP of a gate was judged by.
struct GateExpectationsRecord {
  std::string runtime;  // the runtime's label in a side-by-side run; empty otherwise
  std::string ep;
  // Relative to the run's --root when inside it, else as given; the path looked for when
  // !found (the JSON report writes "file": null then).
  std::string file;
  bool found = false;  // false: no file, so every case of this runtime/EP had to pass
  int64_t entries = 0;
};

// The unexpected outcomes of a gate, by kind: what makes its exit code 1 (IsUnexpected).
struct GateUnexpectedCounts {
  int64_t failures = 0;     // FAIL no expectation predicted
  int64_t crashes = 0;      // CRASH no expectation predicted
  int64_t timeouts = 0;     // TIMEOUT no expectation predicted
  int64_t unresolved = 0;   // UNRESOLVED no expectation predicted
  int64_t unsupported = 0;  // UNSUPPORTED no expectation predicted
  int64_t xpass = 0;        // an expected failure that passed; counted only when strict
  int64_t total() const;
  bool operator==(const GateUnexpectedCounts& o) const;
};

// The outcome of `onnxgate gate`: absent from a plain run.
struct GateRecord {
  // No unexpected outcome and every selected case judged (an interrupted gate has not passed).
  bool passed = false;
  bool strict = true;  // an XPASS fails the gate
  GateUnexpectedCounts unexpected;
  std::vector<GateExpectationsRecord> expectations;  // per runtime/EP, in run order
  // gate --against-report: the release report compared with (as given), and how many cases got
  // worse (a failure of the gate) or better than in it, and how many still pass with a larger
  // error (harness/report_diff.h, MarginGrowth; not a failure); empty when none was given.
  std::string against_report;
  int64_t worse_than_release = 0;
  int64_t better_than_release = 0;
  int64_t margin_grew_since_release = 0;
};

// The whole run. Later parts (a conformance matrix, ...) are added as new members here and new
// top-level keys in the JSON report.
struct RunRecord {
  int schema_version = kRunSchemaVersion;
  std::string tool_name = "onnxgate";
  std::string tool_version;
  std::string runtime_name;  // the first (or only) runtime's
  std::string runtime_version;
  // Every runtime the run names, in command-line order; more than one for a side-by-side run.
  std::vector<RuntimeRecord> runtimes;
  UtcTime start_time;
  UtcTime end_time;
  double duration_s = 0.0;
  std::vector<std::string> command_line;
  // Where the cases ran (--isolation): "worker", "case" or "none"; empty when not recorded.
  std::string isolation;
  HostRecord host;
  std::vector<std::string> suites;
  SelectionRecord selection;
  // Per verdict over `cases` (CountVerdicts). The writers recount from `cases` so every report
  // agrees with its own case list; ReadRunJson fills it.
  VerdictCounts totals;
  std::vector<CaseRecord> cases;
  // kInterrupted: `status_message` says by what and how many cases finished, and `not_run`
  // lists every selected case x EP without a verdict (cases.size() + not_run.size() is the
  // selection).
  RunStatus status = RunStatus::kCompleted;
  std::string status_message;  // one line; empty for a completed run
  std::vector<NotRunRecord> not_run;
  std::vector<LatencyRecord> latency;
  // The op x op version x EP matrix and the operator coverage; empty when not computed.
  std::vector<MatrixCell> matrix;
  std::vector<CoverageRecord> coverage;
  // Set by `gate` only.
  std::optional<GateRecord> gate;
};

VerdictCounts CountVerdicts(const std::vector<CaseRecord>& cases);

// What a record ran on, as report columns name it: the EP, or "<runtime>/<ep>" in a
// side-by-side run (when `runtime` is set).
std::string TargetName(const std::string& runtime, const std::string& ep);
template <typename Record>
std::string TargetName(const Record& record) {
  return TargetName(record.runtime, record.ep);
}

// The `runtime` values the run's records carry, in command-line order: each runtime's label in a
// side-by-side run, else one empty label.
std::vector<std::string> RecordRuntimeLabels(const RunRecord& run);
// `targets` in the order a run's reports show them: each runtime's EPs in the order the run
// selected them, then any others, sorted.
std::vector<std::string> OrderTargets(const RunRecord& run, std::set<std::string> targets);
// Every target that the run's cases, matrix cells and not-run records name, in OrderTargets
// order.
std::vector<std::string> RunTargets(const RunRecord& run);

// Whether a record breaks a gate: FAIL, CRASH, TIMEOUT, UNRESOLVED, UNSUPPORTED that no
// expectation predicted, and XPASS when `strict`.
bool IsUnexpected(const CaseRecord& record, bool strict);

// The records that break a gate (IsUnexpected), counted by kind.
GateUnexpectedCounts CountUnexpected(const std::vector<CaseRecord>& cases, bool strict);

// The unexpected outcomes in words, kinds with a zero count left out: "2 failures, 1 crash".
std::string DescribeUnexpected(const GateUnexpectedCounts& unexpected);

// The fallback nodes of some cases, summed: how many nodes, of which shape-only, in how many
// cases, and the nodes per op type.
struct FallbackSummary {
  int64_t nodes = 0;
  int64_t shape_only = 0;
  int64_t cases = 0;
  std::map<std::string, int64_t> by_op;
};
FallbackSummary SummarizeFallbacks(const std::vector<CaseRecord>& cases);
FallbackSummary SummarizeFallbacks(const std::vector<FallbackRecord>& fallbacks);
// "3 nodes (ops: Neg x2, Shape x1), of which 1 shape-only": the ops by count, most first, at
// most `max_ops` of them and "+N more" after.
std::string DescribeFallbacks(const FallbackSummary& summary, size_t max_ops = 10);
// The targets (TargetName) whose cases recorded fallback nodes, in OrderTargets order, each with
// its summary.
std::vector<std::pair<std::string, FallbackSummary>> FallbacksByTarget(const RunRecord& run);

// The report title by command: "onnxgate gate" for a gate (run.gate set), else "onnxgate run".
std::string RunTitle(const RunRecord& run);

// A bench run: latency records and no cases. Its human-facing reports are the latency section
// alone.
bool IsLatencyOnly(const RunRecord& run);

// Whether a run is one of users' models: reports/model_summary.h (IsModelRun).

}  // namespace onnxgate
