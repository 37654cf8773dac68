// PostgreSQL connection URLs as the history store takes them: which locations are one, and the
// URL as errors and reports show it, without its password.
#pragma once

#include <string>

namespace onnxgate {

// True for "postgresql://..." and "postgres://...".
bool IsPostgresUrl(const std::string& location);

// The URL without its password: "postgresql://user:secret@host/db?password=x&sslmode=require"
// -> "postgresql://user@host/db?sslmode=require". Anything else is returned unchanged.
std::string RedactPostgresUrl(const std::string& url);

}  // namespace onnxgate
