// Models for the bench's tests, in ONNX text syntax. Test-only.
//   kTokenEncoderModel: an exported-style transformer block over int64 token ids with symbolic
//     `batch` and `seq` dimensions: an embedding Gather from a 16-row table (the metadata gives
//     the ids' range, [0, 16)), self-attention (MatMul, Softmax, MatMul), a residual Add and
//     LayerNormalization.
//   kBatchOneReshapeModel: a symbolic `batch` that only batch 1 fits: the Reshape to [1, 8]
//     fails at any other size, when the model first runs.
#pragma once

namespace onnxgate {

inline constexpr char kTokenEncoderModel[] =
    R"(<ir_version: 8, opset_import: ["" : 17],
 metadata_props: ["onnxgate.input_range.input_ids" : "0 16"]>
encoder (int64[batch, seq] input_ids) => (float[batch, seq, 4] hidden) {
  table = Constant <value = float[16, 4] {
    -0.8, -0.5, -0.2, 0.1, 0.4, 0.7, -0.7, -0.4, -0.1, 0.2, 0.5, 0.8, -0.6, -0.3, 0.0, 0.3,
    0.6, -0.8, -0.5, -0.2, 0.1, 0.4, 0.7, -0.7, -0.4, -0.1, 0.2, 0.5, 0.8, -0.6, -0.3, 0.0,
    0.3, 0.6, -0.8, -0.5, -0.2, 0.1, 0.4, 0.7, -0.7, -0.4, -0.1, 0.2, 0.5, 0.8, -0.6, -0.3,
    0.0, 0.3, 0.6, -0.8, -0.5, -0.2, 0.1, 0.4, 0.7, -0.7, -0.4, -0.1, 0.2, 0.5, 0.8, -0.6}> ()
  scale = Constant <value = float[4] {1.0, 1.0, 1.0, 1.0}> ()
  bias = Constant <value = float[4] {0.0, 0.0, 0.0, 0.0}> ()
  emb = Gather <axis = 0> (table, input_ids)
  keys = Transpose <perm = [0, 2, 1]> (emb)
  scores = MatMul (emb, keys)
  probs = Softmax <axis = -1> (scores)
  context = MatMul (probs, emb)
  residual = Add (context, emb)
  hidden = LayerNormalization <axis = -1> (residual, scale, bias)
})";

inline constexpr char kBatchOneReshapeModel[] = R"(<ir_version: 8, opset_import: ["" : 17]>
batch_one (float[batch, 8] X) => (float[1, 8] Y) {
  shape = Constant <value = int64[2] {1, 8}> ()
  Y = Reshape (X, shape)
})";

}  // namespace onnxgate
