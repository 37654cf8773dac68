// The one JSON reader for every JSON file and message onnxgate reads: suite.json, expectations,
// tolerances, latency baselines and thresholds, run reports, the runtime registry, adapter replies
// and the bench worker's results.
//
// It never throws and never lets nlohmann see a hostile value unguarded: a document is read
// through the bounded regular-file open (ReadRegularFile, kMaxJsonFileBytes), its nesting is
// checked before the parse (CheckNestingDepth), its bytes must be valid UTF-8, and the parse runs
// guarded. Every typed read checks the JSON type, string and array lengths and integer ranges,
// and every error names the file and the JSON path of the value, expected against got:
//   "expectations.json: entries[3].status: expected a string, got 5"
//
// Views (JsonValue, JsonObject) point into their document: keep the document alive while they are
// used.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/base/status.h"

namespace onnxgate {

// Default bounds on one value; a caller may pass tighter ones.
inline constexpr size_t kMaxJsonStringBytes = size_t{16} << 20;
inline constexpr size_t kMaxJsonArrayLength = size_t{1} << 24;

// How a document treats `"key": null`: as if the key were absent (run reports and the latency
// files write null for "no value"), or as a value of the wrong type (hand-written files, where a
// null is a mistake).
enum class JsonNull { kIsAbsent, kIsAValue };

class JsonObject;
class JsonArray;

// What every view of one document shares: the name errors give the file, and the null rule.
struct JsonSource {
  std::string name;
  JsonNull null = JsonNull::kIsAValue;
};

// One value of a document, with its path ("entries[3].status"; "" for the document itself).
class JsonValue {
 public:
  // A view of `value`, which the caller keeps alive; `source` names it in errors.
  static JsonValue Of(const nlohmann::json& value, std::string source,
                      JsonNull null = JsonNull::kIsAValue);

  const std::string& path() const { return path_; }
  const std::string& source() const { return source_->name; }
  const nlohmann::json& raw() const { return *value_; }
  bool is_null() const { return value_->is_null(); }
  bool is_object() const { return value_->is_object(); }
  bool is_array() const { return value_->is_array(); }
  bool is_string() const { return value_->is_string(); }

  // InvalidArgument "<source>: <path>: <what>" ("<source>: <what>" for the document itself).
  Status Error(const std::string& what) const;
  // Error("expected <expected>, got <what this value is>").
  Status TypeError(const std::string& expected) const;
  // This value as an error names it: 5, "text" (cut short), true, null, an array, an object.
  std::string Describe() const;

  StatusOr<std::string> String(size_t max_bytes = kMaxJsonStringBytes) const;
  // A string that is not empty.
  StatusOr<std::string> NonEmptyString(size_t max_bytes = kMaxJsonStringBytes) const;
  // An integer (a number without fraction or exponent) in [min, max].
  StatusOr<int64_t> Int(int64_t min = std::numeric_limits<int64_t>::min(),
                        int64_t max = std::numeric_limits<int64_t>::max()) const;
  // A finite number.
  StatusOr<double> Number() const;
  StatusOr<bool> Bool() const;
  StatusOr<JsonObject> Object() const;
  StatusOr<JsonArray> Array(size_t max_length = kMaxJsonArrayLength) const;
  // A string that must be one of `names`: the value paired with it.
  template <typename E>
  StatusOr<E> Enum(std::initializer_list<std::pair<const char*, E>> names) const {
    ONNXGATE_ASSIGN_OR_RETURN(std::string name, String());
    std::vector<const char*> all;
    for (const auto& [n, e] : names) {
      if (name == n) return e;
      all.push_back(n);
    }
    return NotOneOf(all);
  }

  // The view of a member or element of this value, for paths.
  JsonValue Member(const std::string& key, const nlohmann::json& value) const;
  JsonValue Element(size_t index, const nlohmann::json& value) const;

 private:
  friend class JsonDocument;
  friend class JsonObject;
  JsonValue(const nlohmann::json* value, std::shared_ptr<const JsonSource> source, std::string path)
      : value_(value), source_(std::move(source)), path_(std::move(path)) {}
  Status NotOneOf(const std::vector<const char*>& names) const;

  const nlohmann::json* value_;
  std::shared_ptr<const JsonSource> source_;
  std::string path_;
};

// The elements of an array value, each a JsonValue with its index in the path.
class JsonArray {
 public:
  explicit JsonArray(JsonValue value) : value_(std::move(value)) {}
  const JsonValue& value() const { return value_; }
  size_t size() const { return value_.raw().size(); }
  JsonValue operator[](size_t i) const { return value_.Element(i, value_.raw()[i]); }

  // Calls `each(element)` for each element, in order; stops at the first error.
  Status ForEach(const std::function<Status(const JsonValue&)>& each) const;
  // The same for elements that must be objects.
  Status ForEachObject(const std::function<Status(const JsonObject&)>& each) const;

 private:
  JsonValue value_;
};

// Typed reads of the members of an object value. A `Read` of an absent member (or, under
// JsonNull::kIsAbsent, a null one) leaves *out as it is; a `Require` of one is an error
// "<path>.<key>: required field is missing". A member of the wrong type is always an error.
class JsonObject {
 public:
  explicit JsonObject(JsonValue value) : value_(std::move(value)) {}
  const JsonValue& value() const { return value_; }
  Status Error(const std::string& what) const { return value_.Error(what); }
  // The error "<source>: <path>.<key>: <what>", for a member whose value breaks a rule.
  Status FieldError(std::string_view key, const std::string& what) const;

  // The member `key`; nullopt when absent (or null, under JsonNull::kIsAbsent).
  std::optional<JsonValue> Find(std::string_view key) const;
  // The member `key`, or the "required field is missing" error.
  StatusOr<JsonValue> Get(std::string_view key) const;
  bool Has(std::string_view key) const { return Find(key).has_value(); }

  Status Read(std::string_view key, std::string* out) const { return ReadInto(key, out, false); }
  Status Read(std::string_view key, int64_t* out) const { return ReadInto(key, out, false); }
  Status Read(std::string_view key, int* out) const { return ReadInto(key, out, false); }
  Status Read(std::string_view key, double* out) const { return ReadInto(key, out, false); }
  Status Read(std::string_view key, bool* out) const { return ReadInto(key, out, false); }
  Status Read(std::string_view key, std::vector<std::string>* out) const {
    return ReadInto(key, out, false);
  }
  Status Read(std::string_view key, std::vector<int64_t>* out) const {
    return ReadInto(key, out, false);
  }
  Status Read(std::string_view key, std::vector<double>* out) const {
    return ReadInto(key, out, false);
  }
  // An object of integers: {"": 13, "ai.onnx.ml": 3}.
  Status Read(std::string_view key, std::map<std::string, int64_t>* out) const {
    return ReadInto(key, out, false);
  }
  // Set when present, reset when absent.
  template <typename T>
  Status Read(std::string_view key, std::optional<T>* out) const {
    out->reset();
    if (!Has(key)) return OkStatus();
    T value{};
    ONNXGATE_RETURN_IF_ERROR(Require(key, &value));
    *out = std::move(value);
    return OkStatus();
  }
  template <typename T>
  Status Require(std::string_view key, T* out) const {
    return ReadInto(key, out, true);
  }
  // An integer member in [min, max].
  Status ReadInt(std::string_view key, int64_t min, int64_t max, int64_t* out,
                 bool required = false) const;
  // A string member that must be one of `names`.
  template <typename E>
  Status ReadEnum(std::string_view key, std::initializer_list<std::pair<const char*, E>> names,
                  E* out, bool required = false) const {
    std::optional<JsonValue> member = Find(key);
    if (!member) return required ? Missing(key) : OkStatus();
    ONNXGATE_ASSIGN_OR_RETURN(*out, member->Enum(names));
    return OkStatus();
  }

  // The object member `key`: nullopt when absent (Optional...), an error when missing
  // (Required...).
  StatusOr<std::optional<JsonObject>> OptionalObject(std::string_view key) const;
  StatusOr<JsonObject> RequiredObject(std::string_view key) const;
  // The array member `key` with at most `max_length` elements (an empty one when absent).
  StatusOr<JsonArray> OptionalArray(std::string_view key,
                                    size_t max_length = kMaxJsonArrayLength) const;
  StatusOr<JsonArray> RequiredArray(std::string_view key,
                                    size_t max_length = kMaxJsonArrayLength) const;
  // Each element of the array member `key`, which must be an object (none when absent).
  Status ForEachObject(std::string_view key,
                       const std::function<Status(const JsonObject&)>& each) const;
  // Each member of this object, in the document's order (keys sorted).
  Status ForEachMember(
      const std::function<Status(const std::string&, const JsonValue&)>& each) const;
  // An error naming the first member whose key is not in `known`.
  Status OnlyKeys(std::initializer_list<const char*> known) const;

 private:
  Status Missing(std::string_view key) const;
  template <typename T>
  Status ReadInto(std::string_view key, T* out, bool required) const;

  JsonValue value_;
};

// A parsed document: owns the value that views point into.
class JsonDocument {
 public:
  // Reads the file `path` (a regular file of at most kMaxJsonFileBytes; `what` names the kind in
  // its errors: "expectations file"), then Parse. Errors name `path`.
  static StatusOr<JsonDocument> ReadFile(const std::string& path, const std::string& what,
                                         JsonNull null = JsonNull::kIsAValue);
  // Checks nesting (kMaxJsonNesting) and UTF-8, then parses; errors name `source`.
  static StatusOr<JsonDocument> Parse(std::string_view text, const std::string& source,
                                      JsonNull null = JsonNull::kIsAValue);

  JsonValue root() const;
  // root().Object(): the document must hold an object.
  StatusOr<JsonObject> RootObject() const { return root().Object(); }
  // The parsed value, for callers that edit and write it back (suite.json updates).
  nlohmann::json& raw() { return *doc_; }
  const nlohmann::json& raw() const { return *doc_; }

 private:
  JsonDocument(std::unique_ptr<nlohmann::json> doc, std::shared_ptr<const JsonSource> source)
      : doc_(std::move(doc)), source_(std::move(source)) {}

  std::unique_ptr<nlohmann::json> doc_;  // on the heap, so views survive a move of the document
  std::shared_ptr<const JsonSource> source_;
};

// DataLoss "<source>: invalid UTF-8 at byte <n> (line <l>)" for the first byte of `text` that is
// not valid UTF-8, or OK.
Status CheckUtf8(std::string_view text, const std::string& source);

}  // namespace onnxgate
