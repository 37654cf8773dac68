// The ref EP's registration table.
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

Status RegisterRefKernels(KernelRegistry& registry) {
  RETURN_IF_ERROR(RegisterElementwiseKernels(registry));
  RETURN_IF_ERROR(RegisterTensorKernels(registry));
  RETURN_IF_ERROR(RegisterNnKernels(registry));
  RETURN_IF_ERROR(RegisterReductionKernels(registry));
  RETURN_IF_ERROR(RegisterControlFlowKernels(registry));
  RETURN_IF_ERROR(RegisterIndexingKernels(registry));
  RETURN_IF_ERROR(RegisterSignalKernels(registry));
  RETURN_IF_ERROR(RegisterTextKernels(registry));
  RETURN_IF_ERROR(RegisterTrainingKernels(registry));
  return OkStatus();
}

}  // namespace onnxgate
