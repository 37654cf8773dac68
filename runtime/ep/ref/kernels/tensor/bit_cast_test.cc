// Tests of BitCast: the bits kept across types of one width, packed types, and the rejected
// widths, strings and bool bytes.
#include "runtime/ep/ref/kernels/tensor/bit_cast.h"

#include <cstring>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

class BitCastTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(BitCastTest, KeepsTheBits) {
  ASSERT_OK_AND_ASSIGN(auto f, RunNode(registry_, "Y = BitCast <to = 6> (X)", 26,
                                       {TensorValue<float>({2}, {1.0f, -2.0f})}));
  EXPECT_THAT(DimsOf(f[0]), ElementsAre(2));
  EXPECT_THAT(ValuesOf<int32_t>(f[0]), ElementsAre(0x3F800000, static_cast<int32_t>(0xC0000000)));
  ASSERT_OK_AND_ASSIGN(auto u, RunNode(registry_, "Y = BitCast <to = 5> (X)", 26,
                                       {TensorValue<uint16_t>({}, {65535})}));
  EXPECT_THAT(ValuesOf<int16_t>(u[0]), ElementsAre(-1));
  ASSERT_OK_AND_ASSIGN(auto b, RunNode(registry_, "Y = BitCast <to = 2> (X)", 26,
                                       {TensorValue<bool>({2}, {true, false})}));
  EXPECT_THAT(ValuesOf<uint8_t>(b[0]), ElementsAre(1, 0));
  // complex64 and int64 are both 64 bits wide.
  ASSERT_OK_AND_ASSIGN(auto c, RunNode(registry_, "Y = BitCast <to = 14> (X)", 26,
                                       {TensorValue<int64_t>({1}, {0x3F80000000000000})}));
  EXPECT_EQ(ValuesOf<std::complex<float>>(c[0])[0], std::complex<float>(0.0f, 1.0f));
}

TEST_F(BitCastTest, PackedTypesOfOneWidth) {
  auto x = Tensor::FromSubByteInts(DataType::kInt4, Shape({3}), {-1, 7, -8});
  ASSERT_TRUE(x.ok());
  ASSERT_OK_AND_ASSIGN(
      auto y, RunNode(registry_, "Y = BitCast <to = 21> (X)", 26, {Value::FromTensor(*x)}));
  const Tensor& t = y[0].tensor();
  ASSERT_EQ(t.dtype(), DataType::kUint4);
  EXPECT_EQ(t.SubByteInt(0), 15);
  EXPECT_EQ(t.SubByteInt(1), 7);
  EXPECT_EQ(t.SubByteInt(2), 8);
  // INT4 to FLOAT4E2M1: code 7 is 6.0.
  ASSERT_OK_AND_ASSIGN(
      auto f4, RunNode(registry_, "Y = BitCast <to = 23> (X)", 26, {Value::FromTensor(*x)}));
  EXPECT_EQ(f4[0].tensor().ElementAsDouble(1), 6.0);
}

TEST_F(BitCastTest, RejectsOtherWidthsStringsAndNonBoolBytes) {
  const Value f = TensorValue<float>({1}, {1.0f});
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = BitCast <to = 7> (X)", 26, {f}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = BitCast <to = 8> (X)", 26, {f}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = BitCast <to = 0> (X)", 26, {f}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = BitCast <to = 99> (X)", 26, {f}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = BitCast(X)", 26, {f}), kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = BitCast <to = 9> (X)", 26, {TensorValue<uint8_t>({2}, {1, 2})}),
      kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto ok, RunNode(registry_, "Y = BitCast <to = 9> (X)", 26,
                                        {TensorValue<uint8_t>({2}, {1, 0})}));
  EXPECT_THAT(ValuesOf<bool>(ok[0]), ElementsAre(true, false));
}

}  // namespace
}  // namespace onnxgate::ref
