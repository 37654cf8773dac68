// Tests of Shrink on floats and integers.
#include "runtime/ep/ref/kernels/nn/shrink.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

class ShrinkTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(ShrinkTest, ShrinkOfFloatsAndIntegers) {
  ASSERT_OK_AND_ASSIGN(auto f, RunNode(registry_, "Y = Shrink <lambd = 1.0, bias = 0.5> (X)", 9,
                                       {TensorValue<float>({5}, {-2, -1, 0, 1, 2})}));
  EXPECT_THAT(ValuesOf<float>(f[0]), ElementsAre(-1.5f, 0, 0, 0, 1.5f));
  ASSERT_OK_AND_ASSIGN(auto i, RunNode(registry_, "Y = Shrink <lambd = 1.0, bias = 1.0> (X)", 9,
                                       {TensorValue<int8_t>({3}, {-5, 1, 5})}));
  EXPECT_THAT(ValuesOf<int8_t>(i[0]), ElementsAre(-4, 0, 4));
}

}  // namespace
}  // namespace onnxgate::ref
