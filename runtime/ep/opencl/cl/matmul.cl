// MatMul (batched, numpy.matmul) and Gemm on float32: one work item per output element, a
// plain dot product accumulated in float.

// Y[batch] = A[a_offsets[batch]] x B[b_offsets[batch]], each (m x k) times (k x n), row-major.
// Work item (col, row, batch).
__kernel void matmul_f32(__global const float* a, __global const float* b, __global float* y,
                         __global const long* a_offsets, __global const long* b_offsets,
                         const long m, const long k, const long n) {
  const long col = (long)get_global_id(0);
  const long row = (long)get_global_id(1);
  const long batch = (long)get_global_id(2);
  __global const float* ar = a + a_offsets[batch] + row * k;
  __global const float* bc = b + b_offsets[batch] + col;
  float acc = 0.0f;
  for (long j = 0; j < k; ++j) acc += ar[j] * bc[j * n];
  y[(batch * m + row) * n + col] = acc;
}

// Y = alpha * op(A) x op(B) + beta * C, op a transpose when trans_a / trans_b is set; C is
// read at row * c_row_stride + col * c_col_stride (strides 0 along broadcast dims) when has_c.
// Work item (col, row).
__kernel void gemm_f32(__global const float* a, __global const float* b, __global const float* c,
                       __global float* y, const long m, const long k, const long n,
                       const int trans_a, const int trans_b, const float alpha, const float beta,
                       const int has_c, const long c_row_stride, const long c_col_stride) {
  const long col = (long)get_global_id(0);
  const long row = (long)get_global_id(1);
  // A is m x k (k x m when transposed), B is k x n (n x k when transposed).
  const long a_step = trans_a ? m : 1;
  const long b_step = trans_b ? 1 : n;
  __global const float* ar = a + (trans_a ? row : row * k);
  __global const float* bc = b + (trans_b ? col * k : col);
  float acc = 0.0f;
  for (long j = 0; j < k; ++j) acc += ar[j * a_step] * bc[j * b_step];
  float v = alpha * acc;
  if (has_c) v += beta * c[row * c_row_stride + col * c_col_stride];
  y[row * n + col] = v;
}
