// `onnxgate record` over a dataset: several input sets (.npz files, folders of .pb files, an
// --inputs-dir) as the data sets of one case; expected outputs computed elsewhere as the golden,
// checked against the model, with the runtime's distance from them reported; warnings for integer
// inputs generated without a range; and every bad dataset refused naming the file, the set and
// the output, with nothing written.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <zip.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>
#include <set>

#include "golden/golden_file.h"
#include "harness/harness_test_util.h"
#include "harness/models/recorder.h"
#include "harness/run_command.h"
#include "reports/json_writer.h"
#include "runtime/base/atomic_file.h"
#include "runtime/builtin/builtin_runtime.h"
#include "runtime/ep/testing/test_providers.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;

constexpr char kBatchRelu[] = R"(<ir_version: 8, opset_import: ["" : 17]>
batch_relu (float[batch, 3] X) => (float[batch, 3] Y) {
  Y = Relu(X)
})";

constexpr char kTokenModel[] = R"(<ir_version: 8, opset_import: ["" : 17]>
tokens (int64[seq] ids, float[seq] scale) => (int64[seq] out, float[seq] s) {
  out = Identity(ids)
  s = Identity(scale)
})";

// A .npy file: magic, version 1.0, the header dict, the data.
std::string Npy(const std::string& descr, const std::vector<int64_t>& dims,
                const std::string& data) {
  std::string shape = "(";
  for (int64_t d : dims) shape += std::to_string(d) + ",";
  std::string header =
      "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + "), }\n";
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size());
  out += '\x00';
  return out + header + data;
}

std::string FloatNpy(const std::vector<int64_t>& dims, const std::vector<float>& values) {
  std::string data(values.size() * sizeof(float), '\0');
  std::memcpy(data.data(), values.data(), data.size());
  return Npy("<f4", dims, data);
}

// Writes a zip of "<name>.npy" members, as numpy.savez does.
void WriteNpz(const std::string& path,
              const std::vector<std::pair<std::string, std::string>>& arrays) {
  fs::create_directories(fs::path(path).parent_path());
  int error = 0;
  zip_t* zip = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  ASSERT_NE(zip, nullptr);
  for (const auto& [member, bytes] : arrays) {
    if (member.empty()) continue;  // numpy.savez() of nothing: an archive without members
    void* copy = std::malloc(bytes.size());
    std::memcpy(copy, bytes.data(), bytes.size());
    const std::string name = member.find('.') == std::string::npos ? member + ".npy" : member;
    ASSERT_GE(zip_file_add(zip, name.c_str(), zip_source_buffer(zip, copy, bytes.size(), 1), 0), 0);
  }
  ASSERT_EQ(zip_close(zip), 0);
  if (!fs::exists(path)) {  // libzip writes no file for an empty archive; numpy does
    ASSERT_TRUE(
        WriteFileAtomically(path, std::string("PK\x05\x06", 4) + std::string(18, '\0')).ok());
  }
}

// `batch` rows of 3 values, negative and positive, different per `seed`.
std::vector<float> Rows(int64_t batch, int seed) {
  std::vector<float> x;
  for (int64_t i = 0; i < batch * 3; ++i) x.push_back(0.25f * static_cast<float>(i + seed) - 1.0f);
  return x;
}

std::vector<float> Relu(std::vector<float> x, float shift = 0) {
  for (float& v : x) v = std::max(v, 0.0f) + shift;
  return x;
}

class RecordDatasetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = TestRootFor("record_dataset");
    in_ = root_ + "/in";
    fs::create_directories(in_);
    model_path_ = in_ + "/batch_relu.onnxtxt";
    ASSERT_TRUE(WriteFileAtomically(model_path_, kBatchRelu).ok());
    auto runtime = CreateRuntimeWithTestProviders();
    ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
    runtime_ = std::move(runtime).value();
  }
  void TearDown() override { fs::remove_all(root_); }

  RecordOptions Options() const {
    RecordOptions o;
    o.model_path = model_path_;
    o.suite_name = "mine";
    o.repo_root = root_;
    o.runtime_spec = "builtin";
    o.load.providers = {"ref"};
    return o;
  }
  // An input set X of `batch` rows and, in `expected_dir`, its expected outputs Y (Relu, shifted
  // by `shift`); both named `name`.npz.
  void WriteSet(const std::string& name, int64_t batch, int seed, float shift = 0,
                const std::string& expected_dir = "expected") {
    WriteNpz(in_ + "/sets/" + name + ".npz", {{"X", FloatNpy({batch, 3}, Rows(batch, seed))}});
    WriteNpz(in_ + "/" + expected_dir + "/" + name + ".npz",
             {{"Y", FloatNpy({batch, 3}, Relu(Rows(batch, seed), shift))}});
  }
  // A framework record of the sets a (batch 1), b (batch 2), c (batch 3), paired by order.
  RecordOptions FrameworkOptions() {
    RecordOptions o = Options();
    for (const auto& [name, batch] :
         {std::pair<std::string, int64_t>{"a", 1}, {"b", 2}, {"c", 3}}) {
      WriteSet(name, batch, static_cast<int>(batch));
      o.input_files.push_back(in_ + "/sets/" + name + ".npz");
      o.expected_files.push_back(in_ + "/expected/" + name + ".npz");
    }
    o.producer = "numpy 2.4";
    return o;
  }
  bool NothingWritten() const {
    return !fs::exists(root_ + "/suites") && !fs::exists(root_ + "/golden");
  }
  // `onnxgate run --suite mine` on the built-in runtime's ref: every case passes.
  void ExpectTheSuitePasses() const {
    std::unique_ptr<RuntimeUnderTest> builtin = CreateBuiltinRuntime();
    RunCommandOptions run;
    run.root = root_;
    run.suites = {"mine"};
    run.json_path = root_ + "/out/run.json";
    EXPECT_EQ(RunCommand(run, *builtin), 0);
  }

  std::string root_;
  std::string in_;
  std::string model_path_;
  std::unique_ptr<RuntimeUnderTest> runtime_;
};

TEST_F(RecordDatasetTest, EveryInputSetIsADataSetOfOneCase) {
  RecordOptions o = Options();
  WriteSet("a", 1, 1);
  WriteSet("b", 4, 2);
  o.input_files = {in_ + "/sets/a.npz", in_ + "/sets/b.npz"};
  // A folder of ONNX test data: input_0.pb is read, output_0.pb is not.
  onnx::TensorProto x;
  x.set_name("X");
  x.set_data_type(onnx::TensorProto::FLOAT);
  x.add_dims(2);
  x.add_dims(3);
  for (float v : Rows(2, 3)) x.add_float_data(v);
  fs::create_directories(in_ + "/pb_set");
  ASSERT_TRUE(WriteFileAtomically(in_ + "/pb_set/input_0.pb", x.SerializeAsString()).ok());
  ASSERT_TRUE(WriteFileAtomically(in_ + "/pb_set/output_0.pb", "not read").ok());
  o.input_files.push_back(in_ + "/pb_set");
  auto report = RecordCase(*runtime_, o);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->data_sets, 3);
  EXPECT_TRUE(report->warnings.empty());
  ASSERT_EQ(report->set_labels.size(), 3u);
  EXPECT_NE(report->set_labels[2].find("data set 2 ("), std::string::npos);
  auto golden = ReadGolden(report->golden_path);
  ASSERT_TRUE(golden.ok()) << golden.status().ToString();
  ASSERT_EQ(golden->sets.size(), 3u);
  EXPECT_EQ(golden->sets[1].inputs[0].value.tensor().shape(), Shape({4, 3}));
  EXPECT_EQ(golden->sets[2].inputs[0].value.tensor().shape(), Shape({2, 3}));
  EXPECT_EQ(golden->sets[2].outputs[0].value.tensor().data<float>()[5], Relu(Rows(2, 3))[5]);
  EXPECT_NE(golden->source.find("a.npz b.npz input_0.pb"), std::string::npos) << golden->source;
  EXPECT_EQ(fs::directory_iterator(root_ + "/suites/mine/models")->path().filename(),
            "batch_relu.onnxtxt");  // one model copy
  ExpectTheSuitePasses();
}

TEST_F(RecordDatasetTest, AnInputsDirGivesItsSetsInNameOrder) {
  WriteSet("set_10", 3, 1);
  WriteSet("set_2", 2, 2);
  WriteSet("set_1", 1, 3);
  RecordOptions o = Options();
  o.inputs_dir = in_ + "/sets";
  o.expected_dir = in_ + "/expected";
  o.producer = "numpy 2.4";
  auto report = RecordCase(*runtime_, o);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  auto golden = ReadGolden(report->golden_path);
  ASSERT_TRUE(golden.ok()) << golden.status().ToString();
  ASSERT_EQ(golden->sets.size(), 3u);
  for (size_t s = 0; s < 3; ++s) {
    EXPECT_EQ(golden->sets[s].inputs[0].value.tensor().shape(),
              Shape({static_cast<int64_t>(s + 1), 3}))
        << s;  // set_1, set_2, set_10: paired by name with expected/set_*.npz
  }
  EXPECT_FALSE(report->runtime_outside_tolerance);
}

TEST_F(RecordDatasetTest, ExpectedOutputsBecomeTheGoldenWithTheRuntimesDistanceReported) {
  RecordOptions o = FrameworkOptions();
  WriteSet("b", 2, 2, 1e-9f);  // a framework off by a rounding error
  o.created = "2026-11-29T00:00:00Z";
  auto report = RecordCase(*runtime_, o);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_TRUE(report->written);
  EXPECT_EQ(report->producer, "numpy 2.4");
  EXPECT_NE(report->checked_on.find("EP ref"), std::string::npos) << report->checked_on;
  ASSERT_EQ(report->runtime_distance.size(), 3u);  // one output in each of three sets
  EXPECT_FALSE(report->runtime_outside_tolerance);
  EXPECT_EQ(report->tolerance.rtol, Tolerance::kDefaultRtol);
  const std::vector<std::string> lines = DescribeRuntimeDistance(*report);
  EXPECT_NE(lines[1].find("data set 1 ("), std::string::npos) << lines[1];
  EXPECT_NE(lines[1].find("output 'Y': max abs"), std::string::npos) << lines[1];
  EXPECT_NE(lines[1].find("(within tolerance)"), std::string::npos) << lines[1];

  auto golden = ReadGolden(report->golden_path);
  ASSERT_TRUE(golden.ok()) << golden.status().ToString();
  EXPECT_EQ(golden->producer, "numpy 2.4");
  EXPECT_NE(golden->source.find("expected outputs computed by numpy 2.4 from a.npz b.npz c.npz"),
            std::string::npos)
      << golden->source;
  EXPECT_NE(golden->source.find("checked on onnxgate"), std::string::npos) << golden->source;
  ASSERT_EQ(golden->sets.size(), 3u);
  // The framework's values, not the runtime's.
  EXPECT_EQ(golden->sets[1].outputs[0].value.tensor().data<float>()[5], Relu(Rows(2, 2), 1e-9f)[5]);
  ExpectTheSuitePasses();
}

TEST_F(RecordDatasetTest, ARuntimeFarFromTheFrameworkIsReportedAndTheGoldenStillWritten) {
  RecordOptions o = FrameworkOptions();
  WriteSet("c", 3, 3, 0.5f);
  o.atol = 1e-5;
  auto report = RecordCase(*runtime_, o);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_TRUE(report->written);
  EXPECT_TRUE(report->runtime_outside_tolerance);
  EXPECT_EQ(report->tolerance.atol, 1e-5);
  EXPECT_TRUE(report->runtime_distance[0].comparison.passed);
  EXPECT_FALSE(report->runtime_distance[2].comparison.passed);
  EXPECT_NE(DescribeRuntimeDistance(*report)[2].find("max abs 0.5"), std::string::npos)
      << DescribeRuntimeDistance(*report)[2];
}

TEST_F(RecordDatasetTest, BadExpectedOutputsAreRefusedNamingFileSetAndOutput) {
  struct Bad {
    std::vector<std::pair<std::string, std::string>> arrays;  // b's expected outputs
    std::string says;
  };
  const std::string y = FloatNpy({2, 3}, Relu(Rows(2, 2)));
  const std::vector<Bad> bads = {
      {{{"Y", y}, {"Z", y}}, "array 'Z' is not an output of the model"},
      {{{"Z", y}}, "array 'Z' is not an output of the model"},
      {{{"", ""}}, "output 'Y' is missing"},
      {{{"Y", Npy("<f8", {2, 3}, std::string(48, '\0'))}},
       "output 'Y' is double, the model declares float"},
      {{{"Y", FloatNpy({6}, Relu(Rows(2, 2)))}},
       "output 'Y' has shape [6], the model declares rank 2"},
      {{{"Y", FloatNpy({3, 2}, Relu(Rows(2, 2)))}}, "dimension 1 is 2, the model fixes it at 3"},
      {{{"Y", FloatNpy({3, 3}, Relu(Rows(3, 2)))}},
       "dimension 0 ('batch') is 3, the set's input 'X' gives 'batch' the size 2"},
      {{{"Y", Npy("|O", {1}, "x")}}, "pickled Python objects"},
      {{{"Y", y}, {"notes.txt", "hello"}}, "only .npy members"},
  };
  for (const Bad& bad : bads) {
    RecordOptions o = FrameworkOptions();
    WriteNpz(in_ + "/expected/b.npz", bad.arrays);
    auto report = RecordCase(*runtime_, o);
    ASSERT_FALSE(report.ok()) << bad.says;
    const std::string& message = report.status().message();
    EXPECT_NE(message.find(bad.says), std::string::npos) << message;
    EXPECT_NE(message.find("expected/b.npz"), std::string::npos) << message;
    EXPECT_NE(message.find("expected outputs of data set 1 ("), std::string::npos) << message;
    EXPECT_TRUE(NothingWritten()) << bad.says;
  }
}

TEST_F(RecordDatasetTest, BadDatasetsAndOptionsAreRefusedWritingNothing) {
  struct Bad {
    std::function<void(RecordOptions&)> make;
    std::string says;
  };
  const std::vector<Bad> bads = {
      {[&](RecordOptions&) {
         WriteNpz(in_ + "/sets/b.npz", {{"Z", FloatNpy({2, 3}, Rows(2, 2))}});
       },
       "gives the inputs Z, data set 0 ("},
      {[&](RecordOptions&) {
         WriteNpz(in_ + "/sets/c.npz", {{"X", Npy("|O", {1}, "x")}});
       },
       "c.npz array 'X.npy': holds pickled Python objects"},
      {[&](RecordOptions&) {
         WriteNpz(in_ + "/sets/c.npz", {{"X", FloatNpy({1, 3}, Rows(1, 1))}, {"a.txt", "x"}});
       },
       "c.npz array 'a.txt': an .npz holds only .npy members"},
      {[&](RecordOptions& o) { o.expected_files.pop_back(); },
       "2 --expected file(s) for 3 data set(s)"},
      {[&](RecordOptions& o) { o.producer.clear(); }, "need --producer"},
      {[&](RecordOptions& o) { o.layerwise = true; }, "--layerwise"},
      {[&](RecordOptions& o) { o.expected_dir = in_ + "/expected"; }, "not both"},
      {[&](RecordOptions& o) {
         o.input_ranges = {{"X", {0, 4}}};
       },
       "--input-range X"},
      {[&](RecordOptions& o) {
         o.expected_files.clear();
         o.expected_dir = in_ + "/expected";
         WriteNpz(in_ + "/expected/d.npz", {{"Y", FloatNpy({1, 3}, Rows(1, 1))}});
       },
       "d.npz: expected outputs for no data set"},
      {[&](RecordOptions& o) {
         o.expected_files.clear();
         o.expected_dir = in_ + "/expected";
         fs::remove(in_ + "/expected/c.npz");
       },
       "data set 2 ("},
      {[&](RecordOptions& o) {
         o.input_files.push_back(in_ + "/notes.txt");
         o.expected_files.push_back(in_ + "/expected/a.npz");
       },
       "notes.txt: a data set is a NumPy .npz or a folder of TensorProto .pb files"},
      {[&](RecordOptions& o) { o.input_files.push_back(in_ + "/x.pb"); }, "x.pb: .pb files given"},
  };
  for (const Bad& bad : bads) {
    RecordOptions o = FrameworkOptions();
    bad.make(o);
    auto report = RecordCase(*runtime_, o);
    ASSERT_FALSE(report.ok()) << bad.says;
    EXPECT_NE(report.status().message().find(bad.says), std::string::npos)
        << report.status().message();
    EXPECT_TRUE(NothingWritten()) << bad.says;
    fs::remove_all(in_ + "/expected");
  }
}

TEST_F(RecordDatasetTest, IntegerInputsWithoutARangeAreAWarningNamingThem) {
  ASSERT_TRUE(WriteFileAtomically(in_ + "/tokens.onnxtxt", kTokenModel).ok());
  RecordOptions o = Options();
  o.model_path = in_ + "/tokens.onnxtxt";
  o.dims = {{"seq", {16}}};
  auto warned = RecordCase(*runtime_, o);
  ASSERT_TRUE(warned.ok()) << warned.status().ToString();
  ASSERT_EQ(warned->warnings.size(), 1u);
  EXPECT_NE(warned->warnings[0].find("integer input 'ids' (INT64) has no known range"),
            std::string::npos)
      << warned->warnings[0];
  EXPECT_NE(warned->warnings[0].find("--input-range ids=LO:HI"), std::string::npos);

  o.input_ranges = {{"ids", {5, 9}}};
  o.force = true;
  auto ranged = RecordCase(*runtime_, o);
  ASSERT_TRUE(ranged.ok()) << ranged.status().ToString();
  EXPECT_TRUE(ranged->warnings.empty());
  auto golden = ReadGolden(ranged->golden_path);
  ASSERT_TRUE(golden.ok()) << golden.status().ToString();
  const Tensor& ids = golden->sets[0].inputs[0].value.tensor();
  std::set<int64_t> seen(ids.data<int64_t>(), ids.data<int64_t>() + ids.NumElements());
  EXPECT_GE(*seen.begin(), 5);
  EXPECT_LE(*seen.rbegin(), 8);
  EXPECT_GT(seen.size(), 1u);

  // The documented metadata form: no warning either.
  std::string with_metadata = kTokenModel;
  with_metadata.replace(with_metadata.find(">"), 1,
                        R"(, metadata_props: ["onnxgate.input_range.ids": "0 100"]>)");
  ASSERT_TRUE(WriteFileAtomically(in_ + "/tokens.onnxtxt", with_metadata).ok());
  o.input_ranges.clear();
  auto from_metadata = RecordCase(*runtime_, o);
  ASSERT_TRUE(from_metadata.ok()) << from_metadata.status().ToString();
  EXPECT_TRUE(from_metadata->warnings.empty());

  for (const auto& [name, says] :
       {std::pair<std::string, std::string>{"nope", "has no input 'nope' (its inputs: ids, scale)"},
        {"scale", "input 'scale' of"}}) {
    o.input_ranges = {{name, {0, 2}}};
    auto bad = RecordCase(*runtime_, o);
    ASSERT_FALSE(bad.ok()) << name;
    EXPECT_NE(bad.status().message().find(says), std::string::npos) << bad.status().message();
  }
}

}  // namespace
}  // namespace onnxgate
