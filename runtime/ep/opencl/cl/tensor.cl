// Data movement on float32: Transpose and Concat.

// Y = X with its dims permuted: one work item per element of Y. `meta` holds Y's dims, then
// for each dim of Y the stride in X of the dim it comes from (2 * rank longs).
__kernel void transpose_f32(__global const float* x, __global float* y,
                            __global const long* meta, const int rank) {
  const long i = (long)get_global_id(0);
  long rest = i;
  long offset = 0;
  for (int d = rank - 1; d >= 0; --d) {
    offset += (rest % meta[d]) * meta[rank + d];
    rest /= meta[d];
  }
  y[i] = x[offset];
}

// One input of Concat into its place in Y: X is (outer, block) and lands at column `at` of Y,
// seen as (outer, y_block). One work item per element of X.
__kernel void concat_copy_f32(__global const float* x, __global float* y, const long block,
                              const long y_block, const long at) {
  const long i = (long)get_global_id(0);
  const long o = i / block;
  y[o * y_block + at + i % block] = x[i];
}
