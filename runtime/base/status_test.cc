// Tests for Status, StatusOr and the error-propagation macros.
#include "runtime/base/status.h"

#include <gtest/gtest.h>

namespace onnxgate {
namespace {

StatusOr<int> Half(int x) {
  if (x % 2) return InvalidArgument("odd: " + std::to_string(x));
  return x / 2;
}

Status Quarter(int x, int* out) {
  ONNXGATE_ASSIGN_OR_RETURN(int h, Half(x));
  ONNXGATE_ASSIGN_OR_RETURN(int q, Half(h));
  *out = q;
  return OkStatus();
}

TEST(StatusTest, FormatsCodeAndMessage) {
  EXPECT_EQ(OkStatus().ToString(), "OK");
  EXPECT_EQ(DataLoss("x.h5: truncated").ToString(), "DATA_LOSS: x.h5: truncated");
  EXPECT_EQ(NotFound("y").WithContext("loading m.onnx").message(), "loading m.onnx: y");
}

TEST(StatusTest, MacrosPropagateTheFirstError) {
  int out = 0;
  EXPECT_TRUE(Quarter(8, &out).ok());
  EXPECT_EQ(out, 2);
  Status s = Quarter(6, &out);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "odd: 3");
}

TEST(StatusTest, CodesRoundTripByName) {
  for (StatusCode code : {StatusCode::kInvalidArgument, StatusCode::kDataLoss,
                          StatusCode::kNotFound, StatusCode::kUnimplemented,
                          StatusCode::kUnavailable, StatusCode::kInternal, StatusCode::kAborted}) {
    EXPECT_EQ(StatusCodeFromName(StatusCodeName(code)), code) << StatusCodeName(code);
  }
  EXPECT_EQ(StatusCodeFromName("OK"), std::nullopt);
  EXPECT_EQ(StatusCodeFromName("internal"), std::nullopt);
  EXPECT_EQ(StatusCodeFromName(""), std::nullopt);
}

}  // namespace
}  // namespace onnxgate
