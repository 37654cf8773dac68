// The narrow interface through which the harness sees any runtime: its name and version and the
// ONNX versions it accepts; load a model with options, say what the model takes and returns, run
// it with named inputs, say which execution provider ran each node and why, and say which op
// versions and types each provider claims. It depends on runtime/base only. The built-in runtime
// (runtime/builtin), a runtime loaded from a plugin (runtime/plugin) and a gmock mock
// (harness/mock_runtime.h) implement it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/base/data_type.h"
#include "runtime/base/status.h"
#include "runtime/base/type_constraint.h"
#include "runtime/base/value.h"

namespace onnxgate {

// What happens to a node that no provider before the last in the list can take.
enum class FallbackPolicy {
  kAllow,   // place it on a later provider silently (placement is still recorded)
  kWarn,    // place it on a later provider and log a warning
  kForbid,  // fail the load: the first provider must take every node
};
const char* FallbackPolicyName(FallbackPolicy policy);
StatusOr<FallbackPolicy> FallbackPolicyFromName(const std::string& name);

// Graph optimization levels run from 0 (none) to this: 1 constant folding and dead-node
// removal, 2 fusions too. A runtime refuses any other level (InvalidArgument).
inline constexpr int kMaxOptimizationLevel = 2;

struct LoadOptions {
  std::vector<std::string> providers = {"ref"};  // priority order
  FallbackPolicy fallback = FallbackPolicy::kAllow;
  int optimization_level = 0;  // 0 none, 1 constant folding and dead nodes, 2 fusions
  // Threads a provider may use inside one op. A value above what a requested provider can use
  // (RuntimeUnderTest::MaxIntraOpThreads) is refused at load, never silently lowered.
  int intra_op_threads = 1;
  // The model file's bytes when the caller has read them already (the harness reads each model
  // file once, runtime/model/model_file.h), valid for the call to Load: a runtime in this process
  // may parse them instead of reading the file again; external data still resolves beside the
  // file. Null: the runtime reads the file.
  const std::string* model_bytes = nullptr;
};

// Options for a runtime as a whole, passed through as the user gave them (`--runtime-option
// key=value`). Each runtime says which keys it knows and refuses the others.
using RuntimeOptions = std::map<std::string, std::string>;

// An inclusive range of versions.
struct VersionRange {
  int64_t min = 0;
  int64_t max = 0;
  bool Contains(int64_t v) const { return v >= min && v <= max; }
};

// The ONNX versions a runtime loads: IR versions and opsets per domain ("" is ai.onnx). A model
// outside them is the runtime's to refuse (Unimplemented), and reports show them.
struct AcceptedVersions {
  VersionRange ir;
  std::map<std::string, VersionRange> opsets;
};

// One dimension of a declared shape: a fixed size, a symbolic name, or neither (unknown).
struct DeclaredDim {
  int64_t size = -1;  // -1: not a fixed size
  std::string symbol;
};

// What a model declares for one of its inputs or outputs.
struct ValueInfo {
  std::string name;
  Value::Kind kind = Value::Kind::kTensor;  // kTensor, kSequence or kOptional
  DataType elem_type = DataType::kUndefined;
  bool has_shape = false;  // false: the rank is not declared either
  std::vector<DeclaredDim> dims;
};

std::vector<std::string> NamesOf(const std::vector<ValueInfo>& infos);

struct DeclineReason {
  std::string provider;
  std::string reason;
};

// Where one node ran and why the providers before it declined.
struct NodePlacement {
  std::string node_name;
  std::string op_type;
  std::string domain;
  int since_version = 0;  // the node's active op version
  std::string provider;
  std::vector<DeclineReason> declines;
  // The provider's kernel that runs this node together with others (a subgraph claim, e.g. a
  // Conv with its activation fused as "conv1+relu1"); empty when the node runs alone.
  std::string subgraph;
};

struct NamedValue {
  std::string name;
  Value value;
};

// One op version range and the types a provider claims for it.
struct OpClaim {
  std::string domain;
  std::string op_type;
  int since_version = 0;
  int until_version = 0;
  std::vector<TypeConstraint> type_constraints;
};

class LoadedModel {
 public:
  virtual ~LoadedModel() = default;
  // The inputs a caller must feed (graph inputs without an initializer) and the graph outputs,
  // in graph order.
  virtual std::vector<ValueInfo> inputs() const = 0;
  virtual std::vector<ValueInfo> outputs() const = 0;
  // The model's metadata_props.
  virtual std::map<std::string, std::string> metadata() const = 0;
  std::vector<std::string> input_names() const { return NamesOf(inputs()); }
  std::vector<std::string> output_names() const { return NamesOf(outputs()); }
  // Runs once; returns the graph outputs in output_names() order. Safe from many threads.
  virtual StatusOr<std::vector<Value>> Run(const std::vector<NamedValue>& feeds) const = 0;
  virtual std::vector<NodePlacement> placements() const = 0;
  // Timed runs, for a fair latency across runtimes: the runtime takes `feeds` once, runs the
  // model `runs` times (at least 1) on them, and returns each run's wall time in milliseconds,
  // measured inside its own process on a monotonic clock around its own run call alone, so no
  // pipe, copy or conversion of values is counted. The outputs are discarded. Unimplemented
  // ("not offered"): the runtime does not offer it (the default), and the caller times Run
  // itself. An in-process runtime need not offer it: the caller's clock around Run is as fair.
  virtual StatusOr<std::vector<double>> TimedRuns(const std::vector<NamedValue>& feeds,
                                                  int64_t runs) const {
    return Unimplemented("timed runs are not offered");
  }
};

class RuntimeUnderTest {
 public:
  virtual ~RuntimeUnderTest() = default;
  virtual std::string name() const = 0;
  // The runtime's own version, as reports show it (e.g. "0.4.0 (ONNX 1.23.2)").
  virtual std::string version() const = 0;
  virtual AcceptedVersions accepted_versions() const = 0;
  // The execution providers this runtime offers, e.g. {"ref", "dnnl", "opencl"}.
  virtual std::vector<std::string> providers() const = 0;
  // Whether Load reads ONNX's text format (.onnxtxt) as well as binary protobuf. The harness
  // hands a runtime that does not (the default: a plugin or an adapter over another runtime's
  // API) a binary copy of every text model it loads. The built-in runtime reads both.
  virtual bool ReadsOnnxText() const { return false; }
  // Loads a model (.onnx, or ONNX text format where ReadsOnnxText). Error codes carry meaning for
  // the harness:
  // Unimplemented = the runtime declines (no kernel for an op version or type), anything
  // else = the model or the request is bad.
  virtual StatusOr<std::unique_ptr<LoadedModel>> Load(const std::string& model_path,
                                                      const LoadOptions& options) const = 0;
  virtual StatusOr<std::vector<OpClaim>> Claims(const std::string& provider) const = 0;
  // The most intra-op threads `provider` can use (1: it runs every op on the calling thread).
  virtual StatusOr<int> MaxIntraOpThreads(const std::string& provider) const = 0;
  // Whether `provider` can run on this machine: OK, or Unavailable saying why not ("no OpenCL
  // device: ..."). The harness does not load a case on an unavailable provider: the case is SKIP
  // with that reason, never UNRESOLVED or a verdict on the provider. Any other problem with the
  // provider is Load's to report. The default: every provider can run.
  virtual Status ProviderAvailability(const std::string& provider) const { return OkStatus(); }

  // Worker slots. The harness runs cases in worker processes forked from the one holding the
  // runtime, at most `count` at once, each in a slot of its own; a worker serves many cases of
  // its slot. A runtime that works through helper processes (an adapter) gives each slot its own
  // helper: PrepareWorkerSlots in the parent before the first fork, EnterWorkerSlot in each
  // forked worker as it starts, and LeaveWorkerSlot in the parent after each of the slot's cases
  // (`clean`: the case returned a result; otherwise its worker crashed or was killed, possibly in
  // the middle of talking to the helper). LeaveWorkerSlot returns true when it replaced the
  // slot's helper: the worker that entered the old one is then replaced too. A process that
  // never entered a slot uses the runtime as it is. In-process runtimes need none.
  virtual Status PrepareWorkerSlots(int count) const { return OkStatus(); }
  virtual void EnterWorkerSlot(int slot) const {}
  virtual bool LeaveWorkerSlot(int slot, bool clean) const { return false; }

  // Whether each case on this runtime needs a process of its own: the runtime keeps state that a
  // later case in the same process could see (a global it mutates, a cache keyed by something
  // other than the model). The harness then never runs two of its cases in one worker process,
  // as --isolation case does for every runtime. Default: false.
  virtual bool NeedsCaseIsolation() const { return false; }
};

// Labels that tell the runtimes of one run apart in its reports: each one's name; name@version
// where names repeat (a release plugin against a candidate); name@version#N where those repeat
// too.
std::vector<std::string> RuntimeLabels(const std::vector<const RuntimeUnderTest*>& runtimes);

}  // namespace onnxgate
