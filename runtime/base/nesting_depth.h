// Bracket nesting limits for the text formats onnxgate reads (JSON files, ONNX text models).
// Their parsers recurse or keep a frame per level: a file nested 100,000 deep would exhaust the
// stack or memory of the process reading it. The check runs over the raw text before any parse,
// costs one pass and allocates nothing.
#pragma once

#include <string>
#include <string_view>

#include "runtime/base/status.h"

namespace onnxgate {

enum class NestingSyntax {
  kJson,      // strings are "..." with backslash escapes
  kOnnxText,  // as JSON, and '#' starts a comment that runs to the end of the line
};

// Deep enough for any real suite, expectation, tolerance or baseline file.
inline constexpr int kMaxJsonNesting = 64;
// An If or Loop body costs a few levels; 256 allows dozens of nested subgraphs.
inline constexpr int kMaxOnnxTextNesting = 256;

// InvalidArgument naming `source` and the line when '[', '{' or '(' (outside strings and
// comments) nest deeper than `max_depth`. Unbalanced brackets are left to the parser.
Status CheckNestingDepth(std::string_view text, NestingSyntax syntax, int max_depth,
                         const std::string& source);

}  // namespace onnxgate
