// A kernel one provider borrows from another for the cases it runs on the host (an op its
// library lacks, a shape-only op): whoever assembles the runtime hands the lender over when it
// creates the borrower, and the borrower asks the lender's registry for the kernel by the node's
// domain, op type and version, so that no provider includes another provider's kernels.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "runtime/base/data_type.h"
#include "runtime/base/status.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"
#include "runtime/provider/execution_provider.h"

namespace onnxgate {

// The kernel `lender` registers for the node of `info` (its domain, op type and active version)
// with `bound_types` (schema type constraint -> element type; kUndefined entries are not
// checked), created for `info`. Unimplemented naming the lender and its reason when it has no
// such kernel; the kernel factory's own error otherwise.
StatusOr<std::unique_ptr<OpKernel>> CreateBorrowedKernel(
    const ExecutionProvider& lender, const KernelInfo& info,
    const std::map<std::string, DataType>& bound_types);

}  // namespace onnxgate
