// Tests of LabelEncoder: the list and tensor attributes, defaults, repeated keys, float keys
// (bitwise in version 2, NaN matching NaN in version 4), and the rejected attribute sets.
#include "runtime/ep/ref/kernels/ml/label_encoder.h"

#include <cmath>
#include <limits>

#include "runtime/ep/ref/kernels/ml/ml_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

const Value kNames = TensorValue<std::string>({5}, {"a", "b", "d", "c", "a"});

TEST(LabelEncoderTest, StringsToIntsWithDefault) {
  ASSERT_OK_AND_ASSIGN(auto y, RunMl("y = ai.onnx.ml.LabelEncoder <keys_strings = [\"a\", \"b\", "
                                     "\"c\"], values_int64s = [0, 1, 2], default_int64 = 42> (x)",
                                     4, {kNames}));
  EXPECT_THAT(ValuesOf<int64_t>(y[0]), ElementsAre(0, 1, 42, 2, 0));
  // Without default_int64 the schema's -1.
  ASSERT_OK_AND_ASSIGN(y, RunMl("y = ai.onnx.ml.LabelEncoder <keys_strings = [\"a\", \"b\", "
                                "\"c\"], values_int64s = [0, 1, 2]> (x)",
                                2, {kNames}));
  EXPECT_THAT(ValuesOf<int64_t>(y[0]), ElementsAre(0, 1, -1, 2, 0));
}

TEST(LabelEncoderTest, TensorAttributes) {
  ASSERT_OK_AND_ASSIGN(
      auto y, RunMl("y = ai.onnx.ml.LabelEncoder <keys_tensor = string[3] {\"a\", \"b\", \"c\"}, "
                    "values_tensor = int32[3] {0, 1, 2}, default_tensor = int32[1] {42}> (x)",
                    4, {kNames}));
  EXPECT_THAT(ValuesOf<int32_t>(y[0]), ElementsAre(0, 1, 42, 2, 0));
  ASSERT_OK_AND_ASSIGN(y, RunMl("y = ai.onnx.ml.LabelEncoder <keys_tensor = int16[2] {7, -7}, "
                                "values_tensor = double[2] {0.5, 1.5}> (x)",
                                4, {TensorValue<int16_t>({3}, {-7, 7, 0})}));
  EXPECT_EQ(y[0].tensor().dtype(), DataType::kDouble);
  const std::vector<double> v = ValuesOf<double>(y[0]);
  EXPECT_EQ(v[0], 1.5);
  EXPECT_EQ(v[1], 0.5);
  EXPECT_TRUE(v[2] == 0 && std::signbit(v[2]));  // the default -0.0
}

TEST(LabelEncoderTest, IntsToStringsAndRepeatedKeys) {
  ASSERT_OK_AND_ASSIGN(auto y, RunMl("y = ai.onnx.ml.LabelEncoder <keys_int64s = [1, 2, 1], "
                                     "values_strings = [\"x\", \"y\", \"z\"]> (x)",
                                     4, {TensorValue<int64_t>({2, 2}, {1, 2, 3, 1})}));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(2, 2));
  EXPECT_THAT(ValuesOf<std::string>(y[0]), ElementsAre("z", "y", "_Unused", "z"));
}

TEST(LabelEncoderTest, FloatKeys) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Value x = TensorValue<float>({4}, {-0.0f, 0.0f, nan, 2.5f});
  const char* node =
      "y = ai.onnx.ml.LabelEncoder <keys_floats = [0.0, 2.5], values_int64s = [10, 20]> (x)";
  // Version 2 compares bits: -0 differs from 0.
  ASSERT_OK_AND_ASSIGN(auto y, RunMl(node, 2, {x}));
  EXPECT_THAT(ValuesOf<int64_t>(y[0]), ElementsAre(-1, 10, -1, 20));
  // Version 4 compares values.
  ASSERT_OK_AND_ASSIGN(y, RunMl(node, 4, {x}));
  EXPECT_THAT(ValuesOf<int64_t>(y[0]), ElementsAre(10, 10, -1, 20));
  ASSERT_OK_AND_ASSIGN(y, RunMl("y = ai.onnx.ml.LabelEncoder <keys_tensor = float[2] {1, 0}, "
                                "values_floats = [3.0, 4.0], default_float = 9.0> (x)",
                                4, {TensorValue<float>({3}, {nan, 1, 5})}));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(9, 3, 9));
}

TEST(LabelEncoderTest, NanKeyMatchesNanInVersion4) {
  ASSERT_OK_AND_ASSIGN(
      auto y, RunMl("y = ai.onnx.ml.LabelEncoder <keys_tensor = double[2] "
                    "{1, nan}, values_int64s = [1, 2]> (x)",
                    4, {TensorValue<double>({2}, {std::numeric_limits<double>::quiet_NaN(), 1})}));
  EXPECT_THAT(ValuesOf<int64_t>(y[0]), ElementsAre(2, 1));
}

TEST(LabelEncoderTest, RejectedAttributesAndInputs) {
  // Two keys lists, no values, lengths differing, a default of another type, x of another type.
  for (const char* node :
       {"y = ai.onnx.ml.LabelEncoder <keys_strings = [\"a\"], keys_int64s = [1], "
        "values_int64s = [1]> (x)",
        "y = ai.onnx.ml.LabelEncoder <keys_strings = [\"a\"]> (x)",
        "y = ai.onnx.ml.LabelEncoder <keys_strings = [\"a\", \"b\"], values_int64s = [1]> (x)",
        "y = ai.onnx.ml.LabelEncoder <keys_strings = [\"a\"], values_tensor = int32[1] {1}, "
        "default_tensor = int64[1] {1}> (x)",
        "y = ai.onnx.ml.LabelEncoder <keys_int64s = [1], values_int64s = [1]> (x)"}) {
    EXPECT_ERROR_CODE(RunMl(node, 4, {kNames}), kInvalidArgument);
  }
}

}  // namespace
}  // namespace onnxgate::ref
