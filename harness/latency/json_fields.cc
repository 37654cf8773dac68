// Typed JSON member reads with file- and path-naming errors for the latency files.
#include "harness/latency/json_fields.h"

#include <cmath>

#include "runtime/base/nesting_depth.h"

namespace onnxgate::latency_json {

StatusOr<Json> Parse(const std::string& text, const std::string& source) {
  ONNXGATE_RETURN_IF_ERROR(CheckNestingDepth(text, NestingSyntax::kJson, kMaxJsonNesting, source));
  try {
    return Json::parse(text);
  } catch (const Json::exception& e) {
    return DataLoss(source + ": not valid JSON: " + e.what());
  }
}

StatusOr<Object> Object::Of(const Json& j, const std::string& source, const std::string& path) {
  if (!j.is_object()) {
    return InvalidArgument(source + ": " + (path.empty() ? std::string("the document") : path) +
                           ": expected an object, got " + j.type_name());
  }
  return Object(j, source, path);
}

const Json* Object::Member(const char* key) const {
  auto it = j_->find(key);
  if (it == j_->end() || it->is_null()) return nullptr;
  return &*it;
}

std::string Object::Path(const char* key) const {
  return path_.empty() ? std::string(key) : path_ + "." + key;
}

Status Object::Missing(const char* key) const {
  return InvalidArgument(source_ + ": " + Path(key) + ": required field is missing");
}

Status Object::WrongType(const char* key, const char* expected, const Json& got) const {
  return InvalidArgument(source_ + ": " + Path(key) + ": expected " + expected + ", got " +
                         got.type_name());
}

Status Object::String(const char* key, std::string* out, bool required) const {
  const Json* j = Member(key);
  if (j == nullptr) return required ? Missing(key) : OkStatus();
  if (!j->is_string()) return WrongType(key, "a string", *j);
  *out = j->get<std::string>();
  return OkStatus();
}

Status Object::Int(const char* key, int64_t* out, bool required) const {
  const Json* j = Member(key);
  if (j == nullptr) return required ? Missing(key) : OkStatus();
  if (!j->is_number_integer()) return WrongType(key, "an integer", *j);
  *out = j->get<int64_t>();
  return OkStatus();
}

Status Object::Number(const char* key, double* out, bool required) const {
  const Json* j = Member(key);
  if (j == nullptr) return required ? Missing(key) : OkStatus();
  if (!j->is_number()) return WrongType(key, "a number", *j);
  *out = j->get<double>();
  if (!std::isfinite(*out)) return WrongType(key, "a finite number", *j);
  return OkStatus();
}

Status Object::OptionalNumber(const char* key, std::optional<double>* out) const {
  if (Member(key) == nullptr) return OkStatus();
  double v = 0.0;
  ONNXGATE_RETURN_IF_ERROR(Number(key, &v));
  *out = v;
  return OkStatus();
}

Status Object::Numbers(const char* key, std::vector<double>* out) const {
  out->clear();
  return Array(key, [&](const Json& e, const std::string& path) -> Status {
    if (!e.is_number()) {
      return InvalidArgument(source_ + ": " + path + ": expected a number, got " + e.type_name());
    }
    out->push_back(e.get<double>());
    return OkStatus();
  });
}

StatusOr<Object> Object::Child(const char* key) const {
  const Json* j = Member(key);
  if (j == nullptr) return Missing(key);
  return Of(*j, source_, Path(key));
}

}  // namespace onnxgate::latency_json
