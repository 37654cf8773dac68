// TensorScatter.
#include "runtime/ep/ref/kernels/tensor/tensor_scatter.h"

#include <string>

#include "runtime/provider/common/strided_copy.h"

namespace onnxgate::ref {

StatusOr<Tensor> TensorScatter(const Tensor& past_cache, const Tensor& update,
                               const std::optional<std::vector<int64_t>>& write_indices,
                               int64_t axis, bool circular) {
  const Shape& cache = past_cache.shape();
  const Shape& upd = update.shape();
  if (update.dtype() != past_cache.dtype()) {
    return InvalidArgument(std::string("'update' has type ") + DataTypeShortName(update.dtype()) +
                           " but 'past_cache' has " + DataTypeShortName(past_cache.dtype()));
  }
  const size_t rank = cache.rank();
  if (upd.rank() != rank) {
    return InvalidArgument("'update' " + upd.ToString() + " and 'past_cache' " + cache.ToString() +
                           " differ in rank");
  }
  for (size_t d = 0; d < rank; ++d) {
    const bool ok = static_cast<int64_t>(d) == axis ? upd[d] <= cache[d] : upd[d] == cache[d];
    if (!ok) {
      return InvalidArgument("'update' " + upd.ToString() + " does not fit 'past_cache' " +
                             cache.ToString() + " at dim " + std::to_string(d) +
                             (static_cast<int64_t>(d) == axis
                                  ? " (the sequence axis: the update is longer than the cache)"
                                  : ""));
    }
  }
  const int64_t batch = cache[0];
  if (write_indices && static_cast<int64_t>(write_indices->size()) != batch) {
    return InvalidArgument("'write_indices' has " + std::to_string(write_indices->size()) +
                           " entries for a batch of " + std::to_string(batch));
  }
  const int64_t max_len = cache[axis];
  const int64_t len = upd[axis];
  int64_t outer = 1;  // prefixes: the dims before the axis
  for (int64_t d = 0; d < axis; ++d) outer *= cache[d];
  int64_t inner = 1;  // elements of one sequence position
  for (size_t d = static_cast<size_t>(axis) + 1; d < rank; ++d) inner *= cache[d];
  const int64_t per_batch = batch == 0 ? 0 : outer / batch;
  for (int64_t b = 0; b < batch && write_indices; ++b) {
    const int64_t w = (*write_indices)[b];
    if (w < 0) {
      return InvalidArgument("write index " + std::to_string(w) + " of batch entry " +
                             std::to_string(b) + " is negative");
    }
    if (!circular && w + len > max_len) {
      return InvalidArgument("write index " + std::to_string(w) + " of batch entry " +
                             std::to_string(b) + " plus the update length " + std::to_string(len) +
                             " runs past max_sequence_length " + std::to_string(max_len) +
                             " (mode 'linear')");
    }
  }
  Tensor present = past_cache.Clone();
  for (int64_t p = 0; p < outer; ++p) {
    const int64_t w = write_indices ? (*write_indices)[p / per_batch] : 0;
    for (int64_t s = 0; s < len; ++s) {
      const int64_t at = circular ? (w + s) % max_len : w + s;
      CopyElements(update, (p * len + s) * inner, &present, (p * max_len + at) * inner, inner);
    }
  }
  return present;
}

StatusOr<std::unique_ptr<OpKernel>> TensorScatterKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", -2));
  ONNXGATE_ASSIGN_OR_RETURN(std::string mode, info.GetString("mode", std::string("linear")));
  if (mode != "linear" && mode != "circular") {
    return InvalidArgument("attribute 'mode' must be linear or circular, got '" + mode + "'");
  }
  return std::unique_ptr<OpKernel>(new TensorScatterKernel(axis, mode == "circular"));
}

Status TensorScatterKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* past, GetInput(ctx, 0, "past_cache"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* update, GetInput(ctx, 1, "update"));
  const int64_t rank = static_cast<int64_t>(past->shape().rank());
  if (rank < 2) {
    return InvalidArgument("'past_cache' " + past->shape().ToString() +
                           " needs a batch dim and a sequence dim (rank >= 2)");
  }
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxisOf(axis_, rank, /*allow_negative=*/true));
  if (axis == 0) return InvalidArgument("attribute 'axis' may not be 0, the batch dim");
  std::optional<std::vector<int64_t>> write_indices;
  if (ctx.has_input(2)) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* w, GetInput(ctx, 2, "write_indices"));
    if (w->dtype() != DataType::kInt64) {
      return InvalidArgument(std::string("'write_indices' must be int64, got ") +
                             DataTypeShortName(w->dtype()));
    }
    ONNXGATE_ASSIGN_OR_RETURN(write_indices, ToInt64List(*w, "write_indices"));
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y,
                            TensorScatter(*past, *update, write_indices, axis, circular_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
