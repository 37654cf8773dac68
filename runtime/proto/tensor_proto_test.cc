// Tests for TensorProto/SequenceProto/OptionalProto conversion: every type, raw and typed fields,
// and each rule that refuses malformed data.
#include "runtime/proto/tensor_proto.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx-data_pb.h>
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
