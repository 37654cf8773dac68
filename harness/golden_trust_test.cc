// The harness on the built-in runtime with goldens that cannot judge a run: each is UNRESOLVED
// with one line naming the golden (or the model) and what is wrong, never the runtime's FAIL or a
// PASS. A corrupted golden ("golden corrupted"), a replaced external weights file ("model
// changed"), a golden that compares nothing, an absurd per-output tolerance, a golden path that
// is a FIFO, and a golden whose output is an external link to another file (whose values never
// reach the report).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <onnx/onnx_pb.h>
#include <sys/stat.h>

#include <cstring>
#include <filesystem>

#include "golden/golden_file.h"
#include "harness/harness_test_util.h"
#include "harness/run_command.h"
#include "reports/json_writer.h"
#include "runtime/base/atomic_file.h"
#include "runtime/builtin/builtin_runtime.h"
#include "runtime/model/model_file.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string FloatBytes(const std::vector<float>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}

// Y = X + W with X, W, Y float[2] and W in the external data file `location`.
std::string AddWeightsModel(const std::string& location) {
  return OneNodeModelBytes("Add", 2, location);
}

class GoldenTrustTest : public ::testing::Test {
 protected:
  void SetUp() override {
    runtime_ = CreateBuiltinRuntime();
    root_ = TestRootFor("golden_trust_test");  // CTest runs this file's tests in parallel
    std::vector<MiniCase> cases = {
        {"relu_ok", "Relu", Floats({-1, 2}), Floats({0, 2})},
        {"corrupted", "Relu", Floats({-3.5f, 1.25f}), Floats({0, 1.25f})},
        {"no_outputs", "Relu", Floats({-1, 2}), Floats({0, 2})},
        {"no_sets", "Relu", Floats({-1, 2}), Floats({0, 2})},
        {"absurd_rtol", "Relu", Floats({-1, 2}), Floats({0, 2})},
        {"fifo_golden", "Relu", Floats({-1, 2}), Floats({0, 2})},
        {"linked_output", "Relu", Floats({-1, 2}), Floats({0, 2})}};
    for (const char* name : {"weights_ok", "weights_replaced", "weights_unvouched"}) {
      MiniCase c{name, "Add", Floats({1, 2}), Floats({1.5f, 2.25f})};
      c.model_bytes = AddWeightsModel(std::string(name) + ".bin");
      c.model_extension = ".onnx";
      cases.push_back(c);
    }
    WriteMiniSuite(root_, cases);
    models_ = fs::path(root_) / "suites" / "mini" / "models";
    goldens_ = fs::path(root_) / "golden" / "data" / "mini";
    for (const char* name : {"weights_ok", "weights_replaced", "weights_unvouched"}) {
      ASSERT_TRUE(WriteFileAtomically((models_ / (std::string(name) + ".bin")).string(),
                                      FloatBytes({0.5f, 0.25f}))
                      .ok());
    }

    // The importer's way: model_files_sha256 over the model and its weights file.
    for (const char* name : {"weights_ok", "weights_replaced"}) {
      Rewrite(name, [&](GoldenFile* g) {
        StatusOr<ModelFile> files =
            ModelFile::Read((models_ / (std::string(name) + ".onnx")).string());
        ASSERT_TRUE(files.ok()) << files.status().ToString();
        g->model_files_sha256 = files->files_sha256();
      });
    }
    // Replaced after the golden was written: the runtime would now compute {5.5, 6.5}.
    ASSERT_TRUE(
        WriteFileAtomically((models_ / "weights_replaced.bin").string(), FloatBytes({4.5f, 4.5f}))
            .ok());

    // A flipped bit in the stored output {0, 1.25}.
    std::string path = Golden("corrupted");
    std::string bytes = *ReadFile(path);
    size_t at = bytes.find(FloatBytes({0, 1.25f}));
    ASSERT_NE(at, std::string::npos);
    ASSERT_EQ(bytes.find(FloatBytes({0, 1.25f}), at + 1), std::string::npos);
    bytes[at + 7] ^= 0x01;
    ASSERT_TRUE(WriteFileAtomically(path, bytes).ok());

    Rewrite("no_outputs", [](GoldenFile* g) { g->sets[0].outputs.clear(); });
    Rewrite("no_sets", [](GoldenFile* g) { g->sets.clear(); });
    Rewrite("absurd_rtol", [](GoldenFile* g) { g->sets[0].outputs[0].rtol = 1e300; });

    fs::remove(Golden("fifo_golden"));
    ASSERT_EQ(mkfifo(Golden("fifo_golden").c_str(), 0600), 0);

    // linked_output's Y becomes an external link to a golden whose Y holds other values.
    GoldenFile secret = *ReadGolden(Golden("relu_ok"));
    secret.sets[0].outputs[0].value = Floats({31337.5f, 4242.25f});
    ASSERT_TRUE(WriteGolden((fs::path(root_) / "secret.h5").string(), secret).ok());
    hid_t f = H5Fopen(Golden("linked_output").c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    EXPECT_GE(H5Ldelete(f, "/sets/0/outputs/Y", H5P_DEFAULT), 0);
    EXPECT_GE(H5Lcreate_external((fs::path(root_) / "secret.h5").c_str(), "/sets/0/outputs/Y", f,
                                 "/sets/0/outputs/Y", H5P_DEFAULT, H5P_DEFAULT),
              0);
    H5Fclose(f);

    options_.root = root_;
    options_.suites = {"mini"};
    options_.jobs = 2;
    options_.timeout_s = 30;
    options_.json_path = root_ + "/out/run.json";
  }

  std::string Golden(const std::string& name) const { return (goldens_ / (name + ".h5")).string(); }

  void Rewrite(const std::string& name, const std::function<void(GoldenFile*)>& edit) {
    StatusOr<GoldenFile> g = ReadGolden(Golden(name));
    ASSERT_TRUE(g.ok()) << g.status().ToString();
    edit(&*g);
    ASSERT_TRUE(WriteGolden(Golden(name), *g).ok());
  }

  CaseRecord Case(const std::string& name) {
    for (const CaseRecord& c : run_.cases) {
      if (c.name == name) return c;
    }
    ADD_FAILURE() << "no case " << name;
    return {};
  }

  void TearDown() override { fs::remove_all(root_); }

  std::unique_ptr<RuntimeUnderTest> runtime_;
  std::string root_;
  fs::path models_, goldens_;
  RunCommandOptions options_;
  RunRecord run_;
};

TEST_F(GoldenTrustTest, GoldensThatCannotJudgeAreUnresolved) {
  EXPECT_EQ(RunCommand(options_, *runtime_), 1);
  auto run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  run_ = *run;
  ASSERT_EQ(run_.cases.size(), 10u);
  EXPECT_EQ(Case("relu_ok").verdict, Verdict::kPass);
  EXPECT_EQ(Case("weights_ok").verdict, Verdict::kPass) << Case("weights_ok").message;

  struct Expect {
    const char* name;
    std::vector<std::string> words;
  };
  for (const Expect& e : std::vector<Expect>{
           {"corrupted", {Golden("corrupted") + ": /sets/0/outputs/Y: golden corrupted"}},
           {"weights_replaced",
            {Golden("weights_replaced") + ": model changed (stale golden)", "model files",
             "weights_replaced.bin"}},
           {"weights_unvouched",
            {Golden("weights_unvouched") + ": has no model_files_sha256", "weights_unvouched.bin",
             "re-import"}},
           {"no_outputs",
            {Golden("no_outputs") + ": /sets/0/outputs is empty: golden compares nothing"}},
           {"no_sets", {Golden("no_sets") + ": golden compares nothing: it has no data sets"}},
           {"absurd_rtol", {Golden("absurd_rtol") + ": output 'Y'", "rtol"}},
           {"fifo_golden", {Golden("fifo_golden") + ": is a FIFO, not a golden file"}},
           {"linked_output",
            {Golden("linked_output") + ": /sets/0/outputs/Y: is an HDF5 external link to '",
             "secret.h5", "a golden must hold its own data"}}}) {
    CaseRecord c = Case(e.name);
    EXPECT_EQ(c.verdict, Verdict::kUnresolved) << e.name << ": " << c.message;
    EXPECT_EQ(c.message.find('\n'), std::string::npos) << e.name << ": one line";
    for (const std::string& w : e.words) EXPECT_THAT(c.message, HasSubstr(w)) << e.name;
  }
  std::string report = *ReadFile(options_.json_path);
  EXPECT_EQ(report.find("31337"), std::string::npos)
      << "the linked file's values reached the report";
  EXPECT_EQ(report.find("4242"), std::string::npos)
      << "the linked file's values reached the report";
}

}  // namespace
}  // namespace onnxgate
