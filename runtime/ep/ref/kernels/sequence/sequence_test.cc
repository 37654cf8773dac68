// Tests of the sequence ops: positions (negative, end, out of range), type checks, the three
// SplitToSequence forms with keepdims, and ConcatFromSequence with and without new_axis.
#include "runtime/ep/ref/kernels/sequence/sequence.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

Value Seq(std::vector<Tensor> items) {
  return Value::FromSequence(DataType::kFloat, std::move(items));
}
Tensor F(Shape shape, std::vector<float> v) {
  return Tensor::FromVector<float>(std::move(shape), v);
}
Value I64(int64_t v) { return Value::FromTensor(Tensor::Scalar<int64_t>(v)); }

std::vector<float> Floats(const Tensor& t) {
  return std::vector<float>(t.data<float>(), t.data<float>() + t.NumElements());
}

// The first element of each tensor of a sequence, to check the order of items.
std::vector<float> Firsts(const Value& seq) {
  std::vector<float> out;
  for (const Tensor& t : seq.sequence()) out.push_back(t.data<float>()[0]);
  return out;
}

class SequenceTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  Value abc_ = Seq({F({1}, {1}), F({1}, {2}), F({1}, {3})});
};

TEST_F(SequenceTest, EmptyUsesDtypeAttributeOrFloat) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "S = SequenceEmpty <dtype = 7> ()", 11, {}));
  ASSERT_TRUE(out[0].is_sequence());
  EXPECT_EQ(out[0].elem_type(), DataType::kInt64);
  EXPECT_THAT(out[0].sequence(), IsEmpty());
  ASSERT_OK_AND_ASSIGN(auto dflt, RunNode(registry_, "S = SequenceEmpty ()", 11, {}));
  EXPECT_EQ(dflt[0].elem_type(), DataType::kFloat);
  EXPECT_ERROR_CODE(RunNode(registry_, "S = SequenceEmpty <dtype = 99> ()", 11, {}),
                    kInvalidArgument);
}

TEST_F(SequenceTest, ConstructKeepsOrderAndRejectsMixedTypes) {
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "S = SequenceConstruct (a, b)", 11,
                        {Value::FromTensor(F({2}, {1, 2})), Value::FromTensor(F({1}, {3}))}));
  ASSERT_EQ(out[0].sequence().size(), 2u);
  EXPECT_THAT(Floats(out[0].sequence()[1]), ElementsAre(3));
  auto mixed = RunNode(registry_, "S = SequenceConstruct (a, b)", 11,
                       {Value::FromTensor(F({1}, {1})), TensorValue<int32_t>({1}, {1})});
  EXPECT_FALSE(mixed.ok());
}

TEST_F(SequenceTest, InsertAppendsByDefaultAndTakesNegativeAndEndPositions) {
  const Value x = Value::FromTensor(F({1}, {9}));
  ASSERT_OK_AND_ASSIGN(auto end, RunNode(registry_, "S = SequenceInsert (s, t)", 11, {abc_, x}));
  EXPECT_THAT(Firsts(end[0]), ElementsAre(1, 2, 3, 9));
  ASSERT_OK_AND_ASSIGN(auto front,
                       RunNode(registry_, "S = SequenceInsert (s, t, p)", 11, {abc_, x, I64(0)}));
  EXPECT_THAT(Firsts(front[0]), ElementsAre(9, 1, 2, 3));
  ASSERT_OK_AND_ASSIGN(auto neg, RunNode(registry_, "S = SequenceInsert (s, t, p)", 11,
                                         {abc_, x, TensorValue<int32_t>({}, {-1})}));
  EXPECT_THAT(Firsts(neg[0]), ElementsAre(1, 2, 9, 3));
  ASSERT_OK_AND_ASSIGN(auto at_end,
                       RunNode(registry_, "S = SequenceInsert (s, t, p)", 11, {abc_, x, I64(3)}));
  EXPECT_THAT(Firsts(at_end[0]), ElementsAre(1, 2, 3, 9));
  // The input sequence is left as it was.
  EXPECT_THAT(Firsts(abc_), ElementsAre(1, 2, 3));
  EXPECT_ERROR_CODE(RunNode(registry_, "S = SequenceInsert (s, t, p)", 11, {abc_, x, I64(4)}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "S = SequenceInsert (s, t)", 11, {abc_, TensorValue<double>({1}, {1})}),
      kInvalidArgument);
}

TEST_F(SequenceTest, AtTakesNegativePositionsAndRejectsOutOfRange) {
  ASSERT_OK_AND_ASSIGN(auto last, RunNode(registry_, "T = SequenceAt (s, p)", 11, {abc_, I64(-1)}));
  EXPECT_THAT(ValuesOf<float>(last[0]), ElementsAre(3));
  ASSERT_OK_AND_ASSIGN(auto first, RunNode(registry_, "T = SequenceAt (s, p)", 11,
                                           {abc_, TensorValue<int32_t>({}, {-3})}));
  EXPECT_THAT(ValuesOf<float>(first[0]), ElementsAre(1));
  auto beyond = RunNode(registry_, "T = SequenceAt (s, p)", 11, {abc_, I64(3)});
  EXPECT_ERROR_CODE(beyond, kInvalidArgument);
  EXPECT_THAT(beyond.status().message(), HasSubstr("outside [-3, 2]"));
  EXPECT_ERROR_CODE(RunNode(registry_, "T = SequenceAt (s, p)", 11, {abc_, I64(-4)}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "T = SequenceAt (s, p)", 11, {abc_, TensorValue<int64_t>({2}, {0, 1})}),
      kInvalidArgument);
}

TEST_F(SequenceTest, EraseRemovesLastByDefault) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "S = SequenceErase (s)", 11, {abc_}));
  EXPECT_THAT(Firsts(out[0]), ElementsAre(1, 2));
  ASSERT_OK_AND_ASSIGN(auto mid,
                       RunNode(registry_, "S = SequenceErase (s, p)", 11, {abc_, I64(-2)}));
  EXPECT_THAT(Firsts(mid[0]), ElementsAre(1, 3));
  EXPECT_ERROR_CODE(RunNode(registry_, "S = SequenceErase (s)", 11, {Seq({})}), kInvalidArgument);
}

TEST_F(SequenceTest, LengthCountsTensors) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "n = SequenceLength (s)", 11, {abc_}));
  EXPECT_TRUE(DimsOf(out[0]).empty());
  EXPECT_THAT(ValuesOf<int64_t>(out[0]), ElementsAre(3));
  ASSERT_OK_AND_ASSIGN(auto empty, RunNode(registry_, "n = SequenceLength (s)", 11, {Seq({})}));
  EXPECT_THAT(ValuesOf<int64_t>(empty[0]), ElementsAre(0));
}

TEST_F(SequenceTest, SplitToSequenceWithoutSplitHonoursKeepdims) {
  const Value x = Value::FromTensor(F({2, 3}, {1, 2, 3, 4, 5, 6}));
  ASSERT_OK_AND_ASSIGN(auto kept,
                       RunNode(registry_, "S = SplitToSequence <axis = 1> (x)", 11, {x}));
  ASSERT_EQ(kept[0].sequence().size(), 3u);
  EXPECT_EQ(kept[0].sequence()[1].shape(), Shape({2, 1}));
  EXPECT_THAT(Floats(kept[0].sequence()[1]), ElementsAre(2, 5));
  ASSERT_OK_AND_ASSIGN(
      auto dropped,
      RunNode(registry_, "S = SplitToSequence <axis = -1, keepdims = 0> (x)", 11, {x}));
  EXPECT_EQ(dropped[0].sequence()[2].shape(), Shape({2}));
  EXPECT_THAT(Floats(dropped[0].sequence()[2]), ElementsAre(3, 6));
}

TEST_F(SequenceTest, SplitToSequenceWithScalarSplitLeavesAShorterLastPiece) {
  const Value x = Value::FromTensor(F({5}, {1, 2, 3, 4, 5}));
  // keepdims is ignored when a split is given.
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "S = SplitToSequence <keepdims = 0> (x, s)", 11, {x, I64(2)}));
  ASSERT_EQ(out[0].sequence().size(), 3u);
  EXPECT_THAT(Floats(out[0].sequence()[0]), ElementsAre(1, 2));
  EXPECT_THAT(Floats(out[0].sequence()[2]), ElementsAre(5));
  EXPECT_ERROR_CODE(RunNode(registry_, "S = SplitToSequence (x, s)", 11, {x, I64(0)}),
                    kInvalidArgument);
}

TEST_F(SequenceTest, SplitToSequenceWithListedSizes) {
  const Value x = Value::FromTensor(F({5}, {1, 2, 3, 4, 5}));
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "S = SplitToSequence (x, s)", 11,
                                         {x, TensorValue<int32_t>({3}, {1, 0, 4})}));
  ASSERT_EQ(out[0].sequence().size(), 3u);
  EXPECT_EQ(out[0].sequence()[1].shape(), Shape({0}));
  EXPECT_THAT(Floats(out[0].sequence()[2]), ElementsAre(2, 3, 4, 5));
  EXPECT_ERROR_CODE(
      RunNode(registry_, "S = SplitToSequence (x, s)", 11, {x, TensorValue<int64_t>({2}, {1, 1})}),
      kInvalidArgument);
}

TEST_F(SequenceTest, SplitToSequenceOfAnEmptyDimIsAnEmptySequence) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "S = SplitToSequence (x)", 11,
                                         {Value::FromTensor(F({0, 2}, {}))}));
  EXPECT_THAT(out[0].sequence(), IsEmpty());
  EXPECT_EQ(out[0].elem_type(), DataType::kFloat);
}

TEST_F(SequenceTest, ConcatFromSequenceJoinsOrStacks) {
  const Value s = Seq({F({1, 2}, {1, 2}), F({1, 2}, {3, 4})});
  ASSERT_OK_AND_ASSIGN(auto joined,
                       RunNode(registry_, "y = ConcatFromSequence <axis = -1> (s)", 11, {s}));
  EXPECT_THAT(DimsOf(joined[0]), ElementsAre(1, 4));
  EXPECT_THAT(ValuesOf<float>(joined[0]), ElementsAre(1, 2, 3, 4));
  // With new_axis the axis may be r (after the last dim) or -r-1.
  ASSERT_OK_AND_ASSIGN(
      auto last,
      RunNode(registry_, "y = ConcatFromSequence <axis = 2, new_axis = 1> (s)", 11, {s}));
  EXPECT_THAT(DimsOf(last[0]), ElementsAre(1, 2, 2));
  EXPECT_THAT(ValuesOf<float>(last[0]), ElementsAre(1, 3, 2, 4));
  ASSERT_OK_AND_ASSIGN(
      auto first,
      RunNode(registry_, "y = ConcatFromSequence <axis = -3, new_axis = 1> (s)", 11, {s}));
  EXPECT_THAT(DimsOf(first[0]), ElementsAre(2, 1, 2));
  EXPECT_ERROR_CODE(RunNode(registry_, "y = ConcatFromSequence <axis = 2> (s)", 11, {s}),
                    kInvalidArgument);
}

TEST_F(SequenceTest, ConcatFromSequenceStacksScalarsAndRejectsEmpty) {
  const Value s = Seq({F({}, {1}), F({}, {2}), F({}, {3})});
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "y = ConcatFromSequence <axis = 0, new_axis = 1> (s)", 11, {s}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(3));
  EXPECT_ERROR_CODE(RunNode(registry_, "y = ConcatFromSequence <axis = 0> (s)", 11, {s}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "y = ConcatFromSequence <axis = 0> (s)", 11, {Seq({})}),
                    kInvalidArgument);
}

TEST_F(SequenceTest, SequencesOfStringsWork) {
  const Value a = TensorValue<std::string>({2}, {"x", "y"});
  ASSERT_OK_AND_ASSIGN(auto seq, RunNode(registry_, "S = SequenceConstruct (a, b)", 11, {a, a}));
  ASSERT_OK_AND_ASSIGN(auto out,
                       RunNode(registry_, "y = ConcatFromSequence <axis = 0> (s)", 11, {seq[0]}));
  EXPECT_THAT(ValuesOf<std::string>(out[0]), ElementsAre("x", "y", "x", "y"));
}

TEST_F(SequenceTest, SplitToSequence24TakesBfloat16) {
  const Value x = BFloat16Value({3}, {1, 2, 3});
  EXPECT_FALSE(RunNode(registry_, "S = SplitToSequence (x)", 11, {x}).ok());
  ASSERT_OK_AND_ASSIGN(auto seq, RunNode(registry_, "S = SplitToSequence (x, s)", 24,
                                         {x, TensorValue<int64_t>({2}, {2, 1})}));
  ASSERT_EQ(seq[0].sequence().size(), 2u);
  EXPECT_EQ(seq[0].sequence()[0].dtype(), DataType::kBFloat16);
  EXPECT_EQ(seq[0].sequence()[1].ElementAsDouble(0), 3.0);
}

}  // namespace
}  // namespace onnxgate::ref
