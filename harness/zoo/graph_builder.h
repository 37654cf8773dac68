// GraphBuilder: a small helper that assembles an ONNX ModelProto node by node, with unique
// names, seeded weights and a deterministic serialization, for the benchmark model zoo.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "harness/zoo/seeded_random.h"

namespace onnxgate::zoo {

// The opset every zoo model imports: the first with LayerNormalization. The zoo's pinned hashes
// (harness/zoo) depend on it, so it is the zoo's own choice, not a limit of the runtime.
inline constexpr int64_t kZooOpset = 17;
// The IR version that goes with opset 17 (ONNX 1.12's).
inline constexpr int64_t kZooIrVersion = 8;
// Written as producer_version; bump it whenever a builder changes what it generates, so that a
// baseline can tell that the models it measured are not the ones measured now.
inline constexpr char kZooVersion[] = "1";

onnx::AttributeProto IntAttr(const std::string& name, int64_t value);
onnx::AttributeProto IntsAttr(const std::string& name, const std::vector<int64_t>& values);
onnx::AttributeProto FloatAttr(const std::string& name, float value);

class GraphBuilder {
 public:
  GraphBuilder(const std::string& model_name, uint32_t seed);

  SeededRandom& random() { return random_; }

  // Declares a graph input with fixed dims; returns its name.
  std::string AddInput(const std::string& name, int32_t elem_type,
                       const std::vector<int64_t>& dims);
  // Declares `value` as a graph output.
  void AddOutput(const std::string& value, int32_t elem_type, const std::vector<int64_t>& dims);

  // A float initializer of normal-ish values with the given mean and standard deviation.
  std::string AddRandomWeight(const std::string& prefix, const std::vector<int64_t>& dims,
                              double stddev, double mean = 0.0);
  // A float initializer of uniform values in [lo, hi) (variances, which must be positive).
  std::string AddUniformWeight(const std::string& prefix, const std::vector<int64_t>& dims,
                               double lo, double hi);
  std::string AddFloatConstant(const std::string& prefix, const std::vector<int64_t>& dims,
                               const std::vector<float>& values);
  std::string AddInt64Constant(const std::string& prefix, const std::vector<int64_t>& dims,
                               const std::vector<int64_t>& values);

  // Appends a node with one output, named `output` or else after the node; returns the
  // output's name.
  std::string AddNode(const std::string& op_type, const std::vector<std::string>& inputs,
                      const std::vector<onnx::AttributeProto>& attributes = {},
                      const std::string& output = "");

  // A key/value pair in the model's metadata_props.
  void SetMetadata(const std::string& key, const std::string& value);
  void SetDocString(const std::string& doc) { model_.set_doc_string(doc); }

  // The finished model; the builder must not be used afterwards.
  onnx::ModelProto Finish();

 private:
  std::string UniqueName(const std::string& prefix);
  std::string AddFloatInitializer(const std::string& prefix, const std::vector<int64_t>& dims,
                                  const std::vector<float>& values);

  onnx::ModelProto model_;
  SeededRandom random_;
  std::map<std::string, int> name_counts_;
};

// The model's bytes. Deterministic: fields in field-number order, maps (there are none in
// ModelProto, but extensions could add some) sorted, so equal models give equal bytes.
std::string SerializeDeterministically(const onnx::ModelProto& model);

// The number of elements of `dims`.
int64_t ElementCount(const std::vector<int64_t>& dims);

}  // namespace onnxgate::zoo
