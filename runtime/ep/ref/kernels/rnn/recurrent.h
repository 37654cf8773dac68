// Shared parts of the recurrent ops RNN, GRU and LSTM: attribute parsing (direction,
// activations with their alpha/beta, clip, layout), reading the inputs into double in layout 0,
// the time loop over directions, batch entries and sequence_lens, and writing the outputs.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::ref {

// One activation function of a recurrent op with its parameters.
struct RnnActivation {
  enum class Kind {
    kRelu,
    kTanh,
    kSigmoid,
    kAffine,
    kLeakyRelu,
    kThresholdedRelu,
    kScaledTanh,
    kHardSigmoid,
    kElu,
    kSoftsign,
    kSoftplus,
  };
  Kind kind = Kind::kTanh;
  double alpha = 0;
  double beta = 0;
  double operator()(double x) const;
};

// Parses `activations` with `activation_alpha` / `activation_beta`. `defaults` is one
// direction's list; the attribute may list one direction's functions (used for both) or every
// direction's. The parameter lists are consumed in order by the functions that take them.
StatusOr<std::vector<RnnActivation>> ParseRnnActivations(const KernelInfo& info,
                                                         const std::vector<std::string>& defaults,
                                                         int num_directions);

struct RecurrentConfig {
  enum class Direction { kForward, kReverse, kBidirectional };
  Direction direction = Direction::kForward;
  int num_directions = 1;
  int64_t hidden_size = -1;    // -1: taken from R
  std::optional<double> clip;  // bound on the inputs of the activations
  int64_t layout = 0;          // 1: batch first (from opset 14)
  // activations_per_direction functions for each direction, direction 0 first.
  std::vector<RnnActivation> activations;
  size_t activations_per_direction = 0;
};

// Parses direction, hidden_size, clip, layout and the activations (`defaults` per direction).
StatusOr<RecurrentConfig> ParseRecurrentConfig(const KernelInfo& info,
                                               const std::vector<std::string>& defaults);

// The inputs in double, rearranged to layout 0; optional ones zero-filled when absent.
struct RecurrentInputs {
  DataType dtype = DataType::kFloat;
  int64_t seq_length = 0, batch = 0, input_size = 0, hidden = 0;
  int num_directions = 1;
  std::vector<double> x;          // [seq_length, batch, input_size]
  std::vector<double> w;          // [num_directions, gates * hidden, input_size]
  std::vector<double> r;          // [num_directions, gates * hidden, hidden]
  std::vector<double> b;          // [num_directions, 2 * gates * hidden]: Wb then Rb
  std::vector<int64_t> seq_lens;  // [batch]
  std::vector<double> initial_h;  // [num_directions, batch, hidden]
  std::vector<double> initial_c;  // [num_directions, batch, hidden] (LSTM)
  std::vector<double> p;          // [num_directions, 3 * hidden] (LSTM peepholes: i, o, f)
};

// Reads and validates X, W, R, B, sequence_lens, initial_h and, for LSTM (`lstm`),
// initial_c and P. `gates` is the number of gate blocks in W and R (1, 3 or 4).
StatusOr<RecurrentInputs> ReadRecurrentInputs(const KernelContext& ctx, const RecurrentConfig& cfg,
                                              int gates, bool lstm);

// One step for one batch entry of direction `dir`: reads x (input_size values) and the state
// h (and c for LSTM), and replaces h and c with the next state.
using RecurrentCell =
    std::function<void(int dir, const double* x, std::vector<double>* h, std::vector<double>* c)>;

// Runs the recurrence and sets outputs Y, Y_h and (when `lstm`) Y_c in the op's layout.
// Batch entries advance only through their sequence_lens steps (the reverse direction starts
// at each entry's last step); Y is zero beyond them and Y_h / Y_c hold the last state.
Status RunRecurrence(KernelContext& ctx, const RecurrentConfig& cfg, const RecurrentInputs& in,
                     bool lstm, const RecurrentCell& cell);

// out[i] += sum_j m[i * cols + j] * v[j] for i < rows, in double.
void AddMatVec(const double* m, int64_t rows, int64_t cols, const double* v, double* out);

}  // namespace onnxgate::ref
