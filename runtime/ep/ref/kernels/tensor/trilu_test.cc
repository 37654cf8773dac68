// Tests of Trilu and EyeLike: diagonals offsets in both directions, batches, types and errors.
#include "runtime/ep/ref/kernels/tensor/trilu.h"

#include <string>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

class TriluTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  // [[1, 2, 3], [4, 5, 6]]
  Value x_ = TensorValue<int32_t>({2, 3}, {1, 2, 3, 4, 5, 6});
};

TEST_F(TriluTest, UpperAndLowerWithOffsets) {
  auto run = [&](const std::string& attrs, Value k) {
    auto out = RunNode(registry_, "Y = Trilu " + attrs + " (X, K)", 14, {x_, k});
    EXPECT_TRUE(out.ok()) << out.status().ToString();
    return out.ok() ? ValuesOf<int32_t>((*out)[0]) : std::vector<int32_t>{};
  };
  EXPECT_THAT(run("", Value()), ElementsAre(1, 2, 3, 0, 5, 6));
  EXPECT_THAT(run("", TensorValue<int64_t>({}, {1})), ElementsAre(0, 2, 3, 0, 0, 6));
  EXPECT_THAT(run("", TensorValue<int64_t>({}, {-1})), ElementsAre(1, 2, 3, 4, 5, 6));
  EXPECT_THAT(run("<upper = 0>", Value()), ElementsAre(1, 0, 0, 4, 5, 0));
  EXPECT_THAT(run("<upper = 0>", TensorValue<int64_t>({}, {-1})), ElementsAre(0, 0, 0, 4, 0, 0));
  EXPECT_THAT(run("<upper = 0>", TensorValue<int64_t>({}, {INT64_MAX})),
              ElementsAre(1, 2, 3, 4, 5, 6));
  EXPECT_THAT(run("", TensorValue<int64_t>({}, {INT64_MIN})), ElementsAre(1, 2, 3, 4, 5, 6));
}

TEST_F(TriluTest, BatchesStringsAndErrors) {
  ASSERT_OK_AND_ASSIGN(auto out,
                       RunNode(registry_, "Y = Trilu <upper = 0> (X)", 14,
                               {TensorValue<std::string>({2, 1, 2}, {"a", "b", "c", "d"})}));
  EXPECT_THAT(ValuesOf<std::string>(out[0]), ElementsAre("a", "", "c", ""));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Trilu (X)", 14, {TensorValue<float>({3}, {1, 2, 3})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = Trilu (X, K)", 14, {x_, TensorValue<int64_t>({2}, {1, 2})}),
      kInvalidArgument);
}

TEST_F(TriluTest, EyeLikeDiagonals) {
  Value x = TensorValue<float>({2, 3}, std::vector<float>(6, 7));
  ASSERT_OK_AND_ASSIGN(auto same, RunNode(registry_, "Y = EyeLike (X)", 9, {x}));
  EXPECT_THAT(ValuesOf<float>(same[0]), ElementsAre(1, 0, 0, 0, 1, 0));
  ASSERT_OK_AND_ASSIGN(auto up, RunNode(registry_, "Y = EyeLike <k = 2, dtype = 7> (X)", 9, {x}));
  EXPECT_THAT(ValuesOf<int64_t>(up[0]), ElementsAre(0, 0, 1, 0, 0, 0));
  ASSERT_OK_AND_ASSIGN(auto down,
                       RunNode(registry_, "Y = EyeLike <k = -1, dtype = 9> (X)", 9, {x}));
  EXPECT_THAT(ValuesOf<bool>(down[0]), ElementsAre(false, false, false, true, false, false));
  ASSERT_OK_AND_ASSIGN(auto far, RunNode(registry_, "Y = EyeLike <k = 5> (X)", 9, {x}));
  EXPECT_THAT(ValuesOf<float>(far[0]), ElementsAre(0, 0, 0, 0, 0, 0));
}

TEST_F(TriluTest, EyeLikeBFloat16FromVersion22) {
  ASSERT_OK_AND_ASSIGN(auto bf,
                       RunNode(registry_, "Y = EyeLike <k = 1, dtype = 16> (X)", 22, {x_}));
  EXPECT_EQ(bf[0].tensor().dtype(), DataType::kBFloat16);
  EXPECT_THAT(HalfValuesOf<BFloat16>(bf[0]), ElementsAre(0, 1, 0, 0, 0, 1));
  Value b16 = BFloat16Value({2, 2}, {5, 5, 5, 5});
  ASSERT_OK_AND_ASSIGN(auto same, RunNode(registry_, "Y = EyeLike (X)", 22, {b16}));
  EXPECT_THAT(HalfValuesOf<BFloat16>(same[0]), ElementsAre(1, 0, 0, 1));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = EyeLike <dtype = 16> (X)", 21, {x_}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = EyeLike (X)", 21, {b16}), kUnimplemented);
}

TEST_F(TriluTest, EyeLikeErrors) {
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = EyeLike (X)", 9, {TensorValue<float>({3}, {1, 2, 3})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = EyeLike <dtype = 8> (X)", 9,
                            {TensorValue<float>({2, 2}, {1, 2, 3, 4})}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
