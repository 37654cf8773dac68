// Tests of Pad: the three modes, negative pads, pads wider than the axis, the attribute forms
// of Pad-1 and Pad-2, the input form of Pad-11, the axes input of Pad-18, the wrap mode of
// Pad-19, and non-float, FLOAT8 and packed sub-byte types.
#include "runtime/ep/ref/kernels/tensor/pad.h"

#include "runtime/ep/ref/kernels/tensor/indexing_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

Value X() { return TensorValue<float>({3, 2}, {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f}); }
std::vector<int32_t> SubByteInts(const Value& v) {
  std::vector<int32_t> out;
  for (int64_t i = 0; i < v.tensor().NumElements(); ++i) out.push_back(v.tensor().SubByteInt(i));
  return out;
}

Value Pads(std::vector<int64_t> p) {
  const int64_t n = static_cast<int64_t>(p.size());
  return TensorValue<int64_t>({n}, p);
}

TEST(PadTest, ConstantReflectEdge) {
  auto c = RunIdx("y = Pad <mode = \"constant\"> (x, pads)", 11, {X(), Pads({0, 2, 0, 0})});
  ASSERT_EQ(c.size(), 1u);
  EXPECT_THAT(DimsOf(c[0]), ElementsAre(3, 4));
  EXPECT_THAT(ValuesOf<float>(c[0]),
              ElementsAre(0, 0, 1.0f, 1.2f, 0, 0, 2.3f, 3.4f, 0, 0, 4.5f, 5.7f));
  auto r = RunIdx("y = Pad <mode = \"reflect\"> (x, pads)", 11, {X(), Pads({0, 2, 0, 0})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(r[0]),
              ElementsAre(1.0f, 1.2f, 1.0f, 1.2f, 2.3f, 3.4f, 2.3f, 3.4f, 4.5f, 5.7f, 4.5f, 5.7f));
  auto e = RunIdx("y = Pad <mode = \"edge\"> (x, pads)", 11, {X(), Pads({0, 2, 0, 0})});
  ASSERT_EQ(e.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(e[0]),
              ElementsAre(1.0f, 1.0f, 1.0f, 1.2f, 2.3f, 2.3f, 2.3f, 3.4f, 4.5f, 4.5f, 4.5f, 5.7f));
}

TEST(PadTest, ConstantValueInput) {
  auto y =
      RunIdx("y = Pad(x, pads, v)", 11,
             {TensorValue<int32_t>({2}, {1, 2}), Pads({1, 1}), TensorValue<int32_t>({}, {-7})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int32_t>(y[0]), ElementsAre(-7, 1, 2, -7));
}

TEST(PadTest, ReflectWiderThanTheAxisKeepsBouncing) {
  auto y = RunIdx("y = Pad <mode = \"reflect\"> (x, pads)", 13,
                  {TensorValue<int64_t>({3}, {1, 2, 3}), Pads({5, 0})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<int64_t>(y[0]), ElementsAre(2, 1, 2, 3, 2, 1, 2, 3));
}

TEST(PadTest, NegativePadsCropBeforePadding) {
  // Drop the first column, then edge-pad one column at the end.
  auto y = RunIdx("y = Pad <mode = \"edge\"> (x, pads)", 13,
                  {TensorValue<float>({1, 3}, {1, 2, 3}), Pads({0, -1, 0, 1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(2, 3, 3));
  EXPECT_ERROR_CODE(RunIdxStatus("y = Pad(x, pads)", 13,
                                 {TensorValue<float>({1, 3}, {1, 2, 3}), Pads({0, -2, 0, -2})}),
                    kInvalidArgument);
}

TEST(PadTest, AttributeFormsOfPad1AndPad2) {
  auto y2 = RunIdx("y = Pad <pads = [1, 0], value = 9.5> (x)", 2, {TensorValue<double>({1}, {1})});
  ASSERT_EQ(y2.size(), 1u);
  EXPECT_THAT(ValuesOf<double>(y2[0]), ElementsAre(9.5, 1));
  auto y1 = RunIdx("y = Pad <paddings = [0, 2], mode = \"edge\"> (x)", 1,
                   {TensorValue<float>({2}, {1, 2})});
  ASSERT_EQ(y1.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(y1[0]), ElementsAre(1, 2, 2, 2));
}

TEST(PadTest, StringsAndBoolsFromOpset13) {
  auto s = RunIdx(
      "y = Pad(x, pads, v)", 13,
      {TensorValue<std::string>({1}, {"a"}), Pads({1, 0}), TensorValue<std::string>({}, {"pad"})});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_THAT(ValuesOf<std::string>(s[0]), ElementsAre("pad", "a"));
  auto b = RunIdx("y = Pad(x, pads)", 13, {TensorValue<bool>({1}, {true}), Pads({0, 2})});
  ASSERT_EQ(b.size(), 1u);
  EXPECT_THAT(ValuesOf<bool>(b[0]), ElementsAre(true, false, false));
}

TEST(PadTest, EmptyAxes) {
  // Constant padding of an empty axis works; edge padding has nothing to copy.
  auto y = RunIdx("y = Pad(x, pads)", 11, {TensorValue<float>({0, 2}, {}), Pads({1, 0, 0, 0})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(1, 2));
  EXPECT_ERROR_CODE(RunIdxStatus("y = Pad <mode = \"edge\"> (x, pads)", 11,
                                 {TensorValue<float>({0, 2}, {}), Pads({1, 0, 0, 0})}),
                    kInvalidArgument);
}

TEST(PadTest, RejectsBadArguments) {
  EXPECT_ERROR_CODE(RunIdxStatus("y = Pad(x, pads)", 11, {X(), Pads({1, 1})}), kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = Pad <mode = \"wrap\"> (x, pads)", 11, {X(), Pads({0, 0, 0, 0})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = Pad(x, pads, v)", 11,
                                 {X(), Pads({0, 0, 0, 0}), TensorValue<double>({}, {1})}),
                    kInvalidArgument);
}

TEST(PadTest, Pad18AxesInputNamesThePaddedAxes) {
  // Pads [1, 2] for axis -1 only: one column before, two after.
  auto y = RunIdx("y = Pad(x, pads, , axes)", 18,
                  {X(), Pads({1, 2}), Value(), TensorValue<int32_t>({1}, {-1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(3, 5));
  EXPECT_THAT(ValuesOf<float>(y[0]),
              ElementsAre(0, 1.0f, 1.2f, 0, 0, 0, 2.3f, 3.4f, 0, 0, 0, 4.5f, 5.7f, 0, 0));
  // The pads must match the axes; axes must be distinct and in range.
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = Pad(x, pads, , axes)", 18,
                   {X(), Pads({1, 2, 0, 0}), Value(), TensorValue<int64_t>({1}, {0})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = Pad(x, pads, , axes)", 18,
                   {X(), Pads({1, 1, 1, 1}), Value(), TensorValue<int64_t>({2}, {1, -1})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = Pad(x, pads, , axes)", 18,
                                 {X(), Pads({1, 1}), Value(), TensorValue<int64_t>({1}, {2})}),
                    kInvalidArgument);
}

TEST(PadTest, Pad19WrapsAroundTheAxis) {
  // The example of the ONNX operator documentation.
  auto y = RunIdx("y = Pad <mode = \"wrap\"> (x, pads)", 19, {X(), Pads({2, 1, 1, 1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(6, 4));
  EXPECT_THAT(ValuesOf<float>(y[0]),
              ElementsAre(3.4f, 2.3f, 3.4f, 2.3f, 5.7f, 4.5f, 5.7f, 4.5f, 1.2f, 1.0f, 1.2f, 1.0f,
                          3.4f, 2.3f, 3.4f, 2.3f, 5.7f, 4.5f, 5.7f, 4.5f, 1.2f, 1.0f, 1.2f, 1.0f));
  // Wider than the axis keeps wrapping; negative pads crop first.
  auto wide = RunIdx("y = Pad <mode = \"wrap\"> (x, pads)", 19,
                     {TensorValue<int64_t>({3}, {1, 2, 3}), Pads({4, -1})});
  ASSERT_EQ(wide.size(), 1u);
  EXPECT_THAT(ValuesOf<int64_t>(wide[0]), ElementsAre(1, 2, 1, 2, 1, 2));
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = Pad <mode = \"wrap\"> (x, pads)", 18, {X(), Pads({0, 0, 0, 0})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = Pad <mode = \"wrap\"> (x, pads)", 19,
                                 {TensorValue<float>({0}, {}), Pads({1, 0})}),
                    kInvalidArgument);
}

TEST(PadTest, PackedAndFloat8ElementsFromOpset21) {
  auto x = Tensor::FromSubByteInts(DataType::kInt4, Shape({3}), {-8, 7, 1});
  ASSERT_TRUE(x.ok());
  auto c = Tensor::FromSubByteInts(DataType::kInt4, Shape({}), {-3});
  ASSERT_TRUE(c.ok());
  auto y = RunIdx("y = Pad(x, pads, c)", 21,
                  {Value::FromTensor(*x), Pads({1, 2}), Value::FromTensor(*c)});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(SubByteInts(y[0]), ElementsAre(-3, -8, 7, 1, -3, -3));
  auto u2 = Tensor::FromSubByteInts(DataType::kUint2, Shape({2}), {3, 1});
  ASSERT_TRUE(u2.ok());
  auto r =
      RunIdx("y = Pad <mode = \"reflect\"> (x, pads)", 25, {Value::FromTensor(*u2), Pads({1, 1})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_THAT(SubByteInts(r[0]), ElementsAre(1, 3, 1, 3));
  std::vector<Float8E4M3FN> f = {Float8E4M3FN::FromFloat(1.5f), Float8E4M3FN::FromFloat(-2.0f)};
  auto e =
      RunIdx("y = Pad <mode = \"edge\"> (x, pads)", 21,
             {Value::FromTensor(Tensor::FromVector<Float8E4M3FN>(Shape({2}), f)), Pads({0, 1})});
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].tensor().ElementAsDouble(2), -2.0);
  // The constant must have data's type.
  EXPECT_ERROR_CODE(
      RunIdxStatus("y = Pad(x, pads, c)", 21,
                   {Value::FromTensor(*x), Pads({1, 0}), TensorValue<int8_t>({}, {1})}),
      kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
