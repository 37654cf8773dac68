// Values across the plugin ABI: every kind and element type survives the way out and back, and
// what a plugin could get wrong is refused with the fault named.
#include "runtime/plugin/plugin_values.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

Value RoundTrip(const Value& v) {
  AbiValue shown(v);
  auto back = ValueFromAbi(shown.get(), "test value");
  EXPECT_TRUE(back.ok()) << back.status().ToString();
  return back.ok() ? *back : Value();
}

TEST(PluginValuesTest, EveryElementTypeSurvivesTheRoundTrip) {
  for (int32_t code = 1; code <= 26; ++code) {
    if (!IsValidDataType(code)) continue;
    const auto dtype = static_cast<DataType>(code);
    Tensor t(dtype, Shape({2, 3}));
    if (dtype == DataType::kString) {
      t.mutable_data<std::string>()[4] = std::string("a\\0b", 3);
    } else if (t.ByteSize() > 0) {
      auto* bytes = static_cast<uint8_t*>(t.mutable_raw_data());
      for (size_t i = 0; i < t.ByteSize(); ++i) bytes[i] = static_cast<uint8_t>(i * 37 + 1);
    }
    const Value back = RoundTrip(Value::FromTensor(t));
    ASSERT_TRUE(back.is_tensor()) << DataTypeName(dtype);
    EXPECT_EQ(back.tensor().dtype(), dtype);
    EXPECT_EQ(back.tensor().shape(), t.shape());
    EXPECT_EQ(back.tensor().DebugString(100), t.DebugString(100)) << DataTypeName(dtype);
  }
}

TEST(PluginValuesTest, SequencesAndOptionalsSurviveTheRoundTrip) {
  Tensor a = Tensor::FromVector<int64_t>(Shape({2}), {1, 2});
  Tensor b = Tensor::FromVector<int64_t>(Shape({0}), {});
  const Value seq = RoundTrip(Value::FromSequence(DataType::kInt64, {a, b}));
  ASSERT_TRUE(seq.is_sequence());
  ASSERT_EQ(seq.sequence().size(), 2u);
  EXPECT_EQ(seq.sequence()[0].DebugString(), a.DebugString());
  EXPECT_EQ(seq.sequence()[1].shape(), Shape({0}));

  const Value empty_seq = RoundTrip(Value::FromSequence(DataType::kFloat, {}));
  EXPECT_TRUE(empty_seq.is_sequence());
  EXPECT_EQ(empty_seq.elem_type(), DataType::kFloat);

  const Value none = RoundTrip(Value::OptionalNone(Value::Kind::kSequence, DataType::kDouble));
  ASSERT_TRUE(none.is_optional());
  EXPECT_FALSE(none.has_value());
  EXPECT_EQ(none.optional_inner_kind(), Value::Kind::kSequence);
  EXPECT_EQ(none.elem_type(), DataType::kDouble);

  const Value some = RoundTrip(Value::OptionalOf(Value::FromTensor(a)));
  ASSERT_TRUE(some.is_optional());
  ASSERT_TRUE(some.has_value());
  EXPECT_EQ(some.optional_value().tensor().DebugString(), a.DebugString());
}

// A float[2] as a plugin would return it, for breaking one field at a time.
struct FloatPair {
  float data[2] = {1.0f, 2.0f};
  int64_t dims[1] = {2};
  OnnxgateValue Value() const {
    OnnxgateValue v{};
    v.kind = ONNXGATE_VALUE_TENSOR;
    v.elem_type = 1;
    v.rank = 1;
    v.dims = dims;
    v.data = data;
    v.data_bytes = sizeof(data);
    return v;
  }
};

std::string Refusal(const OnnxgateValue& v) {
  auto got = ValueFromAbi(v, "output 'Y'");
  EXPECT_FALSE(got.ok());
  return got.status().message();
}

TEST(PluginValuesTest, RefusesWhatAPluginGetsWrong) {
  FloatPair pair;
  ASSERT_TRUE(ValueFromAbi(pair.Value(), "ok").ok());

  OnnxgateValue v = pair.Value();
  v.data = nullptr;
  EXPECT_THAT(Refusal(v), HasSubstr("output 'Y': null data for float[2]"));
  v = pair.Value();
  v.data_bytes = 4;
  EXPECT_THAT(Refusal(v), HasSubstr("data_bytes is 4 for float[2]; expected 8"));
  v = pair.Value();
  v.elem_type = 99;
  EXPECT_THAT(Refusal(v), HasSubstr("element type 99 is not an ONNX type"));
  v = pair.Value();
  v.kind = 7;
  EXPECT_THAT(Refusal(v), HasSubstr("value kind 7"));
  v = pair.Value();
  int64_t negative = -2;
  v.dims = &negative;
  EXPECT_THAT(Refusal(v), HasSubstr("shape"));
  v = pair.Value();
  v.dims = nullptr;
  EXPECT_THAT(Refusal(v), HasSubstr("rank 1 but no dims"));
  v = pair.Value();
  v.rank = 1u << 20;
  EXPECT_THAT(Refusal(v), HasSubstr("rank 1048576"));

  OnnxgateValue items[2] = {pair.Value(), pair.Value()};
  OnnxgateValue optional{};
  optional.kind = ONNXGATE_VALUE_OPTIONAL;
  optional.elem_type = 1;
  optional.item_count = 2;
  optional.items = items;
  EXPECT_THAT(Refusal(optional), HasSubstr("an optional with 2 items"));

  OnnxgateValue seq{};
  seq.kind = ONNXGATE_VALUE_SEQUENCE;
  seq.elem_type = 7;
  seq.item_count = 1;
  seq.items = items;
  EXPECT_THAT(Refusal(seq), HasSubstr("item 0: element type 1 in a sequence of 7"));
  seq.item_count = size_t{1} << 40;
  EXPECT_THAT(Refusal(seq), HasSubstr("a sequence of 1099511627776 items (at most 1048576)"));

  OnnxgateString strings[1] = {{nullptr, 3}};
  int64_t one = 1;
  OnnxgateValue s{};
  s.kind = ONNXGATE_VALUE_TENSOR;
  s.elem_type = 8;
  s.rank = 1;
  s.dims = &one;
  s.data = strings;
  s.data_bytes = sizeof(strings);
  EXPECT_THAT(Refusal(s), HasSubstr("string 0 has a size but no data"));
  strings[0] = {"abc", size_t{1} << 40};  // a size far past the plugin's 3 bytes
  EXPECT_THAT(Refusal(s), HasSubstr("string 0 of 1099511627776 bytes takes the strings past"));
}

}  // namespace
}  // namespace onnxgate
