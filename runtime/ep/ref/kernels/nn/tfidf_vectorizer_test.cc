// Tests of TfIdfVectorizer: skip-grams, 1-grams counted once, the TF, IDF and TFIDF weightings,
// int64 and string pools, [N, C] batches, output coordinates, and attribute validation.
#include "runtime/ep/ref/kernels/nn/tfidf_vectorizer.h"

#include <optional>
#include <set>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/common/registration_table.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"
#include "runtime/onnx/op_spec.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

class TfIdfVectorizerTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);

  StatusOr<std::vector<Value>> Run(const std::string& attributes, const Value& x) {
    return RunNode(registry_, "Y = TfIdfVectorizer <" + attributes + "> (X)", 9, {x});
  }
  std::string Grams(int64_t min, int64_t max, int64_t skip) {
    return "min_gram_length = " + std::to_string(min) +
           ", max_gram_length = " + std::to_string(max) +
           ", max_skip_count = " + std::to_string(skip);
  }
};

TEST_F(TfIdfVectorizerTest, SpecExampleOfSkips) {
  // [94, 17, 36, 12, 28] with 2 skips gives the 2-grams [94, 12] and [17, 28].
  const Value x = TensorValue<int32_t>({5}, {94, 17, 36, 12, 28});
  const std::string pool =
      ", mode = \"TF\", ngram_counts = [0, 0], ngram_indexes = [0, 1, 2], "
      "pool_int64s = [94, 12, 17, 28, 94, 17]";
  ASSERT_OK_AND_ASSIGN(auto two, Run(Grams(2, 2, 2) + pool, x));
  EXPECT_THAT(DimsOf(two[0]), ElementsAre(3));
  EXPECT_THAT(ValuesOf<float>(two[0]), ElementsAre(1, 1, 1));
  ASSERT_OK_AND_ASSIGN(auto one, Run(Grams(2, 2, 1) + pool, x));
  EXPECT_THAT(ValuesOf<float>(one[0]), ElementsAre(0, 0, 1));
}

TEST_F(TfIdfVectorizerTest, SpecExampleOfOutputCoordinates) {
  // ngram_indexes [1, 0]: Y[0] counts [17, 36] and Y[1] counts [94, 17].
  ASSERT_OK_AND_ASSIGN(
      auto y, Run(Grams(2, 2, 0) + ", mode = \"TF\", ngram_counts = [0, 0], "
                                   "ngram_indexes = [1, 0], pool_int64s = [94, 17, 17, 36]",
                  TensorValue<int64_t>({5}, {94, 17, 36, 17, 36})));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(2, 1));
  // Gaps in ngram_indexes leave zero coordinates; the output has max(ngram_indexes) + 1.
  ASSERT_OK_AND_ASSIGN(
      auto gaps, Run(Grams(2, 2, 0) + ", mode = \"TF\", ngram_counts = [0, 0], "
                                      "ngram_indexes = [4, 1], pool_int64s = [94, 17, 17, 36]",
                     TensorValue<int64_t>({5}, {94, 17, 36, 17, 36})));
  EXPECT_THAT(ValuesOf<float>(gaps[0]), ElementsAre(0, 2, 0, 0, 1));
}

TEST_F(TfIdfVectorizerTest, SkipGramsUpToTrigramsWithUnigramsCountedOnce) {
  // Pool: 1-gram [9], 2-gram [1, 2], 3-gram [1, 2, 3].
  const Value x = TensorValue<int64_t>({5}, {1, 9, 2, 9, 3});
  const std::string pool =
      ", mode = \"TF\", ngram_counts = [0, 1, 3], ngram_indexes = [0, 1, 2], "
      "pool_int64s = [9, 1, 2, 1, 2, 3]";
  ASSERT_OK_AND_ASSIGN(auto skip1, Run(Grams(1, 3, 1) + pool, x));
  EXPECT_THAT(ValuesOf<float>(skip1[0]), ElementsAre(2, 1, 1));
  ASSERT_OK_AND_ASSIGN(auto skip3, Run(Grams(1, 3, 3) + pool, x));
  EXPECT_THAT(ValuesOf<float>(skip3[0]), ElementsAre(2, 1, 1));
  ASSERT_OK_AND_ASSIGN(auto skip0, Run(Grams(1, 3, 0) + pool, x));
  EXPECT_THAT(ValuesOf<float>(skip0[0]), ElementsAre(2, 0, 0));
  // Only the lengths in [min_gram_length, max_gram_length] count.
  ASSERT_OK_AND_ASSIGN(auto tri, Run(Grams(3, 3, 1) + pool, x));
  EXPECT_THAT(ValuesOf<float>(tri[0]), ElementsAre(0, 0, 1));
  ASSERT_OK_AND_ASSIGN(auto uni_bi, Run(Grams(1, 2, 1) + pool, x));
  EXPECT_THAT(ValuesOf<float>(uni_bi[0]), ElementsAre(2, 1, 0));
}

TEST_F(TfIdfVectorizerTest, Weightings) {
  const Value x = TensorValue<int64_t>({4}, {2, 2, 3, 5});
  const std::string pool = Grams(1, 1, 0) +
                           ", ngram_counts = [0], ngram_indexes = [0, 1, 2], "
                           "pool_int64s = [2, 3, 4]";
  const std::string weights = ", weights = [0.5, 2.0, 4.0]";
  ASSERT_OK_AND_ASSIGN(auto tf, Run(pool + ", mode = \"TF\"" + weights, x));
  EXPECT_THAT(ValuesOf<float>(tf[0]), ElementsAre(2, 1, 0));
  ASSERT_OK_AND_ASSIGN(auto idf, Run(pool + ", mode = \"IDF\"" + weights, x));
  EXPECT_THAT(ValuesOf<float>(idf[0]), ElementsAre(0.5, 2, 0));
  ASSERT_OK_AND_ASSIGN(auto tfidf, Run(pool + ", mode = \"TFIDF\"" + weights, x));
  EXPECT_THAT(ValuesOf<float>(tfidf[0]), ElementsAre(1, 2, 0));
  ASSERT_OK_AND_ASSIGN(auto idf1, Run(pool + ", mode = \"IDF\"", x));
  EXPECT_THAT(ValuesOf<float>(idf1[0]), ElementsAre(1, 1, 0));
  ASSERT_OK_AND_ASSIGN(auto tfidf1, Run(pool + ", mode = \"TFIDF\"", x));
  EXPECT_THAT(ValuesOf<float>(tfidf1[0]), ElementsAre(2, 1, 0));
}

TEST_F(TfIdfVectorizerTest, StringPoolInBatches) {
  // 1-grams a, b, c and the 2-gram [b, c], written to the coordinates in reverse order.
  const std::string attrs = Grams(1, 2, 0) +
                            ", mode = \"TF\", ngram_counts = [0, 3], "
                            "ngram_indexes = [3, 2, 1, 0], "
                            "pool_strings = [\"a\", \"b\", \"c\", \"b\", \"c\"]";
  ASSERT_OK_AND_ASSIGN(auto y,
                       Run(attrs, TensorValue<std::string>(
                                      {3, 3}, {"a", "b", "c", "b", "b", "c", "zz", "zz", "zz"})));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(3, 4));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(1, 1, 1, 1, 1, 1, 2, 0, 0, 0, 0, 0));
  // Rows are separate: no n-gram spans two rows.
  ASSERT_OK_AND_ASSIGN(auto split, Run(attrs, TensorValue<std::string>({2, 1}, {"b", "c"})));
  EXPECT_THAT(ValuesOf<float>(split[0]), ElementsAre(0, 0, 1, 0, 0, 1, 0, 0));
  ASSERT_OK_AND_ASSIGN(auto none, Run(attrs, TensorValue<std::string>({0, 3}, {})));
  EXPECT_THAT(DimsOf(none[0]), ElementsAre(0, 4));
}

TEST_F(TfIdfVectorizerTest, Int64PoolWithInt64AndInt32Batches) {
  const std::string attrs = Grams(2, 2, 1) +
                            ", mode = \"TF\", ngram_counts = [0, 0], ngram_indexes = [0, 1], "
                            "pool_int64s = [5000000000, 7, 7, 7]";
  ASSERT_OK_AND_ASSIGN(auto y,
                       Run(attrs, TensorValue<int64_t>({2, 3}, {5000000000, 1, 7, 7, 7, 7})));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(1, 0, 0, 3));
  ASSERT_OK_AND_ASSIGN(auto i32, Run(attrs, TensorValue<int32_t>({1, 3}, {7, 1, 7})));
  EXPECT_THAT(ValuesOf<float>(i32[0]), ElementsAre(0, 1));
}

TEST_F(TfIdfVectorizerTest, RejectsBadAttributesAndInputs) {
  const std::string grams = Grams(1, 1, 0) + ", mode = \"TF\", ngram_counts = [0]";
  const Value ints = TensorValue<int64_t>({1}, {1});
  EXPECT_ERROR_CODE(Run(grams + ", ngram_indexes = [0, 1], pool_int64s = [1]", ints),
                    kInvalidArgument);  // one index per n-gram
  EXPECT_ERROR_CODE(Run(grams + ", ngram_indexes = [0]", ints), kInvalidArgument);  // no pool
  EXPECT_ERROR_CODE(
      Run(grams + ", ngram_indexes = [0], pool_int64s = [1], pool_strings = [\"a\"]", ints),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      Run(grams + ", ngram_indexes = [0], pool_int64s = [1], weights = [1.0, 2.0]", ints),
      kInvalidArgument);
  EXPECT_ERROR_CODE(Run(grams + ", ngram_indexes = [0, 1], pool_int64s = [1, 1]", ints),
                    kInvalidArgument);  // duplicate n-gram
  EXPECT_ERROR_CODE(Run(grams + ", ngram_indexes = [-1], pool_int64s = [1]", ints),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(Run(Grams(2, 1, 0) + ", mode = \"TF\", ngram_counts = [0], "
                                         "ngram_indexes = [0], pool_int64s = [1]",
                        ints),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(Run(Grams(1, 2, 0) + ", mode = \"TF\", ngram_counts = [0, 1], "
                                         "ngram_indexes = [0, 1], pool_int64s = [1, 2, 3, 4]",
                        ints),
                    kInvalidArgument);  // 3 items do not make whole 2-grams
  EXPECT_ERROR_CODE(Run(Grams(1, 1, 0) + ", mode = \"BM25\", ngram_counts = [0], "
                                         "ngram_indexes = [0], pool_int64s = [1]",
                        ints),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      Run(grams + ", ngram_indexes = [0], pool_int64s = [1]", TensorValue<std::string>({1}, {"1"})),
      kInvalidArgument);
  EXPECT_ERROR_CODE(Run(grams + ", ngram_indexes = [0], pool_strings = [\"a\"]", ints),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      Run(grams + ", ngram_indexes = [0], pool_int64s = [1]", TensorValue<int64_t>({1, 1, 1}, {1})),
      kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
