// Tests of TensorScatter: linear and circular writes, the default write index, other axes and
// element types, and the rejected shapes, modes and indices.
#include "runtime/ep/ref/kernels/tensor/tensor_scatter.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

class TensorScatterTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  // [batch 2, max_sequence_length 4, 1]
  Value cache_ = TensorValue<float>({2, 4, 1}, {0, 0, 0, 0, 0, 0, 0, 0});
  Value update_ = TensorValue<float>({2, 2, 1}, {1, 2, 3, 4});
};

TEST_F(TensorScatterTest, LinearWritesAtEachBatchIndex) {
  ASSERT_OK_AND_ASSIGN(auto y, RunNode(registry_, "Y = TensorScatter(C, U, W)", 24,
                                       {cache_, update_, TensorValue<int64_t>({2}, {1, 2})}));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(2, 4, 1));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(0, 1, 2, 0, 0, 0, 3, 4));
  // Without write_indices every batch entry writes at 0.
  ASSERT_OK_AND_ASSIGN(auto z,
                       RunNode(registry_, "Y = TensorScatter(C, U)", 24, {cache_, update_}));
  EXPECT_THAT(ValuesOf<float>(z[0]), ElementsAre(1, 2, 0, 0, 3, 4, 0, 0));
  // The input is not changed.
  EXPECT_THAT(ValuesOf<float>(cache_), ElementsAre(0, 0, 0, 0, 0, 0, 0, 0));
}

TEST_F(TensorScatterTest, CircularWrapsAround) {
  ASSERT_OK_AND_ASSIGN(auto y,
                       RunNode(registry_, "Y = TensorScatter <mode = \"circular\"> (C, U, W)", 24,
                               {cache_, update_, TensorValue<int64_t>({2}, {3, 6})}));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(2, 0, 0, 1, 0, 0, 3, 4));
}

TEST_F(TensorScatterTest, AxisBetweenOtherDims) {
  // [batch 1, heads 2, seq 3], axis 2 (= -1): prefixes (batch, head) share the batch's index.
  const Value cache = TensorValue<int32_t>({1, 2, 3}, {0, 0, 0, 0, 0, 0});
  const Value update = TensorValue<int32_t>({1, 2, 1}, {7, 8});
  ASSERT_OK_AND_ASSIGN(auto y, RunNode(registry_, "Y = TensorScatter <axis = -1> (C, U, W)", 24,
                                       {cache, update, TensorValue<int64_t>({1}, {2})}));
  EXPECT_THAT(ValuesOf<int32_t>(y[0]), ElementsAre(0, 0, 7, 0, 0, 8));
}

TEST_F(TensorScatterTest, PackedElements) {
  auto cache = Tensor::FromSubByteInts(DataType::kInt4, Shape({1, 3}), {0, 0, 0});
  auto update = Tensor::FromSubByteInts(DataType::kInt4, Shape({1, 2}), {-5, 6});
  ASSERT_TRUE(cache.ok() && update.ok());
  ASSERT_OK_AND_ASSIGN(auto y, RunNode(registry_, "Y = TensorScatter <axis = 1> (C, U, W)", 24,
                                       {Value::FromTensor(*cache), Value::FromTensor(*update),
                                        TensorValue<int64_t>({1}, {1})}));
  const Tensor& t = y[0].tensor();
  EXPECT_EQ(t.SubByteInt(0), 0);
  EXPECT_EQ(t.SubByteInt(1), -5);
  EXPECT_EQ(t.SubByteInt(2), 6);
}

TEST_F(TensorScatterTest, RejectsBadShapesIndicesAndAttributes) {
  const Value w = TensorValue<int64_t>({2}, {3, 0});
  // Linear writes past the end; negative index; wrong count of indices.
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = TensorScatter(C, U, W)", 24, {cache_, update_, w}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = TensorScatter(C, U, W)", 24,
                            {cache_, update_, TensorValue<int64_t>({2}, {-1, 0})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = TensorScatter(C, U, W)", 24,
                            {cache_, update_, TensorValue<int64_t>({1}, {0})}),
                    kInvalidArgument);
  // The update is longer than the cache, or differs outside the axis.
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = TensorScatter(C, U)", 24, {update_, cache_}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = TensorScatter(C, U)", 24,
                            {cache_, TensorValue<float>({1, 2, 1}, {1, 2})}),
                    kInvalidArgument);
  // Axis 0 is the batch; unknown modes; rank 1.
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = TensorScatter <axis = 0> (C, U)", 24, {cache_, update_}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = TensorScatter <mode = \"ring\"> (C, U)", 24, {cache_, update_}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = TensorScatter(C, U)", 24,
                            {TensorValue<float>({2}, {0, 0}), TensorValue<float>({2}, {1, 2})}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
