// Add, Sub, Mul and Div on float32 with numpy broadcasting.
//
// `*_same_f32`: A, B and Y have one shape; one work item per element.
// `*_bcast_f32`: one work item per element of Y. `meta` holds 3 * rank longs: Y's dims, then
// A's strides and B's strides as seen from Y (0 along a dim the operand broadcasts), so the
// work item turns its flat index into Y's coordinates and each operand's offset.

#define ONNXGATE_BINARY(name, op)                                                       \
  __kernel void name##_same_f32(__global const float* a, __global const float* b,         \
                                __global float* y) {                                      \
    const size_t i = get_global_id(0);                                                    \
    y[i] = a[i] op b[i];                                                                  \
  }                                                                                       \
  __kernel void name##_bcast_f32(__global const float* a, __global const float* b,        \
                                 __global float* y, __global const long* meta,            \
                                 const int rank) {                                        \
    const long i = (long)get_global_id(0);                                                \
    long rest = i;                                                                        \
    long a_off = 0;                                                                       \
    long b_off = 0;                                                                       \
    for (int d = rank - 1; d >= 0; --d) {                                                 \
      const long dim = meta[d];                                                           \
      const long index = rest % dim;                                                      \
      rest /= dim;                                                                        \
      a_off += index * meta[rank + d];                                                    \
      b_off += index * meta[2 * rank + d];                                                \
    }                                                                                     \
    y[i] = a[a_off] op b[b_off];                                                          \
  }

ONNXGATE_BINARY(add, +)
ONNXGATE_BINARY(sub, -)
ONNXGATE_BINARY(mul, *)
ONNXGATE_BINARY(div, /)
