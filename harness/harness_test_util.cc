// Writes a small suite with goldens for harness tests.
#include "harness/harness_test_util.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "golden/golden_file.h"
#include "runtime/base/atomic_file.h"
#include "runtime/base/check.h"
#include "runtime/base/sha256.h"

namespace onnxgate {

namespace fs = std::filesystem;

std::string WriteMiniSuite(const std::string& root, const std::vector<MiniCase>& cases) {
  fs::remove_all(root);
  fs::path suite_dir = fs::path(root) / "suites" / "mini";
  nlohmann::json suite = {{"name", "mini"}, {"cases", nlohmann::json::array()}};
  for (const MiniCase& c : cases) {
    std::string model = c.model_bytes
                            ? *c.model_bytes
                            : "<ir_version: 8, opset_import: [\"\" : 13]>\n" + c.name +
                                  " (float[N] X) => (float[N] Y) {\n  Y = " + c.op + "(X)\n}\n";
    std::string model_file = c.name + c.model_extension;
    std::string model_path = (suite_dir / "models" / model_file).string();
    ONNXGATE_CHECK(WriteFileAtomically(model_path, model).ok());
    GoldenFile g;
    g.producer = "harness test";
    g.model_sha256 = Sha256Hex(c.stale ? model + "# changed" : model);
    g.opset_imports = {{"", 13}};
    GoldenSet set;
    if (!c.omit_input) set.inputs.push_back({"X", 0, c.input, {}, {}});
    set.outputs.push_back({"Y", 0, c.expected_output, {}, {}});
    g.sets.push_back(set);
    std::string golden_path =
        (fs::path(root) / "golden" / "data" / "mini" / (c.name + ".h5")).string();
    ONNXGATE_CHECK(WriteGolden(golden_path, g).ok());
    suite["cases"].push_back({{"name", c.name},
                              {"model", "models/" + model_file},
                              {"golden", "../../golden/data/mini/" + c.name + ".h5"},
                              {"op_types", {c.op}},
                              {"opset_imports", {{"", 13}}}});
  }
  ONNXGATE_CHECK(WriteFileAtomically((suite_dir / "suite.json").string(), suite.dump(2)).ok());
  return root;
}

std::string OneNodeModelBytes(const std::string& op, int64_t length,
                              const std::string& external_location) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(14);
  onnx::GraphProto* g = m.mutable_graph();
  g->set_name(op);
  onnx::NodeProto* node = g->add_node();
  node->set_op_type(op);
  node->add_input("X");
  if (!external_location.empty()) node->add_input("W");
  node->add_output("Y");
  for (const char* name : {"X", "Y"}) {
    onnx::ValueInfoProto* v = std::string(name) == "X" ? g->add_input() : g->add_output();
    v->set_name(name);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnx::TensorProto::FLOAT);
    t->mutable_shape()->add_dim()->set_dim_value(length);
  }
  if (!external_location.empty()) {
    onnx::TensorProto* w = g->add_initializer();
    w->set_name("W");
    w->set_data_type(onnx::TensorProto::FLOAT);
    w->add_dims(length);
    w->set_data_location(onnx::TensorProto::EXTERNAL);
    auto* entry = w->add_external_data();
    entry->set_key("location");
    entry->set_value(external_location);
  }
  return m.SerializeAsString();
}

Value Floats(const std::vector<float>& v) {
  return Value::FromTensor(Tensor::FromVector<float>(Shape({static_cast<int64_t>(v.size())}), v));
}

std::string TestRootFor(const std::string& prefix) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(test->test_suite_name()) + "." + test->name();
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  return (std::filesystem::path(::testing::TempDir()) /
          (prefix + "_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

RunCommandOptions MiniSuiteRunOptions(const std::string& root, double timeout_s) {
  RunCommandOptions options;
  options.root = root;
  options.suites = {"mini"};
  options.timeout_s = timeout_s;
  options.jobs = 2;
  options.json_path = root + "/out/run.json";
  options.junit_path = root + "/out/run.xml";
  options.markdown_path = root + "/out/run.md";
  return options;
}

}  // namespace onnxgate
