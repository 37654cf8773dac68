// StringSplit.
#include "runtime/ep/ref/kernels/text/string_split.h"

#include <algorithm>

namespace onnxgate::ref {

namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

}  // namespace

std::vector<std::string> SplitString(const std::string& s, const std::string& delimiter,
                                     std::optional<int64_t> maxsplit) {
  std::vector<std::string> out;
  int64_t splits_left = maxsplit.value_or(-1);  // negative: no limit
  if (!delimiter.empty()) {
    size_t start = 0;
    while (splits_left != 0) {
      const size_t at = s.find(delimiter, start);
      if (at == std::string::npos) break;
      out.push_back(s.substr(start, at - start));
      start = at + delimiter.size();
      if (splits_left > 0) --splits_left;
    }
    out.push_back(s.substr(start));
    return out;
  }
  size_t i = 0;
  const size_t n = s.size();
  while (true) {
    while (i < n && IsSpace(s[i])) ++i;
    if (i == n) break;
    if (splits_left == 0) {
      // No split left: the rest, trailing whitespace included, is the last substring.
      out.push_back(s.substr(i));
      break;
    }
    size_t end = i;
    while (end < n && !IsSpace(s[end])) ++end;
    out.push_back(s.substr(i, end - i));
    i = end;
    if (splits_left > 0 && i < n) --splits_left;
  }
  return out;
}

StatusOr<std::unique_ptr<OpKernel>> StringSplitKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string delimiter, info.GetString("delimiter", ""));
  std::optional<int64_t> maxsplit;
  if (info.has_attribute("maxsplit")) {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t m, info.GetInt("maxsplit"));
    // A negative count sets no limit, as Python's str.split reads it.
    if (m >= 0) maxsplit = m;
  }
  return std::unique_ptr<OpKernel>(new StringSplitKernel(std::move(delimiter), maxsplit));
}

Status StringSplitKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  if (x->dtype() != DataType::kString) {
    return InvalidArgument(std::string("X must be strings, got ") + DataTypeShortName(x->dtype()));
  }
  const int64_t n = x->NumElements();
  std::vector<std::vector<std::string>> parts(static_cast<size_t>(n));
  int64_t widest = 0;
  for (int64_t i = 0; i < n; ++i) {
    parts[static_cast<size_t>(i)] = SplitString(x->data<std::string>()[i], delimiter_, maxsplit_);
    widest = std::max<int64_t>(widest, static_cast<int64_t>(parts[static_cast<size_t>(i)].size()));
  }
  std::vector<int64_t> dims = x->shape().dims();
  dims.push_back(widest);
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(DataType::kString, Shape(dims)));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor z, NewTensor(DataType::kInt64, x->shape()));
  std::string* ys = y.mutable_data<std::string>();
  int64_t* zs = z.mutable_data<int64_t>();
  for (int64_t i = 0; i < n; ++i) {
    const std::vector<std::string>& p = parts[static_cast<size_t>(i)];
    zs[i] = static_cast<int64_t>(p.size());
    for (size_t j = 0; j < p.size(); ++j) ys[i * widest + static_cast<int64_t>(j)] = p[j];
  }
  ctx.set_output(0, std::move(y));
  ctx.set_output(1, std::move(z));
  return OkStatus();
}

}  // namespace onnxgate::ref
