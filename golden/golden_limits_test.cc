// What a golden declares is checked against golden/golden_limits.h before anything of that size is
// allocated: each read runs in a child whose address space is limited to 256 MiB more than it
// already uses, so a reader that allocated what the file declares would fail with "out of
// memory" instead of the limit's message.
#include "golden/golden_limits.h"

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

constexpr uint64_t kHeadroom = uint64_t{256} << 20;

GoldenFile Small() {
  GoldenFile g;
  g.producer = "limits test";
  g.model_sha256 = Sha256Hex("m");
  g.opset_imports = {{"", 13}};
  g.created = "2026-11-21T03:00:00Z";
  GoldenSet set;
  set.inputs = {{"X", 0, Value::FromTensor(Tensor::FromVector<float>({2}, {1, 2})), {}, {}}};
  set.outputs = {{"Y", 0, Value::FromTensor(Tensor::FromVector<float>({2}, {1, 2})), {}, {}}};
  g.sets.push_back(set);
  return g;
}

// Writes Small() to `path`, deletes its output Y and calls `make(outputs_group)`.
void ReplaceOutputs(const std::string& path, const std::function<bool(hid_t)>& make) {
  ASSERT_TRUE(WriteGolden(path, Small()).ok());
  ASSERT_TRUE(EditHdf5File(path, [&](hid_t f) {
    hid_t outputs = H5Gopen2(f, "/sets/0/outputs", H5P_DEFAULT);
    bool ok = outputs >= 0 && H5Ldelete(outputs, "Y", H5P_DEFAULT) >= 0 && make(outputs);
    H5Gclose(outputs);
    return ok;
  }));
}

// Creates dataset `name` of `type` and `dims` (never written: libhdf5 stores no data for it)
// with creation list `dcpl`, tagged as output `index` of `onnx_dtype`.
bool CreateDeclared(hid_t group, const std::string& name, int64_t index, hid_t type,
                    const std::vector<hsize_t>& dims, const std::string& onnx_dtype,
                    hid_t dcpl = H5P_DEFAULT, const std::vector<hsize_t>& max_dims = {}) {
  hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(),
                                 max_dims.empty() ? nullptr : max_dims.data());
  hid_t d = H5Dcreate2(group, name.c_str(), type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  bool ok = d >= 0 && TagAsTensorValue(d, name, index, onnx_dtype);
  if (d >= 0) H5Dclose(d);
  H5Sclose(space);
  return ok;
}

// ReadGolden's message from a child with kHeadroom bytes of address space to spare.
std::string ReadWithLittleMemory(const std::string& path) {
  ChildOutcome out = ReadGoldenInChild(path, 30, kHeadroom);
  EXPECT_TRUE(out.finished) << "the read did not finish";
  EXPECT_EQ(out.stderr_text, "");
  EXPECT_EQ(out.result.find("out of memory"), std::string::npos) << out.result;
  return out.result;
}

void ExpectHas(const std::string& message, const std::vector<std::string>& fragments) {
  for (const std::string& f : fragments) {
    EXPECT_NE(message.find(f), std::string::npos) << "'" << f << "' not in: " << message;
  }
}

TEST(GoldenLimitsTest, SixteenGiBDeclaredInATinyFileIsRefusedBeforeAllocation) {
  TempDir dir;
  std::string path = dir.File("huge.h5");
  ReplaceOutputs(path, [](hid_t outputs) {
    return CreateDeclared(outputs, "Y", 0, H5T_IEEE_F32LE, {4, hsize_t{1} << 30}, "FLOAT");
  });
  EXPECT_LT(testing_util::FileBytes(path).size(), 64u * 1024) << "the file itself is tiny";
  ExpectHas(ReadWithLittleMemory(path),
            {"DATA_LOSS", path + ": /sets/0/outputs/Y: declares FLOAT [4,1073741824]",
             "more than the limit of 536870912 bytes (512 MiB) per tensor"});
}

// 1 GiB of zeros in 16 deflated chunks of 64 MiB: about a megabyte on disk.
TEST(GoldenLimitsTest, GzipBombIsRefusedBeforeInflating) {
  TempDir dir;
  std::string path = dir.File("bomb.h5");
  const hsize_t chunk = hsize_t{1} << 26, total = hsize_t{1} << 30;
  ReplaceOutputs(path, [&](hid_t outputs) {
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    bool ok = H5Pset_chunk(dcpl, 1, &chunk) >= 0 && H5Pset_deflate(dcpl, 9) >= 0 &&
              CreateDeclared(outputs, "Y", 0, H5T_STD_U8LE, {total}, "UINT8", dcpl);
    H5Pclose(dcpl);
    hid_t d = H5Dopen2(outputs, "Y", H5P_DEFAULT);
    // The first chunk through the filter, then its compressed bytes copied to the other 15.
    std::vector<uint8_t> zeros(chunk, 0);
    hid_t file_space = H5Dget_space(d);
    hsize_t start = 0;
    H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &start, nullptr, &chunk, nullptr);
    hid_t mem_space = H5Screate_simple(1, &chunk, nullptr);
    ok = ok && H5Dwrite(d, H5T_NATIVE_UINT8, mem_space, file_space, H5P_DEFAULT, zeros.data()) >= 0;
    H5Sclose(mem_space);
    H5Sclose(file_space);
    hsize_t offset[1] = {0};
    hsize_t stored = 0;
    ok = ok && H5Dget_chunk_storage_size(d, offset, &stored) >= 0 && stored > 0;
    std::vector<char> compressed(stored);
    uint32_t filters = 0;
    ok = ok && H5Dread_chunk(d, H5P_DEFAULT, offset, &filters, compressed.data()) >= 0;
    for (hsize_t at = chunk; ok && at < total; at += chunk) {
      offset[0] = at;
      ok = H5Dwrite_chunk(d, H5P_DEFAULT, filters, offset, stored, compressed.data()) >= 0;
    }
    H5Dclose(d);
    return ok;
  });
  size_t file_bytes = testing_util::FileBytes(path).size();
  EXPECT_LT(file_bytes, 2u << 20) << "a bomb of about a megabyte";
  ExpectHas(ReadWithLittleMemory(path),
            {"DATA_LOSS", path + ": /sets/0/outputs/Y: declares UINT8 [1073741824]", "per tensor"});
}

// With the default limits this needs over 1 GiB of real tensors; smaller limits show the rule.
TEST(GoldenLimitsTest, TensorsTogetherArePastTheGoldenTotal) {
  TempDir dir;
  std::string path = dir.File("total.h5");
  ReplaceOutputs(path, [&](hid_t outputs) {
    return CreateDeclared(outputs, "Y", 0, H5T_STD_U8LE, {400 << 10}, "UINT8") &&
           CreateDeclared(outputs, "Y2", 1, H5T_STD_U8LE, {400 << 10}, "UINT8") &&
           CreateDeclared(outputs, "Y3", 2, H5T_STD_U8LE, {400 << 10}, "UINT8");
  });
  GoldenReadLimits limits;
  limits.tensor_bytes = 1 << 20;
  limits.total_bytes = 1 << 20;
  Status st = ReadGolden(path, limits).status();
  ExpectHas(st.ToString(), {"DATA_LOSS", path + ": /sets/0/outputs/Y3: declares UINT8 [409600]",
                            "past the limit of 1048576 bytes (1 MiB) in all"});
}

TEST(GoldenLimitsTest, HugeChunkOfASmallDatasetIsRefused) {
  TempDir dir;
  std::string path = dir.File("chunk.h5");
  ReplaceOutputs(path, [](hid_t outputs) {
    hsize_t chunk = hsize_t{1} << 28;  // 1 GiB of float per chunk for a 2-element dataset
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    bool ok = H5Pset_chunk(dcpl, 1, &chunk) >= 0 &&
              CreateDeclared(outputs, "Y", 0, H5T_IEEE_F32LE, {2}, "FLOAT", dcpl, {H5S_UNLIMITED});
    H5Pclose(dcpl);
    return ok;
  });
  ExpectHas(ReadWithLittleMemory(path),
            {"DATA_LOSS", path + ": /sets/0/outputs/Y: chunks of [268435456] elements of 4 bytes",
             "per chunk"});
}

TEST(GoldenLimitsTest, HugeFixedLengthStringsAreRefused) {
  TempDir dir;
  std::string path = dir.File("strings.h5");
  ReplaceOutputs(path, [](hid_t outputs) {
    hid_t type = H5Tcopy(H5T_C_S1);
    bool ok = H5Tset_size(type, size_t{1} << 30) >= 0 &&
              CreateDeclared(outputs, "Y", 0, type, {1}, "STRING");
    H5Tclose(type);
    return ok;
  });
  ExpectHas(ReadWithLittleMemory(path),
            {"DATA_LOSS",
             path + ": /sets/0/outputs/Y: declares STRING [1] (1073741824 bytes per element)"});
}

TEST(GoldenLimitsTest, LongArrayAttributeIsRefused) {
  TempDir dir;
  std::string path = dir.File("shape.h5");
  ASSERT_TRUE(WriteGolden(path, Small()).ok());
  ASSERT_TRUE(EditHdf5File(path, [](hid_t f) {
    hid_t obj = H5Oopen(f, "/sets/0/inputs/X", H5P_DEFAULT);
    H5Adelete(obj, "shape");
    bool ok =
        WriteInt64ArrayAttribute(obj, "shape", std::vector<int64_t>(100, 1), H5Where{"edit", "X"})
            .ok();
    H5Oclose(obj);
    return ok;
  }));
  ExpectHas(
      ReadWithLittleMemory(path),
      {"DATA_LOSS",
       path + ": /sets/0/inputs/X: attribute shape has 100 elements, more than the limit of 64"});
}

}  // namespace
}  // namespace onnxgate
