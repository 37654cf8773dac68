// Tests of GroupNormalization: statistics per image and group, scale and bias per group (18) or
// per channel (21), stash_type, and rejected shapes and attributes.
#include "runtime/ep/ref/kernels/nn/group_normalization.h"

#include <cmath>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

// X [1, 4, 2]: group 0 is channels 0-1 {1, 3, 1, 3}, group 1 channels 2-3 {0, 0, 4, 4}; both
// normalize to -1 / 1 (with epsilon 0).
Value X() { return TensorValue<float>({1, 4, 2}, {1, 3, 1, 3, 0, 0, 4, 4}); }

TEST(GroupNormalizationTest, Version21ScalesPerChannel) {
  auto y =
      RunNn("Y = GroupNormalization <num_groups = 2, epsilon = 0.0> (X, scale, bias)", 21,
            {X(), TensorValue<float>({4}, {1, 2, 3, 4}), TensorValue<float>({4}, {0, 10, 20, 30})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<float>(y[0]), FloatsNear(std::vector<double>{-1, 1, 8, 12, 17, 17, 34, 34}));
}

TEST(GroupNormalizationTest, Version18ScalesPerGroup) {
  auto y = RunNn("Y = GroupNormalization <num_groups = 2, epsilon = 0.0> (X, scale, bias)", 18,
                 {X(), TensorValue<float>({2}, {2, 3}), TensorValue<float>({2}, {0, 10})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<float>(y[0]), FloatsNear(std::vector<double>{-2, 2, -2, 2, 7, 7, 13, 13}));
}

TEST(GroupNormalizationTest, EpsilonAndOneGroup) {
  // One group over {0, 2}: mean 1, variance 1; epsilon 3 gives 1 / sqrt(4).
  auto y = RunNn("Y = GroupNormalization <num_groups = 1, epsilon = 3.0> (X, scale, bias)", 21,
                 {TensorValue<double>({1, 2, 1}, {0, 2}), TensorValue<double>({2}, {1, 1}),
                  TensorValue<double>({2}, {0, 0})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<double>(y[0]), FloatsNear(std::vector<double>{-0.5, 0.5}));
}

TEST(GroupNormalizationTest, HalfTypesAndStashType) {
  for (int stash : {1, 10, 11, 16}) {
    auto y = RunNn("Y = GroupNormalization <num_groups = 2, epsilon = 0.0, stash_type = " +
                       std::to_string(stash) + "> (X, scale, bias)",
                   21,
                   {BFloat16Value({1, 4, 2}, {1, 3, 1, 3, 0, 0, 4, 4}),
                    BFloat16Value({4}, {1, 1, 1, 1}), BFloat16Value({4}, {0, 0, 0, 0})});
    ASSERT_EQ(y.size(), 1u);
    EXPECT_THAT(HalfValuesOf<BFloat16>(y[0]), ElementsAre(-1, 1, -1, 1, -1, -1, 1, 1)) << stash;
  }
}

TEST(GroupNormalizationTest, BadShapesAndAttributesAreErrors) {
  const Value s4 = TensorValue<float>({4}, {1, 1, 1, 1});
  const Value b4 = TensorValue<float>({4}, {0, 0, 0, 0});
  // num_groups missing, zero, or not dividing C.
  EXPECT_ERROR_CODE(RunNnStatus("Y = GroupNormalization(X, scale, bias)", 21, {X(), s4, b4}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNnStatus("Y = GroupNormalization <num_groups = 0> (X, scale, bias)", 21, {X(), s4, b4}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNnStatus("Y = GroupNormalization <num_groups = 3> (X, scale, bias)", 21, {X(), s4, b4}),
      kInvalidArgument);
  // Version 21 needs one scale per channel, version 18 one per group.
  EXPECT_ERROR_CODE(RunNnStatus("Y = GroupNormalization <num_groups = 2> (X, scale, bias)", 21,
                                {X(), TensorValue<float>({2}, {1, 1}), b4}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNnStatus("Y = GroupNormalization <num_groups = 2> (X, scale, bias)", 18, {X(), s4, b4}),
      kInvalidArgument);
  // stash_type: not a float type, or given before version 21.
  EXPECT_ERROR_CODE(RunNnStatus("Y = GroupNormalization <num_groups = 2, stash_type = 7> "
                                "(X, scale, bias)",
                                21, {X(), s4, b4}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNnStatus("Y = GroupNormalization <num_groups = 2, stash_type = 1> "
                  "(X, scale, bias)",
                  18, {X(), TensorValue<float>({2}, {1, 1}), TensorValue<float>({2}, {0, 0})}),
      kInvalidArgument);
  // X without a channel axis.
  EXPECT_ERROR_CODE(RunNnStatus("Y = GroupNormalization <num_groups = 1> (X, scale, bias)", 21,
                                {TensorValue<float>({4}, {1, 2, 3, 4}),
                                 TensorValue<float>({1}, {1}), TensorValue<float>({1}, {0})}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
