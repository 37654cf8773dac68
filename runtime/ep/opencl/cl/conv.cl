// Conv on float32: direct convolution, one work item per output element (n, m, output
// position), over any number of spatial dims, with groups, strides, dilations and begin pads
// resolved on the host. Products accumulate in float.

// geo holds six arrays of `rank` longs, one entry per spatial dim: the input dims, the kernel
// dims, the output dims, the strides, the dilations and the begin pads. X is [n, c, input...],
// W [m, cg, kernel...] with cg = c / group input channels and mg = m / group output channels
// per group, Y [n, m, output...]; in_plane, k_size and out_plane are the products of the input,
// kernel and output dims. B (m floats) is added when has_b. Work item: the flat index into Y.
__kernel void conv_f32(__global const float* x, __global const float* w, __global const float* b,
                       __global float* y, __global const long* geo, const int rank,
                       const long c, const long m, const long cg, const long mg,
                       const long in_plane, const long k_size, const long out_plane,
                       const int has_b) {
  const long idx = (long)get_global_id(0);
  const long pos = idx % out_plane;
  const long nm = idx / out_plane;
  const long oc = nm % m;
  const long n = nm / m;
  __global const long* in_dims = geo;
  __global const long* k_dims = geo + rank;
  __global const long* out_dims = geo + 2 * rank;
  __global const long* strides = geo + 3 * rank;
  __global const long* dilations = geo + 4 * rank;
  __global const long* pads = geo + 5 * rank;
  __global const float* xg = x + (n * c + (oc / mg) * cg) * in_plane;
  __global const float* wo = w + oc * cg * k_size;
  float acc = 0.0f;
  for (long kp = 0; kp < k_size; ++kp) {
    // The input offset this kernel position reads at this output position, last dim first;
    // none when it falls in the padding.
    long k_rest = kp;
    long o_rest = pos;
    long offset = 0;
    long in_stride = 1;
    int inside = 1;
    for (int d = rank - 1; d >= 0; --d) {
      const long kd = k_rest % k_dims[d];
      k_rest /= k_dims[d];
      const long od = o_rest % out_dims[d];
      o_rest /= out_dims[d];
      const long id = od * strides[d] - pads[d] + kd * dilations[d];
      if (id < 0 || id >= in_dims[d]) {
        inside = 0;
        break;
      }
      offset += id * in_stride;
      in_stride *= in_dims[d];
    }
    if (!inside) continue;
    for (long ci = 0; ci < cg; ++ci) acc += xg[ci * in_plane + offset] * wo[ci * k_size + kp];
  }
  if (has_b) acc += b[oc];
  y[idx] = acc;
}
