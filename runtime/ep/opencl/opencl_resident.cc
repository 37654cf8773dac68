// The opencl EP's resident tensors and the kernels' input and output helpers.
#include "runtime/ep/opencl/opencl_resident.h"

#include "runtime/ep/opencl/kernels/kernel_common.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::opencl_ep {

const std::string& OpenClResident::provider() const {
  static const std::string kName = "opencl";
  return kName;
}

StatusOr<Tensor> OpenClResident::ToHost() const {
  ONNXGATE_ASSIGN_OR_RETURN(Tensor host, NewTensor(DataType::kFloat, shape_));
  ONNXGATE_RETURN_IF_ERROR(cl_->ReadBuffer(*buffer_, host.mutable_raw_data(), host.ByteSize(),
                                           "a resident tensor of shape " + shape_.ToString()));
  return host;
}

StatusOr<const OpenClResident*> ResidentInput(const KernelContext& ctx, const OpenClContext& cl,
                                              size_t index, const char* name) {
  const Value* v = ctx.input(index);
  if (v == nullptr || !v->is_resident()) return nullptr;
  if (v->resident().domain() != &cl) {
    return Internal(std::string("input '") + name + "' is resident in another context's memory (" +
                    v->resident().provider() + "), which this kernel cannot read");
  }
  return static_cast<const OpenClResident*>(&v->resident());
}

StatusOr<ClInput> GetClInput(const KernelContext& ctx, const OpenClContext& cl, size_t index,
                             const char* name) {
  ONNXGATE_ASSIGN_OR_RETURN(const OpenClResident* resident, ResidentInput(ctx, cl, index, name));
  if (resident != nullptr) {
    return ClInput{resident->shape(), KernelArg::Device(resident->buffer())};
  }
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, FloatInput(ctx, index, name));
  // The tensor lives in the kernel's context, so it outlives the launch.
  return ClInput{t->shape(), KernelArg::Input(*t)};
}

StatusOr<ClOutput> ClOutput::Create(std::shared_ptr<const OpenClContext> cl, Shape shape) {
  ClOutput out;
  if (shape.NumElements() == 0) {
    ONNXGATE_ASSIGN_OR_RETURN(Tensor t, NewTensor(DataType::kFloat, shape));
    out.host_ = std::move(t);
  } else {
    // The same bound on an output's size as a host output has (NewTensor).
    Status valid = shape.Validate(kMaxOutputBytes / static_cast<int64_t>(sizeof(float)));
    if (!valid.ok()) return valid.WithContext("output shape");
    ONNXGATE_ASSIGN_OR_RETURN(
        out.buffer_, cl->NewBuffer(DataTypeStorageBytes(DataType::kFloat, shape.NumElements())));
  }
  out.cl_ = std::move(cl);
  out.shape_ = std::move(shape);
  return out;
}

KernelArg ClOutput::arg() {
  if (host_) return KernelArg::Output(*host_);
  return KernelArg::Device(buffer_);
}

Value ClOutput::Take() {
  if (host_) return Value::FromTensor(std::move(*host_));
  return Value::FromResident(std::make_shared<const OpenClResident>(
      std::move(cl_), std::move(buffer_), std::move(shape_)));
}

}  // namespace onnxgate::opencl_ep
