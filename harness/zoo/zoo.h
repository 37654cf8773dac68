// The benchmark model zoo: model families generated from seeds (ResNet-18-style CNN,
// MobileNetV2-style CNN, a small transformer encoder, an MLP), so that the latency baselines
// measure models that every checkout can regenerate byte for byte instead of committed binaries.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "runtime/base/status.h"

namespace onnxgate::zoo {

// Metadata key naming the valid range of an integer input: "onnxgate.input_range.<input>" with
// value "<lo> <hi>" (lo inclusive, hi exclusive). The bench feeds token ids from that range.
inline constexpr char kInputRangeKeyPrefix[] = "onnxgate.input_range.";

struct ResNetConfig {
  int64_t image_size = 224;
  int64_t base_width = 64;  // channels of the first stage; later stages double it
  int64_t num_classes = 1000;
  uint32_t seed = 18;
};
// ResNet-18: 7x7 stem, max pool, 4 stages of 2 basic blocks (3x3 Conv+BN, ReLU, residual Add,
// 1x1 strided projection where the shape changes), global average pool, dense classifier.
onnx::ModelProto BuildResNet18(const ResNetConfig& config);

struct MobileNetV2Config {
  int64_t image_size = 224;
  // Channels are the published ones divided by this (1 = the real width); for small tests.
  int64_t width_divisor = 1;
  int64_t num_classes = 1000;
  uint32_t seed = 2;
};
// MobileNetV2: inverted residual blocks of pointwise expansion, depthwise 3x3 (group = channels)
// and linear pointwise projection, with ReLU6 and residual Adds where shapes allow.
onnx::ModelProto BuildMobileNetV2(const MobileNetV2Config& config);

struct TransformerConfig {
  int64_t seq_len = 128;
  int64_t vocab = 4096;
  int64_t d_model = 256;
  int64_t heads = 4;
  int64_t ffn = 1024;
  int64_t layers = 4;
  uint32_t seed = 7;
};
// A BERT-style encoder: token embedding Gather plus position embedding, then per layer
// multi-head self-attention (MatMul, Softmax), residual Add, LayerNormalization, and a GELU
// (Erf form) feed-forward block with residual Add and LayerNormalization.
onnx::ModelProto BuildTransformerEncoder(const TransformerConfig& config);

struct MlpConfig {
  int64_t batch = 16;
  std::vector<int64_t> widths = {784, 512, 512, 256, 10};  // input, hidden..., classes
  uint32_t seed = 1;
};
// Dense layers (Gemm) with ReLU between them and Softmax at the end.
onnx::ModelProto BuildMlp(const MlpConfig& config);

struct ZooModel {
  std::string name;  // the file is <name>.onnx
  std::string description;
  std::function<onnx::ModelProto()> build;
};

// The zoo at the real sizes the bench measures.
std::vector<ZooModel> ZooModels();

// The zoo at small sizes, same families and ops, for unit tests that run every model.
std::vector<ZooModel> SmallZooModels();

// The symbolic name ZooOptions::dynamic_batch gives the first dimension of every graph input and
// output.
inline constexpr char kBatchDimName[] = "batch";

struct ZooOptions {
  // The first dimension of every graph input and output becomes the symbolic kBatchDimName, so a
  // model can run at other batch sizes (`onnxgate sweep --dim batch=1,4,16`); what is inside the
  // graph stays as built, so a shape baked into a Reshape shows up as breakage at those sizes.
  bool dynamic_batch = false;
};

// Writes <dir>/<name>.onnx for every model of `models` whose name matches one of `globs` (all
// when `globs` is empty), atomically, creating `dir`. Returns the paths written, in zoo order.
// NotFound when a glob matches no model.
StatusOr<std::vector<std::string>> GenerateZoo(const std::string& dir,
                                               const std::vector<ZooModel>& models,
                                               const std::vector<std::string>& globs = {},
                                               const ZooOptions& options = {});

}  // namespace onnxgate::zoo
