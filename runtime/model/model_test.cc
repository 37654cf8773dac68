// Tests for model loading: binary and text models, and each failure with its code and a message
// naming the file.
#include "runtime/model/model.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/model/model_test_util.h"
#include "runtime/onnx/op_spec.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

constexpr char kRelu[] = R"(
<ir_version: 8, opset_import: ["" : 14]>
g (float[N, 4] X) => (float[N, 4] Y) {
  Y = Relu(X)
}
)";

// A chain of `depth` If nodes nested in each other's then_branch.
std::string NestedIfModel(int depth) {
  std::string body = "a = Identity(x)";
  for (int i = 0; i < depth; ++i) {
    body = "a = If <then_branch = t" + std::to_string(i) + " () => (float[1] a) { " + body +
           " }, else_branch = e" + std::to_string(i) +
           " () => (float[1] a) { a = Identity(x) }> (c)";
  }
  return "<ir_version: 8, opset_import: [\"\" : 14]>\n"
         "g (bool c, float[1] x) => (float[1] a) {\n  " +
         body + "\n}\n";
}

TEST(ModelTest, LoadsTextModelFromTestdata) {
  auto model = Model::Load(TestdataPath("add.onnxtxt"));
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  EXPECT_EQ((*model)->graph().node_size(), 2);
  EXPECT_EQ((*model)->OpsetFor(""), 14);
  EXPECT_EQ((*model)->OpsetFor("ai.onnx"), 14);
  EXPECT_EQ((*model)->OpsetFor("ai.onnx.ml"), -1);
  EXPECT_EQ((*model)->dir(), std::string(ONNXGATE_RUNTIME_TESTDATA_DIR));
  // Shape inference gave the intermediate S a type.
  bool found = false;
  for (const auto& vi : (*model)->graph().value_info()) {
    if (vi.name() == "S") {
      found = true;
      EXPECT_EQ(vi.type().tensor_type().elem_type(), onnx::TensorProto::FLOAT);
    }
  }
  EXPECT_TRUE(found);
}

TEST(ModelTest, LoadsBinaryModel) {
  ScratchDir dir;
  std::string path = dir.WriteModel("relu.onnx", kRelu);
  auto model = Model::Load(path);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  EXPECT_EQ((*model)->graph().node(0).op_type(), "Relu");
  EXPECT_EQ((*model)->dir(), dir.path());
  EXPECT_EQ((*model)->display_name(), path);
}

TEST(ModelTest, MissingEmptyTruncatedAndForeignFiles) {
  ScratchDir dir;
  auto missing = Model::Load(dir.path() + "/nope.onnx");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr("nope.onnx"));

  auto empty = Model::Load(dir.Write("empty.onnx", ""));
  EXPECT_EQ(empty.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(empty.status().message(), HasSubstr("empty.onnx: empty file"));

  std::string bytes = Model::ParseText(kRelu, "relu")->SerializeAsString();
  auto truncated = Model::Load(dir.Write("model.onnx", bytes.substr(0, bytes.size() / 2)));
  EXPECT_EQ(truncated.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(truncated.status().message(),
              HasSubstr("model.onnx: not a valid ONNX model (protobuf parse failed)"));

  auto text_as_binary = Model::Load(dir.Write("text.onnx", "hello, I am not a model\n"));
  EXPECT_EQ(text_as_binary.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(text_as_binary.status().message(), HasSubstr("text.onnx: not a valid ONNX model"));

  auto folder = Model::Load(dir.path());
  EXPECT_EQ(folder.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(folder.status().message(), HasSubstr("is a folder, not a model file"));
}

// Bytes the caller read already are parsed as Load parses the file (binary or text by the name),
// with the same errors, and the file itself is not read again: its folder is still where external
// data resolves.
TEST(ModelTest, FromFileBytesParsesTheGivenBytesAsTheFile) {
  ScratchDir dir;
  const std::string path = dir.Write("gone.onnx", "");
  std::string bytes = Model::ParseText(kRelu, "relu")->SerializeAsString();
  auto model = Model::FromFileBytes(path, bytes);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  EXPECT_EQ((*model)->graph().node(0).op_type(), "Relu");
  EXPECT_EQ((*model)->dir(), dir.path());
  EXPECT_EQ((*model)->display_name(), path);

  auto text = Model::FromFileBytes(dir.path() + "/m.onnxtxt", kRelu);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_EQ((*text)->graph().node(0).op_type(), "Relu");

  auto empty = Model::FromFileBytes(path, "");
  EXPECT_EQ(empty.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(empty.status().message(), HasSubstr("gone.onnx: empty file"));
  auto truncated = Model::FromFileBytes(path, bytes.substr(0, bytes.size() / 2));
  EXPECT_EQ(truncated.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(truncated.status().message(),
              HasSubstr("gone.onnx: not a valid ONNX model (protobuf parse failed)"));
  auto bad_text = Model::FromFileBytes(dir.path() + "/bad.onnxtxt", "<ir_version: 8> g (");
  EXPECT_EQ(bad_text.status().code(), StatusCode::kInvalidArgument);
}

// A model path may be a link (users pass them on the command line), but a FIFO or a device named
// as a model is refused at once, without blocking on the FIFO or reading /dev/zero forever.
TEST(ModelTest, ModelFileMustBeRegular) {
  ScratchDir dir;
  std::string real = dir.WriteModel("real.onnx", kRelu);
  ASSERT_EQ(symlink(real.c_str(), (dir.path() + "/link.onnx").c_str()), 0);
  auto linked = Model::Load(dir.path() + "/link.onnx");
  EXPECT_TRUE(linked.ok()) << linked.status().ToString();

  const std::string fifo = dir.path() + "/fifo.onnx";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  auto from_fifo = Model::Load(fifo);
  EXPECT_EQ(from_fifo.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(from_fifo.status().message(), fifo + ": is a FIFO, not a model file");

  auto zero = Model::Load("/dev/zero");
  EXPECT_EQ(zero.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(zero.status().message(), "/dev/zero: is a character device, not a model file");
}

TEST(ModelTest, TextParseErrorsNameTheFile) {
  ScratchDir dir;
  auto bad = Model::Load(dir.Write("bad.onnxtxt", "<ir_version: 8> g (float x) => ( {"));
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("bad.onnxtxt: not a valid ONNX text model"));
}

TEST(ModelTest, CheckerFailuresAreConvertedOnce) {
  ScratchDir dir;
  std::string path = dir.WriteModel("attr.onnx", R"(
<ir_version: 8, opset_import: ["" : 14]>
g (float[2] X) => (float[2] Y) {
  Y = Relu <alpha = 1.0> (X)
}
)");
  auto st = Model::Load(path).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr(path + ": the ONNX 1.23.2 checker rejects the model"));
  EXPECT_THAT(st.message(), HasSubstr("alpha"));

  onnx::ModelProto no_ir = *Model::ParseText(kRelu, "x");
  no_ir.clear_ir_version();
  EXPECT_THAT(Model::FromProto(no_ir, ".", "m.onnx").status().message(),
              HasSubstr("m.onnx: the model has no ir_version"));

  onnx::ModelProto no_opset = *Model::ParseText(kRelu, "x");
  no_opset.clear_opset_import();
  EXPECT_THAT(Model::FromProto(no_opset, ".", "m.onnx").status().message(),
              HasSubstr("must import an opset"));
}

TEST(ModelTest, UnknownOpsAndNewerIrAreUnimplemented) {
  auto unknown = Model::FromProto(*Model::ParseText(R"(
<ir_version: 8, opset_import: ["" : 14]>
g (float[2] X) => (float[2] Y) {
  Y = FooBar(X)
}
)",
                                                    "x"),
                                  ".", "foo.onnx");
  EXPECT_EQ(unknown.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(unknown.status().message(),
              HasSubstr("foo.onnx: graph: FooBar node: no ONNX schema for op FooBar in domain "
                        "'ai.onnx' at opset 14"));

  // LayerNormalization exists only from opset 17.
  auto too_early = Model::FromProto(*Model::ParseText(R"(
<ir_version: 8, opset_import: ["" : 16]>
g (float[2] X, float[2] S) => (float[2] Y) {
  Y = LayerNormalization(X, S)
}
)",
                                                      "x"),
                                    ".", "ln.onnx");
  EXPECT_EQ(too_early.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(too_early.status().message(), HasSubstr("at opset 16"));

  auto custom = Model::FromProto(*Model::ParseText(R"(
<ir_version: 8, opset_import: ["" : 14, "com.example" : 1]>
g (float[2] X) => (float[2] Y) {
  Y = com.example.Thing(X)
}
)",
                                                   "x"),
                                 ".", "custom.onnx");
  EXPECT_EQ(custom.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(custom.status().message(), HasSubstr("domain 'com.example'"));

  onnx::ModelProto newer = *Model::ParseText(kRelu, "x");
  newer.set_ir_version(99);
  auto st = Model::FromProto(newer, ".", "new.onnx").status();
  EXPECT_EQ(st.code(), StatusCode::kUnimplemented);
  EXPECT_THAT(st.message(), HasSubstr("IR version 99"));
  EXPECT_THAT(st.message(), HasSubstr("newer than ONNX 1.23.2 knows (IR version 14)"));
}

TEST(ModelTest, CurrentOnnxLoadsAndNewerOpsetsAreUnsupported) {
  // IR 14 and opset 28 are the newest ONNX 1.23.2 knows.
  auto current = Model::FromProto(*Model::ParseText(R"(
<ir_version: 14, opset_import: ["" : 28]>
g (float[2] X) => (float[2] Y) {
  Y = Relu(X)
}
)",
                                                    "x"),
                                  ".", "current.onnx");
  EXPECT_TRUE(current.ok()) << current.status().ToString();

  onnx::ModelProto newer = *Model::ParseText(kRelu, "x");
  newer.mutable_opset_import(0)->set_version(29);
  auto st = Model::FromProto(newer, ".", "opset29.onnx").status();
  EXPECT_EQ(st.code(), StatusCode::kUnimplemented);
  EXPECT_THAT(st.message(), HasSubstr("opset 29 of domain 'ai.onnx' is newer than ONNX 1.23.2 "
                                      "knows (up to 28)"));

  onnx::ModelProto ml = *Model::ParseText(kRelu, "x");
  auto* ml_import = ml.add_opset_import();
  ml_import->set_domain("ai.onnx.ml");
  ml_import->set_version(6);
  EXPECT_THAT(
      Model::FromProto(ml, ".", "ml6.onnx").status().message(),
      HasSubstr("opset 6 of domain 'ai.onnx.ml' is newer than ONNX 1.23.2 knows (up to 5)"));

  // 2^32 + 13 must not be read as opset 13.
  onnx::ModelProto wrapped = *Model::ParseText(kRelu, "x");
  wrapped.mutable_opset_import(0)->set_version((int64_t{1} << 32) + 13);
  auto bad = Model::FromProto(wrapped, ".", "wrapped.onnx").status();
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.message(), HasSubstr("version 4294967309, outside 1 to 2^31-1"));
}

TEST(ModelTest, NestingDepthAndNodeCountLimits) {
  ModelOptions limits;
  limits.max_subgraph_depth = 3;
  auto ok = Model::FromProto(*Model::ParseText(NestedIfModel(3), "x"), ".", "deep.onnx", limits);
  EXPECT_TRUE(ok.ok()) << ok.status().ToString();
  auto deep = Model::FromProto(*Model::ParseText(NestedIfModel(4), "x"), ".", "deep.onnx", limits);
  EXPECT_EQ(deep.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(deep.status().message(),
              HasSubstr("deep.onnx: subgraph nesting depth 4 exceeds the limit of 3"));

  limits.max_nodes = 5;
  auto many = Model::FromProto(*Model::ParseText(NestedIfModel(3), "x"), ".", "many.onnx", limits);
  EXPECT_THAT(many.status().message(), HasSubstr("more than 5 nodes"));
}

TEST(ModelTest, ExternalDataIsCheckedBeforeTheChecker) {
  ScratchDir dir;
  dir.Write("outside.bin", std::string(8, '\0'));
  onnx::ModelProto proto = *Model::ParseText(R"(
<ir_version: 8, opset_import: ["" : 14]>
g (float[2] X) => (float[2] Y) {
  Y = Add(X, W)
}
)",
                                             "x");
  onnx::TensorProto* w = proto.mutable_graph()->add_initializer();
  w->set_name("W");
  w->set_data_type(onnx::TensorProto::FLOAT);
  w->add_dims(2);
  w->set_data_location(onnx::TensorProto::EXTERNAL);
  auto* loc = w->add_external_data();
  loc->set_key("location");
  loc->set_value("../outside.bin");
  std::string path = dir.Write("m/model.onnx", proto.SerializeAsString());
  auto st = Model::Load(path).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(
      st.message(),
      HasSubstr(path + ": graph initializer: external data '../outside.bin' of tensor 'W'"));
  EXPECT_THAT(st.message(), HasSubstr("contains '..'"));

  // A file with more bytes than FLOAT[2] takes is refused at load, naming both sizes.
  loc->set_value("w.bin");
  dir.Write("m/w.bin", std::string(12, '\0'));
  path = dir.Write("m/model.onnx", proto.SerializeAsString());
  auto longer = Model::Load(path).status();
  EXPECT_EQ(longer.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(longer.message(),
              HasSubstr("tensor 'W': external data 'w.bin' has 12 bytes but FLOAT[2] needs 8"));

  // A hard link to the file outside the folder is refused.
  ASSERT_EQ(link((dir.path() + "/outside.bin").c_str(), (dir.path() + "/m/hard.bin").c_str()), 0);
  loc->set_value("hard.bin");
  path = dir.Write("m/model.onnx", proto.SerializeAsString());
  EXPECT_THAT(Model::Load(path).status().message(), HasSubstr("is a hard link (2 names)"));

  loc->set_value("w.bin");
  dir.Write("m/w.bin", std::string(8, '\0'));
  path = dir.Write("m/model.onnx", proto.SerializeAsString());
  auto loaded = Model::Load(path);
  EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
}

TEST(ModelTest, DirectoryOf) {
  EXPECT_EQ(DirectoryOf("a/b/model.onnx"), "a/b");
  EXPECT_EQ(DirectoryOf("model.onnx"), ".");
  EXPECT_EQ(DirectoryOf("/model.onnx"), "/");
  EXPECT_EQ(NormalizeDomain("ai.onnx"), "");
  EXPECT_EQ(NormalizeDomain("ai.onnx.ml"), "ai.onnx.ml");
}

}  // namespace
}  // namespace onnxgate
