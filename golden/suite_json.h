// suite.json files as the importer and `onnxgate record` write them: an existing file is read for
// a merge (one whose edits a rewrite would lose is refused), each writer rewrites only the keys it
// owns in a case entry and keeps every other key users added (tolerances, descriptions, their own
// tags), and the file is written through a temporary file and a rename.
//
// A writer holds LockSuiteJson from before ReadSuiteJsonForUpdate until after WriteSuiteJson, and
// writes the suite's goldens and model copies while it holds it: concurrent records and imports
// into one suite then serialize, and each merges into what the one before wrote.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runtime/base/file_lock.h"
#include "runtime/base/status.h"

namespace onnxgate {

using SuiteJson = nlohmann::ordered_json;

// suite.json's "format_version" as the writers write it.
inline constexpr int kSuiteFormatVersion = 1;

// The lock of the folder holding the suite.json at `path` (runtime/base/file_lock.h; the folder
// is created when missing). Unavailable when another writer holds it past kFolderLockWait.
StatusOr<FolderLock> LockSuiteJson(const std::string& path);

// The suite.json at `path` for a merge, or an empty object when there is none. InvalidArgument,
// naming the file, for one that is not a JSON object, whose "cases" is not an array of objects
// with a string "name", or that lists a case twice: nothing may be written over it then.
StatusOr<SuiteJson> ReadSuiteJsonForUpdate(const std::string& path);

// The cases of a suite.json read by ReadSuiteJsonForUpdate, by name.
std::map<std::string, SuiteJson> SuiteCasesByName(const SuiteJson& suite);

// `fresh` (the keys a writer owns) followed by what users added to `old`: its other keys in their
// order, and its tags that are not among `writer_tags` after the writer's own.
SuiteJson MergeCaseEntry(SuiteJson fresh, const SuiteJson& old,
                         const std::vector<std::string>& writer_keys,
                         const std::vector<std::string>& writer_tags);

// Writes `suite` to `path` atomically, two-space indented, with invalid UTF-8 replaced.
Status WriteSuiteJson(const std::string& path, const SuiteJson& suite);

}  // namespace onnxgate
