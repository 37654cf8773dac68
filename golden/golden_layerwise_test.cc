// Smaller layerwise goldens: every-Nth-node selection, float16 narrowing and widening, and the
// layerwise attributes written, read back, covered by the content checksum and refused when bad.
#include "golden/golden_layerwise.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "golden/golden_test_util.h"
#include "runtime/base/sha256.h"

namespace onnxgate {
namespace {

using testing_util::TempDir;

TEST(KeepEveryNthNodeTest, KeepsEveryNthDistinctNodeAndTheLast) {
  // Nodes 0..6; node 2 has two outputs.
  const std::vector<int64_t> nodes = {0, 1, 2, 2, 3, 4, 5, 6};
  EXPECT_EQ(KeepEveryNthNode(nodes, 1), std::vector<bool>(8, true));
  // Every 3rd distinct node: the 3rd (node 2, both outputs) and the 6th (node 5), plus the last.
  EXPECT_EQ(KeepEveryNthNode(nodes, 3),
            (std::vector<bool>{false, false, true, true, false, false, true, true}));
  // More than there are nodes: the last alone.
  EXPECT_EQ(KeepEveryNthNode(nodes, 100),
            (std::vector<bool>{false, false, false, false, false, false, false, true}));
  EXPECT_TRUE(KeepEveryNthNode({}, 4).empty());
}

TEST(Float16StorageTest, NarrowsFloat32WithinRangeAndWidensBackWithinTheRoundingBound) {
  const std::vector<float> x = {0.0f,
                                -1.0f,
                                3.14159265f,
                                1e-6f,
                                65504.0f,
                                -1234.567f,
                                std::numeric_limits<float>::infinity()};
  Value narrow = NarrowToFloat16(Value::FromTensor(Tensor::FromVector<float>(Shape{7}, x)));
  ASSERT_EQ(narrow.tensor().dtype(), DataType::kFloat16);
  Value wide = WidenFloat16(narrow);
  ASSERT_EQ(wide.tensor().dtype(), DataType::kFloat);
  const float* y = wide.tensor().data<float>();
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::isinf(x[i])) {
      EXPECT_EQ(y[i], x[i]);
      continue;
    }
    EXPECT_LE(std::fabs(y[i] - x[i]), kFloat16StoredAtol + kFloat16StoredRtol * std::fabs(x[i]))
        << "element " << i << ": " << x[i] << " came back as " << y[i];
  }
}

TEST(Float16StorageTest, LeavesWhatFloat16CannotHoldAsItIs) {
  Value big = Value::FromTensor(Tensor::FromVector<float>(Shape{2}, {1.0f, 1e6f}));
  EXPECT_EQ(NarrowToFloat16(big).tensor().dtype(), DataType::kFloat);
  Value ints = Value::FromTensor(Tensor::FromVector<int64_t>(Shape{1}, {7}));
  EXPECT_EQ(NarrowToFloat16(ints).tensor().dtype(), DataType::kInt64);
  EXPECT_EQ(WidenFloat16(ints).tensor().dtype(), DataType::kInt64);
}

GoldenValue Named(const std::string& name, Value value) {
  GoldenValue v;
  v.name = name;
  v.value = std::move(value);
  return v;
}

GoldenFile LayerwiseGolden() {
  GoldenFile g;
  g.producer = "test";
  g.model_sha256 = Sha256Hex("model bytes");
  g.opset_imports = {{"", 17}};
  g.created = "2026-11-29T00:00:00Z";
  GoldenSet set;
  set.inputs.push_back(Named("x", Value::FromTensor(Tensor::FromVector<float>(Shape{1}, {1}))));
  set.outputs.push_back(Named("y", Value::FromTensor(Tensor::FromVector<float>(Shape{1}, {2}))));
  set.intermediates.push_back(
      Named("h", NarrowToFloat16(Value::FromTensor(Tensor::FromVector<float>(Shape{1}, {1.5f})))));
  g.sets.push_back(std::move(set));
  g.layerwise_every = 4;
  g.layerwise_precision = kLayerwiseFloat16;
  return g;
}

TEST(LayerwiseAttributesTest, AreWrittenReadBackAndCoveredByTheChecksum) {
  TempDir dir;
  const std::string path = dir.File("g.h5");
  ASSERT_TRUE(WriteGolden(path, LayerwiseGolden()).ok());
  auto read = ReadGolden(path);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->format_version, 3);
  EXPECT_EQ(read->layerwise_every, 4);
  EXPECT_EQ(read->layerwise_precision, "float16");
  EXPECT_EQ(read->sets[0].intermediates[0].value.tensor().dtype(), DataType::kFloat16);
  // Changing an attribute after the write is corruption.
  ASSERT_TRUE(testing_util::EditHdf5File(
      path, [](hid_t f) { return testing_util::SetInt64Attr(f, "/", "layerwise_every", 2); }));
  auto edited = ReadGolden(path);
  ASSERT_FALSE(edited.ok());
  EXPECT_NE(edited.status().message().find("golden corrupted"), std::string::npos)
      << edited.status().message();
}

TEST(LayerwiseAttributesTest, WithoutThemAGoldenIsWrittenAsBefore) {
  GoldenFile g = LayerwiseGolden();
  g.layerwise_every = 1;
  g.layerwise_precision.clear();
  g.sets[0].intermediates.clear();
  EXPECT_EQ(GoldenFormatVersionFor(g), 2);
}

TEST(LayerwiseAttributesTest, BadValuesAreRefusedNamingTheAttribute) {
  TempDir dir;
  GoldenFile g = LayerwiseGolden();
  g.layerwise_every = 0;
  Status s = WriteGolden(dir.File("zero.h5"), g);
  EXPECT_NE(s.message().find("layerwise_every must be at least 1, got 0"), std::string::npos)
      << s.message();
  g = LayerwiseGolden();
  g.layerwise_precision = "int4";
  s = WriteGolden(dir.File("int4.h5"), g);
  EXPECT_NE(s.message().find("layerwise_precision must be 'float16' when present, got 'int4'"),
            std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace onnxgate
