// PlanMatMul: numpy.matmul's shape rules laid out as one product per batch.
#include "runtime/provider/common/matmul_plan.h"

#include <string>

#include "runtime/provider/common/nn_util.h"

namespace onnxgate {

StatusOr<MatMulPlan> PlanMatMul(const Shape& a, const Shape& b) {
  if (a.rank() == 0 || b.rank() == 0) {
    return InvalidArgument("MatMul: operands must have rank >= 1, got A " + a.ToString() +
                           " and B " + b.ToString());
  }
  // 1-D operands become a 1 x K row (A) or a K x 1 column (B).
  std::vector<int64_t> ad = a.dims(), bd = b.dims();
  if (a.rank() == 1) ad.insert(ad.begin(), 1);
  if (b.rank() == 1) bd.push_back(1);
  MatMulPlan plan;
  plan.m = ad[ad.size() - 2];
  plan.k = ad[ad.size() - 1];
  plan.n = bd[bd.size() - 1];
  if (bd[bd.size() - 2] != plan.k) {
    return InvalidArgument("MatMul: inner dims differ: A " + a.ToString() +
                           " has K = " + std::to_string(plan.k) + ", B " + b.ToString() +
                           " has K = " + std::to_string(bd[bd.size() - 2]));
  }
  Shape a_batch(std::vector<int64_t>(ad.begin(), ad.end() - 2));
  Shape b_batch(std::vector<int64_t>(bd.begin(), bd.end() - 2));
  auto batch = BroadcastShapes(a_batch, b_batch);
  if (!batch.ok())
    return batch.status().WithContext("MatMul: batch dims of A " + a.ToString() + " and B " +
                                      b.ToString());
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> a_index,
                            UnidirectionalBroadcastIndex(a_batch, *batch));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> b_index,
                            UnidirectionalBroadcastIndex(b_batch, *batch));
  for (size_t i = 0; i < a_index.size(); ++i) {
    plan.a_offsets.push_back(a_index[i] * plan.m * plan.k);
    plan.b_offsets.push_back(b_index[i] * plan.k * plan.n);
  }
  std::vector<int64_t> out = batch->dims();
  if (a.rank() > 1) out.push_back(plan.m);
  if (b.rank() > 1) out.push_back(plan.n);
  plan.output = Shape(std::move(out));
  ONNXGATE_RETURN_IF_ERROR(plan.output.Validate());
  return plan;
}

}  // namespace onnxgate
