// Tests of AffineGrid: 2-D and 3-D grids with and without align_corners (values from the ONNX
// reference implementation), float16, and rejected shapes.
#include "runtime/ep/ref/kernels/tensor/affine_grid.h"

#include "runtime/ep/ref/kernels/tensor/indexing_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

Value Theta2d() { return TensorValue<float>({1, 2, 3}, {1, 0.5f, 0.1f, -0.2f, 2, 0.3f}); }
Value Size(std::vector<int64_t> s) {
  const int64_t n = static_cast<int64_t>(s.size());
  return TensorValue<int64_t>({n}, s);
}

TEST(AffineGridTest, TwoDimensional) {
  auto edges = RunIdx("g = AffineGrid(t, s)", 20, {Theta2d(), Size({1, 1, 2, 3})});
  ASSERT_EQ(edges.size(), 1u);
  EXPECT_THAT(DimsOf(edges[0]), ElementsAre(1, 2, 3, 2));
  EXPECT_THAT(ValuesOf<float>(edges[0]),
              FloatsNear(std::vector<float>{-0.81666666f, -0.56666666f, -0.15f, -0.7f, 0.51666665f,
                                            -0.8333333f, -0.31666666f, 1.4333334f, 0.35f, 1.3f,
                                            1.0166667f, 1.1666666f}));
  auto corners =
      RunIdx("g = AffineGrid <align_corners = 1> (t, s)", 20, {Theta2d(), Size({1, 1, 2, 3})});
  ASSERT_EQ(corners.size(), 1u);
  EXPECT_THAT(ValuesOf<float>(corners[0]),
              FloatsNear(std::vector<float>{-1.4f, -1.5f, -0.4f, -1.7f, 0.6f, -1.9f, -0.4f, 2.5f,
                                            0.6f, 2.3f, 1.6f, 2.1f}));
}

TEST(AffineGridTest, ThreeDimensionalWithASingletonAxis) {
  auto g = RunIdx("g = AffineGrid <align_corners = 1> (t, s)", 20,
                  {TensorValue<float>({1, 3, 4}, {1, 0, 0, 0.1f, 0, 1, 0, 0.2f, 0.5f, 0, 1, 0}),
                   Size({1, 1, 2, 1, 2})});
  ASSERT_EQ(g.size(), 1u);
  EXPECT_THAT(DimsOf(g[0]), ElementsAre(1, 2, 1, 2, 3));
  EXPECT_THAT(ValuesOf<float>(g[0]),
              FloatsNear(std::vector<float>{-0.9f, -0.8f, -1.5f, 1.1f, -0.8f, -0.5f, -0.9f, -0.8f,
                                            0.5f, 1.1f, -0.8f, 1.5f}));
  auto h = RunIdx("g = AffineGrid(t, s)", 20,
                  {HalfValue({1, 2, 3}, {1, 0, 0, 0, 1, 0}), Size({1, 3, 1, 2})});
  ASSERT_EQ(h.size(), 1u);
  EXPECT_THAT(HalfValuesOf<Float16>(h[0]), ElementsAre(-0.5f, 0, 0.5f, 0));
}

TEST(AffineGridTest, Rejections) {
  EXPECT_ERROR_CODE(RunIdxStatus("g = AffineGrid(t, s)", 20, {Theta2d(), Size({1, 1, 2})}),
                    kInvalidArgument);  // size must have 4 or 5 entries
  EXPECT_ERROR_CODE(RunIdxStatus("g = AffineGrid(t, s)", 20, {Theta2d(), Size({1, 1, 2, 2, 2})}),
                    kInvalidArgument);  // 3-D needs a [N, 3, 4] theta
  EXPECT_ERROR_CODE(RunIdxStatus("g = AffineGrid(t, s)", 20, {Theta2d(), Size({2, 1, 2, 2})}),
                    kInvalidArgument);  // batch sizes differ
  EXPECT_ERROR_CODE(RunIdxStatus("g = AffineGrid(t, s)", 20, {Theta2d(), Size({1, 1, -2, 2})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunIdxStatus("g = AffineGrid <align_corners = 2> (t, s)", 20,
                                 {Theta2d(), Size({1, 1, 2, 2})}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
