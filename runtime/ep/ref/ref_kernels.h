// The ref EP's registration tables, one per ONNX operator family. Each family's kernels live in
// kernels/<family>/ and its table in kernels/<family>/register_<family>.cc, which registers
// every kernel of that family explicitly. A family is the folder of onnx/defs/ that defines the
// op's schema, with two exceptions: the signal ops (DFT, STFT, the windows, MelWeightMatrix),
// which ONNX defines among the math ops, and ai.onnx.ml, whose folder is traditionalml.
#pragma once

#include <vector>

#include "runtime/kernel/kernel_registry.h"

namespace onnxgate {

Status RegisterMathKernels(KernelRegistry& registry);
Status RegisterNnKernels(KernelRegistry& registry);
Status RegisterTensorKernels(KernelRegistry& registry);
Status RegisterReductionKernels(KernelRegistry& registry);
Status RegisterLogicalKernels(KernelRegistry& registry);
Status RegisterGeneratorKernels(KernelRegistry& registry);
Status RegisterQuantizationKernels(KernelRegistry& registry);
Status RegisterObjectDetectionKernels(KernelRegistry& registry);
Status RegisterRnnKernels(KernelRegistry& registry);
Status RegisterControlflowKernels(KernelRegistry& registry);
Status RegisterSequenceKernels(KernelRegistry& registry);
Status RegisterOptionalKernels(KernelRegistry& registry);
Status RegisterSignalKernels(KernelRegistry& registry);
Status RegisterTextKernels(KernelRegistry& registry);
Status RegisterTrainingKernels(KernelRegistry& registry);
Status RegisterImageKernels(KernelRegistry& registry);
Status RegisterMlKernels(KernelRegistry& registry);

// One family: its folder name under kernels/ and its table.
struct RefKernelFamily {
  const char* name;
  Status (*register_kernels)(KernelRegistry& registry);
};

// Every family, in the order RegisterRefKernels registers them.
const std::vector<RefKernelFamily>& RefKernelFamilies();

// Registers every family.
Status RegisterRefKernels(KernelRegistry& registry);

}  // namespace onnxgate
