// ONNX's shape inference in-process or in a child: the child runs inference on its copy of the
// model and sends back, for every graph in a fixed walk order, only value_info and output types.
#include "runtime/model/type_inference.h"

#include <fcntl.h>
#include <onnx/onnx_pb.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <vector>

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

[[noreturn]] void ChildMain(onnx::ModelProto& model, const ShapeInferenceFn& infer, int fd) {
  // A crash must end the child, not run handlers the parent installed.
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) signal(sig, SIG_DFL);
  std::string error = RunInference(model, infer);
  std::string bytes = PackTypes(model, error).SerializeAsString();
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(3);
    done += static_cast<size_t>(n);
  }
  _exit(0);
}

InferenceResult InferInChild(onnx::ModelProto& model, const ShapeInferenceFn& infer,
                             int timeout_seconds) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    return {false, true, std::string("pipe failed: ") + std::strerror(errno)};
  }
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return {false, true, std::string("fork failed: ") + std::strerror(errno)};
  }
  if (pid == 0) {
    close(fds[0]);
    ChildMain(model, infer, fds[1]);
  }
  close(fds[1]);
  // Read until the child closes the pipe, so a large answer cannot block it.
  std::string bytes;
  bool timed_out = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  char buffer[65536];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    int r = poll(&p, 1, static_cast<int>(left));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;  // the deadline check above ends the loop
    ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    bytes.append(buffer, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    return {false, true,
            "shape inference did not finish within " + std::to_string(timeout_seconds) + " s"};
  }
  if (WIFSIGNALED(status)) {
    return {false, true,
            "shape inference crashed (signal " + std::to_string(WTERMSIG(status)) +
                ", a libonnx bug triggered by this model)"};
  }
  onnx::GraphProto bundle;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !bundle.ParseFromString(bytes)) {
    return {false, true, "the shape inference process failed to report its result"};
  }
  if (!UnpackTypes(bundle, model)) {
    return {false, true, "shape inference returned mismatched graphs"};
  }
  if (!bundle.doc_string().empty()) return {false, false, bundle.doc_string()};
  return {};
}

}  // namespace

InferenceResult InferTypes(onnx::ModelProto& model, bool isolate, int timeout_seconds) {
  return InferTypesWith(model, isolate, timeout_seconds, InferShapesWithOnnx);
}

InferenceResult InferTypesWith(onnx::ModelProto& model, bool isolate, int timeout_seconds,
                               const ShapeInferenceFn& infer) {
  if (isolate) return InferInChild(model, infer, timeout_seconds);
  std::string error = RunInference(model, infer);
  return error.empty() ? InferenceResult{} : InferenceResult{false, false, error};
}

}  // namespace onnxgate
