// Level 2 fusions. Each matcher looks at one anchor node and checks everything the rewrite needs:
// the op versions active at the model's opset, attributes, ranks and shapes, element types,
// constants, and that every intermediate value is used only inside the pattern (never a graph
// output, never used by a subgraph). A pattern that fails any check is left as written.
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "runtime/graph/gelu_pattern.h"
#include "runtime/onnx/domain.h"
#include "runtime/onnx/op_spec.h"
#include "runtime/optimizer/graph_index.h"
#include "runtime/optimizer/passes.h"
#include "runtime/proto/tensor_proto.h"

namespace onnxgate {

namespace {

// One rewrite: the pattern's nodes go, `fused` takes the place of the last of them (so the node
// order stays topological: its inputs are all defined before the pattern's first node), and new
// initializers are added.
struct Rewrite {
  std::vector<int> nodes;
  onnx::NodeProto fused;
  std::vector<onnx::TensorProto> initializers;
};

using Matcher = std::optional<Rewrite> (*)(const GraphIndex&, int, const PassContext&);

// The node at `index` if it is `op` in the default domain, else null.
const onnx::NodeProto* NodeIf(const GraphIndex& ix, int index, const char* op) {
  if (index < 0) return nullptr;
  const onnx::NodeProto& node = ix.graph().node(index);
  return IsOnnxOp(node, op) ? &node : nullptr;
}

// The active version of a default-domain op at the model's opset; -1 when it has none.
int SinceVersion(const char* op, int opset) {
  std::optional<OpSpec> spec = OpSpec::Find(op, opset, "");
  return spec ? spec->since_version() : -1;
}

bool IsFloatOrDouble(DataType t) { return t == DataType::kFloat || t == DataType::kDouble; }

// "a+b" for two nodes; "first..last" (in graph order) for a longer pattern.
std::string FusedName(const GraphIndex& ix, std::vector<int> nodes) {
  std::sort(nodes.begin(), nodes.end());
  const std::string& first = ix.graph().node(nodes.front()).name();
  const std::string& last = ix.graph().node(nodes.back()).name();
  return first + (nodes.size() == 2 ? "+" : "..") + last;
}

onnx::NodeProto NewNode(const char* op, const std::string& name, std::vector<std::string> inputs,
                        const std::string& output) {
  onnx::NodeProto node;
  node.set_op_type(op);
  node.set_name(name);
  for (const std::string& in : inputs) node.add_input(in);
  node.add_output(output);
  return node;
}

void AddFloatAttribute(onnx::NodeProto* node, const char* name, float value) {
  onnx::AttributeProto* attr = node->add_attribute();
  attr->set_name(name);
  attr->set_type(onnx::AttributeProto::FLOAT);
  attr->set_f(value);
}

void AddIntAttribute(onnx::NodeProto* node, const char* name, int64_t value) {
  onnx::AttributeProto* attr = node->add_attribute();
  attr->set_name(name);
  attr->set_type(onnx::AttributeProto::INT);
  attr->set_i(value);
}

// The value of a one-element floating-point or integer constant whose rank is at most
// `max_rank` (so that broadcasting it changes no shape); nullopt otherwise.
std::optional<double> ScalarConstant(const GraphIndex& ix, const std::string& name,
                                     int64_t max_rank) {
  std::optional<Tensor> t = ix.ConstantValue(name);
  if (!t || t->NumElements() != 1 || static_cast<int64_t>(t->shape().rank()) > max_rank) {
    return std::nullopt;
  }
  if (t->dtype() == DataType::kString || t->dtype() == DataType::kBool) return std::nullopt;
  return t->ElementAsDouble(0);
}

// The other input of a two-input node, given one of them; "" when `name` is not an input.
std::string OtherInput(const onnx::NodeProto& node, const std::string& name) {
  if (node.input_size() != 2) return "";
  if (node.input(0) == name) return node.input(1);
  if (node.input(1) == name) return node.input(0);
  return "";
}

// A float/double tensor from doubles.
Tensor FromDoubles(DataType dtype, const Shape& shape, const std::vector<double>& values) {
  Tensor t = Tensor::Uninitialized(dtype, shape);
  if (dtype == DataType::kFloat) {
    std::copy(values.begin(), values.end(), t.mutable_data<float>());  // rounded to float
  } else {
    std::copy(values.begin(), values.end(), t.mutable_data<double>());
  }
  return t;
}

// W scaled per output channel: W'[i] = W[i] * scale[i / per_channel], computed in double and
// stored in W's type (float or double). Typed loops: resnet18's 11 M weights are folded at load.
template <typename T>
Tensor ScaledPerChannel(const Tensor& w, const std::vector<double>& scale) {
  const int64_t count = w.NumElements();
  const int64_t per_channel = count / static_cast<int64_t>(scale.size());
  Tensor out = Tensor::Uninitialized(w.dtype(), w.shape());
  const T* from = w.data<T>();
  T* to = out.mutable_data<T>();
  for (int64_t i = 0; i < count; ++i) {
    to[i] = static_cast<T>(static_cast<double>(from[i]) * scale[i / per_channel]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Conv + BatchNormalization (inference) -> Conv with W' = W * s and B' = (B - mean) * s + bias,
// s = scale / sqrt(var + epsilon), per output channel.
std::optional<Rewrite> MatchConvBatchNorm(const GraphIndex& ix, int bn_index,
                                          const PassContext& ctx) {
  const onnx::NodeProto* bn = NodeIf(ix, bn_index, "BatchNormalization");
  if (bn == nullptr || bn->input_size() != 5) return std::nullopt;
  const int version = SinceVersion("BatchNormalization", ctx.opset);
  // Versions before 7 have is_test/consumed_inputs; 7 has spatial (1: per channel).
  if (version < 7 || (version == 7 && IntAttribute(*bn, "spatial", 1) != 1)) return std::nullopt;
  if (IntAttribute(*bn, "training_mode", 0) != 0) return std::nullopt;
  if (DefinedOutputs(*bn).size() != 1 || bn->output(0).empty()) return std::nullopt;
  const std::string& y = bn->input(0);
  const int conv_index = ix.Producer(y);
  const onnx::NodeProto* conv = NodeIf(ix, conv_index, "Conv");
  if (conv == nullptr || ix.SoleConsumer(y) != bn_index) return std::nullopt;
  if (conv->input_size() < 2 || conv->input_size() > 3) return std::nullopt;
  std::optional<Tensor> w = ix.ConstantValue(conv->input(1));
  if (!w || !IsFloatOrDouble(w->dtype()) || w->shape().rank() < 3) return std::nullopt;
  const int64_t m = w->shape()[0];
  if (m <= 0) return std::nullopt;
  std::optional<Tensor> b;
  const bool has_bias = conv->input_size() == 3 && !conv->input(2).empty();
  if (has_bias) {
    b = ix.ConstantValue(conv->input(2));
    if (!b || b->dtype() != w->dtype() || b->shape() != Shape{m}) return std::nullopt;
  }
  std::vector<Tensor> params;  // scale, bias, mean, var
  for (int k = 1; k <= 4; ++k) {
    std::optional<Tensor> t = ix.ConstantValue(bn->input(k));
    if (!t || !IsFloatingPoint(t->dtype()) || t->shape() != Shape{m}) return std::nullopt;
    params.push_back(std::move(*t));
  }
  const double epsilon = FloatAttribute(*bn, "epsilon", 1e-5f);

  std::vector<double> s(m), new_b(m);
  for (int64_t c = 0; c < m; ++c) {
    const double var = params[3].ElementAsDouble(c);
    if (!(var + epsilon > 0)) return std::nullopt;  // the model's BatchNorm would give NaN/inf
    s[c] = params[0].ElementAsDouble(c) / std::sqrt(var + epsilon);
    const double bias_c = has_bias ? b->ElementAsDouble(c) : 0.0;
    new_b[c] = (bias_c - params[2].ElementAsDouble(c)) * s[c] + params[1].ElementAsDouble(c);
  }
  const Tensor new_w = w->dtype() == DataType::kFloat ? ScaledPerChannel<float>(*w, s)
                                                      : ScaledPerChannel<double>(*w, s);

  Rewrite r;
  r.nodes = {conv_index, bn_index};
  std::unordered_set<std::string> taken = ix.all_names();
  const std::string w_name = UniqueName(conv->input(1) + "_bn", &taken);
  const std::string b_name =
      UniqueName((has_bias ? conv->input(2) : conv->input(1)) + "_bn_bias", &taken);
  r.initializers.push_back(TensorToProto(new_w, w_name));
  r.initializers.push_back(TensorToProto(FromDoubles(w->dtype(), Shape{m}, new_b), b_name));
  r.fused = *conv;
  r.fused.set_name(FusedName(ix, r.nodes));
  r.fused.clear_input();
  r.fused.add_input(conv->input(0));
  r.fused.add_input(w_name);
  r.fused.add_input(b_name);
  r.fused.set_output(0, bn->output(0));
  return r;
}

// ---------------------------------------------------------------------------------------------
// Add(MatMul(A, B), C) -> Gemm(A, B, C) for a 2-D A, a 2-D constant B and a C that broadcasts
// to (M, N) one way, as Gemm's C must.
std::optional<Rewrite> MatchMatMulAdd(const GraphIndex& ix, int add_index, const PassContext& ctx) {
  const onnx::NodeProto* add = NodeIf(ix, add_index, "Add");
  if (add == nullptr || add->input_size() != 2) return std::nullopt;
  // Add before version 7 broadcasts only with its `broadcast` attribute; Gemm before 7 likewise.
  if (SinceVersion("Add", ctx.opset) < 7 || SinceVersion("Gemm", ctx.opset) < 7) {
    return std::nullopt;
  }
  std::optional<OpSpec> gemm = OpSpec::Find("Gemm", ctx.opset, "");
  for (int side = 0; side < 2; ++side) {
    const std::string& product = add->input(side);
    const std::string& c = add->input(1 - side);
    const int mm_index = ix.Producer(product);
    const onnx::NodeProto* mm = NodeIf(ix, mm_index, "MatMul");
    if (mm == nullptr || ix.SoleConsumer(product) != add_index || c == product) continue;
    const ValueType a = ix.TypeOf(mm->input(0));
    const ValueType b = ix.TypeOf(mm->input(1));
    const ValueType ct = ix.TypeOf(c);
    if (!ix.IsConstant(mm->input(1)) || !a.has_shape || a.dims.size() != 2 || !b.has_shape ||
        b.dims.size() != 2 || !IsFloatOrDouble(a.elem_type) || b.elem_type != a.elem_type ||
        ct.kind != Value::Kind::kTensor || ct.elem_type != a.elem_type || !ct.has_shape ||
        ct.dims.size() > 2) {
      continue;
    }
    if (!gemm || !gemm->AllowedElementTypes()["T"].count(a.elem_type)) continue;
    const int64_t rows = a.dims[0], cols = b.dims[1];
    bool broadcasts = true;
    const size_t rank = ct.dims.size();
    if (rank >= 1 && ct.dims[rank - 1] != 1 && ct.dims[rank - 1] != cols) broadcasts = false;
    if (rank == 2 && ct.dims[0] != 1 && (rows < 0 || ct.dims[0] != rows)) broadcasts = false;
    if (!broadcasts) continue;
    Rewrite r;
    r.nodes = {mm_index, add_index};
    r.fused =
        NewNode("Gemm", FusedName(ix, r.nodes), {mm->input(0), mm->input(1), c}, add->output(0));
    return r;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// LayerNormalization written out: mean = ReduceMean(X), D = X - mean, var = ReduceMean(D^2)
// (Pow(D, 2) or Mul(D, D)), N = D / Sqrt(var + epsilon), Y = N * scale (+ bias), the reductions
// over the last k axes with keepdims -> LayerNormalization(X, scale, bias, axis = rank - k).

// The axes a ReduceMean node reduces, normalized and sorted; nullopt unless they are the last
// k axes of a rank-`rank` input and keepdims is 1.
std::optional<int64_t> TrailingReduceAxes(const GraphIndex& ix, const onnx::NodeProto& node,
                                          int64_t rank, const PassContext& ctx) {
  if (IntAttribute(node, "keepdims", 1) != 1) return std::nullopt;
  std::vector<int64_t> axes;
  if (SinceVersion("ReduceMean", ctx.opset) >= 18) {
    if (node.input_size() < 2 || node.input(1).empty()) {
      if (IntAttribute(node, "noop_with_empty_axes", 0) != 0) return std::nullopt;
      for (int64_t a = 0; a < rank; ++a) axes.push_back(a);
    } else {
      std::optional<Tensor> t = ix.ConstantValue(node.input(1));
      if (!t || t->dtype() != DataType::kInt64 || t->shape().rank() != 1) return std::nullopt;
      for (int64_t i = 0; i < t->NumElements(); ++i) axes.push_back(t->data<int64_t>()[i]);
      if (axes.empty()) return std::nullopt;
    }
  } else {
    if (node.input_size() != 1) return std::nullopt;
    std::optional<std::vector<int64_t>> attr = IntsAttribute(node, "axes");
    if (attr) {
      axes = *attr;
    } else {
      for (int64_t a = 0; a < rank; ++a) axes.push_back(a);
    }
  }
  for (int64_t& a : axes) {
    if (a < -rank || a >= rank) return std::nullopt;
    if (a < 0) a += rank;
  }
  std::sort(axes.begin(), axes.end());
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end() || axes.empty()) {
    return std::nullopt;
  }
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] != rank - static_cast<int64_t>(axes.size()) + static_cast<int64_t>(i)) {
      return std::nullopt;
    }
  }
  return static_cast<int64_t>(axes.size());
}

// A float constant whose dims are exactly `dims`.
bool ConstantWithDims(const GraphIndex& ix, const std::string& name, DataType dtype,
                      const std::vector<int64_t>& dims) {
  const ValueType t = ix.TypeOf(name);
  return ix.IsConstant(name) && t.elem_type == dtype && t.has_shape && t.dims == dims;
}

std::optional<Rewrite> MatchLayerNormalization(const GraphIndex& ix, int mean_index,
                                               const PassContext& ctx) {
  const onnx::NodeProto* mean = NodeIf(ix, mean_index, "ReduceMean");
  if (mean == nullptr || mean->input_size() < 1 ||
      SinceVersion("LayerNormalization", ctx.opset) < 17) {
    return std::nullopt;
  }
  const std::string& x = mean->input(0);
  const ValueType xt = ix.TypeOf(x);
  if (xt.elem_type != DataType::kFloat || !xt.has_shape || xt.dims.empty()) return std::nullopt;
  const int64_t rank = static_cast<int64_t>(xt.dims.size());
  const std::optional<int64_t> k = TrailingReduceAxes(ix, *mean, rank, ctx);
  if (!k) return std::nullopt;
  const std::vector<int64_t> normalized(xt.dims.end() - *k, xt.dims.end());
  for (int64_t d : normalized) {
    if (d <= 0) return std::nullopt;  // scale must match known sizes exactly
  }

  const int sub_index = ix.SoleConsumer(mean->output(0));
  const onnx::NodeProto* sub = NodeIf(ix, sub_index, "Sub");
  if (sub == nullptr || sub->input_size() != 2 || sub->input(0) != x ||
      sub->input(1) != mean->output(0)) {
    return std::nullopt;
  }
  // D feeds the square (Pow(D, 2) or Mul(D, D)) and the Div, nothing else.
  const std::string& d = sub->output(0);
  if (ix.Escapes(d)) return std::nullopt;
  int square_index = -1, div_index = -1;
  for (int use : ix.Consumers(d)) {
    const onnx::NodeProto& node = ix.graph().node(use);
    if (IsOnnxOp(node, "Div") && node.input_size() == 2 && node.input(0) == d &&
        node.input(1) != d) {
      if (div_index != -1 && div_index != use) return std::nullopt;
      div_index = use;
    } else if (IsOnnxOp(node, "Pow") && node.input_size() == 2 && node.input(0) == d) {
      std::optional<double> e = ScalarConstant(ix, node.input(1), rank);
      if (!e || *e != 2.0 || (square_index != -1 && square_index != use)) return std::nullopt;
      square_index = use;
    } else if (IsOnnxOp(node, "Mul") && node.input_size() == 2 && node.input(0) == d &&
               node.input(1) == d) {
      if (square_index != -1 && square_index != use) return std::nullopt;
      square_index = use;
    } else {
      return std::nullopt;
    }
  }
  if (square_index == -1 || div_index == -1) return std::nullopt;
  const onnx::NodeProto& square = ix.graph().node(square_index);
  const int var_index = ix.SoleConsumer(square.output(0));
  const onnx::NodeProto* var = NodeIf(ix, var_index, "ReduceMean");
  if (var == nullptr || var->input(0) != square.output(0)) return std::nullopt;
  const std::optional<int64_t> k2 = TrailingReduceAxes(ix, *var, rank, ctx);
  if (!k2 || *k2 != *k) return std::nullopt;
  const int add_eps_index = ix.SoleConsumer(var->output(0));
  const onnx::NodeProto* add_eps = NodeIf(ix, add_eps_index, "Add");
  if (add_eps == nullptr) return std::nullopt;
  const std::optional<double> epsilon =
      ScalarConstant(ix, OtherInput(*add_eps, var->output(0)), rank);
  if (!epsilon || !(*epsilon >= 0)) return std::nullopt;
  const int sqrt_index = ix.SoleConsumer(add_eps->output(0));
  const onnx::NodeProto* root = NodeIf(ix, sqrt_index, "Sqrt");
  if (root == nullptr || ix.SoleConsumer(root->output(0)) != div_index) return std::nullopt;
  const onnx::NodeProto& div = ix.graph().node(div_index);
  if (div.input(1) != root->output(0)) return std::nullopt;
  const int scale_index = ix.SoleConsumer(div.output(0));
  const onnx::NodeProto* mul = NodeIf(ix, scale_index, "Mul");
  if (mul == nullptr) return std::nullopt;
  const std::string scale = OtherInput(*mul, div.output(0));
  if (scale.empty() || !ConstantWithDims(ix, scale, DataType::kFloat, normalized)) {
    return std::nullopt;
  }

  Rewrite r;
  r.nodes = {mean_index,    sub_index,  square_index, var_index,
             add_eps_index, sqrt_index, div_index,    scale_index};
  std::vector<std::string> inputs = {x, scale};
  std::string output = mul->output(0);
  const int bias_index = ix.SoleConsumer(mul->output(0));
  const onnx::NodeProto* add_bias = NodeIf(ix, bias_index, "Add");
  if (add_bias != nullptr) {
    const std::string bias = OtherInput(*add_bias, mul->output(0));
    if (!bias.empty() && ConstantWithDims(ix, bias, DataType::kFloat, normalized)) {
      r.nodes.push_back(bias_index);
      inputs.push_back(bias);
      output = add_bias->output(0);
    }
  }
  r.fused = NewNode("LayerNormalization", FusedName(ix, r.nodes), inputs, output);
  AddIntAttribute(&r.fused, "axis", rank - *k);
  AddFloatAttribute(&r.fused, "epsilon", static_cast<float>(*epsilon));
  return r;
}

// ---------------------------------------------------------------------------------------------
// Gelu written out (graph/gelu_pattern.h) -> Gelu(x) (approximate "none"), for float or double x.
std::optional<Rewrite> MatchGelu(const GraphIndex& ix, int erf_index, const PassContext& ctx) {
  if (SinceVersion("Gelu", ctx.opset) < 20) return std::nullopt;
  GeluLookup lookup;
  lookup.producer = [&ix](const std::string& name) { return ix.Producer(name); };
  lookup.sole_reader = [&ix](const std::string& name) { return ix.SoleConsumer(name); };
  lookup.is_constant = [&ix](const std::string& name) { return ix.IsConstant(name); };
  lookup.scalar = [&ix](const std::string& name, int64_t max_rank) {
    return ScalarConstant(ix, name, max_rank);
  };
  lookup.type_of = [&ix](const std::string& name) { return ix.TypeOf(name); };
  std::optional<GeluMatch> match = MatchWrittenOutGelu(ix.graph(), erf_index, lookup);
  if (!match || !IsFloatOrDouble(ix.TypeOf(match->x).elem_type)) return std::nullopt;
  Rewrite r;
  r.nodes = match->nodes;
  r.fused = NewNode("Gelu", FusedName(ix, r.nodes), {match->x}, match->y);
  return r;
}

// ---------------------------------------------------------------------------------------------

void Apply(onnx::GraphProto* graph, Rewrite r) {
  const int last = *std::max_element(r.nodes.begin(), r.nodes.end());
  std::unordered_set<int> gone(r.nodes.begin(), r.nodes.end());
  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  for (int i = 0; i < graph->node_size(); ++i) {
    if (i == last) {
      *nodes.Add() = std::move(r.fused);
    } else if (!gone.count(i)) {
      nodes.Add()->Swap(graph->mutable_node(i));
    }
  }
  graph->mutable_node()->Swap(&nodes);
  for (onnx::TensorProto& t : r.initializers) *graph->add_initializer() = std::move(t);
}

// Applies `match` at every node until it matches nowhere (the index is rebuilt after each
// rewrite, so a later match sees the graph as rewritten).
bool ApplyEverywhere(onnx::GraphProto* graph, const PassContext& ctx, Matcher match) {
  bool changed = false;
  for (;;) {
    std::optional<Rewrite> found;
    {
      GraphIndex ix(*graph, ctx.original->dir());
      for (int i = 0; i < graph->node_size() && !found; ++i) found = match(ix, i, ctx);
    }
    if (!found) return changed;
    ctx.report->fused.push_back(found->fused.name());
    Apply(graph, std::move(*found));
    changed = true;
  }
}

}  // namespace

bool FuseConvBatchNorm(onnx::GraphProto* graph, const PassContext& ctx) {
  return ApplyEverywhere(graph, ctx, MatchConvBatchNorm);
}

bool FuseMatMulAdd(onnx::GraphProto* graph, const PassContext& ctx) {
  return ApplyEverywhere(graph, ctx, MatchMatMulAdd);
}

bool FuseLayerNormalization(onnx::GraphProto* graph, const PassContext& ctx) {
  return ApplyEverywhere(graph, ctx, MatchLayerNormalization);
}

bool FuseGelu(onnx::GraphProto* graph, const PassContext& ctx) {
  return ApplyEverywhere(graph, ctx, MatchGelu);
}

}  // namespace onnxgate
