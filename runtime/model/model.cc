// Model loading: read, parse (binary or text), versions, limits, external data rules, op schemas,
// ONNX's checker and shape inference, in that order so each failure gets the clearest message.
#include "runtime/model/model.h"

#include <onnx/onnx_pb.h>
#include <spdlog/spdlog.h>

#include <functional>
#include <set>

#include "runtime/base/contained_file.h"
#include "runtime/model/model_file.h"
#include "runtime/model/type_inference.h"
#include "runtime/onnx/domain.h"
#include "runtime/onnx/model_checks.h"
#include "runtime/onnx/op_spec.h"
#include "runtime/onnx/text_format.h"
#include "runtime/proto/external_data.h"

namespace onnxgate {

namespace {

// Calls fn(graph, depth, where) for the graph and every subgraph in node attributes.
using GraphVisitor = std::function<Status(const onnx::GraphProto&, int, const std::string&)>;

Status WalkGraphs(const onnx::GraphProto& graph, int depth, const std::string& where,
                  const GraphVisitor& fn) {
  ONNXGATE_RETURN_IF_ERROR(fn(graph, depth, where));
  for (const onnx::NodeProto& node : graph.node()) {
    const std::string node_where =
        where + " > " + node.op_type() + (node.name().empty() ? "" : " '" + node.name() + "'");
    for (const onnx::AttributeProto& attr : node.attribute()) {
      if (attr.has_g()) {
        ONNXGATE_RETURN_IF_ERROR(
            WalkGraphs(attr.g(), depth + 1, node_where + "." + attr.name(), fn));
      }
      for (const onnx::GraphProto& g : attr.graphs()) {
        ONNXGATE_RETURN_IF_ERROR(WalkGraphs(g, depth + 1, node_where + "." + attr.name(), fn));
      }
    }
  }
  return OkStatus();
}

// Limits come first: the checker and shape inference recurse through subgraphs.
Status CheckLimits(const onnx::GraphProto& main, const ModelOptions& limits) {
  int64_t nodes = 0;
  return WalkGraphs(
      main, 0, "graph", [&](const onnx::GraphProto& g, int depth, const std::string& where) {
        if (depth > limits.max_subgraph_depth) {
          return InvalidArgument("subgraph nesting depth " + std::to_string(depth) +
                                 " exceeds the limit of " +
                                 std::to_string(limits.max_subgraph_depth) + " at " + where);
        }
        nodes += g.node_size();
        if (nodes > limits.max_nodes) {
          return InvalidArgument("more than " + std::to_string(limits.max_nodes) +
                                 " nodes (the limit) counting every graph and subgraph");
        }
        return OkStatus();
      });
}

// External data is checked by onnxgate's rules before the checker, which would accept a
// location outside the model's folder as long as the file exists.
Status CheckAllExternalData(const onnx::GraphProto& main, const std::string& dir) {
  auto check = [&](const onnx::TensorProto& t, const std::string& where) {
    if (t.data_location() != onnx::TensorProto::EXTERNAL) return OkStatus();
    Status st = CheckExternalData(t, dir);
    return st.ok() ? st : st.WithContext(where);
  };
  return WalkGraphs(main, 0, "graph",
                    [&](const onnx::GraphProto& g, int, const std::string& where) {
                      for (const onnx::TensorProto& t : g.initializer()) {
                        ONNXGATE_RETURN_IF_ERROR(check(t, where + " initializer"));
                      }
                      for (const onnx::NodeProto& node : g.node()) {
                        for (const onnx::AttributeProto& attr : node.attribute()) {
                          std::string attr_where =
                              where + " " + node.op_type() + " attribute '" + attr.name() + "'";
                          if (attr.has_t()) ONNXGATE_RETURN_IF_ERROR(check(attr.t(), attr_where));
                          for (const onnx::TensorProto& t : attr.tensors()) {
                            ONNXGATE_RETURN_IF_ERROR(check(t, attr_where));
                          }
                        }
                      }
                      return OkStatus();
                    });
}

// Every node's op must have a schema at the opset its domain imports: an op that ONNX does not
// know (or a custom domain) is something this runtime declines, not a broken file.
Status CheckOpSchemas(const onnx::ModelProto& model, const std::map<std::string, int>& opsets) {
  std::set<std::string> local_functions;
  for (const auto& f : model.functions()) {
    local_functions.insert(NormalizeDomain(f.domain()) + ":" + f.name());
  }
  return WalkGraphs(
      model.graph(), 0, "graph", [&](const onnx::GraphProto& g, int, const std::string& where) {
        for (const onnx::NodeProto& node : g.node()) {
          const std::string domain = NormalizeDomain(node.domain());
          const std::string shown_domain = DomainDisplayName(domain);
          const std::string label = where + ": " + node.op_type() + " node" +
                                    (node.name().empty() ? "" : " '" + node.name() + "'");
          auto it = opsets.find(domain);
          if (it == opsets.end()) {
            return InvalidArgument(label + " uses domain '" + shown_domain +
                                   "' which the model does not import in opset_import");
          }
          if (local_functions.count(domain + ":" + node.op_type())) {
            return Unimplemented(label + ": model-local functions are not supported (" +
                                 shown_domain + "." + node.op_type() + ")");
          }
          if (!OpSpec::Find(node.op_type(), it->second, domain)) {
            return Unimplemented(label + ": no ONNX schema for op " + node.op_type() +
                                 " in domain '" + shown_domain + "' at opset " +
                                 std::to_string(it->second) + " (unknown to ONNX " +
                                 OnnxReleaseVersion() + ")");
          }
        }
        return OkStatus();
      });
}

// Types inferred here let kernels be chosen by type; a model whose inference fails still loads,
// with those types unknown.
void InferShapes(onnx::ModelProto& model, const std::string& display_name,
                 const ModelOptions& options) {
  InferenceResult result =
      InferTypes(model, options.isolate_shape_inference, options.shape_inference_timeout_seconds);
  // Inference errors on single nodes are common in real models and harmless here; a crash of
  // ONNX's inference is worth a warning.
  if (result.crashed) {
    spdlog::warn("{}: some types stay unknown: {}", display_name, result.detail);
  } else if (!result.ok) {
    spdlog::debug("{}: some types stay unknown: {}", display_name, result.detail);
  }
}

StatusOr<std::map<std::string, int>> OpsetImports(const onnx::ModelProto& model) {
  std::map<std::string, int> opsets;
  for (const auto& opset : model.opset_import()) {
    const std::string domain = NormalizeDomain(opset.domain());
    const std::string shown = DomainDisplayName(domain);
    if (opset.version() < 1 || opset.version() > INT32_MAX) {
      return InvalidArgument("opset_import gives domain '" + shown + "' the version " +
                             std::to_string(opset.version()) + ", outside 1 to 2^31-1");
    }
    const int max = MaxOpset(domain);
    if (max > 0 && opset.version() > max) {
      return Unimplemented("opset " + std::to_string(opset.version()) + " of domain '" + shown +
                           "' is newer than ONNX " + OnnxReleaseVersion() + " knows (up to " +
                           std::to_string(max) + ")");
    }
    if (!opsets.emplace(domain, static_cast<int>(opset.version())).second) {
      return InvalidArgument("opset_import lists domain '" + opset.domain() + "' twice");
    }
  }
  if (model.ir_version() >= 3 && opsets.empty()) {
    return InvalidArgument("a model of IR version >= 3 must import an opset in opset_import");
  }
  if (model.ir_version() < 3 && opsets.empty()) opsets[""] = 1;  // IR 1 and 2 had no imports
  return opsets;
}

}  // namespace

std::string DirectoryOf(const std::string& path) {
  size_t pos = path.find_last_of('/');
  if (pos == std::string::npos) return ".";
  if (pos == 0) return "/";
  return path.substr(0, pos);
}

Model::~Model() = default;

const onnx::GraphProto& Model::graph() const { return proto_->graph(); }

int Model::OpsetFor(const std::string& domain) const {
  auto it = opset_imports_.find(NormalizeDomain(domain));
  return it == opset_imports_.end() ? -1 : it->second;
}

StatusOr<onnx::ModelProto> Model::ParseText(const std::string& text,
                                            const std::string& display_name) {
  onnx::ModelProto proto;
  ONNXGATE_RETURN_IF_ERROR(ParseModelText(text, display_name, &proto));
  return proto;
}

StatusOr<std::shared_ptr<const Model>> Model::Load(const std::string& path,
                                                   const ModelOptions& options) {
  // The user's path may be a link, but it must be a regular file no larger than protobuf can
  // parse: a FIFO or /dev/zero named as a model is refused without blocking or reading.
  ONNXGATE_ASSIGN_OR_RETURN(std::string bytes,
                            ReadRegularFile(path, kMaxProtobufFileBytes, "model file"));
  return FromFileBytes(path, bytes, options);
}

StatusOr<std::shared_ptr<const Model>> Model::FromFileBytes(const std::string& path,
                                                            const std::string& bytes,
                                                            const ModelOptions& options) {
  if (bytes.empty()) return DataLoss(path + ": empty file, not an ONNX model");
  onnx::ModelProto proto;
  ONNXGATE_RETURN_IF_ERROR(ParseModelFile(bytes, path, &proto));
  // Protobuf accepts many byte strings as some message; one with neither IR version nor graph
  // is not a model.
  if (!IsTextModel(path) && !proto.has_ir_version() && !proto.has_graph()) {
    return DataLoss(path + ": not a valid ONNX model (no ir_version and no graph)");
  }
  return FromProto(std::move(proto), DirectoryOf(path), path, options);
}

StatusOr<std::shared_ptr<const Model>> Model::FromProto(onnx::ModelProto proto,
                                                        const std::string& dir,
                                                        const std::string& display_name,
                                                        const ModelOptions& options) {
  auto fail = [&](const Status& st) { return st.WithContext(display_name); };
  if (!proto.has_ir_version() || proto.ir_version() <= 0) {
    return fail(InvalidArgument("the model has no ir_version"));
  }
  if (proto.ir_version() > MaxIrVersion()) {
    return fail(Unimplemented("IR version " + std::to_string(proto.ir_version()) +
                              " is newer than ONNX " + OnnxReleaseVersion() +
                              " knows (IR version " + std::to_string(MaxIrVersion()) + ")"));
  }
  if (!proto.has_graph()) return fail(InvalidArgument("the model has no graph"));
  auto opsets = OpsetImports(proto);
  if (!opsets.ok()) return fail(opsets.status());

  Status st = CheckLimits(proto.graph(), options);
  if (st.ok()) st = CheckAllExternalData(proto.graph(), dir);
  if (st.ok()) st = CheckOpSchemas(proto, *opsets);
  if (st.ok()) st = CheckModelWithOnnx(proto, *opsets, dir);
  if (!st.ok()) return fail(st);
  InferShapes(proto, display_name, options);

  std::shared_ptr<Model> model(new Model());
  model->proto_ = std::make_unique<onnx::ModelProto>(std::move(proto));
  model->dir_ = dir;
  model->display_name_ = display_name;
  model->opset_imports_ = std::move(opsets).value();
  return std::shared_ptr<const Model>(std::move(model));
}

}  // namespace onnxgate
