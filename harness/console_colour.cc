// ANSI colour for the console when the stream is a terminal and NO_COLOR does not forbid it.
#include "harness/console_colour.h"

#include <unistd.h>

#include <cstdlib>

namespace onnxgate {

bool ColourWanted(std::FILE* stream) {
  const char* no_colour = std::getenv("NO_COLOR");
  if (no_colour != nullptr && no_colour[0] != '\0') return false;
  return stream != nullptr && isatty(fileno(stream)) == 1;
}

Colour VerdictColour(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPass:
    case Verdict::kXfail: return Colour::kGreen;
    case Verdict::kUnsupported:
    case Verdict::kSkip: return Colour::kYellow;
    case Verdict::kFail:
    case Verdict::kUnresolved:
    case Verdict::kCrash:
    case Verdict::kTimeout:
    case Verdict::kXpass: return Colour::kRed;
  }
  return Colour::kNone;
}

std::string Coloured(const std::string& text, Colour c, bool colour) {
  if (!colour) return text;
  switch (c) {
    case Colour::kGreen: return "\033[32m" + text + "\033[0m";
    case Colour::kRed: return "\033[1;31m" + text + "\033[0m";
    case Colour::kYellow: return "\033[33m" + text + "\033[0m";
    case Colour::kNone: break;
  }
  return text;
}

std::string VerdictWord(Verdict verdict, bool colour, size_t width) {
  const std::string name = VerdictToString(verdict);
  const std::string pad = name.size() < width ? std::string(width - name.size(), ' ') : "";
  return Coloured(name, VerdictColour(verdict), colour) + pad;
}

}  // namespace onnxgate
