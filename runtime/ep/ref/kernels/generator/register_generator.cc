// The ref EP's registration table for ONNX's generator family (onnx/defs/generator): Constant,
// ConstantOfShape, Range, EyeLike and the random generators. Each line transcribes one version
// range of the op's ONNX schema with the types it allows; ranges are split where the semantics or
// the type list change.
#include "runtime/ep/ref/kernels/common/registration_table.h"
#include "runtime/ep/ref/kernels/common/type_lists.h"
#include "runtime/ep/ref/kernels/generator/constant.h"
#include "runtime/ep/ref/kernels/generator/eye_like.h"
#include "runtime/ep/ref/kernels/generator/multinomial.h"
#include "runtime/ep/ref/kernels/generator/random.h"
#include "runtime/ep/ref/kernels/generator/range.h"
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
  // The newer element types: FLOAT8 (19), INT4/UINT4 (21), FLOAT4E2M1 (23), FLOAT8E8M0 (24),
  // INT2/UINT2 (25).
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Constant", 19, 20, {{"T", AllThrough(19)}}, constant));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Constant", 21, 22, {{"T", AllThrough(21)}}, constant));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Constant", 23, 23, {{"T", AllThrough(23)}}, constant));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Constant", 24, 24, {{"T", AllThrough(24)}}, constant));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Constant", 25, 25, {{"T", AllThrough(25)}}, constant));
  // ConstantOfShape: bfloat16 and FLOAT8 join in 20, then the types as for Constant.
  const KernelFactory constant_of_shape = FactoryOf<ConstantOfShapeKernel>();
  const List cos9 = F3() + Ints() + List{kBool};
  const List cos20 = cos9 + List{kBF16} + F8();
  const List cos21 = cos20 + List{kU4, kI4};
  const List cos23 = cos21 + List{kF4E2M1};
  const List cos24 = cos23 + List{kF8E8M0};
  const List cos25 = cos24 + List{kU2, kI2};
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "ConstantOfShape", 9, 19, {{"T1", {kI64}}, {"T2", cos9}}, constant_of_shape));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "ConstantOfShape", 20, 20, {{"T1", {kI64}}, {"T2", cos20}}, constant_of_shape));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "ConstantOfShape", 21, 22, {{"T1", {kI64}}, {"T2", cos21}}, constant_of_shape));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "ConstantOfShape", 23, 23, {{"T1", {kI64}}, {"T2", cos23}}, constant_of_shape));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "ConstantOfShape", 24, 24, {{"T1", {kI64}}, {"T2", cos24}}, constant_of_shape));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "ConstantOfShape", 25, 25, {{"T1", {kI64}}, {"T2", cos25}}, constant_of_shape));
  // Range-27 adds float16 and bfloat16, computed in stash_type.
  const KernelFactory range = FactoryOf<RangeKernel>();
  const List range11 = {kF32, kF64, kI16, kI32, kI64};
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Range", 11, 26, {{"T", range11}}, range));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Range", 27, 27, {{"T", range11 + List{kF16, kBF16}}}, range));
  // The random generators: T (or T2) is the output type, T1 the input a *Like op copies.
  // Version 22 adds bfloat16.
  const KernelFactory random = FactoryOf<RandomKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "RandomUniform", 1, 21, {{"T", F3()}}, random));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "RandomUniform", 22, 22, {{"T", F4()}}, random));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "RandomNormal", 1, 21, {{"T", F3()}}, random));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "RandomNormal", 22, 22, {{"T", F4()}}, random));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "RandomUniformLike", 1, 21, {{"T1", AllNoBF16()}, {"T2", F3()}}, random));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "RandomUniformLike", 22, 22, {{"T1", All()}, {"T2", F4()}}, random));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "RandomNormalLike", 1, 21, {{"T1", AllNoBF16()}, {"T2", F3()}}, random));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "RandomNormalLike", 22, 22, {{"T1", All()}, {"T2", F4()}}, random));
  const List bernoulli_out = F4() + Ints() + List{kBool};
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Bernoulli", 15, 21, {{"T1", F3()}, {"T2", bernoulli_out}}, random));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Bernoulli", 22, 22, {{"T1", F4()}, {"T2", bernoulli_out}}, random));
  const KernelFactory multinomial = FactoryOf<MultinomialKernel>();
  const List indices = {kI32, kI64};
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Multinomial", 7, 21, {{"T1", F3()}, {"T2", indices}}, multinomial));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Multinomial", 22, 22, {{"T1", F4()}, {"T2", indices}}, multinomial));
  // EyeLike-22 adds bfloat16.
  const KernelFactory eye_like = FactoryOf<EyeLikeKernel>();
  const List eye = F3() + Ints() + List{kBool};
  ONNXGATE_RETURN_IF_ERROR(Def(r, "EyeLike", 9, 21, {{"T1", eye}, {"T2", eye}}, eye_like));
  return Def(r, "EyeLike", 22, 22, {{"T1", eye + List{kBF16}}, {"T2", eye + List{kBF16}}},
             eye_like);
}

}  // namespace

Status RegisterGeneratorKernels(KernelRegistry& registry) { return RegisterGenerators(registry); }

}  // namespace onnxgate
