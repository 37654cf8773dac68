// UpgradeGolden: a format-1 golden (no checksums) is rewritten in the checksummed format with its
// content and provenance unchanged, deterministically; a current golden is left alone; a corrupt
// one is refused and left in place.
#include "golden/golden_upgrade.h"

#include <gtest/gtest.h>

#include "golden/golden_checksum.h"
#include "golden/golden_file.h"
#include "golden/golden_test_util.h"
#include "runtime/base/sha256.h"

namespace onnxgate {
namespace {

using testing_util::DeleteAttr;
using testing_util::EditHdf5File;
using testing_util::FileBytes;
using testing_util::SetInt64Attr;
using testing_util::TempDir;
using testing_util::ValueDifference;
using testing_util::WriteBytes;

GoldenFile Sample() {
  GoldenFile g;
  g.producer = "onnx 1.12.0 backend test data generator";
  g.model_sha256 = Sha256Hex("model");
  g.opset_imports = {{"", 13}, {"ai.onnx.ml", 3}};
  g.created = "2026-11-21T03:00:00Z";
  g.source = "imported from test_sample";
  for (int s = 0; s < 2; ++s) {
    GoldenSet set;
    set.inputs = {
        {"X",
         0,
         Value::FromTensor(
             Tensor::FromVector<float>({2, 2}, {1.5f, -0.f, 3, static_cast<float>(s)})),
         {},
         {}},
        {"names", 1, Value::FromTensor(Tensor::FromVector<std::string>({2}, {"a", "bc"})), {}, {}}};
    set.outputs = {
        {"Y", 0, Value::FromSequence(DataType::kInt64, {Tensor::Scalar<int64_t>(s)}), {}, {}},
        {"Z", 1, Value::FromTensor(Tensor::FromVector<double>({1}, {0.25})), 1e-4, 1e-6}};
    g.sets.push_back(set);
  }
  return g;
}

// What a format-1 writer produced: no sha256 on values, no content_sha256, format_version 1.
bool MakeFormatOne(hid_t f) {
  for (const char* set : {"/sets/0", "/sets/1"}) {
    for (const char* value : {"/inputs/X", "/inputs/names", "/outputs/Y", "/outputs/Z"}) {
      if (!DeleteAttr(f, std::string(set) + value, "sha256")) return false;
    }
  }
  return DeleteAttr(f, "/", "content_sha256") && SetInt64Attr(f, "/", "format_version", 1);
}

void ExpectSameGolden(const GoldenFile& a, const GoldenFile& b) {
  EXPECT_EQ(a.producer, b.producer);
  EXPECT_EQ(a.model_sha256, b.model_sha256);
  EXPECT_EQ(a.model_files_sha256, b.model_files_sha256);
  EXPECT_EQ(a.opset_imports, b.opset_imports);
  EXPECT_EQ(a.created, b.created);
  EXPECT_EQ(a.source, b.source);
  ASSERT_EQ(a.sets.size(), b.sets.size());
  for (size_t s = 0; s < a.sets.size(); ++s) {
    for (auto part : {&GoldenSet::inputs, &GoldenSet::outputs}) {
      const auto& va = a.sets[s].*part;
      const auto& vb = b.sets[s].*part;
      ASSERT_EQ(va.size(), vb.size());
      for (size_t i = 0; i < va.size(); ++i) {
        EXPECT_EQ(va[i].name, vb[i].name);
        EXPECT_EQ(va[i].index, vb[i].index);
        EXPECT_EQ(va[i].rtol, vb[i].rtol);
        EXPECT_EQ(va[i].atol, vb[i].atol);
        EXPECT_EQ(ValueDifference(va[i].value, vb[i].value), "") << va[i].name;
      }
    }
  }
}

TEST(GoldenUpgradeTest, FormatOneIsRewrittenWithChecksumsAndTheSameContent) {
  TempDir dir;
  const std::string path = dir.File("g.h5");
  ASSERT_TRUE(WriteGolden(path, Sample()).ok());
  ASSERT_TRUE(EditHdf5File(path, MakeFormatOne));
  StatusOr<GoldenFile> before = ReadGolden(path);
  ASSERT_TRUE(before.ok()) << before.status().ToString();
  ASSERT_EQ(before->format_version, 1);

  StatusOr<GoldenUpgrade> up = UpgradeGolden(path);
  ASSERT_TRUE(up.ok()) << up.status().ToString();
  EXPECT_EQ(*up, GoldenUpgrade::kUpgraded);
  StatusOr<GoldenFile> after = ReadGolden(path);
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_EQ(after->format_version, 2);
  ExpectSameGolden(*before, *after);
  ExpectSameGolden(Sample(), *after);
  EXPECT_EQ(GoldenContentSha256(*after), GoldenContentSha256(Sample()));

  // The checksums are there and checked: a changed tensor byte is now "golden corrupted".
  ASSERT_TRUE(EditHdf5File(path, [](hid_t f) {
    hid_t d = H5Dopen2(f, "/sets/1/outputs/Z", H5P_DEFAULT);
    double v = 0.5;
    bool ok = d >= 0 && H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v) >= 0;
    if (d >= 0) H5Dclose(d);
    return ok;
  }));
  Status corrupted = ReadGolden(path).status();
  EXPECT_EQ(corrupted.code(), StatusCode::kDataLoss);
  EXPECT_NE(corrupted.message().find("golden corrupted"), std::string::npos)
      << corrupted.ToString();
}

TEST(GoldenUpgradeTest, UpgradingTheSameFileTwiceGivesTheSameBytes) {
  TempDir dir;
  const std::string path = dir.File("g.h5");
  ASSERT_TRUE(WriteGolden(path, Sample()).ok());
  ASSERT_TRUE(EditHdf5File(path, MakeFormatOne));
  const std::string format_one = FileBytes(path);
  ASSERT_TRUE(UpgradeGolden(path).ok());
  const std::string first = FileBytes(path);
  ASSERT_TRUE(WriteBytes(path, format_one));
  ASSERT_TRUE(UpgradeGolden(path).ok());
  EXPECT_EQ(FileBytes(path), first);
  EXPECT_NE(first, format_one);
}

TEST(GoldenUpgradeTest, ACurrentGoldenIsLeftAlone) {
  TempDir dir;
  const std::string path = dir.File("g.h5");
  ASSERT_TRUE(WriteGolden(path, Sample()).ok());
  const std::string bytes = FileBytes(path);
  StatusOr<GoldenUpgrade> up = UpgradeGolden(path);
  ASSERT_TRUE(up.ok()) << up.status().ToString();
  EXPECT_EQ(*up, GoldenUpgrade::kAlreadyCurrent);
  EXPECT_EQ(FileBytes(path), bytes);
}

TEST(GoldenUpgradeTest, AnUnreadableGoldenIsRefusedAndLeftInPlace) {
  TempDir dir;
  const std::string path = dir.File("g.h5");
  ASSERT_TRUE(WriteBytes(path, "not an HDF5 file"));
  StatusOr<GoldenUpgrade> up = UpgradeGolden(path);
  ASSERT_FALSE(up.ok());
  EXPECT_EQ(up.status().code(), StatusCode::kDataLoss) << up.status().ToString();
  EXPECT_NE(up.status().message().find(path), std::string::npos);
  EXPECT_EQ(FileBytes(path), "not an HDF5 file");
  EXPECT_EQ(UpgradeGolden(dir.File("missing.h5")).status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace onnxgate
