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

// The codes of a packed or FLOAT8 tensor value.
std::vector<int> CodesOf(const Value& v) {
  const Tensor& t = v.tensor();
  std::vector<int> out;
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    out.push_back(IsPackedSubByte(t.dtype()) ? t.PackedCode(i)
                                             : static_cast<const uint8_t*>(t.raw_data())[i]);
  }
  return out;
}

// The text syntax writes packed types as their packed bytes (as TensorProto's int32_data holds
// them) and FLOAT8 as codes.
TEST_F(ConstantTest, NewerElementTypes) {
  ASSERT_OK_AND_ASSIGN(auto i4,
                       RunNode(registry_, "Y = Constant <value = int4[3] {33, 15}> ()", 21, {}));
  EXPECT_EQ(i4[0].tensor().dtype(), DataType::kInt4);
  EXPECT_THAT(DimsOf(i4[0]), ElementsAre(3));
  EXPECT_THAT(CodesOf(i4[0]), ElementsAre(1, 2, 15));
  EXPECT_EQ(i4[0].tensor().SubByteInt(2), -1);
  ASSERT_OK_AND_ASSIGN(
      auto f8, RunNode(registry_, "Y = Constant <value = float8e4m3fn[2] {56, 126}> ()", 19, {}));
  EXPECT_EQ(f8[0].tensor().dtype(), DataType::kFloat8E4M3FN);
  EXPECT_THAT(CodesOf(f8[0]), ElementsAre(56, 126));
  ASSERT_OK_AND_ASSIGN(auto u2,
                       RunNode(registry_, "Y = Constant <value = uint2[5] {228, 2}> ()", 25, {}));
  EXPECT_THAT(CodesOf(u2[0]), ElementsAre(0, 1, 2, 3, 2));
  ASSERT_OK_AND_ASSIGN(auto f4,
                       RunNode(registry_, "Y = Constant <value = float4e2m1[2] {113}> ()", 23, {}));
  EXPECT_THAT(CodesOf(f4[0]), ElementsAre(1, 7));
  ASSERT_OK_AND_ASSIGN(auto e8,
                       RunNode(registry_, "Y = Constant <value = float8e8m0[1] {127}> ()", 24, {}));
  EXPECT_EQ(e8[0].tensor().dtype(), DataType::kFloat8E8M0);
  // Each type only from the version that adds it.
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Constant <value = float8e4m3fn[1] {56}> ()", 18, {}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Constant <value = int4[1] {1}> ()", 19, {}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Constant <value = float4e2m1[1] {1}> ()", 21, {}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Constant <value = float8e8m0[1] {1}> ()", 23, {}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Constant <value = int2[1] {1}> ()", 24, {}),
                    kInvalidArgument);
  // Three INT4 elements take two packed bytes, not one or three.
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Constant <value = int4[3] {33}> ()", 21, {}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Constant <value = int4[3] {1, 2, 3}> ()", 21, {}),
                    kInvalidArgument);
}

TEST_F(ConstantTest, ConstantOfShapeNewerElementTypes) {
  const Value shape3 = TensorValue<int64_t>({1}, {3});
  ASSERT_OK_AND_ASSIGN(
      auto i4, RunNode(registry_, "Y = ConstantOfShape <value = int4[1] {13}> (S)", 21, {shape3}));
  EXPECT_EQ(i4[0].tensor().dtype(), DataType::kInt4);
  EXPECT_THAT(CodesOf(i4[0]), ElementsAre(13, 13, 13));
  // The padding nibble of the last byte stays zero.
  EXPECT_EQ(static_cast<const uint8_t*>(i4[0].tensor().raw_data())[1], 13);
  ASSERT_OK_AND_ASSIGN(auto u2, RunNode(registry_, "Y = ConstantOfShape <value = uint2[1] {3}> (S)",
                                        25, {TensorValue<int64_t>({2}, {1, 5})}));
  EXPECT_THAT(DimsOf(u2[0]), ElementsAre(1, 5));
  EXPECT_EQ(static_cast<const uint8_t*>(u2[0].tensor().raw_data())[0], 0xFF);
  EXPECT_EQ(static_cast<const uint8_t*>(u2[0].tensor().raw_data())[1], 0x03);
  ASSERT_OK_AND_ASSIGN(
      auto f8,
      RunNode(registry_, "Y = ConstantOfShape <value = float8e5m2[1] {60}> (S)", 20, {shape3}));
  EXPECT_THAT(CodesOf(f8[0]), ElementsAre(60, 60, 60));
  ASSERT_OK_AND_ASSIGN(
      auto bf,
      RunNode(registry_, "Y = ConstantOfShape <value = bfloat16[1] {16256}> (S)", 20, {shape3}));
  EXPECT_THAT(HalfValuesOf<BFloat16>(bf[0]), ElementsAre(1, 1, 1));
  ASSERT_OK_AND_ASSIGN(auto f4,
                       RunNode(registry_, "Y = ConstantOfShape <value = float4e2m1[1] {7}> (S)", 23,
                               {TensorValue<int64_t>({0}, {})}));
  EXPECT_THAT(DimsOf(f4[0]), ElementsAre());
  EXPECT_THAT(CodesOf(f4[0]), ElementsAre(7));
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = ConstantOfShape <value = bfloat16[1] {16256}> (S)", 9, {shape3}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = ConstantOfShape <value = int4[1] {1}> (S)", 20, {shape3}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = ConstantOfShape <value = int2[1] {1}> (S)", 24, {shape3}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = ConstantOfShape <value = int4[2] {33}> (S)", 21, {shape3}),
      kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
