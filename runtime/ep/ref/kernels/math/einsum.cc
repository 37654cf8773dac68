// Einsum.
#include "runtime/ep/ref/kernels/math/einsum.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <type_traits>

#include "runtime/provider/common/broadcast.h"
#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {

constexpr char kEllipsis = '.';

bool IsLabel(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

// One term ("ij", "...ij", "") into labels with '.' for the ellipsis.
StatusOr<std::vector<char>> ParseTerm(const std::string& term) {
  std::vector<char> labels;
  bool has_ellipsis = false;
  for (size_t i = 0; i < term.size(); ++i) {
    const char c = term[i];
    if (IsLabel(c)) {
      labels.push_back(c);
    } else if (c == '.' && term.compare(i, 3, "...") == 0) {
      if (has_ellipsis) return InvalidArgument("term '" + term + "' has two ellipses");
      has_ellipsis = true;
      labels.push_back(kEllipsis);
      i += 2;
    } else {
      return InvalidArgument("term '" + term + "' has the character '" + std::string(1, c) +
                             "', which is neither a letter nor part of \"...\"");
    }
  }
  return labels;
}

// A label's place in the evaluation: letters keep their character; ellipsis dim j (counted
// from the right-aligned start of the broadcast ellipsis) is kFirstEllipsisId + j.
constexpr int kFirstEllipsisId = 256;

}  // namespace

StatusOr<EinsumEquation> ParseEinsumEquation(const std::string& equation) {
  std::string eq;
  for (char c : equation) {
    if (c != ' ') eq += c;
  }
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  EinsumEquation parsed;
  size_t start = 0;
  while (true) {
    const size_t comma = lhs.find(',', start);
    auto term = ParseTerm(lhs.substr(start, comma == std::string::npos ? comma : comma - start));
    if (!term.ok()) return term.status().WithContext("equation '" + equation + "'");
    parsed.inputs.push_back(*std::move(term));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::map<char, int> counts;
  bool any_ellipsis = false;
  for (const auto& term : parsed.inputs) {
    for (char c : term) {
      if (c == kEllipsis) {
        any_ellipsis = true;
      } else {
        ++counts[c];
      }
    }
  }
  if (arrow == std::string::npos) {
    if (any_ellipsis) parsed.output.push_back(kEllipsis);
    for (const auto& [label, count] : counts) {  // std::map iterates in ASCII order
      if (count == 1) parsed.output.push_back(label);
    }
    return parsed;
  }
  auto out = ParseTerm(eq.substr(arrow + 2));
  if (!out.ok()) return out.status().WithContext("equation '" + equation + "'");
  parsed.output = *std::move(out);
  std::map<char, int> seen;
  for (char c : parsed.output) {
    if (c == kEllipsis) continue;
    if (counts.count(c) == 0) {
      return InvalidArgument("equation '" + equation + "': output label '" + std::string(1, c) +
                             "' does not appear in any input");
    }
    if (++seen[c] > 1) {
      return InvalidArgument("equation '" + equation + "': output label '" + std::string(1, c) +
                             "' is repeated");
    }
  }
  return parsed;
}

StatusOr<Tensor> Einsum(const EinsumEquation& equation,
                        const std::vector<const Tensor*>& operands) {
  if (operands.size() != equation.inputs.size()) {
    return InvalidArgument("the equation has " + std::to_string(equation.inputs.size()) +
                           " input terms but the node has " + std::to_string(operands.size()) +
                           " inputs");
  }
  const DataType dtype = operands[0]->dtype();
  // Each operand dim as a label id; the ellipsis rank is the largest any operand covers.
  std::vector<std::vector<int>> dim_labels(operands.size());
  std::vector<int64_t> ellipsis_dims;  // broadcast sizes, right-aligned
  std::map<int, int64_t> sizes;
  for (size_t k = 0; k < operands.size(); ++k) {
    const Tensor& t = *operands[k];
    if (t.dtype() != dtype) {
      return InvalidArgument("input " + std::to_string(k) + " has type " +
                             DataTypeShortName(t.dtype()) + ", input 0 has " +
                             DataTypeShortName(dtype));
    }
    const std::vector<char>& term = equation.inputs[k];
    const bool has_ellipsis = std::count(term.begin(), term.end(), kEllipsis) > 0;
    const int64_t letters = static_cast<int64_t>(term.size()) - (has_ellipsis ? 1 : 0);
    const int64_t rank = static_cast<int64_t>(t.shape().rank());
    if (has_ellipsis ? rank < letters : rank != letters) {
      return InvalidArgument("input " + std::to_string(k) + " has shape " + t.shape().ToString() +
                             " but its term has " + std::to_string(letters) + " labels" +
                             (has_ellipsis ? " and an ellipsis" : ""));
    }
    const int64_t covered = rank - letters;
    if (covered > static_cast<int64_t>(ellipsis_dims.size())) {
      ellipsis_dims.insert(ellipsis_dims.begin(), covered - ellipsis_dims.size(), 1);
    }
    int64_t d = 0;
    for (char c : term) {
      if (c != kEllipsis) {
        const int64_t size = t.shape()[d++];
        auto [it, inserted] = sizes.emplace(c, size);
        if (!inserted && it->second != size) {
          return InvalidArgument("label '" + std::string(1, c) + "' has size " +
                                 std::to_string(it->second) + " and, in input " +
                                 std::to_string(k) + ", size " + std::to_string(size));
        }
        dim_labels[k].push_back(c);
        continue;
      }
      for (int64_t j = 0; j < covered; ++j, ++d) {
        // Right-aligned: the last ellipsis dim of every operand is the last broadcast dim.
        const size_t slot = ellipsis_dims.size() - static_cast<size_t>(covered - j);
        int64_t& global = ellipsis_dims[slot];
        const int64_t size = t.shape()[d];
        if (size != global && size != 1 && global != 1) {
          return InvalidArgument("the ellipsis dims of input " + std::to_string(k) + " (shape " +
                                 t.shape().ToString() + ") do not broadcast with the others");
        }
        if (global == 1) global = size;
        dim_labels[k].push_back(kFirstEllipsisId + static_cast<int>(j));
      }
    }
  }
  // Ellipsis ids were numbered per operand from its own first ellipsis dim; shift them to the
  // right-aligned global numbering now that the ellipsis rank is known.
  const int ellipsis_rank = static_cast<int>(ellipsis_dims.size());
  for (size_t k = 0; k < operands.size(); ++k) {
    const int covered = static_cast<int>(std::count_if(
        dim_labels[k].begin(), dim_labels[k].end(), [](int id) { return id >= kFirstEllipsisId; }));
    for (int& id : dim_labels[k]) {
      if (id >= kFirstEllipsisId) id += ellipsis_rank - covered;
    }
  }
  for (int j = 0; j < ellipsis_rank; ++j) sizes[kFirstEllipsisId + j] = ellipsis_dims[j];

  std::vector<int> out_labels;
  for (char c : equation.output) {
    if (c != kEllipsis) {
      out_labels.push_back(c);
      continue;
    }
    for (int j = 0; j < ellipsis_rank; ++j) out_labels.push_back(kFirstEllipsisId + j);
  }
  std::vector<int> sum_labels;
  for (const auto& [id, size] : sizes) {
    if (std::find(out_labels.begin(), out_labels.end(), id) == out_labels.end()) {
      sum_labels.push_back(id);
    }
  }
  // Per operand, the stride of each label: the sum over the operand's dims carrying it (so a
  // repeated label walks the diagonal), 0 where the operand lacks it or broadcasts a 1.
  auto strides_of = [&](const std::vector<int>& labels) {
    std::vector<std::vector<int64_t>> all;
    for (size_t k = 0; k < operands.size(); ++k) {
      const Shape& shape = operands[k]->shape();
      const std::vector<int64_t> dim_strides = shape.Strides();
      std::vector<int64_t> s(labels.size(), 0);
      for (size_t l = 0; l < labels.size(); ++l) {
        for (size_t d = 0; d < dim_labels[k].size(); ++d) {
          if (dim_labels[k][d] == labels[l] && shape[d] != 1) s[l] += dim_strides[d];
        }
      }
      all.push_back(std::move(s));
    }
    return all;
  };
  std::vector<int64_t> out_dims, sum_dims;
  for (int id : out_labels) out_dims.push_back(sizes[id]);
  for (int id : sum_labels) sum_dims.push_back(sizes[id]);
  const std::vector<std::vector<int64_t>> out_strides = strides_of(out_labels);
  const std::vector<std::vector<int64_t>> sum_strides = strides_of(sum_labels);

  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(dtype, Shape(out_dims)));
  ONNXGATE_RETURN_IF_ERROR(VisitArithmeticTypes(dtype, [&](auto tag) {
    using T = decltype(tag);
    // Integers accumulate in uint64, whose modular arithmetic truncates to T's wrap-around.
    using Acc = std::conditional_t<kIsFloat<T>, double, uint64_t>;
    std::vector<const T*> in;
    for (const Tensor* t : operands) in.push_back(t->data<T>());
    T* out = y.mutable_data<T>();
    const std::vector<int64_t> zeros(operands.size(), 0);
    ForEachStrided(out_dims, out_strides, zeros, [&](int64_t i, const int64_t* base) {
      Acc acc = 0;
      ForEachStrided(sum_dims, sum_strides, std::vector<int64_t>(base, base + operands.size()),
                     [&](int64_t, const int64_t* off) {
                       Acc product = 1;
                       for (size_t k = 0; k < in.size(); ++k) {
                         product *= static_cast<Acc>(ToCompute(in[k][off[k]]));
                       }
                       acc += product;
                     });
      if constexpr (kIsFloat<T>) {
        out[i] = FromCompute<T>(static_cast<ComputeType<T>>(acc));
      } else {
        out[i] = static_cast<T>(acc);
      }
    });
    return OkStatus();
  }));
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> EinsumKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string text, info.GetString("equation"));
  auto equation = ParseEinsumEquation(text);
  if (!equation.ok()) return equation.status();
  return std::unique_ptr<OpKernel>(new EinsumKernel(*std::move(equation)));
}

Status EinsumKernel::Compute(KernelContext& ctx) const {
  std::vector<const Tensor*> operands;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, i, "Inputs"));
    operands.push_back(t);
  }
  if (operands.empty()) return InvalidArgument("Einsum needs at least one input");
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, Einsum(equation_, operands));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
