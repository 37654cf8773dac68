// Tests of ArrayFeatureExtractor and Binarizer: selection along the last axis (a 1-D X gives one
// row), strings, index bounds; the threshold comparison for floats and ints.
#include "runtime/ep/ref/kernels/ml/array_feature_extractor.h"

#include <limits>

#include "runtime/ep/ref/kernels/ml/binarizer.h"
#include "runtime/ep/ref/kernels/ml/ml_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

TEST(ArrayFeatureExtractorTest, SelectsAlongTheLastAxis) {
  ASSERT_OK_AND_ASSIGN(auto z, RunMl("z = ai.onnx.ml.ArrayFeatureExtractor(x, y)", 1,
                                     {TensorValue<float>({2, 3}, {0, 1, 2, 3, 4, 5}),
                                      TensorValue<int64_t>({3}, {2, 0, 2})}));
  EXPECT_THAT(DimsOf(z[0]), ElementsAre(2, 3));
  EXPECT_THAT(ValuesOf<float>(z[0]), ElementsAre(2, 0, 2, 5, 3, 5));
  ASSERT_OK_AND_ASSIGN(z, RunMl("z = ai.onnx.ml.ArrayFeatureExtractor(x, y)", 1,
                                {TensorValue<std::string>({3}, {"a", "b", "c"}),
                                 TensorValue<int64_t>({1, 1}, {1})}));
  EXPECT_THAT(DimsOf(z[0]), ElementsAre(1, 1));
  EXPECT_THAT(ValuesOf<std::string>(z[0]), ElementsAre("b"));
}

TEST(ArrayFeatureExtractorTest, IndicesOutOfBoundsAreRejected) {
  const Value x = TensorValue<int32_t>({2, 2}, {1, 2, 3, 4});
  EXPECT_ERROR_CODE(
      RunMl("z = ai.onnx.ml.ArrayFeatureExtractor(x, y)", 1, {x, TensorValue<int64_t>({1}, {2})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunMl("z = ai.onnx.ml.ArrayFeatureExtractor(x, y)", 1, {x, TensorValue<int64_t>({1}, {-1})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunMl("z = ai.onnx.ml.ArrayFeatureExtractor(x, y)", 1,
                          {TensorValue<int32_t>({}, {1}), TensorValue<int64_t>({1}, {0})}),
                    kInvalidArgument);
}

TEST(BinarizerTest, GreaterThanTheThreshold) {
  ASSERT_OK_AND_ASSIGN(
      auto y,
      RunMl("y = ai.onnx.ml.Binarizer <threshold = 1.0> (x)", 1,
            {TensorValue<float>({4}, {0.5f, 1, 1.5f, std::numeric_limits<float>::quiet_NaN()})}));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(0, 0, 1, 0));
  ASSERT_OK_AND_ASSIGN(
      y, RunMl("y = ai.onnx.ml.Binarizer(x)", 1, {TensorValue<int64_t>({3}, {-2, 0, 3})}));
  EXPECT_THAT(ValuesOf<int64_t>(y[0]), ElementsAre(0, 0, 1));
}

}  // namespace
}  // namespace onnxgate::ref
