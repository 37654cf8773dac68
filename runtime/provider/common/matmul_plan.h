// numpy.matmul's shapes as every provider's MatMul checks them: batched matrix products with
// broadcast batch dims, and 1-D operands promoted to a matrix (A to a row, B to a column) whose
// added dim is then dropped.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/base/shape.h"
#include "runtime/base/status.h"

namespace onnxgate {

// How the products of one MatMul are laid out: Y[batch] = A[a_offsets[batch]] x
// B[b_offsets[batch]], each an (m x k) times (k x n) row-major matrix, offsets counted in elements.
struct MatMulPlan {
  int64_t m = 0, k = 0, n = 0;
  std::vector<int64_t> a_offsets;
  std::vector<int64_t> b_offsets;
  Shape output;
};

// InvalidArgument when a rank is 0, the inner dims differ, or the batch dims do not broadcast.
StatusOr<MatMulPlan> PlanMatMul(const Shape& a, const Shape& b);

}  // namespace onnxgate
