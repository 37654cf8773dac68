// The ref EP's registration table for the ai.onnx.ml domain (ONNX's onnx/defs/traditionalml),
// each line one version range of the op's ONNX schema with the types it allows.
#include "runtime/ep/ref/kernels/common/type_lists.h"
#include "runtime/ep/ref/kernels/ml/array_feature_extractor.h"
#include "runtime/ep/ref/kernels/ml/binarizer.h"
#include "runtime/ep/ref/kernels/ml/label_encoder.h"
#include "runtime/ep/ref/kernels/ml/tree_ensemble.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref;         // NOLINT: the kernel classes of this table
using namespace ref::types;  // NOLINT: type-list shorthands

// Registers `factory` for ai.onnx.ml `op`, versions since..until (both inclusive).
Status MlDef(KernelRegistry& registry, const char* op, int since, int until,
             std::vector<TypeConstraint> constraints, KernelFactory factory) {
  return registry.Register(
      KernelDef{"ai.onnx.ml", op, since, until, std::move(constraints), std::move(factory)});
}

}  // namespace

Status RegisterMlKernels(KernelRegistry& r) {
  ONNXGATE_RETURN_IF_ERROR(MlDef(r, "ArrayFeatureExtractor", 1, 1,
                                 {{"T", {kF32, kF64, kI64, kI32, kStr}}},
                                 FactoryOf<ArrayFeatureExtractorKernel>()));
  ONNXGATE_RETURN_IF_ERROR(
      MlDef(r, "Binarizer", 1, 1, {{"T", {kF32, kF64, kI64, kI32}}}, FactoryOf<BinarizerKernel>()));
  // LabelEncoder-2 maps strings, int64 and floats (comparing float keys bit by bit); 4 adds
  // int32, int16 and double, the *_tensor attributes, and NaN keys matching any NaN.
  const KernelFactory label_encoder = FactoryOf<LabelEncoderKernel>();
  const List le2 = {kStr, kI64, kF32};
  const List le4 = {kStr, kI64, kF32, kI32, kI16, kF64};
  ONNXGATE_RETURN_IF_ERROR(
      MlDef(r, "LabelEncoder", 2, 3, {{"T1", le2}, {"T2", le2}}, label_encoder));
  ONNXGATE_RETURN_IF_ERROR(
      MlDef(r, "LabelEncoder", 4, 4, {{"T1", le4}, {"T2", le4}}, label_encoder));
  return MlDef(r, "TreeEnsemble", 5, 5, {{"T", {kF32, kF64, kF16}}},
               FactoryOf<TreeEnsembleKernel>());
}

}  // namespace onnxgate
