// One pass over the text, tracking only string, escape and comment state and the depth.
#include "runtime/base/nesting_depth.h"

namespace onnxgate {

Status CheckNestingDepth(std::string_view text, NestingSyntax syntax, int max_depth,
                         const std::string& source) {
  int depth = 0;
  int line = 1;
  bool in_string = false, escaped = false, in_comment = false;
  for (char c : text) {
    if (c == '\n') {
      ++line;
      in_comment = false;
    }
    if (in_comment) continue;
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"': in_string = true; break;
      case '#': in_comment = syntax == NestingSyntax::kOnnxText; break;
      case '[':
      case '{':
      case '(':
        if (++depth > max_depth) {
          return InvalidArgument(source + ": brackets nest deeper than " +
                                 std::to_string(max_depth) + " levels (line " +
                                 std::to_string(line) + "); refusing to parse it");
        }
        break;
      case ']':
      case '}':
      case ')':
        if (depth > 0) --depth;
        break;
      default: break;
    }
  }
  return OkStatus();
}

}  // namespace onnxgate
