// The ref EP's nn family: every kernel with the exact op versions and element types it serves,
// one entry per ONNX schema version so that each claim matches the spec's version history.
#include "runtime/ep/ref/kernels/batch_normalization.h"
#include "runtime/ep/ref/kernels/conv.h"
#include "runtime/ep/ref/kernels/conv_transpose.h"
#include "runtime/ep/ref/kernels/dropout.h"
#include "runtime/ep/ref/kernels/gemm.h"
#include "runtime/ep/ref/kernels/instance_normalization.h"
#include "runtime/ep/ref/kernels/layer_normalization.h"
#include "runtime/ep/ref/kernels/lrn.h"
#include "runtime/ep/ref/kernels/matmul.h"
#include "runtime/ep/ref/kernels/mean_variance_normalization.h"
#include "runtime/ep/ref/kernels/pool.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using ref_nn::AveragePool;
using ref_nn::BatchNormalization;
using ref_nn::Conv;
using ref_nn::ConvTranspose;
using ref_nn::Dropout;
using ref_nn::Gemm;
using ref_nn::GlobalAveragePool;
using ref_nn::GlobalLpPool;
using ref_nn::GlobalMaxPool;
using ref_nn::InstanceNormalization;
using ref_nn::LayerNormalization;
using ref_nn::LpPool;
using ref_nn::Lrn;
using ref_nn::MatMul;
using ref_nn::MeanVarianceNormalization;
using ref_nn::MaxPool;

using Types = std::vector<DataType>;

// float16, float, double: the float types of most nn schemas.
const Types kF = {DataType::kFloat16, DataType::kFloat, DataType::kDouble};
// ... plus bfloat16 (opset 13 and later for many ops).
const Types kFB = {DataType::kFloat16, DataType::kFloat, DataType::kDouble, DataType::kBFloat16};
// ... plus the 32- and 64-bit integers MatMul and Gemm accept from opset 9.
const Types kFI = {DataType::kFloat16, DataType::kFloat, DataType::kDouble, DataType::kUint32,
                   DataType::kUint64,  DataType::kInt32, DataType::kInt64};
const Types kFIB = {DataType::kFloat16, DataType::kFloat, DataType::kDouble, DataType::kUint32,
                    DataType::kUint64,  DataType::kInt32, DataType::kInt64,  DataType::kBFloat16};
const Types kMaxPool12 = {DataType::kFloat16, DataType::kFloat, DataType::kDouble, DataType::kInt8,
                          DataType::kUint8};
const Types kInt64 = {DataType::kInt64};
const Types kBool = {DataType::kBool};
const Types kFloatOrBFloat16 = {DataType::kFloat, DataType::kBFloat16};

template <typename K>
KernelDef Def(const char* op, int since, int until, std::vector<TypeConstraint> constraints) {
  KernelDef def;
  def.domain = "";
  def.op_type = op;
  def.since_version = since;
  def.until_version = until;
  def.type_constraints = std::move(constraints);
  def.factory = FactoryOf<K>();
  return def;
}

}  // namespace

Status RegisterNnKernels(KernelRegistry& registry) {
  std::vector<KernelDef> defs = {
      Def<MatMul>("MatMul", 1, 8, {{"T", kF}}),
      Def<MatMul>("MatMul", 9, 12, {{"T", kFI}}),
      Def<MatMul>("MatMul", 13, 13, {{"T", kFIB}}),

      // Gemm-7 drops the `broadcast` attribute; -9 adds integers; -11 makes C optional.
      Def<Gemm>("Gemm", 7, 8, {{"T", kF}}),
      Def<Gemm>("Gemm", 9, 10, {{"T", kFI}}),
      Def<Gemm>("Gemm", 11, 12, {{"T", kFI}}),
      Def<Gemm>("Gemm", 13, 13, {{"T", kFIB}}),

      Def<Conv>("Conv", 1, 10, {{"T", kF}}),
      Def<Conv>("Conv", 11, 21, {{"T", kF}}),
      Def<ConvTranspose>("ConvTranspose", 1, 10, {{"T", kF}}),
      Def<ConvTranspose>("ConvTranspose", 11, 21, {{"T", kF}}),

      // MaxPool-8 adds Indices and storage_order, -10 ceil_mode and dilations, -12 int8/uint8.
      Def<MaxPool>("MaxPool", 1, 7, {{"T", kF}}),
      Def<MaxPool>("MaxPool", 8, 9, {{"T", kF}, {"I", kInt64}}),
      Def<MaxPool>("MaxPool", 10, 10, {{"T", kF}, {"I", kInt64}}),
      Def<MaxPool>("MaxPool", 11, 11, {{"T", kF}, {"I", kInt64}}),
      Def<MaxPool>("MaxPool", 12, 21, {{"T", kMaxPool12}, {"I", kInt64}}),
      // AveragePool-7 adds count_include_pad, -10 ceil_mode.
      Def<AveragePool>("AveragePool", 1, 6, {{"T", kF}}),
      Def<AveragePool>("AveragePool", 7, 9, {{"T", kF}}),
      Def<AveragePool>("AveragePool", 10, 10, {{"T", kF}}),
      Def<AveragePool>("AveragePool", 11, 18, {{"T", kF}}),
      // LpPool-2 makes p an integer; LpPool-1 (float p) is not served.
      Def<LpPool>("LpPool", 2, 10, {{"T", kF}}),
      Def<LpPool>("LpPool", 11, 17, {{"T", kF}}),
      Def<GlobalMaxPool>("GlobalMaxPool", 1, 21, {{"T", kF}}),
      Def<GlobalAveragePool>("GlobalAveragePool", 1, 21, {{"T", kF}}),
      Def<GlobalLpPool>("GlobalLpPool", 2, 21, {{"T", kF}}),

      // BatchNormalization-6 still has is_test and spatial, -7 spatial, -9 neither; -14 adds
      // training_mode and a separate type U for the statistics, -15 a type T1 for scale and B.
      Def<BatchNormalization>("BatchNormalization", 6, 6, {{"T", kF}}),
      Def<BatchNormalization>("BatchNormalization", 7, 8, {{"T", kF}}),
      Def<BatchNormalization>("BatchNormalization", 9, 13, {{"T", kF}}),
      Def<BatchNormalization>("BatchNormalization", 14, 14, {{"T", kFB}, {"U", kFB}}),
      Def<BatchNormalization>("BatchNormalization", 15, 15,
                              {{"T", kFB}, {"T1", kFB}, {"T2", kFB}}),
      Def<InstanceNormalization>("InstanceNormalization", 6, 21, {{"T", kF}}),
      Def<Lrn>("LRN", 1, 12, {{"T", kF}}),
      Def<Lrn>("LRN", 13, 13, {{"T", kFB}}),
      Def<LayerNormalization>("LayerNormalization", 17, 17,
                              {{"T", kFB}, {"U", kFloatOrBFloat16}}),
      Def<MeanVarianceNormalization>("MeanVarianceNormalization", 9, 12, {{"T", kF}}),
      Def<MeanVarianceNormalization>("MeanVarianceNormalization", 13, 13, {{"T", kFB}}),

      // Dropout-6 drops consumed_inputs, -7 is_test, -10 makes the mask bool, -12 turns ratio
      // into an input and adds training_mode, -13 adds bfloat16.
      Def<Dropout>("Dropout", 1, 5, {{"T", kF}}),
      Def<Dropout>("Dropout", 6, 6, {{"T", kF}}),
      Def<Dropout>("Dropout", 7, 9, {{"T", kF}}),
      Def<Dropout>("Dropout", 10, 11, {{"T", kF}, {"T1", kBool}}),
      Def<Dropout>("Dropout", 12, 12, {{"T", kF}, {"T1", kF}, {"T2", kBool}}),
      Def<Dropout>("Dropout", 13, 21, {{"T", kFB}, {"T1", kF}, {"T2", kBool}}),
  };
  for (KernelDef& def : defs) ONNXGATE_RETURN_IF_ERROR(registry.Register(std::move(def)));
  return OkStatus();
}

}  // namespace onnxgate
