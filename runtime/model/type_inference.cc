// ONNX's shape inference in-process or in a child: the child runs inference on its copy of the
// model and sends back, for every graph in a fixed walk order, only value_info and output types.
// The child for ONNX's own inference is a long-lived server (ChildServer) that gets each model
// serialized; another inference function (tests) gets a server for the one call; a model too
// large to send is inferred in a fork of its own (RunInChildProcess).
#include "runtime/model/type_inference.h"

#include <google/protobuf/io/coded_stream.h>
#include <onnx/onnx_pb.h>
#include <signal.h>

#include <cstdint>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "runtime/base/child_process.h"
#include "runtime/base/child_server.h"
#include "runtime/onnx/model_checks.h"

namespace onnxgate {

namespace {

// The graph and every subgraph in node attributes, depth first, in proto order.
void CollectGraphs(onnx::GraphProto* graph, std::vector<onnx::GraphProto*>* out) {
  out->push_back(graph);
  for (onnx::NodeProto& node : *graph->mutable_node()) {
    for (onnx::AttributeProto& attr : *node.mutable_attribute()) {
      if (attr.has_g()) CollectGraphs(attr.mutable_g(), out);
      for (onnx::GraphProto& g : *attr.mutable_graphs()) CollectGraphs(&g, out);
    }
  }
}

// Runs `infer` on `model`; "" on success, else the error.
std::string RunInference(onnx::ModelProto& model, const ShapeInferenceFn& infer) {
  std::string error = infer(model);
  return error.empty() ? error : "shape inference failed: " + error;
}

// The types of every graph of `model` packed in one message: node i of the bundle holds graph
// i's value_info and outputs in its attribute; doc_string carries an inference error.
onnx::GraphProto PackTypes(onnx::ModelProto& model, const std::string& error) {
  std::vector<onnx::GraphProto*> graphs;
  CollectGraphs(model.mutable_graph(), &graphs);
  onnx::GraphProto bundle;
  bundle.set_doc_string(error);
  for (onnx::GraphProto* g : graphs) {
    onnx::GraphProto* types = bundle.add_node()->add_attribute()->mutable_g();
    *types->mutable_value_info() = g->value_info();
    *types->mutable_output() = g->output();
  }
  return bundle;
}

bool UnpackTypes(const onnx::GraphProto& bundle, onnx::ModelProto& model) {
  std::vector<onnx::GraphProto*> graphs;
  CollectGraphs(model.mutable_graph(), &graphs);
  if (static_cast<size_t>(bundle.node_size()) != graphs.size()) return false;
  for (size_t i = 0; i < graphs.size(); ++i) {
    const onnx::NodeProto& n = bundle.node(static_cast<int>(i));
    if (n.attribute_size() != 1) return false;
    const onnx::GraphProto& types = n.attribute(0).g();
    if (types.output_size() != graphs[i]->output_size()) return false;
    for (int j = 0; j < types.output_size(); ++j) {
      if (types.output(j).name() != graphs[i]->output(j).name()) return false;
    }
  }
  for (size_t i = 0; i < graphs.size(); ++i) {
    const onnx::GraphProto& types = bundle.node(static_cast<int>(i)).attribute(0).g();
    *graphs[i]->mutable_value_info() = types.value_info();
    for (int j = 0; j < types.output_size(); ++j) {
      *graphs[i]->mutable_output(j)->mutable_type() = types.output(j).type();
    }
  }
  return true;
}

// What the child's outcome means for `model`: its types added on success, else why not.
InferenceResult FromChild(const ChildOutcome& child, onnx::ModelProto& model, int timeout_seconds) {
  switch (child.end) {
    case ChildOutcome::End::kNotStarted: return {false, true, child.error};
    case ChildOutcome::End::kTimedOut:
      return {false, true,
              "shape inference did not finish within " + std::to_string(timeout_seconds) + " s"};
    case ChildOutcome::End::kSignaled:
      return {false, true,
              "shape inference crashed (signal " + std::to_string(child.signal) +
                  ", a libonnx bug triggered by this model)"};
    case ChildOutcome::End::kExited: break;
  }
  onnx::GraphProto bundle;
  if (child.exit_code != 0 || !bundle.ParseFromString(child.output)) {
    std::string detail = "the shape inference process failed to report its result";
    if (!child.error.empty()) detail += " (" + child.error + ")";
    return {false, true, detail};
  }
  if (!UnpackTypes(bundle, model)) {
    return {false, true, "shape inference returned mismatched graphs"};
  }
  if (!bundle.doc_string().empty()) return {false, false, bundle.doc_string()};
  return {};
}

// A fork of its own for one model: the child has the model already, nothing is copied.
InferenceResult InferInForkedChild(onnx::ModelProto& model, const ShapeInferenceFn& infer,
                                   int timeout_seconds) {
  const ChildOutcome child = RunInChildProcess(
      [&] {
        // A crash must end the child, not run handlers the parent installed.
        for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) signal(sig, SIG_DFL);
        const std::string error = RunInference(model, infer);
        return PackTypes(model, error).SerializeAsString();
      },
      timeout_seconds);
  return FromChild(child, model, timeout_seconds);
}

// The server's side: the serialized model in, its packed types out.
std::string InferRequest(const std::string& request, const ShapeInferenceFn& infer) {
  onnx::ModelProto model;
  google::protobuf::io::CodedInputStream stream(reinterpret_cast<const uint8_t*>(request.data()),
                                                static_cast<int>(request.size()));
  // The size fits an int: larger models take the fork path. The sender holds this model already,
  // however deep its subgraphs nest: protobuf's default limit of 100 nested messages would
  // refuse one the sender built from text.
  stream.SetRecursionLimit(std::numeric_limits<int>::max());
  if (!model.ParseFromCodedStream(&stream) || !stream.ConsumedEntireMessage()) {
    throw std::runtime_error("the model sent to shape inference did not parse");
  }
  const std::string error = RunInference(model, infer);
  return PackTypes(model, error).SerializeAsString();
}

// Models up to this size travel to the server; a larger one gets a fork of its own, since a
// fork copies no data while a request copies all of it (and one over 2 GiB cannot be
// serialized at all).
constexpr size_t kLargestServedModelBytes = size_t{16} << 20;

InferenceResult InferInServer(onnx::ModelProto& model, ChildServer& server, int timeout_seconds) {
  const ChildOutcome child = server.Call(model.SerializeAsString(), timeout_seconds);
  return FromChild(child, model, timeout_seconds);
}

// The server for ONNX's own inference, shared by every isolated InferTypes of this process.
struct SharedServer {
  std::mutex mutex;
  ChildServer server{
      [](const std::string& request) { return InferRequest(request, InferShapesWithOnnx); }};
};

// Destroyed at exit, which kills and reaps its child.
SharedServer& OnnxInferenceServer() {
  static SharedServer shared;
  return shared;
}

// `shared`: the server to use, or null for one of this call's own.
InferenceResult InferInChild(onnx::ModelProto& model, const ShapeInferenceFn& infer,
                             int timeout_seconds, SharedServer* shared) {
  if (model.ByteSizeLong() > kLargestServedModelBytes) {
    return InferInForkedChild(model, infer, timeout_seconds);
  }
  if (shared != nullptr) {
    std::lock_guard<std::mutex> lock(shared->mutex);
    return InferInServer(model, shared->server, timeout_seconds);
  }
  ChildServer own([&](const std::string& request) { return InferRequest(request, infer); });
  return InferInServer(model, own, timeout_seconds);
}

}  // namespace

InferenceResult InferTypes(onnx::ModelProto& model, bool isolate, int timeout_seconds) {
  if (isolate) {
    return InferInChild(model, InferShapesWithOnnx, timeout_seconds, &OnnxInferenceServer());
  }
  return InferTypesWith(model, /*isolate=*/false, timeout_seconds, InferShapesWithOnnx);
}

InferenceResult InferTypesWith(onnx::ModelProto& model, bool isolate, int timeout_seconds,
                               const ShapeInferenceFn& infer) {
  if (isolate) return InferInChild(model, infer, timeout_seconds, /*shared=*/nullptr);
  std::string error = RunInference(model, infer);
  return error.empty() ? InferenceResult{} : InferenceResult{false, false, error};
}

pid_t ShapeInferenceServerPid() {
  SharedServer& shared = OnnxInferenceServer();
  std::lock_guard<std::mutex> lock(shared.mutex);
  return shared.server.pid();
}

}  // namespace onnxgate
