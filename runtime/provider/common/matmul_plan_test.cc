// Tests of PlanMatMul: batch offsets under broadcasting, 1-D operands, and the shapes it refuses.
#include "runtime/provider/common/matmul_plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(MatMulPlanTest, ReportsOffsetsPerBatch) {
  auto plan = PlanMatMul(Shape{2, 1, 1, 3}, Shape{4, 3, 5});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->output, (Shape{2, 4, 1, 5}));
  EXPECT_THAT(plan->a_offsets, ElementsAre(0, 0, 0, 0, 3, 3, 3, 3));
  EXPECT_THAT(plan->b_offsets, ElementsAre(0, 15, 30, 45, 0, 15, 30, 45));
}

TEST(MatMulPlanTest, OneDimensionalOperandsLoseTheirAddedDim) {
  auto vec_mat = PlanMatMul(Shape{3}, Shape{3, 4});
  ASSERT_TRUE(vec_mat.ok()) << vec_mat.status().ToString();
  EXPECT_EQ(vec_mat->output, (Shape{4}));
  EXPECT_EQ(vec_mat->m, 1);
  auto mat_vec = PlanMatMul(Shape{2, 3}, Shape{3});
  ASSERT_TRUE(mat_vec.ok()) << mat_vec.status().ToString();
  EXPECT_EQ(mat_vec->output, (Shape{2}));
  EXPECT_EQ(mat_vec->n, 1);
  auto dot = PlanMatMul(Shape{3}, Shape{3});
  ASSERT_TRUE(dot.ok()) << dot.status().ToString();
  EXPECT_EQ(dot->output, (Shape{}));
}

TEST(MatMulPlanTest, RefusesScalarsMismatchedInnerDimsAndBatches) {
  auto scalar = PlanMatMul(Shape{}, Shape{3});
  EXPECT_EQ(scalar.status().code(), StatusCode::kInvalidArgument);
  auto inner = PlanMatMul(Shape{2, 3}, Shape{4, 5});
  EXPECT_EQ(inner.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(inner.status().message(), HasSubstr("inner dims differ"));
  auto batch = PlanMatMul(Shape{2, 2, 3}, Shape{3, 3, 4});
  EXPECT_EQ(batch.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(batch.status().message(), HasSubstr("batch dims"));
}

}  // namespace
}  // namespace onnxgate
