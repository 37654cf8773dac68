// Tests of DepthToSpace (DCR and CRD) and SpaceToDepth: the spec's examples, the round trip,
// non-numeric types and rejected shapes and attributes.
#include "runtime/ep/ref/kernels/tensor/depth_space.h"

#include "runtime/ep/ref/kernels/tensor/indexing_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

std::vector<float> Iota(int n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i);
  return v;
}

TEST(DepthToSpaceTest, DcrAndCrdExamples) {
  const Value x = TensorValue<float>({1, 8, 2, 3}, Iota(48));
  auto dcr = RunIdx("y = DepthToSpace <blocksize = 2> (x)", 13, {x});
  ASSERT_EQ(dcr.size(), 1u);
  EXPECT_THAT(DimsOf(dcr[0]), ElementsAre(1, 2, 4, 6));
  const std::vector<float> d = ValuesOf<float>(dcr[0]);
  EXPECT_THAT(std::vector<float>(d.begin(), d.begin() + 12),
              ElementsAre(0, 12, 1, 13, 2, 14, 24, 36, 25, 37, 26, 38));
  EXPECT_THAT(std::vector<float>(d.end() - 6, d.end()), ElementsAre(33, 45, 34, 46, 35, 47));
  auto crd = RunIdx("y = DepthToSpace <blocksize = 2, mode = \"CRD\"> (x)", 11, {x});
  ASSERT_EQ(crd.size(), 1u);
  const std::vector<float> c = ValuesOf<float>(crd[0]);
  EXPECT_THAT(std::vector<float>(c.begin(), c.begin() + 12),
              ElementsAre(0, 6, 1, 7, 2, 8, 12, 18, 13, 19, 14, 20));
  EXPECT_THAT(std::vector<float>(c.end() - 6, c.end()), ElementsAre(39, 45, 40, 46, 41, 47));
}

TEST(DepthToSpaceTest, SpaceToDepthInvertsDcr) {
  const std::vector<float> values = Iota(2 * 3 * 4 * 6);
  auto s = RunIdx("y = SpaceToDepth <blocksize = 2> (x)", 13,
                  {TensorValue<float>({2, 3, 4, 6}, values)});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_THAT(DimsOf(s[0]), ElementsAre(2, 12, 2, 3));
  auto back = RunIdx("y = DepthToSpace <blocksize = 2> (x)", 13, {s[0]});
  ASSERT_EQ(back.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(back[0]), ElementsAreArray(values));
}

TEST(DepthToSpaceTest, SpaceToDepthExample) {
  // [1, 1, 2, 2] -> [1, 4, 1, 1]: each pixel of the block becomes a channel.
  auto y = RunIdx("y = SpaceToDepth <blocksize = 2> (x)", 1,
                  {TensorValue<std::string>({1, 1, 2, 2}, {"a", "b", "c", "d"})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(1, 4, 1, 1));
  EXPECT_THAT(ValuesOf<std::string>(y[0]), ElementsAre("a", "b", "c", "d"));
}

TEST(DepthToSpaceTest, SpaceToDepthCrdInvertsDepthToSpaceCrd) {
  // SpaceToDepth-28's CRD order: channel c * b^2 + by * b + bx holds offset (by, bx) of c.
  auto s = RunIdx("y = SpaceToDepth <blocksize = 2, mode = \"CRD\"> (x)", 28,
                  {TensorValue<float>({1, 2, 2, 2}, Iota(8))});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_THAT(DimsOf(s[0]), ElementsAre(1, 8, 1, 1));
  EXPECT_THAT(ValuesOf<float>(s[0]), ElementsAre(0, 1, 2, 3, 4, 5, 6, 7));
  const std::vector<float> values = Iota(2 * 3 * 4 * 6);
  auto crd = RunIdx("y = SpaceToDepth <blocksize = 2, mode = \"CRD\"> (x)", 28,
                    {TensorValue<float>({2, 3, 4, 6}, values)});
  ASSERT_EQ(crd.size(), 1u);
  auto back = RunIdx("y = DepthToSpace <blocksize = 2, mode = \"CRD\"> (x)", 28, {crd[0]});
  ASSERT_EQ(back.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(back[0]), ElementsAreArray(values));
  // DCR stays the default.
  auto dcr =
      RunIdx("y = SpaceToDepth <blocksize = 2> (x)", 28, {BFloat16Value({1, 2, 2, 2}, Iota(8))});
  ASSERT_EQ(dcr.size(), 1u);
  EXPECT_THAT(HalfValuesOf<BFloat16>(dcr[0]), ElementsAre(0, 4, 1, 5, 2, 6, 3, 7));
}

TEST(DepthToSpaceTest, Rejections) {
  const Value x = TensorValue<float>({1, 3, 2, 2}, Iota(12));
  EXPECT_ERROR_CODE(RunIdxStatus("y = DepthToSpace <blocksize = 2> (x)", 13, {x}),
                    kInvalidArgument);  // 3 channels
  EXPECT_ERROR_CODE(RunIdxStatus("y = SpaceToDepth <blocksize = 3> (x)", 13, {x}),
                    kInvalidArgument);  // 2 x 2 pixels
  EXPECT_ERROR_CODE(RunIdxStatus("y = DepthToSpace <blocksize = 1, mode = \"XYZ\"> (x)", 13, {x}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = DepthToSpace <blocksize = 1, mode = \"CRD\"> (x)", 1, {x}),
                    kInvalidArgument);  // no mode before opset 11
  EXPECT_ERROR_CODE(RunIdxStatus("y = SpaceToDepth <blocksize = 1, mode = \"CRD\"> (x)", 13, {x}),
                    kInvalidArgument);  // no SpaceToDepth mode before opset 28
  EXPECT_ERROR_CODE(RunIdxStatus("y = SpaceToDepth <blocksize = 1, mode = \"RDC\"> (x)", 28, {x}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("y = DepthToSpace <blocksize = 1> (x)", 13,
                                 {TensorValue<float>({3}, {1, 2, 3})}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
