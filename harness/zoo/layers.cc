// Shared zoo layers: Conv+BatchNormalization, ReLU6, dense layers, GELU in its Erf form.
#include "harness/zoo/layers.h"

#include <cmath>

namespace onnxgate::zoo {

namespace {

// sqrt(2 / fan_in) for ReLU networks, computed with a correctly rounded sqrt: IEEE 754 requires
// sqrt to be exact-rounded, so this is the same on every platform.
double HeStddev(int64_t fan_in) { return std::sqrt(2.0 / static_cast<double>(fan_in)); }

}  // namespace

std::string ConvBn(GraphBuilder& b, const std::string& x, const ConvSpec& s) {
  const int64_t fan_in = (s.in_channels / s.group) * s.kernel * s.kernel;
  const std::string w = b.AddRandomWeight(
      "conv_w", {s.out_channels, s.in_channels / s.group, s.kernel, s.kernel}, HeStddev(fan_in));
  const int64_t pad = (s.kernel - 1) / 2;
  const std::string y = b.AddNode(
      "Conv", {x, w},
      {IntsAttr("kernel_shape", {s.kernel, s.kernel}), IntsAttr("strides", {s.stride, s.stride}),
       IntsAttr("pads", {pad, pad, pad, pad}), IntAttr("group", s.group)});
  const std::vector<int64_t> c = {s.out_channels};
  const std::string scale = b.AddRandomWeight("bn_scale", c, 0.1, 1.0);
  const std::string bias = b.AddRandomWeight("bn_bias", c, 0.1);
  const std::string mean = b.AddRandomWeight("bn_mean", c, 0.1);
  const std::string var = b.AddUniformWeight("bn_var", c, 0.5, 1.5);
  return b.AddNode("BatchNormalization", {y, scale, bias, mean, var},
                   {FloatAttr("epsilon", 1e-5f)});
}

std::string Relu6(GraphBuilder& b, const std::string& x) {
  const std::string lo = b.AddFloatConstant("relu6_min", {}, {0.0f});
  const std::string hi = b.AddFloatConstant("relu6_max", {}, {6.0f});
  return b.AddNode("Clip", {x, lo, hi});
}

std::string Dense(GraphBuilder& b, const std::string& x, int64_t in_features, int64_t out_features,
                  const std::string& output) {
  const std::string w =
      b.AddRandomWeight("dense_w", {out_features, in_features}, HeStddev(in_features));
  const std::string bias = b.AddRandomWeight("dense_b", {out_features}, 0.01);
  return b.AddNode("Gemm", {x, w, bias}, {IntAttr("transB", 1)}, output);
}

std::string Linear(GraphBuilder& b, const std::string& x, int64_t in_features,
                   int64_t out_features) {
  // 1/sqrt(fan_in) keeps pre-activations near unit scale before LayerNormalization and GELU.
  const std::string w = b.AddRandomWeight("linear_w", {in_features, out_features},
                                          std::sqrt(1.0 / static_cast<double>(in_features)));
  const std::string bias = b.AddRandomWeight("linear_b", {out_features}, 0.01);
  return b.AddNode("Add", {b.AddNode("MatMul", {x, w}), bias});
}

std::string GeluErf(GraphBuilder& b, const std::string& x) {
  const std::string sqrt2 = b.AddFloatConstant("gelu_sqrt2", {}, {1.41421356237309505f});
  const std::string one = b.AddFloatConstant("gelu_one", {}, {1.0f});
  const std::string half = b.AddFloatConstant("gelu_half", {}, {0.5f});
  const std::string erf = b.AddNode("Erf", {b.AddNode("Div", {x, sqrt2})});
  const std::string x_half = b.AddNode("Mul", {x, half});
  return b.AddNode("Mul", {x_half, b.AddNode("Add", {erf, one})});
}

}  // namespace onnxgate::zoo
