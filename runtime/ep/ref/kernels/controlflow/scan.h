// Scan: iterates a body graph over slices of its scan inputs, threading state variables through
// the iterations and stacking the body's scan outputs. Scan-8 scans axis 1 of batched inputs
// (one independent scan per batch entry, with optional sequence_lens); Scan-9 and later scan
// unbatched inputs along configurable axes and directions.
#pragma once

#include <memory>
#include <vector>

#include "runtime/ep/ref/kernels/controlflow/control_flow_util.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class ScanKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  struct Config {
    int version = 9;
    size_t num_states = 0;                   // N
    size_t num_scan_inputs = 0;              // M
    size_t num_scan_outputs = 0;             // K
    std::vector<int64_t> input_axes;         // M (Scan-9+)
    std::vector<int64_t> input_directions;   // M: 0 forward, 1 reverse
    std::vector<int64_t> output_axes;        // K (Scan-9+)
    std::vector<int64_t> output_directions;  // K: 0 append, 1 prepend (Scan-9+)
    std::vector<DeclaredType> scan_types;    // K: declared per-iteration types
  };

  ScanKernel(std::shared_ptr<const SubgraphExecutor> body, Config config)
      : body_(std::move(body)), config_(std::move(config)) {}

  Status RunScan9(KernelContext& ctx) const;
  Status RunScan8(KernelContext& ctx) const;
  // Runs the body over `length` iterations. `states` holds the N state values on entry and the
  // final ones on return; `slice(m, t)` is scan input m at iteration t; the scan outputs of
  // every iteration are appended to `scans[k]`.
  template <typename SliceFn>
  Status Iterate(const Scope& outer, int64_t length, std::vector<Value>* states, SliceFn slice,
                 std::vector<std::vector<Tensor>>* scans) const;

  std::shared_ptr<const SubgraphExecutor> body_;
  Config config_;
};

}  // namespace onnxgate::ref
