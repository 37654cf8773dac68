// Feeds for users' models on the built-in runtime: generated with --dim sizes, read from .pb
// files and an .npz, and every mismatch refused naming the file and what does not fit.
#include "harness/models/model_feeds.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <zip.h>

#include <cstring>
#include <filesystem>

#include "harness/harness_test_util.h"
#include "runtime/base/atomic_file.h"
#include "runtime/builtin/builtin_runtime.h"

namespace onnxgate {
namespace {

constexpr char kBatchModel[] = R"(<ir_version: 8, opset_import: ["" : 17]>
batch_relu (float[batch, 3] X, int64[2] K) => (float[batch, 3] Y, int64[2] L) {
  Y = Relu(X)
  L = Identity(K)
})";

std::string TensorProtoFile(const std::string& name, const std::vector<int64_t>& dims,
                            const std::vector<float>& values) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t.add_dims(d);
  for (float v : values) t.add_float_data(v);
  return t.SerializeAsString();
}

std::string Int64ProtoFile(const std::string& name, const std::vector<int64_t>& values) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::INT64);
  t.add_dims(static_cast<int64_t>(values.size()));
  for (int64_t v : values) t.add_int64_data(v);
  return t.SerializeAsString();
}

class ModelFeedsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = TestRootFor("feeds");
    std::filesystem::create_directories(dir_);
    model_path_ = dir_ + "/batch_relu.onnxtxt";
    ASSERT_TRUE(WriteFileAtomically(model_path_, kBatchModel).ok());
    runtime_ = CreateBuiltinRuntime();
    auto loaded = runtime_->Load(model_path_, LoadOptions{});
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    model_ = std::move(loaded).value();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& bytes) {
    EXPECT_TRUE(WriteFileAtomically(dir_ + "/" + name, bytes).ok());
    return dir_ + "/" + name;
  }
  std::string dir_;
  std::string model_path_;
  std::unique_ptr<RuntimeUnderTest> runtime_;
  std::unique_ptr<LoadedModel> model_;
};

TEST_F(ModelFeedsTest, GeneratesInputsWithTheNamedDimensionSized) {
  auto feeds = MakeModelFeeds(*model_, model_path_, FeedSource{{}, {{"batch", 4}}, 7});
  ASSERT_TRUE(feeds.ok()) << feeds.status().ToString();
  ASSERT_EQ(feeds->size(), 2u);
  EXPECT_EQ((*feeds)[0].name, "X");
  EXPECT_EQ((*feeds)[0].value.tensor().shape(), Shape({4, 3}));
  auto again = MakeModelFeeds(*model_, model_path_, FeedSource{{}, {{"batch", 4}}, 7});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(std::memcmp((*feeds)[0].value.tensor().raw_data(),
                        (*again)[0].value.tensor().raw_data(), 12 * sizeof(float)),
            0);
}

TEST_F(ModelFeedsTest, ADimTooLargeToGenerateIsAnError) {
  auto feeds = MakeModelFeeds(*model_, model_path_, FeedSource{{}, {{"batch", 999999999999}}, 7});
  ASSERT_FALSE(feeds.ok());
  EXPECT_EQ(feeds.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(feeds.status().message().find("input 'X' cannot be generated"), std::string::npos)
      << feeds.status().message();
}

TEST_F(ModelFeedsTest, ADimTheModelDoesNotHaveIsAnError) {
  auto feeds = MakeModelFeeds(*model_, model_path_, FeedSource{{}, {{"seq", 4}}, 7});
  ASSERT_FALSE(feeds.ok());
  EXPECT_EQ(feeds.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(feeds.status().message().find("no input dimension named 'seq'"), std::string::npos)
      << feeds.status().message();
  EXPECT_NE(feeds.status().message().find("batch"), std::string::npos);
}

TEST_F(ModelFeedsTest, ReadsTensorProtoFilesByNameInAnyOrder) {
  const std::string k = Write("k.pb", Int64ProtoFile("K", {5, 6}));
  const std::string x = Write("x.pb", TensorProtoFile("X", {2, 3}, {-1, 2, -3, 4, -5, 6}));
  auto feeds = MakeModelFeeds(*model_, model_path_, FeedSource{{k, x}, {}, 0});
  ASSERT_TRUE(feeds.ok()) << feeds.status().ToString();
  EXPECT_EQ((*feeds)[0].name, "X");
  EXPECT_EQ((*feeds)[0].value.tensor().shape(), Shape({2, 3}));
  EXPECT_EQ((*feeds)[1].value.tensor().data<int64_t>()[1], 6);
}

TEST_F(ModelFeedsTest, RefusesInputsThatDoNotFitTheModel) {
  const std::string k = Write("k.pb", Int64ProtoFile("K", {5, 6}));
  struct Bad {
    std::vector<std::string> files;
    DimSizes dims;
    std::string says;
  };
  const std::vector<Bad> bads = {
      {{Write("wide.pb", TensorProtoFile("X", {2, 4}, std::vector<float>(8))), k},
       {},
       "dimension 1 is 4, the model fixes it at 3"},
      {{Write("rank.pb", TensorProtoFile("X", {6}, std::vector<float>(6))), k}, {}, "rank 2"},
      {{Write("batch.pb", TensorProtoFile("X", {2, 3}, std::vector<float>(6))), k},
       {{"batch", 4}},
       "--dim batch=4"},
      {{Write("type.pb", Int64ProtoFile("X", {1, 2, 3})), k}, {}, "the model declares float"},
      {{Write("other.pb", TensorProtoFile("Z", {1, 3}, std::vector<float>(3))), k},
       {},
       "tensor 'Z' is not an input"},
      {{k}, {}, "input 'X' is not given"},
      {{Write("garbage.pb", std::string("\xff\xff\xff\xff", 4))}, {}, "not a serialized"},
      {{Write("inputs.txt", "x")}, {}, "TensorProto .pb or a NumPy .npz"},
  };
  for (const Bad& bad : bads) {
    auto feeds = MakeModelFeeds(*model_, model_path_, FeedSource{bad.files, bad.dims, 0});
    ASSERT_FALSE(feeds.ok()) << bad.says;
    EXPECT_EQ(feeds.status().code(), StatusCode::kInvalidArgument) << feeds.status().ToString();
    EXPECT_NE(feeds.status().message().find(bad.says), std::string::npos)
        << feeds.status().message();
  }
}

TEST_F(ModelFeedsTest, AnNpzMustHoldExactlyTheInputs) {
  auto npy = [](const std::string& descr, const std::string& shape, const std::string& data) {
    std::string header =
        "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }\n";
    std::string out = "\x93NUMPY";
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(header.size());
    out += '\x00';
    return out + header + data;
  };
  auto write_npz = [this](const std::string& name,
                          const std::vector<std::pair<std::string, std::string>>& members) {
    const std::string path = dir_ + "/" + name;
    int error = 0;
    zip_t* zip = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
    EXPECT_NE(zip, nullptr);
    for (const auto& [member, bytes] : members) {
      void* copy = std::malloc(bytes.size());
      std::memcpy(copy, bytes.data(), bytes.size());
      zip_file_add(zip, member.c_str(), zip_source_buffer(zip, copy, bytes.size(), 1), 0);
    }
    EXPECT_EQ(zip_close(zip), 0);
    return path;
  };
  const std::string x = npy("<f4", "(1, 3)", std::string(12, '\0'));
  const std::string k = npy("<i8", "(2,)", std::string(16, '\0'));
  auto ok = MakeModelFeeds(*model_, model_path_,
                           FeedSource{{write_npz("ok.npz", {{"X.npy", x}, {"K.npy", k}})}, {}, 0});
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ((*ok)[0].value.tensor().shape(), Shape({1, 3}));

  auto extra = MakeModelFeeds(
      *model_, model_path_,
      FeedSource{{write_npz("extra.npz", {{"X.npy", x}, {"K.npy", k}, {"Q.npy", k}})}, {}, 0});
  ASSERT_FALSE(extra.ok());
  EXPECT_NE(extra.status().message().find("array 'Q' is not an input"), std::string::npos)
      << extra.status().message();
  auto missing = MakeModelFeeds(*model_, model_path_,
                                FeedSource{{write_npz("missing.npz", {{"X.npy", x}})}, {}, 0});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("input 'K' is not given"), std::string::npos)
      << missing.status().message();
}

TEST(ParseDimFlagsTest, ReadsSizesAndRefusesMalformedFlags) {
  auto dims = ParseDimFlags({"batch=1,4,16", "seq=8"});
  ASSERT_TRUE(dims.ok()) << dims.status().ToString();
  EXPECT_EQ(dims->at("batch"), (std::vector<int64_t>{1, 4, 16}));
  EXPECT_EQ(dims->at("seq"), (std::vector<int64_t>{8}));
  for (const char* bad :
       {"batch", "=4", "batch=", "batch=0", "batch=1,,2", "batch=x", "batch=99999999999999"}) {
    EXPECT_FALSE(ParseDimFlags({bad}).ok()) << bad;
  }
  EXPECT_FALSE(ParseDimFlags({"batch=1", "batch=2"}).ok());
  auto fixed = ParseFixedDimFlags({"batch=4"});
  ASSERT_TRUE(fixed.ok());
  EXPECT_EQ(fixed->at("batch"), 4);
  EXPECT_FALSE(ParseFixedDimFlags({"batch=1,4"}).ok());
}

TEST(ParseInputRangeFlagsTest, ReadsRangesAndRefusesMalformedFlags) {
  auto ranges = ParseInputRangeFlags({"input_ids=0:30522", "offset=-4:4"});
  ASSERT_TRUE(ranges.ok()) << ranges.status().ToString();
  EXPECT_EQ(ranges->at("input_ids"), std::make_pair(int64_t{0}, int64_t{30522}));
  EXPECT_EQ(ranges->at("offset"), std::make_pair(int64_t{-4}, int64_t{4}));
  for (const char* bad : {"ids", "=0:4", "ids=", "ids=4", "ids=0:", "ids=:4", "ids=a:b", "ids=1:1",
                          "ids=5:2", "ids=-:4", "ids=0:9999999999999999999"}) {
    EXPECT_FALSE(ParseInputRangeFlags({bad}).ok()) << bad;
  }
  auto twice = ParseInputRangeFlags({"ids=0:4", "ids=0:5"});
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("given twice"), std::string::npos);
}

// Generated integer inputs take a given range over the metadata's; a range for an input the
// model lacks, or for one that is not an integer, is an error naming it.
TEST_F(ModelFeedsTest, GeneratedIntegersTakeTheGivenRange) {
  auto feeds = MakeModelFeeds(*model_, model_path_, FeedSource{{}, {}, 3}, {{"K", {7, 8}}});
  ASSERT_TRUE(feeds.ok()) << feeds.status().ToString();
  const Tensor& k = (*feeds)[1].value.tensor();
  EXPECT_EQ(k.data<int64_t>()[0], 7);
  EXPECT_EQ(k.data<int64_t>()[1], 7);
  auto unknown = MakeModelFeeds(*model_, model_path_, FeedSource{{}, {}, 3}, {{"Q", {0, 2}}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("has no input 'Q' (its inputs: X, K)"),
            std::string::npos)
      << unknown.status().message();
  auto real = MakeModelFeeds(*model_, model_path_, FeedSource{{}, {}, 3}, {{"X", {0, 2}}});
  ASSERT_FALSE(real.ok());
  EXPECT_NE(real.status().message().find("is FLOAT; ranges apply to integer inputs"),
            std::string::npos)
      << real.status().message();
}

}  // namespace
}  // namespace onnxgate
