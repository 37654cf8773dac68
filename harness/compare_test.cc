// Tests for output comparison: the rtol/atol rule, special values, exact types, statistics and
// summaries, sequences and optionals.
#include "harness/compare.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace onnxgate {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

Tensor F(Shape shape, std::vector<float> v) { return Tensor::FromVector<float>(shape, v); }

TEST(CompareTest, EqualTensorsPass) {
  Tensor t = F({2, 3}, {1, 2, 3, 4, 5, 6});
  TensorComparison c = CompareTensors(t, t.Clone(), Tolerance());
  EXPECT_TRUE(c.passed);
  EXPECT_EQ(c.total_elements, 6);
  EXPECT_EQ(c.mismatches, 0);
  EXPECT_EQ(c.max_abs_error, 0);
  EXPECT_EQ(c.worst.flat_index, -1);
  EXPECT_EQ(c.min_passing_rtol, 0);
  EXPECT_EQ(c.min_passing_atol, 0);
  EXPECT_EQ(c.summary, "max abs 0, max rel 0, 0/6 mismatches");
}

TEST(CompareTest, ReportsStatisticsWorstElementAndPassingTolerances) {
  std::vector<float> expected(24, 2.0f), actual(24, 2.0f);
  expected[6] = 0.5f;  // [0,1,2] in a [2,3,4] tensor
  actual[6] = 0.532f;
  expected[10] = 1.0f;
  actual[10] = 1.01f;
  actual[20] = 2.02f;
  TensorComparison c = CompareTensors(F({2, 3, 4}, actual), F({2, 3, 4}, expected), Tolerance());
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.mismatches, 3);
  EXPECT_EQ(c.total_elements, 24);
  EXPECT_NEAR(c.max_abs_error, 0.032, 1e-6);
  EXPECT_NEAR(c.max_rel_error, 0.064, 1e-6);
  EXPECT_EQ(c.worst.flat_index, 6);
  EXPECT_THAT(c.worst.index, ElementsAre(0, 1, 2));
  EXPECT_EQ(c.worst.expected, "0.5");
  EXPECT_EQ(c.worst.actual, "0.532");
  EXPECT_NEAR(c.min_passing_rtol, (0.032 - 1e-7) / 0.5, 1e-6);
  EXPECT_NEAR(c.min_passing_atol, 0.032 - 1e-3 * 0.5, 1e-6);
  EXPECT_EQ(c.summary,
            "max abs 0.032, max rel 0.064, 3/24 (12.5%) mismatches, worst at [0,1,2]: expected "
            "0.5 got 0.532, would pass with rtol>=0.064 or atol>=0.032");
}

TEST(CompareTest, BoundaryOfTheRuleIsInclusive) {
  // All values exact in binary: |a - e| == atol + rtol |e| passes, a bit more fails.
  Tolerance tol{0.5, 0.25};
  EXPECT_TRUE(CompareTensors(F({1}, {1.75f}), F({1}, {1.0f}), tol).passed);
  EXPECT_TRUE(CompareTensors(F({1}, {0.25f}), F({1}, {1.0f}), tol).passed);
  EXPECT_FALSE(CompareTensors(F({1}, {1.875f}), F({1}, {1.0f}), tol).passed);
  // The rule scales with |expected|, not |actual|.
  EXPECT_TRUE(CompareTensors(F({1}, {-1.75f}), F({1}, {-1.0f}), tol).passed);
}

TEST(CompareTest, SuggestedTolerancesReallyPassAndAreTight) {
  std::mt19937 rng(42);
  std::normal_distribution<float> dist(0.0f, 3.0f);
  std::vector<float> e(1000), a(1000);
  for (size_t i = 0; i < e.size(); ++i) {
    e[i] = dist(rng);
    a[i] = e[i] + 1e-2f * dist(rng);
  }
  Tensor actual = F({10, 100}, a), expected = F({10, 100}, e);
  Tolerance tol{1e-4, 1e-6};
  TensorComparison c = CompareTensors(actual, expected, tol);
  ASSERT_FALSE(c.passed);
  ASSERT_TRUE(std::isfinite(c.min_passing_rtol));
  double up = 1 + 1e-12;
  EXPECT_TRUE(CompareTensors(actual, expected, {c.min_passing_rtol * up, tol.atol}).passed);
  EXPECT_FALSE(CompareTensors(actual, expected, {c.min_passing_rtol * 0.999, tol.atol}).passed);
  EXPECT_TRUE(CompareTensors(actual, expected, {tol.rtol, c.min_passing_atol * up}).passed);
  EXPECT_FALSE(CompareTensors(actual, expected, {tol.rtol, c.min_passing_atol * 0.999}).passed);
  // The worst element is the one furthest outside its tolerance.
  double worst_ratio = 0;
  int64_t worst = -1;
  for (size_t i = 0; i < e.size(); ++i) {
    double ratio = std::fabs(double{a[i]} - e[i]) / (tol.atol + tol.rtol * std::fabs(double{e[i]}));
    if (ratio > worst_ratio) worst_ratio = ratio, worst = static_cast<int64_t>(i);
  }
  EXPECT_EQ(c.worst.flat_index, worst);
  EXPECT_THAT(c.worst.index, ElementsAre(worst / 100, worst % 100));
}

TEST(CompareTest, ErrorAgainstZeroNeedsAtol) {
  TensorComparison c = CompareTensors(F({2}, {0.5f, 1.0f}), F({2}, {0.0f, 1.0f}), Tolerance());
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.max_rel_error, 0);  // no relative size against 0
  EXPECT_EQ(c.max_abs_error, 0.5);
  EXPECT_EQ(c.min_passing_rtol, kInf);
  EXPECT_EQ(c.min_passing_atol, 0.5);
  EXPECT_THAT(c.summary, HasSubstr("would pass with atol>=0.5"));
  EXPECT_THAT(c.summary, ::testing::Not(HasSubstr("rtol>=")));
}

TEST(CompareTest, NanMatchesOnlyNan) {
  EXPECT_TRUE(CompareTensors(F({2}, {kNaN, 1}), F({2}, {kNaN, 1}), Tolerance()).passed);
  TensorComparison c = CompareTensors(F({2}, {kNaN, 1}), F({2}, {1, 1}), {1, 1});
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.max_abs_error, kInf);
  EXPECT_EQ(c.max_rel_error, kInf);
  EXPECT_EQ(c.min_passing_rtol, kInf);
  EXPECT_EQ(c.min_passing_atol, kInf);
  EXPECT_EQ(c.worst.actual, "nan");
  EXPECT_THAT(c.summary, HasSubstr("expected 1 got nan, no tolerance would pass"));
  EXPECT_FALSE(CompareTensors(F({1}, {1}), F({1}, {kNaN}), {1, 1}).passed);
}

TEST(CompareTest, InfinitiesMatchOnlyTheSameInfinity) {
  float inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(CompareTensors(F({2}, {inf, -inf}), F({2}, {inf, -inf}), Tolerance()).passed);
  EXPECT_FALSE(CompareTensors(F({1}, {-inf}), F({1}, {inf}), {1e9, 1e9}).passed);
  EXPECT_FALSE(CompareTensors(F({1}, {3e38f}), F({1}, {inf}), {1e9, 1e9}).passed);
  TensorComparison c = CompareTensors(F({1}, {inf}), F({1}, {1}), {1e9, 1e9});
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.min_passing_atol, kInf);
  EXPECT_EQ(c.worst.actual, "inf");
}

TEST(CompareTest, UnmatchedNanIsWorseThanAnyFiniteError) {
  TensorComparison c = CompareTensors(F({3}, {100, kNaN, 50}), F({3}, {1, 1, 1}), Tolerance());
  EXPECT_EQ(c.mismatches, 3);
  EXPECT_EQ(c.worst.flat_index, 1);
}

TEST(CompareTest, ShapeDtypeAndKindMustMatch) {
  TensorComparison c =
      CompareTensors(F({3, 2}, {1, 2, 3, 4, 5, 6}), F({2, 3}, {1, 2, 3, 4, 5, 6}), Tolerance());
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.structure_error, "shape [2,3] expected, got [3,2]");
  EXPECT_EQ(c.summary, "shape [2,3] expected, got [3,2]");
  EXPECT_EQ(c.mismatches, 6);
  EXPECT_EQ(c.min_passing_rtol, kInf);

  Tensor d = Tensor::FromVector<double>({2}, {1, 2});
  c = CompareTensors(d, F({2}, {1, 2}), Tolerance());
  EXPECT_EQ(c.summary, "dtype float expected, got double");

  ValueComparison v = CompareValues(Value::FromSequence(DataType::kFloat, {}),
                                    Value::FromTensor(F({2}, {1, 2})), Tolerance());
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.summary, "a tensor expected, got a sequence");
  v = CompareValues(Value(), Value::FromTensor(F({2}, {1, 2})), Tolerance());
  EXPECT_EQ(v.summary, "a tensor expected, got nothing");
}

TEST(CompareTest, HalfPrecisionTypesCompareThroughFloat) {
  auto h = [](std::vector<float> v) {
    std::vector<Float16> out;
    for (float f : v) out.push_back(Float16::FromFloat(f));
    return Tensor::FromVector<Float16>({static_cast<int64_t>(v.size())}, out);
  };
  EXPECT_TRUE(CompareTensors(h({1.0f, 2.0f}), h({1.0f, 2.0f}), Tolerance()).passed);
  // 1 + 2^-10 is the next float16 after 1: one ULP, just inside rtol 1e-3.
  EXPECT_TRUE(CompareTensors(h({1.0009765625f}), h({1.0f}), Tolerance()).passed);
  TensorComparison c = CompareTensors(h({1.0f, 2.5f}), h({1.0f, 2.0f}), Tolerance());
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.worst.expected, "2");
  EXPECT_EQ(c.worst.actual, "2.5");
  EXPECT_EQ(c.max_abs_error, 0.5);

  auto b = [](float f) { return Tensor::FromVector<BFloat16>({1}, {BFloat16::FromFloat(f)}); };
  c = CompareTensors(b(1.0078125f), b(1.0f), Tolerance());  // one bfloat16 ULP
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.worst.actual, "1.01");  // shortest text that reads back
  EXPECT_TRUE(CompareTensors(b(1.0078125f), b(1.0f), {8e-3, 0}).passed);
}

TEST(CompareTest, DoubleAndComplexCompareEachComponent) {
  Tensor d1 = Tensor::FromVector<double>({2}, {0.1, 1e300});
  EXPECT_TRUE(CompareTensors(d1, d1.Clone(), {0, 0}).passed);
  EXPECT_EQ(CompareTensors(Tensor::FromVector<double>({1}, {0.30000000000000004}),
                           Tensor::FromVector<double>({1}, {0.3}), {0, 0})
                .worst.actual,
            "0.30000000000000004");

  using C = std::complex<float>;
  Tensor e = Tensor::FromVector<C>({2}, {C(1, 2), C(3, 4)});
  Tensor ok = Tensor::FromVector<C>({2}, {C(1.0005f, 2), C(3, 4.003f)});
  Tensor bad = Tensor::FromVector<C>({2}, {C(1, 2), C(3, 4.1f)});
  EXPECT_TRUE(CompareTensors(ok, e, Tolerance()).passed);
  TensorComparison c = CompareTensors(bad, e, Tolerance());
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.worst.flat_index, 1);
  EXPECT_EQ(c.worst.expected, "(3+4j)");
  EXPECT_EQ(c.worst.actual, "(3+4.1j)");
  EXPECT_NEAR(c.max_abs_error, 0.1, 1e-6);
}

TEST(CompareTest, IntegersMustBeEqualWhateverTheTolerance) {
  Tensor e = Tensor::FromVector<int64_t>({2, 2}, {1, 2, 3, 4});
  EXPECT_TRUE(CompareTensors(e.Clone(), e, Tolerance()).passed);
  Tensor a = Tensor::FromVector<int64_t>({2, 2}, {1, 3, 3, 14});
  TensorComparison c = CompareTensors(a, e, {1e9, 1e9});
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_EQ(c.worst.flat_index, 3);  // the largest difference
  EXPECT_EQ(c.max_abs_error, 10);
  EXPECT_EQ(c.min_passing_rtol, kInf);
  EXPECT_EQ(c.min_passing_atol, kInf);
  EXPECT_EQ(c.summary,
            "2/4 (50%) mismatches, worst at [1,1]: expected 4 got 14, max abs 10; int64 values "
            "must be equal");

  Tensor u1 = Tensor::FromVector<uint64_t>({1}, {UINT64_MAX});
  Tensor u2 = Tensor::FromVector<uint64_t>({1}, {0});
  c = CompareTensors(u2, u1, Tolerance());
  EXPECT_EQ(c.max_abs_error, static_cast<double>(UINT64_MAX));
  EXPECT_EQ(c.worst.expected, "18446744073709551615");
}

TEST(CompareTest, BoolsAndStringsReportTheFirstDifference) {
  Tensor e = Tensor::FromVector<bool>({3}, {true, false, true});
  Tensor a = Tensor::FromVector<bool>({3}, {true, true, false});
  TensorComparison c = CompareTensors(a, e, Tolerance());
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_EQ(c.summary,
            "2/3 (66.7%) mismatches, first at [1]: expected false got true; bool values must be "
            "equal");

  Tensor se = Tensor::FromVector<std::string>({2}, {"a", "b\n"});
  Tensor sa = Tensor::FromVector<std::string>({2}, {"a", "c"});
  EXPECT_TRUE(CompareTensors(se.Clone(), se, Tolerance()).passed);
  c = CompareTensors(sa, se, Tolerance());
  EXPECT_EQ(c.worst.expected, "\"b\\x0a\"");
  EXPECT_EQ(c.worst.actual, "\"c\"");
  EXPECT_EQ(c.max_abs_error, 0);
}

TEST(CompareTest, EmptyAndScalarTensors) {
  TensorComparison c = CompareTensors(F({0, 3}, {}), F({0, 3}, {}), Tolerance());
  EXPECT_TRUE(c.passed);
  EXPECT_EQ(c.summary, "0 elements (empty tensor)");
  c = CompareTensors(Tensor::Scalar(2.0f), Tensor::Scalar(1.0f), Tolerance());
  EXPECT_FALSE(c.passed);
  EXPECT_TRUE(c.worst.index.empty());
  EXPECT_THAT(c.summary, HasSubstr("worst at []: expected 1 got 2"));
}

TEST(CompareTest, SequencesCompareItemByItem) {
  Value e = Value::FromSequence(DataType::kFloat, {F({1}, {1}), F({2}, {1, 2}), F({1}, {5})});
  Value good = Value::FromSequence(DataType::kFloat, {F({1}, {1}), F({2}, {1, 2}), F({1}, {5})});
  ValueComparison v = CompareValues(good, e, Tolerance());
  EXPECT_TRUE(v.passed);
  EXPECT_EQ(v.parts.size(), 3u);
  EXPECT_EQ(v.total_elements, 4);
  EXPECT_EQ(v.summary, "3 items, max abs 0, max rel 0, 0/4 mismatches");

  Value bad = Value::FromSequence(DataType::kFloat, {F({1}, {1}), F({3}, {1, 2, 3}), F({1}, {6})});
  v = CompareValues(bad, e, Tolerance());
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.parts[1].path, "[1]");
  EXPECT_EQ(v.summary, "[1]: shape [2] expected, got [3] (and 1 more items fail)");
  EXPECT_EQ(v.mismatches, 3);
  EXPECT_EQ(v.min_passing_rtol, kInf);

  Value short_seq = Value::FromSequence(DataType::kFloat, {F({1}, {1})});
  EXPECT_EQ(CompareValues(short_seq, e, Tolerance()).summary,
            "sequence of 3 items expected, got 1");
  Value ints = Value::FromSequence(DataType::kInt64, {});
  EXPECT_EQ(CompareValues(ints, Value::FromSequence(DataType::kFloat, {}), Tolerance()).summary,
            "sequence of float expected, got sequence of int64");
  EXPECT_TRUE(CompareValues(Value::FromSequence(DataType::kFloat, {}),
                            Value::FromSequence(DataType::kFloat, {}), Tolerance())
                  .passed);
}

TEST(CompareTest, OptionalsComparePresenceThenContent) {
  Value none = Value::OptionalNone(Value::Kind::kTensor, DataType::kFloat);
  Value some = Value::OptionalOf(Value::FromTensor(F({1}, {1})));
  Value other = Value::OptionalOf(Value::FromTensor(F({1}, {2})));
  EXPECT_TRUE(CompareValues(none, none, Tolerance()).passed);
  EXPECT_EQ(CompareValues(none, none, Tolerance()).summary, "both optionals empty");
  EXPECT_TRUE(CompareValues(some, some, Tolerance()).passed);
  EXPECT_EQ(CompareValues(none, some, Tolerance()).summary,
            "optional with a value expected, got an empty one");
  EXPECT_EQ(CompareValues(some, none, Tolerance()).summary,
            "empty optional expected, got one with a value");
  ValueComparison v = CompareValues(other, some, Tolerance());
  EXPECT_FALSE(v.passed);
  EXPECT_THAT(v.summary, HasSubstr("expected 1 got 2"));
  Value seq_none = Value::OptionalNone(Value::Kind::kSequence, DataType::kFloat);
  EXPECT_FALSE(CompareValues(seq_none, none, Tolerance()).passed);
}

TEST(CompareTest, FormatShort) {
  EXPECT_EQ(FormatShort(0), "0");
  EXPECT_EQ(FormatShort(0.032), "0.032");
  EXPECT_EQ(FormatShort(3.2e-5), "3.2e-5");
  EXPECT_EQ(FormatShort(1.234e10), "1.2e10");
  EXPECT_EQ(FormatShort(kInf), "inf");
  EXPECT_EQ(FormatShort(0.0631, true), "0.064");
  EXPECT_EQ(FormatShort(0.064, true), "0.064");
  EXPECT_EQ(FormatShort(9.91e-8, true), "1e-7");
  EXPECT_EQ(FormatShort(-0.0631, true), "-0.064");
}

template <typename F8>
Tensor F8Codes(std::vector<uint8_t> codes) {
  std::vector<F8> v;
  for (uint8_t c : codes) v.push_back(F8{c});
  return Tensor::FromVector<F8>({static_cast<int64_t>(codes.size())}, v);
}

TEST(CompareTest, Float8ComparesDecodedValues) {
  // E4M3FN: 1.0 = 0x38, 1.125 = 0x39 (one step), 448 = 0x7E, NaN = 0x7F.
  Tensor e = F8Codes<Float8E4M3FN>({0x38, 0x7E, 0x7F});
  EXPECT_TRUE(CompareTensors(e.Clone(), e, Tolerance()).passed);
  EXPECT_TRUE(CompareTensors(F8Codes<Float8E4M3FN>({0x38, 0x7E, 0xFF}), e, Tolerance()).passed)
      << "any NaN matches NaN";
  TensorComparison c = CompareTensors(F8Codes<Float8E4M3FN>({0x39, 0x7E, 0x7F}), e, Tolerance());
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_EQ(c.max_abs_error, 0.125);
  EXPECT_EQ(c.max_rel_error, 0.125);
  EXPECT_EQ(c.worst.flat_index, 0);
  EXPECT_EQ(c.worst.expected, "1");
  EXPECT_EQ(c.worst.actual, "1.125");
  EXPECT_NEAR(c.min_passing_rtol, 0.125 - 1e-7, 1e-12);
  EXPECT_NEAR(c.min_passing_atol, 0.125 - 1e-3, 1e-12);
  EXPECT_EQ(c.summary,
            "max abs 0.12, max rel 0.12, 1/3 (33.3%) mismatches, worst at [0]: expected 1 got "
            "1.125, would pass with rtol>=0.13 or atol>=0.13");
  EXPECT_TRUE(CompareTensors(F8Codes<Float8E4M3FN>({0x39, 0x7E, 0x7F}), e, {0.125, 0}).passed);
  // NaN against a number: no tolerance passes.
  c = CompareTensors(F8Codes<Float8E4M3FN>({0x38, 0x7F, 0x7F}), e, {1, 1});
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.worst.actual, "nan");
  EXPECT_EQ(c.worst.expected, "448");
  EXPECT_EQ(c.min_passing_rtol, kInf);
}

TEST(CompareTest, Float8SpecialValuesPerType) {
  // FNUZ: 0x80 is NaN (not -0) and matches only NaN.
  Tensor nan_uz = F8Codes<Float8E4M3FNUZ>({0x80});
  EXPECT_TRUE(CompareTensors(nan_uz.Clone(), nan_uz, Tolerance()).passed);
  TensorComparison c = CompareTensors(F8Codes<Float8E4M3FNUZ>({0x00}), nan_uz, {1, 1});
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.worst.expected, "nan");
  EXPECT_EQ(c.worst.actual, "0");
  EXPECT_FALSE(
      CompareTensors(F8Codes<Float8E5M2FNUZ>({0x80}), F8Codes<Float8E5M2FNUZ>({0x00}), {1, 1})
          .passed);
  // E5M2: infinities by sign.
  Tensor inf = F8Codes<Float8E5M2>({0x7C, 0xFC});
  EXPECT_TRUE(CompareTensors(inf.Clone(), inf, Tolerance()).passed);
  c = CompareTensors(F8Codes<Float8E5M2>({0xFC, 0xFC}), inf, {1, 1});
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.worst.expected, "inf");
  EXPECT_EQ(c.worst.actual, "-inf");
  c = CompareTensors(F8Codes<Float8E5M2>({0x7B, 0xFC}), inf, {1, 1});
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.worst.actual, "57344");
  // E5M2 keeps -0, and -0 equals +0 as for every float.
  EXPECT_TRUE(
      CompareTensors(F8Codes<Float8E5M2>({0x80}), F8Codes<Float8E5M2>({0x00}), {0, 0}).passed);
  // E8M0: 0xFF is NaN; 2^0 against 2^1 is a relative error of 1.
  Tensor e8 = F8Codes<Float8E8M0>({127, 0xFF});
  EXPECT_TRUE(CompareTensors(e8.Clone(), e8, Tolerance()).passed);
  c = CompareTensors(F8Codes<Float8E8M0>({128, 0xFF}), e8, Tolerance());
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.max_rel_error, 1.0);
  EXPECT_EQ(c.worst.expected, "1");
  EXPECT_EQ(c.worst.actual, "2");
  EXPECT_FALSE(CompareTensors(F8Codes<Float8E8M0>({127, 127}), e8, {1, 1}).passed);
  // The smallest E8M0 value prints as the shortest text that reads back as it.
  c = CompareTensors(F8Codes<Float8E8M0>({1}), F8Codes<Float8E8M0>({0}), {0, 0});
  EXPECT_EQ(c.worst.expected, "5.877472e-39");
}

TEST(CompareTest, Float4ComparesDecodedValues) {
  auto f4 = [](std::vector<float> v) {
    std::vector<Float4E2M1> codes;
    for (float f : v) codes.push_back(Float4E2M1::FromFloat(f));
    return Tensor::FromFloat4({static_cast<int64_t>(v.size())}, codes);
  };
  Tensor e = f4({0.5f, -6.f, 3.f});
  EXPECT_TRUE(CompareTensors(e.Clone(), e, Tolerance()).passed);
  TensorComparison c = CompareTensors(f4({0.5f, -4.f, 3.f}), e, Tolerance());
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.worst.flat_index, 1);
  EXPECT_EQ(c.worst.expected, "-6");
  EXPECT_EQ(c.worst.actual, "-4");
  EXPECT_EQ(c.max_abs_error, 2);
  EXPECT_THAT(c.summary, HasSubstr("would pass with rtol>=0.34 or atol>=2"));
  EXPECT_TRUE(CompareTensors(f4({0.5f, -4.f, 3.f}), e, {0, 2}).passed);
}

TEST(CompareTest, SubByteIntegersMustBeEqual) {
  Tensor e = *Tensor::FromSubByteInts(DataType::kInt4, {5}, {-8, 7, -1, 0, 3});
  EXPECT_TRUE(CompareTensors(e.Clone(), e, Tolerance()).passed);
  Tensor a = *Tensor::FromSubByteInts(DataType::kInt4, {5}, {7, 7, -1, 0, 2});
  TensorComparison c = CompareTensors(a, e, {1e9, 1e9});
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_EQ(c.worst.flat_index, 0);
  EXPECT_EQ(c.max_abs_error, 15);
  EXPECT_EQ(c.min_passing_rtol, kInf);
  EXPECT_EQ(c.summary,
            "2/5 (40%) mismatches, worst at [0]: expected -8 got 7, max abs 15; int4 values must "
            "be equal");
  Tensor u2e = *Tensor::FromSubByteInts(DataType::kUint2, {2, 3}, {0, 1, 2, 3, 0, 1});
  Tensor u2a = *Tensor::FromSubByteInts(DataType::kUint2, {2, 3}, {0, 1, 2, 3, 0, 2});
  c = CompareTensors(u2a, u2e, Tolerance());
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.worst.index, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(c.max_rel_error, 1);
  EXPECT_TRUE(CompareTensors(*Tensor::FromSubByteInts(DataType::kInt2, {3}, {-2, 1, 0}),
                             *Tensor::FromSubByteInts(DataType::kInt2, {3}, {-2, 1, 0}),
                             Tolerance())
                  .passed);
  EXPECT_TRUE(CompareTensors(*Tensor::FromSubByteInts(DataType::kUint4, {1}, {15}),
                             *Tensor::FromSubByteInts(DataType::kUint4, {1}, {15}), Tolerance())
                  .passed);
  // A different packed type is a structure error, not a comparison of bytes.
  c = CompareTensors(*Tensor::FromSubByteInts(DataType::kUint4, {2}, {1, 2}), e, Tolerance());
  EXPECT_EQ(c.structure_error, "dtype int4 expected, got uint4");
}

TEST(CompareTest, NewTypesInSequences) {
  Value e = Value::FromSequence(DataType::kFloat8E5M2,
                                {F8Codes<Float8E5M2>({0x3C}), F8Codes<Float8E5M2>({0x7C})});
  Value a = Value::FromSequence(DataType::kFloat8E5M2,
                                {F8Codes<Float8E5M2>({0x3C}), F8Codes<Float8E5M2>({0x7B})});
  ValueComparison v = CompareValues(a, e, Tolerance());
  EXPECT_FALSE(v.passed);
  EXPECT_THAT(v.summary, HasSubstr("[1]: "));
  EXPECT_EQ(v.max_abs_error, kInf);
}

}  // namespace
}  // namespace onnxgate
