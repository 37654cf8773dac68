// The ref EP's registration table for tensor (shape and data movement) ops. Each line
// transcribes one version range of the op's ONNX schema (ONNX 1.12, opsets 1 to 17) with the
// types it allows; ranges are split where the semantics or the type list change.
#include "runtime/ep/ref/kernels/cast.h"
#include "runtime/ep/ref/kernels/concat_split.h"
#include "runtime/ep/ref/kernels/constant.h"
#include "runtime/ep/ref/kernels/expand_tile.h"
#include "runtime/ep/ref/kernels/gather.h"
#include "runtime/ep/ref/kernels/identity.h"
#include "runtime/ep/ref/kernels/random.h"
#include "runtime/ep/ref/kernels/range.h"
#include "runtime/ep/ref/kernels/reshape.h"
#include "runtime/ep/ref/kernels/shape_size.h"
#include "runtime/ep/ref/kernels/slice.h"
#include "runtime/ep/ref/kernels/transpose.h"
#include "runtime/ep/ref/kernels/registration_table.h"
#include "runtime/ep/ref/kernels/type_lists.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref;         // NOLINT: the kernel classes of this table
using namespace ref::types;  // NOLINT: type-list shorthands
using namespace ref::table;  // NOLINT: Def

Status RegisterShapeOps(KernelRegistry& r) {
  const KernelFactory reshape = FactoryOf<ReshapeKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Reshape", 1, 4, {{"T", F3()}}, reshape));  // shape attribute
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Reshape", 5, 12, {{"T", AllNoBF16()}}, reshape));  // shape input
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Reshape", 13, 13, {{"T", All()}}, reshape));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Reshape", 14, 18, {{"T", All()}}, reshape));  // allowzero
  const KernelFactory flatten = FactoryOf<FlattenKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Flatten", 1, 8, {{"T", F3()}}, flatten));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Flatten", 9, 10, {{"T", AllNoBF16()}}, flatten));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Flatten", 11, 12, {{"T", AllNoBF16()}}, flatten));  // negative axis
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Flatten", 13, 20, {{"T", All()}}, flatten));
  // Squeeze and Unsqueeze: axes attribute (1), negative axes (11), axes input (13).
  const std::pair<const char*, KernelFactory> squeezes[] = {
      {"Squeeze", FactoryOf<SqueezeKernel>()}, {"Unsqueeze", FactoryOf<UnsqueezeKernel>()}};
  for (const auto& [name, f] : squeezes) {
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 1, 10, {{"T", AllNoBF16()}}, f));
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 11, 12, {{"T", AllNoBF16()}}, f));
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 13, 20, {{"T", All()}}, f));
  }
  const KernelFactory shape = FactoryOf<ShapeKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Shape", 1, 12, {{"T", AllNoBF16()}, {"T1", {kI64}}}, shape));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Shape", 13, 14, {{"T", All()}, {"T1", {kI64}}}, shape));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Shape", 15, 18, {{"T", All()}, {"T1", {kI64}}}, shape));  // start/end
  const KernelFactory size = FactoryOf<SizeKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Size", 1, 12, {{"T", AllNoBF16()}, {"T1", {kI64}}}, size));
  return Def(r, "Size", 13, 18, {{"T", All()}, {"T1", {kI64}}}, size);
}

Status RegisterDataMovement(KernelRegistry& r) {
  const KernelFactory transpose = FactoryOf<TransposeKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Transpose", 1, 12, {{"T", AllNoBF16()}}, transpose));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Transpose", 13, 20, {{"T", All()}}, transpose));
  const KernelFactory concat = FactoryOf<ConcatKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Concat", 1, 3, {{"T", F3()}}, concat));  // axis defaults to 1
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Concat", 4, 10, {{"T", AllNoBF16()}}, concat));  // axis required
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Concat", 11, 12, {{"T", AllNoBF16()}}, concat));  // negative axis
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Concat", 13, 13, {{"T", All()}}, concat));
  const KernelFactory split = FactoryOf<SplitKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Split", 1, 1, {{"T", F3()}}, split));  // split attr or input
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Split", 2, 10, {{"T", AllNoBF16()}}, split));  // split attribute
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Split", 11, 12, {{"T", AllNoBF16()}}, split));  // negative axis
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Split", 13, 17, {{"T", All()}}, split));        // split input
  const List tind = {kI32, kI64};
  const KernelFactory gather = FactoryOf<GatherKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Gather", 1, 10, {{"T", AllNoBF16()}, {"Tind", tind}}, gather));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Gather", 11, 12, {{"T", AllNoBF16()}, {"Tind", tind}}, gather));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Gather", 13, 13, {{"T", All()}, {"Tind", tind}}, gather));
  const KernelFactory slice = FactoryOf<SliceKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Slice", 1, 9, {{"T", AllNoBF16()}}, slice));  // attributes
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Slice", 10, 10, {{"T", AllNoBF16()}, {"Tind", tind}}, slice));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Slice", 11, 12, {{"T", AllNoBF16()}, {"Tind", tind}}, slice));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Slice", 13, 13, {{"T", All()}, {"Tind", tind}}, slice));
  const KernelFactory expand = FactoryOf<ExpandKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Expand", 8, 12, {{"T", AllNoBF16()}}, expand));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Expand", 13, 13, {{"T", All()}}, expand));
  const KernelFactory tile = FactoryOf<TileKernel>();
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Tile", 1, 5, {{"T", F3()}, {"T1", {kI64}}}, tile));  // tiles, axis
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Tile", 6, 12, {{"T", AllNoBF16()}, {"T1", {kI64}}}, tile));
  return Def(r, "Tile", 13, 13, {{"T", All()}, {"T1", {kI64}}}, tile);
}

Status RegisterValueOps(KernelRegistry& r) {
  const KernelFactory identity = FactoryOf<IdentityKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Identity", 1, 12, {{"T", AllNoBF16()}}, identity));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Identity", 13, 13, {{"T", All()}}, identity));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Identity", 14, 15, {{"V", All()}}, identity));  // + sequences
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Identity", 16, 18, {{"V", All()}}, identity));  // + optionals
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
  // Cast: `to` is a type name in 1 and a type number from 6; strings from 9, bfloat16 from 13.
  const List cast6 = F3() + Ints() + List{kBool};
  const KernelFactory cast = FactoryOf<CastKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Cast", 1, 5, {{"T1", cast6}, {"T2", cast6}}, cast));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Cast", 6, 8, {{"T1", cast6}, {"T2", cast6}}, cast));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Cast", 9, 12, {{"T1", cast6 + List{kStr}}, {"T2", cast6 + List{kStr}}}, cast));
  const List cast13 = cast6 + List{kStr, kBF16};
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Cast", 13, 18, {{"T1", cast13}, {"T2", cast13}}, cast));
  return Def(r, "CastLike", 15, 18, {{"T1", cast13}, {"T2", cast13}},
             FactoryOf<CastLikeKernel>());
}

}  // namespace

Status RegisterTensorKernels(KernelRegistry& registry) {
  ONNXGATE_RETURN_IF_ERROR(RegisterShapeOps(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterDataMovement(registry));
  return RegisterValueOps(registry);
}

}  // namespace onnxgate
