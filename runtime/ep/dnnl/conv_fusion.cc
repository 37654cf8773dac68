// Conv + residual Add + activation claims of the dnnl provider.
#include "runtime/ep/dnnl/conv_fusion.h"

#include <onnx/onnx_pb.h>

#include <cfloat>
#include <limits>
#include <optional>
#include <string>

#include "runtime/ep/dnnl/claim_common.h"
#include "runtime/ep/dnnl/kernels/binary.h"
#include "runtime/ep/dnnl/kernels/conv.h"
#include "runtime/ep/dnnl/kernels/eltwise.h"
#include "runtime/onnx/op_spec.h"

namespace onnxgate::dnnl_ep {

namespace {

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

// "conv1+add1+relu1", with the names the session shows for unnamed nodes.
std::string ClaimName(const SubgraphOffer& offer, const std::vector<int>& nodes) {
  std::string name;
  for (int node : nodes) {
    name += (name.empty() ? "" : "+") + NodeDisplayName(offer.graph->proto().node(node), node);
  }
  return name;
}

// R when `node` is Add(y, R) or Add(R, y) of float32 tensors, R another value than y; else
// nothing.
std::optional<std::string> ResidualOf(const SubgraphOffer& offer, const onnx::NodeProto& node,
                                      const std::string& y) {
  if (!IsOnnxOp(node, "Add") || node.input_size() != 2 || node.output_size() != 1 ||
      node.output(0).empty() || (node.input(0) != y && node.input(1) != y)) {
    return std::nullopt;
  }
  const std::string& r = node.input(0) == y ? node.input(1) : node.input(0);
  if (r.empty() || r == y || offer.graph->ElementType(r) != DataType::kFloat ||
      offer.graph->ElementType(y) != DataType::kFloat) {
    return std::nullopt;
  }
  return r;
}

}  // namespace

StatusOr<std::vector<SubgraphClaim>> ClaimConvPostOps(const SubgraphOffer& offer,
                                                      std::shared_ptr<const DnnlContext> dnnl) {
  const onnx::GraphProto& graph = offer.graph->proto();
  std::vector<SubgraphClaim> claims;
  std::vector<bool> taken(offer.nodes.size(), false);
  for (size_t k = 0; k < offer.nodes.size(); ++k) {
    const onnx::NodeProto& conv = graph.node(offer.nodes[k]);
    if (!IsOnnxOp(conv, "Conv") || taken[k] || conv.output_size() != 1 || conv.output(0).empty()) {
      continue;
    }
    const std::string& y = conv.output(0);
    const std::optional<size_t> next = SoleOfferedReader(offer, y, k, taken);
    if (!next) continue;
    // Conv, then a residual Add (optional), then an activation (optional), each read by the next
    // alone; at least one of the two.
    int add = -1, act = -1;
    std::string last = y;
    const std::optional<std::string> r = ResidualOf(offer, graph.node(offer.nodes[*next]), y);
    if (r) {
      add = static_cast<int>(*next);
      last = graph.node(offer.nodes[add]).output(0);
      if (std::optional<size_t> reader = SoleOfferedReader(offer, last, add, taken)) {
        act = static_cast<int>(*reader);
      }
    } else {
      act = static_cast<int>(*next);
    }
    std::optional<std::vector<EltwiseStep>> steps;
    if (act >= 0) {
      const onnx::NodeProto& node = graph.node(offer.nodes[act]);
      if (node.input(0) == last && NormalizeDomain(node.domain()) == "" &&
          node.output_size() == 1) {
        ONNXGATE_ASSIGN_OR_RETURN(steps, ActivationSteps(OfferedNodeInfo(offer, act)));
      }
      if (!steps) act = -1;
    }
    if (add < 0 && act < 0) continue;

    const KernelInfo conv_info = OfferedNodeInfo(offer, k);
    std::optional<ConvResidual> residual;
    if (add >= 0) {
      residual.emplace();
      residual->r_first = graph.node(offer.nodes[add]).input(0) != y;
      ONNXGATE_ASSIGN_OR_RETURN(residual->conv, ConvKernel::Create(conv_info, dnnl));
      ONNXGATE_ASSIGN_OR_RETURN(
          residual->add,
          BinaryKernel::Create(OfferedNodeInfo(offer, add), dnnl::algorithm::binary_add, dnnl));
      if (steps) residual->activation = EltwiseKernel::FromSteps(*steps, dnnl);
    }
    auto kernel = ConvKernel::Create(conv_info, dnnl, steps.value_or(std::vector<EltwiseStep>{}),
                                     std::move(residual));
    if (!kernel.ok()) {
      if (kernel.status().code() == StatusCode::kUnimplemented) continue;
      return kernel.status();
    }
    SubgraphClaim claim;
    claim.nodes = {offer.nodes[k]};
    for (int j : {add, act}) {
      if (j >= 0) claim.nodes.push_back(offer.nodes[j]);
    }
    claim.name = ClaimName(offer, claim.nodes);
    claim.inputs.assign(conv.input().begin(), conv.input().end());
    if (r) {
      claim.inputs.resize(3);  // B, or "" when omitted
      claim.inputs.push_back(*r);
    }
    claim.outputs = {graph.node(claim.nodes.back()).output(0)};
    claim.kernel = std::move(kernel).value();
    claims.push_back(std::move(claim));
    taken[k] = true;
    for (int j : {add, act}) {
      if (j >= 0) taken[j] = true;
    }
  }
  return claims;
}

}  // namespace onnxgate::dnnl_ep
