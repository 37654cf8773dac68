// The shapes of a bench's measurements.
#include "harness/latency/bench_shapes.h"

#include <onnx/onnx_pb.h>

#include "harness/models/model_feeds.h"

namespace onnxgate {

std::set<std::string> SymbolicInputDims(const onnx::ModelProto& model) {
  const onnx::GraphProto& g = model.graph();
  std::set<std::string> initializers;
  for (const onnx::TensorProto& t : g.initializer()) initializers.insert(t.name());
  std::set<std::string> dims;
  for (const onnx::ValueInfoProto& input : g.input()) {
    if (initializers.count(input.name()) || !input.type().has_tensor_type()) continue;
    for (const auto& d : input.type().tensor_type().shape().dim()) {
      if (d.has_dim_param() && !d.dim_param().empty()) dims.insert(d.dim_param());
    }
  }
  return dims;
}

std::vector<DimSizes> BenchShapesOf(const std::set<std::string>& model_dims, const DimFlags& dims) {
  DimFlags applying;
  for (const auto& [name, sizes] : dims) {
    if (model_dims.count(name)) applying[name] = sizes;
  }
  return DimCombinations(applying);
}

Status CheckDimsNamed(const DimFlags& dims,
                      const std::map<std::string, std::set<std::string>>& dims_by_model) {
  for (const auto& entry : dims) {
    const std::string& name = entry.first;
    bool named = false;
    for (const auto& [model, model_dims] : dims_by_model) named = named || model_dims.count(name);
    if (named) continue;
    std::string known;
    for (const auto& [model, model_dims] : dims_by_model) {
      std::string list;
      for (const std::string& d : model_dims) list += (list.empty() ? "" : ", ") + d;
      known += (known.empty() ? "" : "; ") + model + ": " + (list.empty() ? "none" : list);
    }
    return InvalidArgument("--dim " + name + ": no measured model has a dimension named '" + name +
                           "' (their named dimensions: " + known + ")");
  }
  return OkStatus();
}

std::string BoundShapes(const std::vector<ValueInfo>& inputs,
                        const std::vector<NamedValue>& feeds) {
  DimSizes bound;
  for (const ValueInfo& input : inputs) {
    for (const NamedValue& feed : feeds) {
      if (feed.name != input.name || !feed.value.is_tensor()) continue;
      const std::vector<int64_t>& sizes = feed.value.tensor().shape().dims();
      for (size_t i = 0; i < input.dims.size() && i < sizes.size(); ++i) {
        if (!input.dims[i].symbol.empty()) bound.emplace(input.dims[i].symbol, sizes[i]);
      }
    }
  }
  return DimSizesText(bound);
}

}  // namespace onnxgate
