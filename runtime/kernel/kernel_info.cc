// KernelInfo: typed access to a node's attributes and statically known inputs.
#include "runtime/kernel/kernel_info.h"

#include <onnx/onnx_pb.h>

#include "runtime/proto/tensor_proto.h"

namespace onnxgate {

KernelInfo::KernelInfo(const onnx::NodeProto& node, int since_version,
                       std::vector<DataType> input_types,
                       std::vector<const Tensor*> constant_inputs, SubgraphCompiler compiler)
    : node_(node),
      since_version_(since_version),
      input_types_(std::move(input_types)),
      constant_inputs_(std::move(constant_inputs)),
      compiler_(std::move(compiler)) {}

const std::string& KernelInfo::op_type() const { return node_.op_type(); }
const std::string& KernelInfo::name() const { return node_.name(); }
size_t KernelInfo::num_inputs() const { return static_cast<size_t>(node_.input_size()); }
size_t KernelInfo::num_outputs() const { return static_cast<size_t>(node_.output_size()); }

bool KernelInfo::has_input(size_t i) const {
  return i < num_inputs() && !node_.input(static_cast<int>(i)).empty();
}
bool KernelInfo::has_output(size_t i) const {
  return i < num_outputs() && !node_.output(static_cast<int>(i)).empty();
}
DataType KernelInfo::input_type(size_t i) const {
  return i < input_types_.size() ? input_types_[i] : DataType::kUndefined;
}
const Tensor* KernelInfo::constant_input(size_t i) const {
  return i < constant_inputs_.size() ? constant_inputs_[i] : nullptr;
}

const onnx::AttributeProto* KernelInfo::attribute(const std::string& name) const {
  for (const auto& a : node_.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}
bool KernelInfo::has_attribute(const std::string& name) const { return attribute(name) != nullptr; }

std::string KernelInfo::Describe() const {
  std::string s = node_.op_type() + " node";
  if (!node_.name().empty()) s += " '" + node_.name() + "'";
  return s + " (version " + std::to_string(since_version_) + ")";
}

namespace {

// Finds attribute `name` of the expected type; `*found` tells whether it exists.
StatusOr<const onnx::AttributeProto*> Typed(const KernelInfo& info, const std::string& name,
                                            onnx::AttributeProto::AttributeType type,
                                            const char* type_name) {
  const onnx::AttributeProto* a = info.attribute(name);
  if (a == nullptr) return static_cast<const onnx::AttributeProto*>(nullptr);
  if (a->type() != type) {
    return InvalidArgument("attribute '" + name + "' must be " + type_name + ", got " +
                           onnx::AttributeProto::AttributeType_Name(a->type()));
  }
  return a;
}

template <typename T>
StatusOr<T> OrDefault(const KernelInfo& info, const std::string& name,
                      const std::optional<T>& default_value) {
  if (default_value) return *default_value;
  return InvalidArgument("required attribute '" + name + "' is missing");
}

}  // namespace

StatusOr<int64_t> KernelInfo::GetInt(const std::string& name,
                                     std::optional<int64_t> default_value) const {
  ONNXGATE_ASSIGN_OR_RETURN(auto a, Typed(*this, name, onnx::AttributeProto::INT, "INT"));
  if (a == nullptr) return OrDefault(*this, name, default_value);
  return a->i();
}

StatusOr<float> KernelInfo::GetFloat(const std::string& name,
                                     std::optional<float> default_value) const {
  ONNXGATE_ASSIGN_OR_RETURN(auto a, Typed(*this, name, onnx::AttributeProto::FLOAT, "FLOAT"));
  if (a == nullptr) return OrDefault(*this, name, default_value);
  return a->f();
}

StatusOr<std::string> KernelInfo::GetString(const std::string& name,
                                            std::optional<std::string> default_value) const {
  ONNXGATE_ASSIGN_OR_RETURN(auto a, Typed(*this, name, onnx::AttributeProto::STRING, "STRING"));
  if (a == nullptr) return OrDefault(*this, name, default_value);
  return a->s();
}

StatusOr<std::vector<int64_t>> KernelInfo::GetInts(
    const std::string& name, std::optional<std::vector<int64_t>> default_value) const {
  ONNXGATE_ASSIGN_OR_RETURN(auto a, Typed(*this, name, onnx::AttributeProto::INTS, "INTS"));
  if (a == nullptr) return OrDefault(*this, name, default_value);
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

StatusOr<std::vector<float>> KernelInfo::GetFloats(
    const std::string& name, std::optional<std::vector<float>> default_value) const {
  ONNXGATE_ASSIGN_OR_RETURN(auto a, Typed(*this, name, onnx::AttributeProto::FLOATS, "FLOATS"));
  if (a == nullptr) return OrDefault(*this, name, default_value);
  return std::vector<float>(a->floats().begin(), a->floats().end());
}

StatusOr<std::vector<std::string>> KernelInfo::GetStrings(
    const std::string& name, std::optional<std::vector<std::string>> default_value) const {
  ONNXGATE_ASSIGN_OR_RETURN(auto a, Typed(*this, name, onnx::AttributeProto::STRINGS, "STRINGS"));
  if (a == nullptr) return OrDefault(*this, name, default_value);
  return std::vector<std::string>(a->strings().begin(), a->strings().end());
}

StatusOr<Tensor> KernelInfo::GetTensor(const std::string& name) const {
  ONNXGATE_ASSIGN_OR_RETURN(auto a, Typed(*this, name, onnx::AttributeProto::TENSOR, "TENSOR"));
  if (a == nullptr) {
    return InvalidArgument("required attribute '" + name + "' is missing");
  }
  auto t = TensorFromProto(a->t());
  if (!t.ok()) return t.status().WithContext("attribute '" + name + "'");
  return t;
}

StatusOr<std::shared_ptr<const SubgraphExecutor>> KernelInfo::CompileSubgraph(
    const std::string& name) const {
  ONNXGATE_ASSIGN_OR_RETURN(auto a, Typed(*this, name, onnx::AttributeProto::GRAPH, "GRAPH"));
  if (a == nullptr) {
    return InvalidArgument("required graph attribute '" + name + "' is missing");
  }
  if (!compiler_) {
    return Unimplemented("subgraphs cannot be compiled in this context");
  }
  auto sub = compiler_(a->g());
  if (!sub.ok()) return sub.status().WithContext("attribute '" + name + "'");
  return sub;
}

}  // namespace onnxgate
