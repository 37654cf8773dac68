// The optimizer's driver: copy the model's proto, run the passes of the level asked for, and
// load the rewritten proto with the same checks as any model.
#include "runtime/optimizer/optimizer.h"

#include <onnx/onnx_pb.h>
#include <spdlog/spdlog.h>

#include "runtime/ep/ref/ref_provider.h"
#include "runtime/optimizer/passes.h"

namespace onnxgate {

namespace {

// The ref provider that constant folding uses unless told otherwise: built on first use and
// shared by every optimization in the process (building a registry per load would cost more
// than most folds).
StatusOr<std::shared_ptr<const ExecutionProvider>> SharedRefProvider() {
  static const auto* provider =
      new StatusOr<std::shared_ptr<const ExecutionProvider>>(CreateRefProvider());
  return *provider;
}

}  // namespace

StatusOr<std::shared_ptr<const Model>> OptimizeModel(std::shared_ptr<const Model> model,
                                                     const OptimizerOptions& options,
                                                     OptimizationReport* report) {
  if (model == nullptr) return InvalidArgument("optimizing a model: no model given");
  const std::string& name = model->display_name();
  if (options.level < 1 || options.level > kMaxOptimizationLevel) {
    return InvalidArgument(name + ": the graph optimizer runs levels 1 to " +
                           std::to_string(kMaxOptimizationLevel) + ", not " +
                           std::to_string(options.level));
  }
  OptimizationReport local;
  if (report == nullptr) report = &local;
  PassContext ctx;
  ctx.original = model.get();
  ctx.options = &options;
  ctx.report = report;
  ctx.opset = model->OpsetFor("");
  ctx.fold_provider = options.fold_provider;
  if (ctx.fold_provider == nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(ctx.fold_provider, SharedRefProvider());
  }

  onnx::ModelProto proto = model->proto();  // the copy; the caller's model stays as it is
  onnx::GraphProto* graph = proto.mutable_graph();
  NameUnnamedNodes(graph);
  bool changed = RemoveDeadNodes(graph, report);
  changed |= FoldConstants(&proto, ctx);
  changed |= RemoveDeadNodes(graph, report);
  if (options.level >= 2 && ctx.opset > 0) {
    changed |= FuseConvBatchNorm(graph, ctx);
    changed |= FuseMatMulAdd(graph, ctx);
    changed |= FuseLayerNormalization(graph, ctx);
    changed |= FuseGelu(graph, ctx);
    changed |= RemoveDeadNodes(graph, report);  // the weights the fusions replaced
  }
  spdlog::debug(
      "{}: optimization level {}: {} node(s) folded, {} dead node(s) removed, {} "
      "fused node(s), {} fold(s) left alone",
      name, options.level, report->folded.size(), report->removed.size(), report->fused.size(),
      report->not_folded.size());
  if (!changed) return model;
  auto optimized = Model::FromProto(std::move(proto), model->dir(), name, options.model_options);
  if (!optimized.ok()) {
    return Internal("graph optimization level " + std::to_string(options.level) +
                    " produced a model that fails the loader's checks (a bug of the optimizer): " +
                    optimized.status().message());
  }
  return optimized;
}

}  // namespace onnxgate
