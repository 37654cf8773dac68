// The ref EP's registration table.
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

Status RegisterRefKernels(KernelRegistry& registry) {
  ONNXGATE_RETURN_IF_ERROR(RegisterElementwiseKernels(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterTensorKernels(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterNnKernels(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterReductionKernels(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterControlFlowKernels(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterIndexingKernels(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterSignalKernels(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterTextKernels(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterTrainingKernels(registry));
  return OkStatus();
}

}  // namespace onnxgate
