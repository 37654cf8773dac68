// Layers shared by the zoo's model families: convolution with batch normalization, dense
// layers, ReLU6 and the Erf form of GELU, each emitted as the plain ONNX nodes an exporter
// writes for an inference graph.
#pragma once

#include <string>

#include "harness/zoo/graph_builder.h"

namespace onnxgate::zoo {

struct ConvSpec {
  int64_t in_channels = 0;
  int64_t out_channels = 0;
  int64_t kernel = 1;
  int64_t stride = 1;
  int64_t group = 1;
};

// Conv (no bias, "same" padding for odd kernels) followed by BatchNormalization with seeded
// statistics. Weights are He-initialized so activations keep their scale through deep stacks
// (values that grow or vanish would make the benchmark measure infinities or denormals).
std::string ConvBn(GraphBuilder& b, const std::string& x, const ConvSpec& spec);

// Clip(x, 0, 6): ReLU6 as MobileNet uses it.
std::string Relu6(GraphBuilder& b, const std::string& x);

// Gemm(x, W, bias) with transB = 1, the way exporters write a dense layer on [batch, in].
// `output` names the result ("" for a generated name).
std::string Dense(GraphBuilder& b, const std::string& x, int64_t in_features, int64_t out_features,
                  const std::string& output = "");

// MatMul(x, W) + bias for inputs of any rank (transformer projections on [batch, seq, in]).
std::string Linear(GraphBuilder& b, const std::string& x, int64_t in_features,
                   int64_t out_features);

// GELU as exporters before opset 20 write it: 0.5 * x * (1 + Erf(x / sqrt(2))).
std::string GeluErf(GraphBuilder& b, const std::string& x);

}  // namespace onnxgate::zoo
