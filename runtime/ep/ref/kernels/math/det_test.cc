// Tests of Det: 2-D and batched inputs, pivoting, singular and empty matrices, errors.
#include "runtime/ep/ref/kernels/math/det.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

class DetTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(DetTest, TwoByTwoIsAScalar) {
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "Y = Det (X)", 11, {TensorValue<float>({2, 2}, {1, 2, 3, 4})}));
  EXPECT_THAT(DimsOf(out[0]), IsEmpty());
  EXPECT_FLOAT_EQ(ValuesOf<float>(out[0])[0], -2);
}

TEST_F(DetTest, BatchedNeedsPivotingAndRowMajorOrder) {
  // The first matrix has a zero leading entry, which needs a row swap.
  std::vector<double> x = {0, 1, 2, 1, 0, 3, 4, -3, 8,
                           2, 0, 0, 1, 3, 0, 7, 5,  4};  // lower triangular: 24
  ASSERT_OK_AND_ASSIGN(auto out,
                       RunNode(registry_, "Y = Det (X)", 11, {TensorValue<double>({2, 3, 3}, x)}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2));
  // 0*(0*8 - 3*-3) - 1*(1*8 - 3*4) + 2*(1*-3 - 0*4) = 0 + 4 - 6 = -2
  EXPECT_THAT(ValuesOf<double>(out[0]), ElementsAre(DoubleNear(-2, 1e-12), DoubleNear(24, 1e-12)));
}

TEST_F(DetTest, SingularLargeAndEmpty) {
  std::vector<float> singular(25);
  for (int i = 0; i < 25; ++i) singular[i] = static_cast<float>(i);  // rank 2
  ASSERT_OK_AND_ASSIGN(
      auto s, RunNode(registry_, "Y = Det (X)", 11, {TensorValue<float>({5, 5}, singular)}));
  EXPECT_NEAR(ValuesOf<float>(s[0])[0], 0, 1e-3);
  std::vector<double> diag(36, 0);
  for (int i = 0; i < 6; ++i) diag[i * 7] = i + 1;
  ASSERT_OK_AND_ASSIGN(auto d,
                       RunNode(registry_, "Y = Det (X)", 11, {TensorValue<double>({6, 6}, diag)}));
  EXPECT_DOUBLE_EQ(ValuesOf<double>(d[0])[0], 720);
  ASSERT_OK_AND_ASSIGN(auto e,
                       RunNode(registry_, "Y = Det (X)", 11, {TensorValue<float>({3, 0, 0}, {})}));
  EXPECT_THAT(ValuesOf<float>(e[0]), ElementsAre(1, 1, 1));
  ASSERT_OK_AND_ASSIGN(auto h,
                       RunNode(registry_, "Y = Det (X)", 11, {HalfValue({2, 2}, {2, 0, 0, 3})}));
  EXPECT_THAT(HalfValuesOf<Float16>(h[0]), ElementsAre(6));
}

TEST_F(DetTest, NonSquareIsAnError) {
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = Det (X)", 11, {TensorValue<float>({2, 3}, std::vector<float>(6))}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Det (X)", 11, {TensorValue<float>({2}, {1, 2})}),
                    kInvalidArgument);
}

TEST_F(DetTest, BFloat16FromOpset22) {
  Value x = BFloat16Value({2, 2}, {1, 2, 3, 4});
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Det (X)", 21, {x}), kUnimplemented);
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Det (X)", 22, {x}));
  EXPECT_THAT(HalfValuesOf<BFloat16>(out[0]), ElementsAre(-2));
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = Det (X)", 22, {BFloat16Value({2, 3}, {1, 2, 3, 4, 5, 6})}),
      kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
