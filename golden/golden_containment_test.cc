// A golden reads only itself: external links, soft links, external raw storage and virtual
// datasets are refused naming the golden, the object and the other file, and nothing of that file
// is read (a FIFO as the other file would block forever if it were opened). A golden path that is
// a FIFO, a device or a folder is refused without blocking.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "golden/golden_file.h"
#include "golden/golden_test_util.h"
#include "golden/hdf5_containment.h"
#include "golden/hdf5_handle.h"
#include "runtime/base/sha256.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using testing_util::ChildOutcome;
using testing_util::EditHdf5File;
using testing_util::ReadGoldenInChild;
using testing_util::TagAsTensorValue;
using testing_util::TempDir;

// Values no golden of these tests holds, so that seeing them means the other file was read.
const std::vector<float> kSecret = {31337.5f, -4242.25f, 1e-7f, 65504.0f};

GoldenFile Small() {
  GoldenFile g;
  g.producer = "containment test";
  g.model_sha256 = Sha256Hex("m");
  g.opset_imports = {{"", 13}};
  g.created = "2026-11-21T03:00:00Z";
  GoldenSet set;
  set.inputs = {{"X", 0, Value::FromTensor(Tensor::FromVector<float>({4}, {1, 2, 3, 4})), {}, {}}};
  set.outputs = {{"Y", 0, Value::FromTensor(Tensor::FromVector<float>({4}, {1, 2, 3, 4})), {}, {}}};
  g.sets.push_back(set);
  return g;
}

// A plain HDF5 file holding dataset /y = kSecret, tagged like a golden output.
void WriteSecretFile(const std::string& path) {
  hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  hsize_t n = kSecret.size();
  hid_t space = H5Screate_simple(1, &n, nullptr);
  hid_t d = H5Dcreate2(f, "y", H5T_IEEE_F32LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  EXPECT_GE(H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, kSecret.data()), 0);
  EXPECT_TRUE(TagAsTensorValue(d, "Y", 0, "FLOAT"));
  H5Dclose(d);
  H5Sclose(space);
  H5Fclose(f);
}

// Writes Small() to `path` and replaces its output Y by what `make(outputs_group)` creates there.
void ReplaceOutput(const std::string& path, const std::function<bool(hid_t)>& make) {
  ASSERT_TRUE(WriteGolden(path, Small()).ok());
  ASSERT_TRUE(EditHdf5File(path, [&](hid_t f) {
    hid_t outputs = H5Gopen2(f, "/sets/0/outputs", H5P_DEFAULT);
    bool ok = outputs >= 0 && H5Ldelete(outputs, "Y", H5P_DEFAULT) >= 0 && make(outputs);
    H5Gclose(outputs);
    return ok;
  }));
}

// A float dataset "Y" of kSecret.size() elements under `outputs` with creation list `dcpl`.
bool CreateTaggedY(hid_t outputs, hid_t dcpl) {
  hsize_t n = kSecret.size();
  hid_t space = H5Screate_simple(1, &n, nullptr);
  hid_t d = H5Dcreate2(outputs, "Y", H5T_IEEE_F32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  bool ok = d >= 0 && TagAsTensorValue(d, "Y", 0, "FLOAT");
  if (d >= 0) H5Dclose(d);
  H5Sclose(space);
  return ok;
}

// ReadGolden in a child process that must finish within 20 s: its message, "OK" when it read.
std::string BoundedRead(const std::string& path) {
  ChildOutcome out = ReadGoldenInChild(path, 20);
  EXPECT_TRUE(out.finished) << "reading " << path << " blocked or crashed";
  EXPECT_EQ(out.stderr_text, "") << "HDF5 printed to stderr";
  return out.result;
}

void ExpectRefused(const std::string& message, const std::vector<std::string>& fragments) {
  for (const std::string& f : fragments) {
    EXPECT_NE(message.find(f), std::string::npos) << "'" << f << "' not in: " << message;
  }
  for (const char* secret : {"31337", "4242", "65504"}) {
    EXPECT_EQ(message.find(secret), std::string::npos)
        << "the other file's values leaked: " << message;
  }
}

TEST(GoldenContainmentTest, ExternalLinkIsRefused) {
  TempDir dir;
  std::string secret = dir.File("other.h5");
  WriteSecretFile(secret);
  std::string path = dir.File("elink.h5");
  ReplaceOutput(path, [&](hid_t outputs) {
    return H5Lcreate_external(secret.c_str(), "/y", outputs, "Y", H5P_DEFAULT, H5P_DEFAULT) >= 0;
  });
  std::string message = BoundedRead(path);
  ExpectRefused(message,
                {"DATA_LOSS", path + ": /sets/0/outputs/Y: is an HDF5 external link to '" + secret +
                                  "' (object '/y'); a golden must hold its own data"});

  // A target that is a FIFO would block the reader forever if the link were followed.
  std::string fifo = dir.File("fifo.h5");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  ReplaceOutput(path, [&](hid_t outputs) {
    return H5Lcreate_external(fifo.c_str(), "/y", outputs, "Y", H5P_DEFAULT, H5P_DEFAULT) >= 0;
  });
  ExpectRefused(BoundedRead(path),
                {"/sets/0/outputs/Y: is an HDF5 external link to '" + fifo + "'"});

  // A whole group (here /sets/0/inputs) may be a link as well.
  ASSERT_TRUE(WriteGolden(path, Small()).ok());
  ASSERT_TRUE(EditHdf5File(path, [&](hid_t f) {
    return H5Ldelete(f, "/sets/0/inputs", H5P_DEFAULT) >= 0 &&
           H5Lcreate_external(secret.c_str(), "/", f, "/sets/0/inputs", H5P_DEFAULT, H5P_DEFAULT) >=
               0;
  }));
  ExpectRefused(BoundedRead(path), {path + ": /sets/0/inputs: is an HDF5 external link"});
}

// The second layer: the link access list the reader opens everything with refuses to follow an
// external link by itself, should a check before it ever be missed.
TEST(GoldenContainmentTest, LinkAccessListRefusesExternalLinksByItself) {
  TempDir dir;
  std::string secret = dir.File("other.h5");
  WriteSecretFile(secret);
  std::string path = dir.File("links.h5");
  hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  ASSERT_GE(H5Lcreate_external(secret.c_str(), "/y", f, "elink", H5P_DEFAULT, H5P_DEFAULT), 0);
  SilenceHdf5Errors();
  hid_t followed = H5Oopen(f, "elink", H5P_DEFAULT);
  EXPECT_GE(followed, 0) << "libhdf5 follows external links by default";
  if (followed >= 0) H5Oclose(followed);
  StatusOr<H5Handle> lapl = NoForeignLinkAccess(H5Where{path, "/"});
  ASSERT_TRUE(lapl.ok()) << lapl.status().ToString();
  hid_t refused = H5Oopen(f, "elink", lapl->get());
  EXPECT_LT(refused, 0) << "the reader's link access list followed an external link";
  if (refused >= 0) H5Oclose(refused);
  H5Eclear2(H5E_DEFAULT);
  H5Fclose(f);
}

TEST(GoldenContainmentTest, SoftLinkIsRefused) {
  TempDir dir;
  std::string path = dir.File("soft.h5");
  ReplaceOutput(path, [](hid_t outputs) {
    return H5Lcreate_soft("/sets/0/inputs/X", outputs, "Y", H5P_DEFAULT, H5P_DEFAULT) >= 0;
  });
  ExpectRefused(BoundedRead(path), {path + ": /sets/0/outputs/Y: is an HDF5 soft link to "
                                           "'/sets/0/inputs/X'"});
}

TEST(GoldenContainmentTest, ExternalRawStorageIsRefused) {
  TempDir dir;
  std::string outside = dir.File("outside.bin");
  ASSERT_TRUE(testing_util::WriteBytes(
      outside,
      std::string(reinterpret_cast<const char*>(kSecret.data()), kSecret.size() * sizeof(float))));
  std::string fifo = dir.File("fifo.bin");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string path = dir.File("efl.h5");
  for (const std::string& target : {outside, std::string("/dev/zero"), fifo}) {
    SCOPED_TRACE(target);
    ReplaceOutput(path, [&](hid_t outputs) {
      hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
      bool ok = H5Pset_external(dcpl, target.c_str(), 0, kSecret.size() * sizeof(float)) >= 0 &&
                CreateTaggedY(outputs, dcpl);
      H5Pclose(dcpl);
      return ok;
    });
    ExpectRefused(BoundedRead(path),
                  {"DATA_LOSS", path +
                                    ": /sets/0/outputs/Y: has HDF5 external raw "
                                    "storage in '" +
                                    target + "'; a golden must hold its own data"});
  }
}

TEST(GoldenContainmentTest, VirtualDatasetIsRefused) {
  TempDir dir;
  std::string secret = dir.File("source.h5");
  WriteSecretFile(secret);
  std::string path = dir.File("vds.h5");
  ReplaceOutput(path, [&](hid_t outputs) {
    hsize_t n = kSecret.size();
    hid_t space = H5Screate_simple(1, &n, nullptr);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    bool ok = H5Pset_virtual(dcpl, space, secret.c_str(), "/y", space) >= 0 &&
              CreateTaggedY(outputs, dcpl);
    H5Pclose(dcpl);
    H5Sclose(space);
    return ok;
  });
  ExpectRefused(BoundedRead(path),
                {"DATA_LOSS", path +
                                  ": /sets/0/outputs/Y: is an HDF5 virtual "
                                  "dataset mapping '" +
                                  secret + "' (dataset '/y'); a golden must hold its own data"});
}

TEST(GoldenContainmentTest, GoldenPathThatIsNotARegularFileIsRefusedWithoutBlocking) {
  TempDir dir;
  std::string fifo = dir.File("fifo.h5");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(BoundedRead(fifo), "INVALID_ARGUMENT: " + fifo + ": is a FIFO, not a golden file");
  std::string zero = BoundedRead("/dev/zero");
  EXPECT_NE(zero.find("INVALID_ARGUMENT: /dev/zero: is a"), std::string::npos) << zero;
  EXPECT_NE(zero.find("not a golden file"), std::string::npos) << zero;
  EXPECT_EQ(BoundedRead(dir.path()),
            "INVALID_ARGUMENT: " + dir.path() + ": is a folder, not a golden file");
  // A symbolic link to a regular golden is a path the user chose: it is followed.
  ASSERT_TRUE(WriteGolden(dir.File("real.h5"), Small()).ok());
  fs::create_symlink(dir.File("real.h5"), dir.File("link.h5"));
  EXPECT_EQ(BoundedRead(dir.File("link.h5")), "OK");
}

}  // namespace
}  // namespace onnxgate
