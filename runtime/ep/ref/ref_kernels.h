// The ref EP's registration table, one function per op family. Each family's function lives in
// kernels/register_<family>.cc and registers every kernel of that family explicitly.
#pragma once

#include "runtime/kernel/kernel_registry.h"

namespace onnxgate {

Status RegisterElementwiseKernels(KernelRegistry& registry);  // arithmetic, activations, math
Status RegisterTensorKernels(KernelRegistry& registry);       // shape and data movement
Status RegisterNnKernels(KernelRegistry& registry);           // MatMul, Gemm, Conv, pooling, norms
Status RegisterReductionKernels(KernelRegistry& registry);    // Reduce*, ArgMax, TopK, CumSum, ...
Status RegisterControlFlowKernels(KernelRegistry& registry);  // If, Loop, Scan, sequences, optionals, RNNs
Status RegisterIndexingKernels(KernelRegistry& registry);     // quantization, Resize, Pad, gather/scatter, detection
Status RegisterSignalKernels(KernelRegistry& registry);       // DFT, STFT, window functions, MelWeightMatrix
Status RegisterTextKernels(KernelRegistry& registry);         // StringNormalizer, TfIdfVectorizer
Status RegisterTrainingKernels(KernelRegistry& registry);     // ai.onnx.preview.training: Adagrad, Adam, Momentum

// Registers every family above.
Status RegisterRefKernels(KernelRegistry& registry);

}  // namespace onnxgate
