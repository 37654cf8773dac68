// The default atol of recorded cases: scaled to the outputs' magnitude, rounded up to one
// significant digit, never below 1e-7; and the warning for an atol above most of an output.
#include "harness/models/recorded_tolerance.h"

#include <gtest/gtest.h>

namespace onnxgate {
namespace {

GoldenSet SetOf(const std::string& name, const std::vector<float>& values) {
  GoldenSet set;
  set.outputs.push_back({name, 0,
                         Value::FromTensor(Tensor::FromVector<float>(
                             Shape({static_cast<int64_t>(values.size())}), values)),
                         std::nullopt, std::nullopt});
  return set;
}

TEST(RecordedToleranceTest, TheDefaultAtolScalesWithTheLargestOutput) {
  EXPECT_DOUBLE_EQ(ScaledDefaultAtol(0), 1e-7);
  EXPECT_DOUBLE_EQ(ScaledDefaultAtol(1e-9), 1e-7);
  EXPECT_DOUBLE_EQ(ScaledDefaultAtol(0.1), 1e-7);
  EXPECT_DOUBLE_EQ(ScaledDefaultAtol(1), 1e-6);
  EXPECT_DOUBLE_EQ(ScaledDefaultAtol(3), 3e-6);
  EXPECT_DOUBLE_EQ(ScaledDefaultAtol(3.7), 4e-6);
  EXPECT_DOUBLE_EQ(ScaledDefaultAtol(9.5), 1e-5);
  EXPECT_DOUBLE_EQ(ScaledDefaultAtol(1500), 2e-3);
}

TEST(RecordedToleranceTest, TheLargestMagnitudeSpansSetsAndSkipsOtherTypes) {
  std::vector<GoldenSet> sets = {SetOf("y", {0.5f, -2.0f}), SetOf("y", {1.0f})};
  GoldenSet ints;
  ints.outputs.push_back({"i", 0, Value::FromTensor(Tensor::FromVector<int64_t>(Shape({1}), {99})),
                          std::nullopt, std::nullopt});
  sets.push_back(ints);
  EXPECT_EQ(LargestOutputMagnitude(sets), 2.0);
  EXPECT_FALSE(LargestOutputMagnitude({ints}).has_value());
}

TEST(RecordedToleranceTest, AnAtolAboveMostValuesOfAnOutputWarnsNamingIt) {
  const std::vector<GoldenSet> sets = {SetOf("tiny", {1e-9f, -2e-9f, 3e-9f}),
                                       SetOf("tiny", {1e-9f})};
  const std::vector<std::string> warnings = VacuousAtolWarnings(sets, 1e-7);
  ASSERT_EQ(warnings.size(), 1u);  // named once
  EXPECT_EQ(warnings[0],
            "atol 1e-07 is larger than most nonzero values of output 'tiny' (median |value| "
            "2e-09): a wrong result of that size passes; give a smaller --atol");
  EXPECT_TRUE(VacuousAtolWarnings({SetOf("y", {0.5f, 1.0f, 2.0f})}, 1e-6).empty());
  // A Relu's zeros are compared exactly whatever the atol: only its other values count.
  EXPECT_TRUE(VacuousAtolWarnings({SetOf("relu", {0, 0, 0, 0.5f, 1.0f})}, 1e-6).empty());
}

}  // namespace
}  // namespace onnxgate
