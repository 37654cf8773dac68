// If.
#include "runtime/ep/ref/kernels/controlflow/if.h"

#include <string>

#include "runtime/ep/ref/kernels/controlflow/control_flow_util.h"

namespace onnxgate::ref {

namespace {

// Branches take no formal inputs (they read enclosing values by name) and must produce one
// value per output of the node.
Status CheckBranch(const KernelInfo& info, const SubgraphExecutor& branch, const char* name) {
  if (!branch.input_names().empty()) {
    return InvalidArgument(std::string("'") + name + "' declares " +
                           std::to_string(branch.input_names().size()) +
                           " inputs; If branches take none");
  }
  if (branch.output_names().size() != info.num_outputs()) {
    return InvalidArgument(std::string("'") + name + "' has " +
                           std::to_string(branch.output_names().size()) +
                           " outputs but the node has " + std::to_string(info.num_outputs()));
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> IfKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(auto then_branch, info.CompileSubgraph("then_branch"));
  ONNXGATE_ASSIGN_OR_RETURN(auto else_branch, info.CompileSubgraph("else_branch"));
  ONNXGATE_RETURN_IF_ERROR(CheckBranch(info, *then_branch, "then_branch"));
  ONNXGATE_RETURN_IF_ERROR(CheckBranch(info, *else_branch, "else_branch"));
  return std::unique_ptr<OpKernel>(
      new IfKernel(info.since_version(), std::move(then_branch), std::move(else_branch)));
}

Status IfKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* cond_tensor, GetInput(ctx, 0, "cond"));
  ONNXGATE_ASSIGN_OR_RETURN(bool cond, ReadBoolScalar(*cond_tensor, "cond"));
  const SubgraphExecutor& branch = cond ? *then_branch_ : *else_branch_;
  const char* branch_name = cond ? "then_branch" : "else_branch";
  auto outputs = branch.Run({}, OuterScopeOf(ctx));
  if (!outputs.ok()) return outputs.status().WithContext(branch_name);
  if (outputs->size() != ctx.num_outputs()) {
    return Internal(std::string(branch_name) + " returned " + std::to_string(outputs->size()) +
                    " values for " + std::to_string(ctx.num_outputs()) + " outputs");
  }
  for (size_t i = 0; i < outputs->size(); ++i) {
    Value& v = (*outputs)[i];
    // Each version widens what a branch may return: sequences from 13, optionals from 16.
    if ((v.is_sequence() && version_ < 13) || (v.is_optional() && version_ < 16)) {
      return InvalidArgument(std::string(branch_name) + " output " + std::to_string(i) +
                             " of type " + v.TypeString() + " is not allowed in this op version");
    }
    ctx.set_output(i, std::move(v));
  }
  return OkStatus();
}

}  // namespace onnxgate::ref
