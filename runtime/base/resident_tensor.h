// ResidentTensor: a tensor that stays in an execution provider's own memory or layout between
// that provider's nodes (a oneDNN blocked layout, a device buffer), so a provider does not
// convert to and from ONNX's plain host layout around every node.
//
// Contract: a resident tensor never leaves the session that made it. The graph executor hands
// one only to a kernel that reads that memory domain as it is (OpKernel::resident_domain()); any
// other consumer, and every graph output, gets the host copy ToHost makes, and the session counts
// each such copy as a transfer (RunStats).
#pragma once

#include <cstdint>
#include <string>

#include "runtime/base/shape.h"
#include "runtime/base/status.h"
#include "runtime/base/tensor.h"

namespace onnxgate {

class ResidentTensor {
 public:
  virtual ~ResidentTensor() = default;
  // The memory domain that holds the data: the provider context whose kernels read it as it is.
  virtual const void* domain() const = 0;
  // The provider, for messages ("dnnl").
  virtual const std::string& provider() const = 0;
  virtual DataType dtype() const = 0;
  virtual const Shape& shape() const = 0;
  // A host tensor in ONNX's plain (row-major, dense) layout with the same contents. Errors are
  // the provider's, converted at its boundary.
  virtual StatusOr<Tensor> ToHost() const = 0;
};

// The copies of resident tensors to the host that one run made: for consumers on another
// provider (or kernels that read host tensors only) and for graph outputs.
struct TransferStats {
  int64_t count = 0;
  int64_t bytes = 0;  // of the host tensors made
};

}  // namespace onnxgate
