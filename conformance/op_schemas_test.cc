// Active op versions of model files, from ONNX's schemas at each model's opset.
#include "conformance/op_schemas.h"

#include <gtest/gtest.h>

#include <fstream>

namespace onnxgate {
namespace {

TEST(OpSchemasTest, ActiveVersionsComeFromTheModelsOpset) {
  std::string dir = ONNXGATE_SOURCE_DIR "/suites/smoke/models/";
  auto softmax11 = ActiveOpsOfModel(dir + "softmax_opset11.onnxtxt");
  ASSERT_TRUE(softmax11.ok()) << softmax11.status().ToString();
  ASSERT_EQ(softmax11->size(), 1u);
  EXPECT_EQ((*softmax11)[0].op_type, "Softmax");
  EXPECT_EQ((*softmax11)[0].since_version, 11);
  // ReduceMean at opset 18 is ReduceMean-18 (axes as an input), not -13.
  const std::string reduce_mean18 = std::string(::testing::TempDir()) + "/reduce_mean18.onnxtxt";
  {
    std::ofstream out(reduce_mean18);
    out << "<ir_version: 10, opset_import: [\"\" : 18]>\n"
           "g (float[2,3] X, int64[1] axes) => (float[2,1] Y) { Y = ReduceMean (X, axes) }\n";
  }
  auto reduce_mean = ActiveOpsOfModel(reduce_mean18);
  ASSERT_TRUE(reduce_mean.ok()) << reduce_mean.status().ToString();
  ASSERT_EQ(reduce_mean->size(), 1u);
  EXPECT_EQ((*reduce_mean)[0].since_version, 18);
  auto missing = ActiveOpsOfModel(dir + "no_such_model.onnx");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace onnxgate
