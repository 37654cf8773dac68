// The zoo's model list at real and at small sizes, and writing the models to a folder.
#include "harness/zoo/zoo.h"

#include <fnmatch.h>

#include "harness/zoo/graph_builder.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate::zoo {

std::vector<ZooModel> ZooModels() {
  return {
      {"resnet18", "ResNet-18-style CNN, 1x3x224x224", [] { return BuildResNet18({}); }},
      {"mobilenet_v2", "MobileNetV2-style CNN (depthwise + pointwise), 1x3x224x224",
       [] { return BuildMobileNetV2({}); }},
      {"transformer_encoder", "BERT-style encoder, 4 layers, d_model 256, sequence 128",
       [] { return BuildTransformerEncoder({}); }},
      {"mlp", "MLP 784-512-512-256-10, batch 16", [] { return BuildMlp({}); }},
  };
}

std::vector<ZooModel> SmallZooModels() {
  return {
      {"resnet18", "ResNet-18-style CNN, 1x3x32x32, base width 8",
       [] {
         ResNetConfig c;
         c.image_size = 32;
         c.base_width = 8;
         c.num_classes = 10;
         return BuildResNet18(c);
       }},
      {"mobilenet_v2", "MobileNetV2-style CNN, 1x3x32x32, width / 8",
       [] {
         MobileNetV2Config c;
         c.image_size = 32;
         c.width_divisor = 8;
         c.num_classes = 10;
         return BuildMobileNetV2(c);
       }},
      {"transformer_encoder", "BERT-style encoder, 2 layers, d_model 32, sequence 16",
       [] {
         TransformerConfig c;
         c.seq_len = 16;
         c.vocab = 64;
         c.d_model = 32;
         c.heads = 2;
         c.ffn = 64;
         c.layers = 2;
         return BuildTransformerEncoder(c);
       }},
      {"mlp", "MLP 32-16-4, batch 2",
       [] {
         MlpConfig c;
         c.batch = 2;
         c.widths = {32, 16, 4};
         return BuildMlp(c);
       }},
  };
}

namespace {

// The first dimension of each graph input and output as the symbolic batch dimension.
void MakeBatchDynamic(onnx::ModelProto& model) {
  auto dynamic = [](onnx::ValueInfoProto& v) {
    auto* shape = v.mutable_type()->mutable_tensor_type()->mutable_shape();
    if (shape->dim_size() == 0) return;
    shape->mutable_dim(0)->clear_dim_value();
    shape->mutable_dim(0)->set_dim_param(kBatchDimName);
  };
  for (onnx::ValueInfoProto& v : *model.mutable_graph()->mutable_input()) dynamic(v);
  for (onnx::ValueInfoProto& v : *model.mutable_graph()->mutable_output()) dynamic(v);
}

}  // namespace

StatusOr<std::vector<std::string>> GenerateZoo(const std::string& dir,
                                               const std::vector<ZooModel>& models,
                                               const std::vector<std::string>& globs,
                                               const ZooOptions& options) {
  std::vector<bool> glob_used(globs.size(), false);
  std::vector<std::string> written;
  for (const ZooModel& model : models) {
    bool selected = globs.empty();
    for (size_t i = 0; i < globs.size(); ++i) {
      if (::fnmatch(globs[i].c_str(), model.name.c_str(), 0) == 0) {
        selected = true;
        glob_used[i] = true;
      }
    }
    if (!selected) continue;
    const std::string path = dir + "/" + model.name + ".onnx";
    onnx::ModelProto proto = model.build();
    if (options.dynamic_batch) MakeBatchDynamic(proto);
    Status st = WriteFileAtomically(path, SerializeDeterministically(proto));
    if (!st.ok()) return st.WithContext("generating zoo model " + model.name);
    written.push_back(path);
  }
  for (size_t i = 0; i < globs.size(); ++i) {
    if (glob_used[i]) continue;
    std::string names;
    for (const ZooModel& m : models) names += (names.empty() ? "" : ", ") + m.name;
    return NotFound("generating the zoo: model pattern '" + globs[i] +
                    "' matches no zoo model (the zoo has " + names + ")");
  }
  return written;
}

}  // namespace onnxgate::zoo
