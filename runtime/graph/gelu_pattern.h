// The written-out Gelu, x * 0.5 * (1 + Erf(x / sqrt(2))), as exporters write it: x / sqrt(2) as
// Div(x, sqrt 2) or Mul(x, 1 / sqrt 2), 1 + erf as Add or Sum, and the two products in any of
// the orders (x * a) * 0.5, (a * 0.5) * x and (x * 0.5) * a. One matcher for its two users: the
// optimizer rewrites the pattern into Gelu-20 (optimizer/fusions.cc), the dnnl provider claims it
// as one oneDNN gelu_erf primitive at any opset (ep/dnnl/gelu_fusion.h). Each reads the graph
// through GeluLookup, its own view of who reads a value and which values are known at load.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/graph/graph.h"

namespace onnx {
class GraphProto;
}

namespace onnxgate {

struct GeluLookup {
  // The index of the node that outputs `name`, or -1.
  std::function<int(const std::string&)> producer;
  // The node that alone reads `name`: one use as a node input and no other read (no graph
  // output, no subgraph using it), or -1.
  std::function<int(const std::string&)> sole_reader;
  // Whether `name` is a constant known at load.
  std::function<bool(const std::string&)> is_constant;
  // The value of a constant of one element, numeric, of rank at most `max_rank` (so that
  // broadcasting it onto x changes no shape); nullopt for anything else.
  std::function<std::optional<double>(const std::string&, int64_t max_rank)> scalar;
  // The statically known type of `name` (its rank bounds the constants' ranks).
  std::function<ValueType(const std::string&)> type_of;
};

struct GeluMatch {
  std::string x;           // the pattern's input (its element type is the caller's to check)
  std::string y;           // its output, Gelu(x)
  std::vector<int> nodes;  // its five nodes: the scaling, Erf, 1 + erf, then the two products
};

// The pattern around the Erf node `erf_index` of `graph`, every intermediate value read by the
// next node of the pattern alone; nullopt when `erf_index` is not such an Erf.
std::optional<GeluMatch> MatchWrittenOutGelu(const onnx::GraphProto& graph, int erf_index,
                                             const GeluLookup& lookup);

}  // namespace onnxgate
