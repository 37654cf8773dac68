// Status and StatusOr<T>: recoverable errors as values, with a few codes of fixed meaning.
#pragma once

#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace onnxgate {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  // the input is malformed or violates a rule
  kDataLoss,         // a file is truncated, corrupt or inconsistent with itself
  kNotFound,         // a file, object or name does not exist
  kUnimplemented,    // valid input that this runtime does not support
  kUnavailable,      // a device or service is not there right now
  kInternal,         // an invariant broke; a bug
  kAborted,          // the runtime's own process died or was killed mid-request (an adapter)
};

// The one pair that carries a status code across a process or ABI boundary (worker results,
// bench isolation, the adapter protocol, the plugin ABI): by name, never by number.
// StatusCodeFromName("INTERNAL") == kInternal; an unknown name (or "OK") gives nullopt, and the
// caller decides what an unknown code means on its side of the boundary.
const char* StatusCodeName(StatusCode code);
std::optional<StatusCode> StatusCodeFromName(std::string_view name);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "CODE: message", or "OK".
  std::string ToString() const;
  // Returns a copy with "context: " in front of the message.
  Status WithContext(const std::string& context) const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status OkStatus() { return Status(); }
inline Status InvalidArgument(std::string m) {
  return {StatusCode::kInvalidArgument, std::move(m)};
}
inline Status DataLoss(std::string m) { return {StatusCode::kDataLoss, std::move(m)}; }
inline Status NotFound(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
inline Status Unimplemented(std::string m) { return {StatusCode::kUnimplemented, std::move(m)}; }
inline Status Unavailable(std::string m) { return {StatusCode::kUnavailable, std::move(m)}; }
inline Status Internal(std::string m) { return {StatusCode::kInternal, std::move(m)}; }
inline Status Aborted(std::string m) { return {StatusCode::kAborted, std::move(m)}; }

template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(Status status) : status_(std::move(status)) {  // NOLINT: implicit by design
    if (status_.ok()) status_ = Internal("StatusOr constructed from an OK status without a value");
  }
  StatusOr(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  T& value() & {
    CheckOk();
    return *value_;
  }
  const T& value() const& {
    CheckOk();
    return *value_;
  }
  T&& value() && {
    CheckOk();
    return std::move(*value_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  void CheckOk() const {
    if (!status_.ok()) {
      std::cerr << "StatusOr::value() on error: " << status_.ToString() << "\n";
      std::abort();
    }
  }
  Status status_;
  std::optional<T> value_;
};

}  // namespace onnxgate

#define ONNXGATE_CONCAT_INNER(a, b) a##b
#define ONNXGATE_CONCAT(a, b) ONNXGATE_CONCAT_INNER(a, b)

// Returns the status from the enclosing function when `expr` is not OK.
#define ONNXGATE_RETURN_IF_ERROR(expr)                   \
  do {                                                   \
    ::onnxgate::Status _onnxgate_status = (expr);        \
    if (!_onnxgate_status.ok()) return _onnxgate_status; \
  } while (0)

// `ONNXGATE_ASSIGN_OR_RETURN(auto x, StatusOrExpr)`: declares x from the value or returns the
// error.
#define ONNXGATE_ASSIGN_OR_RETURN(lhs, expr) \
  ONNXGATE_ASSIGN_OR_RETURN_IMPL(ONNXGATE_CONCAT(_onnxgate_statusor_, __LINE__), lhs, expr)
#define ONNXGATE_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                   \
  if (!tmp.ok()) return tmp.status();                  \
  lhs = std::move(tmp).value()
