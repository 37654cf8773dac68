// Tests of Expand and Tile.
#include "runtime/ep/ref/kernels/math/expand_tile.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

class ExpandTileTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  static Value L(std::vector<int64_t> v) {
    return TensorValue<int64_t>({static_cast<int64_t>(v.size())}, v);
  }
};

TEST_F(ExpandTileTest, ExpandBroadcastsBothWays) {
  Value x = TensorValue<int32_t>({3, 1}, {1, 2, 3});
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Expand(X, S)", 13, {x, L({2, 1, 2})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 3, 2));
  EXPECT_THAT(ValuesOf<int32_t>(out[0]), ElementsAre(1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3));
  // A shape dim of 1 keeps the larger input dim.
  ASSERT_OK_AND_ASSIGN(auto keep, RunNode(registry_, "Y = Expand(X, S)", 8, {x, L({1, 1})}));
  EXPECT_THAT(DimsOf(keep[0]), ElementsAre(3, 1));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Expand(X, S)", 8, {x, L({2, 2})}), kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto zero, RunNode(registry_, "Y = Expand(X, S)", 8, {x, L({0, 3, 4})}));
  EXPECT_THAT(DimsOf(zero[0]), ElementsAre(0, 3, 4));
}

TEST_F(ExpandTileTest, ExpandRefusesHugeShapes) {
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Expand(X, S)", 13,
                            {TensorValue<float>({1}, {1}), L({1 << 30, 1 << 30, 1 << 30})}),
                    kInvalidArgument);
}

TEST_F(ExpandTileTest, TileRepeatsEachDim) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Tile(X, R)", 13,
                                         {TensorValue<int32_t>({2, 2}, {1, 2, 3, 4}), L({2, 3})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(4, 6));
  EXPECT_THAT(ValuesOf<int32_t>(out[0]),
              ElementsAre(1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4, 1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4));
  ASSERT_OK_AND_ASSIGN(auto zero, RunNode(registry_, "Y = Tile(X, R)", 6,
                                          {TensorValue<std::string>({2}, {"a", "b"}), L({0})}));
  EXPECT_THAT(DimsOf(zero[0]), ElementsAre(0));
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = Tile(X, R)", 6, {TensorValue<float>({2}, {1, 2}), L({2, 2})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = Tile(X, R)", 6, {TensorValue<float>({2}, {1, 2}), L({-1})}),
      kInvalidArgument);
}

TEST_F(ExpandTileTest, Tile1RepeatsAlongOneAxis) {
  ASSERT_OK_AND_ASSIGN(auto out,
                       RunNode(registry_, "Y = Tile(X, T, A)", 1,
                               {TensorValue<float>({2, 1}, {1, 2}), TensorValue<float>({}, {3}),
                                TensorValue<float>({}, {1})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 3));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(1, 1, 1, 2, 2, 2));
}

}  // namespace
}  // namespace onnxgate::ref
