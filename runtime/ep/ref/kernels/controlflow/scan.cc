// Scan.
#include "runtime/ep/ref/kernels/controlflow/scan.h"

#include <algorithm>
#include <string>

namespace onnxgate::ref {

namespace {

// A per-input or per-output attribute list: `count` values, `fallback` for each when absent.
StatusOr<std::vector<int64_t>> ListAttribute(const KernelInfo& info, const char* name, size_t count,
                                             int64_t fallback) {
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> values,
                            info.GetInts(name, std::vector<int64_t>(count, fallback)));
  if (values.size() != count) {
    return InvalidArgument(std::string("'") + name + "' has " + std::to_string(values.size()) +
                           " values, expected " + std::to_string(count));
  }
  return values;
}

Status CheckDirections(const char* name, const std::vector<int64_t>& directions) {
  for (int64_t d : directions) {
    if (d != 0 && d != 1) {
      return InvalidArgument(std::string("'") + name + "' " + ListToString(directions) +
                             " holds a value other than 0 (forward) and 1 (reverse)");
    }
  }
  return OkStatus();
}

// Stacks `items` along axis 0; without items, a [0, item_dims...] tensor.
StatusOr<Tensor> StackOrEmpty(const std::vector<Tensor>& items, DataType dtype,
                              const std::vector<int64_t>& item_dims) {
  if (!items.empty()) return Stack(items, 0);
  std::vector<int64_t> dims = item_dims;
  dims.insert(dims.begin(), 0);
  return NewTensor(dtype, Shape(dims));
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> ScanKernel::Create(const KernelInfo& info) {
  Config c;
  c.version = info.since_version();
  ONNXGATE_ASSIGN_OR_RETURN(auto body, info.CompileSubgraph("body"));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t m, info.GetInt("num_scan_inputs"));
  // Scan-8 has sequence_lens in front of the states and scan inputs.
  const size_t leading = c.version == 8 ? 1 : 0;
  if (m < 1 || static_cast<size_t>(m) + leading > info.num_inputs()) {
    return InvalidArgument("'num_scan_inputs' is " + std::to_string(m) + " but the node has " +
                           std::to_string(info.num_inputs()) + " inputs");
  }
  c.num_scan_inputs = static_cast<size_t>(m);
  c.num_states = info.num_inputs() - leading - c.num_scan_inputs;
  const size_t body_inputs = body->input_names().size();
  const size_t body_outputs = body->output_names().size();
  if (body_inputs != c.num_states + c.num_scan_inputs) {
    return InvalidArgument("'body' has " + std::to_string(body_inputs) + " inputs, expected " +
                           std::to_string(c.num_states) + " states + " +
                           std::to_string(c.num_scan_inputs) + " scan inputs");
  }
  if (body_outputs < c.num_states) {
    return InvalidArgument("'body' has " + std::to_string(body_outputs) +
                           " outputs, fewer than its " + std::to_string(c.num_states) + " states");
  }
  c.num_scan_outputs = body_outputs - c.num_states;
  if (info.num_outputs() > body_outputs) {
    return InvalidArgument("the node has " + std::to_string(info.num_outputs()) +
                           " outputs but the body only " + std::to_string(body_outputs));
  }
  const size_t mm = c.num_scan_inputs, k = c.num_scan_outputs;
  if (c.version == 8) {
    ONNXGATE_ASSIGN_OR_RETURN(c.input_directions, ListAttribute(info, "directions", mm, 0));
    ONNXGATE_RETURN_IF_ERROR(CheckDirections("directions", c.input_directions));
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(c.input_axes, ListAttribute(info, "scan_input_axes", mm, 0));
    ONNXGATE_ASSIGN_OR_RETURN(c.input_directions,
                              ListAttribute(info, "scan_input_directions", mm, 0));
    ONNXGATE_ASSIGN_OR_RETURN(c.output_axes, ListAttribute(info, "scan_output_axes", k, 0));
    ONNXGATE_ASSIGN_OR_RETURN(c.output_directions,
                              ListAttribute(info, "scan_output_directions", k, 0));
    ONNXGATE_RETURN_IF_ERROR(CheckDirections("scan_input_directions", c.input_directions));
    ONNXGATE_RETURN_IF_ERROR(CheckDirections("scan_output_directions", c.output_directions));
  }
  std::vector<DeclaredType> declared = DeclaredOutputTypes(info, "body");
  c.scan_types.resize(k);
  for (size_t j = 0; j < k && c.num_states + j < declared.size(); ++j) {
    c.scan_types[j] = declared[c.num_states + j];
  }
  return std::unique_ptr<OpKernel>(new ScanKernel(std::move(body), std::move(c)));
}

Status ScanKernel::Compute(KernelContext& ctx) const {
  return config_.version == 8 ? RunScan8(ctx) : RunScan9(ctx);
}

template <typename SliceFn>
Status ScanKernel::Iterate(const Scope& outer, int64_t length, std::vector<Value>* states,
                           SliceFn slice, std::vector<std::vector<Tensor>>* scans) const {
  const size_t n = config_.num_states, mm = config_.num_scan_inputs, k = config_.num_scan_outputs;
  std::vector<Value> inputs(n + mm);
  for (size_t j = 0; j < n; ++j) inputs[j] = std::move((*states)[j]);
  for (int64_t t = 0; t < length; ++t) {
    for (size_t m = 0; m < mm; ++m) {
      const int64_t at = config_.input_directions[m] == 1 ? length - 1 - t : t;
      inputs[n + m] = Value::FromTensor(slice(m, at));
    }
    auto outs = body_->Run(inputs, outer);
    if (!outs.ok()) return outs.status().WithContext("iteration " + std::to_string(t));
    if (outs->size() != n + k) {
      return Internal("the body returned " + std::to_string(outs->size()) + " values for " +
                      std::to_string(n + k) + " outputs");
    }
    for (size_t j = 0; j < n + k; ++j) {
      if (!(*outs)[j].is_tensor()) {
        return InvalidArgument("body output " + std::to_string(j) + " must be a tensor, got " +
                               (*outs)[j].TypeString());
      }
    }
    for (size_t j = 0; j < n; ++j) inputs[j] = std::move((*outs)[j]);
    for (size_t j = 0; j < k; ++j)
      (*scans)[j].push_back(std::move((*outs)[n + j].mutable_tensor()));
  }
  for (size_t j = 0; j < n; ++j) (*states)[j] = std::move(inputs[j]);
  return OkStatus();
}

Status ScanKernel::RunScan9(KernelContext& ctx) const {
  const size_t n = config_.num_states, mm = config_.num_scan_inputs, k = config_.num_scan_outputs;
  const bool allow_negative = config_.version >= 11;
  std::vector<Value> states(n);
  for (size_t j = 0; j < n; ++j) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* s, GetInput(ctx, j, "initial_state_and_scan_inputs"));
    states[j] = Value::FromTensor(*s);
  }
  std::vector<std::vector<Tensor>> slices(mm);
  int64_t length = -1;
  for (size_t m = 0; m < mm; ++m) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x,
                              GetInput(ctx, n + m, "initial_state_and_scan_inputs"));
    const int64_t rank = static_cast<int64_t>(x->shape().rank());
    if (rank == 0) return InvalidArgument("scan input " + std::to_string(m) + " is a scalar");
    ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxisOf(config_.input_axes[m], rank,
                                                            allow_negative, "scan_input_axes"));
    const int64_t len = x->shape()[axis];
    if (length >= 0 && len != length) {
      return InvalidArgument("scan input " + std::to_string(m) + " of shape " +
                             x->shape().ToString() + " has " + std::to_string(len) +
                             " steps along axis " + std::to_string(axis) + ", scan input 0 has " +
                             std::to_string(length));
    }
    length = len;
    ONNXGATE_ASSIGN_OR_RETURN(slices[m], Unstack(*x, axis));
  }
  std::vector<std::vector<Tensor>> scans(k);
  ONNXGATE_RETURN_IF_ERROR(Iterate(
      OuterScopeOf(ctx), length, &states, [&](size_t m, int64_t t) { return slices[m][t]; },
      &scans));
  for (size_t j = 0; j < n && j < ctx.num_outputs(); ++j) ctx.set_output(j, std::move(states[j]));
  for (size_t j = 0; j < k && n + j < ctx.num_outputs(); ++j) {
    std::vector<Tensor>& items = scans[j];
    if (config_.output_directions[j] == 1) std::reverse(items.begin(), items.end());
    const std::string what = "scan output " + std::to_string(j);
    const DeclaredType& declared = config_.scan_types[j];
    // The stacked output has one more dim than each item.
    int64_t item_rank = 0;
    if (!items.empty()) {
      item_rank = static_cast<int64_t>(items[0].shape().rank());
    } else if (declared.dims) {
      item_rank = static_cast<int64_t>(declared.dims->size());
    }
    auto axis =
        NormalizeAxisOf(config_.output_axes[j], item_rank + 1, allow_negative, "scan_output_axes");
    if (!axis.ok()) return axis.status().WithContext(what);
    auto stacked =
        items.empty() ? EmptyStack(declared, declared.dims ? *axis : 0, what) : Stack(items, *axis);
    if (!stacked.ok()) return stacked.status().WithContext(what);
    ctx.set_output(n + j, std::move(stacked).value());
  }
  return OkStatus();
}

Status ScanKernel::RunScan8(KernelContext& ctx) const {
  const size_t n = config_.num_states, mm = config_.num_scan_inputs, k = config_.num_scan_outputs;
  // Every state and scan input has the batch as dim 0; scan inputs have the sequence as dim 1.
  std::vector<std::vector<Tensor>> state_rows(n);                 // [state][batch]
  std::vector<std::vector<std::vector<Tensor>>> input_steps(mm);  // [input][batch][step]
  int64_t batch = -1, max_len = -1;
  auto check_batch = [&](const Tensor& t, const std::string& what) -> Status {
    if (t.shape().rank() == 0) return InvalidArgument(what + " is a scalar but needs a batch dim");
    if (batch >= 0 && t.shape()[0] != batch) {
      return InvalidArgument(what + " of shape " + t.shape().ToString() + " has batch " +
                             std::to_string(t.shape()[0]) + ", expected " + std::to_string(batch));
    }
    batch = t.shape()[0];
    return OkStatus();
  };
  for (size_t j = 0; j < n; ++j) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* s,
                              GetInput(ctx, 1 + j, "initial_state_and_scan_inputs"));
    ONNXGATE_RETURN_IF_ERROR(check_batch(*s, "state " + std::to_string(j)));
    ONNXGATE_ASSIGN_OR_RETURN(state_rows[j], Unstack(*s, 0));
  }
  for (size_t m = 0; m < mm; ++m) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x,
                              GetInput(ctx, 1 + n + m, "initial_state_and_scan_inputs"));
    const std::string what = "scan input " + std::to_string(m);
    ONNXGATE_RETURN_IF_ERROR(check_batch(*x, what));
    if (x->shape().rank() < 2) {
      return InvalidArgument(what + " of shape " + x->shape().ToString() +
                             " needs batch and sequence dims");
    }
    if (max_len >= 0 && x->shape()[1] != max_len) {
      return InvalidArgument(what + " of shape " + x->shape().ToString() + " has " +
                             std::to_string(x->shape()[1]) + " steps, scan input 0 has " +
                             std::to_string(max_len));
    }
    max_len = x->shape()[1];
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<Tensor> rows, Unstack(*x, 0));
    for (const Tensor& row : rows) {
      ONNXGATE_ASSIGN_OR_RETURN(std::vector<Tensor> steps, Unstack(row, 0));
      input_steps[m].push_back(std::move(steps));
    }
  }
  std::vector<int64_t> lengths(static_cast<size_t>(batch), max_len);
  if (ctx.has_input(0)) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* sl, GetInput(ctx, 0, "sequence_lens"));
    if (sl->dtype() != DataType::kInt64 || sl->shape() != Shape({batch})) {
      return InvalidArgument("'sequence_lens' must be int64 of shape [" + std::to_string(batch) +
                             "], got " + DataTypeShortName(sl->dtype()) + sl->shape().ToString());
    }
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t len = sl->data<int64_t>()[b];
      if (len < 0 || len > max_len) {
        return InvalidArgument("'sequence_lens' value " + std::to_string(len) + " for batch " +
                               std::to_string(b) + " is outside [0, " + std::to_string(max_len) +
                               "]");
      }
      lengths[b] = len;
    }
  }
  // Results per batch entry: final states and the (unpadded) scan outputs.
  std::vector<std::vector<Tensor>> final_rows(n);
  std::vector<std::vector<std::vector<Tensor>>> scan_rows(k);  // [output][batch][step]
  const Scope& outer = OuterScopeOf(ctx);
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<Value> states(n);
    for (size_t j = 0; j < n; ++j) states[j] = Value::FromTensor(state_rows[j][b]);
    std::vector<std::vector<Tensor>> scans(k);
    Status st = Iterate(
        outer, lengths[b], &states, [&](size_t m, int64_t t) { return input_steps[m][b][t]; },
        &scans);
    if (!st.ok()) return st.WithContext("batch " + std::to_string(b));
    for (size_t j = 0; j < n; ++j) final_rows[j].push_back(states[j].tensor());
    for (size_t j = 0; j < k; ++j) scan_rows[j].push_back(std::move(scans[j]));
  }
  for (size_t j = 0; j < n && j < ctx.num_outputs(); ++j) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* s,
                              GetInput(ctx, 1 + j, "initial_state_and_scan_inputs"));
    std::vector<int64_t> item_dims(s->shape().dims().begin() + 1, s->shape().dims().end());
    ONNXGATE_ASSIGN_OR_RETURN(Tensor out, StackOrEmpty(final_rows[j], s->dtype(), item_dims));
    ctx.set_output(j, std::move(out));
  }
  for (size_t j = 0; j < k && n + j < ctx.num_outputs(); ++j) {
    const std::string what = "scan output " + std::to_string(j);
    // The per-step shape: from any step that ran, else from the body's declared type.
    const Tensor* sample = nullptr;
    for (const auto& row : scan_rows[j]) {
      if (!row.empty()) {
        sample = &row[0];
        break;
      }
    }
    DataType dtype = config_.scan_types[j].elem_type;
    std::vector<int64_t> step_dims;
    if (sample != nullptr) {
      dtype = sample->dtype();
      step_dims = sample->shape().dims();
    } else {
      if (dtype == DataType::kUndefined || !config_.scan_types[j].dims) {
        return InvalidArgument(what +
                               " has no step to take its type from and the body does not "
                               "declare its element type and rank");
      }
      for (int64_t d : *config_.scan_types[j].dims) step_dims.push_back(std::max<int64_t>(d, 0));
    }
    // Entries shorter than the longest sequence are padded with zeros.
    ONNXGATE_ASSIGN_OR_RETURN(Tensor pad, NewTensor(dtype, Shape(step_dims)));
    std::vector<Tensor> rows;
    for (auto& row : scan_rows[j]) {
      row.resize(static_cast<size_t>(max_len), pad);
      auto stacked = StackOrEmpty(row, dtype, step_dims);
      if (!stacked.ok()) return stacked.status().WithContext(what);
      rows.push_back(std::move(stacked).value());
    }
    std::vector<int64_t> row_dims = step_dims;
    row_dims.insert(row_dims.begin(), max_len);
    auto out = StackOrEmpty(rows, dtype, row_dims);
    if (!out.ok()) return out.status().WithContext(what);
    ctx.set_output(n + j, std::move(out).value());
  }
  return OkStatus();
}

}  // namespace onnxgate::ref
