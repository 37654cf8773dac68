// Tests of the Conv/pooling window geometry: output sizes for explicit pads, auto_pad modes,
// strides, dilations and ceil_mode.
#include "runtime/provider/common/conv_attributes.h"

#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using Dims = std::vector<int64_t>;

WindowGeometry Resolve(const ConvPoolAttributes& a, Dims input, Dims kernel) {
  auto g = ResolveWindowGeometry(a, input, kernel);
  EXPECT_TRUE(g.ok()) << g.status().ToString();
  return g.ok() ? *g : WindowGeometry{};
}

TEST(ConvAttributesTest, DefaultsAreUnitStrideNoPadding) {
  WindowGeometry g = Resolve({}, {5, 7}, {3, 3});
  EXPECT_EQ(g.output, (Dims{3, 5}));
  EXPECT_EQ(g.pad_begin, (Dims{0, 0}));
  EXPECT_EQ(g.strides, (Dims{1, 1}));
  EXPECT_EQ(g.dilations, (Dims{1, 1}));
}

TEST(ConvAttributesTest, ExplicitAsymmetricPadsAndStrides) {
  ConvPoolAttributes a;
  a.pads = {1, 0, 1, 0};  // axis 0: 1 + 1, axis 1: none
  a.strides = {2, 2};
  WindowGeometry g = Resolve(a, {7, 5}, {3, 3});
  // axis 0: (7 + 2 - 3) / 2 + 1 = 4; axis 1: (5 - 3) / 2 + 1 = 2
  EXPECT_EQ(g.output, (Dims{4, 2}));
  EXPECT_EQ(g.pad_begin, (Dims{1, 0}));
  EXPECT_EQ(g.pad_end, (Dims{1, 0}));
}

TEST(ConvAttributesTest, Dilations) {
  ConvPoolAttributes a;
  a.dilations = {2};
  EXPECT_EQ(Resolve(a, {7}, {3}).output, (Dims{3}));  // dilated kernel 5: 7 - 5 + 1
}

TEST(ConvAttributesTest, SameUpperPutsTheOddPadAtTheEnd) {
  ConvPoolAttributes a;
  a.auto_pad = AutoPad::kSameUpper;
  a.strides = {2};
  WindowGeometry g = Resolve(a, {6}, {4});  // out 3, total pad (3-1)*2+4-6 = 2
  EXPECT_EQ(g.output, (Dims{3}));
  EXPECT_EQ(g.pad_begin, (Dims{1}));
  EXPECT_EQ(g.pad_end, (Dims{1}));
  g = Resolve(a, {5}, {2});  // out 3, total pad 4+2-5 = 1
  EXPECT_EQ(g.output, (Dims{3}));
  EXPECT_EQ(g.pad_begin, (Dims{0}));
  EXPECT_EQ(g.pad_end, (Dims{1}));
}

TEST(ConvAttributesTest, SameLowerPutsTheOddPadAtTheBeginning) {
  ConvPoolAttributes a;
  a.auto_pad = AutoPad::kSameLower;
  WindowGeometry g = Resolve(a, {5}, {2});
  EXPECT_EQ(g.output, (Dims{5}));
  EXPECT_EQ(g.pad_begin, (Dims{1}));
  EXPECT_EQ(g.pad_end, (Dims{0}));
}

TEST(ConvAttributesTest, SameWithStrideLargerThanKernelNeedsNoPadding) {
  ConvPoolAttributes a;
  a.auto_pad = AutoPad::kSameUpper;
  a.strides = {3};
  WindowGeometry g = Resolve(a, {5}, {1});
  EXPECT_EQ(g.output, (Dims{2}));
  EXPECT_EQ(g.pad_begin, (Dims{0}));
  EXPECT_EQ(g.pad_end, (Dims{0}));
}

TEST(ConvAttributesTest, ValidIgnoresNothingAndPadsNothing) {
  ConvPoolAttributes a;
  a.auto_pad = AutoPad::kValid;
  a.strides = {2};
  EXPECT_EQ(Resolve(a, {8}, {3}).output, (Dims{3}));
}

TEST(ConvAttributesTest, CeilModeRoundsUp) {
  ConvPoolAttributes a;
  a.strides = {2};
  EXPECT_EQ(Resolve(a, {6}, {3}).output, (Dims{2}));
  a.ceil_mode = true;
  EXPECT_EQ(Resolve(a, {6}, {3}).output, (Dims{3}));
}

TEST(ConvAttributesTest, CeilModeDropsAWindowThatStartsInTheEndPadding) {
  ConvPoolAttributes a;
  a.strides = {2};
  a.pads = {0, 1};
  a.ceil_mode = true;
  // ceil((4 + 1 - 1) / 2) + 1 = 3, but the third window would start at 4, past the input.
  EXPECT_EQ(Resolve(a, {4}, {1}).output, (Dims{2}));
}

TEST(ConvAttributesTest, KernelLargerThanPaddedInputIsAnError) {
  auto g = ResolveWindowGeometry({}, {2}, {3});
  EXPECT_EQ(g.status().code(), StatusCode::kInvalidArgument);
}

TEST(ConvAttributesTest, LengthMismatchIsAnError) {
  ConvPoolAttributes a;
  a.strides = {1, 1};
  auto g = ResolveWindowGeometry(a, {4, 4, 4}, {1, 1, 1});
  EXPECT_EQ(g.status().code(), StatusCode::kInvalidArgument);
}

TEST(ConvAttributesTest, ParseAutoPad) {
  EXPECT_EQ(*ParseAutoPad("SAME_LOWER"), AutoPad::kSameLower);
  EXPECT_FALSE(ParseAutoPad("SAME").ok());
}

}  // namespace
}  // namespace onnxgate
