// Tests of Reshape, Flatten, Squeeze and Unsqueeze across their version splits.
#include "runtime/ep/ref/kernels/tensor/reshape.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

class ReshapeTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  Value x_ = TensorValue<float>({2, 3, 4}, std::vector<float>(24, 1.0f));
  static Value ShapeValue(std::vector<int64_t> dims) {
    return TensorValue<int64_t>({static_cast<int64_t>(dims.size())}, dims);
  }
};

TEST_F(ReshapeTest, ZeroCopiesAndMinusOneInfers) {
  ASSERT_OK_AND_ASSIGN(auto out,
                       RunNode(registry_, "Y = Reshape(X, S)", 13, {x_, ShapeValue({0, -1})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 12));
  ASSERT_OK_AND_ASSIGN(auto scalar, RunNode(registry_, "Y = Reshape(X, S)", 5,
                                            {TensorValue<int32_t>({1, 1}, {7}), ShapeValue({})}));
  EXPECT_THAT(DimsOf(scalar[0]), IsEmpty());
  EXPECT_THAT(ValuesOf<int32_t>(scalar[0]), ElementsAre(7));
}

TEST_F(ReshapeTest, InvalidRequests) {
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Reshape(X, S)", 13, {x_, ShapeValue({-1, -1})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Reshape(X, S)", 13, {x_, ShapeValue({5, -1})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Reshape(X, S)", 13, {x_, ShapeValue({4, 7})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Reshape(X, S)", 13, {x_, ShapeValue({1, 1, 1, 0})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Reshape(X, S)", 13, {x_, ShapeValue({-2, 12})}),
                    kInvalidArgument);
}

TEST_F(ReshapeTest, AllowZeroFromOpset14) {
  Value empty = TensorValue<float>({0, 3}, {});
  // allowzero=0: the 0 copies dim 0 (which is 0), so [0, 3] -> [0, 3] works too...
  ASSERT_OK_AND_ASSIGN(auto copy,
                       RunNode(registry_, "Y = Reshape(X, S)", 14, {empty, ShapeValue({0, 3})}));
  EXPECT_THAT(DimsOf(copy[0]), ElementsAre(0, 3));
  // ...but with allowzero=1 a 0 is a real zero dim even where the input dim is not 0.
  ASSERT_OK_AND_ASSIGN(auto zero, RunNode(registry_, "Y = Reshape <allowzero = 1> (X, S)", 14,
                                          {empty, ShapeValue({3, 0})}));
  EXPECT_THAT(DimsOf(zero[0]), ElementsAre(3, 0));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Reshape(X, S)", 14, {empty, ShapeValue({3, 0})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = Reshape <allowzero = 1> (X, S)", 14, {empty, ShapeValue({0, -1})}),
      kInvalidArgument);
  // A -1 next to copied dims cannot be inferred when the known dims multiply to 0.
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Reshape(X, S)", 14, {empty, ShapeValue({0, -1})}),
                    kInvalidArgument);
}

TEST_F(ReshapeTest, Opset1TakesTheShapeAttribute) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Reshape <shape = [4, -1]> (X)", 1, {x_}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(4, 6));
}

TEST_F(ReshapeTest, OutputKeepsTheElements) {
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "Y = Reshape(X, S)", 13,
                        {TensorValue<std::string>({2, 2}, {"a", "b", "c", "d"}), ShapeValue({4})}));
  EXPECT_THAT(ValuesOf<std::string>(out[0]), ElementsAre("a", "b", "c", "d"));
}

TEST_F(ReshapeTest, FlattenAxisRangeAndNegativeAxes) {
  ASSERT_OK_AND_ASSIGN(auto def, RunNode(registry_, "Y = Flatten(X)", 13, {x_}));
  EXPECT_THAT(DimsOf(def[0]), ElementsAre(2, 12));
  ASSERT_OK_AND_ASSIGN(auto zero, RunNode(registry_, "Y = Flatten <axis = 0> (X)", 13, {x_}));
  EXPECT_THAT(DimsOf(zero[0]), ElementsAre(1, 24));
  ASSERT_OK_AND_ASSIGN(auto rank, RunNode(registry_, "Y = Flatten <axis = 3> (X)", 9, {x_}));
  EXPECT_THAT(DimsOf(rank[0]), ElementsAre(24, 1));
  ASSERT_OK_AND_ASSIGN(auto neg, RunNode(registry_, "Y = Flatten <axis = -1> (X)", 11, {x_}));
  EXPECT_THAT(DimsOf(neg[0]), ElementsAre(6, 4));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Flatten <axis = -1> (X)", 9, {x_}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Flatten <axis = 4> (X)", 13, {x_}), kInvalidArgument);
}

TEST_F(ReshapeTest, SqueezeAllOnesOrListedAxes) {
  Value x = TensorValue<int64_t>({1, 3, 1, 2}, {1, 2, 3, 4, 5, 6});
  ASSERT_OK_AND_ASSIGN(auto all, RunNode(registry_, "Y = Squeeze(X)", 13, {x}));
  EXPECT_THAT(DimsOf(all[0]), ElementsAre(3, 2));
  ASSERT_OK_AND_ASSIGN(auto attr, RunNode(registry_, "Y = Squeeze <axes = [2]> (X)", 1, {x}));
  EXPECT_THAT(DimsOf(attr[0]), ElementsAre(1, 3, 2));
  ASSERT_OK_AND_ASSIGN(auto input, RunNode(registry_, "Y = Squeeze(X, A)", 13,
                                           {x, TensorValue<int64_t>({2}, {-2, 0})}));
  EXPECT_THAT(DimsOf(input[0]), ElementsAre(3, 2));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Squeeze <axes = [1]> (X)", 11, {x}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Squeeze <axes = [-2]> (X)", 1, {x}), kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto neg, RunNode(registry_, "Y = Squeeze <axes = [-2]> (X)", 11, {x}));
  EXPECT_THAT(DimsOf(neg[0]), ElementsAre(1, 3, 2));
}

TEST_F(ReshapeTest, UnsqueezeAxesIndexTheOutput) {
  Value x = TensorValue<float>({3, 4}, std::vector<float>(12, 0.0f));
  ASSERT_OK_AND_ASSIGN(auto attr, RunNode(registry_, "Y = Unsqueeze <axes = [0, 3]> (X)", 1, {x}));
  EXPECT_THAT(DimsOf(attr[0]), ElementsAre(1, 3, 4, 1));
  ASSERT_OK_AND_ASSIGN(auto unsorted, RunNode(registry_, "Y = Unsqueeze(X, A)", 13,
                                              {x, TensorValue<int64_t>({2}, {3, 1})}));
  EXPECT_THAT(DimsOf(unsorted[0]), ElementsAre(3, 1, 4, 1));
  ASSERT_OK_AND_ASSIGN(auto neg, RunNode(registry_, "Y = Unsqueeze <axes = [-1]> (X)", 11, {x}));
  EXPECT_THAT(DimsOf(neg[0]), ElementsAre(3, 4, 1));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Unsqueeze <axes = [-1]> (X)", 1, {x}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = Unsqueeze(X, A)", 13, {x, TensorValue<int64_t>({2}, {1, 1})}),
      kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto scalar,
                       RunNode(registry_, "Y = Unsqueeze(X, A)", 13,
                               {TensorValue<float>({}, {5}), TensorValue<int64_t>({1}, {0})}));
  EXPECT_THAT(DimsOf(scalar[0]), ElementsAre(1));
}

}  // namespace
}  // namespace onnxgate::ref
