// Tests of Concat and Split.
#include "runtime/ep/ref/kernels/tensor/concat_split.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

class ConcatSplitTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(ConcatSplitTest, ConcatAlongEachAxis) {
  Value a = TensorValue<int32_t>({2, 2}, {1, 2, 3, 4});
  Value b = TensorValue<int32_t>({2, 1}, {5, 6});
  ASSERT_OK_AND_ASSIGN(auto c1, RunNode(registry_, "Y = Concat <axis = 1> (A, B)", 4, {a, b}));
  EXPECT_THAT(DimsOf(c1[0]), ElementsAre(2, 3));
  EXPECT_THAT(ValuesOf<int32_t>(c1[0]), ElementsAre(1, 2, 5, 3, 4, 6));
  ASSERT_OK_AND_ASSIGN(auto c0, RunNode(registry_, "Y = Concat <axis = 0> (A, A)", 4, {a, a}));
  EXPECT_THAT(ValuesOf<int32_t>(c0[0]), ElementsAre(1, 2, 3, 4, 1, 2, 3, 4));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Concat <axis = 0> (A, B)", 4, {a, b}),
                    kInvalidArgument);
}

TEST_F(ConcatSplitTest, ConcatNegativeAxisFromOpset11AndDefaultAxisInOpset1) {
  Value a = TensorValue<float>({1, 2}, {1, 2});
  ASSERT_OK_AND_ASSIGN(auto neg, RunNode(registry_, "Y = Concat <axis = -1> (A, A)", 11, {a, a}));
  EXPECT_THAT(DimsOf(neg[0]), ElementsAre(1, 4));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Concat <axis = -1> (A, A)", 4, {a, a}),
                    kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto def, RunNode(registry_, "Y = Concat(A, A)", 1, {a, a}));
  EXPECT_THAT(DimsOf(def[0]), ElementsAre(1, 4));
  EXPECT_FALSE(RunNode(registry_, "Y = Concat(A, A)", 4, {a, a}).ok());  // axis is required
}

TEST_F(ConcatSplitTest, ConcatWithEmptyInputsAndStrings) {
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "Y = Concat <axis = 0> (A, B, C)", 13,
                        {TensorValue<std::string>({1}, {"a"}), TensorValue<std::string>({0}, {}),
                         TensorValue<std::string>({2}, {"b", "c"})}));
  EXPECT_THAT(ValuesOf<std::string>(out[0]), ElementsAre("a", "b", "c"));
}

TEST_F(ConcatSplitTest, SplitEqualPartsAndExplicitSizes) {
  Value x = TensorValue<int64_t>({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  ASSERT_OK_AND_ASSIGN(auto eq, RunNode(registry_, "Y, Z = Split <axis = 1> (X)", 13, {x}));
  EXPECT_THAT(ValuesOf<int64_t>(eq[0]), ElementsAre(1, 2, 5, 6));
  EXPECT_THAT(ValuesOf<int64_t>(eq[1]), ElementsAre(3, 4, 7, 8));
  ASSERT_OK_AND_ASSIGN(auto sized, RunNode(registry_, "Y, Z = Split <axis = -1> (X, S)", 13,
                                           {x, TensorValue<int64_t>({2}, {3, 1})}));
  EXPECT_THAT(DimsOf(sized[0]), ElementsAre(2, 3));
  EXPECT_THAT(ValuesOf<int64_t>(sized[1]), ElementsAre(4, 8));
  ASSERT_OK_AND_ASSIGN(auto attr,
                       RunNode(registry_, "Y, Z = Split <axis = 1, split = [0, 4]> (X)", 11, {x}));
  EXPECT_THAT(DimsOf(attr[0]), ElementsAre(2, 0));
  EXPECT_THAT(DimsOf(attr[1]), ElementsAre(2, 4));
}

TEST_F(ConcatSplitTest, SplitErrors) {
  Value x = TensorValue<float>({5}, {1, 2, 3, 4, 5});
  EXPECT_ERROR_CODE(RunNode(registry_, "Y, Z = Split(X)", 13, {x}), kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y, Z = Split(X, S)", 13, {x, TensorValue<int64_t>({2}, {2, 2})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y, Z = Split <axis = -1> (X)", 2, {x}), kInvalidArgument);
}

TEST_F(ConcatSplitTest, Split1TakesSizesAsFloatInput) {
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "Y, Z = Split(X, S)", 1,
                        {TensorValue<float>({3}, {1, 2, 3}), TensorValue<float>({2}, {1, 2})}));
  EXPECT_THAT(ValuesOf<float>(out[1]), ElementsAre(2, 3));
}

TEST_F(ConcatSplitTest, Split18NumOutputsMakesTheLastPartSmaller) {
  Value x = TensorValue<int32_t>({5}, {1, 2, 3, 4, 5});
  ASSERT_OK_AND_ASSIGN(auto out,
                       RunNode(registry_, "A, B, C = Split <num_outputs = 3> (X)", 18, {x}));
  EXPECT_THAT(ValuesOf<int32_t>(out[0]), ElementsAre(1, 2));
  EXPECT_THAT(ValuesOf<int32_t>(out[1]), ElementsAre(3, 4));
  EXPECT_THAT(ValuesOf<int32_t>(out[2]), ElementsAre(5));
  ASSERT_OK_AND_ASSIGN(auto even, RunNode(registry_, "A, B = Split <num_outputs = 2> (X)", 18,
                                          {TensorValue<int32_t>({4}, {1, 2, 3, 4})}));
  EXPECT_THAT(ValuesOf<int32_t>(even[1]), ElementsAre(3, 4));
  ASSERT_OK_AND_ASSIGN(auto sizes, RunNode(registry_, "A, B = Split(X, S)", 18,
                                           {x, TensorValue<int64_t>({2}, {4, 1})}));
  EXPECT_THAT(ValuesOf<int32_t>(sizes[0]), ElementsAre(1, 2, 3, 4));
}

TEST_F(ConcatSplitTest, Split18NeedsExactlyOneOfSplitAndNumOutputs) {
  Value x = TensorValue<int32_t>({5}, {1, 2, 3, 4, 5});
  // Neither, both, a count that differs from the outputs, and 4 parts of 2 for 5 elements.
  EXPECT_ERROR_CODE(RunNode(registry_, "A, B = Split(X)", 18, {x}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "A, B = Split <num_outputs = 2> (X, S)", 18,
                            {x, TensorValue<int64_t>({2}, {4, 1})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "A, B = Split <num_outputs = 3> (X)", 18, {x}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "A, B, C, D = Split <num_outputs = 4> (X)", 18, {x}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "A = Split <num_outputs = 0> (X)", 18, {x}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
