// Tests for TensorProto/SequenceProto/OptionalProto conversion: every type, raw and typed fields,
// and each rule that refuses malformed data.
#include "runtime/proto/tensor_proto.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx-data.pb.h>
#include <onnx/onnx_pb.h>

#include <cstdio>
#include <fstream>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

onnx::TensorProto Proto(DataType type, std::vector<int64_t> dims, const std::string& name = "t") {
  onnx::TensorProto p;
  p.set_name(name);
  p.set_data_type(static_cast<int32_t>(type));
  for (int64_t d : dims) p.add_dims(d);
  return p;
}

template <typename T>
void ExpectRoundTrip(const std::vector<T>& values) {
  Tensor t = Tensor::FromVector<T>(Shape({static_cast<int64_t>(values.size())}), values);
  onnx::TensorProto p = TensorToProto(t, "x");
  EXPECT_EQ(p.name(), "x");
  auto back = TensorFromProto(p);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->dtype(), t.dtype());
  ASSERT_EQ(back->shape(), t.shape());
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(back->ElementToString(i), t.ElementToString(i))
        << DataTypeName(t.dtype()) << " " << i;
  }
}

TEST(TensorProtoTest, RawDataRoundTripsEveryType) {
  ExpectRoundTrip<float>({1.5f, -2.f, 3.25f});
  ExpectRoundTrip<double>({1e300, -0.5});
  ExpectRoundTrip<Float16>({Float16::FromFloat(1.5f), Float16::FromFloat(-3.f)});
  ExpectRoundTrip<BFloat16>({BFloat16::FromFloat(2.f), BFloat16::FromFloat(-0.25f)});
  ExpectRoundTrip<int8_t>({-128, 127});
  ExpectRoundTrip<int16_t>({-32768, 5});
  ExpectRoundTrip<int32_t>({INT32_MIN, 7});
  ExpectRoundTrip<int64_t>({INT64_MIN, INT64_MAX});
  ExpectRoundTrip<uint8_t>({0, 255});
  ExpectRoundTrip<uint16_t>({65535, 1});
  ExpectRoundTrip<uint32_t>({UINT32_MAX, 3});
  ExpectRoundTrip<uint64_t>({UINT64_MAX, 9});
  ExpectRoundTrip<bool>({true, false, true});
  ExpectRoundTrip<std::string>({"a", "", "hello"});
  ExpectRoundTrip<std::complex<float>>({{1.f, -2.f}, {0.5f, 3.f}});
  ExpectRoundTrip<std::complex<double>>({{1.0, -2.0}});
}

TEST(TensorProtoTest, TypedFields) {
  {
    auto p = Proto(DataType::kFloat, {2});
    p.add_float_data(1.f);
    p.add_float_data(2.f);
    auto t = TensorFromProto(p);
    ASSERT_TRUE(t.ok());
    EXPECT_EQ(t->DebugString(), "FLOAT[2] {1, 2}");
  }
  {
    auto p = Proto(DataType::kDouble, {1});
    p.add_double_data(0.25);
    EXPECT_EQ(TensorFromProto(p)->DebugString(), "DOUBLE[1] {0.25}");
  }
  {
    auto p = Proto(DataType::kInt8, {2});
    p.add_int32_data(-5);
    p.add_int32_data(100);
    EXPECT_EQ(TensorFromProto(p)->DebugString(), "INT8[2] {-5, 100}");
  }
  {
    auto p = Proto(DataType::kUint16, {1});
    p.add_int32_data(65535);
    EXPECT_EQ(TensorFromProto(p)->DebugString(), "UINT16[1] {65535}");
  }
  {
    auto p = Proto(DataType::kInt64, {});
    p.add_int64_data(-7);
    auto t = TensorFromProto(p);
    EXPECT_EQ(t->shape().rank(), 0u);
    EXPECT_EQ(t->DebugString(), "INT64[] {-7}");
  }
  {
    auto p = Proto(DataType::kUint32, {1});
    p.add_uint64_data(4000000000u);
    EXPECT_EQ(TensorFromProto(p)->DebugString(), "UINT32[1] {4000000000}");
  }
  {
    auto p = Proto(DataType::kUint64, {1});
    p.add_uint64_data(UINT64_MAX);
    EXPECT_EQ(TensorFromProto(p)->DebugString(), "UINT64[1] {18446744073709551615}");
  }
  {
    auto p = Proto(DataType::kBool, {2});
    p.add_int32_data(1);
    p.add_int32_data(0);
    EXPECT_EQ(TensorFromProto(p)->DebugString(), "BOOL[2] {true, false}");
  }
  {
    auto p = Proto(DataType::kString, {2});
    p.add_string_data("x");
    p.add_string_data("yz");
    EXPECT_EQ(TensorFromProto(p)->DebugString(), "STRING[2] {\"x\", \"yz\"}");
  }
  {
    auto p = Proto(DataType::kComplex64, {1});
    p.add_float_data(1.f);
    p.add_float_data(-2.f);
    auto t = TensorFromProto(p);
    EXPECT_EQ(t->data<std::complex<float>>()[0], std::complex<float>(1.f, -2.f));
  }
  {
    auto p = Proto(DataType::kComplex128, {1});
    p.add_double_data(3.0);
    p.add_double_data(4.0);
    auto t = TensorFromProto(p);
    EXPECT_EQ(t->data<std::complex<double>>()[0], std::complex<double>(3.0, 4.0));
  }
}

TEST(TensorProtoTest, HalfTypesLiveInInt32Data) {
  auto p = Proto(DataType::kFloat16, {2});
  p.add_int32_data(Float16::FromFloat(1.5f).bits);
  // A sign-extended encoding of -2.0 (0xC000) is accepted too.
  p.add_int32_data(static_cast<int16_t>(Float16::FromFloat(-2.f).bits));
  auto t = TensorFromProto(p);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->data<Float16>()[0].ToFloat(), 1.5f);
  EXPECT_EQ(t->data<Float16>()[1].ToFloat(), -2.f);

  auto b = Proto(DataType::kBFloat16, {1});
  b.add_int32_data(BFloat16::FromFloat(-0.5f).bits);
  EXPECT_EQ(TensorFromProto(b)->data<BFloat16>()[0].ToFloat(), -0.5f);

  auto bad = Proto(DataType::kFloat16, {1});
  bad.add_int32_data(70000);
  auto st = TensorFromProto(bad).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("does not hold 16 bits"));
}

TEST(TensorProtoTest, EmptyTensors) {
  auto p = Proto(DataType::kFloat, {0, 3});
  auto t = TensorFromProto(p);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->NumElements(), 0);
  p.set_raw_data("");
  EXPECT_TRUE(TensorFromProto(p).ok());
}

TEST(TensorProtoTest, RefusesCountNotMatchingShape) {
  auto p = Proto(DataType::kFloat, {2, 2}, "W");
  p.add_float_data(1.f);
  auto st = TensorFromProto(p).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("tensor 'W'"));
  EXPECT_THAT(st.message(), HasSubstr("float_data holds 1 values but shape [2,2] needs 4"));

  auto c = Proto(DataType::kComplex64, {2});
  c.add_float_data(1.f);
  c.add_float_data(2.f);
  EXPECT_THAT(TensorFromProto(c).status().message(), HasSubstr("needs 4"));

  auto none = Proto(DataType::kInt32, {3});
  EXPECT_THAT(TensorFromProto(none).status().message(), HasSubstr("holds 0 values"));
}

TEST(TensorProtoTest, RefusesRawSizeNotMatchingShape) {
  auto p = Proto(DataType::kInt32, {3}, "B");
  p.set_raw_data(std::string(8, '\0'));
  auto st = TensorFromProto(p).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("raw_data has 8 bytes but INT32[3] needs 12"));
}

TEST(TensorProtoTest, RefusesDataInTheWrongOrSeveralFields) {
  auto wrong = Proto(DataType::kFloat, {1});
  wrong.add_int64_data(1);
  EXPECT_THAT(TensorFromProto(wrong).status().message(),
              HasSubstr("FLOAT data found in int64_data; ONNX stores it in float_data"));

  auto both = Proto(DataType::kFloat, {1});
  both.add_float_data(1.f);
  both.set_raw_data(std::string(4, '\0'));
  EXPECT_THAT(TensorFromProto(both).status().message(), HasSubstr("both raw_data and float_data"));

  auto two = Proto(DataType::kFloat, {1});
  two.add_float_data(1.f);
  two.add_double_data(1.0);
  EXPECT_THAT(TensorFromProto(two).status().message(),
              HasSubstr("both float_data and double_data"));

  auto str = Proto(DataType::kString, {1});
  str.set_raw_data("abc");
  EXPECT_THAT(TensorFromProto(str).status().message(), HasSubstr("keep their data in string_data"));
}

TEST(TensorProtoTest, RefusesOutOfRangeValues) {
  auto i8 = Proto(DataType::kInt8, {1});
  i8.add_int32_data(200);
  EXPECT_THAT(TensorFromProto(i8).status().message(),
              HasSubstr("int32_data[0] = 200 is out of range for INT8 [-128, 127]"));
  auto u8 = Proto(DataType::kUint8, {1});
  u8.add_int32_data(-1);
  EXPECT_FALSE(TensorFromProto(u8).ok());
  auto b = Proto(DataType::kBool, {1});
  b.add_int32_data(2);
  EXPECT_FALSE(TensorFromProto(b).ok());
  auto u32 = Proto(DataType::kUint32, {1});
  u32.add_uint64_data(1ull << 32);
  EXPECT_THAT(TensorFromProto(u32).status().message(), HasSubstr("out of range for UINT32"));
  auto raw_bool = Proto(DataType::kBool, {2});
  raw_bool.set_raw_data(std::string("\x01\x02", 2));
  EXPECT_THAT(TensorFromProto(raw_bool).status().message(), HasSubstr("byte value 2"));
}

TEST(TensorProtoTest, RefusesBadDimsAndTypes) {
  auto neg = Proto(DataType::kFloat, {2, -1}, "N");
  auto st = TensorFromProto(neg).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("tensor 'N': bad dims"));
  EXPECT_THAT(st.message(), HasSubstr("negative"));

  // 2^32 * 2^32 overflows int64: refused before anything is allocated.
  auto huge = Proto(DataType::kFloat, {1ll << 32, 1ll << 32}, "H");
  EXPECT_THAT(TensorFromProto(huge).status().message(), HasSubstr("more elements than the limit"));
  // Large but not overflowing, with no data: refused by the count check, not by allocation.
  auto big = Proto(DataType::kFloat, {1ll << 40});
  EXPECT_THAT(TensorFromProto(big).status().message(), HasSubstr("holds 0 values"));

  auto undefined = Proto(DataType::kUndefined, {1});
  EXPECT_THAT(TensorFromProto(undefined).status().message(),
              HasSubstr("unknown or undefined data_type 0"));
  onnx::TensorProto unknown;
  unknown.set_data_type(99);
  EXPECT_FALSE(TensorFromProto(unknown).ok());
}

TEST(TensorProtoTest, ExternalDataNeedsAFolder) {
  auto p = Proto(DataType::kFloat, {1}, "E");
  p.set_data_location(onnx::TensorProto::EXTERNAL);
  auto* e = p.add_external_data();
  e->set_key("location");
  e->set_value("weights.bin");
  auto st = TensorFromProto(p).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("no model folder"));
  p.add_float_data(1.f);
  EXPECT_THAT(TensorFromProto(p, "/tmp").status().message(), HasSubstr("also has float_data"));
}

TEST(SequenceProtoTest, TensorsOfOneType) {
  onnx::SequenceProto s;
  s.set_elem_type(onnx::SequenceProto::TENSOR);
  *s.add_tensor_values() = TensorToProto(Tensor::FromVector<float>(Shape({1}), {1.f}), "a");
  *s.add_tensor_values() = TensorToProto(Tensor::FromVector<float>(Shape({2}), {2.f, 3.f}), "b");
  auto v = ValueFromSequenceProto(s);
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_TRUE(v->is_sequence());
  EXPECT_EQ(v->elem_type(), DataType::kFloat);
  ASSERT_EQ(v->sequence().size(), 2u);
  EXPECT_EQ(v->sequence()[1].NumElements(), 2);

  *s.add_tensor_values() = TensorToProto(Tensor::Scalar<int64_t>(1), "c");
  EXPECT_THAT(ValueFromSequenceProto(s).status().message(),
              HasSubstr("item 2 is INT64 but item 0 is FLOAT"));

  onnx::SequenceProto empty;
  empty.set_elem_type(onnx::SequenceProto::TENSOR);
  auto e = ValueFromSequenceProto(empty);
  ASSERT_TRUE(e.ok());
  EXPECT_TRUE(e->sequence().empty());

  onnx::SequenceProto nested;
  nested.set_elem_type(onnx::SequenceProto::SEQUENCE);
  EXPECT_EQ(ValueFromSequenceProto(nested).status().code(), StatusCode::kUnimplemented);
}

TEST(SequenceProtoTest, BadItemNamesTheSequence) {
  onnx::SequenceProto s;
  s.set_name("seq");
  s.set_elem_type(onnx::SequenceProto::TENSOR);
  auto* t = s.add_tensor_values();
  t->set_data_type(1);
  t->add_dims(2);
  auto st = ValueFromSequenceProto(s).status();
  EXPECT_THAT(st.message(), HasSubstr("sequence 'seq' item 0"));
}

TEST(OptionalProtoTest, TensorSequenceAndNone) {
  onnx::OptionalProto o;
  o.set_elem_type(onnx::OptionalProto::TENSOR);
  *o.mutable_tensor_value() = TensorToProto(Tensor::Scalar<float>(2.f), "x");
  auto v = ValueFromOptionalProto(o);
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->is_optional());
  ASSERT_TRUE(v->has_value());
  EXPECT_EQ(v->optional_value().tensor().data<float>()[0], 2.f);

  onnx::OptionalProto none;
  none.set_elem_type(onnx::OptionalProto::TENSOR);
  auto n = ValueFromOptionalProto(none);
  ASSERT_TRUE(n.ok());
  EXPECT_FALSE(n->has_value());
  EXPECT_EQ(n->optional_inner_kind(), Value::Kind::kTensor);

  onnx::OptionalProto seq;
  seq.set_elem_type(onnx::OptionalProto::SEQUENCE);
  seq.mutable_sequence_value()->set_elem_type(onnx::SequenceProto::TENSOR);
  *seq.mutable_sequence_value()->add_tensor_values() =
      TensorToProto(Tensor::Scalar<int32_t>(4), "");
  auto s = ValueFromOptionalProto(seq);
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->optional_value().is_sequence());
  EXPECT_EQ(s->elem_type(), DataType::kInt32);

  onnx::OptionalProto mismatch;
  mismatch.set_elem_type(onnx::OptionalProto::SEQUENCE);
  *mismatch.mutable_tensor_value() = TensorToProto(Tensor::Scalar<float>(1.f), "x");
  EXPECT_EQ(ValueFromOptionalProto(mismatch).status().code(), StatusCode::kInvalidArgument);
}

class ValueFileTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& bytes) {
    std::string path = ::testing::TempDir() + "/onnxgate_value_file_" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    paths_.push_back(path);
    return path;
  }
  void TearDown() override {
    for (const auto& p : paths_) std::remove(p.c_str());
  }
  std::vector<std::string> paths_;
};

TEST_F(ValueFileTest, ReadsEachKind) {
  std::string tensor_path = Write(
      "input_0.pb",
      TensorToProto(Tensor::FromVector<int64_t>(Shape({2}), {4, 5}), "x").SerializeAsString());
  auto t = ReadValueProtoFile(tensor_path, "tensor");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->tensor().DebugString(), "INT64[2] {4, 5}");

  onnx::SequenceProto s;
  s.set_elem_type(onnx::SequenceProto::TENSOR);
  *s.add_tensor_values() = TensorToProto(Tensor::Scalar<float>(1.f), "");
  auto sv = ReadValueProtoFile(Write("seq.pb", s.SerializeAsString()), "sequence");
  ASSERT_TRUE(sv.ok());
  EXPECT_EQ(sv->sequence().size(), 1u);

  onnx::OptionalProto o;
  o.set_elem_type(onnx::OptionalProto::TENSOR);
  auto ov = ReadValueProtoFile(Write("opt.pb", o.SerializeAsString()), "optional");
  ASSERT_TRUE(ov.ok());
  EXPECT_FALSE(ov->has_value());
}

TEST_F(ValueFileTest, ErrorsNameTheFile) {
  std::string garbage = Write("garbage.pb", std::string("\xff\xff\xff\xff\x0f", 5));
  auto st = ReadValueProtoFile(garbage, "tensor").status();
  EXPECT_EQ(st.code(), StatusCode::kDataLoss);
  EXPECT_THAT(st.message(), HasSubstr(garbage));

  auto missing = ReadValueProtoFile(::testing::TempDir() + "/onnxgate_no_such_file.pb", "tensor");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);

  EXPECT_EQ(ReadValueProtoFile(garbage, "map").status().code(), StatusCode::kInvalidArgument);

  onnx::TensorProto bad;
  bad.set_name("x");
  bad.set_data_type(1);
  bad.add_dims(3);
  std::string bad_path = Write("bad.pb", bad.SerializeAsString());
  auto bst = ReadValueProtoFile(bad_path, "tensor").status();
  EXPECT_THAT(bst.message(), HasSubstr(bad_path + ": tensor 'x'"));
}

}  // namespace
}  // namespace onnxgate

namespace onnxgate {
namespace {

// One small tensor of each type added after ONNX 1.12, with the values easy to get wrong.
std::vector<Tensor> NewTypeTensors() {
  std::vector<Tensor> out;
  out.push_back(Tensor::FromVector<Float8E4M3FN>(
      Shape({2, 2}),
      {Float8E4M3FN{0x7E}, Float8E4M3FN{0x7F}, Float8E4M3FN{0x80}, Float8E4M3FN{0x01}}));
  out.push_back(Tensor::FromVector<Float8E4M3FNUZ>(
      Shape({3}), {Float8E4M3FNUZ{0x80}, Float8E4M3FNUZ{0xFF}, Float8E4M3FNUZ::FromFloat(0.5f)}));
  out.push_back(Tensor::FromVector<Float8E5M2>(
      Shape({3}), {Float8E5M2{0x7C}, Float8E5M2{0xFC}, Float8E5M2{0x7E}}));
  out.push_back(Tensor::FromVector<Float8E5M2FNUZ>(
      Shape({2}), {Float8E5M2FNUZ{0x80}, Float8E5M2FNUZ::FromFloat(-3.f)}));
  out.push_back(Tensor::FromVector<Float8E8M0>(Shape({3}),
                                               {Float8E8M0{0}, Float8E8M0{127}, Float8E8M0{255}}));
  out.push_back(Tensor::FromFloat4(
      Shape({5}),
      {Float4E2M1::FromFloat(6.f), Float4E2M1::FromFloat(-0.5f), Float4E2M1::FromFloat(-0.f),
       Float4E2M1::FromFloat(3.f), Float4E2M1::FromFloat(1.f)}));
  out.push_back(*Tensor::FromSubByteInts(DataType::kInt4, Shape({5}), {-8, 7, -1, 0, 3}));
  out.push_back(*Tensor::FromSubByteInts(DataType::kUint4, Shape({3}), {0, 15, 9}));
  out.push_back(*Tensor::FromSubByteInts(DataType::kInt2, Shape({5}), {-2, -1, 0, 1, -2}));
  out.push_back(*Tensor::FromSubByteInts(DataType::kUint2, Shape({1, 7}), {0, 1, 2, 3, 3, 2, 1}));
  return out;
}

void ExpectSameTensor(const Tensor& expected, const Tensor& actual) {
  ASSERT_EQ(actual.dtype(), expected.dtype());
  ASSERT_EQ(actual.shape(), expected.shape());
  ASSERT_EQ(actual.ByteSize(), expected.ByteSize());
  EXPECT_EQ(std::string(static_cast<const char*>(actual.raw_data()), actual.ByteSize()),
            std::string(static_cast<const char*>(expected.raw_data()), expected.ByteSize()));
  EXPECT_EQ(actual.DebugString(), expected.DebugString());
}

TEST(TensorProtoNewTypesTest, RawAndTypedFieldsRoundTripEveryNewType) {
  for (const Tensor& t : NewTypeTensors()) {
    SCOPED_TRACE(DataTypeName(t.dtype()));
    onnx::TensorProto raw = TensorToProto(t, "r");
    EXPECT_EQ(raw.raw_data().size(), t.ByteSize());
    EXPECT_EQ(raw.int32_data_size(), 0);
    auto from_raw = TensorFromProto(raw);
    ASSERT_TRUE(from_raw.ok()) << from_raw.status().ToString();
    ExpectSameTensor(t, *from_raw);

    onnx::TensorProto typed = TensorToProto(t, "t", TensorProtoStorage::kTypedField);
    EXPECT_FALSE(typed.has_raw_data());
    EXPECT_EQ(static_cast<size_t>(typed.int32_data_size()), t.ByteSize());
    auto from_typed = TensorFromProto(typed);
    ASSERT_TRUE(from_typed.ok()) << from_typed.status().ToString();
    ExpectSameTensor(t, *from_typed);
  }
}

TEST(TensorProtoNewTypesTest, TypedFieldWritingRoundTripsTheOldTypesToo) {
  std::vector<Tensor> old_types = {
      Tensor::FromVector<float>(Shape({2}), {1.5f, -0.f}),
      Tensor::FromVector<double>(Shape({1}), {1e300}),
      Tensor::FromVector<Float16>(Shape({2}), {Float16{0x3c00}, Float16{0xfc00}}),
      Tensor::FromVector<BFloat16>(Shape({1}), {BFloat16{0xff80}}),
      Tensor::FromVector<int8_t>(Shape({2}), {-128, 127}),
      Tensor::FromVector<int16_t>(Shape({1}), {-32768}),
      Tensor::FromVector<int32_t>(Shape({1}), {INT32_MIN}),
      Tensor::FromVector<int64_t>(Shape({1}), {INT64_MIN}),
      Tensor::FromVector<uint8_t>(Shape({1}), {255}),
      Tensor::FromVector<uint16_t>(Shape({1}), {65535}),
      Tensor::FromVector<uint32_t>(Shape({1}), {UINT32_MAX}),
      Tensor::FromVector<uint64_t>(Shape({1}), {UINT64_MAX}),
      Tensor::FromVector<bool>(Shape({2}), {true, false}),
      Tensor::FromVector<std::complex<float>>(Shape({1}), {{1.f, -2.f}}),
      Tensor::FromVector<std::complex<double>>(Shape({1}), {{3.0, 4.0}}),
  };
  for (const Tensor& t : old_types) {
    SCOPED_TRACE(DataTypeName(t.dtype()));
    onnx::TensorProto typed = TensorToProto(t, "t", TensorProtoStorage::kTypedField);
    EXPECT_FALSE(typed.has_raw_data());
    auto back = TensorFromProto(typed);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    ExpectSameTensor(t, *back);
  }
}

TEST(TensorProtoNewTypesTest, TypedFieldsHoldCodesAndPackedBytesAsOnnxWritesThem) {
  // As onnx.helper.make_tensor(name, INT4, [5], [-8, 7, -1, 0, 3]) writes it: packed bytes.
  auto p = Proto(DataType::kInt4, {5});
  for (int v : {0x78, 0x0F, 0x03}) p.add_int32_data(v);
  auto t = TensorFromProto(p);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->DebugString(), "INT4[5] {-8, 7, -1, 0, 3}");

  auto u2 = Proto(DataType::kUint2, {5});
  u2.add_int32_data(0xE4);
  u2.add_int32_data(0xFF);  // padding bits set by a careless producer: ignored and cleared
  auto t2 = TensorFromProto(u2);
  ASSERT_TRUE(t2.ok()) << t2.status().ToString();
  EXPECT_EQ(t2->DebugString(), "UINT2[5] {0, 1, 2, 3, 3}");
  EXPECT_EQ(static_cast<const uint8_t*>(t2->raw_data())[1], 0x03);

  auto f8 = Proto(DataType::kFloat8E4M3FN, {2});
  f8.add_int32_data(0x7E);
  f8.add_int32_data(0xFE);
  EXPECT_EQ(TensorFromProto(f8)->DebugString(), "FLOAT8E4M3FN[2] {448, -448}");

  auto f4 = Proto(DataType::kFloat4E2M1, {3});
  f4.add_int32_data(0x1F);
  f4.add_int32_data(0x03);
  EXPECT_EQ(TensorFromProto(f4)->DebugString(), "FLOAT4E2M1[3] {-6, 0.5, 1.5}");

  auto raw = Proto(DataType::kFloat8E5M2, {2});
  raw.set_raw_data(std::string("\x7c\xfc", 2));
  EXPECT_EQ(TensorFromProto(raw)->DebugString(), "FLOAT8E5M2[2] {inf, -inf}");
}

TEST(TensorProtoNewTypesTest, RefusesBadCountsAndValues) {
  auto few = Proto(DataType::kInt4, {5}, "q");
  few.add_int32_data(0);
  few.add_int32_data(0);
  EXPECT_EQ(TensorFromProto(few).status().message(),
            "tensor 'q': int32_data holds 2 values but INT4[5] needs 3 (2 elements per value)");
  auto raw = Proto(DataType::kUint2, {9}, "r");
  raw.set_raw_data(std::string(2, '\0'));
  EXPECT_EQ(TensorFromProto(raw).status().message(),
            "tensor 'r': raw_data has 2 bytes but UINT2[9] needs 3 (4 elements per byte)");
  auto f8 = Proto(DataType::kFloat8E8M0, {1}, "s");
  f8.add_int32_data(256);
  EXPECT_THAT(TensorFromProto(f8).status().message(),
              HasSubstr("int32_data[0] = 256 does not hold the 8 bits of FLOAT8E8M0"));
  auto packed = Proto(DataType::kUint4, {2}, "p");
  packed.add_int32_data(-1);
  EXPECT_THAT(TensorFromProto(packed).status().message(),
              HasSubstr("int32_data[0] = -1 does not hold a packed byte of UINT4"));
  auto f8_raw = Proto(DataType::kFloat8E4M3FNUZ, {3});
  f8_raw.set_raw_data(std::string(2, '\0'));
  EXPECT_THAT(TensorFromProto(f8_raw).status().message(),
              HasSubstr("raw_data has 2 bytes but FLOAT8E4M3FNUZ[3] needs 3"));
  auto wrong_field = Proto(DataType::kInt4, {2});
  wrong_field.add_int64_data(1);
  EXPECT_THAT(TensorFromProto(wrong_field).status().message(),
              HasSubstr("INT4 data found in int64_data; ONNX stores it in int32_data"));
  // ONNX 1.23's 6-bit floats are named, not mistaken for garbage.
  auto f6 = Proto(DataType::kFloat, {1}, "six");
  f6.set_data_type(onnx::TensorProto::FLOAT6E2M3);
  auto st = TensorFromProto(f6).status();
  EXPECT_EQ(st.code(), StatusCode::kUnimplemented);
  EXPECT_EQ(st.message(), "tensor 'six': data_type 27 (FLOAT6E2M3) is not supported by onnxgate");
}

TEST_F(ValueFileTest, PackedLengthMismatchNamesFileTensorAndSizes) {
  auto p = Proto(DataType::kInt4, {5}, "w");
  p.set_raw_data(std::string(2, '\0'));
  std::string path = Write("input_int4.pb", p.SerializeAsString());
  auto st = ReadValueProtoFile(path, "tensor").status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), path +
                              ": tensor 'w': raw_data has 2 bytes but INT4[5] needs 3 "
                              "(2 elements per byte)");
  auto ok =
      TensorToProto(*Tensor::FromSubByteInts(DataType::kInt4, Shape({5}), {1, 2, 3, 4, 5}), "w");
  auto v = ReadValueProtoFile(Write("input_int4_ok.pb", ok.SerializeAsString()), "tensor");
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_EQ(v->tensor().DebugString(), "INT4[5] {1, 2, 3, 4, 5}");
}

}  // namespace
}  // namespace onnxgate
