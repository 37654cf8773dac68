// The ref EP's registration table: every family's table, in one list.
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

const std::vector<RefKernelFamily>& RefKernelFamilies() {
  static const std::vector<RefKernelFamily> families = {
      {"math", &RegisterMathKernels},
      {"nn", &RegisterNnKernels},
      {"tensor", &RegisterTensorKernels},
      {"reduction", &RegisterReductionKernels},
      {"logical", &RegisterLogicalKernels},
      {"generator", &RegisterGeneratorKernels},
      {"quantization", &RegisterQuantizationKernels},
      {"object_detection", &RegisterObjectDetectionKernels},
      {"rnn", &RegisterRnnKernels},
      {"controlflow", &RegisterControlflowKernels},
      {"sequence", &RegisterSequenceKernels},
      {"optional", &RegisterOptionalKernels},
      {"signal", &RegisterSignalKernels},
      {"text", &RegisterTextKernels},
      {"training", &RegisterTrainingKernels},
      {"image", &RegisterImageKernels},
      {"ml", &RegisterMlKernels},
  };
  return families;
}

Status RegisterRefKernels(KernelRegistry& registry) {
  for (const RefKernelFamily& family : RefKernelFamilies()) {
    ONNXGATE_RETURN_IF_ERROR(family.register_kernels(registry));
  }
  return OkStatus();
}

}  // namespace onnxgate
