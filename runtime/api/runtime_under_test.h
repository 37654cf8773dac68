// The narrow interface through which the harness sees any runtime: load a model with options,
// run it with named inputs, say which execution provider ran each node and why, and say which
// op versions and types each provider claims. The built-in runtime, a gmock mock and a plugin
// loaded from a shared library all implement it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/base/value.h"
#include "runtime/kernel/kernel_def.h"

namespace onnxgate {

// What happens to a node that no provider before the last in the list can take.
enum class FallbackPolicy {
  kAllow,   // place it on a later provider silently (placement is still recorded)
  kWarn,    // place it on a later provider and log a warning
  kForbid,  // fail the load: the first provider must take every node
};
const char* FallbackPolicyName(FallbackPolicy policy);
StatusOr<FallbackPolicy> FallbackPolicyFromName(const std::string& name);

struct LoadOptions {
  std::vector<std::string> providers = {"ref"};  // priority order
  FallbackPolicy fallback = FallbackPolicy::kAllow;
  int optimization_level = 0;  // 0 none, 1 constant folding and dead nodes, 2 fusions
  // Threads a provider may use inside one op. A value above what a requested provider can use
  // (RuntimeUnderTest::MaxIntraOpThreads) is refused at load, never silently lowered.
  int intra_op_threads = 1;
};

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
  virtual std::vector<std::string> input_names() const = 0;
  virtual std::vector<std::string> output_names() const = 0;
  // Runs once; returns the graph outputs in output_names() order. Safe from many threads.
  virtual StatusOr<std::vector<Value>> Run(const std::vector<NamedValue>& feeds) const = 0;
  virtual std::vector<NodePlacement> placements() const = 0;
};

class RuntimeUnderTest {
 public:
  virtual ~RuntimeUnderTest() = default;
  virtual std::string name() const = 0;
  // The execution providers this runtime offers, e.g. {"ref", "dnnl", "opencl"}.
  virtual std::vector<std::string> providers() const = 0;
  // Loads a model (.onnx or ONNX text format). Error codes carry meaning for the harness:
  // Unimplemented = the runtime declines (no kernel for an op version or type), anything
  // else = the model or the request is bad.
  virtual StatusOr<std::unique_ptr<LoadedModel>> Load(const std::string& model_path,
                                                      const LoadOptions& options) const = 0;
  virtual StatusOr<std::vector<OpClaim>> Claims(const std::string& provider) const = 0;
  // The most intra-op threads `provider` can use (1: it runs every op on the calling thread).
  virtual StatusOr<int> MaxIntraOpThreads(const std::string& provider) const = 0;
};

}  // namespace onnxgate
