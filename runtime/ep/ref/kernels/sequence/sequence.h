// Sequence ops: SequenceEmpty, SequenceConstruct, SequenceInsert, SequenceAt, SequenceErase,
// SequenceLength, SplitToSequence and ConcatFromSequence. Sequences are values holding tensors
// of one element type; the ops build new sequences that share the tensors' storage.
#pragma once

#include <memory>
#include <vector>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class SequenceEmptyKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit SequenceEmptyKernel(DataType dtype) : dtype_(dtype) {}
  DataType dtype_;
};

class SequenceConstructKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

class SequenceInsertKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

class SequenceAtKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

class SequenceEraseKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

class SequenceLengthKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

// SplitToSequence: without `split`, pieces of size 1 (dropping the axis when keepdims is 0);
// a scalar `split` gives pieces of that size (the last one may be shorter); a 1-D `split` gives
// pieces of the listed sizes.
class SplitToSequenceKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  SplitToSequenceKernel(int64_t axis, bool keepdims) : axis_(axis), keepdims_(keepdims) {}
  int64_t axis_;
  bool keepdims_;
};

class ConcatFromSequenceKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  ConcatFromSequenceKernel(int64_t axis, bool new_axis) : axis_(axis), new_axis_(new_axis) {}
  int64_t axis_;
  bool new_axis_;
};

}  // namespace onnxgate::ref
