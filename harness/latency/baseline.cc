// Baseline files: JSON rendering and parsing, the fingerprint check, merging and atomic writes.
#include "harness/latency/baseline.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <tuple>

#include "runtime/api/runtime.h"
#include "runtime/base/atomic_file.h"
#include "runtime/base/contained_file.h"
#include "runtime/base/file_lock.h"
#include "runtime/base/json_reader.h"
#include "runtime/base/safe_name.h"

namespace onnxgate {

using Json = nlohmann::json;

namespace {

void SortEntries(std::vector<BaselineEntry>* entries) {
  std::stable_sort(
      entries->begin(), entries->end(), [](const BaselineEntry& a, const BaselineEntry& b) {
        return std::tie(a.model, a.threads, a.shapes) < std::tie(b.model, b.threads, b.shapes);
      });
}

bool SameKey(const BaselineEntry& a, const BaselineEntry& b) {
  return a.model == b.model && a.threads == b.threads && a.shapes == b.shapes;
}

Json EntryJson(const BaselineEntry& e) {
  Json j;
  j["model"] = e.model;
  j["threads"] = e.threads;
  j["shapes"] = e.shapes;
  j["model_sha256"] = e.model_sha256;
  j["iterations_per_repetition"] = e.iterations_per_repetition;
  j["samples_ms"] = e.samples_ms;
  j["median_ms"] = e.median_ms;
  j["min_ms"] = e.min_ms;
  j["p90_ms"] = e.p90_ms;
  j["p99_ms"] = e.p99_ms;
  j["mean_ms"] = e.mean_ms;
  j["cv"] = e.cv;
  if (e.load_ms) j["load_ms"] = *e.load_ms;
  if (e.first_run_ms) j["first_run_ms"] = *e.first_run_ms;
  j["recorded"] = e.recorded;
  return j;
}

std::string FormatSample(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// `version` is the file's format_version: version 1 had no shapes, so every entry is "".
Status ParseEntry(const JsonObject& o, int64_t version, BaselineEntry* e) {
  ONNXGATE_RETURN_IF_ERROR(o.Require("model", &e->model));
  ONNXGATE_RETURN_IF_ERROR(o.Require("threads", &e->threads));
  if (version >= 2) ONNXGATE_RETURN_IF_ERROR(o.Read("shapes", &e->shapes));
  ONNXGATE_RETURN_IF_ERROR(o.Read("model_sha256", &e->model_sha256));
  ONNXGATE_RETURN_IF_ERROR(o.Read("iterations_per_repetition", &e->iterations_per_repetition));
  if (e->threads < 1 || e->threads > kMaxBaselineThreads) {
    return o.FieldError("threads", "must be between 1 and " + std::to_string(kMaxBaselineThreads) +
                                       ", got " + std::to_string(e->threads));
  }
  ONNXGATE_ASSIGN_OR_RETURN(JsonArray samples, o.RequiredArray("samples_ms"));
  ONNXGATE_RETURN_IF_ERROR(o.Require("samples_ms", &e->samples_ms));
  // Nonsense samples would decide every later comparison: a zero or negative time makes any
  // run a regression, a huge one hides every regression.
  if (e->samples_ms.size() < kMinBaselineSamples || e->samples_ms.size() > kMaxBaselineSamples) {
    return o.FieldError("samples_ms", "must hold between " + std::to_string(kMinBaselineSamples) +
                                          " and " + std::to_string(kMaxBaselineSamples) +
                                          " samples, got " + std::to_string(e->samples_ms.size()));
  }
  for (size_t i = 0; i < e->samples_ms.size(); ++i) {
    const double v = e->samples_ms[i];
    if (!(v > 0 && v <= kMaxBaselineSampleMs)) {
      return samples[i].Error("a time must be in (0, " + FormatSample(kMaxBaselineSampleMs) +
                              "] ms, got " + FormatSample(v));
    }
  }
  for (auto [key, out] : {std::pair{"median_ms", &e->median_ms}, std::pair{"min_ms", &e->min_ms},
                          std::pair{"p90_ms", &e->p90_ms}, std::pair{"p99_ms", &e->p99_ms},
                          std::pair{"mean_ms", &e->mean_ms}, std::pair{"cv", &e->cv}}) {
    ONNXGATE_RETURN_IF_ERROR(o.Read(key, out));
  }
  ONNXGATE_RETURN_IF_ERROR(o.Read("load_ms", &e->load_ms));
  ONNXGATE_RETURN_IF_ERROR(o.Read("first_run_ms", &e->first_run_ms));
  return o.Read("recorded", &e->recorded);
}

}  // namespace

const BaselineEntry* BaselineFile::Find(const std::string& model, int64_t threads,
                                        const std::string& shapes) const {
  for (const BaselineEntry& e : entries) {
    if (e.model == model && e.threads == threads && e.shapes == shapes) return &e;
  }
  return nullptr;
}

std::vector<const BaselineEntry*> BaselineFile::EntriesOf(const std::string& model) const {
  std::vector<const BaselineEntry*> found;
  for (const BaselineEntry& e : entries) {
    if (e.model == model) found.push_back(&e);
  }
  return found;
}

std::string DescribeConfiguration(int64_t threads, const std::string& shapes) {
  std::string text = std::to_string(threads) + " thread(s)";
  if (!shapes.empty()) text += ", shapes " + shapes;
  return text;
}

StatusOr<std::string> BaselinePath(const std::string& baselines_dir,
                                   const MachineFingerprint& fingerprint, const std::string& ep) {
  // The fingerprint id is a slug of this machine's own description: letters, digits, '-', '_'.
  ONNXGATE_RETURN_IF_ERROR(CheckSafeName("EP", ep).WithContext(
      "not writing a latency baseline under " + baselines_dir + " named after its EP"));
  return baselines_dir + "/" + fingerprint.Id() + "/" + ep + ".json";
}

std::string RenderBaselineJson(const BaselineFile& file) {
  std::vector<BaselineEntry> entries = file.entries;
  SortEntries(&entries);
  Json j;
  j["format"] = kBaselineFormat;
  j["format_version"] = kBaselineFormatVersion;
  j["fingerprint"] = {{"id", file.fingerprint.Id()},
                      {"cpu_model", file.fingerprint.cpu_model},
                      {"logical_cores", file.fingerprint.logical_cores},
                      {"build_type", file.fingerprint.build_type}};
  j["runtime"] = file.runtime;
  j["ep"] = file.ep;
  j["clock"] = file.clock;
  j["optimization_level"] = file.optimization_level;
  j["tool_version"] = file.tool_version;
  j["updated"] = file.updated;
  Json list = Json::array();
  for (const BaselineEntry& e : entries) list.push_back(EntryJson(e));
  j["entries"] = list;
  return j.dump(2) + "\n";
}

StatusOr<BaselineFile> ParseBaselineJson(const std::string& text, const std::string& source) {
  ONNXGATE_ASSIGN_OR_RETURN(JsonDocument doc,
                            JsonDocument::Parse(text, source, JsonNull::kIsAbsent));
  ONNXGATE_ASSIGN_OR_RETURN(JsonObject o, doc.RootObject());
  ONNXGATE_ASSIGN_OR_RETURN(JsonValue format, o.Get("format"));
  if (format.raw() != kBaselineFormat) {
    return format.TypeError("\"" + std::string(kBaselineFormat) + "\"");
  }
  int64_t version = 0;
  ONNXGATE_RETURN_IF_ERROR(o.Require("format_version", &version));
  if (version > kBaselineFormatVersion || version < 1) {
    return Unimplemented(source + ": format_version " + std::to_string(version) +
                         " is not supported (this onnxgate reads up to " +
                         std::to_string(kBaselineFormatVersion) + ")");
  }
  BaselineFile file;
  ONNXGATE_ASSIGN_OR_RETURN(JsonObject fp, o.RequiredObject("fingerprint"));
  ONNXGATE_RETURN_IF_ERROR(fp.Require("cpu_model", &file.fingerprint.cpu_model));
  ONNXGATE_RETURN_IF_ERROR(fp.Require("logical_cores", &file.fingerprint.logical_cores));
  ONNXGATE_RETURN_IF_ERROR(fp.Require("build_type", &file.fingerprint.build_type));
  ONNXGATE_RETURN_IF_ERROR(o.Read("runtime", &file.runtime));
  ONNXGATE_RETURN_IF_ERROR(o.Require("ep", &file.ep));
  ONNXGATE_RETURN_IF_ERROR(o.Require("clock", &file.clock));
  ONNXGATE_RETURN_IF_ERROR(o.Read("optimization_level", &file.optimization_level));
  if (file.optimization_level < 0 || file.optimization_level > kMaxOptimizationLevel) {
    return InvalidArgument(source + ": optimization_level must be 0 to " +
                           std::to_string(kMaxOptimizationLevel) + ", got " +
                           std::to_string(file.optimization_level));
  }
  ONNXGATE_RETURN_IF_ERROR(o.Read("tool_version", &file.tool_version));
  ONNXGATE_RETURN_IF_ERROR(o.Read("updated", &file.updated));
  ONNXGATE_ASSIGN_OR_RETURN(JsonArray entries, o.RequiredArray("entries"));
  ONNXGATE_RETURN_IF_ERROR(entries.ForEachObject([&](const JsonObject& e) {
    file.entries.emplace_back();
    ONNXGATE_RETURN_IF_ERROR(ParseEntry(e, version, &file.entries.back()));
    const BaselineEntry& added = file.entries.back();
    for (size_t i = 0; i + 1 < file.entries.size(); ++i) {
      if (SameKey(file.entries[i], added)) {
        return e.Error("a second entry for model '" + added.model + "' at " +
                       DescribeConfiguration(added.threads, added.shapes) +
                       "; which one would be compared is undefined");
      }
    }
    return OkStatus();
  }));
  return file;
}

StatusOr<BaselineFile> ReadBaseline(const std::string& path) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string text,
                            ReadRegularFile(path, kMaxJsonFileBytes, "baseline file"));
  return ParseBaselineJson(text, path);
}

Status WriteBaseline(const BaselineFile& file, const std::string& path) {
  Status st = WriteFileAtomically(path, RenderBaselineJson(file));
  if (!st.ok()) return st.WithContext("writing latency baseline " + path);
  return OkStatus();
}

StatusOr<BaselineFile> UpdateBaselineFile(const std::string& path, const BaselineFile& header,
                                          const std::vector<BaselineEntry>& fresh) {
  ONNXGATE_ASSIGN_OR_RETURN(FolderLock lock, LockFolderOf(path));
  BaselineFile file = header;
  StatusOr<BaselineFile> current = ReadBaseline(path);
  if (current.ok()) {
    ONNXGATE_RETURN_IF_ERROR(CheckBaselineApplies(*current, path, header.fingerprint,
                                                  header.runtime, header.ep, header.clock,
                                                  header.optimization_level));
    file = std::move(current).value();
  } else if (current.status().code() != StatusCode::kNotFound) {
    return current.status();
  }
  MergeBaselineEntries(&file, fresh);
  file.tool_version = header.tool_version;
  file.updated = header.updated;
  ONNXGATE_RETURN_IF_ERROR(WriteBaseline(file, path));
  return file;
}

Status CheckBaselineApplies(const BaselineFile& file, const std::string& path,
                            const MachineFingerprint& current, const std::string& runtime,
                            const std::string& ep, const std::string& clock,
                            int64_t optimization_level) {
  if (file.fingerprint != current) {
    return InvalidArgument("refusing to compare with baseline " + path +
                           ": it was recorded on another machine fingerprint. Baseline: " +
                           file.fingerprint.Id() + " (" + file.fingerprint.Describe() +
                           "); this machine: " + current.Id() + " (" + current.Describe() +
                           "). Latency from another CPU, core count or build type says nothing "
                           "about this one; record a baseline here with `onnxgate baseline "
                           "update`");
  }
  if (file.runtime != runtime) {
    return InvalidArgument("refusing to compare with baseline " + path + ": it holds runtime '" +
                           file.runtime + "', the run measures runtime '" + runtime + "'");
  }
  if (file.ep != ep) {
    return InvalidArgument("refusing to compare with baseline " + path + ": it holds EP '" +
                           file.ep + "', the run measures EP '" + ep + "'");
  }
  if (file.clock != clock) {
    return InvalidArgument("refusing to compare with baseline " + path + ": its samples are " +
                           file.clock + " time, the run measures " + clock + " time");
  }
  if (file.optimization_level != optimization_level) {
    return InvalidArgument("refusing to compare with baseline " + path +
                           ": it was measured at graph optimization level " +
                           std::to_string(file.optimization_level) + ", the run loads models at " +
                           std::to_string(optimization_level) +
                           " (keep one baseline file per level with --baseline)");
  }
  return OkStatus();
}

void MergeBaselineEntries(BaselineFile* into, const std::vector<BaselineEntry>& fresh) {
  for (const BaselineEntry& e : fresh) {
    auto it = std::find_if(into->entries.begin(), into->entries.end(),
                           [&](const BaselineEntry& o) { return SameKey(o, e); });
    if (it != into->entries.end()) {
      *it = e;
    } else {
      into->entries.push_back(e);
    }
  }
  SortEntries(&into->entries);
}

}  // namespace onnxgate
