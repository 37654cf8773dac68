// Einsum (opset 12): Einstein summation over any number of operands, with implicit or explicit
// output, repeated labels within an operand (diagonals), labels summed away, and "..." for
// broadcast batch dims.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// An equation split into labels: letters stand for themselves and '.' for an ellipsis.
struct EinsumEquation {
  std::vector<std::vector<char>> inputs;
  // The explicit right-hand side, or in implicit form the labels appearing exactly once in the
  // inputs in ASCII order (so upper case before lower case, as numpy orders them) with the
  // ellipsis first when any input has one.
  std::vector<char> output;
};

// Parses "ij,jk->ik", "ii", "...ij,...jk" and the like; spaces are ignored. InvalidArgument for
// characters other than letters, ',', "->" and "...", for two ellipses in one term, and for an
// output label that is repeated or absent from the inputs.
StatusOr<EinsumEquation> ParseEinsumEquation(const std::string& equation);

// Evaluates the equation. Every letter must have one size wherever it appears; ellipsis dims
// are right-aligned and broadcast across operands as in numpy. Ellipsis dims absent from an
// explicit output are summed. Floats accumulate in double (float16 through float); integers wrap
// in two's complement. The operands share one element type.
StatusOr<Tensor> Einsum(const EinsumEquation& equation, const std::vector<const Tensor*>& operands);

class EinsumKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit EinsumKernel(EinsumEquation equation) : equation_(std::move(equation)) {}
  EinsumEquation equation_;
};

}  // namespace onnxgate::ref
