// Tests of the ONNX backend test importer: hand-made cases (external data, bad folders) and real
// cases copied from the ONNX 1.12 node tests (tensors, sequences, optionals, bfloat16).
#include "golden/importer.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "golden/golden_file.h"
#include "golden/golden_test_util.h"
#include "golden/onnx_test_case.h"
#include "golden/sha256.h"
#include "runtime/base/atomic_file.h"
#include "runtime/proto/tensor_proto.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing_util::TempDir;
using testing_util::ValueDifference;

const char kNodeTests[] = ONNXGATE_ONNX_NODE_TESTS_DIR;

void WriteBytes(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
}

void WriteTensor(const fs::path& path, const Tensor& t) {
  WriteBytes(path, TensorToProto(t, "").SerializeAsString());
}

void AddTensorValueInfo(onnx::ValueInfoProto* info, const std::string& name, DataType dtype) {
  info->set_name(name);
  info->mutable_type()->mutable_tensor_type()->set_elem_type(static_cast<int32_t>(dtype));
}

// y = x + w with w an initializer stored in external data at `location`.
std::string AddModel(const std::string& location, DataType dtype = DataType::kFloat) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  auto* opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(14);
  auto* ml = model.add_opset_import();
  ml->set_domain("ai.onnx.ml");
  ml->set_version(3);
  onnx::GraphProto* g = model.mutable_graph();
  g->set_name("add");
  AddTensorValueInfo(g->add_input(), "x", dtype);
  AddTensorValueInfo(g->add_output(), "y", dtype);
  onnx::NodeProto* node = g->add_node();
  node->set_op_type("Add");
  node->add_input("x");
  node->add_input("w");
  node->add_output("y");
  if (!location.empty()) {
    onnx::TensorProto* w = g->add_initializer();
    w->set_name("w");
    w->set_data_type(static_cast<int32_t>(DataType::kFloat));
    w->add_dims(2);
    w->set_data_location(onnx::TensorProto::EXTERNAL);
    auto* entry = w->add_external_data();
    entry->set_key("location");
    entry->set_value(location);
  }
  return model.SerializeAsString();
}

ImportOptions Options(const std::string& source, const std::string& root) {
  ImportOptions o;
  o.source_dir = source;
  o.suite_name = "unit";
  o.repo_root = root;
  o.description = "importer test";
  o.producer = "onnx 1.12.0 backend test data generator";
  o.source = "hand-made";
  o.license = "Apache-2.0";
  o.created = "2026-11-21T03:00:00Z";
  return o;
}

std::string SkipReason(const ImportReport& report, const std::string& name) {
  for (const SkippedCase& s : report.skipped) {
    if (s.name == name) return s.reason;
  }
  return "";
}

TEST(ImporterTest, HandMadeCasesAndBadFolders) {
  TempDir src, root;
  Tensor x = Tensor::FromVector<float>({2}, {1.f, 2.f});
  Tensor y = Tensor::FromVector<float>({2}, {11.f, 22.f});
  fs::path s(src.path());
  // Good, with external data in a subfolder.
  WriteBytes(s / "test_ext/model.onnx", AddModel("data/w.bin"));
  WriteBytes(s / "test_ext/data/w.bin", std::string(8, '\x01'));
  WriteTensor(s / "test_ext/test_data_set_0/input_0.pb", x);
  WriteTensor(s / "test_ext/test_data_set_0/output_0.pb", y);
  WriteTensor(s / "test_ext/test_data_set_1/input_0.pb", y);
  WriteTensor(s / "test_ext/test_data_set_1/output_0.pb", x);
  // Bad ones.
  WriteBytes(s / "test_escape/model.onnx", AddModel("../outside.bin"));
  WriteTensor(s / "test_escape/test_data_set_0/output_0.pb", y);
  WriteTensor(s / "test_no_model/test_data_set_0/output_0.pb", y);
  WriteBytes(s / "test_bad_pb/model.onnx", AddModel(""));
  WriteBytes(s / "test_bad_pb/test_data_set_0/input_0.pb", "\xff\xff\xff garbage");
  WriteTensor(s / "test_bad_pb/test_data_set_0/output_0.pb", y);
  WriteBytes(s / "test_gap/model.onnx", AddModel(""));
  WriteTensor(s / "test_gap/test_data_set_0/input_1.pb", x);
  WriteTensor(s / "test_gap/test_data_set_0/output_0.pb", y);
  WriteBytes(s / "test_no_data/model.onnx", AddModel(""));
  WriteBytes(s / "test_bad_model/model.onnx", "not a model");
  WriteBytes(s / "test_nul/model.onnx", AddModel("", DataType::kString));
  WriteTensor(s / "test_nul/test_data_set_0/output_0.pb",
              Tensor::FromVector<std::string>({1}, {std::string("a\0b", 3)}));
  WriteBytes(s / "not_a_case/model.onnx", "ignored: wrong prefix");

  StatusOr<ImportReport> report = ImportOnnxTests(Options(src.path(), root.path()));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->imported, std::vector<std::string>{"test_ext"});
  EXPECT_EQ(report->data_sets, 2);
  ASSERT_EQ(report->skipped.size(), 7u);
  EXPECT_NE(SkipReason(*report, "test_escape").find("leaves the model's folder"), std::string::npos);
  EXPECT_NE(SkipReason(*report, "test_no_model").find("no model.onnx"), std::string::npos);
  EXPECT_NE(SkipReason(*report, "test_bad_pb").find("input_0.pb"), std::string::npos);
  EXPECT_NE(SkipReason(*report, "test_gap").find("input_0.pb is missing"), std::string::npos);
  EXPECT_NE(SkipReason(*report, "test_no_data").find("no test_data_set"), std::string::npos);
  EXPECT_NE(SkipReason(*report, "test_bad_model").find("not a valid ONNX model"), std::string::npos);
  EXPECT_NE(SkipReason(*report, "test_nul").find("NUL"), std::string::npos);
  EXPECT_TRUE(std::is_sorted(report->skipped.begin(), report->skipped.end(),
                             [](const SkippedCase& a, const SkippedCase& b) { return a.name < b.name; }));

  // The model keeps its external data beside it, in a folder of its own.
  fs::path suite = fs::path(root.path()) / "suites/unit";
  EXPECT_EQ(testing_util::FileBytes((suite / "models/test_ext/model.onnx").string()), AddModel("data/w.bin"));
  EXPECT_EQ(testing_util::FileBytes((suite / "models/test_ext/data/w.bin").string()), std::string(8, '\x01'));
  EXPECT_FALSE(fs::exists(fs::path(root.path()) / "golden/data/unit/test_nul.h5"));

  json j = json::parse(testing_util::FileBytes(report->suite_json));
  EXPECT_EQ(j["name"], "unit");
  EXPECT_EQ(j["license"], "Apache-2.0");
  EXPECT_EQ(j["golden_producer"], "onnx 1.12.0 backend test data generator");
  EXPECT_EQ(j["format_version"], 1);
  EXPECT_DOUBLE_EQ(j["default_tolerance"]["rtol"].get<double>(), 1e-3);
  EXPECT_DOUBLE_EQ(j["default_tolerance"]["atol"].get<double>(), 1e-7);
  ASSERT_EQ(j["cases"].size(), 1u);
  const json& c = j["cases"][0];
  EXPECT_EQ(c["model"], "models/test_ext/model.onnx");
  EXPECT_EQ(c["golden"], "../../golden/data/unit/test_ext.h5");
  EXPECT_EQ(c["op_types"], json::array({"Add"}));
  EXPECT_EQ(c["opset_imports"], json({{"", 14}, {"ai.onnx.ml", 3}}));

  StatusOr<GoldenFile> g = ReadGolden((suite / c["golden"].get<std::string>()).string());
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(g->model_sha256, *Sha256File((suite / "models/test_ext/model.onnx").string()));
  EXPECT_EQ(g->opset_imports, (std::vector<std::pair<std::string, int64_t>>{{"", 14}, {"ai.onnx.ml", 3}}));
  EXPECT_EQ(g->created, "2026-11-21T03:00:00Z");
  EXPECT_EQ(g->source, "hand-made");
  ASSERT_EQ(g->sets.size(), 2u);
  EXPECT_EQ(g->sets[1].inputs[0].name, "x");
  EXPECT_EQ(g->sets[1].outputs[0].name, "y");
  EXPECT_EQ(ValueDifference(Value::FromTensor(y), g->sets[1].inputs[0].value), "");
  EXPECT_EQ(ValueDifference(Value::FromTensor(x), g->sets[1].outputs[0].value), "");
}

TEST(ImporterTest, RefusesBadOptions) {
  TempDir src, root;
  ImportOptions o = Options(src.path(), root.path());
  o.suite_name = "../up";
  EXPECT_EQ(ImportOnnxTests(o).status().code(), StatusCode::kInvalidArgument);
  o = Options(src.path() + "/missing", root.path());
  EXPECT_EQ(ImportOnnxTests(o).status().code(), StatusCode::kNotFound);
  o = Options(src.path(), root.path());
  o.producer.clear();
  EXPECT_EQ(ImportOnnxTests(o).status().code(), StatusCode::kInvalidArgument);
  o = Options(src.path(), root.path());
  o.created = "now";
  EXPECT_EQ(ImportOnnxTests(o).status().code(), StatusCode::kInvalidArgument);
}

bool HaveNodeTests() { return fs::is_directory(fs::path(kNodeTests) / "test_abs"); }

// Imports `cases` copied from the ONNX node tests; returns the temp repository root's report.
StatusOr<ImportReport> ImportCopies(const std::vector<std::string>& cases, const TempDir& src,
                                    const TempDir& root) {
  for (const std::string& name : cases) {
    fs::copy(fs::path(kNodeTests) / name, fs::path(src.path()) / name, fs::copy_options::recursive);
  }
  ImportOptions o = Options(src.path(), root.path());
  o.suite_name = "onnx-node";
  return ImportOnnxTests(o);
}

TEST(ImporterTest, OnnxNodeCases) {
  if (!HaveNodeTests()) GTEST_SKIP() << "no ONNX node tests at " << kNodeTests;
  TempDir src, root;
  std::vector<std::string> cases = {"test_abs", "test_cast_FLOAT_to_BFLOAT16",
                                    "test_optional_get_element", "test_optional_has_element_empty",
                                    "test_sequence_insert_at_back", "test_softmax_example_expanded"};
  StatusOr<ImportReport> report = ImportCopies(cases, src, root);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->imported, cases);
  EXPECT_TRUE(report->skipped.empty());
  fs::path suite = fs::path(root.path()) / "suites/onnx-node";
  json j = json::parse(testing_util::FileBytes(report->suite_json));
  ASSERT_EQ(j["cases"].size(), cases.size());

  std::map<std::string, GoldenFile> goldens;
  for (const json& c : j["cases"]) {
    std::string name = c["name"];
    SCOPED_TRACE(name);
    std::string golden_path = (suite / c["golden"].get<std::string>()).string();
    StatusOr<GoldenFile> g = ReadGolden(golden_path);
    ASSERT_TRUE(g.ok()) << g.status().ToString();
    std::string model_path = (suite / c["model"].get<std::string>()).string();
    EXPECT_EQ(testing_util::FileBytes(model_path),
              testing_util::FileBytes((fs::path(kNodeTests) / name / "model.onnx").string()));
    EXPECT_EQ(g->model_sha256, *Sha256File(model_path));
    EXPECT_EQ(g->producer, "onnx 1.12.0 backend test data generator");
    if (testing_util::HaveCommand("h5dump")) {
      testing_util::CommandResult dump = testing_util::RunCommand("h5dump '" + golden_path + "'");
      EXPECT_EQ(dump.exit_code, 0) << dump.output;
      if (name == "test_cast_FLOAT_to_BFLOAT16") {
        EXPECT_NE(dump.output.find("H5T_STD_U16LE"), std::string::npos);
        EXPECT_NE(dump.output.find("\"BFLOAT16\""), std::string::npos);
      }
    }
    goldens[name] = std::move(g).value();
  }
  EXPECT_EQ(j["cases"][5]["tags"], json::array({"expanded"}));
  EXPECT_EQ(j["cases"][5]["op_types"][0], "Constant");
  EXPECT_EQ(j["cases"][4]["tags"], json::array({"sequence"}));
  EXPECT_EQ(j["cases"][2]["tags"], json::array({"optional"}));
  EXPECT_EQ(j["cases"][0]["opset_imports"], json({{"", 13}}));

  // test_abs: y = |x| for every element.
  const GoldenSet& abs = goldens["test_abs"].sets.at(0);
  ASSERT_EQ(abs.inputs.size(), 1u);
  EXPECT_EQ(abs.inputs[0].name, "x");
  const Tensor& ax = abs.inputs[0].value.tensor();
  const Tensor& ay = abs.outputs.at(0).value.tensor();
  ASSERT_EQ(ax.shape(), ay.shape());
  ASSERT_EQ(ax.dtype(), DataType::kFloat);
  for (int64_t i = 0; i < ax.NumElements(); ++i) EXPECT_EQ(std::fabs(ax.data<float>()[i]), ay.data<float>()[i]);

  // bfloat16 output with the input's shape.
  const GoldenSet& cast = goldens["test_cast_FLOAT_to_BFLOAT16"].sets.at(0);
  EXPECT_EQ(cast.outputs.at(0).value.tensor().dtype(), DataType::kBFloat16);
  EXPECT_EQ(cast.outputs.at(0).value.tensor().shape(), cast.inputs.at(0).value.tensor().shape());

  // An empty optional takes its element type from the model's declaration.
  const GoldenSet& empty = goldens["test_optional_has_element_empty"].sets.at(0);
  const Value& opt = empty.inputs.at(0).value;
  ASSERT_TRUE(opt.is_optional());
  EXPECT_FALSE(opt.has_value());
  EXPECT_EQ(opt.optional_inner_kind(), Value::Kind::kTensor);
  EXPECT_EQ(opt.elem_type(), DataType::kInt32);
  EXPECT_FALSE(empty.outputs.at(0).value.tensor().data<bool>()[0]);

  const GoldenSet& get = goldens["test_optional_get_element"].sets.at(0);
  ASSERT_TRUE(get.inputs.at(0).value.is_optional());
  ASSERT_TRUE(get.inputs.at(0).value.has_value());
  EXPECT_EQ(ValueDifference(get.inputs[0].value.optional_value(), get.outputs.at(0).value), "");

  // SequenceInsert at the back: the output is the input sequence plus the tensor.
  const GoldenSet& seq = goldens["test_sequence_insert_at_back"].sets.at(0);
  ASSERT_EQ(seq.inputs.size(), 2u);
  const Value& in_seq = seq.inputs[0].value;
  const Value& out_seq = seq.outputs.at(0).value;
  ASSERT_TRUE(out_seq.is_sequence());
  ASSERT_EQ(out_seq.sequence().size(), in_seq.sequence().size() + 1);
  EXPECT_EQ(ValueDifference(seq.inputs[1].value, Value::FromTensor(out_seq.sequence().back())), "");
}

TEST(ImporterTest, ReimportIsByteIdentical) {
  if (!HaveNodeTests()) GTEST_SKIP() << "no ONNX node tests at " << kNodeTests;
  TempDir src, root;
  std::vector<std::string> cases = {"test_abs", "test_sequence_insert_at_back"};
  ASSERT_TRUE(ImportCopies(cases, src, root).ok());
  fs::path golden = fs::path(root.path()) / "golden/data/onnx-node/test_sequence_insert_at_back.h5";
  fs::path suite_json = fs::path(root.path()) / "suites/onnx-node/suite.json";
  std::string golden_before = testing_util::FileBytes(golden.string());
  std::string json_before = testing_util::FileBytes(suite_json.string());
  ASSERT_TRUE(ImportOnnxTests([&] {
                ImportOptions o = Options(src.path(), root.path());
                o.suite_name = "onnx-node";
                return o;
              }()).ok());
  EXPECT_TRUE(golden_before == testing_util::FileBytes(golden.string()));
  EXPECT_EQ(json_before, testing_util::FileBytes(suite_json.string()));
}

// All 922 cases: nothing skipped, and every golden reads back as the importer loaded it.
TEST(ImporterTest, WholeOnnxNodeTree) {
  if (!HaveNodeTests()) GTEST_SKIP() << "no ONNX node tests at " << kNodeTests;
  TempDir root;
  ImportOptions o = Options(kNodeTests, root.path());
  o.suite_name = "onnx-node";
  StatusOr<ImportReport> report = ImportOnnxTests(o);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  for (const SkippedCase& s : report->skipped) ADD_FAILURE() << s.name << ": " << s.reason;
  EXPECT_GE(report->imported.size(), 900u);
  for (const std::string& name : report->imported) {
    SCOPED_TRACE(name);
    StatusOr<OnnxTestCase> loaded = LoadOnnxTestCase((fs::path(kNodeTests) / name).string());
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    StatusOr<GoldenFile> g =
        ReadGolden((fs::path(root.path()) / "golden/data/onnx-node" / (name + ".h5")).string());
    ASSERT_TRUE(g.ok()) << g.status().ToString();
    ASSERT_EQ(g->sets.size(), loaded->sets.size());
    for (size_t i = 0; i < g->sets.size(); ++i) {
      for (bool outputs : {false, true}) {
        const auto& want = outputs ? loaded->sets[i].outputs : loaded->sets[i].inputs;
        const auto& got = outputs ? g->sets[i].outputs : g->sets[i].inputs;
        ASSERT_EQ(want.size(), got.size());
        const auto& declared = outputs ? loaded->outputs : loaded->inputs;
        for (size_t k = 0; k < want.size(); ++k) {
          EXPECT_EQ(want[k].name, got[k].name);
          if (declared[k].elem_type != DataType::kUndefined) {
            EXPECT_EQ(DataTypeName(got[k].value.elem_type()), DataTypeName(declared[k].elem_type))
                << want[k].name;
          }
          EXPECT_EQ(ValueDifference(want[k].value, got[k].value), "") << want[k].name;
        }
      }
    }
  }
}

}  // namespace
}  // namespace onnxgate
