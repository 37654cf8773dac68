// Typed reads of JSON object members for the latency files (baselines, thresholds), with errors
// that name the file and the field path, e.g. "base.json: entries[2].samples_ms[4]: expected a
// number, got string".
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "runtime/base/status.h"

namespace onnxgate::latency_json {

using Json = nlohmann::json;

// Parses `text`; DataLoss naming `source` when it is not JSON. The one place where
// nlohmann::json's parse exception is caught.
StatusOr<Json> Parse(const std::string& text, const std::string& source);

class Object {
 public:
  // InvalidArgument unless `j` is an object.
  static StatusOr<Object> Of(const Json& j, const std::string& source, const std::string& path);

  Status String(const char* key, std::string* out, bool required = true) const;
  Status Int(const char* key, int64_t* out, bool required = true) const;
  Status Number(const char* key, double* out, bool required = true) const;
  Status OptionalNumber(const char* key, std::optional<double>* out) const;
  Status Numbers(const char* key, std::vector<double>* out) const;  // required array
  // The array member `key` (required); calls `each(element, element_path)`.
  template <typename Fn>
  Status Array(const char* key, Fn each) const {
    const Json* j = Member(key);
    if (j == nullptr) return Missing(key);
    if (!j->is_array()) return WrongType(key, "an array", *j);
    for (size_t i = 0; i < j->size(); ++i) {
      ONNXGATE_RETURN_IF_ERROR(each((*j)[i], Path(key) + "[" + std::to_string(i) + "]"));
    }
    return OkStatus();
  }
  // The object member `key` (required).
  StatusOr<Object> Child(const char* key) const;

  const std::string& source() const { return source_; }

 private:
  Object(const Json& j, std::string source, std::string path)
      : j_(&j), source_(std::move(source)), path_(std::move(path)) {}
  const Json* Member(const char* key) const;
  std::string Path(const char* key) const;
  Status Missing(const char* key) const;
  Status WrongType(const char* key, const char* expected, const Json& got) const;

  const Json* j_;
  std::string source_;
  std::string path_;
};

}  // namespace onnxgate::latency_json
