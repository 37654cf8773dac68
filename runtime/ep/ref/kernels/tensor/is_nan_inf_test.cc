// Tests of IsNaN and IsInf: floats with NaN and infinities of both signs; from version 20 the half
// types and the FLOAT8 types, whose codes are decoded.
#include "runtime/ep/ref/kernels/tensor/is_nan_inf.h"

#include <cmath>
#include <limits>
#include <vector>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

class IsNaNInfTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

Value Float8Value(DataType type, const std::vector<uint8_t>& codes) {
  Tensor t(type, Shape({static_cast<int64_t>(codes.size())}));
  uint8_t* bytes = static_cast<uint8_t*>(t.mutable_raw_data());
  for (size_t i = 0; i < codes.size(); ++i) bytes[i] = codes[i];
  return Value::FromTensor(t);
}

TEST_F(IsNaNInfTest, IsNaNAndIsInf) {
  Value x = TensorValue<float>({4}, {1, kNaN, kInf, -kInf});
  ASSERT_OK_AND_ASSIGN(auto nan, RunNode(registry_, "Y = IsNaN(X)", 13, {x}));
  EXPECT_THAT(ValuesOf<bool>(nan[0]), ElementsAre(false, true, false, false));
  ASSERT_OK_AND_ASSIGN(auto inf, RunNode(registry_, "Y = IsInf(X)", 10, {x}));
  EXPECT_THAT(ValuesOf<bool>(inf[0]), ElementsAre(false, false, true, true));
  ASSERT_OK_AND_ASSIGN(auto neg,
                       RunNode(registry_, "Y = IsInf <detect_positive = 0> (X)", 10, {x}));
  EXPECT_THAT(ValuesOf<bool>(neg[0]), ElementsAre(false, false, false, true));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = IsInf(X)", 10, {HalfValue({1}, {1})}), kUnimplemented);
}

TEST_F(IsNaNInfTest, HalfTypesFromVersion20) {
  Value h = HalfValue({4}, {1, kNaN, kInf, -kInf});
  ASSERT_OK_AND_ASSIGN(auto inf, RunNode(registry_, "Y = IsInf(X)", 20, {h}));
  EXPECT_THAT(ValuesOf<bool>(inf[0]), ElementsAre(false, false, true, true));
  Value bf = BFloat16Value({4}, {1, kNaN, kInf, -kInf});
  ASSERT_OK_AND_ASSIGN(auto nan, RunNode(registry_, "Y = IsNaN(X)", 20, {bf}));
  EXPECT_THAT(ValuesOf<bool>(nan[0]), ElementsAre(false, true, false, false));
  ASSERT_OK_AND_ASSIGN(auto pos,
                       RunNode(registry_, "Y = IsInf <detect_negative = 0> (X)", 20, {bf}));
  EXPECT_THAT(ValuesOf<bool>(pos[0]), ElementsAre(false, false, true, false));
}

TEST_F(IsNaNInfTest, Float8Codes) {
  // E5M2: 0x3C = 1, 0x7C = +inf, 0xFC = -inf, 0x7E and 0xFF = NaN.
  Value e5m2 = Float8Value(DataType::kFloat8E5M2, {0x3C, 0x7C, 0xFC, 0x7E, 0xFF});
  ASSERT_OK_AND_ASSIGN(auto inf, RunNode(registry_, "Y = IsInf(X)", 20, {e5m2}));
  EXPECT_THAT(ValuesOf<bool>(inf[0]), ElementsAre(false, true, true, false, false));
  ASSERT_OK_AND_ASSIGN(auto nan, RunNode(registry_, "Y = IsNaN(X)", 20, {e5m2}));
  EXPECT_THAT(ValuesOf<bool>(nan[0]), ElementsAre(false, false, false, true, true));
  // E4M3FN has no infinity: 0x7E is 448 and 0x7F NaN. E4M3FNUZ and E5M2FNUZ: NaN is 0x80 only.
  Value e4m3 = Float8Value(DataType::kFloat8E4M3FN, {0x7E, 0x7F, 0xFF, 0x80});
  ASSERT_OK_AND_ASSIGN(auto nan4, RunNode(registry_, "Y = IsNaN(X)", 20, {e4m3}));
  EXPECT_THAT(ValuesOf<bool>(nan4[0]), ElementsAre(false, true, true, false));
  ASSERT_OK_AND_ASSIGN(auto inf4, RunNode(registry_, "Y = IsInf(X)", 20, {e4m3}));
  EXPECT_THAT(ValuesOf<bool>(inf4[0]), ElementsAre(false, false, false, false));
  for (DataType fnuz : {DataType::kFloat8E4M3FNUZ, DataType::kFloat8E5M2FNUZ}) {
    ASSERT_OK_AND_ASSIGN(auto n, RunNode(registry_, "Y = IsNaN(X)", 20,
                                         {Float8Value(fnuz, {0x80, 0x00, 0x7F, 0xFF})}));
    EXPECT_THAT(ValuesOf<bool>(n[0]), ElementsAre(true, false, false, false));
  }
}

TEST_F(IsNaNInfTest, TypesOutsideTheVersionHaveNoKernel) {
  Value e5m2 = Float8Value(DataType::kFloat8E5M2, {0x7C});
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = IsInf(X)", 19, {e5m2}), kUnimplemented);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = IsNaN(X)", 19, {e5m2}), kUnimplemented);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = IsNaN(X)", 20, {TensorValue<int32_t>({1}, {1})}),
                    kUnimplemented);
  // The functions themselves refuse what no version allows.
  EXPECT_ERROR_CODE(IsNaN(TensorValue<int32_t>({1}, {1}).tensor()), kUnimplemented);
}

}  // namespace
}  // namespace onnxgate::ref
