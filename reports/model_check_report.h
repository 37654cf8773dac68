// The record of `onnxgate check-model` (a preflight of one model against a runtime and its EPs,
// without goldens) and its text, JSON, JUnit XML and Markdown forms.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/base/status.h"

namespace onnxgate {

struct NodeCheckRecord {
  std::string node_name;
  std::string op_type;
  std::string domain;     // "" = ai.onnx
  int since_version = 0;  // the active op version; 0 when ONNX has no schema for it
  std::string provider;   // where it would run; empty when the model did not load
  struct Decline {
    std::string provider;
    std::string reason;
  };
  std::vector<Decline> declines;
  bool falls_back = false;  // runs on a provider after the first one asked for
  bool lacking = false;     // no provider of the runtime claims its op version
  std::string subgraph;     // the provider's kernel that runs it with other nodes; empty: alone
};

// "Conv-11", "ai.onnx.ml.LabelEncoder-4"; "-?" when ONNX has no schema for the version.
std::string NodeOpName(const NodeCheckRecord& node);

struct OpsetCheckRecord {
  std::string domain;  // "" = ai.onnx
  int64_t version = 0;
  bool accepted = false;
  std::string accepted_range;  // "1..28"; empty when the runtime accepts no version of it
};

// `--target-opset`: ONNX's version converter, then a differential run of the converted model
// against the original on the same generated inputs.
struct ConversionCheckRecord {
  int64_t target_opset = 0;
  bool converted = false;
  std::string error;      // why the conversion, its load or its run failed
  bool loaded = false;    // the runtime loads the converted model on the EPs asked for
  std::string reference;  // what ran the original: the runtime under test, or ref
  bool outputs_match = false;
  std::vector<std::string> output_summaries;  // "<output>: <comparison summary>"
};

struct ModelCheckRecord {
  std::string model_path;
  std::string model_sha256;
  std::string runtime_name;
  std::string runtime_version;
  std::vector<std::string> eps;  // as asked, in priority order
  std::string fallback;          // allow, warn or forbid
  int64_t ir_version = 0;
  bool ir_accepted = false;
  std::string ir_accepted_range;
  std::vector<OpsetCheckRecord> opsets;
  bool loaded = false;
  std::string load_error;
  std::vector<NodeCheckRecord> nodes;
  std::optional<ConversionCheckRecord> conversion;
  // What keeps the model from passing the preflight, one line each; empty when it passes.
  std::vector<std::string> problems;
  bool passed() const { return problems.empty(); }
};

std::string RenderModelCheckText(const ModelCheckRecord& check);
std::string RenderModelCheckJson(const ModelCheckRecord& check);
// One <testsuite> "check-model": a test case for the IR version, each opset import, each node
// (failed when it is lacking, or falls back under forbid) and the conversion when there is one.
std::string RenderModelCheckJunit(const ModelCheckRecord& check);
std::string RenderModelCheckMarkdown(const ModelCheckRecord& check);

}  // namespace onnxgate
