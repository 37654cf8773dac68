// Models for the tests of the users'-model commands that must survive the code they run: a
// Relu-only model the test providers take whole (test-crash dies in it, test-hang never
// returns), and a model whose Loop never ends on ref. Test-only.
#pragma once

namespace onnxgate {

// Relu over float[batch, 4]: test-crash and test-hang run every node of it.
inline constexpr char kBatchReluModel[] = R"(<ir_version: 8, opset_import: ["" : 17]>
batch_relu (float[batch, 4] X) => (float[batch, 4] Y) {
  Y = Relu(X)
})";

// A Loop with no trip count whose condition stays true: ref runs it until it is killed.
inline constexpr char kEndlessLoopModel[] = R"(<ir_version: 8, opset_import: ["" : 17]>
endless (float[batch, 4] X) => (float[batch, 4] Y) {
  keep_going = Constant <value = bool {1}> ()
  Y = Loop ("", keep_going, X) <body = step (int64 i, bool c, float[batch, 4] v) => (bool c_out, float[batch, 4] v_out) {
    c_out = Identity(c)
    v_out = Identity(v)
  }>
})";

}  // namespace onnxgate
