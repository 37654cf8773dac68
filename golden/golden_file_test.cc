// Round trips of golden files: every ONNX tensor type, scalars, empty tensors, strings, sequences,
// optionals, awkward names, tolerances, many sets; and the HDF5 types h5py and h5dump see.
#include "golden/golden_file.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

#include "golden/golden_test_util.h"
#include "golden/hdf5_handle.h"
#include "runtime/base/sha256.h"

namespace onnxgate {
namespace {

using testing_util::TempDir;
using testing_util::ValueDifference;

template <typename T>
Value TensorValue(Shape shape, std::vector<T> values) {
  return Value::FromTensor(Tensor::FromVector<T>(std::move(shape), values));
}

template <typename Half>
std::vector<Half> Bits(std::initializer_list<uint16_t> bits) {
  std::vector<Half> out;
  for (uint16_t b : bits) out.push_back(Half{b});
  return out;
}

// One value of every ONNX tensor type, with the values that are easy to get wrong.
std::vector<GoldenValue> EveryType() {
  const float kInf = std::numeric_limits<float>::infinity();
  const double kNaN = std::numeric_limits<double>::quiet_NaN();
  std::vector<Value> values = {
      TensorValue<float>({2, 3}, {1.5f, -0.0f, kInf, -kInf, std::nanf(""), 1e-45f}),
      TensorValue<double>({3}, {kNaN, -1e308, 4.9e-324}),
      // IEEE half: 1.0, -2.0, +inf, a NaN with payload, the smallest subnormal, -0.
      TensorValue<Float16>({2, 3}, Bits<Float16>({0x3c00, 0xc000, 0x7c00, 0x7e01, 0x0001, 0x8000})),
      TensorValue<BFloat16>({2, 2}, Bits<BFloat16>({0x3f80, 0xff80, 0x7fc1, 0x0001})),
      TensorValue<int8_t>({2}, {-128, 127}),
      TensorValue<int16_t>({2}, {-32768, 32767}),
      TensorValue<int32_t>({2}, {std::numeric_limits<int32_t>::min(), 7}),
      TensorValue<int64_t>(
          {2}, {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}),
      TensorValue<uint8_t>({3}, {0, 1, 255}),
      TensorValue<uint16_t>({1}, {65535}),
      TensorValue<uint32_t>({1}, {4294967295u}),
      TensorValue<uint64_t>({2}, {0, std::numeric_limits<uint64_t>::max()}),
      TensorValue<bool>({2, 2}, {true, false, false, true}),
      TensorValue<std::string>({2, 2}, {"plain", "h\xC3\xA9llo w\xC3\xB6rld", "",
                                        "\xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x98\x80"}),
      TensorValue<std::complex<float>>({2}, {{1.f, -2.f}, {0.5f, kInf}}),
      TensorValue<std::complex<double>>({1, 2}, {{1e-300, -3.0}, {kNaN, 2.0}}),
      // The 8-bit floats: max, NaN, -0 (where it exists), infinity (E5M2), the smallest subnormal.
      TensorValue<Float8E4M3FN>(
          {2, 2}, {Float8E4M3FN{0x7E}, Float8E4M3FN{0x7F}, Float8E4M3FN{0x80}, Float8E4M3FN{0x01}}),
      TensorValue<Float8E4M3FNUZ>(
          {3}, {Float8E4M3FNUZ{0x80}, Float8E4M3FNUZ{0xFF}, Float8E4M3FNUZ{0x01}}),
      TensorValue<Float8E5M2>({3}, {Float8E5M2{0x7C}, Float8E5M2{0xFC}, Float8E5M2{0x7F}}),
      TensorValue<Float8E5M2FNUZ>({2}, {Float8E5M2FNUZ{0x80}, Float8E5M2FNUZ{0x7F}}),
      TensorValue<Float8E8M0>({3}, {Float8E8M0{0}, Float8E8M0{127}, Float8E8M0{0xFF}}),
      // Packed types with odd counts, so that a padding nibble / crumb exists.
      Value::FromTensor(Tensor::FromFloat4({5}, {Float4E2M1{0x7}, Float4E2M1{0xF}, Float4E2M1{0x8},
                                                 Float4E2M1{0x1}, Float4E2M1{0x5}})),
      Value::FromTensor(*Tensor::FromSubByteInts(DataType::kInt4, {5}, {-8, 7, -1, 0, 3})),
      Value::FromTensor(*Tensor::FromSubByteInts(DataType::kUint4, {3}, {0, 15, 9})),
      Value::FromTensor(*Tensor::FromSubByteInts(DataType::kInt2, {2, 3}, {-2, 1, -1, 0, 1, -2})),
      Value::FromTensor(*Tensor::FromSubByteInts(DataType::kUint2, {7}, {0, 1, 2, 3, 3, 2, 1})),
  };
  std::vector<GoldenValue> out;
  for (size_t i = 0; i < values.size(); ++i) {
    out.push_back({std::string("v_") + DataTypeName(values[i].elem_type()), static_cast<int64_t>(i),
                   values[i], std::nullopt, std::nullopt});
  }
  return out;
}

GoldenFile BaseGolden() {
  GoldenFile g;
  g.producer = "unit test 1.0";
  g.model_sha256 = Sha256Hex("model bytes");
  g.opset_imports = {{"", 13}, {"ai.onnx.ml", 3}};
  g.created = "2026-11-21T03:00:00Z";
  g.source = "written by golden_file_test";
  return g;
}

GoldenFile RoundTrip(const GoldenFile& golden, const std::string& path) {
  Status written = WriteGolden(path, golden);
  EXPECT_TRUE(written.ok()) << written.ToString();
  StatusOr<GoldenFile> read = ReadGolden(path);
  EXPECT_TRUE(read.ok()) << read.status().ToString();
  return read.ok() ? std::move(read).value() : GoldenFile();
}

void ExpectSameValues(const std::vector<GoldenValue>& expected,
                      const std::vector<GoldenValue>& actual) {
  ASSERT_EQ(expected.size(), actual.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE(expected[i].name);
    EXPECT_EQ(expected[i].name, actual[i].name);
    EXPECT_EQ(expected[i].index, actual[i].index);
    EXPECT_EQ(expected[i].rtol, actual[i].rtol);
    EXPECT_EQ(expected[i].atol, actual[i].atol);
    EXPECT_EQ(ValueDifference(expected[i].value, actual[i].value), "");
  }
}

TEST(GoldenFileTest, RoundTripsEveryTensorType) {
  TempDir dir;
  GoldenFile g = BaseGolden();
  g.sets.push_back({EveryType(), EveryType(), {}});
  GoldenFile back = RoundTrip(g, dir.File("every_type.h5"));
  EXPECT_EQ(back.producer, g.producer);
  EXPECT_EQ(back.model_sha256, g.model_sha256);
  EXPECT_EQ(back.opset_imports, g.opset_imports);
  EXPECT_EQ(back.created, g.created);
  EXPECT_EQ(back.source, g.source);
  ASSERT_EQ(back.sets.size(), 1u);
  ExpectSameValues(g.sets[0].inputs, back.sets[0].inputs);
  ExpectSameValues(g.sets[0].outputs, back.sets[0].outputs);
}

TEST(GoldenFileTest, RoundTripsScalarsAndEmptyTensors) {
  TempDir dir;
  GoldenFile g = BaseGolden();
  GoldenSet set;
  int64_t index = 0;
  for (const GoldenValue& v : EveryType()) {
    DataType dtype = v.value.elem_type();
    // A scalar holding the first element, and empty tensors of two shapes.
    Tensor scalar(dtype, Shape{});
    if (dtype == DataType::kString) {
      scalar.mutable_data<std::string>()[0] = v.value.tensor().data<std::string>()[0];
    } else if (IsPackedSubByte(dtype)) {
      scalar.SetPackedCode(0, v.value.tensor().PackedCode(0));
    } else {
      std::memcpy(scalar.mutable_raw_data(), v.value.tensor().raw_data(), DataTypeSize(dtype));
    }
    set.inputs.push_back({v.name + "_scalar", index++, Value::FromTensor(scalar), {}, {}});
    set.inputs.push_back(
        {v.name + "_empty", index++, Value::FromTensor(Tensor(dtype, Shape{0})), {}, {}});
    set.outputs.push_back(
        {v.name + "_empty3d", index++, Value::FromTensor(Tensor(dtype, Shape{2, 0, 3})), {}, {}});
  }
  g.sets.push_back(set);
  GoldenFile back = RoundTrip(g, dir.File("scalars.h5"));
  ASSERT_EQ(back.sets.size(), 1u);
  ExpectSameValues(set.inputs, back.sets[0].inputs);
  ExpectSameValues(set.outputs, back.sets[0].outputs);
}

TEST(GoldenFileTest, RoundTripsSequencesAndOptionals) {
  TempDir dir;
  GoldenFile g = BaseGolden();
  Tensor a = Tensor::FromVector<int64_t>({2}, {1, 2});
  Tensor b = Tensor::FromVector<int64_t>({1, 3}, {3, 4, 5});
  std::vector<Tensor> many;
  for (int i = 0; i < 12; ++i) many.push_back(Tensor::Scalar<float>(static_cast<float>(i)));
  Value strings = Value::FromSequence(
      DataType::kString, {Tensor::FromVector<std::string>({2}, {"x", "\xCE\xB1\xCE\xB2"})});
  GoldenSet set;
  set.inputs = {
      {"seq", 0, Value::FromSequence(DataType::kInt64, {a, b}), {}, {}},
      {"seq_empty", 1, Value::FromSequence(DataType::kFloat, {}), {}, {}},
      {"seq_twelve",
       2,
       Value::FromSequence(DataType::kFloat, many),
       {},
       {}},  // "10" sorts before "2"
      {"seq_strings", 3, strings, {}, {}},
      {"opt_tensor", 4, Value::OptionalOf(Value::FromTensor(b)), {}, {}},
      {"opt_none", 5, Value::OptionalNone(Value::Kind::kTensor, DataType::kInt32), {}, {}},
  };
  set.outputs = {
      {"opt_seq", 0, Value::OptionalOf(Value::FromSequence(DataType::kInt64, {a})), {}, {}},
      {"opt_seq_none", 1, Value::OptionalNone(Value::Kind::kSequence, DataType::kBFloat16), {}, {}},
      {"opt_seq_empty", 2, Value::OptionalOf(Value::FromSequence(DataType::kDouble, {})), {}, {}},
  };
  g.sets.push_back(set);
  GoldenFile back = RoundTrip(g, dir.File("containers.h5"));
  ASSERT_EQ(back.sets.size(), 1u);
  ExpectSameValues(set.inputs, back.sets[0].inputs);
  ExpectSameValues(set.outputs, back.sets[0].outputs);
}

TEST(GoldenFileTest, KeepsSetOrderIndexOrderNamesAndTolerances) {
  TempDir dir;
  GoldenFile g = BaseGolden();
  g.source.clear();
  g.opset_imports = {{"", 17}};
  for (int i = 0; i < 12; ++i) {
    GoldenSet set;
    // Written in reverse index order; read back sorted by index.
    set.inputs = {{".starts_with_dot", 2, Value::FromTensor(Tensor::Scalar<int32_t>(i)), {}, {}},
                  {"has/slash", 1, Value::FromTensor(Tensor::Scalar<int32_t>(-i)), {}, {}},
                  {"100%", 0, Value::FromTensor(Tensor::Scalar<int32_t>(2 * i)), {}, {}}};
    set.outputs = {{"y", 0, Value::FromTensor(Tensor::Scalar<float>(0.5f * i)), 1e-2, 1e-5},
                   {"z.w", 1, Value::FromTensor(Tensor::Scalar<float>(1.f)), std::nullopt, 0.25}};
    g.sets.push_back(set);
  }
  GoldenFile back = RoundTrip(g, dir.File("order.h5"));
  EXPECT_EQ(back.source, "");
  EXPECT_EQ(back.opset_imports, g.opset_imports);
  ASSERT_EQ(back.sets.size(), 12u);
  for (int i = 0; i < 12; ++i) {
    SCOPED_TRACE(i);
    const GoldenSet& set = back.sets[static_cast<size_t>(i)];
    ASSERT_EQ(set.inputs.size(), 3u);
    EXPECT_EQ(set.inputs[0].name, "100%");
    EXPECT_EQ(set.inputs[1].name, "has/slash");
    EXPECT_EQ(set.inputs[2].name, ".starts_with_dot");
    EXPECT_EQ(set.inputs[2].value.tensor().data<int32_t>()[0], i);
    ExpectSameValues(g.sets[static_cast<size_t>(i)].outputs, set.outputs);
  }
}

TEST(GoldenFileTest, FillsCreatedWithNow) {
  TempDir dir;
  GoldenFile g = BaseGolden();
  g.created.clear();
  GoldenFile back = RoundTrip(g, dir.File("now.h5"));
  EXPECT_TRUE(IsUtcTimestamp(back.created)) << back.created;
  EXPECT_EQ(back.created.substr(0, 2), "20");
}

TEST(GoldenFileTest, SameContentGivesSameBytes) {
  TempDir dir;
  GoldenFile g = BaseGolden();
  g.sets.push_back({EveryType(), EveryType(), {}});
  ASSERT_TRUE(WriteGolden(dir.File("a.h5"), g).ok());
  ASSERT_TRUE(WriteGolden(dir.File("b.h5"), g).ok());
  std::string a = testing_util::FileBytes(dir.File("a.h5"));
  EXPECT_FALSE(a.empty());
  EXPECT_TRUE(a == testing_util::FileBytes(dir.File("b.h5")));
}

// The HDF5 types are the ones the format names, so that h5py maps them to the right numpy dtypes.
TEST(GoldenFileTest, UsesTheDocumentedHdf5Types) {
  TempDir dir;
  GoldenFile g = BaseGolden();
  g.sets.push_back({EveryType(), {}, {}});
  std::string path = dir.File("types.h5");
  ASSERT_TRUE(WriteGolden(path, g).ok());
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  auto type_of = [&](const std::string& name) {
    hid_t dataset = H5Dopen2(file, ("/sets/0/inputs/" + name).c_str(), H5P_DEFAULT);
    EXPECT_GE(dataset, 0) << name;
    hid_t type = H5Dget_type(dataset);
    H5Dclose(dataset);
    return type;
  };
  hid_t half = type_of("v_FLOAT16");
  size_t spos, epos, esize, mpos, msize;
  ASSERT_GE(H5Tget_fields(half, &spos, &epos, &esize, &mpos, &msize), 0);
  EXPECT_EQ(H5Tget_class(half), H5T_FLOAT);
  EXPECT_EQ(H5Tget_size(half), 2u);
  EXPECT_EQ(H5Tget_precision(half), 16u);
  EXPECT_EQ(H5Tget_ebias(half), 15u);
  EXPECT_EQ(spos, 15u);
  EXPECT_EQ(epos, 10u);
  EXPECT_EQ(esize, 5u);
  EXPECT_EQ(mpos, 0u);
  EXPECT_EQ(msize, 10u);
  H5Tclose(half);
  struct Expected {
    const char* name;
    hid_t type;
  };
  for (const Expected& e :
       {Expected{"v_FLOAT", H5T_IEEE_F32LE}, Expected{"v_DOUBLE", H5T_IEEE_F64LE},
        Expected{"v_BFLOAT16", H5T_STD_U16LE}, Expected{"v_BOOL", H5T_STD_U8LE},
        Expected{"v_INT8", H5T_STD_I8LE}, Expected{"v_UINT64", H5T_STD_U64LE}}) {
    hid_t t = type_of(e.name);
    EXPECT_GT(H5Tequal(t, e.type), 0) << e.name;
    H5Tclose(t);
  }
  // The new types: codes as uint8, sub-byte integers unpacked as int8 / uint8, one per element.
  for (const Expected& e :
       {Expected{"v_FLOAT8E4M3FN", H5T_STD_U8LE}, Expected{"v_FLOAT8E4M3FNUZ", H5T_STD_U8LE},
        Expected{"v_FLOAT8E5M2", H5T_STD_U8LE}, Expected{"v_FLOAT8E5M2FNUZ", H5T_STD_U8LE},
        Expected{"v_FLOAT8E8M0", H5T_STD_U8LE}, Expected{"v_FLOAT4E2M1", H5T_STD_U8LE},
        Expected{"v_INT4", H5T_STD_I8LE}, Expected{"v_UINT4", H5T_STD_U8LE},
        Expected{"v_INT2", H5T_STD_I8LE}, Expected{"v_UINT2", H5T_STD_U8LE}}) {
    hid_t t = type_of(e.name);
    EXPECT_GT(H5Tequal(t, e.type), 0) << e.name;
    H5Tclose(t);
  }
  // What a numpy user sees: INT4 values one per element, FLOAT4E2M1 codes one per element.
  auto read_bytes = [&](const std::string& name, hid_t mem_type, void* out) {
    hid_t dataset = H5Dopen2(file, ("/sets/0/inputs/" + name).c_str(), H5P_DEFAULT);
    EXPECT_GE(H5Dread(dataset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out), 0) << name;
    H5Dclose(dataset);
  };
  int8_t int4[5];
  read_bytes("v_INT4", H5T_NATIVE_INT8, int4);
  EXPECT_EQ(std::vector<int8_t>(int4, int4 + 5), (std::vector<int8_t>{-8, 7, -1, 0, 3}));
  uint8_t fp4[5];
  read_bytes("v_FLOAT4E2M1", H5T_NATIVE_UINT8, fp4);
  EXPECT_EQ(std::vector<uint8_t>(fp4, fp4 + 5), (std::vector<uint8_t>{0x7, 0xF, 0x8, 0x1, 0x5}));
  uint8_t e5m2[3];
  read_bytes("v_FLOAT8E5M2", H5T_NATIVE_UINT8, e5m2);
  EXPECT_EQ(e5m2[0], 0x7C);
  hid_t str = type_of("v_STRING");
  EXPECT_GT(H5Tis_variable_str(str), 0);
  EXPECT_EQ(H5Tget_cset(str), H5T_CSET_UTF8);
  H5Tclose(str);
  hid_t complex = type_of("v_COMPLEX128");
  ASSERT_EQ(H5Tget_class(complex), H5T_COMPOUND);
  EXPECT_EQ(H5Tget_member_index(complex, "r"), 0);
  EXPECT_EQ(H5Tget_member_index(complex, "i"), 1);
  EXPECT_EQ(H5Tget_size(complex), 16u);
  H5Tclose(complex);
  H5Fclose(file);
}

TEST(GoldenFileTest, H5dumpPrintsTheFile) {
  if (!testing_util::HaveCommand("h5dump"))
    GTEST_SKIP() << "h5dump (package hdf5-tools) is not installed";
  TempDir dir;
  GoldenFile g = BaseGolden();
  g.sets.push_back({EveryType(), EveryType(), {}});
  g.sets[0].outputs.push_back(
      {"seq", 100, Value::FromSequence(DataType::kInt64, {Tensor::Scalar<int64_t>(5)}), {}, {}});
  std::string path = dir.File("dump.h5");
  ASSERT_TRUE(WriteGolden(path, g).ok());
  testing_util::CommandResult dump = testing_util::RunCommand("h5dump '" + path + "'");
  EXPECT_EQ(dump.exit_code, 0) << dump.output;
  EXPECT_NE(dump.output.find("\"onnxgate-golden\""), std::string::npos);
  EXPECT_NE(dump.output.find("\"ai.onnx:13,ai.onnx.ml:3\""), std::string::npos);
  EXPECT_NE(dump.output.find("DATASET \"v_FLOAT16\""), std::string::npos);
  EXPECT_EQ(dump.output.find("error"), std::string::npos) << dump.output;
}

TEST(GoldenFileTest, ReadsAndWritesFromManyThreads) {
  TempDir dir;
  GoldenFile g = BaseGolden();
  g.sets.push_back({EveryType(), EveryType(), {}});
  ASSERT_TRUE(WriteGolden(dir.File("shared.h5"), g).ok());
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 5; ++i) {
        StatusOr<GoldenFile> read = ReadGolden(dir.File("shared.h5"));
        if (!read.ok() ||
            ValueDifference(g.sets[0].outputs[13].value, read->sets[0].outputs[13].value) != "") {
          ++failures;
        }
        if (!WriteGolden(dir.File("own" + std::to_string(t) + ".h5"), g).ok()) ++failures;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(GoldenNamesTest, EncodesWhatHdf5CannotHold) {
  EXPECT_EQ(EncodeGoldenName("x"), "x");
  EXPECT_EQ(EncodeGoldenName("a/b"), "a%2Fb");
  EXPECT_EQ(EncodeGoldenName("50%"), "50%25");
  EXPECT_EQ(EncodeGoldenName(".x.y"), "%2Ex.y");
  EXPECT_EQ(EncodeGoldenName("."), "%2E");
  for (const std::string name : {"x", "a/b", "50%", ".x.y", "%2F", "/./"}) {
    StatusOr<std::string> back = DecodeGoldenName(EncodeGoldenName(name));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, name);
  }
  EXPECT_FALSE(DecodeGoldenName("bad%2").ok());
  EXPECT_FALSE(DecodeGoldenName("bad%zz").ok());
}

TEST(GoldenOpsetImportsTest, FormatsAndParses) {
  std::vector<std::pair<std::string, int64_t>> imports = {
      {"", 13}, {"ai.onnx.ml", 3}, {"com.x", 1}};
  EXPECT_EQ(FormatOpsetImports(imports), "ai.onnx:13,ai.onnx.ml:3,com.x:1");
  StatusOr<std::vector<std::pair<std::string, int64_t>>> parsed =
      ParseOpsetImports("ai.onnx:13,ai.onnx.ml:3,com.x:1");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*parsed, imports);
  EXPECT_TRUE(ParseOpsetImports("")->empty());
  for (const char* bad : {"ai.onnx", "ai.onnx:", ":13", "ai.onnx:x", "ai.onnx:13,", "ai.onnx:-1"}) {
    EXPECT_FALSE(ParseOpsetImports(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace onnxgate
