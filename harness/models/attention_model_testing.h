// A self-attention model over a dynamic `seq` dimension, in ONNX text syntax, for the sweep
// tests: every position's result depends on every other position, so a row run alone gives
// another result and a sweep over `seq` needs a reference. Test-only.
#pragma once

namespace onnxgate {

inline constexpr char kSeqAttentionModel[] = R"(<ir_version: 8, opset_import: ["" : 17]>
attention (float[seq, 8] X) => (float[seq, 8] Y) {
  Xt = Transpose <perm = [1, 0]> (X)
  S = MatMul(X, Xt)
  P = Softmax <axis = 1> (S)
  A = MatMul(P, X)
  Y = Relu(A)
})";

}  // namespace onnxgate
