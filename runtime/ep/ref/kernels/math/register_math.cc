// The ref EP's registration table for ONNX's math family (onnx/defs/math): arithmetic, the
// elementwise functions and activations, Max/Min/Sum/Mean, the Softmax family, MatMul and Gemm,
// TopK, CumSum and CumProd, Einsum, Det, the losses, Expand and the quantized matrix products.
// Each line transcribes one version range of the op's ONNX schema with the types it allows;
// ranges are split where the semantics or the type list change.
#include "runtime/ep/ref/kernels/common/registration_table.h"
#include "runtime/ep/ref/kernels/common/type_lists.h"
#include "runtime/ep/ref/kernels/math/activation_extra.h"
#include "runtime/ep/ref/kernels/math/binary_arithmetic.h"
#include "runtime/ep/ref/kernels/math/clip.h"
#include "runtime/ep/ref/kernels/math/cum_sum.h"
#include "runtime/ep/ref/kernels/math/det.h"
#include "runtime/ep/ref/kernels/math/einsum.h"
#include "runtime/ep/ref/kernels/math/expand_tile.h"
#include "runtime/ep/ref/kernels/math/gemm.h"
#include "runtime/ep/ref/kernels/math/loss.h"
#include "runtime/ep/ref/kernels/math/matmul.h"
#include "runtime/ep/ref/kernels/math/mod.h"
#include "runtime/ep/ref/kernels/math/quantized_matmul.h"
#include "runtime/ep/ref/kernels/math/softmax.h"
#include "runtime/ep/ref/kernels/math/top_k.h"
#include "runtime/ep/ref/kernels/math/unary_math.h"
#include "runtime/ep/ref/kernels/math/variadic_math.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref;         // NOLINT: the kernel classes of this table
using namespace ref::types;  // NOLINT: type-list shorthands
using namespace ref::table;  // NOLINT: Def

template <UnaryOp kOp>
KernelFactory Unary() {
  return FactoryOf<UnaryMathKernel<kOp>>();
}

// The many float-only unary functions whose versions are (1 or 6) then 13 with bfloat16.
Status RegisterFloatUnary(KernelRegistry& r, const char* op, KernelFactory f) {
  ONNXGATE_RETURN_IF_ERROR(Def(r, op, 1, 12, {{"T", F3()}}, f));
  return Def(r, op, 13, 13, {{"T", F4()}}, f);
}

Status RegisterArithmetic(KernelRegistry& r) {
  const List ints6 = {kU32, kU64, kI32, kI64};
  struct Op {
    const char* name;
    KernelFactory factory;
  };
  const Op ops[] = {{"Add", FactoryOf<AddKernel>()},
                    {"Sub", FactoryOf<SubKernel>()},
                    {"Mul", FactoryOf<MulKernel>()},
                    {"Div", FactoryOf<DivKernel>()}};
  for (const Op& op : ops) {
    // 1 and 6: legacy broadcast attributes; 7: numpy broadcasting; 13, 14: more types.
    ONNXGATE_RETURN_IF_ERROR(Def(r, op.name, 1, 5, {{"T", F3()}}, op.factory));
    ONNXGATE_RETURN_IF_ERROR(Def(r, op.name, 6, 6, {{"T", ints6 + F3()}}, op.factory));
    ONNXGATE_RETURN_IF_ERROR(Def(r, op.name, 7, 12, {{"T", ints6 + F3()}}, op.factory));
    ONNXGATE_RETURN_IF_ERROR(Def(r, op.name, 13, 13, {{"T", ints6 + F4()}}, op.factory));
    ONNXGATE_RETURN_IF_ERROR(Def(r, op.name, 14, 14, {{"T", Ints() + F4()}}, op.factory));
  }
  const KernelFactory pow = FactoryOf<PowKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Pow", 1, 6, {{"T", F3()}}, pow));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Pow", 7, 11, {{"T", F3()}}, pow));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Pow", 12, 12, {{"T", List{kI32, kI64} + F3()}, {"T1", Ints() + F3()}}, pow));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Pow", 13, 14, {{"T", List{kI32, kI64} + F4()}, {"T1", Ints() + F3()}}, pow));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Pow", 15, 15, {{"T", List{kI32, kI64} + F4()}, {"T1", Ints() + F4()}}, pow));
  const KernelFactory mod = FactoryOf<ModKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Mod", 10, 12, {{"T", Ints() + F3()}}, mod));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Mod", 13, 27, {{"T", Ints() + F4()}}, mod));
  // Mod-28 defines fmod=0 for floats (floored, with the sign of B).
  return Def(r, "Mod", 28, 28, {{"T", Ints() + F4()}}, mod);
}

Status RegisterUnary(KernelRegistry& r) {
  const List signed6 = {kF32, kI32, kI8, kI16, kI64, kF16, kF64};
  // Relu: 14 adds the signed integers.
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Relu", 1, 12, {{"T", F3()}}, Unary<UnaryOp::kRelu>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Relu", 13, 13, {{"T", F4()}}, Unary<UnaryOp::kRelu>()));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Relu", 14, 14, {{"T", signed6 + List{kBF16}}}, Unary<UnaryOp::kRelu>()));
  // Abs and Neg: integers from 6.
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Abs", 1, 5, {{"T", F3()}}, Unary<UnaryOp::kAbs>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Abs", 6, 12, {{"T", Ints() + F3()}}, Unary<UnaryOp::kAbs>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Abs", 13, 13, {{"T", Ints() + F4()}}, Unary<UnaryOp::kAbs>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Neg", 1, 5, {{"T", F3()}}, Unary<UnaryOp::kNeg>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Neg", 6, 12, {{"T", signed6}}, Unary<UnaryOp::kNeg>()));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "Neg", 13, 13, {{"T", signed6 + List{kBF16}}}, Unary<UnaryOp::kNeg>()));
  // Float functions of opsets 1/6 that gained bfloat16 in 13.
  ONNXGATE_RETURN_IF_ERROR(RegisterFloatUnary(r, "Sigmoid", Unary<UnaryOp::kSigmoid>()));
  ONNXGATE_RETURN_IF_ERROR(RegisterFloatUnary(r, "Tanh", Unary<UnaryOp::kTanh>()));
  ONNXGATE_RETURN_IF_ERROR(RegisterFloatUnary(r, "Exp", Unary<UnaryOp::kExp>()));
  ONNXGATE_RETURN_IF_ERROR(RegisterFloatUnary(r, "Log", Unary<UnaryOp::kLog>()));
  ONNXGATE_RETURN_IF_ERROR(RegisterFloatUnary(r, "Sqrt", Unary<UnaryOp::kSqrt>()));
  ONNXGATE_RETURN_IF_ERROR(RegisterFloatUnary(r, "Reciprocal", Unary<UnaryOp::kReciprocal>()));
  ONNXGATE_RETURN_IF_ERROR(RegisterFloatUnary(r, "Floor", Unary<UnaryOp::kFloor>()));
  ONNXGATE_RETURN_IF_ERROR(RegisterFloatUnary(r, "Ceil", Unary<UnaryOp::kCeil>()));
  // Float functions that never gained bfloat16 up to opset 17.
  const struct {
    const char* name;
    int since;
    KernelFactory factory;
  } float_only[] = {
      {"Sin", 7, Unary<UnaryOp::kSin>()},
      {"Cos", 7, Unary<UnaryOp::kCos>()},
      {"Tan", 7, Unary<UnaryOp::kTan>()},
      {"Asin", 7, Unary<UnaryOp::kAsin>()},
      {"Acos", 7, Unary<UnaryOp::kAcos>()},
      {"Atan", 7, Unary<UnaryOp::kAtan>()},
      {"Sinh", 9, Unary<UnaryOp::kSinh>()},
      {"Cosh", 9, Unary<UnaryOp::kCosh>()},
      {"Asinh", 9, Unary<UnaryOp::kAsinh>()},
      {"Acosh", 9, Unary<UnaryOp::kAcosh>()},
      {"Atanh", 9, Unary<UnaryOp::kAtanh>()},
      {"Round", 11, Unary<UnaryOp::kRound>()},
      {"Softplus", 1, Unary<UnaryOp::kSoftplus>()},
      {"Softsign", 1, Unary<UnaryOp::kSoftsign>()},
      {"Elu", 1, Unary<UnaryOp::kElu>()},
      {"Selu", 1, Unary<UnaryOp::kSelu>()},
      {"HardSigmoid", 1, Unary<UnaryOp::kHardSigmoid>()},
      {"ThresholdedRelu", 10, Unary<UnaryOp::kThresholdedRelu>()},
      {"HardSwish", 14, Unary<UnaryOp::kHardSwish>()},
  };
  // Version 22 of each adds bfloat16.
  for (const auto& op : float_only) {
    ONNXGATE_RETURN_IF_ERROR(Def(r, op.name, op.since, 21, {{"T", F3()}}, op.factory));
    ONNXGATE_RETURN_IF_ERROR(Def(r, op.name, 22, 22, {{"T", F4()}}, op.factory));
  }
  // Celu-28 adds float16, bfloat16 and double.
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Celu", 12, 27, {{"T", {kF32}}}, Unary<UnaryOp::kCelu>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Celu", 28, 28, {{"T", F4()}}, Unary<UnaryOp::kCelu>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Mish", 18, 21, {{"T", F3()}}, Unary<UnaryOp::kMish>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Mish", 22, 22, {{"T", F4()}}, Unary<UnaryOp::kMish>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Gelu", 20, 20, {{"T", F4()}}, Unary<UnaryOp::kGelu>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Swish", 24, 24, {{"T", F4()}}, Unary<UnaryOp::kSwish>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "SwiGLU", 28, 28, {{"T", F4()}}, FactoryOf<SwiGLUKernel>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "LeakyRelu", 1, 15, {{"T", F3()}}, Unary<UnaryOp::kLeakyRelu>()));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "LeakyRelu", 16, 16, {{"T", F4()}}, Unary<UnaryOp::kLeakyRelu>()));
  // Erf and Sign take integers too (Erf only until 12: ONNX 1.23.2 redefines Erf-13 as
  // float-only, and a kernel may not claim a type its schema version does not allow).
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Erf", 9, 12, {{"T", Ints() + F3()}}, Unary<UnaryOp::kErf>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Erf", 13, 13, {{"T", F4()}}, Unary<UnaryOp::kErf>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Sign", 9, 12, {{"T", Ints() + F3()}}, Unary<UnaryOp::kSign>()));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Sign", 13, 13, {{"T", Ints() + F4()}}, Unary<UnaryOp::kSign>()));
  // PRelu-1 and -6: a slope of one element, of X's shape or of one value per channel; from 7
  // the slope broadcasts onto X.
  const List prelu9 = F3() + List{kU32, kU64, kI32, kI64};
  const KernelFactory prelu = FactoryOf<PReluKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "PRelu", 1, 5, {{"T", F3()}}, prelu));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "PRelu", 6, 6, {{"T", F3()}}, prelu));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "PRelu", 7, 8, {{"T", F3()}}, prelu));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "PRelu", 9, 15, {{"T", prelu9}}, prelu));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "PRelu", 16, 16, {{"T", prelu9 + List{kBF16}}}, prelu));
  // Clip: attributes min/max (1: no default, 6: float range), inputs from 11, integers from 12.
  const KernelFactory clip = FactoryOf<ClipKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Clip", 1, 5, {{"T", F3()}}, clip));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Clip", 6, 10, {{"T", F3()}}, clip));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Clip", 11, 11, {{"T", F3()}}, clip));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Clip", 12, 12, {{"T", Ints() + F3()}}, clip));
  return Def(r, "Clip", 13, 13, {{"T", Ints() + F4()}}, clip);
}

Status RegisterVariadic(KernelRegistry& r) {
  const KernelFactory max = FactoryOf<VariadicMathKernel<VariadicOp::kMax>>();
  const KernelFactory min = FactoryOf<VariadicMathKernel<VariadicOp::kMin>>();
  const KernelFactory sum = FactoryOf<VariadicMathKernel<VariadicOp::kSum>>();
  const KernelFactory mean = FactoryOf<VariadicMathKernel<VariadicOp::kMean>>();
  // 1 and 6: equal shapes; 8: numpy broadcasting; Max/Min: integers from 12; 13: bfloat16.
  for (const auto& [name, f] : {std::pair{"Max", max}, std::pair{"Min", min}}) {
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 1, 7, {{"T", F3()}}, f));
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 8, 11, {{"T", F3()}}, f));
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 12, 12, {{"T", Ints() + F3()}}, f));
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 13, 13, {{"T", Ints() + F4()}}, f));
  }
  for (const auto& [name, f] : {std::pair{"Sum", sum}, std::pair{"Mean", mean}}) {
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 1, 7, {{"T", F3()}}, f));
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 8, 12, {{"T", F3()}}, f));
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 13, 13, {{"T", F4()}}, f));
  }
  return OkStatus();
}

Status RegisterSoftmaxFamily(KernelRegistry& r) {
  const std::pair<const char*, KernelFactory> ops[] = {
      {"Softmax", FactoryOf<SoftmaxKernel<SoftmaxOp::kSoftmax>>()},
      {"LogSoftmax", FactoryOf<SoftmaxKernel<SoftmaxOp::kLogSoftmax>>()},
      {"Hardmax", FactoryOf<SoftmaxKernel<SoftmaxOp::kHardmax>>()}};
  for (const auto& [name, f] : ops) {
    // 1 and 11: coerced to 2-D (11 documents negative axes); 13: one axis, default -1.
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 1, 12, {{"T", F3()}}, f));
    ONNXGATE_RETURN_IF_ERROR(Def(r, name, 13, 13, {{"T", F4()}}, f));
  }
  return OkStatus();
}

Status RegisterMatrixProducts(KernelRegistry& r) {
  // float16, float, double; from 9 the 32- and 64-bit integers; from 13 bfloat16.
  const List fi = F3() + List{kU32, kU64, kI32, kI64};
  const KernelFactory matmul = FactoryOf<ref::MatMul>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MatMul", 1, 8, {{"T", F3()}}, matmul));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MatMul", 9, 12, {{"T", fi}}, matmul));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MatMul", 13, 13, {{"T", fi + List{kBF16}}}, matmul));
  // Gemm-1 and -6 broadcast C only with the `broadcast` attribute; -7 always broadcasts; -9 adds
  // integers; -11 makes C optional.
  const KernelFactory gemm = FactoryOf<ref::Gemm>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Gemm", 1, 5, {{"T", F3()}}, gemm));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Gemm", 6, 6, {{"T", F3()}}, gemm));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Gemm", 7, 8, {{"T", F3()}}, gemm));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Gemm", 9, 10, {{"T", fi}}, gemm));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Gemm", 11, 12, {{"T", fi}}, gemm));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Gemm", 13, 13, {{"T", fi + List{kBF16}}}, gemm));
  const List q8 = {kI8, kU8};
  const KernelFactory qlinear_matmul = FactoryOf<QLinearMatMulKernel>();
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "QLinearMatMul", 10, 20, {{"T1", q8}, {"T2", q8}, {"T3", q8}}, qlinear_matmul));
  // 21: FLOAT8 operands, float16 and bfloat16 scales.
  const List q21 = q8 + F8();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "QLinearMatMul", 21, 21,
                               {{"TS", {kF32, kF16, kBF16}}, {"T1", q21}, {"T2", q21}, {"T3", q21}},
                               qlinear_matmul));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "MatMulInteger", 10, 10, {{"T1", q8}, {"T2", q8}, {"T3", {kI32}}},
                               FactoryOf<MatMulIntegerKernel>()));
  // Einsum-28 and Det-22 add bfloat16.
  const KernelFactory einsum = FactoryOf<EinsumKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Einsum", 12, 27, {{"T", Ints() + F3()}}, einsum));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Einsum", 28, 28, {{"T", Ints() + F4()}}, einsum));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Det", 11, 21, {{"T", F3()}}, FactoryOf<DetKernel>()));
  return Def(r, "Det", 22, 22, {{"T", F4()}}, FactoryOf<DetKernel>());
}

Status RegisterSelectionAndScans(KernelRegistry& r) {
  // TopK-1: k attribute; 10: K input; 11: largest, sorted, integers.
  const KernelFactory top_k = FactoryOf<TopKKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "TopK", 1, 9, {{"T", F3()}, {"I", {kI64}}}, top_k));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "TopK", 10, 10, {{"T", F3()}, {"I", {kI64}}}, top_k));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "TopK", 11, 23, {{"T", Ints() + F3()}, {"I", {kI64}}}, top_k));
  // 24: bfloat16, and ties broken by the lower index (which the stable sort always did).
  ONNXGATE_RETURN_IF_ERROR(Def(r, "TopK", 24, 24, {{"T", Ints() + F4()}, {"I", {kI64}}}, top_k));
  // CumSum-14 adds float16 and bfloat16.
  const KernelFactory cum_sum = FactoryOf<CumSumKernel>();
  const List cum11 = {kU32, kU64, kI32, kI64, kF32, kF64};
  ONNXGATE_RETURN_IF_ERROR(Def(r, "CumSum", 11, 13, {{"T", cum11}, {"T2", {kI32, kI64}}}, cum_sum));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "CumSum", 14, 14, {{"T", cum11 + List{kF16, kBF16}}, {"T2", {kI32, kI64}}}, cum_sum));
  ONNXGATE_RETURN_IF_ERROR(Def(r, "CumProd", 26, 26,
                               {{"T", cum11 + List{kF16, kBF16}}, {"T2", {kI32, kI64}}},
                               FactoryOf<CumProdKernel>()));
  const KernelFactory expand = FactoryOf<ExpandKernel>();
  ONNXGATE_RETURN_IF_ERROR(Def(r, "Expand", 8, 12, {{"T", AllNoBF16()}}, expand));
  return Def(r, "Expand", 13, 13, {{"T", All()}}, expand);
}

Status RegisterLosses(KernelRegistry& r) {
  const List tind = {kI32, kI64};
  const KernelFactory nll = FactoryOf<NegativeLogLikelihoodLossKernel>();
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "NegativeLogLikelihoodLoss", 12, 12, {{"T", F3()}, {"Tind", tind}}, nll));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "NegativeLogLikelihoodLoss", 13, 21, {{"T", F3()}, {"Tind", tind}}, nll));
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "NegativeLogLikelihoodLoss", 22, 22, {{"T", F4()}, {"Tind", tind}}, nll));
  const KernelFactory sce = FactoryOf<SoftmaxCrossEntropyLossKernel>();
  ONNXGATE_RETURN_IF_ERROR(
      Def(r, "SoftmaxCrossEntropyLoss", 12, 12, {{"T", F3()}, {"Tind", tind}}, sce));
  return Def(r, "SoftmaxCrossEntropyLoss", 13, 13, {{"T", F4()}, {"Tind", tind}}, sce);
}

}  // namespace

Status RegisterMathKernels(KernelRegistry& registry) {
  ONNXGATE_RETURN_IF_ERROR(RegisterArithmetic(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterUnary(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterVariadic(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterSoftmaxFamily(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterMatrixProducts(registry));
  ONNXGATE_RETURN_IF_ERROR(RegisterSelectionAndScans(registry));
  return RegisterLosses(registry);
}

}  // namespace onnxgate
