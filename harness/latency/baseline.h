// Latency baselines: golden/baselines/<machine-fingerprint-id>/<ep>.json, one entry per model
// name x thread count x shapes (the configuration), with the model file's hash beside the key and
// the per-repetition samples the Mann-Whitney test needs. A file holds one machine, runtime, EP,
// clock and optimization level. Written atomically; a file whose fingerprint is not this
// machine's is refused, never compared.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/latency/fingerprint.h"
#include "runtime/base/status.h"

namespace onnxgate {

inline constexpr char kBaselineFormat[] = "onnxgate-latency-baseline";
// Version 2 keys entries by shapes too; a version-1 file is read with every entry's shapes "".
inline constexpr int kBaselineFormatVersion = 2;

// What a baseline entry may hold; anything else is refused when the file is read.
inline constexpr size_t kMinBaselineSamples = 3;
inline constexpr size_t kMaxBaselineSamples = 100000;
inline constexpr double kMaxBaselineSampleMs = 3600.0 * 1000.0;  // one hour per run
inline constexpr int64_t kMaxBaselineThreads = 4096;

struct BaselineEntry {
  std::string model;  // the model file's stem, e.g. "resnet18"
  int64_t threads = 1;
  // The symbolic dimensions bound, "batch=4,seq=128" (BenchMeasurement::shapes); "" for none.
  std::string shapes;
  // Of the model file measured. Not part of the key: a model re-exported under its name is
  // compared with the entry of that name and reported as changed.
  std::string model_sha256;
  int64_t iterations_per_repetition = 0;
  std::vector<double> samples_ms;  // one per repetition: mean time of one run in it
  // Summary of samples_ms, for people reading the file (the comparator uses the samples).
  double median_ms = 0.0;
  double min_ms = 0.0;
  double p90_ms = 0.0;
  double p99_ms = 0.0;
  double mean_ms = 0.0;
  double cv = 0.0;
  std::optional<double> load_ms;
  std::optional<double> first_run_ms;
  std::string recorded;  // UTC, ISO 8601
};

struct BaselineFile {
  MachineFingerprint fingerprint;
  // The runtime under test (RuntimeUnderTest::name()); files written before it was recorded
  // were all the built-in runtime's, "onnxgate".
  std::string runtime = "onnxgate";
  std::string ep;
  std::string clock = "wall";  // what the samples measure: "wall" or "cpu" time
  // The graph optimization level the models were loaded at; files written before it was
  // recorded were all measured at 0.
  int64_t optimization_level = 0;
  std::string tool_version;
  std::string updated;                 // UTC, ISO 8601
  std::vector<BaselineEntry> entries;  // sorted by (model, threads, shapes)

  // The entry for `model` at `threads` and `shapes`, or nullptr.
  const BaselineEntry* Find(const std::string& model, int64_t threads,
                            const std::string& shapes) const;
  // Every entry of `model`, whatever its configuration, in file order.
  std::vector<const BaselineEntry*> EntriesOf(const std::string& model) const;
};

// A configuration as messages name it: "2 thread(s)", or "2 thread(s), shapes batch=4,seq=128".
std::string DescribeConfiguration(int64_t threads, const std::string& shapes);

// <baselines_dir>/<fingerprint id>/<ep>.json. The EP name comes from a runtime (a plugin or an
// adapter may report any text), so it must be a safe name (runtime/base/safe_name.h):
// InvalidArgument otherwise, before any path exists.
StatusOr<std::string> BaselinePath(const std::string& baselines_dir,
                                   const MachineFingerprint& fingerprint, const std::string& ep);

std::string RenderBaselineJson(const BaselineFile& file);
// `source` names the text in errors. DataLoss for text that is not JSON, InvalidArgument naming
// the field for a missing or mistyped one, Unimplemented for a newer format_version.
StatusOr<BaselineFile> ParseBaselineJson(const std::string& text, const std::string& source);
// NotFound when the file does not exist.
StatusOr<BaselineFile> ReadBaseline(const std::string& path);
// Entries are sorted before writing; the file appears whole or not at all.
Status WriteBaseline(const BaselineFile& file, const std::string& path);

// InvalidArgument naming both fingerprints when `file` was recorded on another machine, with
// another build type, or for another runtime, EP, clock or optimization level: such numbers
// must not be compared. (Thread counts key the entries; a count a provider cannot honour is
// refused before measuring.)
Status CheckBaselineApplies(const BaselineFile& file, const std::string& path,
                            const MachineFingerprint& current, const std::string& runtime,
                            const std::string& ep, const std::string& clock,
                            int64_t optimization_level = 0);

// Merges `fresh` into the baseline file at `path` and writes it, all under the lock of the
// file's folder (runtime/base/file_lock.h), so concurrent updates of one file each keep the
// other's entries: the file is read again under the lock and must still apply to `header`'s
// fingerprint, runtime, EP, clock and optimization level (CheckBaselineApplies); a missing file
// starts from `header`. `header`'s tool_version and updated are written. Returns the file as
// written.
StatusOr<BaselineFile> UpdateBaselineFile(const std::string& path, const BaselineFile& header,
                                          const std::vector<BaselineEntry>& fresh);

// Replaces the entries of `into` that share (model, threads, shapes) with one of `fresh` and adds
// the rest; entries of configurations not measured now are kept.
void MergeBaselineEntries(BaselineFile* into, const std::vector<BaselineEntry>& fresh);

}  // namespace onnxgate
