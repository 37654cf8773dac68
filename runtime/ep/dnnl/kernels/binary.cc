// Add, Sub, Mul and Div on oneDNN's binary primitive.
#include "runtime/ep/dnnl/kernels/binary.h"

#include "runtime/provider/common/broadcast.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::dnnl_ep {

namespace {

// `dims` with leading 1s up to `rank`.
std::vector<int64_t> Aligned(const std::vector<int64_t>& dims, size_t rank) {
  std::vector<int64_t> out(rank - dims.size(), 1);
  out.insert(out.end(), dims.begin(), dims.end());
  return out;
}

}  // namespace

StatusOr<std::shared_ptr<const BinaryEntry>> BinaryKernel::MakeEntry(const dnnl::memory::desc& a,
                                                                     const dnnl::memory::desc& b,
                                                                     const dnnl::memory::desc& y,
                                                                     bool swapped) const {
  std::shared_ptr<BinaryEntry> entry;
  ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "binary", [&]() -> Status {
    dnnl::binary::desc desc(algorithm_, swapped ? b : a, swapped ? a : b, y);
    dnnl::binary::primitive_desc pd(desc, DefaultAttr(), dnnl_->engine());
    entry = std::make_shared<BinaryEntry>(BinaryEntry{pd, dnnl::binary(pd), a, b, y, swapped});
    return OkStatus();
  }));
  return std::shared_ptr<const BinaryEntry>(std::move(entry));
}

StatusOr<std::unique_ptr<OpKernel>> BinaryKernel::Create(const KernelInfo& info,
                                                         dnnl::algorithm algorithm,
                                                         std::shared_ptr<const DnnlContext> dnnl) {
  return std::unique_ptr<OpKernel>(new BinaryKernel(std::move(dnnl), algorithm));
}

bool BinaryKernel::commutative() const {
  return algorithm_ == dnnl::algorithm::binary_add || algorithm_ == dnnl::algorithm::binary_mul;
}

Status BinaryKernel::ComputeInLayout(KernelContext& ctx, const DnnlInput& a,
                                     const DnnlInput& b) const {
  const dnnl::memory::desc a_md = a.memory.get_desc();
  const dnnl::memory::desc b_md = b.memory.get_desc();
  const dnnl::memory::desc& y_md = a.host == nullptr ? a_md : b_md;
  PrimitiveCache<BinaryEntry>::Key key = a.shape.dims();
  for (const auto& md : {a_md, b_md}) {
    key.push_back(-2);  // separates the layouts
    const std::vector<int64_t> layout = LayoutKey(md);
    key.insert(key.end(), layout.begin(), layout.end());
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const BinaryEntry> entry, cache_.Get(key, [&] {
    return MakeEntry(a_md, b_md, y_md, /*swapped=*/false);
  }));
  ONNXGATE_ASSIGN_OR_RETURN(DnnlOutput out, DnnlOutput::Create(dnnl_, entry->y, a.shape));
  ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "binary", [&]() -> Status {
    ExecuteWithScratchpad(
        *dnnl_, entry->primitive, entry->pd,
        {{DNNL_ARG_SRC_0, a.memory}, {DNNL_ARG_SRC_1, b.memory}, {DNNL_ARG_DST, out.memory()}});
    return OkStatus();
  }));
  ctx.set_output(0, out.Take());
  return OkStatus();
}

Status BinaryKernel::Compute(KernelContext& ctx) const {
  const Value* a_value = ctx.input(0);
  const Value* b_value = ctx.input(1);
  if ((a_value != nullptr && a_value->is_resident()) ||
      (b_value != nullptr && b_value->is_resident())) {
    ONNXGATE_ASSIGN_OR_RETURN(DnnlInput a, GetDnnlInput(ctx, *dnnl_, 0, "A"));
    ONNXGATE_ASSIGN_OR_RETURN(DnnlInput b, GetDnnlInput(ctx, *dnnl_, 1, "B"));
    if (a.shape == b.shape && a.shape.NumElements() > 0) return ComputeInLayout(ctx, a, b);
  }
  Tensor a_copy, b_copy;
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* a, GetHostInput(ctx, 0, "A", &a_copy));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* b, GetHostInput(ctx, 1, "B", &b_copy));
  if (a->dtype() != DataType::kFloat || b->dtype() != DataType::kFloat) {
    return InvalidArgument(std::string("A and B must both be float, got ") +
                           DataTypeShortName(a->dtype()) + " and " + DataTypeShortName(b->dtype()));
  }
  ONNXGATE_ASSIGN_OR_RETURN(Shape out_shape, BroadcastShapeOf({a->shape(), b->shape()}));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewUninitializedTensor(DataType::kFloat, out_shape));
  if (y.NumElements() == 0) {
    ctx.set_output(0, std::move(y));
    return OkStatus();
  }
  PrimitiveCache<BinaryEntry>::Key key = a->shape().dims();
  key.push_back(-1);  // separates the two shapes
  key.insert(key.end(), b->shape().dims().begin(), b->shape().dims().end());
  auto make = [&]() -> StatusOr<std::shared_ptr<const BinaryEntry>> {
    const size_t rank = out_shape.rank();
    std::vector<std::vector<int64_t>> operands = {Aligned(a->shape().dims(), rank),
                                                  Aligned(b->shape().dims(), rank)};
    const std::vector<int64_t> out = MergeBroadcastAxes(out_shape.dims(), &operands);
    if (out.size() > DNNL_MAX_NDIMS) {
      return InvalidArgument("the broadcast of A " + a->shape().ToString() + " and B " +
                             b->shape().ToString() + " alternates between broadcast axes more " +
                             "often than oneDNN's " + std::to_string(DNNL_MAX_NDIMS) +
                             " dims can hold");
    }
    const bool swapped = commutative() && operands[0] != out && operands[1] == out;
    const dnnl::memory::desc a_md = PlainDesc(DimsOf(operands[0]));
    const dnnl::memory::desc b_md = PlainDesc(DimsOf(operands[1]));
    return MakeEntry(a_md, b_md, PlainDesc(DimsOf(out)), swapped);
  };
  ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const BinaryEntry> entry, cache_.Get(key, make));
  float* out = y.mutable_data<float>();
  ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "binary", [&]() -> Status {
    dnnl::memory a_mem = WrapMemory(*dnnl_, entry->a, a->data<float>());
    dnnl::memory b_mem = WrapMemory(*dnnl_, entry->b, b->data<float>());
    dnnl::memory y_mem = WrapMemory(*dnnl_, entry->y, out);
    ExecuteWithScratchpad(*dnnl_, entry->primitive, entry->pd,
                          {{DNNL_ARG_SRC_0, entry->swapped ? b_mem : a_mem},
                           {DNNL_ARG_SRC_1, entry->swapped ? a_mem : b_mem},
                           {DNNL_ARG_DST, y_mem}});
    return OkStatus();
  }));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::dnnl_ep
