// The ref EP's registration table for ONNX's nn family (onnx/defs/nn): convolutions, pooling,
// the normalizations, Dropout, Flatten, the quantized convolutions, MaxRoiPool and
// TfIdfVectorizer. Each line transcribes one version range of the op's ONNX schema with the
// types it allows; ranges are split where the semantics or the type list change.
#include "runtime/ep/ref/kernels/common/registration_table.h"
#include "runtime/ep/ref/kernels/common/type_lists.h"
#include "runtime/ep/ref/kernels/nn/attention.h"
#include "runtime/ep/ref/kernels/nn/batch_normalization.h"
#include "runtime/ep/ref/kernels/nn/causal_conv_with_state.h"
#include "runtime/ep/ref/kernels/nn/col2im.h"
#include "runtime/ep/ref/kernels/nn/conv.h"
#include "runtime/ep/ref/kernels/nn/conv_transpose.h"
#include "runtime/ep/ref/kernels/nn/deform_conv.h"
#include "runtime/ep/ref/kernels/nn/dropout.h"
#include "runtime/ep/ref/kernels/nn/flatten.h"
#include "runtime/ep/ref/kernels/nn/flex_attention.h"
#include "runtime/ep/ref/kernels/nn/group_normalization.h"
#include "runtime/ep/ref/kernels/nn/instance_normalization.h"
#include "runtime/ep/ref/kernels/nn/layer_normalization.h"
#include "runtime/ep/ref/kernels/nn/linear_attention.h"
#include "runtime/ep/ref/kernels/nn/lp_normalization.h"
#include "runtime/ep/ref/kernels/nn/lrn.h"
#include "runtime/ep/ref/kernels/nn/max_roi_pool.h"
#include "runtime/ep/ref/kernels/nn/max_unpool.h"
#include "runtime/ep/ref/kernels/nn/mean_variance_normalization.h"
#include "runtime/ep/ref/kernels/nn/pool.h"
#include "runtime/ep/ref/kernels/nn/quantized_conv.h"
#include "runtime/ep/ref/kernels/nn/rms_normalization.h"
#include "runtime/ep/ref/kernels/nn/rotary_embedding.h"
#include "runtime/ep/ref/kernels/nn/shrink.h"
#include "runtime/ep/ref/kernels/nn/tfidf_vectorizer.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref;         // NOLINT: the kernel classes of this table
using namespace ref::types;  // NOLINT: type-list shorthands
using namespace ref::table;  // NOLINT: Def

Status RegisterConvolutions(KernelRegistry& r) {
  const KernelFactory conv = FactoryOf<Conv>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Conv", 1, 10, {{"T", F3()}}, conv));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Conv", 11, 21, {{"T", F3()}}, conv));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Conv", 22, 22, {{"T", F4()}}, conv));  // adds bfloat16
  const KernelFactory conv_transpose = FactoryOf<ConvTranspose>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ConvTranspose", 1, 10, {{"T", F3()}}, conv_transpose));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ConvTranspose", 11, 21, {{"T", F3()}}, conv_transpose));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "ConvTranspose", 22, 22, {{"T", F4()}}, conv_transpose));
  const KernelFactory deform_conv = FactoryOf<DeformConv>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "DeformConv", 19, 21, {{"T", F3()}}, deform_conv));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "DeformConv", 22, 22, {{"T", F4()}}, deform_conv));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Col2Im", 18, 18, {{"T", All()}}, FactoryOf<ref::Col2Im>()));
  const List q8 = {kI8, kU8};
  const KernelFactory quantized = FactoryOf<QuantizedConvKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "QLinearConv", 10, 10,
                               {{"T1", q8}, {"T2", q8}, {"T3", q8}, {"T4", {kI32}}}, quantized));
  return Def(r, "ConvInteger", 10, 10, {{"T1", q8}, {"T2", q8}, {"T3", {kI32}}}, quantized);
}

Status RegisterPooling(KernelRegistry& r) {
  const List i64 = {kI64};
  // MaxPool-8 adds Indices and storage_order, -10 ceil_mode and dilations, -12 int8/uint8.
  const KernelFactory max_pool = FactoryOf<MaxPool>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MaxPool", 1, 7, {{"T", F3()}}, max_pool));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MaxPool", 8, 9, {{"T", F3()}, {"I", i64}}, max_pool));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MaxPool", 10, 10, {{"T", F3()}, {"I", i64}}, max_pool));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MaxPool", 11, 11, {{"T", F3()}, {"I", i64}}, max_pool));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "MaxPool", 12, 21, {{"T", F3() + List{kI8, kU8}}, {"I", i64}}, max_pool));
  // Version 22 of the pooling ops adds bfloat16.
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "MaxPool", 22, 22, {{"T", F4() + List{kI8, kU8}}, {"I", i64}}, max_pool));
  // AveragePool-7 adds count_include_pad, -10 ceil_mode, -19 dilations.
  const KernelFactory average_pool = FactoryOf<AveragePool>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "AveragePool", 1, 6, {{"T", F3()}}, average_pool));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "AveragePool", 7, 9, {{"T", F3()}}, average_pool));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "AveragePool", 10, 10, {{"T", F3()}}, average_pool));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "AveragePool", 11, 18, {{"T", F3()}}, average_pool));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "AveragePool", 19, 21, {{"T", F3()}}, average_pool));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "AveragePool", 22, 22, {{"T", F4()}}, average_pool));
  // LpPool-1 and GlobalLpPool-1 take a float p, -2 an integer; LpPool-18 adds ceil_mode and
  // dilations.
  const KernelFactory lp_pool = FactoryOf<LpPool>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "LpPool", 1, 1, {{"T", F3()}}, lp_pool));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "LpPool", 2, 10, {{"T", F3()}}, lp_pool));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "LpPool", 11, 17, {{"T", F3()}}, lp_pool));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "LpPool", 18, 21, {{"T", F3()}}, lp_pool));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "LpPool", 22, 22, {{"T", F4()}}, lp_pool));
  const KernelFactory global_max = FactoryOf<GlobalMaxPool>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GlobalMaxPool", 1, 21, {{"T", F3()}}, global_max));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GlobalMaxPool", 22, 22, {{"T", F4()}}, global_max));
  const KernelFactory global_average = FactoryOf<GlobalAveragePool>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GlobalAveragePool", 1, 21, {{"T", F3()}}, global_average));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GlobalAveragePool", 22, 22, {{"T", F4()}}, global_average));
  const KernelFactory global_lp = FactoryOf<GlobalLpPool>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GlobalLpPool", 1, 1, {{"T", F3()}}, global_lp));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GlobalLpPool", 2, 21, {{"T", F3()}}, global_lp));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GlobalLpPool", 22, 22, {{"T", F4()}}, global_lp));
  const KernelFactory unpool = FactoryOf<MaxUnpoolKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MaxUnpool", 9, 10, {{"T1", F3()}, {"T2", i64}}, unpool));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MaxUnpool", 11, 21, {{"T1", F3()}, {"T2", i64}}, unpool));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MaxUnpool", 22, 22, {{"T1", F4()}, {"T2", i64}}, unpool));
  const KernelFactory roi_pool = FactoryOf<MaxRoiPoolKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MaxRoiPool", 1, 21, {{"T", F3()}}, roi_pool));
  return Def(r, "MaxRoiPool", 22, 22, {{"T", F4()}}, roi_pool);  // adds bfloat16
}

Status RegisterNormalizations(KernelRegistry& r) {
  // BatchNormalization-6 still has is_test and spatial, -7 spatial, -9 neither; -14 adds
  // training_mode and a separate type U for the statistics, -15 a type T1 for scale and B.
  const KernelFactory batch = FactoryOf<BatchNormalization>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "BatchNormalization", 1, 5, {{"T", F3()}}, batch));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "BatchNormalization", 6, 6, {{"T", F3()}}, batch));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "BatchNormalization", 7, 8, {{"T", F3()}}, batch));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "BatchNormalization", 9, 13, {{"T", F3()}}, batch));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "BatchNormalization", 14, 14, {{"T", F4()}, {"U", F4()}}, batch));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "BatchNormalization", 15, 15, {{"T", F4()}, {"T1", F4()}, {"T2", F4()}}, batch));
  const KernelFactory instance = FactoryOf<InstanceNormalization>();
  // InstanceNormalization-6 only drops the legacy consumed_inputs attribute.
  ONNXGATE_RETURN_IF_ERROR(Def(r, "InstanceNormalization", 1, 5, {{"T", F3()}}, instance));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "InstanceNormalization", 6, 21, {{"T", F3()}}, instance));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "InstanceNormalization", 22, 22, {{"T", F4()}}, instance));
  const KernelFactory lp_norm = FactoryOf<LpNormalization>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "LpNormalization", 1, 21, {{"T", F3()}}, lp_norm));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "LpNormalization", 22, 22, {{"T", F4()}}, lp_norm));
  // GroupNormalization-21 takes scale and bias per channel instead of per group, and stash_type.
  const KernelFactory group_norm = FactoryOf<GroupNormalization>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GroupNormalization", 18, 20, {{"T", F4()}}, group_norm));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "GroupNormalization", 21, 21, {{"T", F4()}}, group_norm));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "LRN", 1, 12, {{"T", F3()}}, FactoryOf<Lrn>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "LRN", 13, 13, {{"T", F4()}}, FactoryOf<Lrn>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "LayerNormalization", 17, 17, {{"T", F4()}, {"U", {kF32, kBF16}}},
                               FactoryOf<LayerNormalization>()));
  const KernelFactory mvn = FactoryOf<MeanVarianceNormalization>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MeanVarianceNormalization", 9, 12, {{"T", F3()}}, mvn));
  return Def(r, "MeanVarianceNormalization", 13, 13, {{"T", F4()}}, mvn);
}

Status RegisterOtherNn(KernelRegistry& r) {
  // Dropout-6 drops consumed_inputs, -7 is_test, -10 makes the mask bool, -12 turns ratio
  // into an input and adds training_mode, -13 adds bfloat16.
  const KernelFactory dropout = FactoryOf<Dropout>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Dropout", 1, 5, {{"T", F3()}}, dropout));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Dropout", 6, 6, {{"T", F3()}}, dropout));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Dropout", 7, 9, {{"T", F3()}}, dropout));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Dropout", 10, 11, {{"T", F3()}, {"T1", {kBool}}}, dropout));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Dropout", 12, 12, {{"T", F3()}, {"T1", F3()}, {"T2", {kBool}}}, dropout));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Dropout", 13, 21, {{"T", F4()}, {"T1", F3()}, {"T2", {kBool}}}, dropout));
  // Dropout-22 adds the FLOAT8 types to T and bfloat16 and FLOAT8 to T1.
  const List f4_f8 = F4() + F8();
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Dropout", 22, 22, {{"T", f4_f8}, {"T1", f4_f8}, {"T2", {kBool}}}, dropout));
  const KernelFactory flatten = FactoryOf<FlattenKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Flatten", 1, 8, {{"T", F3()}}, flatten));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Flatten", 9, 10, {{"T", AllNoBF16()}}, flatten));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Flatten", 11, 12, {{"T", AllNoBF16()}}, flatten));  // negative axis
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Flatten", 13, 20, {{"T", All()}}, flatten));
  // Flatten-21, -23, -24 and -25 widen the types only.
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Flatten", 21, 22, {{"T", AllThrough(21)}}, flatten));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Flatten", 23, 23, {{"T", AllThrough(23)}}, flatten));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Flatten", 24, 24, {{"T", AllThrough(24)}}, flatten));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Flatten", 25, 25, {{"T", AllThrough(25)}}, flatten));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Shrink", 9, 9, {{"T", Ints() + F3()}}, FactoryOf<ShrinkKernel>()));
  return Def(r, "TfIdfVectorizer", 9, 9, {{"T", {kStr, kI32, kI64}}, {"T1", {kF32}}},
             FactoryOf<TfIdfVectorizerKernel>());
}

Status RegisterAttention(KernelRegistry& r) {
  // Attention-24 adds nonpad_kv_seqlen, -25 left_window_size and right_window_size.
  const List mask = Ints() + F4() + List{kBool};
  const KernelFactory attention = FactoryOf<AttentionKernel>();
  for (int since : {23, 24, 25}) {
    ONNXGATE_RETURN_IF_ERROR(
        Def(r, "Attention", since, since, {{"T1", F4()}, {"T2", F4()}, {"U", mask}}, attention));
  }
  ONNXGATE_RETURN_IF_ERROR(Def(r, "RMSNormalization", 23, 23, {{"T", F4()}, {"V", F4()}},
                               FactoryOf<RmsNormalizationKernel>()));
  const List f3 = {kF32, kF16, kBF16};
  ONNXGATE_RETURN_IF_ERROR(Def(r, "RotaryEmbedding", 23, 23, {{"T", f3}, {"M", {kI64}}},
                               FactoryOf<RotaryEmbeddingKernel>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "LinearAttention", 27, 27, {{"T", f3}, {"S", f3}},
                               FactoryOf<LinearAttentionKernel>()));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "CausalConvWithState", 27, 27, {{"T", f3}}, FactoryOf<CausalConvWithStateKernel>()));
  return r.Register(KernelDef{
      "ai.onnx.preview", "FlexAttention", 1, 1, {{"T1", F4()}}, FactoryOf<FlexAttentionKernel>()});
}

}  // namespace

Status RegisterNnKernels(KernelRegistry& registry) {
  ONNXGATE_RETURN_IF_ERROR(RegisterConvolutions(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterPooling(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterNormalizations(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterAttention(registry));
  return RegisterOtherNn(registry);
}

}  // namespace onnxgate
