// StringSplit (opset 20): splits every string of X on 'delimiter' (or, when it is unset or
// empty, on runs of whitespace, as Python's str.split does), at most 'maxsplit' times. Y is X's
// shape plus one dim holding the substrings padded with empty strings; Z counts them.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// The substrings of `s`: split on `delimiter`, or on ASCII whitespace runs (leading whitespace
// dropped, and trailing whitespace too unless the split count ran out) when it is empty; at most
// `maxsplit` splits when it is set.
std::vector<std::string> SplitString(const std::string& s, const std::string& delimiter,
                                     std::optional<int64_t> maxsplit);

class StringSplitKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  StringSplitKernel(std::string delimiter, std::optional<int64_t> maxsplit)
      : delimiter_(std::move(delimiter)), maxsplit_(maxsplit) {}
  std::string delimiter_;
  std::optional<int64_t> maxsplit_;
};

}  // namespace onnxgate::ref
