// Tile: the output walked once, each element read from the input modulo its dims.
#include "runtime/ep/ref/kernels/tensor/tile.h"

#include "runtime/provider/common/broadcast.h"
#include "runtime/provider/common/strided_copy.h"

namespace onnxgate::ref {

StatusOr<Tensor> Tile(const Tensor& x, const std::vector<int64_t>& repeats) {
  const Shape& s = x.shape();
  if (repeats.size() != s.rank()) {
    return InvalidArgument("repeats " + ListToString(repeats) + " has " +
                           std::to_string(repeats.size()) + " entries for an input of rank " +
                           std::to_string(s.rank()));
  }
  // Output dim d of size r*n is walked as the pair (r, n): the repeat index moves nothing
  // (stride 0) and the inner index walks the input dim.
  const std::vector<int64_t> in_strides = s.Strides();
  std::vector<int64_t> out_dims, walk_dims, strides;
  for (size_t d = 0; d < s.rank(); ++d) {
    if (repeats[d] < 0) {
      return InvalidArgument("repeats " + ListToString(repeats) + " has a negative entry");
    }
    ONNXGATE_ASSIGN_OR_RETURN(Shape pair, StatusOr<Shape>(Shape({repeats[d], s[d]})));
    ONNXGATE_RETURN_IF_ERROR(pair.Validate());
    out_dims.push_back(repeats[d] * s[d]);
    walk_dims.insert(walk_dims.end(), {repeats[d], s[d]});
    strides.insert(strides.end(), {0, in_strides[d]});
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(x.dtype(), Shape(out_dims)));
  CopyStrided(x, walk_dims, strides, 0, &y);
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> TileKernel::Create(const KernelInfo& info) {
  return std::unique_ptr<OpKernel>(new TileKernel(info.since_version()));
}

Status TileKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  std::vector<int64_t> repeats;
  if (version_ >= 6) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, 1, "repeats"));
    ONNXGATE_ASSIGN_OR_RETURN(repeats, ToInt64List(*t, "repeats"));
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* tiles_t, GetInput(ctx, 1, "tiles"));
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* axis_t, GetInput(ctx, 2, "axis"));
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> tiles, ToInt64s(*tiles_t, "tiles"));
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> axis, ToInt64s(*axis_t, "axis"));
    if (tiles.size() != 1 || axis.size() != 1) {
      return InvalidArgument("Tile-1's 'tiles' and 'axis' must each hold one value");
    }
    const int64_t rank = static_cast<int64_t>(x->shape().rank());
    ONNXGATE_ASSIGN_OR_RETURN(int64_t a, NormalizeAxisOf(axis[0], rank, /*allow_negative=*/false));
    repeats.assign(static_cast<size_t>(rank), 1);
    repeats[a] = tiles[0];
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, Tile(*x, repeats));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
