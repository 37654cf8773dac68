// GraphBuilder: ModelProto assembly with unique names, seeded initializers and deterministic
// serialization.
#include "harness/zoo/graph_builder.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <cstring>

#include "runtime/base/check.h"

namespace onnxgate::zoo {

namespace {

void SetShape(onnx::ValueInfoProto* info, int32_t elem_type, const std::vector<int64_t>& dims) {
  onnx::TypeProto_Tensor* tensor = info->mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(elem_type);
  onnx::TensorShapeProto* shape = tensor->mutable_shape();
  for (int64_t d : dims) shape->add_dim()->set_dim_value(d);
}

// Little-endian bytes whatever the host order, as raw_data requires.
void AppendLittleEndian(uint64_t bits, int bytes, std::string* out) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
}

}  // namespace

onnx::AttributeProto IntAttr(const std::string& name, int64_t value) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::INT);
  a.set_i(value);
  return a;
}

onnx::AttributeProto IntsAttr(const std::string& name, const std::vector<int64_t>& values) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::INTS);
  for (int64_t v : values) a.add_ints(v);
  return a;
}

onnx::AttributeProto FloatAttr(const std::string& name, float value) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::FLOAT);
  a.set_f(value);
  return a;
}

int64_t ElementCount(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

GraphBuilder::GraphBuilder(const std::string& model_name, uint32_t seed) : random_(seed) {
  model_.set_ir_version(kZooIrVersion);
  model_.set_producer_name("onnxgate-zoo");
  model_.set_producer_version(kZooVersion);
  model_.set_model_version(1);
  onnx::OperatorSetIdProto* opset = model_.add_opset_import();
  opset->set_domain("");
  opset->set_version(kZooOpset);
  model_.mutable_graph()->set_name(model_name);
}

std::string GraphBuilder::UniqueName(const std::string& prefix) {
  const int n = name_counts_[prefix]++;
  return prefix + "_" + std::to_string(n);
}

std::string GraphBuilder::AddInput(const std::string& name, int32_t elem_type,
                                   const std::vector<int64_t>& dims) {
  onnx::ValueInfoProto* input = model_.mutable_graph()->add_input();
  input->set_name(name);
  SetShape(input, elem_type, dims);
  return name;
}

void GraphBuilder::AddOutput(const std::string& value, int32_t elem_type,
                             const std::vector<int64_t>& dims) {
  onnx::ValueInfoProto* output = model_.mutable_graph()->add_output();
  output->set_name(value);
  SetShape(output, elem_type, dims);
}

std::string GraphBuilder::AddFloatInitializer(const std::string& prefix,
                                              const std::vector<int64_t>& dims,
                                              const std::vector<float>& values) {
  ONNXGATE_CHECK(static_cast<int64_t>(values.size()) == ElementCount(dims));
  onnx::TensorProto* t = model_.mutable_graph()->add_initializer();
  t->set_name(UniqueName(prefix));
  t->set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t->add_dims(d);
  std::string raw;
  raw.reserve(values.size() * 4);
  for (float v : values) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    AppendLittleEndian(bits, 4, &raw);
  }
  t->set_raw_data(std::move(raw));
  return t->name();
}

std::string GraphBuilder::AddRandomWeight(const std::string& prefix,
                                          const std::vector<int64_t>& dims, double stddev,
                                          double mean) {
  std::vector<float> values(static_cast<size_t>(ElementCount(dims)));
  for (float& v : values) v = static_cast<float>(mean + stddev * random_.Normal());
  return AddFloatInitializer(prefix, dims, values);
}

std::string GraphBuilder::AddUniformWeight(const std::string& prefix,
                                           const std::vector<int64_t>& dims, double lo, double hi) {
  std::vector<float> values(static_cast<size_t>(ElementCount(dims)));
  for (float& v : values) v = static_cast<float>(random_.Uniform(lo, hi));
  return AddFloatInitializer(prefix, dims, values);
}

std::string GraphBuilder::AddFloatConstant(const std::string& prefix,
                                           const std::vector<int64_t>& dims,
                                           const std::vector<float>& values) {
  return AddFloatInitializer(prefix, dims, values);
}

std::string GraphBuilder::AddInt64Constant(const std::string& prefix,
                                           const std::vector<int64_t>& dims,
                                           const std::vector<int64_t>& values) {
  ONNXGATE_CHECK(static_cast<int64_t>(values.size()) == ElementCount(dims));
  onnx::TensorProto* t = model_.mutable_graph()->add_initializer();
  t->set_name(UniqueName(prefix));
  t->set_data_type(onnx::TensorProto::INT64);
  for (int64_t d : dims) t->add_dims(d);
  std::string raw;
  for (int64_t v : values) AppendLittleEndian(static_cast<uint64_t>(v), 8, &raw);
  t->set_raw_data(std::move(raw));
  return t->name();
}

std::string GraphBuilder::AddNode(const std::string& op_type,
                                  const std::vector<std::string>& inputs,
                                  const std::vector<onnx::AttributeProto>& attributes,
                                  const std::string& output_name) {
  onnx::NodeProto* node = model_.mutable_graph()->add_node();
  node->set_op_type(op_type);
  node->set_name(UniqueName(op_type));
  for (const std::string& in : inputs) node->add_input(in);
  const std::string output = output_name.empty() ? node->name() + "_out" : output_name;
  node->add_output(output);
  for (const onnx::AttributeProto& a : attributes) *node->add_attribute() = a;
  return output;
}

void GraphBuilder::SetMetadata(const std::string& key, const std::string& value) {
  onnx::StringStringEntryProto* entry = model_.add_metadata_props();
  entry->set_key(key);
  entry->set_value(value);
}

onnx::ModelProto GraphBuilder::Finish() { return std::move(model_); }

std::string SerializeDeterministically(const onnx::ModelProto& model) {
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    ONNXGATE_CHECK(model.SerializeToCodedStream(&coded));
  }
  return bytes;
}

}  // namespace onnxgate::zoo
