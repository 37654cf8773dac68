// Tests of Constant (every attribute form) and ConstantOfShape.
#include "runtime/ep/ref/kernels/generator/constant.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

class ConstantTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(ConstantTest, ValueTensor) {
  ASSERT_OK_AND_ASSIGN(auto out,
                       RunNode(registry_, "Y = Constant <value = float[2] {1.5, -2}> ()", 1, {}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(1.5f, -2.0f));
  ASSERT_OK_AND_ASSIGN(auto i,
                       RunNode(registry_, "Y = Constant <value = int64[2] {7, 8}> ()", 9, {}));
  EXPECT_THAT(ValuesOf<int64_t>(i[0]), ElementsAre(7, 8));
  // int64 is not among Constant-1's types.
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Constant <value = int64[2] {7, 8}> ()", 8, {}),
                    kInvalidArgument);
}

TEST_F(ConstantTest, ScalarAndListFormsFromOpset12) {
  ASSERT_OK_AND_ASSIGN(auto f, RunNode(registry_, "Y = Constant <value_float = 2.5> ()", 12, {}));
  EXPECT_THAT(DimsOf(f[0]), IsEmpty());
  EXPECT_THAT(ValuesOf<float>(f[0]), ElementsAre(2.5f));
  ASSERT_OK_AND_ASSIGN(auto fs,
                       RunNode(registry_, "Y = Constant <value_floats = [1.0, 2.0]> ()", 13, {}));
  EXPECT_THAT(ValuesOf<float>(fs[0]), ElementsAre(1, 2));
  ASSERT_OK_AND_ASSIGN(auto n, RunNode(registry_, "Y = Constant <value_int = -3> ()", 13, {}));
  EXPECT_THAT(ValuesOf<int64_t>(n[0]), ElementsAre(-3));
  ASSERT_OK_AND_ASSIGN(auto ns,
                       RunNode(registry_, "Y = Constant <value_ints = [4, 5, 6]> ()", 13, {}));
  EXPECT_THAT(DimsOf(ns[0]), ElementsAre(3));
  EXPECT_THAT(ValuesOf<int64_t>(ns[0]), ElementsAre(4, 5, 6));
  ASSERT_OK_AND_ASSIGN(auto s,
                       RunNode(registry_, "Y = Constant <value_string = \"hi\"> ()", 13, {}));
  EXPECT_THAT(ValuesOf<std::string>(s[0]), ElementsAre("hi"));
  ASSERT_OK_AND_ASSIGN(
      auto ss, RunNode(registry_, "Y = Constant <value_strings = [\"a\", \"b\"]> ()", 13, {}));
  EXPECT_THAT(ValuesOf<std::string>(ss[0]), ElementsAre("a", "b"));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Constant <value_int = 1> ()", 11, {}),
                    kInvalidArgument);
}

TEST_F(ConstantTest, ExactlyOneValueAttribute) {
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = Constant <value_int = 1, value_float = 2.0> ()", 13, {}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Constant ()", 13, {}), kInvalidArgument);
}

TEST_F(ConstantTest, ConstantOfShape) {
  ASSERT_OK_AND_ASSIGN(auto def, RunNode(registry_, "Y = ConstantOfShape(S)", 9,
                                         {TensorValue<int64_t>({2}, {2, 3})}));
  EXPECT_THAT(DimsOf(def[0]), ElementsAre(2, 3));
  EXPECT_THAT(ValuesOf<float>(def[0]), ElementsAre(0, 0, 0, 0, 0, 0));
  ASSERT_OK_AND_ASSIGN(auto ints,
                       RunNode(registry_, "Y = ConstantOfShape <value = int32[1] {7}> (S)", 9,
                               {TensorValue<int64_t>({1}, {3})}));
  EXPECT_THAT(ValuesOf<int32_t>(ints[0]), ElementsAre(7, 7, 7));
  ASSERT_OK_AND_ASSIGN(auto scalar, RunNode(registry_, "Y = ConstantOfShape(S)", 9,
                                            {TensorValue<int64_t>({0}, {})}));
  EXPECT_THAT(DimsOf(scalar[0]), IsEmpty());
  ASSERT_OK_AND_ASSIGN(auto empty, RunNode(registry_, "Y = ConstantOfShape(S)", 9,
                                           {TensorValue<int64_t>({1}, {0})}));
  EXPECT_THAT(DimsOf(empty[0]), ElementsAre(0));
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = ConstantOfShape(S)", 9, {TensorValue<int64_t>({1}, {-1})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = ConstantOfShape(S)", 9,
                            {TensorValue<int64_t>({2}, {1 << 30, 1 << 30})}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
