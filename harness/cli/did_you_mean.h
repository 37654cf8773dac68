// "Did you mean ...?" for a command line the parser refused: a mistyped subcommand
// (`onnxgate gaet`) or option (`gate --isolaton worker`) gets the nearest name that exists, when
// one is near enough to be a typo.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace onnxgate {

// The name in `names` nearest to `word` by edit distance (insertions, deletions, substitutions
// and swaps of neighbours), when it is at most 2 edits away and fewer edits than half of `word`'s
// length; "" when none is.
std::string NearestName(const std::string& word, const std::vector<std::string>& names);

// One line per word of `args` (the command line without the program) that names no subcommand
// or option of `app` where it stands and has a near one: "did you mean 'gate'?"; "" when none.
std::string DidYouMean(CLI::App& app, const std::vector<std::string>& args);

}  // namespace onnxgate
