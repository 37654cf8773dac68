// The default domain's two spellings, tested in one place.
#include "runtime/onnx/domain.h"

#include <onnx/onnx_pb.h>

namespace onnxgate {

namespace {
constexpr std::string_view kDefaultDomainName = "ai.onnx";
}  // namespace

std::string NormalizeDomain(const std::string& domain) {
  return IsDefaultDomain(domain) ? std::string() : domain;
}

bool IsDefaultDomain(std::string_view domain) {
  return domain.empty() || domain == kDefaultDomainName;
}

std::string DomainDisplayName(const std::string& domain) {
  return IsDefaultDomain(domain) ? std::string(kDefaultDomainName) : domain;
}

bool IsOnnxOp(const onnx::NodeProto& node, std::string_view op_type) {
  return node.op_type() == op_type && IsDefaultDomain(node.domain());
}

}  // namespace onnxgate
