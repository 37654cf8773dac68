// SequenceMap.
#include "runtime/ep/ref/kernels/sequence/sequence_map.h"

#include <string>

namespace onnxgate::ref {

StatusOr<std::unique_ptr<OpKernel>> SequenceMapKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(auto body, info.CompileSubgraph("body"));
  if (body->input_names().size() != info.num_inputs()) {
    return InvalidArgument("'body' has " + std::to_string(body->input_names().size()) +
                           " inputs, the node " + std::to_string(info.num_inputs()));
  }
  if (body->output_names().size() != info.num_outputs()) {
    return InvalidArgument("'body' has " + std::to_string(body->output_names().size()) +
                           " outputs, the node " + std::to_string(info.num_outputs()));
  }
  return std::unique_ptr<OpKernel>(
      new SequenceMapKernel(std::move(body), DeclaredOutputTypes(info, "body")));
}

Status SequenceMapKernel::Compute(KernelContext& ctx) const {
  const Value* first = ctx.input(0);
  if (first == nullptr || !first->is_sequence()) {
    return InvalidArgument("input_sequence must be a sequence, got " +
                           (first == nullptr ? std::string("nothing") : first->TypeString()));
  }
  const size_t length = first->sequence().size();
  for (size_t k = 1; k < ctx.num_inputs(); ++k) {
    const Value* v = ctx.input(k);
    if (v == nullptr || !(v->is_tensor() || v->is_sequence())) {
      return InvalidArgument("additional_inputs " + std::to_string(k - 1) +
                             " must be a tensor or a sequence");
    }
    if (v->is_sequence() && v->sequence().size() != length) {
      return InvalidArgument("additional_inputs " + std::to_string(k - 1) + " is a sequence of " +
                             std::to_string(v->sequence().size()) +
                             " tensors, input_sequence has " + std::to_string(length));
    }
  }
  const size_t num_outputs = ctx.num_outputs();
  std::vector<std::vector<Tensor>> collected(num_outputs);
  const Scope& outer = OuterScopeOf(ctx);
  std::vector<Value> body_inputs(ctx.num_inputs());
  for (size_t i = 0; i < length; ++i) {
    for (size_t k = 0; k < ctx.num_inputs(); ++k) {
      const Value* v = ctx.input(k);
      body_inputs[k] = v->is_sequence() ? Value::FromTensor(v->sequence()[i]) : *v;
    }
    auto outs = body_->Run(body_inputs, outer);
    if (!outs.ok()) return outs.status().WithContext("position " + std::to_string(i));
    for (size_t j = 0; j < num_outputs; ++j) {
      if (!(*outs)[j].is_tensor()) {
        return InvalidArgument("body output " + std::to_string(j) + " must be a tensor, got " +
                               (*outs)[j].TypeString());
      }
      collected[j].push_back(std::move((*outs)[j].mutable_tensor()));
    }
  }
  for (size_t j = 0; j < num_outputs; ++j) {
    DataType elem = j < output_types_.size() ? output_types_[j].elem_type : DataType::kUndefined;
    if (!collected[j].empty()) elem = collected[j].front().dtype();
    if (elem == DataType::kUndefined) {
      return InvalidArgument("the map is empty and body output " + std::to_string(j) +
                             " declares no element type for out_sequence " + std::to_string(j));
    }
    ctx.set_output(j, Value::FromSequence(elem, std::move(collected[j])));
  }
  return OkStatus();
}

}  // namespace onnxgate::ref
