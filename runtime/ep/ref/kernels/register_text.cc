// The ref EP's registration table for StringNormalizer and TfIdfVectorizer, each line one version
// range of the op's ONNX schema (ONNX 1.12, opsets 1 to 17) with the types it allows.
#include "runtime/ep/ref/kernels/string_normalizer.h"
#include "runtime/ep/ref/kernels/tfidf_vectorizer.h"
#include "runtime/ep/ref/kernels/registration_table.h"
#include "runtime/ep/ref/kernels/type_lists.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref;         // NOLINT: the kernel classes of this table
using namespace ref::types;  // NOLINT: type-list shorthands
using namespace ref::table;  // NOLINT: Def

}  // namespace

Status RegisterTextKernels(KernelRegistry& registry) {
  // StringNormalizer-10: X and Y are string tensors; the schema has no type constraint.
  ONNXGATE_RETURN_IF_ERROR(
      Def(registry, "StringNormalizer", 10, 10, {}, FactoryOf<StringNormalizerKernel>()));
  return Def(registry, "TfIdfVectorizer", 9, 9, {{"T", {kStr, kI32, kI64}}, {"T1", {kF32}}},
             FactoryOf<TfIdfVectorizerKernel>());
}

}  // namespace onnxgate
