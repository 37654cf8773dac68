// Session creation (options, graph, compile) and Run (feed checks, then the main executor).
#include "runtime/session/session.h"

#include <optional>
#include <unordered_map>

#include "runtime/graph/graph.h"
#include "runtime/session/graph_executor.h"

namespace onnxgate {

namespace {

// A feed must match the declared kind, element type and fixed dims of its graph input.
Status CheckFeed(const std::string& name, const ValueType& want, const Value& got) {
  if (got.kind() == Value::Kind::kNone || (got.is_tensor() && !got.tensor().defined())) {
    return InvalidArgument("input '" + name + "' is fed an empty value");
  }
  auto mismatch = [&]() {
    return InvalidArgument("input '" + name + "': expected " + want.ToString() + ", got " +
                           got.TypeString());
  };
  if (!want.known()) return OkStatus();
  if (got.kind() != want.kind) return mismatch();
  // Empty sequences and optionals may not know their element type.
  if (want.elem_type != DataType::kUndefined && got.elem_type() != DataType::kUndefined &&
      got.elem_type() != want.elem_type) {
    return mismatch();
  }
  if (want.kind == Value::Kind::kOptional && got.has_value() &&
      want.inner_kind != Value::Kind::kNone && got.optional_inner_kind() != want.inner_kind) {
    return mismatch();
  }
  if (want.kind == Value::Kind::kTensor && want.has_shape) {
    const Shape& shape = got.tensor().shape();
    if (shape.rank() != want.dims.size()) return mismatch();
    for (size_t i = 0; i < want.dims.size(); ++i) {
      if (want.dims[i] >= 0 && want.dims[i] != shape[i]) return mismatch();
    }
  }
  return OkStatus();
}

// Empty sequences and empty optionals read from ONNX files carry no element type; they take the
// one the graph declares, so kernels see a typed value.
std::optional<Value> AdoptDeclaredType(const ValueType& want, const Value& got) {
  if (got.elem_type() != DataType::kUndefined || want.elem_type == DataType::kUndefined) {
    return std::nullopt;
  }
  if (got.is_sequence() && got.sequence().empty() && want.kind == Value::Kind::kSequence) {
    return Value::FromSequence(want.elem_type, {});
  }
  if (got.is_optional() && !got.has_value() && want.kind == Value::Kind::kOptional) {
    return Value::OptionalNone(want.inner_kind, want.elem_type);
  }
  return std::nullopt;
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "'" : ", '") + n + "'";
  return s.empty() ? "(none)" : s;
}

}  // namespace

Session::~Session() = default;

StatusOr<std::unique_ptr<const Session>> Session::Create(
    std::shared_ptr<const Model> model,
    std::vector<std::shared_ptr<const ExecutionProvider>> providers,
    const SessionOptions& options) {
  if (model == nullptr) return InvalidArgument("creating a session: no model");
  const std::string& name = model->display_name();
  if (providers.empty()) return InvalidArgument(name + ": no execution provider given");
  for (const auto& p : providers) {
    if (p == nullptr) return InvalidArgument(name + ": a null execution provider was given");
  }
  if (options.optimization_level < 0 || options.optimization_level > kMaxOptimizationLevel) {
    return InvalidArgument(name + ": graph optimization level " +
                           std::to_string(options.optimization_level) + " does not exist (0 to " +
                           std::to_string(kMaxOptimizationLevel) + ")");
  }

  std::unique_ptr<Session> session(new Session());
  session->model_ = std::move(model);
  session->providers_ = std::move(providers);
  CompileContext ctx;
  ctx.model = session->model_.get();
  ctx.providers = &session->providers_;
  ctx.fallback = options.fallback;
  ctx.placements = &session->placements_;

  auto graph = Graph::Build(session->model_->graph(), session->model_->dir());
  if (!graph.ok()) return graph.status().WithContext(name);
  auto executor = GraphExecutor::Compile(ctx, std::move(graph).value(), nullptr, "");
  if (!executor.ok()) return executor.status().WithContext(name);
  session->executor_ = std::move(executor).value();
  return std::unique_ptr<const Session>(std::move(session));
}

const std::vector<std::string>& Session::input_names() const {
  return executor_->graph().required_inputs();
}

const std::vector<std::string>& Session::output_names() const {
  return executor_->graph().outputs();
}

StatusOr<std::vector<Value>> Session::Run(const std::vector<NamedValue>& feeds,
                                          TransferStats* transfers) const {
  const Graph& g = executor_->graph();
  const std::string& name = model_->display_name();
  std::vector<const Value*> inputs(g.inputs().size(), nullptr);
  std::vector<Value> adopted(g.inputs().size());
  for (const NamedValue& feed : feeds) {
    size_t index = 0;
    while (index < g.inputs().size() && g.inputs()[index] != feed.name) ++index;
    if (index == g.inputs().size()) {
      return InvalidArgument(name + ": unknown input '" + feed.name + "'; the model's inputs are " +
                             JoinNames(g.inputs()));
    }
    if (inputs[index] != nullptr) {
      return InvalidArgument(name + ": input '" + feed.name + "' is fed more than once");
    }
    Status st = CheckFeed(feed.name, g.input_type(index), feed.value);
    if (!st.ok()) return st.WithContext(name);
    inputs[index] = &feed.value;
    if (std::optional<Value> typed = AdoptDeclaredType(g.input_type(index), feed.value)) {
      adopted[index] = std::move(*typed);
      inputs[index] = &adopted[index];
    }
  }
  for (size_t i = 0; i < g.inputs().size(); ++i) {
    if (inputs[i] == nullptr && g.initializers().count(g.inputs()[i]) == 0) {
      return InvalidArgument(name + ": missing input '" + g.inputs()[i] + "' (" +
                             g.input_type(i).ToString() + ")");
    }
  }
  auto outputs = executor_->Execute(inputs, nullptr, transfers);
  if (!outputs.ok()) return outputs.status().WithContext("running " + name);
  return outputs;
}

}  // namespace onnxgate
