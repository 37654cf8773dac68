// Constant folding: a deterministic node whose inputs are all constants (for CastLike, its first
// input: the second gives only a type) is evaluated once, as a model of its own (its constant
// inputs as initializers) on the fold provider through the session, and its outputs become
// initializers (IR version >= 4) or Constant nodes (IR < 4, where every initializer must be a
// graph input and would become overridable).
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <unordered_map>

#include "runtime/onnx/domain.h"
#include "runtime/optimizer/graph_index.h"
#include "runtime/optimizer/passes.h"
#include "runtime/proto/tensor_proto.h"
#include "runtime/session/session.h"

namespace onnxgate {

namespace {

// Ops whose outputs are not a function of their inputs (random draws; Dropout draws a mask in
// training mode), never folded.
bool IsNondeterministic(const std::string& op) {
  static const char* const kOps[] = {"RandomUniform",    "RandomNormal", "RandomUniformLike",
                                     "RandomNormalLike", "Bernoulli",    "Multinomial",
                                     "Dropout"};
  return std::find(std::begin(kOps), std::end(kOps), op) != std::end(kOps);
}

bool IsFoldableOp(const onnx::NodeProto& node, bool initializers_allowed) {
  if (!(IsDefaultDomain(node.domain()) || node.domain() == "ai.onnx.ml")) return false;
  if (IsNondeterministic(node.op_type()) || HasSubgraph(node)) return false;
  // Below IR version 4 a folded value is a Constant node again: nothing to gain.
  if (!initializers_allowed && node.op_type() == "Constant") return false;
  return !DefinedOutputs(node).empty();
}

// The bytes of a constant's values as its TensorProto declares them.
int64_t DeclaredBytes(const onnx::TensorProto& t) {
  int64_t n = 1;
  for (int64_t d : t.dims()) {
    if (d < 0 || (d > 0 && n > INT64_MAX / d)) return INT64_MAX;
    n *= d;
  }
  if (t.data_type() == onnx::TensorProto::STRING) {
    int64_t bytes = 8 * n;
    for (const std::string& s : t.string_data()) bytes += static_cast<int64_t>(s.size());
    return bytes;
  }
  if (!IsValidDataType(t.data_type())) return INT64_MAX;
  return static_cast<int64_t>(DataTypeStorageBytes(static_cast<DataType>(t.data_type()), n));
}

class Folder {
 public:
  Folder(onnx::ModelProto* model, const PassContext& ctx)
      : model_(model), ctx_(ctx), index_(model->graph(), ctx.original->dir()) {}

  bool Run() {
    onnx::GraphProto* g = model_->mutable_graph();
    const bool initializers_allowed = model_->ir_version() >= 4;
    std::vector<bool> folded_node(g->node_size(), false);
    for (int i = 0; i < g->node_size(); ++i) {
      const onnx::NodeProto& node = g->node(i);
      if (!IsFoldableOp(node, initializers_allowed)) continue;
      bool all_constant = true;
      for (int k = 0; k < node.input_size(); ++k) {
        const std::string& in = node.input(k);
        if (!in.empty() && !ConstantInput(in) && !TypeOnlyInput(node, k)) all_constant = false;
      }
      if (!all_constant) continue;
      Status st = Fold(node);
      if (!st.ok()) {
        ctx_.report->not_folded.push_back(NodeLabel(node, i) + ": " + st.message());
        continue;
      }
      folded_node[i] = true;
      ctx_.report->folded.push_back(node.name());
    }
    if (values_.empty()) return false;

    google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
    for (int i = 0; i < g->node_size(); ++i) {
      const onnx::NodeProto& node = g->node(i);
      if (!folded_node[i]) {
        *nodes.Add() = node;
        continue;
      }
      for (const std::string& out : DefinedOutputs(node)) {
        onnx::TensorProto value = values_.at(out);
        if (initializers_allowed) {
          *g->add_initializer() = std::move(value);
          continue;
        }
        onnx::NodeProto* constant = nodes.Add();
        constant->set_name(node.output_size() == 1 ? node.name() : node.name() + ":" + out);
        constant->set_op_type("Constant");
        constant->add_output(out);
        onnx::AttributeProto* attr = constant->add_attribute();
        attr->set_name("value");
        attr->set_type(onnx::AttributeProto::TENSOR);
        *attr->mutable_t() = std::move(value);
      }
    }
    g->mutable_node()->Swap(&nodes);
    return true;
  }

 private:
  // A constant of the original graph, or the output of a node folded in this pass.
  const onnx::TensorProto* ConstantInput(const std::string& name) const {
    auto it = values_.find(name);
    if (it != values_.end()) return &it->second;
    return index_.ConstantProto(name);
  }

  // CastLike reads only the element type of its second input: when that type is known, the
  // node is a Cast of its first input, constant or not.
  bool TypeOnlyInput(const onnx::NodeProto& node, int k) const {
    if (!IsOnnxOp(node, "CastLike") || k != 1) return false;
    const ValueType type = index_.TypeOf(node.input(k));
    return type.kind == Value::Kind::kTensor && type.elem_type != DataType::kUndefined;
  }

  Status Fold(const onnx::NodeProto& node) {
    // A Constant's value is already at hand.
    if (node.op_type() == "Constant" && index_.ConstantProto(node.output(0)) != nullptr) {
      onnx::TensorProto value = *index_.ConstantProto(node.output(0));
      value.set_name(node.output(0));
      values_.emplace(node.output(0), std::move(value));
      return OkStatus();
    }
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<Tensor> outputs, Evaluate(node));
    const std::vector<std::string> names = DefinedOutputs(node);
    for (size_t k = 0; k < names.size(); ++k) {
      values_.emplace(names[k], TensorToProto(outputs[k], names[k]));
    }
    return OkStatus();
  }

  // Runs the node alone on the fold provider: a model whose initializers are its inputs.
  StatusOr<std::vector<Tensor>> Evaluate(const onnx::NodeProto& node) {
    const Model& original = *ctx_.original;
    onnx::ModelProto mini;
    mini.set_ir_version(std::max<int64_t>(model_->ir_version(), 4));
    *mini.mutable_opset_import() = model_->opset_import();
    onnx::GraphProto* g = mini.mutable_graph();
    g->set_name("fold");
    int64_t input_bytes = 0;
    std::unordered_set<std::string> added;
    for (int k = 0; k < node.input_size(); ++k) {
      const std::string& in = node.input(k);
      if (in.empty() || !added.insert(in).second) continue;
      onnx::TensorProto* init = g->add_initializer();
      if (const onnx::TensorProto* value = ConstantInput(in)) {
        *init = *value;
      } else {  // a type-only input (TypeOnlyInput): an empty tensor of its type
        init->set_data_type(static_cast<int>(index_.TypeOf(in).elem_type));
        init->add_dims(0);
      }
      init->set_name(in);
      input_bytes = std::min<int64_t>(INT64_MAX / 2, input_bytes + DeclaredBytes(*init));
    }
    *g->add_node() = node;
    const std::vector<std::string> names = DefinedOutputs(node);
    for (const std::string& out : names) {
      // ONNX's checker wants a graph output's element type and shape (rank); unknown dims
      // stay unknown for inference to fill in.
      const ValueType type = index_.TypeOf(out);
      if (type.kind != Value::Kind::kTensor || type.elem_type == DataType::kUndefined ||
          !type.has_shape) {
        return Unimplemented("the type and rank of output '" + out + "' are not known");
      }
      onnx::ValueInfoProto* vi = g->add_output();
      vi->set_name(out);
      onnx::TypeProto_Tensor* tensor_type = vi->mutable_type()->mutable_tensor_type();
      tensor_type->set_elem_type(static_cast<int>(type.elem_type));
      onnx::TensorShapeProto* shape = tensor_type->mutable_shape();
      for (int64_t d : type.dims) {
        onnx::TensorShapeProto_Dimension* dim = shape->add_dim();
        if (d >= 0) dim->set_dim_value(d);
      }
    }
    ONNXGATE_ASSIGN_OR_RETURN(
        std::shared_ptr<const Model> alone,
        Model::FromProto(std::move(mini), original.dir(),
                         original.display_name() + " (node '" + node.name() + "' folded alone)",
                         ctx_.options->model_options));

    // Inference with the inputs' values must know every output's size before anything runs,
    // so that a fold that would grow the model past the limit never allocates it.
    const int64_t limit = std::max(ctx_.options->fold_growth_limit_bytes, input_bytes);
    int64_t declared = 0;
    for (const onnx::ValueInfoProto& out : alone->graph().output()) {
      const ValueType t = ValueTypeFromProto(out.type());
      int64_t n = 1;
      bool known = t.has_shape;
      for (int64_t d : t.dims) {
        if (d < 0 || (d > 0 && n > INT64_MAX / d)) known = false;
        if (known) n *= d;
      }
      if (!known) return Unimplemented("the size of output '" + out.name() + "' is not known");
      const int64_t bytes = t.elem_type == DataType::kString
                                ? 8 * n
                                : static_cast<int64_t>(DataTypeStorageBytes(t.elem_type, n));
      declared = std::min<int64_t>(INT64_MAX / 2, declared + bytes);
    }
    if (declared > limit) {
      return Unimplemented("its outputs would take " + std::to_string(declared) +
                           " bytes, more than the limit of " + std::to_string(limit));
    }

    ONNXGATE_ASSIGN_OR_RETURN(std::unique_ptr<const Session> session,
                              Session::Create(alone, {ctx_.fold_provider}));
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<Value> values, session->Run({}));
    std::vector<Tensor> tensors;
    int64_t bytes = 0;
    for (size_t k = 0; k < values.size(); ++k) {
      const ValueType want = index_.TypeOf(names[k]);
      if (!values[k].is_tensor() || !values[k].tensor().defined() ||
          values[k].tensor().dtype() != want.elem_type) {
        return Internal("output '" + names[k] + "' is " + values[k].TypeString() +
                        ", not the declared " + want.ToString());
      }
      bytes += ValueBytes(values[k].tensor());
      tensors.push_back(values[k].tensor());
    }
    if (bytes > limit) {
      return Unimplemented("its outputs take " + std::to_string(bytes) +
                           " bytes, more than the limit of " + std::to_string(limit));
    }
    return tensors;
  }

  onnx::ModelProto* model_;
  const PassContext& ctx_;
  GraphIndex index_;
  std::unordered_map<std::string, onnx::TensorProto> values_;  // folded outputs by name
};

}  // namespace

bool FoldConstants(onnx::ModelProto* model, const PassContext& ctx) {
  return Folder(model, ctx).Run();
}

}  // namespace onnxgate
