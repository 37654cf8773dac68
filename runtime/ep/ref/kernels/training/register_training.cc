// The ref EP's registration table for the ai.onnx.preview.training optimizers (version 1 of
// each schema in ONNX 1.12: T1 the learning rate, T2 the update count, T3 the tensors).
#include "runtime/ep/ref/kernels/common/type_lists.h"
#include "runtime/ep/ref/kernels/training/training_optimizers.h"
#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

namespace {

using namespace ref::types;  // NOLINT: type-list shorthands

constexpr const char* kTrainingDomain = "ai.onnx.preview.training";

Status Def(KernelRegistry& r, const char* op, KernelFactory factory) {
  const List floats = {kF32, kF64};
  return r.Register(KernelDef{kTrainingDomain,
                              op,
                              1,
                              1,
                              {{"T1", floats}, {"T2", {kI64}}, {"T3", floats}},
                              std::move(factory)});
}

}  // namespace

Status RegisterTrainingKernels(KernelRegistry& registry) {
  ONNXGATE_RETURN_IF_ERROR(Def(registry, "Adagrad", FactoryOf<ref::AdagradKernel>()));
  ONNXGATE_RETURN_IF_ERROR(Def(registry, "Adam", FactoryOf<ref::AdamKernel>()));
  return Def(registry, "Momentum", FactoryOf<ref::MomentumKernel>());
}

}  // namespace onnxgate
