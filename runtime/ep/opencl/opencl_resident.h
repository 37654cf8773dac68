// Tensors that stay in the device's memory between the opencl kernels, instead of being copied
// to the host after every launch and back before the next: the opencl EP's ResidentTensor, and
// the input and output helpers every opencl kernel uses to take and make them.
//
// Only float32 is ever resident (every opencl kernel claims float32 alone), and a tensor with
// no elements never is: OpenCL has no empty buffers, so it stays a host tensor.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "runtime/base/resident_tensor.h"
#include "runtime/ep/opencl/opencl_context.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::opencl_ep {

// A float32 tensor of `shape` in a device buffer of `cl`, dense and row-major as ONNX lays it
// out. Its buffer is never written once the tensor exists, so several tensors may share one
// (Reshape gives the same elements a new shape).
class OpenClResident : public ResidentTensor {
 public:
  OpenClResident(std::shared_ptr<const OpenClContext> cl,
                 std::shared_ptr<const DeviceBuffer> buffer, Shape shape)
      : cl_(std::move(cl)), buffer_(std::move(buffer)), shape_(std::move(shape)) {}

  // The context whose kernels read the buffer as it is.
  const void* domain() const override { return cl_.get(); }
  const std::string& provider() const override;
  DataType dtype() const override { return DataType::kFloat; }
  const Shape& shape() const override { return shape_; }
  // One read of the buffer (after the launches that wrote it).
  StatusOr<Tensor> ToHost() const override;

  const std::shared_ptr<const DeviceBuffer>& buffer() const { return buffer_; }

 private:
  std::shared_ptr<const OpenClContext> cl_;
  std::shared_ptr<const DeviceBuffer> buffer_;
  Shape shape_;
};

// Input `index` of an opencl kernel, called `name` in the op's schema, if it is a resident
// tensor of `cl`; nullptr when it is a host tensor (or omitted). Internal when it is resident
// elsewhere: the executor hands a kernel only its own domain's resident tensors.
StatusOr<const OpenClResident*> ResidentInput(const KernelContext& ctx, const OpenClContext& cl,
                                              size_t index, const char* name);

// Input `index` as a launch argument: a host float32 tensor copied in for the launch (as
// KernelArg::Input), or a resident tensor of `cl` passed as it is (KernelArg::Device). Host
// inputs of another type are Unimplemented, omitted ones InvalidArgument (FloatInput).
struct ClInput {
  Shape shape;
  KernelArg arg;
  int64_t NumElements() const { return shape.NumElements(); }
};
StatusOr<ClInput> GetClInput(const KernelContext& ctx, const OpenClContext& cl, size_t index,
                             const char* name);

// A float32 output of `shape`: a new device buffer the launches write (arg()), or, when the
// shape has no elements, an empty host tensor. Take() gives the value once the launches have
// written it.
class ClOutput {
 public:
  static StatusOr<ClOutput> Create(std::shared_ptr<const OpenClContext> cl, Shape shape);

  const Shape& shape() const { return shape_; }
  int64_t NumElements() const { return shape_.NumElements(); }
  // The argument that writes it: the device buffer in place (several launches may each write a
  // part), or a 0-byte host output for an empty tensor.
  KernelArg arg();
  Value Take();

 private:
  std::shared_ptr<const OpenClContext> cl_;
  Shape shape_;
  std::shared_ptr<const DeviceBuffer> buffer_;  // null for an empty tensor
  std::optional<Tensor> host_;                  // set for an empty tensor
};

}  // namespace onnxgate::opencl_ep
