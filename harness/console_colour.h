// Colour on the console: verdict words and the "Result:" line in ANSI colours, only when the
// stream is a terminal and the user has not asked for none (https://no-color.org: NO_COLOR set
// to anything but the empty string). Never into files or pipes, so logs and reports stay plain.
#pragma once

#include <cstdio>
#include <string>

#include "reports/records.h"

namespace onnxgate {

// Whether text for `stream` is coloured: it is a terminal and NO_COLOR is unset or empty.
bool ColourWanted(std::FILE* stream);

// The colour of a verdict: green for what met expectations (PASS, XFAIL), red for what fails a
// gate (FAIL, CRASH, TIMEOUT, UNRESOLVED, XPASS), yellow for the rest (UNSUPPORTED, SKIP).
enum class Colour { kNone, kGreen, kRed, kYellow };
Colour VerdictColour(Verdict verdict);

// `text` wrapped in the colour's escape sequence and a reset; `text` itself when `colour` is
// false or the colour kNone.
std::string Coloured(const std::string& text, Colour c, bool colour);

// The verdict's name, coloured when `colour`, padded with spaces to at least `width`
// characters of visible text.
std::string VerdictWord(Verdict verdict, bool colour, size_t width = 0);

}  // namespace onnxgate
