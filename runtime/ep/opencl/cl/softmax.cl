// Softmax on float32 along one axis of a tensor seen as (outer, n, inner): one work item per
// (outer, inner) pair normalizes its n elements, which lie `inner` apart. The maximum is
// subtracted first, so large inputs do not overflow exp.
__kernel void softmax_f32(__global const float* x, __global float* y, const long n,
                          const long inner) {
  const long i = (long)get_global_id(0);
  const long o = (long)get_global_id(1);
  const long base = o * n * inner + i;
  float max_v = -INFINITY;
  for (long j = 0; j < n; ++j) max_v = fmax(max_v, x[base + j * inner]);
  float sum = 0.0f;
  for (long j = 0; j < n; ++j) sum += exp(x[base + j * inner] - max_v);
  for (long j = 0; j < n; ++j) y[base + j * inner] = exp(x[base + j * inner] - max_v) / sum;
}
