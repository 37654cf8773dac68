// NearestName (optimal string alignment distance) and the suggestions for a refused command line.
#include "harness/cli/did_you_mean.h"

#include <algorithm>

namespace onnxgate {

namespace {

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

std::vector<std::string> SubcommandNames(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    names.push_back(sub->get_name());
  }
  return names;
}

std::vector<std::string> LongOptionNames(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* a = &app; a != nullptr; a = a->get_parent()) {
    for (const CLI::Option* o : a->get_options()) {
      for (const std::string& l : o->get_lnames()) names.push_back("--" + l);
    }
  }
  return names;
}

std::string Suggestion(const std::string& word, const std::vector<std::string>& names) {
  const std::string near = NearestName(word, names);
  return near.empty() ? "" : "did you mean '" + near + "' for '" + word + "'?\n";
}

}  // namespace

std::string NearestName(const std::string& word, const std::vector<std::string>& names) {
  std::string best;
  size_t best_distance = 3;
  for (const std::string& name : names) {
    const size_t d = EditDistance(word, name);
    if (d < best_distance && 2 * d < word.size()) {
      best = name;
      best_distance = d;
    }
  }
  return best;
}

std::string DidYouMean(CLI::App& app, const std::vector<std::string>& args) {
  CLI::App* at = &app;
  std::string out;
  for (const std::string& arg : args) {
    if (arg.rfind("--", 0) == 0) {
      const std::string name = arg.substr(0, arg.find('='));
      const std::vector<std::string> known = LongOptionNames(*at);
      if (std::find(known.begin(), known.end(), name) == known.end()) {
        out += Suggestion(name, known);
      }
      continue;
    }
    if (arg.empty() || arg[0] == '-') continue;
    const std::vector<std::string> subs = SubcommandNames(*at);
    if (std::find(subs.begin(), subs.end(), arg) != subs.end()) {
      at = at->get_subcommand(arg);
    } else if (at->get_require_subcommand_min() > 0 && !subs.empty()) {
      out += Suggestion(arg, subs);
      break;  // what follows belongs to a subcommand that was not named
    }
  }
  return out;
}

}  // namespace onnxgate
