// Tests of BitShift: both directions, shifts as wide as the type, signed types from opset 28.
#include "runtime/ep/ref/kernels/logical/bit_shift.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

class BitShiftTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(BitShiftTest, BitShiftBothDirectionsAndWideShifts) {
  std::vector<Value> in = {TensorValue<uint8_t>({3}, {1, 128, 255}),
                           TensorValue<uint8_t>({3}, {7, 1, 8})};
  ASSERT_OK_AND_ASSIGN(auto l,
                       RunNode(registry_, "Z = BitShift <direction = \"LEFT\"> (X, Y)", 11, in));
  EXPECT_THAT(ValuesOf<uint8_t>(l[0]), ElementsAre(128, 0, 0));
  ASSERT_OK_AND_ASSIGN(auto r,
                       RunNode(registry_, "Z = BitShift <direction = \"RIGHT\"> (X, Y)", 11, in));
  EXPECT_THAT(ValuesOf<uint8_t>(r[0]), ElementsAre(0, 64, 0));
  EXPECT_ERROR_CODE(RunNode(registry_, "Z = BitShift <direction = \"UP\"> (X, Y)", 11, in),
                    kInvalidArgument);
}

TEST_F(BitShiftTest, SignedBitShiftFromOpset28) {
  std::vector<Value> right = {TensorValue<int8_t>({6}, {-8, -1, 8, -128, -5, 5}),
                              TensorValue<int8_t>({6}, {1, 3, 1, 7, -1, 8})};
  EXPECT_ERROR_CODE(RunNode(registry_, "Z = BitShift <direction = \"RIGHT\"> (X, Y)", 27, right),
                    kUnimplemented);
  const std::string shift_right = "Z = BitShift <direction = \"RIGHT\"> (X, Y)";
  ASSERT_OK_AND_ASSIGN(auto r, RunNode(registry_, shift_right, 28, right));
  // Arithmetic shifts; a negative or too large shift leaves only the sign extension.
  EXPECT_THAT(ValuesOf<int8_t>(r[0]), ElementsAre(-4, -1, 4, -1, -1, 0));
  ASSERT_OK_AND_ASSIGN(auto l, RunNode(registry_, "Z = BitShift <direction = \"LEFT\"> (X, Y)", 28,
                                       {TensorValue<int8_t>({5}, {64, -1, 1, -5, 3}),
                                        TensorValue<int8_t>({5}, {1, 7, 8, -1, 0})}));
  EXPECT_THAT(ValuesOf<int8_t>(l[0]), ElementsAre(-128, -128, 0, 0, 3));
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  ASSERT_OK_AND_ASSIGN(auto w, RunNode(registry_, "Z = BitShift <direction = \"RIGHT\"> (X, Y)", 28,
                                       {TensorValue<int64_t>({3}, {kMin, kMin, -3}),
                                        TensorValue<int64_t>({3}, {63, 64, 1})}));
  EXPECT_THAT(ValuesOf<int64_t>(w[0]), ElementsAre(-1, -1, -2));
  ASSERT_OK_AND_ASSIGN(
      auto u, RunNode(registry_, "Z = BitShift <direction = \"LEFT\"> (X, Y)", 28,
                      {TensorValue<uint16_t>({2}, {1, 1}), TensorValue<uint16_t>({2}, {15, 16})}));
  EXPECT_THAT(ValuesOf<uint16_t>(u[0]), ElementsAre(0x8000, 0));
  EXPECT_ERROR_CODE(RunNode(registry_, "Z = BitShift <direction = \"UP\"> (X, Y)", 28, right),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
