// Tests of HannWindow, HammingWindow and BlackmanWindow: the formulas at a few points, periodic
// and symmetric forms, output_datatype, and rejected sizes and attributes.
#include "runtime/ep/ref/kernels/signal/signal_window.h"

#include <string>
#include <vector>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"
#include "runtime/ep/ref/kernels/signal/signal_test_helpers.h"

namespace onnxgate::ref {
namespace {

std::vector<float> FloatWindow(const std::string& node, int64_t size) {
  auto out = RunSignalNode(node, {TensorValue<int32_t>({}, {static_cast<int32_t>(size)})});
  EXPECT_TRUE(out.ok()) << node << ": " << out.status().ToString();
  if (!out.ok()) return {};
  EXPECT_EQ(Dims((*out)[0]), (std::vector<int64_t>{size}));
  return Elements<float>((*out)[0]);
}

StatusCode WindowError(const std::string& node, const Value& size) {
  auto out = RunSignalNode(node, {size});
  return out.ok() ? StatusCode::kOk : out.status().code();
}

TEST(SignalWindowTest, HannPeriodicAndSymmetric) {
  // Periodic size 4: 0.5 - 0.5 cos(2 pi n / 4) = [0, 0.5, 1, 0.5].
  EXPECT_THAT(FloatWindow("Y = HannWindow (S)", 4),
              FloatsNear(std::vector<double>{0, 0.5, 1, 0.5}));
  // Symmetric size 5 divides by 4: [0, 0.5, 1, 0.5, 0].
  EXPECT_THAT(FloatWindow("Y = HannWindow <periodic = 0> (S)", 5),
              FloatsNear(std::vector<double>{0, 0.5, 1, 0.5, 0}));
}

TEST(SignalWindowTest, HammingUsesTwentyFiveAndTwentyOneOverFortySix) {
  // Periodic size 4: 25/46 - 21/46 cos(pi n / 2) = [4/46, 25/46, 1, 25/46].
  EXPECT_THAT(FloatWindow("Y = HammingWindow (S)", 4),
              FloatsNear(std::vector<double>{4.0 / 46, 25.0 / 46, 1, 25.0 / 46}));
  // Symmetric size 3: [4/46, 1, 4/46].
  EXPECT_THAT(FloatWindow("Y = HammingWindow <periodic = 0> (S)", 3),
              FloatsNear(std::vector<double>{4.0 / 46, 1, 4.0 / 46}));
}

TEST(SignalWindowTest, BlackmanHasASecondCosineTerm) {
  // Periodic size 4: 0.42 - 0.5 cos(pi n / 2) + 0.08 cos(pi n) = [0, 0.34, 1, 0.34].
  EXPECT_THAT(FloatWindow("Y = BlackmanWindow (S)", 4),
              FloatsNear(std::vector<double>{0, 0.34, 1, 0.34}));
  // Symmetric size 3: [0, 1, 0].
  EXPECT_THAT(FloatWindow("Y = BlackmanWindow <periodic = 0> (S)", 3),
              FloatsNear(std::vector<double>{0, 1, 0}));
}

TEST(SignalWindowTest, OutputDatatypeChoosesTheElementType) {
  // 11 = DOUBLE, size given as int64.
  auto out =
      RunSignalNode("Y = HannWindow <output_datatype = 11> (S)", {TensorValue<int64_t>({}, {4})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_THAT(Elements<double>((*out)[0]), FloatsNear(std::vector<double>{0, 0.5, 1, 0.5}));
  // 7 = INT64: the values are truncated.
  out = RunSignalNode("Y = HannWindow <output_datatype = 7> (S)", {TensorValue<int64_t>({}, {4})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(Elements<int64_t>((*out)[0]), (std::vector<int64_t>{0, 0, 1, 0}));
  // 16 = BFLOAT16.
  out = RunSignalNode("Y = HammingWindow <output_datatype = 16> (S)",
                      {TensorValue<int32_t>({}, {2})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->at(0).tensor().dtype(), DataType::kBFloat16);
  EXPECT_THAT(ref::HalfValuesOf<BFloat16>((*out)[0]), ::testing::ElementsAre(0.0869140625f, 1.0f));
}

TEST(SignalWindowTest, SizeOnePeriodicWindowIsItsFirstPoint) {
  EXPECT_THAT(FloatWindow("Y = HannWindow (S)", 1), FloatsNear(std::vector<double>{0}));
  EXPECT_THAT(FloatWindow("Y = HammingWindow (S)", 1), FloatsNear(std::vector<double>{4.0 / 46}));
}

TEST(SignalWindowTest, RejectsBadSizesAndAttributes) {
  const Value four = TensorValue<int32_t>({}, {4});
  EXPECT_EQ(WindowError("Y = HannWindow (S)", TensorValue<int32_t>({}, {0})),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(WindowError("Y = HannWindow (S)", TensorValue<int64_t>({}, {-3})),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(WindowError("Y = HannWindow (S)", TensorValue<int64_t>({2}, {3, 4})),
            StatusCode::kInvalidArgument);
  // A symmetric window of one point would divide by size - 1 = 0.
  EXPECT_EQ(WindowError("Y = BlackmanWindow <periodic = 0> (S)", TensorValue<int32_t>({}, {1})),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(WindowError("Y = HannWindow <periodic = 2> (S)", four), StatusCode::kInvalidArgument);
  // 8 = STRING, 9 = BOOL and 14 = COMPLEX64 are not numeric outputs; 99 is no type at all.
  for (const char* code : {"8", "9", "14", "99", "-1"}) {
    EXPECT_EQ(
        WindowError(std::string("Y = HammingWindow <output_datatype = ") + code + "> (S)", four),
        StatusCode::kInvalidArgument)
        << code;
  }
}

}  // namespace
}  // namespace onnxgate::ref
