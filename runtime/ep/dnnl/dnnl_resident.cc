// The dnnl EP's resident tensors and the kernels' input and output helpers.
#include "runtime/ep/dnnl/dnnl_resident.h"

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::dnnl_ep {

const std::string& DnnlResident::provider() const {
  static const std::string kName = "dnnl";
  return kName;
}

StatusOr<Tensor> DnnlResident::ToHost() const {
  ONNXGATE_ASSIGN_OR_RETURN(Tensor host, NewUninitializedTensor(DataType::kFloat, shape_));
  ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "reorder", [&]() -> Status {
    dnnl::memory plain =
        WrapMemory(*dnnl_, PlainDesc(DimsOf(shape_.dims())), host.mutable_data<float>());
    dnnl::reorder::primitive_desc pd(dnnl_->engine(), memory_.get_desc(), dnnl_->engine(),
                                     plain.get_desc(), DefaultAttr());
    ExecuteWithScratchpad(*dnnl_, dnnl::reorder(pd), pd,
                          {{DNNL_ARG_FROM, memory_}, {DNNL_ARG_TO, plain}});
    return OkStatus();
  }));
  return host;
}

StatusOr<DnnlInput> GetDnnlInput(const KernelContext& ctx, const DnnlContext& dnnl, size_t index,
                                 const char* name) {
  const Value* v = ctx.input(index);
  if (v != nullptr && v->is_resident()) {
    if (v->resident().domain() != &dnnl) {
      return Internal(std::string("input '") + name + "' is resident on another provider");
    }
    const auto& resident = static_cast<const DnnlResident&>(v->resident());
    return DnnlInput{resident.shape(), resident.memory(), nullptr, resident.all_finite()};
  }
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, index, name));
  if (t->dtype() != DataType::kFloat) {
    return InvalidArgument(std::string("input '") + name + "' must be float32, got " +
                           DataTypeShortName(t->dtype()));
  }
  DnnlInput in{t->shape(), dnnl::memory(), t};
  ONNXGATE_RETURN_IF_ERROR(DnnlCall(dnnl, "memory", [&]() -> Status {
    in.memory = WrapMemory(dnnl, PlainDesc(DimsOf(t->shape().dims())), t->data<float>());
    return OkStatus();
  }));
  return in;
}

StatusOr<const Tensor*> GetHostInput(const KernelContext& ctx, size_t index, const char* name,
                                     Tensor* copy) {
  const Value* v = ctx.input(index);
  if (v != nullptr && v->is_resident()) {
    ONNXGATE_ASSIGN_OR_RETURN(*copy, v->resident().ToHost());
    return copy;
  }
  return GetInput(ctx, index, name);
}

StatusOr<DnnlOutput> DnnlOutput::Create(std::shared_ptr<const DnnlContext> dnnl,
                                        const dnnl::memory::desc& desc, Shape shape) {
  DnnlOutput out;
  const dnnl::memory::desc plain = PlainDesc(DimsOf(shape.dims()));
  if (desc == plain) {
    ONNXGATE_ASSIGN_OR_RETURN(Tensor t, NewUninitializedTensor(DataType::kFloat, shape));
    out.host_ = std::move(t);
  } else if (static_cast<int64_t>(desc.get_size()) > kMaxOutputBytes) {
    // The same bound as a host output's (NewTensor), on the layout's padded size.
    return InvalidArgument(
        "output " + shape.ToString() + " needs " + std::to_string(desc.get_size()) +
        " bytes in oneDNN's layout, more than " + std::to_string(kMaxOutputBytes));
  }
  ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl, "memory", [&]() -> Status {
    out.memory_ = out.host_ ? WrapMemory(*dnnl, plain, out.host_->mutable_data<float>())
                            : dnnl::memory(desc, dnnl->engine());
    return OkStatus();
  }));
  out.dnnl_ = std::move(dnnl);
  out.shape_ = std::move(shape);
  return out;
}

Value DnnlOutput::Take(bool all_finite) {
  if (host_) return Value::FromTensor(std::move(*host_));
  return Value::FromResident(std::make_shared<const DnnlResident>(
      std::move(dnnl_), std::move(memory_), std::move(shape_), all_finite));
}

std::vector<int64_t> LayoutKey(const dnnl::memory::desc& desc) {
  const dnnl_memory_desc_t& d = desc.data;
  std::vector<int64_t> key = {static_cast<int64_t>(d.format_kind), d.ndims};
  if (d.format_kind == dnnl_blocked) {
    const dnnl_blocking_desc_t& b = d.format_desc.blocking;
    key.insert(key.end(), b.strides, b.strides + d.ndims);
    key.push_back(b.inner_nblks);
    key.insert(key.end(), b.inner_blks, b.inner_blks + b.inner_nblks);
    key.insert(key.end(), b.inner_idxs, b.inner_idxs + b.inner_nblks);
  }
  return key;
}

bool IsTheConstant(const std::optional<Tensor>& constant, const Tensor& w) {
  return constant.has_value() && constant->data<float>() == w.data<float>() &&
         constant->shape() == w.shape();
}

std::vector<int64_t> WeightedPrimitiveKey(const Shape& x_shape, const dnnl::memory::desc& x_desc,
                                          const Shape& w_shape, bool has_bias, bool w_is_constant) {
  std::vector<int64_t> key = x_shape.dims();
  const std::vector<int64_t> layout = LayoutKey(x_desc);
  key.insert(key.end(), layout.begin(), layout.end());
  key.push_back(-1);
  key.insert(key.end(), w_shape.dims().begin(), w_shape.dims().end());
  key.push_back(has_bias ? 1 : 0);
  key.push_back(w_is_constant ? 1 : 0);
  return key;
}

void FillWithBias(Tensor* y, int64_t m, const Tensor* b) {
  if (b == nullptr || y->NumElements() == 0) return;
  float* out = y->mutable_data<float>();
  const float* bias = b->data<float>();
  const int64_t plane = y->NumElements() / (y->shape()[0] * m);
  for (int64_t i = 0; i < y->NumElements(); ++i) out[i] = bias[(i / plane) % m];
}

}  // namespace onnxgate::dnnl_ep
