// Tests of the bench's shapes (the --dim combinations a model takes, the dimensions no model has,
// the shapes feeds bind) and of its fallback line.
#include "harness/latency/bench_shapes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "harness/latency/bench_fallback.h"
#include "harness/latency/bench_models_testing.h"
#include "harness/models/model_feeds.h"
#include "runtime/base/tensor.h"
#include "runtime/model/model_file.h"

namespace onnxgate {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

onnx::ModelProto Parse(const char* text) {
  onnx::ModelProto model;
  EXPECT_TRUE(ParseModelFile(text, "test.onnxtxt", &model).ok());
  return model;
}

TEST(BenchShapesTest, SymbolicInputDimsAreTheGraphInputs) {
  EXPECT_THAT(SymbolicInputDims(Parse(kTokenEncoderModel)), ElementsAre("batch", "seq"));
  EXPECT_THAT(SymbolicInputDims(Parse(kBatchOneReshapeModel)), ElementsAre("batch"));
}

TEST(BenchShapesTest, EveryCombinationOfTheDimsAModelHas) {
  const DimFlags dims = {{"batch", {1, 4}}, {"seq", {128}}, {"heads", {2}}};
  const std::vector<DimSizes> both = BenchShapesOf({"batch", "seq"}, dims);
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(DimSizesText(both[0]), "batch=1,seq=128");
  EXPECT_EQ(DimSizesText(both[1]), "batch=4,seq=128");
  const std::vector<DimSizes> none = BenchShapesOf({"width"}, dims);
  ASSERT_EQ(none.size(), 1u);
  EXPECT_TRUE(none[0].empty());
}

TEST(BenchShapesTest, ADimNoModelHasIsRefused) {
  const std::map<std::string, std::set<std::string>> models = {{"enc", {"batch", "seq"}},
                                                               {"mlp", {}}};
  EXPECT_TRUE(CheckDimsNamed({{"seq", {8}}}, models).ok());
  const Status st = CheckDimsNamed({{"batch", {1}}, {"sequence", {8}}}, models);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("--dim sequence: no measured model has a dimension named "
                                      "'sequence' (their named dimensions: enc: batch, seq; "
                                      "mlp: none)"));
}

TEST(BenchShapesTest, BoundShapesAreWhatTheFeedsGive) {
  ValueInfo ids{
      "input_ids", Value::Kind::kTensor, DataType::kInt64, true, {{-1, "batch"}, {-1, "seq"}}};
  ValueInfo mask{"mask", Value::Kind::kTensor, DataType::kInt64, true, {{-1, "batch"}, {3, ""}}};
  const std::vector<NamedValue> feeds = {
      {"input_ids", Value::FromTensor(Tensor(DataType::kInt64, Shape({4, 128})))},
      {"mask", Value::FromTensor(Tensor(DataType::kInt64, Shape({4, 3})))}};
  EXPECT_EQ(BoundShapes({ids, mask}, feeds), "batch=4,seq=128");
  EXPECT_EQ(BoundShapes({mask}, {feeds[1]}), "batch=4");
  EXPECT_EQ(BoundShapes({}, {}), "");
}

TEST(BenchFallbackTest, OneLineByProviderAndOp) {
  EXPECT_EQ(DescribeBenchFallback(41, {}), "");
  const std::vector<FallbackRecord> fallbacks = {
      {"a", "Gather", "ref", true}, {"b", "Shape", "ref", true}, {"c", "Gather", "ref", false}};
  EXPECT_EQ(DescribeBenchFallback(41, fallbacks),
            "3 of 41 nodes on ref (Gather x2, Shape x1; 2 shape-only)");
}

}  // namespace
}  // namespace onnxgate
