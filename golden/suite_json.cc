// Reading, merging and writing suite.json (see suite_json.h).
#include "golden/suite_json.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "runtime/base/atomic_file.h"

namespace onnxgate {

namespace {

bool Contains(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

}  // namespace

StatusOr<FolderLock> LockSuiteJson(const std::string& path) { return LockFolderOf(path); }

StatusOr<SuiteJson> ReadSuiteJsonForUpdate(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return SuiteJson::object();
  ONNXGATE_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  SuiteJson j = SuiteJson::parse(text, nullptr, /*allow_exceptions=*/false);
  const std::string keep =
      "; fix or remove it before writing to the suite, so that its edits "
      "are not lost";
  if (j.is_discarded()) return InvalidArgument(path + ": not valid JSON" + keep);
  if (!j.is_object()) return InvalidArgument(path + ": must hold a JSON object" + keep);
  auto cases = j.find("cases");
  if (cases != j.end() && !cases->is_array()) {
    return InvalidArgument(path + ": 'cases' must be an array" + keep);
  }
  if (cases != j.end()) {
    std::set<std::string> names;
    for (const SuiteJson& c : *cases) {
      auto name = c.is_object() ? c.find("name") : c.end();
      if (!c.is_object() || name == c.end() || !name->is_string()) {
        return InvalidArgument(path +
                               ": every entry of 'cases' must be an object with a string "
                               "'name'" +
                               keep);
      }
      if (!names.insert(name->get<std::string>()).second) {
        return InvalidArgument(path + ": case '" + name->get<std::string>() + "' is listed twice" +
                               keep);
      }
    }
  }
  return j;
}

std::map<std::string, SuiteJson> SuiteCasesByName(const SuiteJson& suite) {
  std::map<std::string, SuiteJson> cases;
  if (auto it = suite.find("cases"); it != suite.end() && it->is_array()) {
    for (const SuiteJson& c : *it) cases[c["name"].get<std::string>()] = c;
  }
  return cases;
}

SuiteJson MergeCaseEntry(SuiteJson fresh, const SuiteJson& old,
                         const std::vector<std::string>& writer_keys,
                         const std::vector<std::string>& writer_tags) {
  SuiteJson& tags = fresh["tags"];
  if (!tags.is_array()) tags = SuiteJson::array();
  if (auto it = old.find("tags"); it != old.end() && it->is_array()) {
    for (const SuiteJson& t : *it) {
      const bool writers = t.is_string() && Contains(writer_tags, t.get<std::string>());
      if (!writers && std::find(tags.begin(), tags.end(), t) == tags.end()) tags.push_back(t);
    }
  }
  for (const auto& [key, value] : old.items()) {
    if (!Contains(writer_keys, key) && key != "tags") fresh[key] = value;
  }
  return fresh;
}

Status WriteSuiteJson(const std::string& path, const SuiteJson& suite) {
  return WriteFileAtomically(path,
                             suite.dump(2, ' ', false, SuiteJson::error_handler_t::replace) + "\n");
}

}  // namespace onnxgate
