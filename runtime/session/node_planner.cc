// Node planning: schema -> active version -> bound types -> first provider that claims the node
// and builds its kernel, under the fallback policy.
#include "runtime/session/node_planner.h"

#include <onnx/onnx_pb.h>
#include <spdlog/spdlog.h>

#include "runtime/onnx/domain.h"
#include "runtime/onnx/op_spec.h"
#include "runtime/onnx/type_binding.h"

namespace onnxgate {

namespace {

std::string JoinDeclines(const std::vector<DeclineReason>& declines) {
  std::string s;
  for (const auto& d : declines) {
    s += (s.empty() ? "" : "; ") + ("'" + d.provider + "': " + d.reason);
  }
  return s;
}

}  // namespace

StatusOr<PlannedNode> PlanNode(const CompileContext& ctx, const Graph& graph, int index,
                               const std::string& display_name,
                               std::vector<const Tensor*> constant_inputs,
                               KernelInfo::SubgraphCompiler compiler) {
  const onnx::NodeProto& node = graph.proto().node(index);
  const std::string label = node.op_type() + " node '" + display_name + "'";
  NodeRequest request;
  request.node = &node;
  request.domain = NormalizeDomain(node.domain());
  const std::string shown_domain = DomainDisplayName(request.domain);
  const int opset = ctx.model->OpsetFor(request.domain);
  if (opset < 0) {
    return InvalidArgument(label + ": its domain '" + shown_domain +
                           "' is not imported in the model's opset_import");
  }
  const std::optional<OpSpec> schema = OpSpec::Find(node.op_type(), opset, request.domain);
  if (!schema) {
    return Unimplemented(label + ": no ONNX schema for op " + node.op_type() + " in domain '" +
                         shown_domain + "' at opset " + std::to_string(opset));
  }
  if (schema->deprecated()) {
    return Unimplemented(label + ": op " + node.op_type() + " is deprecated at opset " +
                         std::to_string(opset) + " (since version " +
                         std::to_string(schema->since_version()) + ")");
  }
  request.since_version = schema->since_version();
  const std::string versioned_label =
      label + " (version " + std::to_string(request.since_version) + ")";
  for (const std::string& in : node.input()) {
    request.input_types.push_back(in.empty() ? DataType::kUndefined : graph.ElementType(in));
  }
  for (const std::string& out : node.output()) {
    request.output_types.push_back(out.empty() ? DataType::kUndefined : graph.ElementType(out));
  }
  auto bound = BindTypeConstraints(*schema, request.input_types, request.output_types);
  if (!bound.ok()) return InvalidArgument(label + ": " + bound.status().message());
  request.bound_types = std::move(bound).value();

  NodePlacement placement;
  placement.node_name = display_name;
  placement.op_type = node.op_type();
  placement.domain = request.domain;
  placement.since_version = request.since_version;
  const auto& providers = *ctx.providers;
  for (size_t p = 0; p < providers.size(); ++p) {
    const ExecutionProvider& provider = *providers[p];
    auto def = provider.Claim(request);
    if (!def.ok()) {
      if (def.status().code() != StatusCode::kUnimplemented) {
        return def.status().WithContext(label + " on provider '" + provider.name() + "'");
      }
      placement.declines.push_back({provider.name(), def.status().message()});
      continue;
    }
    if (p > 0 && ctx.fallback == FallbackPolicy::kForbid) {
      return Unimplemented(label + ": fallback is forbidden and the first provider declines it (" +
                           JoinDeclines(placement.declines) + "); it would run on '" +
                           provider.name() + "'");
    }
    // Subgraphs compiled by the factory record their placements; they are dropped again when
    // this provider's factory declines after all.
    const size_t mark = ctx.placements->size();
    KernelInfo info(node, request.since_version, request.input_types, constant_inputs, compiler);
    auto kernel = (*def)->factory(info);
    if (!kernel.ok()) {
      ctx.placements->resize(mark);
      if (kernel.status().code() != StatusCode::kUnimplemented) {
        return kernel.status().WithContext(versioned_label + " on provider '" + provider.name() +
                                           "'");
      }
      placement.declines.push_back({provider.name(), kernel.status().message()});
      continue;
    }
    if (p > 0 && ctx.fallback == FallbackPolicy::kWarn) {
      spdlog::warn("{}: {} falls back to provider '{}': {}", ctx.model->display_name(), label,
                   provider.name(), JoinDeclines(placement.declines));
    }
    placement.provider = provider.name();
    // The node comes before the nodes of its subgraphs.
    ctx.placements->insert(ctx.placements->begin() + static_cast<std::ptrdiff_t>(mark),
                           std::move(placement));
    return PlannedNode{std::move(kernel).value(), versioned_label, &provider, mark};
  }
  return Unimplemented(label + " (" + shown_domain + "." + node.op_type() + "-" +
                       std::to_string(request.since_version) + ", " +
                       BoundTypesToString(request.bound_types) +
                       "): no provider can run it: " + JoinDeclines(placement.declines));
}

}  // namespace onnxgate
