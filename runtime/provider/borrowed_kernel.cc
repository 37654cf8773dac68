// CreateBorrowedKernel: a registry lookup in the lending provider, then its factory.
#include "runtime/provider/borrowed_kernel.h"

#include <onnx/onnx_pb.h>

#include "runtime/onnx/op_spec.h"

namespace onnxgate {

StatusOr<std::unique_ptr<OpKernel>> CreateBorrowedKernel(
    const ExecutionProvider& lender, const KernelInfo& info,
    const std::map<std::string, DataType>& bound_types) {
  std::map<std::string, DataType> known;
  for (const auto& [constraint, type] : bound_types) {
    if (type != DataType::kUndefined) known.emplace(constraint, type);
  }
  StatusOr<const KernelDef*> def = lender.registry().Find(
      NormalizeDomain(info.node().domain()), info.op_type(), info.since_version(), known);
  if (!def.ok()) {
    return Unimplemented("provider '" + lender.name() +
                         "' lends no kernel: " + def.status().message());
  }
  return (*def)->factory(info);
}

}  // namespace onnxgate
