// Elementwise activations on float32: one work item per element, y[i] = f(x[i]).
// Every function follows numpy's float32 definition as ONNX's reference computes it: a NaN input
// gives NaN (comparisons with NaN are false, so `x < 0 ? ... : x` passes it through).

#define ONNXGATE_UNARY(name, expr)                                                  \
  __kernel void name(__global const float* x, __global float* y, const float alpha) { \
    const size_t i = get_global_id(0);                                              \
    const float v = x[i];                                                           \
    y[i] = (expr);                                                                  \
  }

ONNXGATE_UNARY(relu_f32, v < 0.0f ? 0.0f : v)
ONNXGATE_UNARY(leaky_relu_f32, v < 0.0f ? alpha * v : v)
ONNXGATE_UNARY(sigmoid_f32, 1.0f / (1.0f + exp(-v)))
ONNXGATE_UNARY(tanh_f32, tanh(v))
ONNXGATE_UNARY(exp_f32, exp(v))
ONNXGATE_UNARY(log_f32, log(v))
ONNXGATE_UNARY(sqrt_f32, sqrt(v))
ONNXGATE_UNARY(abs_f32, fabs(v))
ONNXGATE_UNARY(neg_f32, -v)
