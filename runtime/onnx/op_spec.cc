// OpSpec and the registry's limits, read from ONNX's OpSchemaRegistry.
#include "runtime/onnx/op_spec.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <utility>

#ifndef ONNXGATE_ONNX_VERSION
#error "ONNXGATE_ONNX_VERSION must name the ONNX release linked (set by CMake)"
#endif

namespace onnxgate {

namespace {

FormalParameter ToFormal(const onnx::OpSchema::FormalParameter& f) {
  FormalParameter p;
  p.name = f.GetName();
  p.type_str = f.GetTypeStr();
  switch (f.GetOption()) {
    case onnx::OpSchema::Single: p.option = FormalParameter::Option::kSingle; break;
    case onnx::OpSchema::Optional: p.option = FormalParameter::Option::kOptional; break;
    case onnx::OpSchema::Variadic: p.option = FormalParameter::Option::kVariadic; break;
  }
  p.homogeneous = f.GetIsHomogeneous();
  return p;
}

}  // namespace

const char* OnnxReleaseVersion() { return ONNXGATE_ONNX_VERSION; }

int MaxIrVersion() { return static_cast<int>(onnx::IR_VERSION); }

int MaxOpset(const std::string& domain) {
  const auto& map = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
  auto it = map.find(NormalizeDomain(domain));
  return it == map.end() ? -1 : it->second.second;
}

std::vector<std::string> KnownDomains() {
  std::vector<std::string> out;
  for (const auto& [domain, range] :
       onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map()) {
    out.push_back(domain);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<OpSpec> OpSpec::Find(const std::string& op_type, int opset,
                                   const std::string& domain) {
  const onnx::OpSchema* s = onnx::OpSchemaRegistry::Schema(op_type, opset, NormalizeDomain(domain));
  if (s == nullptr) return std::nullopt;
  return OpSpec(s);
}

std::string OpSpec::op_type() const { return schema_->Name(); }
std::string OpSpec::domain() const { return NormalizeDomain(schema_->domain()); }
int OpSpec::since_version() const { return schema_->SinceVersion(); }
bool OpSpec::deprecated() const { return schema_->Deprecated(); }
std::string OpSpec::defining_file() const { return schema_->file(); }

std::vector<FormalParameter> OpSpec::inputs() const {
  std::vector<FormalParameter> out;
  for (const auto& f : schema_->inputs()) out.push_back(ToFormal(f));
  return out;
}

std::vector<FormalParameter> OpSpec::outputs() const {
  std::vector<FormalParameter> out;
  for (const auto& f : schema_->outputs()) out.push_back(ToFormal(f));
  return out;
}

std::map<std::string, std::vector<std::string>> OpSpec::type_constraints() const {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& c : schema_->typeConstraintParams()) {
    out[c.type_param_str] = c.allowed_type_strs;
  }
  return out;
}

std::map<std::string, std::set<DataType>> OpSpec::AllowedElementTypes() const {
  std::map<std::string, std::set<DataType>> out;
  for (const auto& c : schema_->typeConstraintParams()) {
    std::set<DataType>& types = out[c.type_param_str];
    for (const std::string& t : c.allowed_type_strs) {
      if (auto e = ElementTypeOfTypeString(t)) types.insert(*e);
    }
  }
  return out;
}

std::optional<DataType> ElementTypeOfTypeString(const std::string& type_str) {
  std::string s = type_str;
  for (const std::string wrapper : {"optional(", "seq(", "tensor("}) {
    if (s.rfind(wrapper, 0) == 0 && s.back() == ')') {
      s = s.substr(wrapper.size(), s.size() - wrapper.size() - 1);
    }
  }
  auto t = DataTypeFromName(s);
  if (!t.ok()) return std::nullopt;
  return *t;
}

std::vector<OperatorVersions> AllOperators() {
  std::map<std::pair<std::string, std::string>, OperatorVersions> ops;
  std::map<std::pair<std::string, std::string>, int> newest;
  for (const onnx::OpSchema& s : onnx::OpSchemaRegistry::get_all_schemas_with_history()) {
    const std::string domain = NormalizeDomain(s.domain());
    if (s.SinceVersion() > MaxOpset(domain)) continue;
    const auto key = std::make_pair(domain, s.Name());
    OperatorVersions& v = ops[key];
    v.domain = domain;
    v.op_type = s.Name();
    v.since_versions.push_back(s.SinceVersion());
    auto [it, inserted] = newest.emplace(key, s.SinceVersion());
    if (inserted || s.SinceVersion() >= it->second) {
      it->second = s.SinceVersion();
      v.deprecated = s.Deprecated();
    }
  }
  std::vector<OperatorVersions> out;
  for (auto& [key, v] : ops) {
    std::sort(v.since_versions.begin(), v.since_versions.end());
    v.since_versions.erase(std::unique(v.since_versions.begin(), v.since_versions.end()),
                           v.since_versions.end());
    out.push_back(std::move(v));
  }
  return out;
}

std::vector<int> SinceVersions(const std::string& domain, const std::string& op_type) {
  std::vector<int> out;
  const std::string d = NormalizeDomain(domain);
  const int max = MaxOpset(d);
  for (int opset = 1; opset <= max;) {
    const onnx::OpSchema* s = onnx::OpSchemaRegistry::Schema(op_type, opset, d);
    if (s == nullptr) {
      ++opset;
      continue;
    }
    if (out.empty() || out.back() != s->SinceVersion()) out.push_back(s->SinceVersion());
    ++opset;
  }
  return out;
}

}  // namespace onnxgate
