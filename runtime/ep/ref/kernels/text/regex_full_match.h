// RegexFullMatch (opset 20): Y[i] is true when the whole of X[i] matches 'pattern', in RE2
// syntax, compiled once with RE2's default options (UTF-8 text, case-sensitive, longest-match
// off). RE2 matches in time linear in the input without recursion, so any input length is safe.
#pragma once

#include <re2/re2.h>

#include <memory>
#include <string>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class RegexFullMatchKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit RegexFullMatchKernel(std::unique_ptr<re2::RE2> regex) : regex_(std::move(regex)) {}
  std::unique_ptr<re2::RE2> regex_;
};

}  // namespace onnxgate::ref
