// Tests of the ONNX backend test importer: hand-made cases (external data, bad folders, graph
// inputs with initializers, sequences, optionals, maps, re-imports over user edits) and real cases
// copied from the ONNX 1.12 and 1.23.2 node tests (tensors, sequences, optionals, bfloat16).
#include "golden/importer.h"

#include <gtest/gtest.h>
#include <onnx/onnx-data.pb.h>
#include <onnx/onnx_pb.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>
#include <vector>

#include "golden/golden_file.h"
#include "golden/golden_test_util.h"
#include "golden/onnx_test_case.h"
#include "runtime/base/atomic_file.h"
#include "runtime/base/sha256.h"
#include "runtime/model/model_file.h"
#include "runtime/proto/tensor_proto.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing_util::TempDir;
using testing_util::ValueDifference;

const char kNodeTests[] = ONNXGATE_ONNX_NODE_TESTS_DIR;
const char kNodeTests123[] = ONNXGATE_ONNX_NODE_TESTS_123_DIR;

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

onnx::TypeProto TensorType(DataType dtype) {
  onnx::TypeProto t;
  t.mutable_tensor_type()->set_elem_type(static_cast<int32_t>(dtype));
  return t;
}

onnx::TypeProto SequenceType(const onnx::TypeProto& elem) {
  onnx::TypeProto t;
  *t.mutable_sequence_type()->mutable_elem_type() = elem;
  return t;
}

onnx::TypeProto OptionalType(const onnx::TypeProto& elem) {
  onnx::TypeProto t;
  *t.mutable_optional_type()->mutable_elem_type() = elem;
  return t;
}

onnx::TypeProto MapType(DataType key, const onnx::TypeProto& value) {
  onnx::TypeProto t;
  t.mutable_map_type()->set_key_type(static_cast<int32_t>(key));
  *t.mutable_map_type()->mutable_value_type() = value;
  return t;
}

using TypedNames = std::vector<std::pair<std::string, onnx::TypeProto>>;

// A one-node model (the importer never runs it) with these graph inputs, outputs and initializers.
std::string TypedModel(const TypedNames& inputs, const TypedNames& outputs,
                       const std::vector<Tensor>& initializers = {},
                       const std::vector<std::string>& initializer_names = {}) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  auto* opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(17);
  onnx::GraphProto* g = model.mutable_graph();
  g->set_name("typed");
  onnx::NodeProto* node = g->add_node();
  node->set_op_type("Custom");
  node->set_domain("test.domain");
  for (const auto& [name, type] : inputs) {
    onnx::ValueInfoProto* info = g->add_input();
    info->set_name(name);
    *info->mutable_type() = type;
    node->add_input(name);
  }
  for (const auto& [name, type] : outputs) {
    onnx::ValueInfoProto* info = g->add_output();
    info->set_name(name);
    *info->mutable_type() = type;
    node->add_output(name);
  }
  for (size_t i = 0; i < initializers.size(); ++i) {
    *g->add_initializer() = TensorToProto(initializers[i], initializer_names[i]);
  }
  return model.SerializeAsString();
}

void WriteSequence(const fs::path& path, const std::vector<Tensor>& items) {
  onnx::SequenceProto seq;
  seq.set_elem_type(onnx::SequenceProto::TENSOR);
  for (const Tensor& t : items) *seq.add_tensor_values() = TensorToProto(t, "");
  WriteBytes(path, seq.SerializeAsString());
}

// An optional holding `t`, or, with no tensor, an empty one that (like ONNX's generator) leaves
// out its element type.
void WriteOptional(const fs::path& path, const std::optional<Tensor>& t) {
  onnx::OptionalProto opt;
  if (t) {
    opt.set_elem_type(onnx::OptionalProto::TENSOR);
    *opt.mutable_tensor_value() = TensorToProto(*t, "");
  }
  WriteBytes(path, opt.SerializeAsString());
}

void WriteOptionalSequence(const fs::path& path, const std::vector<Tensor>& items) {
  onnx::OptionalProto opt;
  opt.set_elem_type(onnx::OptionalProto::SEQUENCE);
  onnx::SequenceProto* seq = opt.mutable_sequence_value();
  seq->set_elem_type(onnx::SequenceProto::TENSOR);
  for (const Tensor& t : items) *seq->add_tensor_values() = TensorToProto(t, "");
  WriteBytes(path, opt.SerializeAsString());
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
  EXPECT_NE(SkipReason(*report, "test_escape").find("external data '../outside.bin' of tensor 'w'"),
            std::string::npos);
  EXPECT_NE(SkipReason(*report, "test_escape").find("contains '..'"), std::string::npos);
  EXPECT_NE(SkipReason(*report, "test_no_model").find("no model.onnx"), std::string::npos);
  EXPECT_NE(SkipReason(*report, "test_bad_pb").find("input_0.pb"), std::string::npos);
  EXPECT_NE(SkipReason(*report, "test_gap").find("input_0.pb is missing"), std::string::npos);
  EXPECT_NE(SkipReason(*report, "test_no_data").find("no test_data_set"), std::string::npos);
  EXPECT_NE(SkipReason(*report, "test_bad_model").find("not a valid ONNX model"),
            std::string::npos);
  EXPECT_NE(SkipReason(*report, "test_nul").find("NUL"), std::string::npos);
  EXPECT_TRUE(
      std::is_sorted(report->skipped.begin(), report->skipped.end(),
                     [](const SkippedCase& a, const SkippedCase& b) { return a.name < b.name; }));

  // The model keeps its external data beside it, in a folder of its own.
  fs::path suite = fs::path(root.path()) / "suites/unit";
  EXPECT_EQ(testing_util::FileBytes((suite / "models/test_ext/model.onnx").string()),
            AddModel("data/w.bin"));
  EXPECT_EQ(testing_util::FileBytes((suite / "models/test_ext/data/w.bin").string()),
            std::string(8, '\x01'));
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
  // The hash over the model and data/w.bin, as the case runner computes it from the copies.
  StatusOr<ModelFile> files = ModelFile::Read((suite / "models/test_ext/model.onnx").string());
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  EXPECT_EQ(files->external_locations(), std::vector<std::string>{"data/w.bin"});
  EXPECT_EQ(g->model_files_sha256, files->files_sha256());
  EXPECT_NE(g->model_files_sha256, g->model_sha256);
  EXPECT_EQ(g->format_version, 2);  // no intermediate values
  EXPECT_EQ(g->opset_imports,
            (std::vector<std::pair<std::string, int64_t>>{{"", 14}, {"ai.onnx.ml", 3}}));
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

// input_<k>.pb binds to the k-th graph input without an initializer, as ONNX's runner does: a
// weight listed among the graph inputs (as IR < 4 models must) keeps its initializer.
TEST(ImporterTest, DataBindsToGraphInputsWithoutInitializers) {
  TempDir src, root;
  fs::path s(src.path());
  Tensor w = Tensor::FromVector<float>({2}, {0.5f, 0.25f});
  Tensor x = Tensor::FromVector<float>({2}, {1.f, 2.f});
  Tensor z = Tensor::FromVector<int64_t>({1}, {7});
  Tensor y = Tensor::FromVector<float>({2}, {1.5f, 2.25f});
  TypedNames inputs = {{"w", TensorType(DataType::kFloat)},
                       {"x", TensorType(DataType::kFloat)},
                       {"b", TensorType(DataType::kFloat)},
                       {"z", TensorType(DataType::kInt64)}};
  std::string model = TypedModel(inputs, {{"y", TensorType(DataType::kFloat)}}, {w, w}, {"w", "b"});
  WriteBytes(s / "test_weights/model.onnx", model);
  WriteTensor(s / "test_weights/test_data_set_0/input_0.pb", x);
  WriteTensor(s / "test_weights/test_data_set_0/input_1.pb", z);
  WriteTensor(s / "test_weights/test_data_set_0/output_0.pb", y);
  // A third file has no input left to feed.
  WriteBytes(s / "test_too_many/model.onnx", model);
  WriteTensor(s / "test_too_many/test_data_set_0/input_0.pb", x);
  WriteTensor(s / "test_too_many/test_data_set_0/input_1.pb", z);
  WriteTensor(s / "test_too_many/test_data_set_0/input_2.pb", x);
  WriteTensor(s / "test_too_many/test_data_set_0/output_0.pb", y);

  StatusOr<OnnxTestCase> c = LoadOnnxTestCase((s / "test_weights").string());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->initializer_inputs, (std::vector<std::string>{"w", "b"}));
  ASSERT_EQ(c->inputs.size(), 2u);
  EXPECT_EQ(c->inputs[0].name, "x");
  EXPECT_EQ(c->inputs[0].graph_index, 1);
  EXPECT_EQ(c->inputs[1].name, "z");
  EXPECT_EQ(c->inputs[1].graph_index, 3);

  StatusOr<ImportReport> report = ImportOnnxTests(Options(src.path(), root.path()));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->imported, std::vector<std::string>{"test_weights"});
  std::string reason = SkipReason(*report, "test_too_many");
  EXPECT_NE(reason.find("input_2.pb"), std::string::npos) << reason;
  EXPECT_NE(reason.find("only 2 inputs without an initializer"), std::string::npos) << reason;

  StatusOr<GoldenFile> g = ReadGolden(root.File("golden/data/unit/test_weights.h5"));
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  const GoldenSet& set = g->sets.at(0);
  ASSERT_EQ(set.inputs.size(), 2u);
  EXPECT_EQ(set.inputs[0].name, "x");
  EXPECT_EQ(set.inputs[0].index, 1);  // the position among the model's graph inputs
  EXPECT_EQ(ValueDifference(Value::FromTensor(x), set.inputs[0].value), "");
  EXPECT_EQ(set.inputs[1].name, "z");
  EXPECT_EQ(set.inputs[1].index, 3);
  EXPECT_EQ(ValueDifference(Value::FromTensor(z), set.inputs[1].value), "");
  EXPECT_EQ(ValueDifference(Value::FromTensor(y), set.outputs.at(0).value), "");
}

// Sequences, optionals (holding a tensor, a sequence, or nothing) in and out; maps, which no golden
// can hold, are skipped with the value and its type named.
TEST(ImporterTest, SequenceOptionalAndMapValues) {
  TempDir src, root;
  fs::path s(src.path());
  Tensor a = Tensor::FromVector<float>({2}, {1.f, 2.f});
  Tensor b = Tensor::FromVector<float>({1, 3}, {3.f, 4.f, 5.f});
  Tensor n = Tensor::FromVector<int64_t>({}, {2});
  onnx::TypeProto f32 = TensorType(DataType::kFloat);
  WriteBytes(s / "test_seq_opt/model.onnx",
             TypedModel({{"seq", SequenceType(f32)},
                         {"opt", OptionalType(f32)},
                         {"none", OptionalType(TensorType(DataType::kInt64))}},
                        {{"opt_seq", OptionalType(SequenceType(f32))},
                         {"empty_seq", SequenceType(TensorType(DataType::kInt32))},
                         {"count", TensorType(DataType::kInt64)}}));
  fs::path set = s / "test_seq_opt/test_data_set_0";
  WriteSequence(set / "input_0.pb", {a, b});
  WriteOptional(set / "input_1.pb", a);
  WriteOptional(set / "input_2.pb", std::nullopt);
  WriteOptionalSequence(set / "output_0.pb", {b});
  WriteSequence(set / "output_1.pb", {});
  WriteTensor(set / "output_2.pb", n);
  // ZipMap-like: a sequence of maps out; DictVectorizer-like: a map in.
  WriteBytes(s / "test_zipmap/model.onnx",
             TypedModel({{"x", f32}}, {{"z", SequenceType(MapType(DataType::kInt64, f32))}}));
  WriteTensor(s / "test_zipmap/test_data_set_0/input_0.pb", a);
  WriteBytes(s / "test_zipmap/test_data_set_0/output_0.pb", "");
  WriteBytes(
      s / "test_dict/model.onnx",
      TypedModel({{"m", MapType(DataType::kString, TensorType(DataType::kDouble))}}, {{"y", f32}}));
  WriteBytes(s / "test_dict/test_data_set_0/input_0.pb", "");
  WriteTensor(s / "test_dict/test_data_set_0/output_0.pb", a);

  StatusOr<ImportReport> report = ImportOnnxTests(Options(src.path(), root.path()));
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->imported, std::vector<std::string>{"test_seq_opt"});
  std::string zipmap = SkipReason(*report, "test_zipmap");
  EXPECT_NE(zipmap.find("'z' is seq(map(int64,tensor(float)))"), std::string::npos) << zipmap;
  EXPECT_NE(zipmap.find("no map"), std::string::npos) << zipmap;
  std::string dict = SkipReason(*report, "test_dict");
  EXPECT_NE(dict.find("'m' is map(string,tensor(double))"), std::string::npos) << dict;

  json j = json::parse(testing_util::FileBytes(report->suite_json));
  ASSERT_EQ(j["cases"].size(), 1u);
  EXPECT_EQ(j["cases"][0]["tags"], json::array({"sequence", "optional"}));

  StatusOr<GoldenFile> g = ReadGolden(root.File("golden/data/unit/test_seq_opt.h5"));
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  const GoldenSet& got = g->sets.at(0);
  ASSERT_EQ(got.inputs.size(), 3u);
  ASSERT_EQ(got.outputs.size(), 3u);
  EXPECT_EQ(ValueDifference(Value::FromSequence(DataType::kFloat, {a, b}), got.inputs[0].value),
            "");
  EXPECT_EQ(ValueDifference(Value::OptionalOf(Value::FromTensor(a)), got.inputs[1].value), "");
  // The empty optional's element type comes from the model's declaration.
  EXPECT_EQ(ValueDifference(Value::OptionalNone(Value::Kind::kTensor, DataType::kInt64),
                            got.inputs[2].value),
            "");
  EXPECT_EQ(ValueDifference(Value::OptionalOf(Value::FromSequence(DataType::kFloat, {b})),
                            got.outputs[0].value),
            "");
  EXPECT_EQ(ValueDifference(Value::FromSequence(DataType::kInt32, {}), got.outputs[1].value), "");
  EXPECT_EQ(ValueDifference(Value::FromTensor(n), got.outputs[2].value), "");
}

// One case of `name` with input x -> output y, for the re-import tests.
void WriteSimpleCase(const fs::path& src, const std::string& name) {
  onnx::TypeProto f32 = TensorType(DataType::kFloat);
  WriteBytes(src / name / "model.onnx", TypedModel({{"x", f32}}, {{"y", f32}}));
  WriteTensor(src / name / "test_data_set_0/input_0.pb", Tensor::FromVector<float>({1}, {1.f}));
  WriteTensor(src / name / "test_data_set_0/output_0.pb", Tensor::FromVector<float>({1}, {2.f}));
}

// A re-import rewrites what the importer owns and keeps what users added to suite.json.
TEST(ImporterTest, ReimportKeepsUserEdits) {
  TempDir src, root;
  fs::path s(src.path());
  WriteSimpleCase(s, "test_a");
  WriteSimpleCase(s, "test_b_expanded");
  WriteSimpleCase(s, "test_c");
  ASSERT_TRUE(ImportOnnxTests(Options(src.path(), root.path())).ok());
  fs::path suite_json = fs::path(root.path()) / "suites/unit/suite.json";

  // What a user does to the file: tolerances, tags, descriptions, keys of their own, a hand-made
  // case, an importer key changed by hand.
  json j = json::parse(testing_util::FileBytes(suite_json.string()));
  j["description"] = "edited by hand";
  j["default_tolerance"]["rtol"] = 0.01;
  j["owner"] = "team-x";
  json& a = j["cases"][0];
  ASSERT_EQ(a["name"], "test_a");
  a["tolerance"] = {{"rtol", 0.02}, {"outputs", {{"y", {{"atol", 1e-4}}}}}};
  a["tags"] = json::array({"slow", "expanded"});  // "expanded" is the importer's and wrong here
  a["description"] = "the one with a story";
  a["op_types"] = json::array({"Edited"});
  json& b = j["cases"][1];
  ASSERT_EQ(b["tags"], json::array({"expanded"}));
  b["tags"].push_back("flaky");
  b["ticket"] = 1234;
  j["cases"].push_back({{"name", "test_hand_made"},
                        {"model", "models/hand.onnx"},
                        {"golden", "../../golden/data/unit/hand.h5"},
                        {"tags", json::array({"mine"})}});
  WriteBytes(suite_json, j.dump(2));

  // test_c's source no longer loads: its old entry, files and edits stay.
  fs::remove(s / "test_c/model.onnx");
  ImportOptions o = Options(src.path(), root.path());
  o.description.clear();  // not given: the edited description stays
  StatusOr<ImportReport> report = ImportOnnxTests(o);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->imported, (std::vector<std::string>{"test_a", "test_b_expanded"}));
  EXPECT_EQ(report->kept, (std::vector<std::string>{"test_c", "test_hand_made"}));
  EXPECT_EQ(report->skipped.size(), 1u);

  std::string after = testing_util::FileBytes(suite_json.string());
  json k = json::parse(after);
  EXPECT_EQ(k["description"], "edited by hand");
  EXPECT_DOUBLE_EQ(k["default_tolerance"]["rtol"].get<double>(), 0.01);
  EXPECT_DOUBLE_EQ(k["default_tolerance"]["atol"].get<double>(), 1e-7);
  EXPECT_EQ(k["owner"], "team-x");
  ASSERT_EQ(k["cases"].size(), 4u);
  const json& a2 = k["cases"][0];
  EXPECT_EQ(a2["op_types"], json::array({"Custom"}));
  EXPECT_EQ(a2["tags"], json::array({"slow"}));
  EXPECT_EQ(a2["tolerance"], a["tolerance"]);
  EXPECT_EQ(a2["description"], "the one with a story");
  const json& b2 = k["cases"][1];
  EXPECT_EQ(b2["tags"], json::array({"expanded", "flaky"}));
  EXPECT_EQ(b2["ticket"], 1234);
  EXPECT_EQ(k["cases"][2], j["cases"][2]);  // test_c as it was
  EXPECT_EQ(k["cases"][3], j["cases"][3]);  // test_hand_made as it was
  EXPECT_TRUE(fs::exists(fs::path(root.path()) / "golden/data/unit/test_c.h5"));

  // Re-importing again changes nothing.
  ASSERT_TRUE(ImportOnnxTests(o).ok());
  EXPECT_EQ(after, testing_util::FileBytes(suite_json.string()));

  // Options that are given win over the file.
  o = Options(src.path(), root.path());
  o.default_atol = 1e-5;
  ASSERT_TRUE(ImportOnnxTests(o).ok());
  json m = json::parse(testing_util::FileBytes(suite_json.string()));
  EXPECT_EQ(m["description"], "importer test");
  EXPECT_DOUBLE_EQ(m["default_tolerance"]["rtol"].get<double>(), 0.01);
  EXPECT_DOUBLE_EQ(m["default_tolerance"]["atol"].get<double>(), 1e-5);
}

// A suite.json the importer cannot merge into stops the import before anything is written.
TEST(ImporterTest, RefusesToOverwriteUnreadableSuiteJson) {
  TempDir src, root;
  WriteSimpleCase(src.path(), "test_a");
  fs::path suite_json = fs::path(root.path()) / "suites/unit/suite.json";
  const std::vector<std::string> bad_files = {
      "{ \"cases\": [ broken", "[1, 2]", "{\"cases\": {}}", "{\"cases\": [{\"tags\": []}]}",
      "{\"cases\": [{\"name\": \"a\"}, {\"name\": \"a\"}]}"};
  for (const std::string& bad : bad_files) {
    SCOPED_TRACE(bad);
    WriteBytes(suite_json, bad);
    StatusOr<ImportReport> report = ImportOnnxTests(Options(src.path(), root.path()));
    EXPECT_EQ(report.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(report.status().message().find(suite_json.string()), std::string::npos)
        << report.status().ToString();
    EXPECT_EQ(testing_util::FileBytes(suite_json.string()), bad);
    EXPECT_FALSE(fs::exists(fs::path(root.path()) / "golden/data/unit/test_a.h5"));
  }
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
  std::vector<std::string> cases = {"test_abs",
                                    "test_cast_FLOAT_to_BFLOAT16",
                                    "test_optional_get_element",
                                    "test_optional_has_element_empty",
                                    "test_sequence_insert_at_back",
                                    "test_softmax_example_expanded"};
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
  for (int64_t i = 0; i < ax.NumElements(); ++i)
    EXPECT_EQ(std::fabs(ax.data<float>()[i]), ay.data<float>()[i]);

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
              }())
                  .ok());
  EXPECT_TRUE(golden_before == testing_util::FileBytes(golden.string()));
  EXPECT_EQ(json_before, testing_util::FileBytes(suite_json.string()));
}

// Every case of `tree`: nothing skipped, and every golden reads back as the importer loaded it.
void CheckWholeTree(const std::string& tree, size_t min_cases) {
  TempDir root;
  ImportOptions o = Options(tree, root.path());
  o.suite_name = "onnx-node";
  StatusOr<ImportReport> report = ImportOnnxTests(o);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  for (const SkippedCase& s : report->skipped) ADD_FAILURE() << s.name << ": " << s.reason;
  EXPECT_GE(report->imported.size(), min_cases);
  for (const std::string& name : report->imported) {
    SCOPED_TRACE(name);
    StatusOr<OnnxTestCase> loaded = LoadOnnxTestCase((fs::path(tree) / name).string());
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
          EXPECT_EQ(want[k].index, got[k].index);
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

// All 922 cases of ONNX 1.12.
TEST(ImporterTest, WholeOnnxNodeTree) {
  if (!HaveNodeTests()) GTEST_SKIP() << "no ONNX node tests at " << kNodeTests;
  CheckWholeTree(kNodeTests, 900);
}

bool HaveNodeTests123() { return fs::is_directory(fs::path(kNodeTests123) / "test_abs"); }

// All 1,884 cases of ONNX 1.23.2: new element types (float8, float4, int4, int2), opsets up to 28,
// and its 57 sequence and optional graph values.
TEST(ImporterTest, WholeOnnxNodeTree123) {
  if (!HaveNodeTests123()) GTEST_SKIP() << "no ONNX 1.23.2 node tests at " << kNodeTests123;
  CheckWholeTree(kNodeTests123, 1884);
}

// ONNX 1.23.2 cases whose graph values are optionals of sequences, empty optionals, sequences fed
// to loops and If branches returning optionals.
TEST(ImporterTest, OnnxNode123SequenceAndOptionalCases) {
  if (!HaveNodeTests123()) GTEST_SKIP() << "no ONNX 1.23.2 node tests at " << kNodeTests123;
  TempDir src, root;
  std::vector<std::string> cases = {"test_identity_opt",
                                    "test_if_opt",
                                    "test_loop16_seq_none",
                                    "test_optional_get_element_optional_sequence",
                                    "test_optional_has_element_empty_optional_input",
                                    "test_sequence_map_identity_2_sequences"};
  for (const std::string& name : cases) {
    fs::copy(fs::path(kNodeTests123) / name, fs::path(src.path()) / name,
             fs::copy_options::recursive);
  }
  ImportOptions o = Options(src.path(), root.path());
  o.suite_name = "onnx-node";
  StatusOr<ImportReport> report = ImportOnnxTests(o);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  for (const SkippedCase& s : report->skipped) ADD_FAILURE() << s.name << ": " << s.reason;
  EXPECT_EQ(report->imported, cases);
  auto golden = [&](const std::string& name) {
    StatusOr<GoldenFile> g =
        ReadGolden((fs::path(root.path()) / "golden/data/onnx-node" / (name + ".h5")).string());
    EXPECT_TRUE(g.ok()) << name << ": " << g.status().ToString();
    return g.ok() ? std::move(g).value() : GoldenFile();
  };

  // If returning an optional of a sequence.
  GoldenFile if_opt = golden("test_if_opt");
  ASSERT_EQ(if_opt.sets.size(), 1u);
  const Value& out = if_opt.sets[0].outputs.at(0).value;
  ASSERT_TRUE(out.is_optional());
  EXPECT_EQ(out.optional_inner_kind(), Value::Kind::kSequence);

  // Loop carrying an optional of a sequence, after two tensor inputs.
  GoldenFile loop = golden("test_loop16_seq_none");
  ASSERT_EQ(loop.sets.size(), 1u);
  ASSERT_EQ(loop.sets[0].inputs.size(), 3u);
  const GoldenValue& opt_seq = loop.sets[0].inputs[2];
  EXPECT_EQ(opt_seq.name, "opt_seq");
  EXPECT_EQ(opt_seq.index, 2);
  ASSERT_TRUE(opt_seq.value.is_optional());
  EXPECT_EQ(opt_seq.value.optional_inner_kind(), Value::Kind::kSequence);
  EXPECT_NE(opt_seq.value.elem_type(), DataType::kUndefined);

  // An empty optional: its element type (int32) comes from the model's declaration.
  GoldenFile empty = golden("test_optional_has_element_empty_optional_input");
  ASSERT_EQ(empty.sets.size(), 1u);
  const Value& none = empty.sets[0].inputs.at(0).value;
  ASSERT_TRUE(none.is_optional());
  EXPECT_FALSE(none.has_value());
  EXPECT_EQ(none.optional_inner_kind(), Value::Kind::kTensor);
  EXPECT_EQ(none.elem_type(), DataType::kInt32);
  EXPECT_FALSE(empty.sets[0].outputs.at(0).value.tensor().data<bool>()[0]);

  // Two sequences in, two out, unchanged.
  GoldenFile ident = golden("test_sequence_map_identity_2_sequences");
  ASSERT_EQ(ident.sets.size(), 1u);
  ASSERT_EQ(ident.sets[0].inputs.size(), 2u);
  ASSERT_EQ(ident.sets[0].outputs.size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    EXPECT_TRUE(ident.sets[0].inputs[k].value.is_sequence());
    EXPECT_EQ(ValueDifference(ident.sets[0].inputs[k].value, ident.sets[0].outputs[k].value), "");
  }
}

}  // namespace
}  // namespace onnxgate
