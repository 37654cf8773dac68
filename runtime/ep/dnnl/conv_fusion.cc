// Conv + activation claims of the dnnl provider.
#include "runtime/ep/dnnl/conv_fusion.h"

#include <onnx/onnx_pb.h>

#include <cfloat>
#include <limits>
#include <optional>
#include <string>

#include "runtime/ep/dnnl/kernels/conv.h"
#include "runtime/ep/dnnl/kernels/eltwise.h"
#include "runtime/onnx/op_spec.h"

namespace onnxgate::dnnl_ep {

namespace {

// The KernelInfo of node `index` of the offer's graph at op version `since_version`.
KernelInfo InfoOf(const SubgraphOffer& offer, int index, int since_version) {
  const onnx::NodeProto& node = offer.graph->proto().node(index);
  std::vector<DataType> types;
  std::vector<const Tensor*> constants;
  for (const std::string& in : node.input()) {
    types.push_back(in.empty() ? DataType::kUndefined : offer.graph->ElementType(in));
    constants.push_back(in.empty() ? nullptr : offer.constant(in));
  }
  return KernelInfo(node, since_version, std::move(types), std::move(constants));
}

// A bound of Clip-11 on: the scalar float constant of input `index`, `absent` when omitted;
// nothing when it is not known at load.
std::optional<float> ClipBound(const KernelInfo& info, size_t index, float absent) {
  if (!info.has_input(index)) return absent;
  const Tensor* t = info.constant_input(index);
  if (t == nullptr || t->dtype() != DataType::kFloat || t->NumElements() != 1) return std::nullopt;
  return t->data<float>()[0];
}

// The post-op steps of activation node `info`, or nothing when it is not one dnnl fuses.
StatusOr<std::optional<std::vector<EltwiseStep>>> ActivationSteps(const KernelInfo& info) {
  using Steps = std::optional<std::vector<EltwiseStep>>;
  const std::string& op = info.op_type();
  if (op == "Relu") return Steps(std::vector<EltwiseStep>{{dnnl::algorithm::eltwise_relu}});
  if (op == "LeakyRelu") {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<EltwiseStep> steps,
                              EltwiseStepsOf(info, EltwiseOp::kLeakyRelu));
    return Steps(std::move(steps));
  }
  if (op != "Clip") return Steps();
  if (info.since_version() < 11) {
    ONNXGATE_ASSIGN_OR_RETURN(float lo, info.GetFloat("min", -FLT_MAX));
    ONNXGATE_ASSIGN_OR_RETURN(float hi, info.GetFloat("max", FLT_MAX));
    return Steps(std::vector<EltwiseStep>{ClipStep(lo, hi)});
  }
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const std::optional<float> lo = ClipBound(info, 1, -kInf);
  const std::optional<float> hi = ClipBound(info, 2, kInf);
  if (!lo || !hi) return Steps();  // bounds known only at run time
  return Steps(std::vector<EltwiseStep>{ClipStep(*lo, *hi)});
}

// "conv1+relu1", with the names the session shows for unnamed nodes.
std::string ClaimName(const SubgraphOffer& offer, int conv, int activation) {
  const auto& nodes = offer.graph->proto().node();
  return NodeDisplayName(nodes.Get(conv), conv) + "+" +
         NodeDisplayName(nodes.Get(activation), activation);
}

}  // namespace

StatusOr<std::vector<SubgraphClaim>> ClaimConvActivations(const SubgraphOffer& offer,
                                                          std::shared_ptr<const DnnlContext> dnnl) {
  const onnx::GraphProto& graph = offer.graph->proto();
  std::vector<SubgraphClaim> claims;
  std::vector<bool> taken(offer.nodes.size(), false);
  for (size_t k = 0; k < offer.nodes.size(); ++k) {
    const onnx::NodeProto& conv = graph.node(offer.nodes[k]);
    if (conv.op_type() != "Conv" || NormalizeDomain(conv.domain()) != "" || taken[k] ||
        conv.output_size() != 1 || conv.output(0).empty() || offer.readers(conv.output(0)) != 1) {
      continue;
    }
    const std::string& y = conv.output(0);
    for (size_t j = k + 1; j < offer.nodes.size(); ++j) {
      const onnx::NodeProto& act = graph.node(offer.nodes[j]);
      if (act.input_size() == 0 || act.input(0) != y) continue;
      if (taken[j] || NormalizeDomain(act.domain()) != "" || act.output_size() != 1) break;
      KernelInfo act_info = InfoOf(offer, offer.nodes[j], offer.since_versions[j]);
      ONNXGATE_ASSIGN_OR_RETURN(std::optional<std::vector<EltwiseStep>> steps,
                                ActivationSteps(act_info));
      if (!steps) break;
      auto kernel = ConvKernel::Create(InfoOf(offer, offer.nodes[k], offer.since_versions[k]),
                                       dnnl, std::move(*steps));
      if (!kernel.ok()) {
        if (kernel.status().code() == StatusCode::kUnimplemented) break;
        return kernel.status();
      }
      SubgraphClaim claim;
      claim.name = ClaimName(offer, offer.nodes[k], offer.nodes[j]);
      claim.nodes = {offer.nodes[k], offer.nodes[j]};
      claim.inputs.assign(conv.input().begin(), conv.input().end());
      claim.outputs = {act.output(0)};
      claim.kernel = std::move(kernel).value();
      claims.push_back(std::move(claim));
      taken[k] = taken[j] = true;
      break;
    }
  }
  return claims;
}

}  // namespace onnxgate::dnnl_ep
