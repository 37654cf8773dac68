// Loop.
#include "runtime/ep/ref/kernels/controlflow/loop.h"

#include <string>

namespace onnxgate::ref {

StatusOr<std::unique_ptr<OpKernel>> LoopKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(auto body, info.CompileSubgraph("body"));
  // Inputs: M, cond, then N loop-carried initial values (M and cond may be empty names).
  const size_t n = info.num_inputs() > 2 ? info.num_inputs() - 2 : 0;
  const size_t body_inputs = body->input_names().size();
  const size_t body_outputs = body->output_names().size();
  if (body_inputs != n + 2) {
    return InvalidArgument("'body' has " + std::to_string(body_inputs) + " inputs; with " +
                           std::to_string(n) + " loop-carried values it needs " +
                           std::to_string(n + 2) + " (iteration number, condition, values)");
  }
  if (body_outputs < n + 1) {
    return InvalidArgument("'body' has " + std::to_string(body_outputs) + " outputs; with " +
                           std::to_string(n) + " loop-carried values it needs at least " +
                           std::to_string(n + 1));
  }
  const size_t k = body_outputs - 1 - n;
  if (info.num_outputs() > n + k) {
    return InvalidArgument("the node has " + std::to_string(info.num_outputs()) +
                           " outputs but the body yields " + std::to_string(n) +
                           " loop-carried values and " + std::to_string(k) + " scan outputs");
  }
  std::vector<DeclaredType> declared = DeclaredOutputTypes(info, "body");
  std::vector<DeclaredType> scan_types(k);
  for (size_t j = 0; j < k && 1 + n + j < declared.size(); ++j) scan_types[j] = declared[1 + n + j];
  return std::unique_ptr<OpKernel>(
      new LoopKernel(info.since_version(), std::move(body), n, std::move(scan_types)));
}

Status LoopKernel::CheckCarried(const Value& v, const char* what, size_t index) const {
  const bool allowed =
      v.is_tensor() || (v.is_sequence() && version_ >= 13) || (v.is_optional() && version_ >= 16);
  if (!allowed) {
    return InvalidArgument(std::string(what) + " " + std::to_string(index) + " of type " +
                           v.TypeString() + " is not allowed in this op version");
  }
  return OkStatus();
}

Status LoopKernel::Compute(KernelContext& ctx) const {
  std::optional<int64_t> trip_count;
  if (ctx.has_input(0)) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* m, GetInput(ctx, 0, "M"));
    ONNXGATE_ASSIGN_OR_RETURN(trip_count, ReadInt64Scalar(*m, "M"));
  }
  const bool has_cond = ctx.has_input(1);
  bool cond = true;
  if (has_cond) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* c, GetInput(ctx, 1, "cond"));
    ONNXGATE_ASSIGN_OR_RETURN(cond, ReadBoolScalar(*c, "cond"));
  }
  // body inputs: iteration number, condition, loop-carried values.
  std::vector<Value> inputs(2 + num_carried_);
  for (size_t j = 0; j < num_carried_; ++j) {
    const Value* v = ctx.input(2 + j);
    if (v == nullptr)
      return InvalidArgument("loop-carried input " + std::to_string(j) + " is missing");
    ONNXGATE_RETURN_IF_ERROR(CheckCarried(*v, "loop-carried input", j));
    inputs[2 + j] = *v;
  }
  const size_t k = scan_types_.size();
  std::vector<std::vector<Tensor>> scans(k);
  const Scope& outer = OuterScopeOf(ctx);
  // Without M and cond the spec's loop never ends; the harness's per-case timeout stops it.
  for (int64_t i = 0; (!trip_count || i < *trip_count) && cond; ++i) {
    inputs[0] = Value::FromTensor(Tensor::Scalar<int64_t>(i));
    inputs[1] = Value::FromTensor(Tensor::Scalar<bool>(cond));
    auto outs = body_->Run(inputs, outer);
    if (!outs.ok()) return outs.status().WithContext("iteration " + std::to_string(i));
    if (outs->size() != 1 + num_carried_ + k) {
      return Internal("the body returned " + std::to_string(outs->size()) + " values for " +
                      std::to_string(1 + num_carried_ + k) + " outputs");
    }
    // The body's condition decides only when the node has a cond input; the spec ignores it in
    // the pure for-loop form.
    if (has_cond) {
      const Value& c = (*outs)[0];
      if (!c.is_tensor()) return InvalidArgument("the body's condition output is not a tensor");
      auto next = ReadBoolScalar(c.tensor(), "cond");
      if (!next.ok()) return next.status().WithContext("iteration " + std::to_string(i));
      cond = *next;
    }
    for (size_t j = 0; j < num_carried_; ++j) {
      Value& v = (*outs)[1 + j];
      ONNXGATE_RETURN_IF_ERROR(CheckCarried(v, "loop-carried output", j));
      inputs[2 + j] = std::move(v);
    }
    for (size_t j = 0; j < k; ++j) {
      Value& v = (*outs)[1 + num_carried_ + j];
      if (!v.is_tensor()) {
        return InvalidArgument("scan output " + std::to_string(j) + " must be a tensor, got " +
                               v.TypeString());
      }
      scans[j].push_back(std::move(v.mutable_tensor()));
    }
  }
  for (size_t j = 0; j < num_carried_ && j < ctx.num_outputs(); ++j) {
    ctx.set_output(j, std::move(inputs[2 + j]));
  }
  for (size_t j = 0; j < k && num_carried_ + j < ctx.num_outputs(); ++j) {
    const std::string what = "scan output " + std::to_string(j);
    auto stacked = scans[j].empty() ? EmptyStack(scan_types_[j], 0, what) : Stack(scans[j], 0);
    if (!stacked.ok()) return stacked.status().WithContext(what);
    ctx.set_output(num_carried_ + j, std::move(stacked).value());
  }
  return OkStatus();
}

}  // namespace onnxgate::ref
