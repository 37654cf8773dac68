// Reading, merging and writing suite.json (see suite_json.h).
#include "golden/suite_json.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "runtime/base/atomic_file.h"
#include "runtime/base/contained_file.h"
#include "runtime/base/json_reader.h"

namespace onnxgate {

namespace {

bool Contains(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

}  // namespace

StatusOr<FolderLock> LockSuiteJson(const std::string& path) { return LockFolderOf(path); }

StatusOr<SuiteJson> ReadSuiteJsonForUpdate(const std::string& path) {
  StatusOr<std::string> text = ReadRegularFile(path, kMaxJsonFileBytes, "suite file");
  if (!text.ok() && text.status().code() == StatusCode::kNotFound) return SuiteJson::object();
  if (!text.ok()) return text.status();
  const std::string keep =
      "; fix or remove it before writing to the suite, so that its edits are not lost";
  // The one reader checks the file; the merge then keeps its keys in their order (ordered_json).
  Status checked = [&]() -> Status {
    ONNXGATE_ASSIGN_OR_RETURN(JsonDocument doc, JsonDocument::Parse(*text, path));
    ONNXGATE_ASSIGN_OR_RETURN(JsonObject root, doc.RootObject());
    std::set<std::string> names;
    return root.ForEachObject("cases", [&](const JsonObject& c) -> Status {
      std::string name;
      ONNXGATE_RETURN_IF_ERROR(c.Require("name", &name));
      if (!names.insert(name).second) return c.Error("case '" + name + "' is listed twice");
      return OkStatus();
    });
  }();
  if (!checked.ok()) return InvalidArgument(checked.message() + keep);
  SuiteJson j = SuiteJson::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return InvalidArgument(path + ": not valid JSON" + keep);
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
