// How onnxgate spells ONNX's operator domains: the default domain is written "" or "ai.onnx" in
// models, goldens, suites and claims, and every test for it goes through these functions.
#pragma once

#include <string>
#include <string_view>

namespace onnx {
class NodeProto;
}

namespace onnxgate {

// "" for the default domain however it is written ("" or "ai.onnx"); other domains unchanged.
std::string NormalizeDomain(const std::string& domain);

// Whether `domain` is the default domain ("" or "ai.onnx").
bool IsDefaultDomain(std::string_view domain);

// How messages and reports name a domain: "ai.onnx" for the default domain however it is
// written; other domains unchanged.
std::string DomainDisplayName(const std::string& domain);

// Whether `node` is ONNX's operator `op_type`: that op type in the default domain.
bool IsOnnxOp(const onnx::NodeProto& node, std::string_view op_type);

}  // namespace onnxgate
