// The ref EP's registration table for ONNX's tensor family (onnx/defs/tensor): shape and data
// movement, Cast, gather and scatter, Pad, Resize, GridSample and the other tensor ops. Each line
// transcribes one version range of the op's ONNX schema with the types it allows; ranges are
// split where the semantics or the type list change.
#include "runtime/ep/ref/kernels/common/registration_table.h"
#include "runtime/ep/ref/kernels/common/type_lists.h"
#include "runtime/ep/ref/kernels/tensor/affine_grid.h"
#include "runtime/ep/ref/kernels/tensor/bit_cast.h"
#include "runtime/ep/ref/kernels/tensor/cast.h"
#include "runtime/ep/ref/kernels/tensor/center_crop_pad.h"
#include "runtime/ep/ref/kernels/tensor/compress.h"
#include "runtime/ep/ref/kernels/tensor/concat_split.h"
#include "runtime/ep/ref/kernels/tensor/depth_space.h"
#include "runtime/ep/ref/kernels/tensor/gather.h"
#include "runtime/ep/ref/kernels/tensor/gather_scatter_elements.h"
#include "runtime/ep/ref/kernels/tensor/gather_scatter_nd.h"
#include "runtime/ep/ref/kernels/tensor/grid_sample.h"
#include "runtime/ep/ref/kernels/tensor/identity.h"
#include "runtime/ep/ref/kernels/tensor/is_nan_inf.h"
#include "runtime/ep/ref/kernels/tensor/non_zero.h"
#include "runtime/ep/ref/kernels/tensor/one_hot.h"
#include "runtime/ep/ref/kernels/tensor/pad.h"
#include "runtime/ep/ref/kernels/tensor/reshape.h"
#include "runtime/ep/ref/kernels/tensor/resize.h"
#include "runtime/ep/ref/kernels/tensor/reverse_sequence.h"
#include "runtime/ep/ref/kernels/tensor/shape_size.h"
#include "runtime/ep/ref/kernels/tensor/slice.h"
#include "runtime/ep/ref/kernels/tensor/tensor_scatter.h"
#include "runtime/ep/ref/kernels/tensor/tile.h"
#include "runtime/ep/ref/kernels/tensor/transpose.h"
#include "runtime/ep/ref/kernels/tensor/trilu.h"
#include "runtime/ep/ref/kernels/tensor/unique.h"
#include "runtime/ep/ref/kernels/tensor/where.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref;         // NOLINT: the kernel classes of this table
using namespace ref::types;  // NOLINT: type-list shorthands
using namespace ref::table;  // NOLINT: Def

// Opsets 19 (FLOAT8), 21 (INT4, UINT4), 23 (FLOAT4E2M1), 24 (FLOAT8E8M0) and 25 (INT2, UINT2)
// only widened the "all types" constraint `name` of the data-movement ops: one line per version,
// each with AllThrough(version), plus the constraints in `others`.
Status DefWidenedVersions(KernelRegistry& r, const char* op, const std::vector<int>& sinces,
                          const char* name, const KernelFactory& f,
                          const std::vector<TypeConstraint>& others = {}) {
  for (size_t i = 0; i < sinces.size(); ++i) {
    const int until = i + 1 < sinces.size() ? sinces[i + 1] - 1 : sinces[i];
    std::vector<TypeConstraint> constraints = {{name, AllThrough(sinces[i])}};
    constraints.insert(constraints.end(), others.begin(), others.end());
    ONNXGATE_RETURN_IF_ERROR(Def(r, op, sinces[i], until, std::move(constraints), f));
  }
  return OkStatus();
}

Status RegisterShapeOps(KernelRegistry& r) {
  const KernelFactory reshape = FactoryOf<ReshapeKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Reshape", 1, 4, {{"T", F3()}}, reshape));  // shape attribute
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Reshape", 5, 12, {{"T", AllNoBF16()}}, reshape));  // shape input
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Reshape", 13, 13, {{"T", All()}}, reshape));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Reshape", 14, 18, {{"T", All()}}, reshape));  // allowzero
  ONNXGATE_RETURN_IF_ERROR(DefWidenedVersions(r, "Reshape", {19, 21, 23, 24, 25}, "T", reshape));
  // Squeeze and Unsqueeze: axes attribute (1), negative axes (11), axes input (13).
  const std::pair<const char*, KernelFactory> squeezes[] = {
      {"Squeeze", FactoryOf<SqueezeKernel>()}, {"Unsqueeze", FactoryOf<UnsqueezeKernel>()}};
  for (const auto& [name, f] : squeezes) {
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 1, 10, {{"T", AllNoBF16()}}, f));
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 11, 12, {{"T", AllNoBF16()}}, f));
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 13, 20, {{"T", All()}}, f));
    ONNXGATE_RETURN_IF_ERROR(DefWidenedVersions(r, name, {21, 23, 24, 25}, "T", f));
  }
  const KernelFactory shape = FactoryOf<ShapeKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Shape", 1, 12, {{"T", AllNoBF16()}, {"T1", {kI64}}}, shape));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Shape", 13, 14, {{"T", All()}, {"T1", {kI64}}}, shape));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Shape", 15, 18, {{"T", All()}, {"T1", {kI64}}}, shape));  // start/end
  ONNXGATE_RETURN_IF_ERROR(
      DefWidenedVersions(r, "Shape", {19, 21, 23, 24, 25}, "T", shape, {{"T1", {kI64}}}));
  const KernelFactory size = FactoryOf<SizeKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Size", 1, 12, {{"T", AllNoBF16()}, {"T1", {kI64}}}, size));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Size", 13, 18, {{"T", All()}, {"T1", {kI64}}}, size));
  return DefWidenedVersions(r, "Size", {19, 21, 23, 24, 25}, "T", size, {{"T1", {kI64}}});
}

Status RegisterDataMovement(KernelRegistry& r) {
  const KernelFactory transpose = FactoryOf<TransposeKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Transpose", 1, 12, {{"T", AllNoBF16()}}, transpose));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Transpose", 13, 20, {{"T", All()}}, transpose));
  ONNXGATE_RETURN_IF_ERROR(DefWidenedVersions(r, "Transpose", {21, 23, 24, 25}, "T", transpose));
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
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Split", 18, 18, {{"T", All()}}, split));        // num_outputs
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
  // BitCast: every type but string, on both sides.
  List bit_cast_types;
  for (DataType t : AllThrough(25)) {
    if (t != kStr) bit_cast_types.push_back(t);
  }
  ONNXGATE_RETURN_IF_ERROR(Def(r, "BitCast", 26, 26,
                               {{"T1", bit_cast_types}, {"T2", bit_cast_types}},
                               FactoryOf<BitCastKernel>()));
  ONNXGATE_RETURN_IF_ERROR(DefWidenedVersions(r, "Identity", {19, 21, 23, 24, 25}, "V", identity));
  // Cast: `to` is a type name in 1 and a type number from 6; strings from 9, bfloat16 from 13.
  const List cast6 = F3() + Ints() + List{kBool};
  const KernelFactory cast = FactoryOf<CastKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Cast", 1, 5, {{"T1", cast6}, {"T2", cast6}}, cast));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Cast", 6, 8, {{"T1", cast6}, {"T2", cast6}}, cast));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Cast", 9, 12, {{"T1", cast6 + List{kStr}}, {"T2", cast6 + List{kStr}}}, cast));
  const List cast13 = cast6 + List{kStr, kBF16};
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Cast", 13, 18, {{"T1", cast13}, {"T2", cast13}}, cast));
  // From 19 the type list grows: FLOAT8 with `saturate` (19), INT4/UINT4 (21), FLOAT4E2M1 (23),
  // FLOAT8E8M0 with `round_mode` (24), INT2/UINT2 (25). Cast-28 adds FLOAT6E2M3 and FLOAT6E3M2,
  // which onnxgate does not load at all; its other conversions are those of Cast-25.
  const List cast19 = cast13 + F8();
  const List cast21 = cast19 + List{kU4, kI4};
  const List cast23 = cast21 + List{kF4E2M1};
  const List cast24 = cast23 + List{kF8E8M0};
  const List cast25 = cast24 + List{kU2, kI2};
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Cast", 19, 20, {{"T1", cast19}, {"T2", cast19}}, cast));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Cast", 21, 22, {{"T1", cast21}, {"T2", cast21}}, cast));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Cast", 23, 23, {{"T1", cast23}, {"T2", cast23}}, cast));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Cast", 24, 24, {{"T1", cast24}, {"T2", cast24}}, cast));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Cast", 25, 27, {{"T1", cast25}, {"T2", cast25}}, cast));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Cast", 28, 28, {{"T1", cast25}, {"T2", cast25}}, cast));
  const KernelFactory cast_like = FactoryOf<CastLikeKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "CastLike", 15, 18, {{"T1", cast13}, {"T2", cast13}}, cast_like));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "CastLike", 19, 20, {{"T1", cast19}, {"T2", cast19}}, cast_like));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "CastLike", 21, 22, {{"T1", cast21}, {"T2", cast21}}, cast_like));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "CastLike", 23, 23, {{"T1", cast23}, {"T2", cast23}}, cast_like));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "CastLike", 24, 24, {{"T1", cast24}, {"T2", cast24}}, cast_like));
  return Def(r, "CastLike", 25, 25, {{"T1", cast25}, {"T2", cast25}}, cast_like);
}

Status RegisterResampling(KernelRegistry& r) {
  const KernelFactory resize = FactoryOf<ResizeKernel>();
  // Upsample-7 takes scales as an attribute, -9 as an input; -10 is deprecated in favour of
  // Resize. Resize-10 is Upsample-9 that may downsample; -11 adds roi, sizes and the modes.
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Upsample", 7, 8, {{"T", AllNoBF16()}}, resize));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Upsample", 9, 9, {{"T", AllNoBF16()}}, resize));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Resize", 10, 10, {{"T", AllNoBF16()}}, resize));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Resize", 11, 12, {{"T1", AllNoBF16()}, {"T2", F3()}}, resize));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Resize", 13, 17, {{"T1", All()}, {"T2", F3()}}, resize));
  // Resize-18 adds antialias, axes and keep_aspect_ratio_policy; -19 half_pixel_symmetric.
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Resize", 18, 18, {{"T1", All()}, {"T2", F3()}}, resize));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Resize", 19, 19, {{"T1", All()}, {"T2", F3()}}, resize));
  // GridSample: X and Y are T1 (every type: nearest copies, linear and cubic need numbers), the
  // grid T2. -20 renames the modes and goes N-D; -22 adds bfloat16.
  const KernelFactory grid_sample = FactoryOf<GridSampleKernel>();
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "GridSample", 16, 19, {{"T1", AllNoBF16()}, {"T2", F3()}}, grid_sample));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "GridSample", 20, 21, {{"T1", AllNoBF16()}, {"T2", F3()}}, grid_sample));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "GridSample", 22, 22, {{"T1", All()}, {"T2", F4()}}, grid_sample));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "AffineGrid", 20, 20, {{"T1", F4()}, {"T2", {kI64}}}, FactoryOf<AffineGridKernel>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "CenterCropPad", 18, 18, {{"T", All()}, {"Tind", {kI32, kI64}}},
                               FactoryOf<CenterCropPadKernel>()));
  // Pad-1 names the pads 'paddings', -2 'pads'; -11 moves pads and the constant to inputs.
  const KernelFactory pad = FactoryOf<PadKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Pad", 1, 1, {{"T", F3()}}, pad));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Pad", 2, 10, {{"T", F3()}}, pad));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Pad", 11, 12, {{"T", Ints() + F3()}}, pad));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Pad", 13, 17, {{"T", All()}}, pad));
  // Pad-18 adds the axes input (Tind), -19 the wrap mode.
  const std::vector<TypeConstraint> axes = {{"Tind", {kI32, kI64}}};
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Pad", 18, 18, {{"T", All()}, axes[0]}, pad));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Pad", 19, 20, {{"T", All()}, axes[0]}, pad));
  ONNXGATE_RETURN_IF_ERROR(DefWidenedVersions(r, "Pad", {21, 23, 24, 25}, "T", pad, axes));
  const KernelFactory depth = FactoryOf<DepthSpaceKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "DepthToSpace", 1, 10, {{"T", AllNoBF16()}}, depth));  // DCR only
  ONNXGATE_RETURN_IF_ERROR(Def(r, "DepthToSpace", 11, 12, {{"T", AllNoBF16()}}, depth));  // + mode
  ONNXGATE_RETURN_IF_ERROR(Def(r, "DepthToSpace", 13, 27, {{"T", All()}}, depth));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "DepthToSpace", 28, 28, {{"T", All()}}, depth));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "SpaceToDepth", 1, 12, {{"T", AllNoBF16()}}, depth));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "SpaceToDepth", 13, 27, {{"T", All()}}, depth));
  return Def(r, "SpaceToDepth", 28, 28, {{"T", All()}}, depth);  // + mode
}

Status RegisterGatherScatter(KernelRegistry& r) {
  const List tind = {kI32, kI64};
  const KernelFactory gather_elements = FactoryOf<GatherElementsKernel>();
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "GatherElements", 11, 12, {{"T", AllNoBF16()}, {"Tind", tind}}, gather_elements));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "GatherElements", 13, 13, {{"T", All()}, {"Tind", tind}}, gather_elements));
  // Scatter-9/10 is ScatterElements under its first name (Scatter-11 is deprecated).
  const KernelFactory scatter = FactoryOf<ScatterElementsKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Scatter", 9, 10, {{"T", AllNoBF16()}, {"Tind", tind}}, scatter));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "ScatterElements", 11, 12, {{"T", AllNoBF16()}, {"Tind", tind}}, scatter));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "ScatterElements", 13, 15, {{"T", All()}, {"Tind", tind}}, scatter));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "ScatterElements", 16, 17, {{"T", All()}, {"Tind", tind}}, scatter));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "ScatterElements", 18, 18, {{"T", All()}, {"Tind", tind}}, scatter));  // max, min
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "TensorScatter", 24, 24, {{"T", AllThrough(24)}}, FactoryOf<TensorScatterKernel>()));
  const KernelFactory gather_nd = FactoryOf<GatherNDKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GatherND", 11, 11, {{"T", AllNoBF16()}}, gather_nd));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "GatherND", 12, 12, {{"T", AllNoBF16()}}, gather_nd));  // batch_dims
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GatherND", 13, 13, {{"T", All()}}, gather_nd));
  const KernelFactory scatter_nd = FactoryOf<ScatterNDKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ScatterND", 11, 12, {{"T", AllNoBF16()}}, scatter_nd));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ScatterND", 13, 15, {{"T", All()}}, scatter_nd));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ScatterND", 16, 17, {{"T", All()}}, scatter_nd));  // reduction
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ScatterND", 18, 18, {{"T", All()}}, scatter_nd));  // max, min
  // Compress-11 allows a negative axis.
  const KernelFactory compress = FactoryOf<CompressKernel>();
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Compress", 9, 10, {{"T", AllNoBF16()}, {"T1", {kBool}}}, compress));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Compress", 11, 27, {{"T", AllNoBF16()}, {"T1", {kBool}}}, compress));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Compress", 28, 28, {{"T", All()}, {"T1", {kBool}}}, compress));
  const KernelFactory reverse = FactoryOf<ReverseSequenceKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ReverseSequence", 10, 27, {{"T", AllNoBF16()}}, reverse));
  return Def(r, "ReverseSequence", 28, 28, {{"T", All()}}, reverse);
}

Status RegisterElementTests(KernelRegistry& r) {
  const KernelFactory is_nan = FactoryOf<IsNaNKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "IsNaN", 9, 12, {{"T1", F3()}, {"T2", {kBool}}}, is_nan));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "IsNaN", 13, 19, {{"T1", F4()}, {"T2", {kBool}}}, is_nan));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "IsInf", 10, 19, {{"T1", {kF32, kF64}}, {"T2", {kBool}}}, FactoryOf<IsInfKernel>()));
  // IsNaN-20 and IsInf-20 add bfloat16 and float16 (IsInf) and the FLOAT8 types.
  ONNXGATE_RETURN_IF_ERROR(Def(r, "IsNaN", 20, 20, {{"T1", F4() + F8()}, {"T2", {kBool}}}, is_nan));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "IsInf", 20, 20, {{"T1", F4() + F8()}, {"T2", {kBool}}}, FactoryOf<IsInfKernel>()));
  const KernelFactory where = FactoryOf<WhereKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Where", 9, 15, {{"B", {kBool}}, {"T", AllNoBF16()}}, where));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Where", 16, 16, {{"B", {kBool}}, {"T", All()}}, where));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "NonZero", 9, 12, {{"T", AllNoBF16()}}, FactoryOf<NonZeroKernel>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "NonZero", 13, 13, {{"T", All()}}, FactoryOf<NonZeroKernel>()));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Unique", 11, 27, {{"T", AllNoBF16()}}, FactoryOf<UniqueKernel>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Unique", 28, 28, {{"T", All()}}, FactoryOf<UniqueKernel>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Trilu", 14, 14, {{"T", All()}}, FactoryOf<TriluKernel>()));
  // OneHot-11 accepts negative indices and axes.
  const List numeric = Ints() + F3();
  const KernelFactory one_hot = FactoryOf<OneHotKernel>();
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "OneHot", 9, 10, {{"T1", numeric}, {"T2", numeric}, {"T3", AllNoBF16()}}, one_hot));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "OneHot", 11, 27, {{"T1", numeric}, {"T2", numeric}, {"T3", AllNoBF16()}}, one_hot));
  return Def(r, "OneHot", 28, 28, {{"T1", numeric}, {"T2", numeric}, {"T3", All()}}, one_hot);
}

}  // namespace

Status RegisterTensorKernels(KernelRegistry& registry) {
  ONNXGATE_RETURN_IF_ERROR(RegisterShapeOps(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterDataMovement(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterValueOps(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterResampling(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterGatherScatter(registry));
  return RegisterElementTests(registry);
}

}  // namespace onnxgate
