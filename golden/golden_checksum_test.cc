// A golden carries checksums of its content (format 2): a flipped byte of a stored tensor, a
// changed tolerance, a removed output or an edited root attribute is "golden corrupted", naming
// the file and the object. Format-1 goldens (older files) have none and are still read; a
// relabelled format-2 file still has its checksums checked. The canonical bytes are the ones
// golden/golden_checksum.h documents.
#include "golden/golden_checksum.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "golden/golden_file.h"
#include "golden/golden_test_util.h"
#include "golden/hdf5_handle.h"
#include "runtime/base/sha256.h"

namespace onnxgate {
namespace {

using testing_util::DeleteAttr;
using testing_util::EditHdf5File;
using testing_util::SetInt64Attr;
using testing_util::SetStringAttr;
using testing_util::TempDir;

const std::vector<float> kY = {1234.5f, -77.25f, 0.125f, 99.0f};

GoldenFile TwoOutputs() {
  GoldenFile g;
  g.producer = "checksum test";
  g.model_sha256 = Sha256Hex("m");
  g.model_files_sha256 = Sha256Hex("m and w.bin");
  g.opset_imports = {{"", 13}};
  g.created = "2026-11-21T03:00:00Z";
  GoldenSet set;
  set.inputs = {{"X", 0, Value::FromTensor(Tensor::FromVector<float>({4}, {1, 2, 3, 4})), {}, {}}};
  set.outputs = {{"Y", 0, Value::FromTensor(Tensor::FromVector<float>({2, 2}, kY)), {}, {}},
                 {"Z", 1, Value::FromTensor(Tensor::FromVector<int64_t>({1}, {7})), 1e-4, {}}};
  g.sets.push_back(set);
  return g;
}

Status ReadStatus(const std::string& path) { return ReadGolden(path).status(); }

void ExpectCorrupted(const Status& st, const std::vector<std::string>& fragments) {
  EXPECT_EQ(st.code(), StatusCode::kDataLoss) << st.ToString();
  EXPECT_NE(st.message().find("golden corrupted"), std::string::npos) << st.ToString();
  for (const std::string& f : fragments) {
    EXPECT_NE(st.message().find(f), std::string::npos) << "'" << f << "' not in: " << st.message();
  }
}

// Turns a written golden into what a format-1 writer (the h5py recipe) produces.
bool StripChecksums(hid_t f) {
  for (const char* obj : {"/sets/0/inputs/X", "/sets/0/outputs/Y", "/sets/0/outputs/Z"}) {
    if (!DeleteAttr(f, obj, "sha256")) return false;
  }
  return DeleteAttr(f, "/", "content_sha256") && DeleteAttr(f, "/", "model_files_sha256") &&
         SetInt64Attr(f, "/", "format_version", 1);
}

TEST(GoldenChecksumTest, WriterStoresChecksumsThatTheReaderChecks) {
  TempDir dir;
  std::string path = dir.File("g.h5");
  GoldenFile g = TwoOutputs();
  ASSERT_TRUE(WriteGolden(path, g).ok());
  StatusOr<GoldenFile> back = ReadGolden(path);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->format_version, 2);
  EXPECT_EQ(back->model_files_sha256, g.model_files_sha256);
  EXPECT_EQ(GoldenContentSha256(*back), GoldenContentSha256(g));
  bool checked = EditHdf5File(path, [&](hid_t f) {
    hid_t y = H5Oopen(f, "/sets/0/outputs/Y", H5P_DEFAULT);
    StatusOr<std::string> stored = ReadStringAttribute(y, "sha256", H5Where{path, "Y"});
    StatusOr<std::string> content = ReadStringAttribute(f, "content_sha256", H5Where{path, "/"});
    H5Oclose(y);
    EXPECT_TRUE(stored.ok() && *stored == GoldenValueSha256(g.sets[0].outputs[0]));
    EXPECT_TRUE(content.ok() && *content == GoldenContentSha256(g));
    return true;
  });
  EXPECT_TRUE(checked);
}

TEST(GoldenChecksumTest, FlippedByteOfAStoredTensorIsGoldenCorrupted) {
  TempDir dir;
  std::string path = dir.File("flip.h5");
  ASSERT_TRUE(WriteGolden(path, TwoOutputs()).ok());
  std::string bytes = testing_util::FileBytes(path);
  std::string data(reinterpret_cast<const char*>(kY.data()), kY.size() * sizeof(float));
  size_t at = bytes.find(data);
  ASSERT_NE(at, std::string::npos) << "Y's data is stored as it is";
  ASSERT_EQ(bytes.find(data, at + 1), std::string::npos);
  bytes[at + 5] ^= 0x01;  // one bit of Y[1]
  ASSERT_TRUE(testing_util::WriteBytes(path, bytes));
  ExpectCorrupted(ReadStatus(path),
                  {path + ": /sets/0/outputs/Y: golden corrupted: its sha256 attribute is "});
}

TEST(GoldenChecksumTest, EditsThatLeaveValuesReadableAreGoldenCorrupted) {
  TempDir dir;
  std::string path = dir.File("edit.h5");
  auto after = [&](const std::function<bool(hid_t)>& edit) {
    EXPECT_TRUE(WriteGolden(path, TwoOutputs()).ok());
    EXPECT_TRUE(EditHdf5File(path, edit));
    return ReadStatus(path);
  };
  // A looser tolerance, a changed shape attribute together with the dataspace it must match...
  ExpectCorrupted(after([](hid_t f) {
                    hid_t z = H5Oopen(f, "/sets/0/outputs/Z", H5P_DEFAULT);
                    H5Adelete(z, "rtol");
                    bool ok = WriteDoubleAttribute(z, "rtol", 0.5, H5Where{"edit", "Z"}).ok();
                    H5Oclose(z);
                    return ok;
                  }),
                  {path + ": /sets/0/outputs/Z: golden corrupted"});
  // ...an output removed, which no value's own hash can notice...
  ExpectCorrupted(
      after([](hid_t f) { return H5Ldelete(f, "/sets/0/outputs/Z", H5P_DEFAULT) >= 0; }),
      {path + ": /: golden corrupted: content_sha256 is "});
  // ...and a root attribute changed.
  ExpectCorrupted(after([](hid_t f) { return SetStringAttr(f, "/", "producer", "someone else"); }),
                  {path + ": /: golden corrupted"});
  ExpectCorrupted(after([](hid_t f) {
                    return SetStringAttr(f, "/", "model_files_sha256", Sha256Hex("other"));
                  }),
                  {path + ": /: golden corrupted"});
}

// Intermediate values (record --layerwise) make a golden format 3; they are read back in index
// order, and removing or editing one is caught like an output.
TEST(GoldenChecksumTest, IntermediateValuesAreFormatThreeAndCheckedLikeOutputs) {
  TempDir dir;
  std::string path = dir.File("layers.h5");
  GoldenFile g = TwoOutputs();
  g.sets[0].intermediates = {
      {"h2", 1, Value::FromTensor(Tensor::FromVector<float>({2}, {5, 6})), {}, {}},
      {"h1", 0, Value::FromTensor(Tensor::FromVector<float>({2}, {3, 4})), {}, {}}};
  ASSERT_TRUE(WriteGolden(path, g).ok());
  StatusOr<GoldenFile> back = ReadGolden(path);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->format_version, 3);
  ASSERT_EQ(back->sets[0].intermediates.size(), 2u);
  EXPECT_EQ(back->sets[0].intermediates[0].name, "h1");
  EXPECT_EQ(back->sets[0].intermediates[1].name, "h2");
  EXPECT_EQ(GoldenContentSha256(*back), GoldenContentSha256(g));

  ASSERT_TRUE(EditHdf5File(
      path, [](hid_t f) { return H5Ldelete(f, "/sets/0/intermediates/h2", H5P_DEFAULT) >= 0; }));
  ExpectCorrupted(ReadStatus(path), {path + ": /: golden corrupted: content_sha256 is "});
  ASSERT_TRUE(WriteGolden(path, g).ok());
  ASSERT_TRUE(EditHdf5File(
      path, [](hid_t f) { return SetInt64Attr(f, "/sets/0/intermediates/h1", "index", 7); }));
  ExpectCorrupted(ReadStatus(path), {path + ": /sets/0/intermediates/h1: golden corrupted"});

  // A tolerance is for outputs only.
  g.sets[0].intermediates[0].rtol = 0.1;
  Status refused = WriteGolden(path, g);
  EXPECT_EQ(refused.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.message().find("/sets/0/intermediates/h2: rtol/atol are for outputs only"),
            std::string::npos)
      << refused.ToString();
}

TEST(GoldenChecksumTest, FormatTwoMustCarryItsChecksums) {
  TempDir dir;
  std::string path = dir.File("missing.h5");
  ASSERT_TRUE(WriteGolden(path, TwoOutputs()).ok());
  ASSERT_TRUE(
      EditHdf5File(path, [](hid_t f) { return DeleteAttr(f, "/sets/0/outputs/Y", "sha256"); }));
  Status st = ReadStatus(path);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find(path + ": /sets/0/outputs/Y: missing required attribute 'sha256'"),
            std::string::npos)
      << st.ToString();
  ASSERT_TRUE(WriteGolden(path, TwoOutputs()).ok());
  ASSERT_TRUE(EditHdf5File(path, [](hid_t f) { return DeleteAttr(f, "/", "content_sha256"); }));
  st = ReadStatus(path);
  EXPECT_NE(st.message().find("missing required attribute 'content_sha256'"), std::string::npos)
      << st.ToString();
  ASSERT_TRUE(WriteGolden(path, TwoOutputs()).ok());
  ASSERT_TRUE(
      EditHdf5File(path, [](hid_t f) { return SetStringAttr(f, "/", "content_sha256", "xyz"); }));
  ExpectCorrupted(ReadStatus(path), {"content_sha256 'xyz' is not 64 lowercase hex digits"});
}

TEST(GoldenChecksumTest, FormatOneWithoutChecksumsIsRead) {
  TempDir dir;
  std::string path = dir.File("v1.h5");
  ASSERT_TRUE(WriteGolden(path, TwoOutputs()).ok());
  ASSERT_TRUE(EditHdf5File(path, StripChecksums));
  StatusOr<GoldenFile> g = ReadGolden(path);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(g->format_version, 1);
  EXPECT_EQ(g->model_files_sha256, "");
  EXPECT_EQ(g->sets[0].outputs.size(), 2u);
}

// Relabelling a format-2 golden as format 1 does not switch its checksums off.
TEST(GoldenChecksumTest, ChecksumsAreCheckedWhateverTheFormatSays) {
  TempDir dir;
  std::string path = dir.File("relabelled.h5");
  ASSERT_TRUE(WriteGolden(path, TwoOutputs()).ok());
  ASSERT_TRUE(EditHdf5File(path, [](hid_t f) {
    return SetInt64Attr(f, "/", "format_version", 1) && SetStringAttr(f, "/", "producer", "x");
  }));
  ExpectCorrupted(ReadStatus(path), {path + ": /: golden corrupted"});
}

// Little-endian u64 / length-prefixed string / f64, as golden/golden_checksum.h documents them.
std::string U64(uint64_t v) {
  std::string s(8, '\0');
  for (int i = 0; i < 8; ++i) s[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  return s;
}
std::string Str(const std::string& s) { return U64(s.size()) + s; }
std::string F64(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return U64(bits);
}

TEST(GoldenChecksumTest, ValueDigestIsTheDocumentedCanonicalBytes) {
  GoldenValue v{"Y", 3, Value::FromTensor(Tensor::FromVector<float>({2}, {1.5f, -2.0f})), 1e-4, {}};
  std::string data(8, '\0');
  float items[2] = {1.5f, -2.0f};
  std::memcpy(data.data(), items, 8);
  std::string expected = Str("onnxgate-golden-value-v1") + Str("Y") + U64(3) +
                         std::string(1, '\1') + F64(1e-4) + std::string(1, '\0') + Str("tensor") +
                         Str("FLOAT") + U64(1) + U64(2) + data;
  EXPECT_EQ(GoldenValueSha256(v), Sha256Hex(expected));

  // INT4 is hashed unpacked, one byte per element, as the golden stores it.
  StatusOr<Tensor> int4 = Tensor::FromSubByteInts(DataType::kInt4, Shape({3}), {-8, 7, -1});
  ASSERT_TRUE(int4.ok());
  GoldenValue packed{"q", 0, Value::FromTensor(*int4), {}, {}};
  std::string bytes = std::string("\xf8\x07\xff", 3);
  EXPECT_EQ(GoldenValueSha256(packed),
            Sha256Hex(Str("onnxgate-golden-value-v1") + Str("q") + U64(0) + std::string(2, '\0') +
                      Str("tensor") + Str("INT4") + U64(1) + U64(3) + bytes));
}

TEST(GoldenChecksumTest, ValueDigestCoversEveryPart) {
  auto digest = [](GoldenValue v) { return GoldenValueSha256(v); };
  GoldenValue base{"Y", 0, Value::FromTensor(Tensor::FromVector<float>({2}, {1, 2})), {}, {}};
  std::set<std::string> seen = {digest(base)};
  EXPECT_EQ(digest(base),
            digest(GoldenValue{
                "Y", 0, Value::FromTensor(Tensor::FromVector<float>({2}, {1, 2})), {}, {}}));
  auto distinct = [&](GoldenValue v, const char* what) {
    EXPECT_TRUE(seen.insert(digest(v)).second) << what << " does not change the digest";
  };
  GoldenValue v = base;
  v.name = "Z";
  distinct(v, "name");
  v = base;
  v.index = 1;
  distinct(v, "index");
  v = base;
  v.rtol = 0.1;
  distinct(v, "rtol");
  v = base;
  v.atol = 0.1;
  distinct(v, "atol");
  v = base;
  v.value = Value::FromTensor(Tensor::FromVector<float>({1, 2}, {1, 2}));
  distinct(v, "shape");
  v = base;
  v.value = Value::FromTensor(Tensor::FromVector<int32_t>({2}, {1, 2}));
  distinct(v, "element type");
  v = base;
  v.value = Value::FromTensor(Tensor::FromVector<float>({2}, {1, 3}));
  distinct(v, "data");
  v = base;
  v.value = Value::FromSequence(DataType::kFloat, {Tensor::FromVector<float>({2}, {1, 2})});
  distinct(v, "kind");
  v.value = Value::OptionalOf(Value::FromTensor(Tensor::FromVector<float>({2}, {1, 2})));
  distinct(v, "optional");
  v.value = Value::OptionalNone(Value::Kind::kTensor, DataType::kFloat);
  distinct(v, "empty optional");
  v.value = Value::FromTensor(Tensor::FromVector<std::string>({2}, {"a", "bc"}));
  distinct(v, "strings");
  v.value = Value::FromTensor(Tensor::FromVector<std::string>({2}, {"ab", "c"}));
  distinct(v, "strings split elsewhere");
}

}  // namespace
}  // namespace onnxgate
