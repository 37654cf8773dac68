// The one JSON reader: bounded, guarded parsing and typed reads whose errors name file and path.
#include "runtime/base/json_reader.h"

#include <cmath>

#include "runtime/base/contained_file.h"
#include "runtime/base/nesting_depth.h"
#include "runtime/base/utf8.h"

namespace onnxgate {

namespace {

using Json = nlohmann::json;

// How much of a string value an error quotes.
constexpr size_t kQuotedBytes = 40;

// `s` cut to at most `max` bytes on a code point boundary, as a JSON string literal (quotes and
// control characters escaped), with "..." after it when it was cut.
std::string Quote(const std::string& s, size_t max) {
  size_t end = 0;
  while (end < s.size()) {
    size_t length = 1;
    DecodeUtf8At(s, end, &length);
    if (end + length > max) break;
    end += length;
  }
  const std::string quoted =
      Json(s.substr(0, end)).dump(-1, ' ', false, Json::error_handler_t::replace);
  return end < s.size() ? quoted + "..." : quoted;
}

std::string JoinNames(const std::vector<const char*>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += "\"" + std::string(names[i]) + "\"";
  }
  return out;
}

}  // namespace

Status CheckUtf8(std::string_view text, const std::string& source) {
  size_t line = 1;
  for (size_t pos = 0; pos < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[pos]);
    if (c < 0x80) {
      if (c == '\n') ++line;
      ++pos;
      continue;
    }
    size_t length = 1;
    if (DecodeUtf8At(text, pos, &length) == kInvalidUtf8) {
      return InvalidArgument(source + ": invalid UTF-8 at byte " + std::to_string(pos) + " (line " +
                             std::to_string(line) + ")");
    }
    pos += length;
  }
  return OkStatus();
}

// ---- JsonValue

JsonValue JsonValue::Of(const Json& value, std::string source, JsonNull null) {
  return JsonValue(&value, std::make_shared<const JsonSource>(JsonSource{std::move(source), null}),
                   "");
}

Status JsonValue::Error(const std::string& what) const {
  return InvalidArgument(source() + ": " + (path_.empty() ? "" : path_ + ": ") + what);
}

Status JsonValue::TypeError(const std::string& expected) const {
  return Error("expected " + expected + ", got " + Describe());
}

std::string JsonValue::Describe() const {
  switch (value_->type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return *value_->get_ptr<const bool*>() ? "true" : "false";
    case Json::value_t::string: return Quote(*value_->get_ptr<const std::string*>(), kQuotedBytes);
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      return value_->dump(-1, ' ', false, Json::error_handler_t::replace);
    case Json::value_t::array: return "an array";
    case Json::value_t::object: return "an object";
    default: return "a value of no JSON type";
  }
}

StatusOr<std::string> JsonValue::String(size_t max_bytes) const {
  const std::string* s = value_->get_ptr<const std::string*>();
  if (s == nullptr) return TypeError("a string");
  if (s->size() > max_bytes) {
    return Error("a string of " + std::to_string(s->size()) + " bytes (at most " +
                 std::to_string(max_bytes) + ")");
  }
  return *s;
}

StatusOr<std::string> JsonValue::NonEmptyString(size_t max_bytes) const {
  ONNXGATE_ASSIGN_OR_RETURN(std::string s, String(max_bytes));
  if (s.empty()) return Error("expected a non-empty string, got \"\"");
  return s;
}

StatusOr<int64_t> JsonValue::Int(int64_t min, int64_t max) const {
  int64_t value = 0;
  if (const auto* u = value_->get_ptr<const Json::number_unsigned_t*>(); u != nullptr) {
    if (*u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Error("integer " + Describe() + " is out of range");
    }
    value = static_cast<int64_t>(*u);
  } else if (const auto* i = value_->get_ptr<const Json::number_integer_t*>(); i != nullptr) {
    value = *i;
  } else {
    return TypeError("an integer");
  }
  if (value < min || value > max) {
    const bool from_zero = min == 0 && max == std::numeric_limits<int64_t>::max();
    return Error(from_zero ? "expected a count >= 0, got " + Describe()
                           : "integer " + Describe() + " is out of range [" + std::to_string(min) +
                                 ", " + std::to_string(max) + "]");
  }
  return value;
}

StatusOr<double> JsonValue::Number() const {
  if (!value_->is_number()) return TypeError("a number");
  double v = 0;
  if (const auto* u = value_->get_ptr<const Json::number_unsigned_t*>(); u != nullptr) {
    v = static_cast<double>(*u);
  } else if (const auto* i = value_->get_ptr<const Json::number_integer_t*>(); i != nullptr) {
    v = static_cast<double>(*i);
  } else {
    v = *value_->get_ptr<const Json::number_float_t*>();
  }
  if (!std::isfinite(v)) return TypeError("a finite number");
  return v;
}

StatusOr<bool> JsonValue::Bool() const {
  const bool* b = value_->get_ptr<const bool*>();
  if (b == nullptr) return TypeError("true or false");
  return *b;
}

StatusOr<JsonObject> JsonValue::Object() const {
  if (!value_->is_object()) return TypeError("an object");
  return JsonObject(*this);
}

StatusOr<JsonArray> JsonValue::Array(size_t max_length) const {
  if (!value_->is_array()) return TypeError("an array");
  if (value_->size() > max_length) {
    return Error("an array of " + std::to_string(value_->size()) + " elements (at most " +
                 std::to_string(max_length) + ")");
  }
  return JsonArray(*this);
}

Status JsonValue::NotOneOf(const std::vector<const char*>& names) const {
  return TypeError(JoinNames(names));
}

namespace {

// A key as a path writes it: .name when it is a plain name, else ["quoted"].
std::string KeyStep(const std::string& key) {
  bool plain = !key.empty() && key.size() <= 64 && !(key[0] >= '0' && key[0] <= '9');
  for (char c : key) {
    plain = plain && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '-');
  }
  return plain ? "." + key : "[" + Quote(key, kQuotedBytes) + "]";
}

}  // namespace

JsonValue JsonValue::Member(const std::string& key, const Json& value) const {
  std::string path = path_ + KeyStep(key);
  if (path[0] == '.') path.erase(0, 1);
  return JsonValue(&value, source_, std::move(path));
}

JsonValue JsonValue::Element(size_t index, const Json& value) const {
  return JsonValue(&value, source_, path_ + "[" + std::to_string(index) + "]");
}

// ---- JsonArray

Status JsonArray::ForEach(const std::function<Status(const JsonValue&)>& each) const {
  for (size_t i = 0; i < size(); ++i) ONNXGATE_RETURN_IF_ERROR(each((*this)[i]));
  return OkStatus();
}

Status JsonArray::ForEachObject(const std::function<Status(const JsonObject&)>& each) const {
  return ForEach([&](const JsonValue& element) -> Status {
    ONNXGATE_ASSIGN_OR_RETURN(JsonObject object, element.Object());
    return each(object);
  });
}

// ---- JsonObject

std::optional<JsonValue> JsonObject::Find(std::string_view key) const {
  const Json& object = value_.raw();
  auto it = object.find(key);
  if (it == object.end()) return std::nullopt;
  if (it->is_null() && value_.source_->null == JsonNull::kIsAbsent) return std::nullopt;
  return value_.Member(std::string(key), *it);
}

Status JsonObject::FieldError(std::string_view key, const std::string& what) const {
  static const Json* const kNull = new Json();
  return value_.Member(std::string(key), *kNull).Error(what);
}

Status JsonObject::Missing(std::string_view key) const {
  return FieldError(key, "required field is missing");
}

StatusOr<JsonValue> JsonObject::Get(std::string_view key) const {
  std::optional<JsonValue> member = Find(key);
  if (!member) return Missing(key);
  return *member;
}

namespace {

Status Assign(const JsonValue& v, std::string* out) {
  ONNXGATE_ASSIGN_OR_RETURN(*out, v.String());
  return OkStatus();
}
Status Assign(const JsonValue& v, int64_t* out) {
  ONNXGATE_ASSIGN_OR_RETURN(*out, v.Int());
  return OkStatus();
}
Status Assign(const JsonValue& v, int* out) {
  ONNXGATE_ASSIGN_OR_RETURN(
      int64_t i, v.Int(std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
  *out = static_cast<int>(i);
  return OkStatus();
}
Status Assign(const JsonValue& v, double* out) {
  ONNXGATE_ASSIGN_OR_RETURN(*out, v.Number());
  return OkStatus();
}
Status Assign(const JsonValue& v, bool* out) {
  ONNXGATE_ASSIGN_OR_RETURN(*out, v.Bool());
  return OkStatus();
}
template <typename T>
Status Assign(const JsonValue& v, std::vector<T>* out) {
  ONNXGATE_ASSIGN_OR_RETURN(JsonArray array, v.Array());
  std::vector<T> values(array.size());
  for (size_t i = 0; i < array.size(); ++i) ONNXGATE_RETURN_IF_ERROR(Assign(array[i], &values[i]));
  *out = std::move(values);
  return OkStatus();
}
Status Assign(const JsonValue& v, std::map<std::string, int64_t>* out) {
  ONNXGATE_ASSIGN_OR_RETURN(JsonObject object, v.Object());
  std::map<std::string, int64_t> values;
  ONNXGATE_RETURN_IF_ERROR(object.ForEachMember(
      [&](const std::string& key, const JsonValue& e) { return Assign(e, &values[key]); }));
  *out = std::move(values);
  return OkStatus();
}

}  // namespace

template <typename T>
Status JsonObject::ReadInto(std::string_view key, T* out, bool required) const {
  std::optional<JsonValue> member = Find(key);
  if (!member) return required ? Missing(key) : OkStatus();
  return Assign(*member, out);
}

template Status JsonObject::ReadInto(std::string_view, std::string*, bool) const;
template Status JsonObject::ReadInto(std::string_view, int64_t*, bool) const;
template Status JsonObject::ReadInto(std::string_view, int*, bool) const;
template Status JsonObject::ReadInto(std::string_view, double*, bool) const;
template Status JsonObject::ReadInto(std::string_view, bool*, bool) const;
template Status JsonObject::ReadInto(std::string_view, std::vector<std::string>*, bool) const;
template Status JsonObject::ReadInto(std::string_view, std::vector<int64_t>*, bool) const;
template Status JsonObject::ReadInto(std::string_view, std::vector<double>*, bool) const;
template Status JsonObject::ReadInto(std::string_view, std::map<std::string, int64_t>*, bool) const;

Status JsonObject::ReadInt(std::string_view key, int64_t min, int64_t max, int64_t* out,
                           bool required) const {
  std::optional<JsonValue> member = Find(key);
  if (!member) return required ? Missing(key) : OkStatus();
  ONNXGATE_ASSIGN_OR_RETURN(*out, member->Int(min, max));
  return OkStatus();
}

StatusOr<std::optional<JsonObject>> JsonObject::OptionalObject(std::string_view key) const {
  std::optional<JsonValue> member = Find(key);
  if (!member) return std::optional<JsonObject>();
  ONNXGATE_ASSIGN_OR_RETURN(JsonObject object, member->Object());
  return std::optional<JsonObject>(std::move(object));
}

StatusOr<JsonObject> JsonObject::RequiredObject(std::string_view key) const {
  ONNXGATE_ASSIGN_OR_RETURN(JsonValue member, Get(key));
  return member.Object();
}

StatusOr<JsonArray> JsonObject::OptionalArray(std::string_view key, size_t max_length) const {
  static const Json* const kEmpty = new Json(Json::array());
  std::optional<JsonValue> member = Find(key);
  if (!member) return JsonArray(value_.Member(std::string(key), *kEmpty));
  return member->Array(max_length);
}

StatusOr<JsonArray> JsonObject::RequiredArray(std::string_view key, size_t max_length) const {
  ONNXGATE_ASSIGN_OR_RETURN(JsonValue member, Get(key));
  return member.Array(max_length);
}

Status JsonObject::ForEachObject(std::string_view key,
                                 const std::function<Status(const JsonObject&)>& each) const {
  ONNXGATE_ASSIGN_OR_RETURN(JsonArray array, OptionalArray(key));
  return array.ForEachObject(each);
}

Status JsonObject::ForEachMember(
    const std::function<Status(const std::string&, const JsonValue&)>& each) const {
  for (auto it = value_.raw().begin(); it != value_.raw().end(); ++it) {
    ONNXGATE_RETURN_IF_ERROR(each(it.key(), value_.Member(it.key(), it.value())));
  }
  return OkStatus();
}

Status JsonObject::OnlyKeys(std::initializer_list<const char*> known) const {
  for (auto it = value_.raw().begin(); it != value_.raw().end(); ++it) {
    bool found = false;
    for (const char* k : known) found = found || it.key() == k;
    if (!found) {
      return value_.Member(it.key(), it.value())
          .Error("unknown field (expected " + JoinNames(std::vector<const char*>(known)) + ")");
    }
  }
  return OkStatus();
}

// ---- JsonDocument

StatusOr<JsonDocument> JsonDocument::ReadFile(const std::string& path, const std::string& what,
                                              JsonNull null) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string text, ReadRegularFile(path, kMaxJsonFileBytes, what));
  return Parse(text, path, null);
}

StatusOr<JsonDocument> JsonDocument::Parse(std::string_view text, const std::string& source,
                                           JsonNull null) {
  ONNXGATE_RETURN_IF_ERROR(CheckNestingDepth(text, NestingSyntax::kJson, kMaxJsonNesting, source));
  ONNXGATE_RETURN_IF_ERROR(CheckUtf8(text, source));
  auto doc = std::make_unique<Json>();
  try {
    *doc = Json::parse(text);
  } catch (const Json::exception& e) {
    return DataLoss(source + ": not valid JSON: " + e.what());
  } catch (const std::exception& e) {  // std::bad_alloc on a document too large for memory
    return DataLoss(source + ": cannot be parsed: " + e.what());
  }
  return JsonDocument(std::move(doc), std::make_shared<const JsonSource>(JsonSource{source, null}));
}

JsonValue JsonDocument::root() const { return JsonValue(doc_.get(), source_, ""); }

}  // namespace onnxgate
