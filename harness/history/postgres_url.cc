// PostgreSQL URLs: recognizing them and taking their password out.
#include "harness/history/postgres_url.h"

namespace onnxgate {
namespace {

bool StartsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// "a=1&password=x&b=2" -> "a=1&b=2".
std::string WithoutPasswordParameter(const std::string& query) {
  std::string kept;
  size_t start = 0;
  while (start <= query.size()) {
    size_t end = query.find('&', start);
    if (end == std::string::npos) end = query.size();
    const std::string parameter = query.substr(start, end - start);
    if (!parameter.empty() && !StartsWith(parameter, "password=")) {
      if (!kept.empty()) kept += '&';
      kept += parameter;
    }
    start = end + 1;
  }
  return kept;
}

}  // namespace

bool IsPostgresUrl(const std::string& location) {
  return StartsWith(location, "postgresql://") || StartsWith(location, "postgres://");
}

std::string RedactPostgresUrl(const std::string& url) {
  if (!IsPostgresUrl(url)) return url;
  const size_t authority = url.find("://") + 3;
  std::string out = url;
  // The credentials end at the first '@' before any '/', as libpq reads them.
  const size_t at = out.find_first_of("@/", authority);
  if (at != std::string::npos && out[at] == '@') {
    const size_t colon = out.find(':', authority);
    if (colon != std::string::npos && colon < at) out.erase(colon, at - colon);
  }
  const size_t question = out.find('?', authority);
  if (question != std::string::npos) {
    const std::string query = WithoutPasswordParameter(out.substr(question + 1));
    out.erase(question);
    if (!query.empty()) out += "?" + query;
  }
  return out;
}

}  // namespace onnxgate
