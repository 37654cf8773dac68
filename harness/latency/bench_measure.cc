// MeasureSides: the rounds of model x EP x thread count measurements, with progress lines.
#include "harness/latency/bench_measure.h"

#include <cstdio>
#include <utility>

#include "harness/ep_target.h"
#include "harness/latency/bench_table.h"
#include "harness/latency/isolated_measure.h"
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

// Adds round `round`'s measurement of combination `index` to a side's list: the first round's
// is the entry, later rounds add their samples to it (load and first-run times stay the first's).
void AddRound(int round, size_t index, BenchMeasurement m, std::vector<BenchMeasurement>* side) {
  if (round == 0) {
    side->push_back(std::move(m));
    return;
  }
  BenchMeasurement& pooled = (*side)[index];
  auto append = [](auto& to, const auto& from) { to.insert(to.end(), from.begin(), from.end()); };
  append(pooled.samples_ms, m.samples_ms);
  append(pooled.real_ms, m.real_ms);
  append(pooled.cpu_ms, m.cpu_ms);
  append(pooled.iterations, m.iterations);
  pooled.summary = Summarize(pooled.samples_ms);
}

// Measures every model x EP x thread count, round after round: on one side, or on two side by
// side (MeasurePairIsolated: their repetitions take turns in one worker, and the side that
// starts swaps every round), so that the machine's slow and fast spells fall on both alike.

// What one measurement is: its progress line names it and its errors say where it failed.
struct Combination {
  int round = 0;
  size_t index = 0;  // of the combination within the round
  const std::string* path = nullptr;
  size_t ep = 0;  // index into each side's eps
  int threads = 1;
};

// One side's measurement of a combination, its progress line finished.
Status MeasureOne(const BenchCommandOptions& o, const BenchSide& side, const Combination& c,
                  ProgressPrinter* progress, std::vector<BenchMeasurement>* all) {
  const std::string name = EscapeForTerminal(ModelNameFromPath(*c.path));  // printed only
  std::fprintf(o.out, "%s on %s, %d thread%s:", name.c_str(),
               TargetName(side.label, side.eps[c.ep]).c_str(), c.threads,
               c.threads == 1 ? "" : "s");
  std::fflush(o.out);
  auto m = MeasureModelIsolated(*side.runtime, *c.path, side.eps[c.ep], c.threads, o.settings,
                                o.timeout_s, progress);
  if (!m.ok()) {
    std::fprintf(o.out, " failed\n");
    return m.status().WithContext(TargetName(side.label, side.eps[c.ep]));
  }
  std::fprintf(o.out, " median %s ms, cv %.1f%% (%d x %lld runs)\n",
               FormatMs(m->summary.median).c_str(), m->summary.cv * 100.0, o.settings.repetitions,
               static_cast<long long>(m->iterations_per_repetition));
  AddRound(c.round, c.index, std::move(m).value(), all);
  return OkStatus();
}

// Two sides' measurements of a combination in alternating turns, the side that leads swapping
// every round.
Status MeasurePair(const BenchCommandOptions& o, const std::vector<BenchSide>& sides,
                   const Combination& c, ProgressPrinter* progress,
                   std::vector<std::vector<BenchMeasurement>>* all) {
  const size_t lead = c.round % 2 == 0 ? 0 : 1;
  auto target = [&](size_t s) {
    return BenchTarget{sides[s].runtime, *c.path, sides[s].eps[c.ep], sides[s].extra_work};
  };
  const std::string name = EscapeForTerminal(ModelNameFromPath(*c.path));  // printed only
  std::fprintf(o.out, "%s on %s beside %s, %d thread%s:", name.c_str(),
               TargetName(sides[lead].label, sides[lead].eps[c.ep]).c_str(),
               TargetName(sides[1 - lead].label, sides[1 - lead].eps[c.ep]).c_str(), c.threads,
               c.threads == 1 ? "" : "s");
  std::fflush(o.out);
  auto pair = MeasurePairIsolated(target(lead), target(1 - lead), c.threads, o.settings,
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
  AddRound(c.round, c.index, std::move((*pair)[0]), &(*all)[lead]);
  AddRound(c.round, c.index, std::move((*pair)[1]), &(*all)[1 - lead]);
  return OkStatus();
}

}  // namespace

StatusOr<std::vector<std::vector<BenchMeasurement>>> MeasureSides(
    const BenchCommandOptions& o, const std::vector<BenchSide>& sides,
    const std::vector<std::string>& models) {
  ONNXGATE_CHECK(sides.size() == 1 || sides.size() == 2);
  for (const BenchSide& side : sides) ONNXGATE_RETURN_IF_ERROR(CheckThreadsHonoured(o, side));
  std::vector<std::vector<BenchMeasurement>> all(sides.size());
  const size_t total =
      models.size() * o.eps.size() * o.threads.size() * static_cast<size_t>(o.rounds);
  size_t done = 0;
  ProgressPrinter progress(o.out, o.progress_ticks, /*loads=*/sides.size() == 1);
  for (int round = 0; round < o.rounds; ++round) {
    Combination c;
    c.round = round;
    for (const std::string& path : models) {
      c.path = &path;
      for (c.ep = 0; c.ep < o.eps.size(); ++c.ep) {
        for (int threads : o.threads) {
          c.threads = threads;
          std::fprintf(o.out, "[%zu/%zu] ", ++done, total);
          if (o.rounds > 1) std::fprintf(o.out, "round %d/%d: ", round + 1, o.rounds);
          ONNXGATE_RETURN_IF_ERROR(sides.size() == 1
                                       ? MeasureOne(o, sides[0], c, &progress, &all[0])
                                       : MeasurePair(o, sides, c, &progress, &all));
          ++c.index;
        }
      }
    }
  }
  return all;
}

StatusOr<std::vector<BenchMeasurement>> MeasureRuntime(const BenchCommandOptions& o,
                                                       const RuntimeUnderTest& runtime,
                                                       const std::vector<std::string>& models) {
  ONNXGATE_ASSIGN_OR_RETURN(auto measured,
                            MeasureSides(o, {BenchSide{&runtime, o.eps, ""}}, models));
  return std::move(measured[0]);
}

}  // namespace onnxgate
