// Tests that a test case folder cannot make the loader or the importer read outside it: a linked
// case folder, model.onnx, data-set folder or .pb file, a hard link, a FIFO, an oversized file, and
// a data-set or external-data folder swapped for a link while cases load. Each test keeps a secret
// case, model or value outside the case folder and checks that it is never what comes back.
#include "golden/onnx_test_case.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "golden/golden_test_util.h"
#include "golden/importer.h"
#include "runtime/proto/tensor_proto.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using testing_util::TempDir;
using testing_util::ValueDifference;

void WriteBytes(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
}

void WriteTensor(const fs::path& path, const Tensor& t) {
  WriteBytes(path, TensorToProto(t, "").SerializeAsString());
}

// y = x + w, FLOAT[2]; w in external data at `location` unless it is empty.
std::string AddModel(const std::string& location) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  auto* opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(14);
  onnx::GraphProto* g = model.mutable_graph();
  g->set_name("add");
  for (const char* name : {"x", "y"}) {
    onnx::ValueInfoProto* info = name[0] == 'x' ? g->add_input() : g->add_output();
    info->set_name(name);
    info->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  }
  onnx::NodeProto* node = g->add_node();
  node->set_op_type("Add");
  node->add_input("x");
  node->add_input("w");
  node->add_output("y");
  if (!location.empty()) {
    onnx::TensorProto* w = g->add_initializer();
    w->set_name("w");
    w->set_data_type(onnx::TensorProto::FLOAT);
    w->add_dims(2);
    w->set_data_location(onnx::TensorProto::EXTERNAL);
    auto* entry = w->add_external_data();
    entry->set_key("location");
    entry->set_value(location);
  }
  return model.SerializeAsString();
}

const Tensor kX = Tensor::FromVector<float>({2}, {1.f, 2.f});
const Tensor kInside = Tensor::FromVector<float>({2}, {11.f, 22.f});
const Tensor kSecret = Tensor::FromVector<float>({2}, {-666.f, -777.f});
const std::string kInsideWeights(8, '\x01');
const std::string kSecretWeights(8, '\x7f');

class OnnxTestCaseFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    src_ = fs::path(src_dir_.path()) / "src";
    outside_ = fs::path(src_dir_.path()) / "outside";
    // A whole secret case outside the source folder, and its parts.
    WriteBytes(outside_ / "test_secret/model.onnx", AddModel("data/w.bin"));
    WriteBytes(outside_ / "test_secret/data/w.bin", kSecretWeights);
    WriteTensor(outside_ / "test_secret/test_data_set_0/input_0.pb", kX);
    WriteTensor(outside_ / "test_secret/test_data_set_0/output_0.pb", kSecret);
  }

  // A good case with external data in data/w.bin.
  fs::path GoodCase(const std::string& name) {
    fs::path c = src_ / name;
    WriteBytes(c / "model.onnx", AddModel("data/w.bin"));
    WriteBytes(c / "data/w.bin", kInsideWeights);
    WriteTensor(c / "test_data_set_0/input_0.pb", kX);
    WriteTensor(c / "test_data_set_0/output_0.pb", kInside);
    return c;
  }

  // Loads `dir`, checks that it failed, and returns the message.
  std::string Refused(const fs::path& dir) {
    StatusOr<OnnxTestCase> c = LoadOnnxTestCase(dir.string());
    EXPECT_FALSE(c.ok()) << dir << " loaded";
    return c.status().message();
  }

  TempDir src_dir_;
  fs::path src_, outside_;
  fs::path secret_case() const { return outside_ / "test_secret"; }
};

TEST_F(OnnxTestCaseFilesTest, LoadsAGoodCaseWithItsExternalData) {
  fs::path c = GoodCase("test_good");
  StatusOr<OnnxTestCase> loaded = LoadOnnxTestCase(c.string());
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->name, "test_good");
  ASSERT_EQ(loaded->external_data.size(), 1u);
  EXPECT_EQ(loaded->external_data[0].location, "data/w.bin");
  EXPECT_EQ(loaded->external_data[0].bytes, kInsideWeights);
  EXPECT_EQ(ValueDifference(Value::FromTensor(kInside), loaded->sets.at(0).outputs.at(0).value),
            "");
}

TEST_F(OnnxTestCaseFilesTest, RefusesLinkedCaseFolderModelDataSetAndValueFiles) {
  fs::create_directories(src_);
  fs::create_directory_symlink(secret_case(), src_ / "test_linked_case");
  EXPECT_EQ(Refused(src_ / "test_linked_case"),
            "'" + (src_ / "test_linked_case").string() +
                "': is a symbolic link; it must be a real folder, as a link may lead anywhere");

  fs::path model = GoodCase("test_linked_model");
  fs::remove(model / "model.onnx");
  fs::create_symlink(secret_case() / "model.onnx", model / "model.onnx");
  EXPECT_EQ(Refused(model), "'model.onnx' in '" + model.string() +
                                "': is a symbolic link; a link may lead outside that folder");

  fs::path set = GoodCase("test_linked_set");
  fs::remove_all(set / "test_data_set_0");
  fs::create_directory_symlink(secret_case() / "test_data_set_0", set / "test_data_set_0");
  EXPECT_EQ(Refused(set), (set / "test_data_set_0").string() +
                              ": is a symbolic link; a data-set folder must be a real folder, as a "
                              "link may lead anywhere");

  fs::path pb = GoodCase("test_linked_pb");
  fs::remove(pb / "test_data_set_0/output_0.pb");
  fs::create_symlink(secret_case() / "test_data_set_0/output_0.pb",
                     pb / "test_data_set_0/output_0.pb");
  EXPECT_EQ(Refused(pb), "'output_0.pb' in '" + (pb / "test_data_set_0").string() +
                             "': is a symbolic link; a link may lead outside that folder");

  fs::path ext = GoodCase("test_linked_data");
  fs::remove_all(ext / "data");
  fs::create_directory_symlink(secret_case() / "data", ext / "data");
  EXPECT_NE(Refused(ext).find("'data' is a symbolic link"), std::string::npos);
}

TEST_F(OnnxTestCaseFilesTest, RefusesHardLinks) {
  fs::path pb = GoodCase("test_hard_pb");
  fs::remove(pb / "test_data_set_0/output_0.pb");
  fs::create_hard_link(secret_case() / "test_data_set_0/output_0.pb",
                       pb / "test_data_set_0/output_0.pb");
  EXPECT_NE(Refused(pb).find("'output_0.pb' in '" + (pb / "test_data_set_0").string() +
                             "': is a hard link (2 names)"),
            std::string::npos);

  fs::path ext = GoodCase("test_hard_data");
  fs::remove(ext / "data/w.bin");
  fs::create_hard_link(secret_case() / "data/w.bin", ext / "data/w.bin");
  std::string message = Refused(ext);
  EXPECT_NE(message.find("external data 'data/w.bin' of tensor 'w' in '" + ext.string() +
                         "': is a hard link (2 names)"),
            std::string::npos)
      << message;
}

TEST_F(OnnxTestCaseFilesTest, RefusesFifosWithoutBlocking) {
  fs::path pb = GoodCase("test_fifo_pb");
  fs::remove(pb / "test_data_set_0/input_0.pb");
  ASSERT_EQ(mkfifo((pb / "test_data_set_0/input_0.pb").c_str(), 0600), 0);
  fs::path model = GoodCase("test_fifo_model");
  fs::remove(model / "model.onnx");
  ASSERT_EQ(mkfifo((model / "model.onnx").c_str(), 0600), 0);
  auto start = std::chrono::steady_clock::now();
  EXPECT_NE(Refused(pb).find("'input_0.pb' in '" + (pb / "test_data_set_0").string() +
                             "': is a FIFO, not a regular file"),
            std::string::npos);
  EXPECT_NE(Refused(model).find("'model.onnx' in '" + model.string() + "': is a FIFO"),
            std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST_F(OnnxTestCaseFilesTest, RefusesOversizedFilesBeforeReading) {
  auto sparse = [](const fs::path& path, off_t size) {
    fs::remove(path);
    int fd = open(path.c_str(), O_CREAT | O_WRONLY, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(ftruncate(fd, size), 0);
    close(fd);
  };
  fs::path model = GoodCase("test_big_model");
  sparse(model / "model.onnx", off_t{3} << 30);
  EXPECT_NE(Refused(model).find("'model.onnx' in '" + model.string() +
                                "': is 3221225472 bytes, more than the limit of 2147483647"),
            std::string::npos);

  // External data longer than FLOAT[2]: refused by the declared size.
  fs::path ext = GoodCase("test_big_data");
  sparse(ext / "data/w.bin", off_t{8} << 30);
  EXPECT_NE(
      Refused(ext).find("external data 'data/w.bin' has 8589934592 bytes but FLOAT[2] needs 8"),
      std::string::npos);
}

// The importer skips each bad case, naming what is wrong, and copies nothing of the secret case.
TEST_F(OnnxTestCaseFilesTest, ImporterSkipsLinkedCasesAndWritesNoSecret) {
  GoodCase("test_good");
  fs::create_directory_symlink(secret_case(), src_ / "test_linked_case");
  fs::path ext = GoodCase("test_linked_data");
  fs::remove_all(ext / "data");
  fs::create_directory_symlink(secret_case() / "data", ext / "data");
  TempDir root;
  ImportOptions o;
  o.source_dir = src_.string();
  o.suite_name = "unit";
  o.repo_root = root.path();
  o.producer = "hand-made";
  o.created = "2026-11-21T03:00:00Z";
  StatusOr<ImportReport> report = ImportOnnxTests(o);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->imported, std::vector<std::string>{"test_good"});
  ASSERT_EQ(report->skipped.size(), 2u);
  EXPECT_EQ(report->skipped[0].name, "test_linked_case");
  EXPECT_NE(report->skipped[0].reason.find("test_linked_case': is a symbolic link"),
            std::string::npos)
      << report->skipped[0].reason;
  EXPECT_EQ(report->skipped[1].name, "test_linked_data");
  EXPECT_NE(report->skipped[1].reason.find("'data' is a symbolic link"), std::string::npos)
      << report->skipped[1].reason;
  for (const auto& entry : fs::recursive_directory_iterator(root.path())) {
    if (!entry.is_regular_file()) continue;
    std::string bytes = testing_util::FileBytes(entry.path().string());
    EXPECT_EQ(bytes.find(kSecretWeights), std::string::npos) << entry.path();
  }
  EXPECT_EQ(testing_util::FileBytes(root.File("suites/unit/models/test_good/data/w.bin")),
            kInsideWeights);
}

// A thread keeps swapping the case's test_data_set_0 (and, in the second round, its data/ folder
// of external data) between a real folder and a link to the secret case's, while the main thread
// loads the case 400 times. Each load gives the inside values or fails cleanly; never the secret.
TEST_F(OnnxTestCaseFilesTest, SwappingFoldersForLinksNeverLoadsTheSecret) {
  fs::path c = GoodCase("test_race");
  for (const char* swapped : {"test_data_set_0", "data"}) {
    const fs::path name = c / swapped;
    const fs::path real_hold = c / "real_hold";
    const fs::path link_hold = c / "link_hold";
    fs::create_directory_symlink(secret_case() / swapped, link_hold);
    std::atomic<bool> stop{false};
    std::thread swapper([&] {
      while (!stop.load()) {
        if (rename(name.c_str(), real_hold.c_str()) != 0) break;
        if (rename(link_hold.c_str(), name.c_str()) != 0) break;
        if (rename(name.c_str(), link_hold.c_str()) != 0) break;
        if (rename(real_hold.c_str(), name.c_str()) != 0) break;
      }
    });
    for (int i = 0; i < 400; ++i) {
      StatusOr<OnnxTestCase> loaded = LoadOnnxTestCase(c.string());
      if (!loaded.ok()) continue;
      ASSERT_EQ(loaded->external_data.size(), 1u);
      ASSERT_EQ(loaded->external_data[0].bytes, kInsideWeights) << swapped << ", attempt " << i;
      ASSERT_EQ(ValueDifference(Value::FromTensor(kInside), loaded->sets.at(0).outputs.at(0).value),
                "")
          << swapped << ", attempt " << i;
    }
    stop = true;
    swapper.join();
    // Put the real folder back for the next round.
    if (fs::is_symlink(name)) fs::rename(name, link_hold);
    if (fs::exists(real_hold)) fs::rename(real_hold, name);
    fs::remove(link_hold);
    ASSERT_TRUE(LoadOnnxTestCase(c.string()).ok());
  }
}

}  // namespace
}  // namespace onnxgate
