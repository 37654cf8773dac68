// GatherND and ScatterND: both resolve every index tuple to the flat offset of its slice.
#include "runtime/ep/ref/kernels/tensor/gather_scatter_nd.h"

#include <algorithm>

#include "runtime/provider/common/indexing_util.h"

namespace onnxgate::ref {

namespace {

// The tuples of `indices` resolved against data dims [batch_dims, batch_dims + k): the flat
// offset of each addressed slice (whose size is the product of data's remaining dims).
struct SliceOffsets {
  std::vector<int64_t> offsets;
  int64_t slice_size = 1;
};

StatusOr<SliceOffsets> ResolveTuples(const Shape& data, const Tensor& indices, int64_t batch_dims) {
  const Shape& is = indices.shape();
  if (is.rank() < 1) return InvalidArgument("indices must have rank >= 1, got a scalar");
  const int64_t r = static_cast<int64_t>(data.rank());
  const int64_t q = static_cast<int64_t>(is.rank());
  if (batch_dims < 0 || batch_dims >= std::min(r, q)) {
    return InvalidArgument("batch_dims " + std::to_string(batch_dims) +
                           " must be below the ranks of data " + data.ToString() + " and indices " +
                           is.ToString());
  }
  const int64_t k = is[q - 1];
  if (k < 1 || k > r - batch_dims) {
    return InvalidArgument("the last dim of indices " + is.ToString() + " must be in [1, " +
                           std::to_string(r - batch_dims) + "] for data " + data.ToString());
  }
  for (int64_t d = 0; d < batch_dims; ++d) {
    if (data[d] != is[d]) {
      return InvalidArgument("batch dim " + std::to_string(d) + " differs: data " +
                             data.ToString() + ", indices " + is.ToString());
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> idx, IndexValuesOf(indices, "indices"));
  const std::vector<int64_t> strides = data.Strides();
  SliceOffsets out;
  for (int64_t d = batch_dims + k; d < r; ++d) out.slice_size *= data[d];
  int64_t batches = 1;
  for (int64_t d = 0; d < batch_dims; ++d) batches *= data[d];
  const int64_t tuples = static_cast<int64_t>(idx.size()) / k;
  const int64_t per_batch = batches == 0 ? 0 : tuples / batches;
  const int64_t batch_stride = batch_dims == 0 ? 0 : strides[batch_dims - 1];
  out.offsets.resize(static_cast<size_t>(tuples));
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t offset = (t / per_batch) * batch_stride;
    for (int64_t j = 0; j < k; ++j) {
      const int64_t size = data[batch_dims + j];
      int64_t v = idx[static_cast<size_t>(t * k + j)];
      if (v < -size || v >= size) {
        return InvalidArgument("index " + std::to_string(v) + " (entry " + std::to_string(j) +
                               " of tuple " + std::to_string(t) + ") is out of range for dim " +
                               std::to_string(batch_dims + j) + " of size " + std::to_string(size));
      }
      if (v < 0) v += size;
      offset += v * strides[batch_dims + j];
    }
    out.offsets[static_cast<size_t>(t)] = offset;
  }
  return out;
}

// Every element of every addressed slice, in order: offsets[t] + e for e in [0, slice_size).
std::vector<int64_t> ExpandSlices(const SliceOffsets& s) {
  std::vector<int64_t> flat;
  flat.reserve(s.offsets.size() * static_cast<size_t>(s.slice_size));
  for (int64_t o : s.offsets) {
    for (int64_t e = 0; e < s.slice_size; ++e) flat.push_back(o + e);
  }
  return flat;
}

}  // namespace

StatusOr<Tensor> GatherND(const Tensor& data, const Tensor& indices, int64_t batch_dims) {
  ONNXGATE_ASSIGN_OR_RETURN(SliceOffsets s, ResolveTuples(data.shape(), indices, batch_dims));
  const Shape& is = indices.shape();
  std::vector<int64_t> dims(is.dims().begin(), is.dims().end() - 1);
  const int64_t k = is[is.rank() - 1];
  dims.insert(dims.end(), data.shape().dims().begin() + batch_dims + k, data.shape().dims().end());
  Shape out_shape(std::move(dims));
  ONNXGATE_RETURN_IF_ERROR(
      out_shape.Validate(kMaxOutputBytes / static_cast<int64_t>(sizeof(int64_t))));
  return TakeElements(data, out_shape, ExpandSlices(s));
}

StatusOr<Tensor> ScatterND(const Tensor& data, const Tensor& indices, const Tensor& updates,
                           ScatterReduction reduction) {
  if (updates.dtype() != data.dtype()) {
    return InvalidArgument(std::string("updates must have data's type ") +
                           DataTypeShortName(data.dtype()) + ", got " +
                           DataTypeShortName(updates.dtype()));
  }
  ONNXGATE_ASSIGN_OR_RETURN(SliceOffsets s, ResolveTuples(data.shape(), indices, 0));
  const Shape& is = indices.shape();
  std::vector<int64_t> expected(is.dims().begin(), is.dims().end() - 1);
  const int64_t k = is[is.rank() - 1];
  expected.insert(expected.end(), data.shape().dims().begin() + k, data.shape().dims().end());
  if (updates.shape() != Shape(expected)) {
    return InvalidArgument("updates must have shape indices.shape[:-1] + data.shape[k:] = " +
                           Shape(expected).ToString() + ", got " + updates.shape().ToString());
  }
  Tensor out = data.Clone();
  ONNXGATE_RETURN_IF_ERROR(ScatterInto(&out, ExpandSlices(s), updates, reduction));
  return out;
}

StatusOr<std::unique_ptr<OpKernel>> GatherNDKernel::Create(const KernelInfo& info) {
  if (info.since_version() < 12 && info.has_attribute("batch_dims")) {
    return InvalidArgument("'batch_dims' exists from GatherND-12");
  }
  ONNXGATE_ASSIGN_OR_RETURN(int64_t batch_dims, info.GetInt("batch_dims", 0));
  return std::unique_ptr<OpKernel>(new GatherNDKernel(batch_dims));
}

Status GatherNDKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* data, GetInput(ctx, 0, "data"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* indices, GetInput(ctx, 1, "indices"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, GatherND(*data, *indices, batch_dims_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> ScatterNDKernel::Create(const KernelInfo& info) {
  ScatterReduction reduction = ScatterReduction::kNone;
  if (info.has_attribute("reduction")) {
    if (info.since_version() < 16) {
      return InvalidArgument("'reduction' exists from ScatterND-16");
    }
    ONNXGATE_ASSIGN_OR_RETURN(std::string name, info.GetString("reduction"));
    auto parsed = ParseScatterReduction(name, info.since_version() >= 18);
    if (!parsed.ok()) return parsed.status();
    reduction = *parsed;
  }
  return std::unique_ptr<OpKernel>(new ScatterNDKernel(reduction));
}

Status ScatterNDKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* data, GetInput(ctx, 0, "data"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* indices, GetInput(ctx, 1, "indices"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* updates, GetInput(ctx, 2, "updates"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, ScatterND(*data, *indices, *updates, reduction_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
