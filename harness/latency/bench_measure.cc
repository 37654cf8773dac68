// MeasureSides: the rounds of model x EP x thread count measurements, with progress lines.
#include "harness/latency/bench_measure.h"

#include <cstdio>
#include <map>
#include <optional>
#include <utility>

#include "harness/ep_target.h"
#include "harness/latency/bench_table.h"
#include "harness/latency/isolated_measure.h"
#include "harness/models/model_feeds.h"
#include "reports/format.h"
#include "reports/records.h"
#include "reports/text_escape.h"
#include "runtime/base/check.h"

namespace onnxgate {

namespace {

class ProgressPrinter : public BenchObserver {
 public:
  // `loads`: print each load and first-run time as it comes (a pair prints its own line after).
  ProgressPrinter(std::FILE* out, bool ticks, bool loads = true)
      : out_(out), ticks_(ticks), loads_(loads) {}
  void OnLoaded(double load_ms, double first_run_ms) override {
    if (!loads_) return;
    std::fprintf(out_, " load %s ms, first run %s ms, steady state", FormatMs(load_ms).c_str(),
                 FormatMs(first_run_ms).c_str());
    std::fflush(out_);
  }
  void OnTick() override {
    if (!ticks_) return;
    std::fputc('.', out_);
    std::fflush(out_);
  }

 private:
  std::FILE* out_;
  bool ticks_;
  bool loads_;
};

// Every --threads value must be one `ep` can honour.
Status CheckThreadsHonouredBy(const BenchCommandOptions& o, const BenchSide& side,
                              const std::string& ep) {
  ONNXGATE_ASSIGN_OR_RETURN(int most, side.runtime->MaxIntraOpThreads(ep));
  for (int t : o.threads) {
    if (t <= most) continue;
    return InvalidArgument("--threads " + std::to_string(t) + ": EP '" + ep + "' of runtime '" +
                           side.runtime->name() + "' " +
                           (most == 1
                                ? std::string("runs every op on the calling thread")
                                : "uses at most " + std::to_string(most) + " intra-op threads") +
                           "; a measurement labelled " + std::to_string(t) +
                           " threads would measure fewer, so it is refused");
  }
  return OkStatus();
}

// Every --threads value must be one each EP (each provider of a list) can honour; checked
// before anything is measured.
Status CheckThreadsHonoured(const BenchCommandOptions& o, const BenchSide& side) {
  for (const std::string& label : side.eps) {
    for (const std::string& ep : ProvidersOf(label)) {
      ONNXGATE_RETURN_IF_ERROR(CheckThreadsHonouredBy(o, side, ep));
    }
  }
  return OkStatus();
}

// Adds round `round`'s measurement of combination `index` to a side's slots: the first round's
// is the entry, later rounds add their samples to it (load and first-run times stay the first's).
void AddRound(int round, size_t index, BenchMeasurement m,
              std::vector<std::optional<BenchMeasurement>>* side) {
  if (round == 0 || !(*side)[index]) {
    (*side)[index] = std::move(m);
    return;
  }
  BenchMeasurement& pooled = *(*side)[index];
  auto append = [](auto& to, const auto& from) { to.insert(to.end(), from.begin(), from.end()); };
  append(pooled.samples_ms, m.samples_ms);
  append(pooled.real_ms, m.real_ms);
  append(pooled.cpu_ms, m.cpu_ms);
  append(pooled.iterations, m.iterations);
  pooled.summary = Summarize(pooled.samples_ms);
}

// What one measurement is: its progress line names it and its errors say where it failed.
struct Combination {
  int round = 0;
  size_t index = 0;  // of the combination within the round
  const BenchModel* model = nullptr;
  const DimSizes* shape = nullptr;
  size_t ep = 0;  // index into each side's eps
  int threads = 1;
};

// "bert[batch=4,seq=128]" as progress lines name a combination's model, escaped for a terminal.
std::string ShownName(const Combination& c) {
  const std::string shapes = DimSizesText(*c.shape);
  return EscapeForTerminal(c.model->name + (shapes.empty() ? "" : "[" + shapes + "]"));
}

// The settings of one combination: the bench's, fed at its shape.
BenchSettings SettingsFor(const BenchCommandOptions& o, const std::vector<std::string>& input_files,
                          const Combination& c) {
  BenchSettings s = o.settings;
  s.feeds.dims = *c.shape;
  s.feeds.input_files = input_files;
  s.feeds.ranges = o.input_ranges;
  return s;
}

// A measurement as the bench names it: the model's name (a subfolder's, not "model").
void Finish(const Combination& c, BenchMeasurement* m) { m->model = c.model->name; }

// The measurements of every side and the errors so far, by combination index.
struct Slots {
  std::vector<std::vector<std::optional<BenchMeasurement>>> sides;
  std::map<size_t, LatencyRecord> errors;
};

// One side's measurement of a combination, its progress line finished.
Status MeasureOne(const BenchCommandOptions& o, const BenchSide& side, const Combination& c,
                  const BenchSettings& settings, ProgressPrinter* progress, Slots* slots) {
  std::fprintf(o.out, "%s on %s, %d thread%s:", ShownName(c).c_str(),
               TargetName(side.label, side.eps[c.ep]).c_str(), c.threads,
               c.threads == 1 ? "" : "s");
  std::fflush(o.out);
  auto m = MeasureModelIsolated(*side.runtime, c.model->path, side.eps[c.ep], c.threads, settings,
                                o.timeout_s, progress);
  if (!m.ok()) {
    std::fprintf(o.out, " failed\n");
    return m.status().WithContext(TargetName(side.label, side.eps[c.ep]));
  }
  std::fprintf(o.out, " median %s ms, cv %.1f%% (%d x %lld runs)\n",
               FormatMs(m->summary.median).c_str(), m->summary.cv * 100.0, o.settings.repetitions,
               static_cast<long long>(m->iterations_per_repetition));
  Finish(c, &*m);
  AddRound(c.round, c.index, std::move(m).value(), &slots->sides[0]);
  return OkStatus();
}

// Two sides' measurements of a combination in alternating turns, the side that leads swapping
// every round.
Status MeasurePair(const BenchCommandOptions& o, const std::vector<BenchSide>& sides,
                   const Combination& c, const BenchSettings& settings, ProgressPrinter* progress,
                   Slots* slots) {
  const size_t lead = c.round % 2 == 0 ? 0 : 1;
  auto target = [&](size_t s) {
    return BenchTarget{sides[s].runtime, c.model->path, sides[s].eps[c.ep], sides[s].extra_work};
  };
  std::fprintf(o.out, "%s on %s beside %s, %d thread%s:", ShownName(c).c_str(),
               TargetName(sides[lead].label, sides[lead].eps[c.ep]).c_str(),
               TargetName(sides[1 - lead].label, sides[1 - lead].eps[c.ep]).c_str(), c.threads,
               c.threads == 1 ? "" : "s");
  std::fflush(o.out);
  auto pair = MeasurePairIsolated(target(lead), target(1 - lead), c.threads, settings,
                                  2 * o.timeout_s, progress);
  if (!pair.ok()) {
    std::fprintf(o.out, " failed\n");
    return pair.status().WithContext(TargetName(sides[0].label, sides[0].eps[c.ep]) + " beside " +
                                     TargetName(sides[1].label, sides[1].eps[c.ep]));
  }
  for (size_t k = 0; k < 2; ++k) {
    const BenchMeasurement& m = (*pair)[k];
    std::fprintf(o.out, "%s load %s ms, first run %s ms, median %s ms, cv %.1f%% (%d x %lld runs)",
                 k == 0 ? "" : ";", FormatMs(m.load_ms).c_str(), FormatMs(m.first_run_ms).c_str(),
                 FormatMs(m.summary.median).c_str(), m.summary.cv * 100.0, o.settings.repetitions,
                 static_cast<long long>(m.iterations_per_repetition));
  }
  std::fprintf(o.out, "\n");
  for (size_t k = 0; k < 2; ++k) Finish(c, &(*pair)[k]);
  AddRound(c.round, c.index, std::move((*pair)[0]), &slots->sides[lead]);
  AddRound(c.round, c.index, std::move((*pair)[1]), &slots->sides[1 - lead]);
  return OkStatus();
}

// The record of a combination that could not be measured, as the candidate's (the first side's).
LatencyRecord ErrorRecord(const std::vector<BenchSide>& sides, const Combination& c,
                          const std::string& message) {
  LatencyRecord r;
  r.model = c.model->name;
  r.runtime = sides[0].label;
  r.ep = sides[0].eps[c.ep];
  if (sides.size() == 2) r.against = TargetName(sides[1].label, sides[1].eps[c.ep]);
  r.threads = c.threads;
  r.shapes = DimSizesText(*c.shape);
  r.verdict = LatencyVerdict::kError;
  r.message = message;
  return r;
}

// Measures combination `c` unless it failed already; a failure becomes its error record.
void MeasureCombination(const BenchCommandOptions& o, const std::vector<BenchSide>& sides,
                        const std::vector<std::string>& input_files, const Combination& c,
                        ProgressPrinter* progress, Slots* slots) {
  if (slots->errors.count(c.index)) {
    std::fprintf(o.out, "%s: not measured again (it failed)\n", ShownName(c).c_str());
    return;
  }
  Status st;
  if (!c.model->error.empty()) {
    std::fprintf(o.out, "%s: not measured\n", ShownName(c).c_str());
    st = InvalidArgument(c.model->error);
  } else {
    const BenchSettings settings = SettingsFor(o, input_files, c);
    st = sides.size() == 1 ? MeasureOne(o, sides[0], c, settings, progress, slots)
                           : MeasurePair(o, sides, c, settings, progress, slots);
  }
  if (st.ok()) return;
  slots->errors[c.index] = ErrorRecord(sides, c, st.message());
  for (auto& side : slots->sides) side[c.index].reset();
}

// The slots in combination order: the measurements per side, and the errors.
BenchOutcome Collect(Slots slots) {
  BenchOutcome outcome;
  outcome.sides.resize(slots.sides.size());
  for (size_t s = 0; s < slots.sides.size(); ++s) {
    for (size_t i = 0; i < slots.sides[s].size(); ++i) {
      if (!slots.errors.count(i) && slots.sides[s][i]) {
        outcome.sides[s].push_back(std::move(*slots.sides[s][i]));
      }
    }
  }
  for (auto& [index, record] : slots.errors) outcome.errors.push_back(std::move(record));
  return outcome;
}

}  // namespace

StatusOr<BenchOutcome> MeasureSides(const BenchCommandOptions& o,
                                    const std::vector<BenchSide>& sides,
                                    const std::vector<BenchModel>& models) {
  ONNXGATE_CHECK(sides.size() == 1 || sides.size() == 2);
  for (const BenchSide& side : sides) ONNXGATE_RETURN_IF_ERROR(CheckThreadsHonoured(o, side));
  ONNXGATE_ASSIGN_OR_RETURN(const std::vector<std::string> input_files, BenchInputFiles(o));
  size_t per_round = 0;
  for (const BenchModel& m : models) per_round += m.shapes.size() * o.eps.size() * o.threads.size();
  Slots slots;
  slots.sides.assign(sides.size(), std::vector<std::optional<BenchMeasurement>>(per_round));
  const size_t total = per_round * static_cast<size_t>(o.rounds);
  size_t done = 0;
  ProgressPrinter progress(o.out, o.progress_ticks, /*loads=*/sides.size() == 1);
  for (int round = 0; round < o.rounds; ++round) {
    Combination c;
    c.round = round;
    for (const BenchModel& model : models) {
      c.model = &model;
      for (const DimSizes& shape : model.shapes) {
        c.shape = &shape;
        for (c.ep = 0; c.ep < o.eps.size(); ++c.ep) {
          for (int threads : o.threads) {
            c.threads = threads;
            std::fprintf(o.out, "[%zu/%zu] ", ++done, total);
            if (o.rounds > 1) std::fprintf(o.out, "round %d/%d: ", round + 1, o.rounds);
            MeasureCombination(o, sides, input_files, c, &progress, &slots);
            ++c.index;
          }
        }
      }
    }
  }
  return Collect(std::move(slots));
}

StatusOr<BenchOutcome> MeasureRuntime(const BenchCommandOptions& o, const RuntimeUnderTest& runtime,
                                      const std::vector<BenchModel>& models) {
  return MeasureSides(o, {BenchSide{&runtime, o.eps, ""}}, models);
}

}  // namespace onnxgate
