// Tests of Transpose.
#include "runtime/ep/ref/kernels/tensor/transpose.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

class TransposeTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(TransposeTest, DefaultReversesTheDims) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Transpose(X)", 13,
                                         {TensorValue<int32_t>({2, 3}, {1, 2, 3, 4, 5, 6})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(3, 2));
  EXPECT_THAT(ValuesOf<int32_t>(out[0]), ElementsAre(1, 4, 2, 5, 3, 6));
}

TEST_F(TransposeTest, ExplicitPermOfRank3) {
  std::vector<int32_t> x(24);
  for (int i = 0; i < 24; ++i) x[i] = i;
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Transpose <perm = [1, 2, 0]> (X)", 1,
                                         {TensorValue<int32_t>({2, 3, 4}, x)}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(3, 4, 2));
  std::vector<int32_t> got = ValuesOf<int32_t>(out[0]);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) {
      for (int k = 0; k < 2; ++k) EXPECT_EQ(got[(i * 4 + j) * 2 + k], x[(k * 3 + i) * 4 + j]);
    }
  }
}

TEST_F(TransposeTest, StringsScalarsAndEmpty) {
  ASSERT_OK_AND_ASSIGN(auto s, RunNode(registry_, "Y = Transpose(X)", 13,
                                       {TensorValue<std::string>({1, 2}, {"x", "y"})}));
  EXPECT_THAT(ValuesOf<std::string>(s[0]), ElementsAre("x", "y"));
  ASSERT_OK_AND_ASSIGN(auto scalar,
                       RunNode(registry_, "Y = Transpose(X)", 13, {TensorValue<float>({}, {3})}));
  EXPECT_THAT(ValuesOf<float>(scalar[0]), ElementsAre(3));
  ASSERT_OK_AND_ASSIGN(
      auto empty, RunNode(registry_, "Y = Transpose(X)", 13, {TensorValue<float>({0, 2}, {})}));
  EXPECT_THAT(DimsOf(empty[0]), ElementsAre(2, 0));
}

TEST_F(TransposeTest, PermMustBeAPermutation) {
  Value x = TensorValue<float>({2, 2}, {1, 2, 3, 4});
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Transpose <perm = [0, 0]> (X)", 13, {x}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Transpose <perm = [0]> (X)", 13, {x}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Transpose <perm = [1, 2]> (X)", 13, {x}),
                    kInvalidArgument);
}

TEST_F(TransposeTest, BFloat16FromOpset13) {
  Value x = BFloat16Value({1, 2}, {1, 2});
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Transpose(X)", 12, {x}), kUnimplemented);
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Transpose(X)", 13, {x}));
  EXPECT_THAT(HalfValuesOf<BFloat16>(out[0]), ElementsAre(1, 2));
}

}  // namespace
}  // namespace onnxgate::ref
