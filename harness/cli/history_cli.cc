// `onnxgate history`: the results history that `bench --history` and `gate --history` append to
// (docs/latency.md, "History"). `show` prints a table of the series, `html` writes a page with a
// chart per series, `check` exits 1 on a regression among the last runs, `import` appends
// baselines and JSON reports. Exit 2 on a usage or database error, naming the database.
#include <cstdio>
#include <functional>
#include <memory>

#include "harness/cli/cli.h"
#include "harness/history/history_html.h"
#include "harness/history/history_import.h"
#include "harness/history/history_series.h"
#include "reports/text_escape.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate {

namespace {

constexpr int kExitOk = 0;
constexpr int kExitRegression = 1;
constexpr int kExitError = 2;

// --db and the filters that `show`, `html` and `check` share.
struct ReadFlags {
  std::string db;
  HistoryQuery query;
};

struct HistoryFlags {
  ReadFlags top, show, html, check;  // top: `history` alone, as `history show`
  bool all_cases = false;
  std::string out;
  std::string title = "onnxgate history";
  int last = 10;
  ReadFlags import;
  std::string commit, branch;
  std::vector<std::string> files;
};

void AddDbFlag(CLI::App* cmd, std::string* db, bool required = true) {
  CLI::Option* option = cmd->add_option(
      "--db", *db, "The history: a SQLite file, or a postgresql:// URL (docs/latency.md)");
  if (required) option->required();
}

void AddReadFlags(CLI::App* cmd, ReadFlags* f, bool required = true) {
  AddDbFlag(cmd, &f->db, required);
  HistoryQuery& q = f->query;
  cmd->add_option("--kind", q.kind, "Only runs of this command: bench or gate")
      ->check(CLI::IsMember({"bench", "gate"}));
  cmd->add_option("--branch", q.branch, "Only runs on this branch");
  cmd->add_option("--machine", q.machine, "Only runs on this machine fingerprint id");
  cmd->add_option("--model", q.model_glob, "Only models (or cases) whose name matches this glob");
  cmd->add_option("--runtime", q.runtime, "Only this runtime (its name, or label side by side)");
  cmd->add_option("--ep", q.ep, "Only this EP (or EP target, A+B)");
}

int Fail(const char* command, const Status& status) {
  std::fprintf(stderr, "onnxgate history %s: %s\n", command,
               EscapeForTerminal(status.message()).c_str());
  return kExitError;
}

// The series `f` selects; `name` is set to the database as the store names it (a URL without
// its password).
StatusOr<HistorySeries> ReadSeries(const ReadFlags& f, std::string* name = nullptr) {
  ONNXGATE_ASSIGN_OR_RETURN(std::unique_ptr<ResultsStore> store, OpenResultsStore(f.db, false));
  if (name != nullptr) *name = store->name();
  return ReadHistorySeries(*store, f.query, SeriesSettings{});
}

std::string ChangesText(const std::vector<ChangePoint>& changes, const std::string& unit,
                        const std::function<std::string(size_t)>& commit_at) {
  std::string text;
  for (const ChangePoint& c : changes) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%+.1f%% (%.4g -> %.4g%s) from %s", c.relative_change * 100,
                  c.mean_before, c.mean_after, unit.c_str(), commit_at(c.index).c_str());
    text += (text.empty() ? "" : "; ") + std::string(buf);
  }
  return text.empty() ? "none" : text;
}

void PrintRow(const std::string& label, size_t points, const std::string& latest,
              const std::string& changes) {
  std::printf("%-52s %6zu  %-12s %s\n", EscapeForTerminal(label).c_str(), points, latest.c_str(),
              EscapeForTerminal(changes).c_str());
}

void PrintLatencyTable(const std::vector<LatencySeries>& series) {
  std::printf("Latency: %zu series\n", series.size());
  if (series.empty()) return;
  std::printf("%-52s %6s  %-12s %s\n", "series", "points", "latest", "change points");
  for (const LatencySeries& s : series) {
    char latest[32];
    std::snprintf(latest, sizeof latest, "%.4g ms", s.points.back().point.median_ms);
    PrintRow(
        LatencyKeyLabel(s.key), s.points.size(), latest,
        ChangesText(s.change_points, " ms", [&s](size_t i) { return s.points[i].context.commit; }));
  }
}

void PrintMarginTable(const HistorySeries& series, bool all) {
  const std::vector<const MarginSeries*> shown =
      NotableMarginSeries(series, all ? series.margins.size() : 20);
  std::printf("\nError margins (share of the tolerance used, 1 = at the limit): %zu series",
              series.margins.size());
  if (shown.size() < series.margins.size()) {
    std::printf(", %zu shown (changed, drifting or nearest the limit; --all-cases for all)",
                shown.size());
  }
  std::printf("\n");
  if (shown.empty()) return;
  std::printf("%-52s %6s  %-12s %s\n", "series", "points", "latest", "change points");
  for (const MarginSeries* s : shown) {
    char latest[32];
    std::snprintf(latest, sizeof latest, "%.3g", *s->points.back().point.margin);
    std::string changes =
        ChangesText(s->change_points, "", [s](size_t i) { return s->points[i].context.commit; });
    if (s->drift) {
      changes = (s->change_points.empty() ? "" : changes + "; ") + "drifting: " + s->drift->reason;
    }
    PrintRow(CaseKeyLabel(s->key), s->points.size(), latest, changes);
  }
}

int Show(const ReadFlags& flags, bool all_cases) {
  if (flags.db.empty()) {
    return Fail("show", InvalidArgument("--db is required (or name a subcommand: show, html, "
                                        "check, import)"));
  }
  StatusOr<HistorySeries> series = ReadSeries(flags);
  if (!series.ok()) return Fail("show", series.status());
  PrintLatencyTable(series->latency);
  PrintMarginTable(*series, all_cases);
  return kExitOk;
}

int Html(const HistoryFlags& f) {
  HistoryHtmlOptions options;
  StatusOr<HistorySeries> series = ReadSeries(f.html, &options.database);
  if (!series.ok()) return Fail("html", series.status());
  options.title = f.title;
  if (Status st = WriteFileAtomically(f.out, RenderHistoryHtml(*series, options)); !st.ok()) {
    return Fail("html", st);
  }
  std::printf("wrote %s: %zu latency and %zu error margin series\n",
              EscapeForTerminal(f.out).c_str(), series->latency.size(), series->margins.size());
  return kExitOk;
}

int Check(const HistoryFlags& f) {
  StatusOr<HistorySeries> series = ReadSeries(f.check);
  if (!series.ok()) return Fail("check", series.status());
  const std::vector<HistoryRegression> found =
      FindRecentRegressions(*series, static_cast<size_t>(f.last));
  for (const HistoryRegression& r : found) {
    std::printf("REGRESSION %s: %s, first at commit %s (run %lld)\n",
                EscapeForTerminal(r.series).c_str(), EscapeForTerminal(r.description).c_str(),
                EscapeForTerminal(r.first_commit).c_str(), static_cast<long long>(r.first_run_id));
  }
  const size_t total = series->latency.size() + series->margins.size();
  std::printf("history check: %zu regression(s) in the last %d run(s) of %zu series\n",
              found.size(), f.last, total);
  return found.empty() ? kExitOk : kExitRegression;
}

int Import(const HistoryFlags& f) {
  HistoryImportOptions options;
  options.commit = ResolveHistoryCommit(f.commit, ProcessEnvironment());
  options.branch = ResolveHistoryBranch(f.branch, ProcessEnvironment());
  StatusOr<std::unique_ptr<ResultsStore>> store = OpenResultsStore(f.import.db, true);
  if (!store.ok()) return Fail("import", store.status());
  StatusOr<std::vector<int64_t>> ids = ImportHistoryFiles(**store, f.files, options);
  if (!ids.ok()) return Fail("import", ids.status());
  std::printf("imported %zu run(s) into %s as commit %s on %s\n", ids->size(),
              EscapeForTerminal((*store)->name()).c_str(),
              EscapeForTerminal(options.commit).c_str(), EscapeForTerminal(options.branch).c_str());
  return kExitOk;
}

}  // namespace

void AddHistoryFlags(CLI::App* cmd, HistoryTarget* target) {
  cmd->add_option("--history", target->database,
                  "Append the results to this history after the reports: a SQLite file "
                  "(created when missing) or a postgresql:// URL (docs/latency.md, History)");
  cmd->add_option("--commit", target->commit,
                  "The commit the history records (default: $ONNXGATE_COMMIT, else GITHUB_SHA, "
                  "CI_COMMIT_SHA or GIT_COMMIT, else unknown)");
  cmd->add_option("--branch", target->branch,
                  "The branch the history records (default: $ONNXGATE_BRANCH, else "
                  "GITHUB_REF_NAME, CI_COMMIT_REF_NAME or GIT_BRANCH, else unknown)");
}

void AddHistoryCommand(CLI::App& app, CliContext& ctx) {
  static HistoryFlags f;
  CLI::App* history = app.add_subcommand(
      "history",
      "The results history of bench --history and gate --history: series per model x EP x "
      "threads x shapes and per case, their change points, and a check for regressions");
  // `history --db DB` alone is `history show --db DB`.
  history->require_subcommand(0, 1);
  const char* all_cases_help =
      "List every case's margin series (default: those that changed or drift, and the 20 "
      "nearest their tolerance)";
  AddReadFlags(history, &f.top, /*required=*/false);
  history->add_flag("--all-cases", f.all_cases, all_cases_help);
  history->callback([&ctx, history] {
    if (history->get_subcommands().empty()) ctx.action = [] { return Show(f.top, f.all_cases); };
  });
  CLI::App* show =
      history->add_subcommand("show", "Print the series: points, latest value and change points");
  AddReadFlags(show, &f.show);
  show->add_flag("--all-cases", f.all_cases, all_cases_help);
  show->callback([&ctx] { ctx.action = [] { return Show(f.show, f.all_cases); }; });

  CLI::App* html = history->add_subcommand(
      "html", "Write one self-contained HTML page: a chart per series with its change points");
  AddReadFlags(html, &f.html);
  html->add_option("--out", f.out, "The HTML file to write")->required();
  html->add_option("--title", f.title, "The page title")->capture_default_str();
  html->callback([&ctx] { ctx.action = [] { return Html(f); }; });

  CLI::App* check = history->add_subcommand(
      "check",
      "Exit 1 when a series has a regression among its last --last runs (latency or error "
      "margin up at a change point, or a margin drifting toward its tolerance), naming the "
      "first commit after it; 0 otherwise; 2 on a database error");
  AddReadFlags(check, &f.check);
  check->add_option("--last", f.last, "How many of each series' latest runs to look at")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  check->callback([&ctx] { ctx.action = [] { return Check(f); }; });

  CLI::App* import = history->add_subcommand(
      "import",
      "Append latency baselines (golden/baselines/...) and JSON reports of bench, gate or run "
      "to the history, one run per file in the order given (created when missing)");
  AddDbFlag(import, &f.import.db);
  import->add_option("--commit", f.commit,
                     "The commit the imported runs record (default as for bench --history)");
  import->add_option("--branch", f.branch,
                     "The branch the imported runs record (default as for bench --history)");
  import->add_option("files", f.files, "Baseline files and JSON reports")->required();
  import->callback([&ctx] { ctx.action = [] { return Import(f);
};
}  // namespace onnxgate
);
}

}  // namespace onnxgate
