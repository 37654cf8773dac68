// The ref EP's registration table for ONNX's generator family (onnx/defs/generator): Constant, ConstantOfShape, Range, EyeLike and the random generators. Each line
// transcribes one version range of the op's ONNX schema with the types it allows; ranges are
// split where the semantics or the type list change.
#include "runtime/ep/ref/kernels/common/registration_table.h"
#include "runtime/ep/ref/kernels/common/type_lists.h"
#include "runtime/ep/ref/kernels/generator/constant.h"
#include "runtime/ep/ref/kernels/generator/random.h"
#include "runtime/ep/ref/kernels/generator/range.h"
#include "runtime/ep/ref/kernels/tensor/trilu.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref;         // NOLINT: the kernel classes of this table
using namespace ref::types;  // NOLINT: type-list shorthands
using namespace ref::table;  // NOLINT: Def

Status RegisterGenerators(KernelRegistry& r) {
  const KernelFactory constant = FactoryOf<ConstantKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Constant", 1, 8, {{"T", F3()}}, constant));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Constant", 9, 10, {{"T", AllNoBF16()}}, constant));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Constant", 11, 11, {{"T", AllNoBF16()}}, constant));  // sparse_value
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Constant", 12, 12, {{"T", AllNoBF16()}}, constant));  // value_* forms
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Constant", 13, 18, {{"T", All()}}, constant));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ConstantOfShape", 9, 19,
                               {{"T1", {kI64}}, {"T2", F3() + Ints() + List{kBool}}},
                               FactoryOf<ConstantOfShapeKernel>()));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Range", 11, 26, {{"T", {kF32, kF64, kI16, kI32, kI64}}}, FactoryOf<RangeKernel>()));
  // The random generators: T (or T2) is the output type, T1 the input a *Like op copies.
  const KernelFactory random = FactoryOf<RandomKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "RandomUniform", 1, 21, {{"T", F3()}}, random));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "RandomNormal", 1, 21, {{"T", F3()}}, random));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "RandomUniformLike", 1, 21, {{"T1", AllNoBF16()}, {"T2", F3()}}, random));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "RandomNormalLike", 1, 21, {{"T1", AllNoBF16()}, {"T2", F3()}}, random));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Bernoulli", 15, 21, {{"T1", F3()}, {"T2", F4() + Ints() + List{kBool}}}, random));
  const List eye = F3() + Ints() + List{kBool};
  return Def(r, "EyeLike", 9, 21, {{"T1", eye}, {"T2", eye}}, FactoryOf<EyeLikeKernel>());
}

}  // namespace

Status RegisterGeneratorKernels(KernelRegistry& registry) {
  return RegisterGenerators(registry);
}

}  // namespace onnxgate
