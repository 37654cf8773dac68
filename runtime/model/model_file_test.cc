// One read of a model file gives its bytes, proto and hashes. A golden's model_files_sha256 covers
// the model and every external data file it names, in a fixed order, so replacing a weights file
// changes it; the files are opened beneath the model's folder without following links, a FIFO
// among them is refused without blocking, and they are hashed and copied in pieces.
#include "runtime/model/model_file.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "runtime/base/sha256.h"
#include "runtime/model/model_test_util.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;

// A scratch folder whose files are named as the tests name them.
class TempDir : public ScratchDir {
 public:
  std::string File(const std::string& name) const { return path() + "/" + name; }
};

bool WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  return static_cast<bool>(out);
}

std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void AddExternal(onnx::GraphProto* g, const std::string& name, const std::string& location) {
  onnx::TensorProto* t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::FLOAT);
  t->add_dims(2);
  t->set_data_location(onnx::TensorProto::EXTERNAL);
  auto* entry = t->add_external_data();
  entry->set_key("location");
  entry->set_value(location);
}

// A model whose initializers live at `locations`, one more inside an If branch.
std::string Model(const std::vector<std::string>& locations,
                  const std::string& branch_location = "") {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  onnx::GraphProto* g = m.mutable_graph();
  g->set_name("weights");
  for (size_t i = 0; i < locations.size(); ++i)
    AddExternal(g, "w" + std::to_string(i), locations[i]);
  if (!branch_location.empty()) {
    onnx::NodeProto* node = g->add_node();
    node->set_op_type("If");
    onnx::AttributeProto* attr = node->add_attribute();
    attr->set_name("then_branch");
    attr->set_type(onnx::AttributeProto::GRAPH);
    AddExternal(attr->mutable_g(), "inner", branch_location);
  }
  return m.SerializeAsString();
}

TEST(ModelFileTest, ModelWithoutExternalData) {
  TempDir dir;
  std::string model = Model({});
  ASSERT_TRUE(WriteBytes(dir.File("m.onnx"), model));
  StatusOr<ModelFile> h = ModelFile::Read(dir.File("m.onnx"));
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->path(), dir.File("m.onnx"));
  EXPECT_EQ(h->bytes(), model);
  EXPECT_EQ(h->proto().graph().name(), "weights");
  EXPECT_EQ(h->ir_version(), 8);
  EXPECT_EQ(h->sha256(), Sha256Hex(model));
  EXPECT_TRUE(h->external_locations().empty());
  EXPECT_EQ(h->files_sha256(),
            Sha256Hex("onnxgate-model-files-v1\nmodel " + Sha256Hex(model) + "\n"));
  // Nothing to copy.
  EXPECT_TRUE(h->CopyExternalData(dir.File("copy")).ok());
  EXPECT_FALSE(fs::exists(dir.File("copy")));
}

// Opset imports and nodes as check-model and record show them: the default domain as "", unnamed
// nodes named as the session names them.
TEST(ModelFileTest, OpsetImportsAndNodes) {
  TempDir dir;
  ASSERT_TRUE(WriteBytes(dir.File("m.onnxtxt"),
                         "<ir_version: 8, opset_import: [\"ai.onnx\" : 13, \"ai.onnx.ml\" : 3]>\n"
                         "g (float[2] X) => (float[2] Y)\n"
                         "{\n  T = Relu(X)\n  Y = ai.onnx.Neg(T)\n}\n"));
  StatusOr<ModelFile> h = ModelFile::Read(dir.File("m.onnxtxt"));
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->opset_imports(),
            (std::vector<std::pair<std::string, int64_t>>{{"", 13}, {"ai.onnx.ml", 3}}));
  std::vector<ModelFile::Node> nodes = h->nodes();
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].name, "Relu#0");
  EXPECT_EQ(nodes[1].name, "Neg#1");
  EXPECT_EQ(nodes[1].op_type, "Neg");
  EXPECT_EQ(nodes[1].domain, "");
}

TEST(ModelFileTest, EveryExternalFileIsHashedInAFixedOrder) {
  TempDir dir;
  fs::create_directories(dir.File("sub"));
  std::string model = Model({"w.bin", "./sub/v.bin", "w.bin"}, "sub/v.bin");
  ASSERT_TRUE(WriteBytes(dir.File("m.onnx"), model));
  ASSERT_TRUE(WriteBytes(dir.File("w.bin"), std::string(8, '\x01')));
  ASSERT_TRUE(WriteBytes(dir.File("sub/v.bin"), std::string(8, '\x02')));
  StatusOr<ModelFile> h = ModelFile::Read(dir.File("m.onnx"));
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->external_locations(),
            (std::vector<std::string>{"w.bin", "./sub/v.bin", "sub/v.bin"}));
  const std::string w = Sha256Hex(std::string(8, '\x01')), v = Sha256Hex(std::string(8, '\x02'));
  EXPECT_EQ(h->files_sha256(), Sha256Hex("onnxgate-model-files-v1\nmodel " + Sha256Hex(model) +
                                         "\nfile " + v + " 9 sub/v.bin\nfile " + w + " 5 w.bin\n"));
  // The importer's way (hashes of bytes it holds) gives the same value.
  StatusOr<std::string> combined =
      CombineModelFilesSha256(Sha256Hex(model), {{"w.bin", w}, {"sub/v.bin", v}});
  ASSERT_TRUE(combined.ok());
  EXPECT_EQ(*combined, h->files_sha256());

  // Replacing a weights file changes the hash, not the model's own.
  ASSERT_TRUE(WriteBytes(dir.File("w.bin"), std::string(8, '\x03')));
  StatusOr<ModelFile> after = ModelFile::Read(dir.File("m.onnx"));
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->sha256(), h->sha256());
  EXPECT_NE(after->files_sha256(), h->files_sha256());
}

TEST(ModelFileTest, TextModelsNameExternalDataToo) {
  TempDir dir;
  ASSERT_TRUE(WriteBytes(dir.File("m.onnxtxt"),
                         "<ir_version: 8, opset_import: [\"\" : 13]>\n"
                         "g (float[2] X) => (float[2] Y)\n"
                         "<float[2] W = [\"location\": \"w.bin\"]>\n"
                         "{\n  Y = Add(X, W)\n}\n"));
  ASSERT_TRUE(WriteBytes(dir.File("w.bin"), std::string(8, '\x01')));
  StatusOr<ModelFile> h = ModelFile::Read(dir.File("m.onnxtxt"));
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->external_locations(), std::vector<std::string>{"w.bin"});
}

TEST(ModelFileTest, LinksOutsideLocationsAndFifosAreRefused) {
  TempDir dir;
  ASSERT_TRUE(WriteBytes(dir.File("real.bin"), std::string(8, '\x01')));
  auto message = [&](const std::string& location) {
    EXPECT_TRUE(WriteBytes(dir.File("m.onnx"), Model({location})));
    StatusOr<ModelFile> h = ModelFile::Read(dir.File("m.onnx"));
    EXPECT_FALSE(h.ok()) << location;
    return h.status().ToString();
  };
  fs::create_symlink(dir.File("real.bin"), dir.File("link.bin"));
  std::string link = message("link.bin");
  EXPECT_NE(link.find(dir.File("m.onnx")), std::string::npos) << link;
  EXPECT_NE(link.find("link.bin"), std::string::npos) << link;
  EXPECT_NE(link.find("symbolic link"), std::string::npos) << link;

  std::string outside = message("../secret.bin");
  EXPECT_NE(outside.find(dir.File("m.onnx") + ": tensor 'w0': external data"), std::string::npos)
      << outside;
  EXPECT_NE(outside.find("'../secret.bin'"), std::string::npos) << outside;
  EXPECT_NE(message("/etc/passwd").find("/etc/passwd"), std::string::npos);

  ASSERT_EQ(mkfifo(dir.File("fifo.bin").c_str(), 0600), 0);
  std::string fifo = message("fifo.bin");
  EXPECT_NE(fifo.find("FIFO"), std::string::npos) << fifo;

  std::string missing = message("none.bin");
  EXPECT_NE(missing.find("NOT_FOUND"), std::string::npos) << missing;
  EXPECT_NE(missing.find("none.bin"), std::string::npos) << missing;
}

// A model with FLOAT[2] initializers (8 bytes each) in one file, at the given offsets with an
// explicit length.
std::string ModelWithRanges(const std::string& location, const std::vector<int>& offsets) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  onnx::GraphProto* g = m.mutable_graph();
  g->set_name("ranges");
  for (size_t i = 0; i < offsets.size(); ++i) {
    AddExternal(g, "w" + std::to_string(i), location);
    onnx::TensorProto* t = g->mutable_initializer(static_cast<int>(i));
    auto* offset = t->add_external_data();
    offset->set_key("offset");
    offset->set_value(std::to_string(offsets[i]));
    auto* length = t->add_external_data();
    length->set_key("length");
    length->set_value("8");
  }
  return m.SerializeAsString();
}

// Makes `path` a sparse file of `bytes` bytes: no disk used, nothing to read but zeros.
bool SparseFile(const std::string& path, uint64_t bytes) {
  if (!WriteBytes(path, "")) return false;
  return ::truncate(path.c_str(), static_cast<off_t>(bytes)) == 0;
}

// A weights file far larger than the tensor its model declares is refused from its size, before
// a byte is hashed or read: a 1 TiB sparse file costs no time.
TEST(ModelFileTest, AnExternalFileLargerThanItsTensorIsRefusedUnhashed) {
  TempDir dir;
  ASSERT_TRUE(WriteBytes(dir.File("m.onnx"), Model({"big.bin"})));
  ASSERT_TRUE(SparseFile(dir.File("big.bin"), uint64_t{1} << 40));
  StatusOr<ModelFile> h = ModelFile::Read(dir.File("m.onnx"));
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.status().code(), StatusCode::kInvalidArgument);
  const std::string message = h.status().message();
  for (const std::string& part :
       {dir.File("m.onnx"), std::string("tensor 'w0'"),
        std::string("'big.bin' has 1099511627776 bytes"), std::string("needs 8")}) {
    EXPECT_NE(message.find(part), std::string::npos) << part << " in " << message;
  }
}

// With offset and length the tensor's range is right, but the bytes after it belong to no
// tensor: hashing them would cost the whole file, so the file is refused too.
TEST(ModelFileTest, BytesNoTensorUsesAreRefusedUnhashed) {
  TempDir dir;
  ASSERT_TRUE(WriteBytes(dir.File("m.onnx"), ModelWithRanges("big.bin", {0, 8})));
  ASSERT_TRUE(SparseFile(dir.File("big.bin"), uint64_t{1} << 40));
  StatusOr<ModelFile> h = ModelFile::Read(dir.File("m.onnx"));
  ASSERT_FALSE(h.ok());
  const std::string message = h.status().message();
  EXPECT_NE(message.find(dir.File("m.onnx") + ": external data file 'big.bin' has 1099511627776 "
                                              "bytes, but its tensors use only 16 (up to the end "
                                              "of tensor 'w1')"),
            std::string::npos)
      << message;

  // Tensors that fill their file exactly, in any order, are hashed.
  ASSERT_TRUE(WriteBytes(dir.File("m.onnx"), ModelWithRanges("./big.bin", {8, 0})));
  ASSERT_TRUE(WriteBytes(dir.File("big.bin"), std::string(16, '\x05')));
  h = ModelFile::Read(dir.File("m.onnx"));
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->external_locations(), std::vector<std::string>{"./big.bin"});
}

TEST(ModelFileTest, ModelThatDoesNotParseNamesTheFile) {
  TempDir dir;
  ASSERT_TRUE(WriteBytes(dir.File("m.onnx"), "not a model"));
  StatusOr<ModelFile> h = ModelFile::Read(dir.File("m.onnx"));
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(h.status().message().find(dir.File("m.onnx")), std::string::npos);
}

// External data larger than one piece is hashed and copied piece by piece; the copy lands under
// each location once ("./a/w.bin" and "a/w.bin" are one file) and hashes as the original did.
TEST(ModelFileTest, ExternalDataIsHashedAndCopiedInPieces) {
  TempDir dir;
  fs::create_directories(dir.File("a"));
  // 2.5 pieces of float data: one tensor of that many floats.
  const uint64_t bytes = kSha256ChunkBytes * 5 / 2;
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  m.mutable_graph()->set_name("big");
  AddExternal(m.mutable_graph(), "w", "./a/w.bin");
  m.mutable_graph()->mutable_initializer(0)->set_dims(0, static_cast<int64_t>(bytes / 4));
  AddExternal(m.mutable_graph(), "w_again", "a/w.bin");
  m.mutable_graph()->mutable_initializer(1)->set_dims(0, static_cast<int64_t>(bytes / 4));
  ASSERT_TRUE(WriteBytes(dir.File("m.onnx"), m.SerializeAsString()));
  std::string data(bytes, '\0');
  for (uint64_t i = 0; i < bytes; ++i) data[i] = static_cast<char>(i * 7 + i / 4096);
  ASSERT_TRUE(WriteBytes(dir.File("a/w.bin"), data));

  StatusOr<ModelFile> h = ModelFile::Read(dir.File("m.onnx"));
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->external_locations(), (std::vector<std::string>{"./a/w.bin", "a/w.bin"}));
  StatusOr<std::string> combined =
      CombineModelFilesSha256(h->sha256(), {{"a/w.bin", Sha256Hex(data)}});
  ASSERT_TRUE(combined.ok());
  EXPECT_EQ(h->files_sha256(), *combined);

  ASSERT_TRUE(h->CopyExternalData(dir.File("copy")).ok());
  EXPECT_EQ(FileBytes(dir.File("copy/a/w.bin")), data);
  EXPECT_EQ(fs::directory_iterator(dir.File("copy/a"))->path().filename(), "w.bin");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.File("copy")), fs::directory_iterator()), 1);
}

// A weights file edited between the read and the copy is not copied: the copy would not be the
// file the hashes (a golden's model_files_sha256) describe.
TEST(ModelFileTest, AnExternalFileChangedSinceTheReadIsNotCopied) {
  TempDir dir;
  ASSERT_TRUE(WriteBytes(dir.File("m.onnx"), Model({"w.bin"})));
  ASSERT_TRUE(WriteBytes(dir.File("w.bin"), std::string(8, '\x01')));
  StatusOr<ModelFile> h = ModelFile::Read(dir.File("m.onnx"));
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  ASSERT_TRUE(WriteBytes(dir.File("w.bin"), std::string(8, '\x02')));
  Status copied = h->CopyExternalData(dir.File("copy"));
  ASSERT_FALSE(copied.ok());
  EXPECT_EQ(copied.code(), StatusCode::kDataLoss);
  EXPECT_NE(copied.message().find(dir.File("m.onnx")), std::string::npos) << copied.message();
  EXPECT_NE(copied.message().find("'w.bin'"), std::string::npos) << copied.message();
  EXPECT_NE(copied.message().find("changed since it was read"), std::string::npos)
      << copied.message();
  EXPECT_FALSE(fs::exists(dir.File("copy/w.bin")));
  // Replaced by a link after the read: refused as the read would have refused it.
  fs::remove(dir.File("w.bin"));
  ASSERT_TRUE(WriteBytes(dir.File("real.bin"), std::string(8, '\x01')));
  fs::create_symlink(dir.File("real.bin"), dir.File("w.bin"));
  copied = h->CopyExternalData(dir.File("copy"));
  ASSERT_FALSE(copied.ok());
  EXPECT_NE(copied.message().find("symbolic link"), std::string::npos) << copied.message();
}

TEST(ModelFileTest, MissingOrNonRegularModelFilesAreRefused) {
  TempDir dir;
  StatusOr<ModelFile> missing = ModelFile::Read(dir.File("none.onnx"));
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find(dir.File("none.onnx")), std::string::npos);
  EXPECT_EQ(ModelFile::Read(dir.path()).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ModelFile::Read("/dev/zero").status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate
