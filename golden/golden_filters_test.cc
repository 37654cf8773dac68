// Compressed goldens: deflate (gzip), shuffle and fletcher32 read as before; a deflated chunk that
// inflates past its chunk size (a bomb inside a small declared size, which libhdf5 itself would
// inflate without bound) is refused before libhdf5 sees it; other filters are refused by name.
#include <gtest/gtest.h>

#include <vector>

#include "golden/golden_file.h"
#include "golden/golden_test_util.h"
#include "golden/hdf5_handle.h"
#include "runtime/base/sha256.h"

namespace onnxgate {
namespace {

using testing_util::ChildOutcome;
using testing_util::EditHdf5File;
using testing_util::ReadGoldenInChild;
using testing_util::TagAsTensorValue;
using testing_util::TempDir;

const std::vector<float> kY = {1.5f, -2.25f, 3.0f, 1024.0f, 0.0f, -0.5f};

GoldenFile Small() {
  GoldenFile g;
  g.producer = "filters test";
  g.model_sha256 = Sha256Hex("m");
  g.opset_imports = {{"", 13}};
  g.created = "2026-11-21T03:00:00Z";
  GoldenSet set;
  set.inputs = {{"X", 0, Value::FromTensor(Tensor::FromVector<float>({2}, {1, 2})), {}, {}}};
  set.outputs = {{"Y", 0, Value::FromTensor(Tensor::FromVector<float>({6}, kY)), {}, {}}};
  g.sets.push_back(set);
  return g;
}

// Writes Small() to `path` and replaces Y by a dataset of kY created with `dcpl`, with Y's
// attributes and sha256.
void ReplaceY(const std::string& path, hid_t dcpl) {
  ASSERT_TRUE(WriteGolden(path, Small()).ok());
  ASSERT_TRUE(EditHdf5File(path, [&](hid_t f) {
    hid_t y = H5Oopen(f, "/sets/0/outputs/Y", H5P_DEFAULT);
    StatusOr<std::string> sha = ReadStringAttribute(y, "sha256", H5Where{path, "Y"});
    H5Oclose(y);
    if (!sha.ok() || H5Ldelete(f, "/sets/0/outputs/Y", H5P_DEFAULT) < 0) return false;
    hsize_t n = kY.size();
    hid_t space = H5Screate_simple(1, &n, nullptr);
    hid_t d =
        H5Dcreate2(f, "/sets/0/outputs/Y", H5T_IEEE_F32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    bool ok = d >= 0 &&
              H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, kY.data()) >= 0 &&
              TagAsTensorValue(d, "Y", 0, "FLOAT");
    if (ok) {
      H5Adelete(d, "sha256");
      ok = WriteStringAttribute(d, "sha256", *sha, H5Where{path, "Y"}).ok();
    }
    if (d >= 0) H5Dclose(d);
    H5Sclose(space);
    return ok;
  }));
}

std::string BoundedRead(const std::string& path, uint64_t headroom) {
  ChildOutcome out = ReadGoldenInChild(path, 30, headroom);
  EXPECT_TRUE(out.finished);
  EXPECT_EQ(out.stderr_text, "");
  return out.result;
}

TEST(GoldenFiltersTest, GzipShuffleAndFletcher32ReadAsWritten) {
  TempDir dir;
  std::string path = dir.File("gzip.h5");
  hsize_t chunk = 4;
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  ASSERT_GE(H5Pset_chunk(dcpl, 1, &chunk), 0);
  ASSERT_GE(H5Pset_shuffle(dcpl), 0);
  ASSERT_GE(H5Pset_deflate(dcpl, 6), 0);
  ASSERT_GE(H5Pset_fletcher32(dcpl), 0);
  ReplaceY(path, dcpl);
  H5Pclose(dcpl);
  StatusOr<GoldenFile> g = ReadGolden(path);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(
      testing_util::ValueDifference(g->sets[0].outputs[0].value, Small().sets[0].outputs[0].value),
      "");
}

// 64 MiB of zeros deflated (about 64 KB) as the one chunk of a 1 KiB dataset: libhdf5 would
// allocate 64 MiB and more to inflate it; the reader refuses it with 32 MiB to spare.
TEST(GoldenFiltersTest, ChunkInflatingPastItsSizeIsRefused) {
  TempDir dir;
  std::string path = dir.File("chunkbomb.h5");
  ASSERT_TRUE(WriteGolden(path, Small()).ok());
  ASSERT_TRUE(EditHdf5File(path, [](hid_t f) {
    // The bomb's bytes, made by libhdf5's own deflate in a scratch dataset.
    const hsize_t big = hsize_t{64} << 20, small = 1024;
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, &big);
    H5Pset_deflate(dcpl, 9);
    hid_t space = H5Screate_simple(1, &big, nullptr);
    hid_t scratch = H5Dcreate2(f, "scratch", H5T_STD_U8LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    std::vector<uint8_t> zeros(big, 0);
    bool ok = H5Dwrite(scratch, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, zeros.data()) >= 0;
    hsize_t offset = 0, stored = 0;
    ok = ok && H5Dget_chunk_storage_size(scratch, &offset, &stored) >= 0;
    std::vector<char> bytes(stored);
    uint32_t filters = 0;
    ok = ok && H5Dread_chunk(scratch, H5P_DEFAULT, &offset, &filters, bytes.data()) >= 0;
    H5Dclose(scratch);
    H5Sclose(space);
    H5Ldelete(f, "scratch", H5P_DEFAULT);
    H5Ldelete(f, "/sets/0/outputs/Y", H5P_DEFAULT);
    H5Pset_chunk(dcpl, 1, &small);
    space = H5Screate_simple(1, &small, nullptr);
    hid_t y =
        H5Dcreate2(f, "/sets/0/outputs/Y", H5T_STD_U8LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    ok = ok && H5Dwrite_chunk(y, H5P_DEFAULT, filters, &offset, stored, bytes.data()) >= 0 &&
         TagAsTensorValue(y, "Y", 0, "UINT8");
    H5Dclose(y);
    H5Sclose(space);
    H5Pclose(dcpl);
    return ok;
  }));
  std::string message = BoundedRead(path, uint64_t{32} << 20);
  EXPECT_NE(message.find("DATA_LOSS: " + path + ": /sets/0/outputs/Y: deflated chunk at [0]"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("inflates past the chunk's 1024 bytes: a compression bomb"),
            std::string::npos)
      << message;
}

TEST(GoldenFiltersTest, OtherFiltersAreRefusedByName) {
  TempDir dir;
  std::string path = dir.File("nbit.h5");
  hsize_t chunk = 6;
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  ASSERT_GE(H5Pset_chunk(dcpl, 1, &chunk), 0);
  ASSERT_GE(H5Pset_nbit(dcpl), 0);
  ReplaceY(path, dcpl);
  H5Pclose(dcpl);
  std::string message = BoundedRead(path, 0);
  EXPECT_NE(message.find(path + ": /sets/0/outputs/Y: uses HDF5 filter 5 (nbit); a golden may use "
                                "deflate (gzip), shuffle and fletcher32 only"),
            std::string::npos)
      << message;
}

}  // namespace
}  // namespace onnxgate
