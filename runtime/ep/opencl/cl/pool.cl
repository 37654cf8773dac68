// MaxPool, AveragePool, GlobalMaxPool and GlobalAveragePool on float32: one work item per
// output element walks its window (the global ops are one window over the whole plane), over
// any number of spatial axes.
//
// `meta` holds, in longs, `rank` values each of: the input's spatial dims, the output's, the
// kernel's, the strides, the dilations, the begin pads and the end pads (resolved on the host
// with the ref EP's geometry, ceil_mode and auto_pad applied). Padding never takes part in a max
// or a sum. Max keeps the first NaN in window order, as the ref EP does; a window that covers
// only padding is refused on the host before the launch. Average divides by the in-bounds
// positions, or with `include_pad` by the positions inside the explicit pads (not the tail that
// ceil_mode adds), summing with Kahan's compensation (not every device has double); an
// infinity or NaN in the window gives the sum IEEE gives it.
__kernel void pool_f32(__global const float* x, __global float* y, __global const long* meta,
                       const int rank, const long positions, const long plane,
                       const long window, const int average, const int include_pad) {
  const long i = (long)get_global_id(0);
  __global const long* in = meta;
  __global const long* out = meta + rank;
  __global const long* kernel_dims = meta + 2 * rank;
  __global const long* strides = meta + 3 * rank;
  __global const long* dilations = meta + 4 * rank;
  __global const long* pad_begin = meta + 5 * rank;
  __global const long* pad_end = meta + 6 * rank;
  const long p = i % positions;
  __global const float* src = x + (i / positions) * plane;

  float acc = 0.0f;
  float carry = 0.0f;
  long count = 0;
  long padded = 0;
  for (long k = 0; k < window; ++k) {
    // Tap k of the window (row-major over the kernel) at output position p.
    long offset = 0;
    long stride_in = 1;
    int inside = 1;
    int inside_pads = 1;
    long rest_p = p;
    long rest_k = k;
    for (int d = rank - 1; d >= 0; --d) {
      const long o = rest_p % out[d];
      rest_p /= out[d];
      const long j = rest_k % kernel_dims[d];
      rest_k /= kernel_dims[d];
      const long coord = o * strides[d] - pad_begin[d] + j * dilations[d];
      if (coord < 0 || coord >= in[d]) inside = 0;
      if (coord < -pad_begin[d] || coord >= in[d] + pad_end[d]) inside_pads = 0;
      offset += coord * stride_in;
      stride_in *= in[d];
    }
    if (inside_pads) ++padded;
    if (!inside) continue;
    const float v = src[offset];
    if (average) {
      const float term = v - carry;
      const float next = acc + term;
      // Past an infinity the compensation would be inf - inf: the sum is then IEEE's alone.
      carry = isfinite(next) ? (next - acc) - term : 0.0f;
      acc = next;
    } else if (count == 0 || v > acc || (isnan(v) && !isnan(acc))) {
      acc = v;
    }
    ++count;
  }
  if (average) {
    y[i] = acc / (float)(include_pad ? padded : count);
  } else {
    y[i] = acc;
  }
}
