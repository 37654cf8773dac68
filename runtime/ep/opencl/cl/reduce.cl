// ReduceSum and ReduceMean on float32: one work item per output element sums the input
// elements it covers with Kahan's compensated summation (float has no room for a long sum's
// rounding; not every device has double); an infinity or NaN among them gives the sum IEEE
// gives it.
//
// `meta` holds, in longs: the kept dims (kept_rank of them, Y's elements in row-major order),
// their strides in X, the reduced dims (red_rank of them) and their strides in X. `divide`
// divides the sum by the number of reduced elements (ReduceMean: 0/0 is NaN for an empty set).
__kernel void reduce_sum_f32(__global const float* x, __global float* y,
                             __global const long* meta, const int kept_rank, const int red_rank,
                             const long red_count, const int divide) {
  const long i = (long)get_global_id(0);
  __global const long* kept_dims = meta;
  __global const long* kept_strides = meta + kept_rank;
  __global const long* red_dims = meta + 2 * kept_rank;
  __global const long* red_strides = meta + 2 * kept_rank + red_rank;
  long base = 0;
  long rest = i;
  for (int d = kept_rank - 1; d >= 0; --d) {
    base += (rest % kept_dims[d]) * kept_strides[d];
    rest /= kept_dims[d];
  }
  float sum = 0.0f;
  float carry = 0.0f;
  for (long r = 0; r < red_count; ++r) {
    long offset = base;
    long left = r;
    for (int d = red_rank - 1; d >= 0; --d) {
      offset += (left % red_dims[d]) * red_strides[d];
      left /= red_dims[d];
    }
    const float term = x[offset] - carry;
    const float next = sum + term;
    // Once the sum is infinite (or NaN) there is no rounding left to carry: inf - inf would
    // turn the carry, and every later sum, into NaN where IEEE addition keeps the infinity.
    carry = isfinite(next) ? (next - sum) - term : 0.0f;
    sum = next;
  }
  y[i] = divide ? sum / (float)red_count : sum;
}
