// Tests of CumSum: exclusive, reverse, axes, integer wrap-around and half types.
#include "runtime/ep/ref/kernels/math/cum_sum.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

class CumSumTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  Value x_ = TensorValue<double>({4}, {1, 2, 3, 4});
  Value axis0_ = TensorValue<int32_t>({}, {0});
};

TEST_F(CumSumTest, AllFourModes) {
  auto run = [&](const std::string& attrs) {
    auto out = RunNode(registry_, "Y = CumSum " + attrs + " (X, axis)", 14, {x_, axis0_});
    EXPECT_TRUE(out.ok()) << out.status().ToString();
    return out.ok() ? ValuesOf<double>((*out)[0]) : std::vector<double>{};
  };
  EXPECT_THAT(run(""), ElementsAre(1, 3, 6, 10));
  EXPECT_THAT(run("<exclusive = 1>"), ElementsAre(0, 1, 3, 6));
  EXPECT_THAT(run("<reverse = 1>"), ElementsAre(10, 9, 7, 4));
  EXPECT_THAT(run("<exclusive = 1, reverse = 1>"), ElementsAre(9, 7, 4, 0));
}

TEST_F(CumSumTest, InnerAndNegativeAxes) {
  Value x = TensorValue<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  ASSERT_OK_AND_ASSIGN(auto rows, RunNode(registry_, "Y = CumSum (X, axis)", 11,
                                          {x, TensorValue<int64_t>({1}, {-1})}));
  EXPECT_THAT(ValuesOf<float>(rows[0]), ElementsAre(1, 3, 6, 4, 9, 15));
  ASSERT_OK_AND_ASSIGN(auto cols, RunNode(registry_, "Y = CumSum (X, axis)", 11,
                                          {x, TensorValue<int64_t>({}, {0})}));
  EXPECT_THAT(ValuesOf<float>(cols[0]), ElementsAre(1, 2, 3, 5, 7, 9));
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = CumSum (X, axis)", 11, {x, TensorValue<int64_t>({}, {2})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = CumSum (X, axis)", 11, {x, TensorValue<int64_t>({2}, {0, 1})}),
      kInvalidArgument);
}

TEST_F(CumSumTest, IntegersWrapAndEmptyTensorsPass) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = CumSum (X, axis)", 14,
                                         {TensorValue<uint32_t>({2}, {UINT32_MAX, 2}), axis0_}));
  EXPECT_THAT(ValuesOf<uint32_t>(out[0]), ElementsAre(UINT32_MAX, 1));
  ASSERT_OK_AND_ASSIGN(auto empty, RunNode(registry_, "Y = CumSum (X, axis)", 14,
                                           {TensorValue<int64_t>({0, 2}, {}), axis0_}));
  EXPECT_THAT(DimsOf(empty[0]), ElementsAre(0, 2));
}

TEST_F(CumSumTest, HalfTypesFromOpset14) {
  Value h = HalfValue({3}, {1, 2, 3});
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = CumSum (X, axis)", 13, {h, axis0_}), kUnimplemented);
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = CumSum (X, axis)", 14, {h, axis0_}));
  EXPECT_THAT(HalfValuesOf<Float16>(out[0]), ElementsAre(1, 3, 6));
}

TEST_F(CumSumTest, CumProdExclusiveAndReverse) {
  Value x = TensorValue<float>({3}, {1, 2, 3});
  const std::pair<const char*, std::vector<float>> cases[] = {
      {"", {1, 2, 6}},
      {"<exclusive = 1>", {1, 1, 2}},
      {"<reverse = 1>", {6, 6, 3}},
      {"<exclusive = 1, reverse = 1>", {6, 3, 1}}};
  for (const auto& [attrs, want] : cases) {
    ASSERT_OK_AND_ASSIGN(
        auto out,
        RunNode(registry_, std::string("Y = CumProd ") + attrs + " (X, axis)", 26, {x, axis0_}));
    EXPECT_EQ(ValuesOf<float>(out[0]), want) << attrs;
  }
  ASSERT_OK_AND_ASSIGN(auto rows, RunNode(registry_, "Y = CumProd (X, axis)", 26,
                                          {TensorValue<int32_t>({2, 3}, {1, 2, 3, 4, 5, 6}),
                                           TensorValue<int32_t>({}, {-1})}));
  EXPECT_THAT(ValuesOf<int32_t>(rows[0]), ElementsAre(1, 2, 6, 4, 20, 120));
  Value big = TensorValue<uint32_t>({2}, {0x10000, 0x10000});
  ASSERT_OK_AND_ASSIGN(auto wrap, RunNode(registry_, "Y = CumProd (X, axis)", 26, {big, axis0_}));
  EXPECT_THAT(ValuesOf<uint32_t>(wrap[0]), ElementsAre(0x10000u, 0u));
}

TEST_F(CumSumTest, CumProdRejectsBadAxes) {
  Value x = TensorValue<float>({3}, {1, 2, 3});
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = CumProd (X, axis)", 26, {x, TensorValue<int64_t>({}, {1})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = CumProd (X, axis)", 26, {x, TensorValue<int64_t>({2}, {0, 0})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = CumProd (X, axis)", 26, {TensorValue<float>({}, {2}), axis0_}),
      kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
