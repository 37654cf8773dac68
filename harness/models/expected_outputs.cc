// Expected outputs from elsewhere, checked against the model (see expected_outputs.h).
#include "harness/models/expected_outputs.h"

#include <onnx/onnx_pb.h>

#include <map>
#include <set>

#include "harness/models/npz_reader.h"
#include "runtime/base/data_type.h"

namespace onnxgate {

namespace {

ValueInfo ValueInfoOf(const onnx::ValueInfoProto& proto) {
  ValueInfo info;
  info.name = proto.name();
  const onnx::TypeProto& type = proto.type();
  if (!type.has_tensor_type()) {
    info.kind = type.has_sequence_type() ? Value::Kind::kSequence : Value::Kind::kOptional;
    return info;
  }
  const int32_t elem = type.tensor_type().elem_type();
  info.elem_type = IsValidDataType(elem) ? static_cast<DataType>(elem) : DataType::kUndefined;
  info.has_shape = type.tensor_type().has_shape();
  for (const onnx::TensorShapeProto::Dimension& d : type.tensor_type().shape().dim()) {
    info.dims.push_back(d.has_dim_value() ? DeclaredDim{d.dim_value(), ""}
                                          : DeclaredDim{-1, d.dim_param()});
  }
  return info;
}

std::string ShapeText(const std::vector<int64_t>& dims) { return Shape(dims).ToString(); }

// One expected array against its declared output.
Status CheckAgainstDeclared(const Tensor& t, const ValueInfo& output, const std::string& source) {
  if (output.kind != Value::Kind::kTensor) {
    return InvalidArgument(source + ": output '" + output.name +
                           "' is not a tensor in the model; expected outputs are tensors");
  }
  if (output.elem_type != DataType::kUndefined && t.dtype() != output.elem_type) {
    return InvalidArgument(source + ": output '" + output.name + "' is " +
                           DataTypeShortName(t.dtype()) + ", the model declares " +
                           DataTypeShortName(output.elem_type));
  }
  if (!output.has_shape) return OkStatus();
  const std::vector<int64_t>& got = t.shape().dims();
  if (got.size() != output.dims.size()) {
    return InvalidArgument(source + ": output '" + output.name + "' has shape " + ShapeText(got) +
                           ", the model declares rank " + std::to_string(output.dims.size()));
  }
  for (size_t i = 0; i < got.size(); ++i) {
    if (output.dims[i].size >= 0 && got[i] != output.dims[i].size) {
      return InvalidArgument(source + ": output '" + output.name + "' has shape " + ShapeText(got) +
                             ": dimension " + std::to_string(i) + " is " + std::to_string(got[i]) +
                             ", the model fixes it at " + std::to_string(output.dims[i].size));
    }
  }
  return OkStatus();
}

}  // namespace

DeclaredIo DeclaredIoOf(const onnx::ModelProto& model) {
  DeclaredIo io;
  std::set<std::string> initialized;
  for (const onnx::TensorProto& t : model.graph().initializer()) initialized.insert(t.name());
  for (const onnx::ValueInfoProto& input : model.graph().input()) {
    if (!initialized.count(input.name())) io.inputs.push_back(ValueInfoOf(input));
  }
  for (const onnx::ValueInfoProto& output : model.graph().output()) {
    io.outputs.push_back(ValueInfoOf(output));
  }
  return io;
}

StatusOr<std::vector<NamedValue>> ReadExpectedOutputs(const std::string& path,
                                                      const std::string& set,
                                                      const std::vector<ValueInfo>& outputs) {
  std::set<std::string> names;
  for (const ValueInfo& output : outputs) names.insert(output.name);
  const std::string source = path + " (expected outputs of " + set + ")";
  // Only arrays named as outputs are inflated; any other is refused below.
  StatusOr<NpzArrays> read = ReadNpzFile(path, NpzRequest{names});
  if (!read.ok()) return read.status().WithContext("expected outputs of " + set);
  NpzArrays npz = std::move(read).value();
  if (!npz.unread.empty()) {
    return InvalidArgument(source + ": array '" + npz.unread.front() +
                           "' is not an output of the model");
  }
  std::vector<NamedValue> values;
  for (const ValueInfo& output : outputs) {
    auto it = npz.arrays.find(output.name);
    if (it == npz.arrays.end()) {
      return InvalidArgument(source + ": output '" + output.name + "' is missing");
    }
    ONNXGATE_RETURN_IF_ERROR(CheckAgainstDeclared(it->second, output, source));
    values.push_back({output.name, Value::FromTensor(std::move(it->second))});
  }
  return values;
}

Status CheckSymbolicSizes(const DeclaredIo& declared, const std::vector<NamedValue>& inputs,
                          const std::vector<NamedValue>& expected, const std::string& path,
                          const std::string& set) {
  // symbol -> (size, the input that gives it)
  std::map<std::string, std::pair<int64_t, std::string>> sizes;
  for (const ValueInfo& info : declared.inputs) {
    for (const NamedValue& v : inputs) {
      if (v.name != info.name || !v.value.is_tensor()) continue;
      const std::vector<int64_t>& got = v.value.tensor().shape().dims();
      for (size_t i = 0; i < info.dims.size() && i < got.size(); ++i) {
        if (!info.dims[i].symbol.empty()) {
          sizes.emplace(info.dims[i].symbol, std::make_pair(got[i], info.name));
        }
      }
    }
  }
  for (size_t o = 0; o < declared.outputs.size() && o < expected.size(); ++o) {
    const ValueInfo& info = declared.outputs[o];
    const std::vector<int64_t>& got = expected[o].value.tensor().shape().dims();
    for (size_t i = 0; i < info.dims.size() && i < got.size(); ++i) {
      auto it = sizes.find(info.dims[i].symbol);
      if (info.dims[i].symbol.empty() || it == sizes.end() || it->second.first == got[i]) continue;
      return InvalidArgument(
          path + " (expected outputs of " + set + "): output '" + info.name + "' has shape " +
          ShapeText(got) + ": dimension " + std::to_string(i) + " ('" + info.dims[i].symbol +
          "') is " + std::to_string(got[i]) + ", the set's input '" + it->second.second +
          "' gives '" + info.dims[i].symbol + "' the size " + std::to_string(it->second.first));
    }
  }
  return OkStatus();
}

}  // namespace onnxgate
