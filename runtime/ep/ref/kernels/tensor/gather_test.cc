// Tests of Gather, including the negative-index split at opset 11.
#include "runtime/ep/ref/kernels/tensor/gather.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class GatherTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  Value data_ = TensorValue<float>({3, 2}, {1, 2, 3, 4, 5, 6});
};

TEST_F(GatherTest, Axis0WithMatrixIndices) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Gather(D, I)", 13,
                                         {data_, TensorValue<int64_t>({2, 2}, {0, 1, 1, 2})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 2, 2));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(1, 2, 3, 4, 3, 4, 5, 6));
}

TEST_F(GatherTest, Axis1AndScalarIndex) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Gather <axis = -1> (D, I)", 13,
                                         {data_, TensorValue<int32_t>({}, {1})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(3));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(2, 4, 6));
}

TEST_F(GatherTest, NegativeIndicesFromOpset11) {
  Value idx = TensorValue<int64_t>({1}, {-1});
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Gather(D, I)", 11, {data_, idx}));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(5, 6));
  auto old = RunNode(registry_, "Y = Gather(D, I)", 10, {data_, idx});
  ASSERT_FALSE(old.ok());
  EXPECT_EQ(old.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(old.status().message(), HasSubstr("Gather-11"));
}

TEST_F(GatherTest, OutOfRangeIndexIsAnError) {
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = Gather(D, I)", 13, {data_, TensorValue<int64_t>({1}, {3})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = Gather(D, I)", 13, {data_, TensorValue<int64_t>({1}, {-4})}),
      kInvalidArgument);
}

TEST_F(GatherTest, EmptyIndicesAndStrings) {
  ASSERT_OK_AND_ASSIGN(auto empty, RunNode(registry_, "Y = Gather(D, I)", 13,
                                           {data_, TensorValue<int64_t>({0}, {})}));
  EXPECT_THAT(DimsOf(empty[0]), ElementsAre(0, 2));
  ASSERT_OK_AND_ASSIGN(auto s, RunNode(registry_, "Y = Gather(D, I)", 13,
                                       {TensorValue<std::string>({3}, {"a", "b", "c"}),
                                        TensorValue<int32_t>({3}, {2, 2, 0})}));
  EXPECT_THAT(ValuesOf<std::string>(s[0]), ElementsAre("c", "c", "a"));
}

}  // namespace
}  // namespace onnxgate::ref
