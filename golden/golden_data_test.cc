// The committed goldens (golden/data/<suite>/*.h5): every one reads and carries its checksums
// (format 2 or later), so a format-1 golden cannot come back unnoticed; and a byte-mutated
// committed golden never reads as other content (which a gate would blame on the runtime): each
// mutant is refused ("golden corrupted", or not HDF5) or reads as the original.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <vector>

#include "golden/golden_checksum.h"
#include "golden/golden_file.h"
#include "golden/golden_test_util.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using testing_util::ChildOutcome;
using testing_util::RunInChild;
using testing_util::TempDir;

const fs::path kData = fs::path(ONNXGATE_SOURCE_DIR) / "golden" / "data";

std::vector<std::string> CommittedGoldens() {
  std::vector<std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(kData)) {
    if (entry.is_regular_file() && entry.path().extension() == ".h5")
      out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(GoldenDataTest, EveryCommittedGoldenReadsAndCarriesChecksums) {
  std::vector<std::string> goldens = CommittedGoldens();
  ASSERT_GT(goldens.size(), 2000u) << "golden/data not found at " << kData;
  int old_format = 0;
  for (const std::string& path : goldens) {
    StatusOr<GoldenFile> g = ReadGolden(path);
    ASSERT_TRUE(g.ok()) << g.status().ToString();
    if (g->format_version < 2) {
      ++old_format;
      ADD_FAILURE() << path << ": format_version " << g->format_version
                    << " has no checksums; rewrite it with onnxgate-upgrade-golden";
      if (old_format >= 5) break;
    }
  }
}

// Byte positions to mutate: `count` spread evenly over the file, plus every `data_stride`-th byte
// of `dataset`'s stored data (where a change reads as another value unless the golden has
// checksums).
std::vector<size_t> MutationPositions(const std::string& path, const std::string& dataset,
                                      size_t file_size, size_t count, size_t data_stride) {
  std::vector<size_t> at;
  for (size_t i = 0; i < count; ++i) at.push_back(i * file_size / count);
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t d = f >= 0 ? H5Dopen2(f, dataset.c_str(), H5P_DEFAULT) : -1;
  haddr_t offset = d >= 0 ? H5Dget_offset(d) : HADDR_UNDEF;
  hsize_t size = d >= 0 ? H5Dget_storage_size(d) : 0;
  if (d >= 0) H5Dclose(d);
  if (f >= 0) H5Fclose(f);
  if (offset != HADDR_UNDEF) {
    for (hsize_t i = 0; i < size && offset + i < file_size; i += data_stride)
      at.push_back(offset + i);
  }
  return at;
}

TEST(GoldenDataTest, MutantsOfACommittedGoldenNeverReadAsOtherContent) {
  const std::string original = (kData / "onnx-node/test_abs.h5").string();
  StatusOr<GoldenFile> golden = ReadGolden(original);
  ASSERT_TRUE(golden.ok()) << golden.status().ToString();
  const std::string content = GoldenContentSha256(*golden);
  const std::string bytes = testing_util::FileBytes(original);
  // test_abs.h5 is 14 KB; its output y is 240 bytes of float data.
  std::vector<size_t> positions =
      MutationPositions(original, "/sets/0/outputs/y", bytes.size(), 200, 3);
  ASSERT_EQ(positions.size(), 280u) << "the output's stored data was not found";

  TempDir dir;
  const std::string path = dir.File("mutant.h5");
  int same = 0, other_content = 0, corrupted = 0, refused = 0, uncontained = 0;
  for (size_t at : positions) {
    std::string mutant = bytes;
    mutant[at] = static_cast<char>(mutant[at] ^ 0x5A);
    ASSERT_TRUE(testing_util::WriteBytes(path, mutant));
    ChildOutcome out = RunInChild(
        [&] {
          StatusOr<GoldenFile> g = ReadGolden(path);
          if (!g.ok()) return "refused " + g.status().message();
          return std::string(GoldenContentSha256(*g) == content ? "same" : "other");
        },
        0.5, uint64_t{1} << 30);
    if (!out.finished) {
      ++uncontained;  // a libhdf5 crash or hang: a gate's worker makes it CRASH or TIMEOUT
    } else if (out.result == "same") {
      ++same;
    } else if (out.result == "other") {
      if (++other_content <= 3)
        ADD_FAILURE() << "the mutant with byte " << at << " changed reads as other content";
    } else if (out.result.find("golden corrupted") != std::string::npos) {
      ++corrupted;
    } else {
      ++refused;
    }
  }
  std::cout << positions.size() << " mutants: " << corrupted << " golden corrupted, " << refused
            << " refused otherwise, " << same << " read as the original, " << other_content
            << " read as other content, " << uncontained << " crashed or hung in libhdf5\n";
  EXPECT_EQ(other_content, 0);
}

}  // namespace
}  // namespace onnxgate
