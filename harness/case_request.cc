// CaseRequest <-> one JSON object.
#include "harness/case_request.h"

#include <nlohmann/json.hpp>

namespace onnxgate {

namespace {
using Json = nlohmann::json;

Status Field(const Json& j, const char* key, Json::value_t type, const char* type_name) {
  auto it = j.find(key);
  if (it == j.end()) return InvalidArgument(std::string("case request: no \"") + key + "\"");
  const bool number = type == Json::value_t::number_unsigned && it->is_number_integer();
  if (it->type() != type && !number) {
    return InvalidArgument(std::string("case request: \"") + key + "\" is not " + type_name);
  }
  return OkStatus();
}
}  // namespace

std::string EncodeCaseRequest(const CaseRequest& request) {
  return Json{{"suite", request.suite},
              {"case", request.case_name},
              {"runtime", request.runtime},
              {"ep", request.ep}}
      .dump();
}

StatusOr<CaseRequest> DecodeCaseRequest(const std::string& text) {
  const Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return InvalidArgument("case request: not a JSON object");
  for (const char* key : {"suite", "case", "ep"}) {
    ONNXGATE_RETURN_IF_ERROR(Field(j, key, Json::value_t::string, "a string"));
  }
  ONNXGATE_RETURN_IF_ERROR(Field(j, "runtime", Json::value_t::number_unsigned, "an integer"));
  if (j["runtime"].get<int64_t>() < 0) {
    return InvalidArgument("case request: \"runtime\" is negative");
  }
  CaseRequest request;
  request.suite = j["suite"].get<std::string>();
  request.case_name = j["case"].get<std::string>();
  request.runtime = j["runtime"].get<size_t>();
  request.ep = j["ep"].get<std::string>();
  return request;
}

}  // namespace onnxgate
