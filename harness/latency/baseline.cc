// Baseline files: JSON rendering and parsing, the fingerprint check, merging and atomic writes.
#include "harness/latency/baseline.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <tuple>

#include "harness/latency/json_fields.h"
#include "runtime/api/runtime.h"
#include "runtime/base/atomic_file.h"
#include "runtime/base/contained_file.h"
#include "runtime/base/file_lock.h"
#include "runtime/base/safe_name.h"

namespace onnxgate {

using latency_json::Json;
using latency_json::Object;

namespace {

void SortEntries(std::vector<BaselineEntry>* entries) {
  std::stable_sort(entries->begin(), entries->end(),
                   [](const BaselineEntry& a, const BaselineEntry& b) {
                     return std::tie(a.model, a.threads) < std::tie(b.model, b.threads);
                   });
}

Json EntryJson(const BaselineEntry& e) {
  Json j;
  j["model"] = e.model;
  j["threads"] = e.threads;
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

Status ParseEntry(const Json& j, const std::string& source, const std::string& path,
                  BaselineEntry* e) {
  ONNXGATE_ASSIGN_OR_RETURN(Object o, Object::Of(j, source, path));
  ONNXGATE_RETURN_IF_ERROR(o.String("model", &e->model));
  ONNXGATE_RETURN_IF_ERROR(o.Int("threads", &e->threads));
  ONNXGATE_RETURN_IF_ERROR(o.String("model_sha256", &e->model_sha256, false));
  ONNXGATE_RETURN_IF_ERROR(
      o.Int("iterations_per_repetition", &e->iterations_per_repetition, false));
  if (e->threads < 1 || e->threads > kMaxBaselineThreads) {
    return InvalidArgument(source + ": " + path + ".threads: must be between 1 and " +
                           std::to_string(kMaxBaselineThreads) + ", got " +
                           std::to_string(e->threads));
  }
  ONNXGATE_RETURN_IF_ERROR(o.Numbers("samples_ms", &e->samples_ms));
  // Nonsense samples would decide every later comparison: a zero or negative time makes any
  // run a regression, a huge one hides every regression.
  if (e->samples_ms.size() < kMinBaselineSamples || e->samples_ms.size() > kMaxBaselineSamples) {
    return InvalidArgument(source + ": " + path + ".samples_ms: must hold between " +
                           std::to_string(kMinBaselineSamples) + " and " +
                           std::to_string(kMaxBaselineSamples) + " samples, got " +
                           std::to_string(e->samples_ms.size()));
  }
  for (size_t i = 0; i < e->samples_ms.size(); ++i) {
    const double v = e->samples_ms[i];
    if (!(v > 0 && v <= kMaxBaselineSampleMs)) {
      return InvalidArgument(source + ": " + path + ".samples_ms[" + std::to_string(i) +
                             "]: a time must be in (0, " + FormatSample(kMaxBaselineSampleMs) +
                             "] ms, got " + FormatSample(v));
    }
  }
  ONNXGATE_RETURN_IF_ERROR(o.Number("median_ms", &e->median_ms, false));
  ONNXGATE_RETURN_IF_ERROR(o.Number("min_ms", &e->min_ms, false));
  ONNXGATE_RETURN_IF_ERROR(o.Number("p90_ms", &e->p90_ms, false));
  ONNXGATE_RETURN_IF_ERROR(o.Number("p99_ms", &e->p99_ms, false));
  ONNXGATE_RETURN_IF_ERROR(o.Number("mean_ms", &e->mean_ms, false));
  ONNXGATE_RETURN_IF_ERROR(o.Number("cv", &e->cv, false));
  ONNXGATE_RETURN_IF_ERROR(o.OptionalNumber("load_ms", &e->load_ms));
  ONNXGATE_RETURN_IF_ERROR(o.OptionalNumber("first_run_ms", &e->first_run_ms));
  return o.String("recorded", &e->recorded, false);
}

}  // namespace

const BaselineEntry* BaselineFile::Find(const std::string& model, int64_t threads) const {
  for (const BaselineEntry& e : entries) {
    if (e.model == model && e.threads == threads) return &e;
  }
  return nullptr;
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
  ONNXGATE_ASSIGN_OR_RETURN(Json doc, latency_json::Parse(text, source));
  ONNXGATE_ASSIGN_OR_RETURN(Object o, Object::Of(doc, source, ""));
  std::string format;
  ONNXGATE_RETURN_IF_ERROR(o.String("format", &format));
  if (format != kBaselineFormat) {
    return InvalidArgument(source + ": format: expected \"" + std::string(kBaselineFormat) +
                           "\", got \"" + format + "\"");
  }
  int64_t version = 0;
  ONNXGATE_RETURN_IF_ERROR(o.Int("format_version", &version));
  if (version > kBaselineFormatVersion || version < 1) {
    return Unimplemented(source + ": format_version " + std::to_string(version) +
                         " is not supported (this onnxgate reads up to " +
                         std::to_string(kBaselineFormatVersion) + ")");
  }
  BaselineFile file;
  ONNXGATE_ASSIGN_OR_RETURN(Object fp, o.Child("fingerprint"));
  ONNXGATE_RETURN_IF_ERROR(fp.String("cpu_model", &file.fingerprint.cpu_model));
  ONNXGATE_RETURN_IF_ERROR(fp.Int("logical_cores", &file.fingerprint.logical_cores));
  ONNXGATE_RETURN_IF_ERROR(fp.String("build_type", &file.fingerprint.build_type));
  ONNXGATE_RETURN_IF_ERROR(o.String("runtime", &file.runtime, false));
  ONNXGATE_RETURN_IF_ERROR(o.String("ep", &file.ep));
  ONNXGATE_RETURN_IF_ERROR(o.String("clock", &file.clock));
  ONNXGATE_RETURN_IF_ERROR(o.Int("optimization_level", &file.optimization_level, false));
  if (file.optimization_level < 0 || file.optimization_level > kMaxOptimizationLevel) {
    return InvalidArgument(source + ": optimization_level must be 0 to " +
                           std::to_string(kMaxOptimizationLevel) + ", got " +
                           std::to_string(file.optimization_level));
  }
  ONNXGATE_RETURN_IF_ERROR(o.String("tool_version", &file.tool_version, false));
  ONNXGATE_RETURN_IF_ERROR(o.String("updated", &file.updated, false));
  ONNXGATE_RETURN_IF_ERROR(o.Array("entries", [&](const Json& e, const std::string& path) {
    file.entries.emplace_back();
    ONNXGATE_RETURN_IF_ERROR(ParseEntry(e, source, path, &file.entries.back()));
    const BaselineEntry& added = file.entries.back();
    for (size_t i = 0; i + 1 < file.entries.size(); ++i) {
      if (file.entries[i].model == added.model && file.entries[i].threads == added.threads) {
        return InvalidArgument(source + ": " + path + ": a second entry for model '" + added.model +
                               "' at " + std::to_string(added.threads) +
                               " thread(s); which one would be compared is undefined");
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
    auto it = std::find_if(into->entries.begin(), into->entries.end(), [&](const BaselineEntry& o) {
      return o.model == e.model && o.threads == e.threads;
    });
    if (it != into->entries.end()) {
      *it = e;
    } else {
      into->entries.push_back(e);
    }
  }
  SortEntries(&into->entries);
}

}  // namespace onnxgate
