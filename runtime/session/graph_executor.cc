// GraphExecutor: compile (slots, kernels through the node planner, lifetimes) and execute (per-run
// value storage, so concurrent runs share nothing mutable).
#include "runtime/session/graph_executor.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <functional>
#include <optional>

#include "runtime/onnx/op_spec.h"
#include "runtime/proto/tensor_proto.h"

namespace onnxgate {

namespace {

// The value of a Constant node when its attributes make it known at load.
std::optional<Tensor> ConstantNodeValue(const onnx::NodeProto& node, const std::string& base_dir) {
  if (node.op_type() != "Constant" || NormalizeDomain(node.domain()) != "" ||
      node.attribute_size() != 1) {
    return std::nullopt;
  }
  const onnx::AttributeProto& a = node.attribute(0);
  auto vec = [](auto begin, auto end, auto tag) {
    using T = decltype(tag);
    std::vector<T> v(begin, end);
    return Tensor::FromVector<T>(Shape({static_cast<int64_t>(v.size())}), v);
  };
  if (a.name() == "value" && a.has_t()) {
    auto t = TensorFromProto(a.t(), base_dir);
    return t.ok() ? std::optional<Tensor>(std::move(t).value()) : std::nullopt;
  }
  if (a.name() == "value_float") return Tensor::Scalar<float>(a.f());
  if (a.name() == "value_floats") return vec(a.floats().begin(), a.floats().end(), float{});
  if (a.name() == "value_int") return Tensor::Scalar<int64_t>(a.i());
  if (a.name() == "value_ints") return vec(a.ints().begin(), a.ints().end(), int64_t{});
  if (a.name() == "value_string") return Tensor::Scalar<std::string>(a.s());
  if (a.name() == "value_strings") {
    return vec(a.strings().begin(), a.strings().end(), std::string{});
  }
  return std::nullopt;
}

// The name of the graph attribute of `node` that is `body`.
std::string AttributeNameOf(const onnx::NodeProto& node, const onnx::GraphProto& body) {
  for (const auto& a : node.attribute()) {
    if (a.has_g() && &a.g() == &body) return a.name();
    for (int i = 0; i < a.graphs_size(); ++i) {
      if (&a.graphs(i) == &body) return a.name() + "[" + std::to_string(i) + "]";
    }
  }
  return "subgraph";
}

}  // namespace

// Names visible to a kernel while its graph runs: this graph's live values, then the enclosing
// graphs' through `outer`.
class GraphExecutor::RunScope : public Scope {
 public:
  RunScope(const GraphExecutor& executor, const std::vector<const Value*>& values,
           const Scope* outer, TransferStats* transfers)
      : executor_(executor), values_(values), outer_(outer), transfers_(transfers) {}
  const Value* Lookup(const std::string& name) const override {
    auto it = executor_.slot_by_name_.find(name);
    if (it != executor_.slot_by_name_.end() && values_[it->second] != nullptr) {
      return values_[it->second];
    }
    return outer_ != nullptr ? outer_->Lookup(name) : nullptr;
  }
  TransferStats* transfers() const override { return transfers_; }

 private:
  const GraphExecutor& executor_;
  const std::vector<const Value*>& values_;
  const Scope* outer_;
  TransferStats* transfers_;
};

namespace {

// Whether a provider's claim of `nodes` (run at `steps`, ascending) can run where its last node
// ran: every value of its nodes read elsewhere is an output, read after the group has run; every
// output is a value of its nodes; every input is a value of the graph that exists by then.
// `read_at` lists the steps that read each value (graph outputs after the last step),
// `produced_at` the step that produces each node output; `has_slot` says whether the executor
// knows a name.
Status CheckClaim(const Graph& g, const SubgraphClaim& claim, const std::vector<int>& nodes,
                  const std::vector<size_t>& steps,
                  const std::unordered_map<std::string, std::vector<size_t>>& read_at,
                  const std::unordered_map<std::string, size_t>& produced_at,
                  const std::function<bool(const std::string&)>& has_slot) {
  auto has = [](const auto& list, const auto& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
  };
  std::vector<std::string> produced;
  for (int node : nodes) {
    for (const std::string& out : g.proto().node(node).output()) {
      if (out.empty()) continue;
      produced.push_back(out);
      const bool listed = has(claim.outputs, out);
      auto readers = read_at.find(out);
      if (readers == read_at.end()) continue;
      for (size_t reader : readers->second) {
        if (has(steps, reader)) continue;
        if (!listed || reader < steps.back()) {
          return Internal("value '" + out + "' is read outside the group" +
                          (listed ? " before the group has run" : " but is not an output"));
        }
      }
    }
  }
  for (const std::string& out : claim.outputs) {
    if (!has(produced, out)) return Internal("output '" + out + "' is not a value of its nodes");
  }
  for (const std::string& in : claim.inputs) {
    if (in.empty()) continue;
    auto at = produced_at.find(in);
    const bool later =
        at != produced_at.end() && !has(steps, at->second) && at->second > steps.back();
    if (!has_slot(in) || has(produced, in) || later) {
      return Internal("input '" + in + "' is not a value the group can read when it runs");
    }
  }
  return OkStatus();
}

// The host copy of a resident value, counted in `transfers`.
StatusOr<Value> HostCopy(const Value& resident, TransferStats* transfers) {
  ONNXGATE_ASSIGN_OR_RETURN(Tensor host, resident.resident().ToHost());
  if (transfers != nullptr) {
    ++transfers->count;
    transfers->bytes += static_cast<int64_t>(host.ByteSize());
  }
  return Value::FromTensor(std::move(host));
}

}  // namespace

GraphExecutor::~GraphExecutor() = default;

StatusOr<std::unique_ptr<GraphExecutor>> GraphExecutor::Compile(const CompileContext& ctx,
                                                                std::unique_ptr<const Graph> graph,
                                                                const GraphExecutor* parent,
                                                                const std::string& prefix) {
  std::unique_ptr<GraphExecutor> ex(new GraphExecutor(std::move(graph), parent));
  const Graph& g = *ex->graph_;
  for (size_t i = 0; i < g.inputs().size(); ++i) {
    Slot slot{g.inputs()[i], SlotKind::kInput, static_cast<int>(i), nullptr};
    auto init = g.initializers().find(slot.name);
    if (init != g.initializers().end()) {
      slot.constant =
          &ex->defaults_.emplace(slot.name, Value::FromTensor(init->second)).first->second;
    }
    ex->AddSlot(std::move(slot));
  }
  for (const auto& [name, tensor] : g.initializers()) {
    if (g.ConstantInitializer(name) == nullptr) continue;
    const Value* v = &ex->constants_.emplace(name, Value::FromTensor(tensor)).first->second;
    ex->AddSlot(Slot{name, SlotKind::kConstant, -1, v});
  }
  for (const std::string& name : g.outer_scope_names()) {
    ex->AddSlot(Slot{name, SlotKind::kOuter, -1, nullptr});
  }
  for (const auto& node : g.proto().node()) {
    for (const std::string& out : node.output()) {
      if (!out.empty()) ex->AddSlot(Slot{out, SlotKind::kNode, -1, nullptr});
    }
  }
  ex->CollectConstantNodes(ctx.model->dir());
  ONNXGATE_RETURN_IF_ERROR(ex->CompileSteps(ctx, prefix));
  ex->ComputeLifetimes();
  for (const std::string& out : g.outputs()) ex->output_slots_.push_back(ex->SlotFor(out));
  return ex;
}

int GraphExecutor::SlotFor(const std::string& name) const {
  auto it = slot_by_name_.find(name);
  ONNXGATE_CHECK(it != slot_by_name_.end());  // Graph::Build resolved every name
  return it->second;
}

int GraphExecutor::AddSlot(Slot slot) {
  int index = static_cast<int>(slots_.size());
  slot_by_name_.emplace(slot.name, index);
  slots_.push_back(std::move(slot));
  return index;
}

void GraphExecutor::CollectConstantNodes(const std::string& base_dir) {
  for (const auto& node : graph_->proto().node()) {
    if (node.output_size() != 1 || node.output(0).empty()) continue;
    std::optional<Tensor> value = ConstantNodeValue(node, base_dir);
    if (value) constants_.emplace(node.output(0), Value::FromTensor(std::move(*value)));
  }
}

const Tensor* GraphExecutor::ConstantFor(const std::string& name) const {
  auto it = constants_.find(name);
  if (it != constants_.end()) return &it->second.tensor();
  if (!graph_->DefinesLocally(name) && parent_ != nullptr) return parent_->ConstantFor(name);
  return nullptr;
}

Status GraphExecutor::CompileSteps(const CompileContext& ctx, const std::string& prefix) {
  const Graph& g = *graph_;
  std::vector<size_t> placement;
  for (int index : g.topological_order()) {
    const onnx::NodeProto& node = g.proto().node(index);
    const std::string display_name = prefix + NodeDisplayName(node, index);
    Step step;
    const std::string label = node.op_type() + " node '" + display_name + "'";
    std::vector<const Tensor*> constants;
    for (const std::string& in : node.input()) {
      step.inputs.push_back(in.empty() ? -1 : SlotFor(in));
      constants.push_back(in.empty() ? nullptr : ConstantFor(in));
    }
    for (const std::string& out : node.output()) {
      step.outputs.push_back(out.empty() ? -1 : SlotFor(out));
    }

    // Captures by value: a kernel may keep the compiler, though subgraphs are meant to be
    // compiled in its factory.
    CompileContext sub_ctx = ctx;
    const onnx::NodeProto* node_ptr = &node;
    KernelInfo::SubgraphCompiler compiler =
        [this, sub_ctx, node_ptr, display_name,
         label](const onnx::GraphProto& body) -> StatusOr<std::shared_ptr<const SubgraphExecutor>> {
      const std::string attr = AttributeNameOf(*node_ptr, body);
      auto sub_graph = Graph::Build(body, sub_ctx.model->dir(), graph_.get());
      if (!sub_graph.ok()) {
        return sub_graph.status().WithContext(label + " attribute '" + attr + "'");
      }
      auto sub =
          Compile(sub_ctx, std::move(sub_graph).value(), this, display_name + "/" + attr + "/");
      if (!sub.ok()) return sub.status();
      return std::shared_ptr<const SubgraphExecutor>(std::move(sub).value());
    };
    ONNXGATE_ASSIGN_OR_RETURN(
        PlannedNode planned,
        PlanNode(ctx, g, index, display_name, std::move(constants), std::move(compiler)));
    step.kernel = std::move(planned.kernel);
    step.label = std::move(planned.label);
    step.nodes = {index};
    step.provider = planned.provider;
    placement.push_back(planned.placement);
    steps_.push_back(std::move(step));
  }
  return ApplySubgraphClaims(ctx, placement);
}

Status GraphExecutor::ApplySubgraphClaims(const CompileContext& ctx,
                                          const std::vector<size_t>& placement) {
  const Graph& g = *graph_;
  // The steps that read each value (as a node input, once per read, or through a node's
  // subgraphs); a graph output counts as a read after the last step.
  std::unordered_map<std::string, std::vector<size_t>> read_at;
  for (size_t s = 0; s < steps_.size(); ++s) {
    const int node = steps_[s].nodes[0];
    for (const std::string& in : g.proto().node(node).input()) {
      if (!in.empty()) read_at[in].push_back(s);
    }
    for (const std::string& in : g.implicit_inputs(node)) read_at[in].push_back(s);
  }
  for (const std::string& out : g.outputs()) read_at[out].push_back(steps_.size());
  std::unordered_map<std::string, size_t> produced_at;
  for (size_t s = 0; s < steps_.size(); ++s) {
    for (const std::string& out : g.proto().node(steps_[s].nodes[0]).output()) {
      if (!out.empty()) produced_at[out] = s;
    }
  }

  std::unordered_map<int, size_t> step_of_node;
  for (size_t s = 0; s < steps_.size(); ++s) step_of_node[steps_[s].nodes[0]] = s;
  std::vector<bool> claimed(steps_.size(), false);
  // Per step: the claim whose step replaces it (at its last node), or nothing.
  std::vector<std::optional<Step>> fused(steps_.size());
  for (const auto& provider : *ctx.providers) {
    SubgraphOffer offer;
    offer.graph = &g;
    for (size_t s = 0; s < steps_.size(); ++s) {
      if (steps_[s].provider != provider.get()) continue;
      offer.nodes.push_back(steps_[s].nodes[0]);
      offer.since_versions.push_back((*ctx.placements)[placement[s]].since_version);
    }
    if (offer.nodes.size() < 2) continue;
    offer.readers = [&read_at](const std::string& name) {
      auto it = read_at.find(name);
      return it == read_at.end() ? 0 : static_cast<int>(it->second.size());
    };
    offer.constant = [this](const std::string& name) { return ConstantFor(name); };
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<SubgraphClaim> claims, provider->ClaimSubgraphs(offer));
    for (SubgraphClaim& claim : claims) {
      const std::string what = "provider '" + provider->name() + "' claims subgraph '" +
                               claim.name + "' of " + g.Label();
      std::vector<size_t> steps;
      for (int node : claim.nodes) {
        auto it = step_of_node.find(node);
        if (it == step_of_node.end() || steps_[it->second].provider != provider.get() ||
            claimed[it->second] || (!steps.empty() && it->second <= steps.back())) {
          return Internal(
              what + ": node " + std::to_string(node) +
              " is not one of its offered nodes in execution order, or is claimed twice");
        }
        steps.push_back(it->second);
      }
      if (steps.empty() || claim.kernel == nullptr)
        return Internal(what + ": no nodes or no kernel");
      std::vector<int> nodes;
      for (size_t s : steps) nodes.push_back(steps_[s].nodes[0]);
      ONNXGATE_RETURN_IF_ERROR(
          CheckClaim(g, claim, nodes, steps, read_at, produced_at, [this](const std::string& name) {
            return slot_by_name_.count(name) > 0;
          }).WithContext(what));
      Step step;
      step.label = "subgraph '" + claim.name + "' on " + provider->name();
      step.kernel = std::move(claim.kernel);
      step.provider = provider.get();
      for (const std::string& in : claim.inputs)
        step.inputs.push_back(in.empty() ? -1 : SlotFor(in));
      for (const std::string& out : claim.outputs) step.outputs.push_back(SlotFor(out));
      for (size_t s : steps) {
        claimed[s] = true;
        step.nodes.push_back(steps_[s].nodes[0]);
        (*ctx.placements)[placement[s]].subgraph = claim.name;
      }
      fused[steps.back()] = std::move(step);
    }
  }
  std::vector<Step> kept;
  for (size_t s = 0; s < steps_.size(); ++s) {
    if (fused[s]) {
      kept.push_back(std::move(*fused[s]));
    } else if (!claimed[s]) {
      kept.push_back(std::move(steps_[s]));
    }
  }
  steps_ = std::move(kept);
  return OkStatus();
}

void GraphExecutor::ComputeLifetimes() {
  const Graph& g = *graph_;
  std::vector<int> last_use(slots_.size(), -1);
  std::vector<bool> keep(slots_.size(), false);
  for (size_t s = 0; s < steps_.size(); ++s) {
    for (int slot : steps_[s].inputs) {
      if (slot >= 0) last_use[slot] = static_cast<int>(s);
    }
    // Names the node's subgraphs read must stay alive until the node has run.
    for (int node : steps_[s].nodes) {
      for (const std::string& name : g.implicit_inputs(node)) {
        last_use[SlotFor(name)] = static_cast<int>(s);
      }
    }
  }
  for (const std::string& out : g.outputs()) keep[SlotFor(out)] = true;
  for (size_t s = 0; s < steps_.size(); ++s) {
    Step& step = steps_[s];
    for (int slot : step.outputs) {
      step.required.push_back(slot >= 0 && (keep[slot] || last_use[slot] >= 0));
      // An output nobody reads is dropped right after its node.
      if (slot >= 0 && !keep[slot] && last_use[slot] < 0) step.release.push_back(slot);
    }
  }
  for (size_t slot = 0; slot < slots_.size(); ++slot) {
    if (slots_[slot].kind == SlotKind::kNode && !keep[slot] && last_use[slot] >= 0) {
      steps_[last_use[slot]].release.push_back(static_cast<int>(slot));
    }
  }
}

StatusOr<std::vector<Value>> GraphExecutor::Execute(const std::vector<const Value*>& inputs,
                                                    const Scope* outer,
                                                    TransferStats* transfers) const {
  const Graph& g = *graph_;
  if (inputs.size() != g.inputs().size()) {
    return InvalidArgument(g.Label() + " takes " + std::to_string(g.inputs().size()) +
                           " inputs, got " + std::to_string(inputs.size()));
  }
  // Per-run storage: `values` owns what nodes produce, `live` points at every visible value.
  std::vector<Value> values(slots_.size());
  std::vector<const Value*> live(slots_.size(), nullptr);
  // Host copies of resident values, made when the first consumer that needs one runs.
  std::vector<Value> host(slots_.size());
  auto host_value = [&](int slot) -> StatusOr<const Value*> {
    if (host[slot].kind() == Value::Kind::kNone) {
      ONNXGATE_ASSIGN_OR_RETURN(host[slot], HostCopy(*live[slot], transfers));
    }
    return &host[slot];
  };
  for (size_t i = 0; i < slots_.size(); ++i) {
    const Slot& slot = slots_[i];
    switch (slot.kind) {
      case SlotKind::kInput:
        live[i] = inputs[slot.input_index] != nullptr ? inputs[slot.input_index] : slot.constant;
        if (live[i] == nullptr) {
          return InvalidArgument(g.Label() + ": input '" + slot.name + "' is missing");
        }
        break;
      case SlotKind::kConstant: live[i] = slot.constant; break;
      case SlotKind::kOuter:
        live[i] = outer != nullptr ? outer->Lookup(slot.name) : nullptr;
        if (live[i] == nullptr) {
          return InvalidArgument(g.Label() + " needs '" + slot.name +
                                 "' from an enclosing graph, but no enclosing graph provides it");
        }
        break;
      case SlotKind::kNode: break;
    }
  }
  RunScope scope(*this, live, outer, transfers);
  for (const Step& step : steps_) {
    std::vector<const Value*> in;
    in.reserve(step.inputs.size());
    const void* domain = step.kernel->resident_domain();
    for (int slot : step.inputs) {
      const Value* v = slot >= 0 ? live[slot] : nullptr;
      if (v != nullptr && v->is_resident() && v->resident().domain() != domain) {
        auto copy = host_value(slot);
        if (!copy.ok())
          return copy.status().WithContext(step.label + " input '" + slots_[slot].name + "'");
        v = *copy;
      }
      in.push_back(v);
    }
    KernelContext kctx(std::move(in), step.outputs.size(), &scope);
    Status st;
    try {
      st = step.kernel->Compute(kctx);
    } catch (const std::exception& e) {
      st = Internal(std::string("the kernel threw an exception: ") + e.what());
    }
    if (!st.ok()) return st.WithContext(step.label);
    std::string missing;
    for (size_t j = 0; j < step.outputs.size(); ++j) {
      int slot = step.outputs[j];
      if (slot < 0) continue;
      Value& out = kctx.outputs()[j];
      if (out.kind() == Value::Kind::kNone) {
        if (step.required[j]) missing += (missing.empty() ? "'" : ", '") + slots_[slot].name + "'";
        continue;
      }
      values[slot] = std::move(out);
      live[slot] = &values[slot];
    }
    if (!missing.empty()) {
      return Internal(step.label + ": the kernel did not produce output " + missing +
                      ", which later nodes or the graph outputs need");
    }
    for (int slot : step.release) {
      values[slot] = Value();
      host[slot] = Value();
      live[slot] = nullptr;
    }
  }
  std::vector<Value> outputs;
  outputs.reserve(output_slots_.size());
  for (int slot : output_slots_) {
    if (live[slot] == nullptr) {
      return Internal(g.Label() + ": graph output '" + slots_[slot].name + "' was not produced");
    }
    if (live[slot]->is_resident()) {
      auto copy = host_value(slot);
      if (!copy.ok())
        return copy.status().WithContext(g.Label() + " output '" + slots_[slot].name + "'");
      outputs.push_back(**copy);
      continue;
    }
    outputs.push_back(*live[slot]);
  }
  return outputs;
}

StatusOr<std::vector<Value>> GraphExecutor::Run(const std::vector<Value>& inputs,
                                                const Scope& outer) const {
  std::vector<const Value*> ptrs;
  ptrs.reserve(inputs.size());
  for (const Value& v : inputs) ptrs.push_back(&v);
  return Execute(ptrs, &outer, outer.transfers());
}

}  // namespace onnxgate
