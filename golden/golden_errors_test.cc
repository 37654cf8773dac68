// What the golden reader refuses (missing, non-HDF5, truncated, wrong format or version, missing
// attributes, inconsistent types and shapes) and what the writer refuses, atomically.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "golden/golden_file.h"
#include "golden/golden_test_util.h"
#include "golden/hdf5_handle.h"
#include "runtime/base/sha256.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using testing_util::DeleteAttr;
using testing_util::EditHdf5File;
using testing_util::SetInt64Attr;
using testing_util::SetStringAttr;
using testing_util::TempDir;

GoldenFile SmallGolden() {
  GoldenFile g;
  g.producer = "unit test";
  g.model_sha256 = Sha256Hex("m");
  g.opset_imports = {{"", 13}};
  g.created = "2026-11-21T03:00:00Z";
  GoldenSet set;
  set.inputs = {
      {"A", 0, Value::FromTensor(Tensor::FromVector<int64_t>({2, 3}, {1, 2, 3, 4, 5, 6})), {}, {}},
      {"flags", 1, Value::FromTensor(Tensor::FromVector<bool>({2}, {true, false})), {}, {}}};
  set.outputs = {
      {"Y", 0, Value::FromSequence(DataType::kFloat, {Tensor::Scalar<float>(1.f)}), {}, {}}};
  g.sets.push_back(set);
  return g;
}

// Writes SmallGolden to `path`, applies `edit`, and returns what ReadGolden says.
Status ReadAfterEdit(const std::string& path, const std::function<bool(hid_t)>& edit) {
  Status written = WriteGolden(path, SmallGolden());
  if (!written.ok()) return written;
  if (!EditHdf5File(path, edit)) return Internal("the test could not edit " + path);
  return ReadGolden(path).status();
}

void ExpectError(const Status& st, StatusCode code, const std::vector<std::string>& fragments) {
  EXPECT_EQ(st.code(), code) << st.ToString();
  for (const std::string& f : fragments) {
    EXPECT_NE(st.message().find(f), std::string::npos) << "'" << f << "' not in: " << st.message();
  }
}

TEST(GoldenReadErrorsTest, MissingFile) {
  TempDir dir;
  ExpectError(ReadGolden(dir.File("none.h5")).status(), StatusCode::kNotFound,
              {dir.File("none.h5")});
}

TEST(GoldenReadErrorsTest, NotAnHdf5File) {
  TempDir dir;
  std::string path = dir.File("text.h5");
  std::ofstream(path) << "this is not HDF5\n";
  ExpectError(ReadGolden(path).status(), StatusCode::kDataLoss, {path, "not an HDF5 file"});
}

TEST(GoldenReadErrorsTest, TruncatedFile) {
  TempDir dir;
  std::string path = dir.File("cut.h5");
  ASSERT_TRUE(WriteGolden(path, SmallGolden()).ok());
  std::string bytes = testing_util::FileBytes(path);
  for (size_t keep : {bytes.size() / 2, size_t{600}, size_t{40}, size_t{4}}) {
    SCOPED_TRACE(keep);
    fs::resize_file(path, keep);
    Status st = ReadGolden(path).status();
    ExpectError(st, StatusCode::kDataLoss, {path});
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  }
  EXPECT_TRUE(ReadGolden(path).ok());
}

TEST(GoldenReadErrorsTest, WrongFormat) {
  TempDir dir;
  std::string path = dir.File("f.h5");
  Status st = ReadAfterEdit(
      path, [](hid_t f) { return SetStringAttr(f, "/", "format", "something-else"); });
  ExpectError(st, StatusCode::kInvalidArgument,
              {path + ": /: ", "something-else", "onnxgate-golden"});
}

TEST(GoldenReadErrorsTest, UnknownFormatVersion) {
  TempDir dir;
  std::string path = dir.File("v.h5");
  Status st =
      ReadAfterEdit(path, [](hid_t f) { return SetInt64Attr(f, "/", "format_version", 4); });
  ExpectError(st, StatusCode::kUnimplemented, {path, "format_version 4"});
  st = ReadAfterEdit(path, [](hid_t f) { return SetInt64Attr(f, "/", "format_version", 0); });
  ExpectError(st, StatusCode::kUnimplemented, {path, "format_version 0"});
}

TEST(GoldenReadErrorsTest, MissingRequiredAttributes) {
  TempDir dir;
  std::string path = dir.File("m.h5");
  for (const char* attr :
       {"format", "format_version", "producer", "model_sha256", "opset_imports", "created"}) {
    Status st = ReadAfterEdit(path, [&](hid_t f) { return DeleteAttr(f, "/", attr); });
    ExpectError(st, StatusCode::kInvalidArgument, {path + ": /: ", std::string("'") + attr + "'"});
  }
  for (const char* attr : {"name", "index", "onnx_dtype", "kind"}) {
    Status st =
        ReadAfterEdit(path, [&](hid_t f) { return DeleteAttr(f, "/sets/0/inputs/A", attr); });
    ExpectError(st, StatusCode::kInvalidArgument, {path + ": /sets/0/inputs/A: ", attr});
  }
  Status st =
      ReadAfterEdit(path, [](hid_t f) { return DeleteAttr(f, "/sets/0/outputs/Y", "onnx_dtype"); });
  ExpectError(st, StatusCode::kInvalidArgument, {"/sets/0/outputs/Y", "onnx_dtype"});
  st = ReadAfterEdit(path,
                     [](hid_t f) { return H5Ldelete(f, "/sets/0/outputs", H5P_DEFAULT) >= 0; });
  ExpectError(st, StatusCode::kInvalidArgument, {"/sets/0", "outputs"});
}

TEST(GoldenReadErrorsTest, DtypeDoesNotMatchHdf5Type) {
  TempDir dir;
  std::string path = dir.File("t.h5");
  Status st = ReadAfterEdit(
      path, [](hid_t f) { return SetStringAttr(f, "/sets/0/inputs/A", "onnx_dtype", "FLOAT"); });
  ExpectError(st, StatusCode::kDataLoss,
              {path + ": /sets/0/inputs/A: onnx_dtype FLOAT but HDF5 type is 64-bit integer"});
  st = ReadAfterEdit(
      path, [](hid_t f) { return SetStringAttr(f, "/sets/0/inputs/A", "onnx_dtype", "UINT64"); });
  ExpectError(st, StatusCode::kDataLoss, {"onnx_dtype UINT64 but HDF5 type is 64-bit integer"});
  st = ReadAfterEdit(
      path, [](hid_t f) { return SetStringAttr(f, "/sets/0/inputs/A", "onnx_dtype", "STRING"); });
  ExpectError(st, StatusCode::kDataLoss, {"onnx_dtype STRING but HDF5 type is 64-bit integer"});
  st = ReadAfterEdit(path, [](hid_t f) {
    return SetStringAttr(f, "/sets/0/outputs/Y/0", "onnx_dtype", "DOUBLE");
  });
  ExpectError(st, StatusCode::kDataLoss,
              {"/sets/0/outputs/Y/0: onnx_dtype DOUBLE but HDF5 type is 32-bit float"});
  st = ReadAfterEdit(
      path, [](hid_t f) { return SetStringAttr(f, "/sets/0/outputs/Y", "onnx_dtype", "INT32"); });
  ExpectError(st, StatusCode::kDataLoss,
              {"/sets/0/outputs/Y/0", "differs from the sequence's INT32"});
  st = ReadAfterEdit(
      path, [](hid_t f) { return SetStringAttr(f, "/sets/0/inputs/A", "onnx_dtype", "float"); });
  ExpectError(st, StatusCode::kInvalidArgument, {"/sets/0/inputs/A", "unknown onnx_dtype 'float'"});
}

TEST(GoldenReadErrorsTest, ShapeAttributeDoesNotMatchDataspace) {
  TempDir dir;
  std::string path = dir.File("s.h5");
  Status st = ReadAfterEdit(path, [](hid_t f) {
    hid_t obj = H5Oopen(f, "/sets/0/inputs/A", H5P_DEFAULT);
    H5Adelete(obj, "shape");
    bool ok = WriteInt64ArrayAttribute(obj, "shape", {3, 2}, H5Where{"edit", "A"}).ok();
    H5Oclose(obj);
    return ok;
  });
  ExpectError(st, StatusCode::kDataLoss, {path + ": /sets/0/inputs/A: ", "[3,2]", "[2,3]"});
}

TEST(GoldenReadErrorsTest, InconsistentStructure) {
  TempDir dir;
  std::string path = dir.File("x.h5");
  Status st = ReadAfterEdit(
      path, [](hid_t f) { return SetStringAttr(f, "/sets/0/inputs/A", "name", "B"); });
  ExpectError(st, StatusCode::kDataLoss, {"/sets/0/inputs/A", "name attribute 'B'"});
  st = ReadAfterEdit(path,
                     [](hid_t f) { return SetInt64Attr(f, "/sets/0/inputs/flags", "index", 0); });
  ExpectError(st, StatusCode::kDataLoss, {"/sets/0/inputs", "both have index 0"});
  st = ReadAfterEdit(path,
                     [](hid_t f) { return SetStringAttr(f, "/sets/0/inputs/A", "kind", "map"); });
  ExpectError(st, StatusCode::kInvalidArgument, {"/sets/0/inputs/A", "unknown kind 'map'"});
  st = ReadAfterEdit(
      path, [](hid_t f) { return SetStringAttr(f, "/sets/0/inputs/A", "kind", "sequence"); });
  ExpectError(st, StatusCode::kDataLoss, {"/sets/0/inputs/A", "not a group"});
  st = ReadAfterEdit(path, [](hid_t f) {
    return H5Lmove(f, "/sets/0", f, "/sets/1", H5P_DEFAULT, H5P_DEFAULT) >= 0;
  });
  ExpectError(st, StatusCode::kDataLoss, {path + ": /sets: ", "unexpected child '1'"});
  st = ReadAfterEdit(path, [](hid_t f) { return SetStringAttr(f, "/", "model_sha256", "ABC"); });
  ExpectError(st, StatusCode::kInvalidArgument, {"model_sha256 'ABC'"});
  st = ReadAfterEdit(path,
                     [](hid_t f) { return SetStringAttr(f, "/", "opset_imports", "ai.onnx"); });
  ExpectError(st, StatusCode::kInvalidArgument, {path + ": /: opset_imports"});
}

TEST(GoldenReadErrorsTest, BoolOutsideZeroOne) {
  TempDir dir;
  std::string path = dir.File("b.h5");
  Status st = ReadAfterEdit(path, [](hid_t f) {
    hid_t d = H5Dopen2(f, "/sets/0/inputs/flags", H5P_DEFAULT);
    uint8_t bytes[2] = {1, 7};
    bool ok = H5Dwrite(d, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes) >= 0;
    H5Dclose(d);
    return ok;
  });
  ExpectError(st, StatusCode::kDataLoss, {"/sets/0/inputs/flags", "element 1 is 7"});
}

// A golden naming an element type the reader does not know: a clear error naming the file, the
// dataset and the type (the harness reports it as UNRESOLVED), never a crash.
TEST(GoldenReadErrorsTest, UnknownElementTypeNamesFileDatasetAndType) {
  TempDir dir;
  std::string path = dir.File("u.h5");
  // ONNX 1.23's 6-bit floats: real ONNX types this reader does not support.
  Status st = ReadAfterEdit(path, [](hid_t f) {
    return SetStringAttr(f, "/sets/0/inputs/A", "onnx_dtype", "FLOAT6E2M3");
  });
  ExpectError(st, StatusCode::kUnimplemented,
              {path + ": /sets/0/inputs/A: onnx_dtype 'FLOAT6E2M3' is an ONNX type this golden "
                      "reader does not support"});
  st = ReadAfterEdit(path, [](hid_t f) {
    return SetStringAttr(f, "/sets/0/outputs/Y/0", "onnx_dtype", "FLOAT6E3M2");
  });
  ExpectError(st, StatusCode::kUnimplemented, {path + ": /sets/0/outputs/Y", "'FLOAT6E3M2'"});
  // A name from a future ONNX (or a typo).
  st = ReadAfterEdit(path, [](hid_t f) {
    return SetStringAttr(f, "/sets/0/inputs/A", "onnx_dtype", "FLOAT12E7M4");
  });
  ExpectError(st, StatusCode::kInvalidArgument,
              {path + ": /sets/0/inputs/A: unknown onnx_dtype 'FLOAT12E7M4'"});
}

// The new types are checked against the HDF5 type, and unpacked values against their range.
TEST(GoldenReadErrorsTest, NewTypesCheckHdf5TypeAndRange) {
  TempDir dir;
  std::string path = dir.File("n.h5");
  // A has int64 data: not the uint8 codes of a float8, nor the int8 values of INT4.
  Status st = ReadAfterEdit(path, [](hid_t f) {
    return SetStringAttr(f, "/sets/0/inputs/A", "onnx_dtype", "FLOAT8E4M3FN");
  });
  ExpectError(
      st, StatusCode::kDataLoss,
      {path + ": /sets/0/inputs/A: onnx_dtype FLOAT8E4M3FN but HDF5 type is 64-bit integer"});
  st = ReadAfterEdit(
      path, [](hid_t f) { return SetStringAttr(f, "/sets/0/inputs/A", "onnx_dtype", "INT4"); });
  ExpectError(st, StatusCode::kDataLoss, {"onnx_dtype INT4 but HDF5 type is 64-bit integer"});
  // flags holds uint8 {1, 0}: fine as UINT4 and FLOAT4E2M1, not as INT2 (signed). The type check
  // lets UINT4 through; the value's checksum then says it is not what was written.
  st = ReadAfterEdit(path, [](hid_t f) {
    return SetStringAttr(f, "/sets/0/inputs/flags", "onnx_dtype", "UINT4");
  });
  ExpectError(st, StatusCode::kDataLoss, {"/sets/0/inputs/flags: golden corrupted"});
  st = ReadAfterEdit(
      path, [](hid_t f) { return SetStringAttr(f, "/sets/0/inputs/flags", "onnx_dtype", "INT2"); });
  ExpectError(st, StatusCode::kDataLoss,
              {"onnx_dtype INT2 but HDF5 type is unsigned 8-bit integer"});
  st = ReadAfterEdit(path, [](hid_t f) {
    hid_t d = H5Dopen2(f, "/sets/0/inputs/flags", H5P_DEFAULT);
    uint8_t bytes[2] = {3, 4};
    bool ok = H5Dwrite(d, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes) >= 0;
    H5Dclose(d);
    return ok && SetStringAttr(f, "/sets/0/inputs/flags", "onnx_dtype", "UINT2");
  });
  ExpectError(st, StatusCode::kDataLoss,
              {"/sets/0/inputs/flags: UINT2 element 1 is 4, outside [0, 3]"});
  st = ReadAfterEdit(path, [](hid_t f) {
    hid_t d = H5Dopen2(f, "/sets/0/inputs/flags", H5P_DEFAULT);
    uint8_t bytes[2] = {16, 0};
    bool ok = H5Dwrite(d, H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes) >= 0;
    H5Dclose(d);
    return ok && SetStringAttr(f, "/sets/0/inputs/flags", "onnx_dtype", "FLOAT4E2M1");
  });
  ExpectError(st, StatusCode::kDataLoss,
              {"FLOAT4E2M1 element 0 is code 16, expected a 4-bit code"});
}

// h5py writes numpy bools as an 8-bit enum; such a dataset reads as BOOL. (The golden is made a
// format-1 one, as the h5py recipe of golden/README.md writes: no checksums.)
TEST(GoldenReadErrorsTest, AcceptsH5pyBoolEnum) {
  TempDir dir;
  std::string path = dir.File("e.h5");
  Status st = ReadAfterEdit(path, [](hid_t f) {
    for (const char* obj : {"/sets/0/inputs/A", "/sets/0/outputs/Y"}) DeleteAttr(f, obj, "sha256");
    DeleteAttr(f, "/", "content_sha256");
    SetInt64Attr(f, "/", "format_version", 1);
    H5Ldelete(f, "/sets/0/inputs/flags", H5P_DEFAULT);
    hid_t type = H5Tenum_create(H5T_NATIVE_INT8);
    int8_t no = 0, yes = 1;
    H5Tenum_insert(type, "FALSE", &no);
    H5Tenum_insert(type, "TRUE", &yes);
    hsize_t n = 3;
    hid_t space = H5Screate_simple(1, &n, nullptr);
    hid_t d =
        H5Dcreate2(f, "/sets/0/inputs/flags", type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int8_t values[3] = {1, 0, 1};
    bool ok = H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) >= 0;
    H5Dclose(d);
    H5Sclose(space);
    H5Tclose(type);
    return ok && SetStringAttr(f, "/sets/0/inputs/flags", "name", "flags") &&
           SetInt64Attr(f, "/sets/0/inputs/flags", "index", 1) &&
           SetStringAttr(f, "/sets/0/inputs/flags", "onnx_dtype", "BOOL") &&
           SetStringAttr(f, "/sets/0/inputs/flags", "kind", "tensor");
  });
  ASSERT_TRUE(st.ok()) << st.ToString();
  StatusOr<GoldenFile> g = ReadGolden(path);
  ASSERT_TRUE(g.ok());
  const Tensor& t = g->sets[0].inputs[1].value.tensor();
  ASSERT_EQ(t.dtype(), DataType::kBool);
  ASSERT_EQ(t.NumElements(), 3);
  EXPECT_TRUE(t.data<bool>()[0]);
  EXPECT_FALSE(t.data<bool>()[1]);
  EXPECT_TRUE(t.data<bool>()[2]);
}

TEST(GoldenWriteErrorsTest, RefusesWhatTheFormatCannotHold) {
  TempDir dir;
  std::string path = dir.File("w.h5");
  auto expect_refused = [&](GoldenFile g, const std::string& fragment) {
    Status st = WriteGolden(path, g);
    ExpectError(st, StatusCode::kInvalidArgument, {path, fragment});
    EXPECT_FALSE(fs::exists(path));
  };
  GoldenFile g = SmallGolden();
  g.producer.clear();
  expect_refused(g, "producer");
  g = SmallGolden();
  g.model_sha256 = "abc";
  expect_refused(g, "model_sha256");
  g = SmallGolden();
  g.created = "yesterday";
  expect_refused(g, "created");
  g = SmallGolden();
  g.sets[0].inputs[0].rtol = 0.1;
  expect_refused(g, "outputs only");
  g = SmallGolden();
  g.sets[0].outputs[0].atol = -1;
  expect_refused(g, "atol");
  g = SmallGolden();
  g.sets[0].inputs[1].name = "A";
  expect_refused(g, "twice");
  g = SmallGolden();
  g.sets[0].inputs[1].name = "";
  expect_refused(g, "non-empty name");
  g = SmallGolden();
  g.sets[0].inputs[1].value = Value();
  expect_refused(g, "/sets/0/inputs/flags");
  g = SmallGolden();
  g.sets[0].outputs[0].value = Value::FromSequence(DataType::kInt64, {Tensor::Scalar<float>(1.f)});
  expect_refused(g, "/sets/0/outputs/Y/0");
}

TEST(GoldenWriteErrorsTest, FailedWriteLeavesNoFileAndKeepsTheOldOne) {
  TempDir dir;
  std::string path = dir.File("atomic.h5");
  GoldenFile bad = SmallGolden();
  // The NUL is found only after the file, its root attributes and the first values exist.
  bad.sets[0].outputs.push_back(
      {"Z",
       1,
       Value::FromTensor(Tensor::FromVector<std::string>({1}, {std::string("a\0b", 3)})),
       {},
       {}});
  Status st = WriteGolden(path, bad);
  ExpectError(st, StatusCode::kInvalidArgument, {path + ": /sets/0/outputs/Z: ", "NUL"});
  EXPECT_TRUE(fs::is_empty(dir.path())) << "a failed write left files behind";

  ASSERT_TRUE(WriteGolden(path, SmallGolden()).ok());
  std::string before = testing_util::FileBytes(path);
  EXPECT_FALSE(WriteGolden(path, bad).ok());
  EXPECT_EQ(testing_util::FileBytes(path), before);
  EXPECT_TRUE(ReadGolden(path).ok());
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir.path())) files += entry.is_regular_file();
  EXPECT_EQ(files, 1u);
}

// A write that fails because the disk is full (simulated with RLIMIT_FSIZE, SIGXFSZ ignored, so
// write() fails with EFBIG as it would with ENOSPC) is an error naming the file, and the process
// then exits normally: libhdf5's own exit handler used to crash on the half-closed file. The
// writer runs in a fresh process (this test binary again), where nothing has initialized
// libhdf5 before the golden code does.
constexpr char kFullDiskChild[] = "ONNXGATE_FULL_DISK_CHILD";

TEST(GoldenWriteErrorsTest, AFullDiskIsAnErrorAndTheProcessExitsCleanly) {
  if (const char* target = std::getenv(kFullDiskChild)) {
    rlimit small{4096, 4096};
    setrlimit(RLIMIT_FSIZE, &small);
    std::signal(SIGXFSZ, SIG_IGN);
    GoldenFile big = SmallGolden();
    big.sets[0].outputs.push_back(
        {"Big", 1, Value::FromTensor(Tensor(DataType::kFloat, Shape({4096}))), {}, {}});
    Status st = WriteGolden(target, big);
    std::fprintf(stderr, "%s\n", st.ToString().c_str());
    std::exit(st.ok() ? 3 : 0);  // std::exit runs the exit handlers, libhdf5's included
  }
  TempDir dir;
  const std::string target = dir.File("full.h5");
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    setenv(kFullDiskChild, target.c_str(), 1);
    const std::string filter =
        "--gtest_filter=GoldenWriteErrorsTest.AFullDiskIsAnErrorAndTheProcessExitsCleanly";
    execl("/proc/self/exe", "golden_test", filter.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "the writer died of signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the write should fail (3: it succeeded)";
  EXPECT_FALSE(fs::exists(target));
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    ADD_FAILURE() << "left behind: " << entry.path();
  }
}

}  // namespace
}  // namespace onnxgate
