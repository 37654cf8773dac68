// Tests of Einsum: parsing (implicit and explicit forms), matmul, transpose, traces and
// diagonals, ellipsis broadcasting, reductions, integer types and errors.
#include "runtime/ep/ref/kernels/math/einsum.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

class EinsumTest : public ::testing::Test {
 protected:
  StatusOr<std::vector<Value>> Run(const std::string& equation, const std::vector<Value>& inputs) {
    std::string names;
    for (size_t i = 0; i < inputs.size(); ++i) names += (i ? ", X" : "X") + std::to_string(i);
    return RunNode(registry_, "Y = Einsum <equation = \"" + equation + "\"> (" + names + ")", 12,
                   inputs);
  }
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  Value a23_ = TensorValue<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  Value b32_ = TensorValue<float>({3, 2}, {1, 0, 0, 1, 1, 1});
};

TEST(EinsumParseTest, ImplicitOutputIsSortedSingleLabels) {
  ASSERT_OK_AND_ASSIGN(EinsumEquation eq, ParseEinsumEquation("ba, ac"));
  EXPECT_THAT(eq.output, ElementsAre('b', 'c'));
  ASSERT_OK_AND_ASSIGN(EinsumEquation trace, ParseEinsumEquation("ii"));
  EXPECT_THAT(trace.output, IsEmpty());
  ASSERT_OK_AND_ASSIGN(EinsumEquation upper, ParseEinsumEquation("bB"));
  EXPECT_THAT(upper.output, ElementsAre('B', 'b'));
  ASSERT_OK_AND_ASSIGN(EinsumEquation ell, ParseEinsumEquation("...ij,...jk"));
  EXPECT_THAT(ell.output, ElementsAre('.', 'i', 'k'));
}

TEST(EinsumParseTest, Errors) {
  EXPECT_ERROR_CODE(ParseEinsumEquation("ij->k"), kInvalidArgument);
  EXPECT_ERROR_CODE(ParseEinsumEquation("ij->ii"), kInvalidArgument);
  EXPECT_ERROR_CODE(ParseEinsumEquation("i1->i"), kInvalidArgument);
  EXPECT_ERROR_CODE(ParseEinsumEquation("...i...->i"), kInvalidArgument);
  EXPECT_ERROR_CODE(ParseEinsumEquation("..i->i"), kInvalidArgument);
}

TEST_F(EinsumTest, MatMulExplicitAndImplicit) {
  for (const char* eq : {"ij,jk->ik", "ij,jk"}) {
    ASSERT_OK_AND_ASSIGN(auto out, Run(eq, {a23_, b32_}));
    EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 2)) << eq;
    EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(4, 5, 10, 11)) << eq;
  }
}

TEST_F(EinsumTest, TransposeAndSums) {
  ASSERT_OK_AND_ASSIGN(auto t, Run("ij->ji", {a23_}));
  EXPECT_THAT(DimsOf(t[0]), ElementsAre(3, 2));
  EXPECT_THAT(ValuesOf<float>(t[0]), ElementsAre(1, 4, 2, 5, 3, 6));
  ASSERT_OK_AND_ASSIGN(auto rows, Run("ij->i", {a23_}));
  EXPECT_THAT(ValuesOf<float>(rows[0]), ElementsAre(6, 15));
  ASSERT_OK_AND_ASSIGN(auto all, Run("ij->", {a23_}));
  EXPECT_THAT(DimsOf(all[0]), IsEmpty());
  EXPECT_THAT(ValuesOf<float>(all[0]), ElementsAre(21));
}

TEST_F(EinsumTest, TraceDiagonalAndInnerProduct) {
  Value m = TensorValue<double>({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  ASSERT_OK_AND_ASSIGN(auto trace, Run("ii", {m}));
  EXPECT_THAT(ValuesOf<double>(trace[0]), ElementsAre(15));
  ASSERT_OK_AND_ASSIGN(auto diag, Run("ii->i", {m}));
  EXPECT_THAT(ValuesOf<double>(diag[0]), ElementsAre(1, 5, 9));
  ASSERT_OK_AND_ASSIGN(auto inner, Run("i,i", {TensorValue<double>({3}, {1, 2, 3}),
                                               TensorValue<double>({3}, {4, 5, 6})}));
  EXPECT_THAT(ValuesOf<double>(inner[0]), ElementsAre(32));
  ASSERT_OK_AND_ASSIGN(auto outer, Run("i,j->ij", {TensorValue<double>({2}, {1, 2}),
                                                   TensorValue<double>({2}, {3, 4})}));
  EXPECT_THAT(ValuesOf<double>(outer[0]), ElementsAre(3, 4, 6, 8));
}

TEST_F(EinsumTest, BatchDiagonalWithEllipsis) {
  // [2, 2, 2]: batch of two 2x2 matrices.
  Value x = TensorValue<float>({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  ASSERT_OK_AND_ASSIGN(auto out, Run("...ii ->...i", {x}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 2));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(1, 4, 5, 8));
}

TEST_F(EinsumTest, EllipsisBroadcastsAcrossOperands) {
  // a is [2, 1 | 1, 2] and b is [3 | 2, 1]: the batch dims [2, 1] and [3] broadcast to [2, 3].
  Value a = TensorValue<float>({2, 1, 1, 2}, {1, 2, 3, 4});
  Value b = TensorValue<float>({3, 2, 1}, {1, 1, 2, 2, 3, 3});
  ASSERT_OK_AND_ASSIGN(auto out, Run("...ij,...jk->...ik", {a, b}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 3, 1, 1));
  // out[p, q] = a[p] . b[q], and b[q] is (q + 1) * [1, 1].
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(3, 6, 9, 7, 14, 21));
  // Batch matmul where ellipsis covers nothing in one operand.
  ASSERT_OK_AND_ASSIGN(auto none, Run("...ij,jk", {a, TensorValue<float>({2, 1}, {1, 1})}));
  EXPECT_THAT(DimsOf(none[0]), ElementsAre(2, 1, 1, 1));
  EXPECT_THAT(ValuesOf<float>(none[0]), ElementsAre(3, 7));
  // Explicit output without the ellipsis sums the batch dims away.
  ASSERT_OK_AND_ASSIGN(auto summed, Run("...ij->ij", {a}));
  EXPECT_THAT(ValuesOf<float>(summed[0]), ElementsAre(4, 6));
}

TEST_F(EinsumTest, ThreeOperandsAndIntegers) {
  Value v = TensorValue<int32_t>({2}, {1, 2});
  Value m = TensorValue<int32_t>({2, 2}, {1, 2, 3, 4});
  ASSERT_OK_AND_ASSIGN(auto out, Run("i,ij,j->", {v, m, v}));
  // sum_ij v_i m_ij v_j = 1*1*1 + 1*2*2 + 2*3*1 + 2*4*2 = 27
  EXPECT_THAT(ValuesOf<int32_t>(out[0]), ElementsAre(27));
}

TEST_F(EinsumTest, ShapeErrors) {
  EXPECT_ERROR_CODE(Run("ij,jk", {a23_, a23_}), kInvalidArgument);  // j is 3 and 2
  EXPECT_ERROR_CODE(Run("ijk", {a23_}), kInvalidArgument);          // rank 2, three labels
  EXPECT_ERROR_CODE(Run("ij,jk", {a23_}), kInvalidArgument);        // two terms, one input
  EXPECT_ERROR_CODE(Run("...i,...i", {a23_, TensorValue<float>({4, 3}, std::vector<float>(12))}),
                    kInvalidArgument);  // batch 2 vs 4
}

TEST_F(EinsumTest, EmptyDims) {
  ASSERT_OK_AND_ASSIGN(
      auto out, Run("ij,jk->ik", {TensorValue<float>({2, 0}, {}), TensorValue<float>({0, 2}, {})}));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(0, 0, 0, 0));
}

TEST_F(EinsumTest, BFloat16FromOpset28) {
  Value x = BFloat16Value({2, 2}, {1, 2, 3, 4});
  const std::string node = "Y = Einsum <equation = \"ij->ji\"> (X)";
  EXPECT_ERROR_CODE(RunNode(registry_, node, 27, {x}), kUnimplemented);
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, node, 28, {x}));
  EXPECT_THAT(HalfValuesOf<BFloat16>(out[0]), ElementsAre(1, 3, 2, 4));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Einsum <equation = \"ijk->i\"> (X)", 28, {x}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
