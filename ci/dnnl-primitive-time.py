#!/usr/bin/env python3
"""How much of the dnnl provider's run is oneDNN's own primitives, beside ONNX Runtime's whole
run, per zoo model and thread count:

  primitives  the median per run of the execution times oneDNN itself reports for its
              primitives (ONEDNN_VERBOSE=1), from a bench of dnnl alone
  dnnl, ORT   the wall medians of a `bench --against ort` in alternating turns, without the
              verbose output, and the median of its paired ratios

Where the primitives alone take about as long as ONNX Runtime's whole run, no change outside
oneDNN (scheduling, allocation, checks, fusions that keep the same primitives) can bring the
dnnl/ORT ratio well under 1: only faster primitives can. Both benches load the models at
graph optimization level 2. The machine's speed drifts, so each number is a median, and the
two benches run one after the other, not at the same moment.

Needs a build (bash ci/build.sh) and the ONNX Runtime adapter's environment (.venv/ort).
Usage: ci/dnnl-primitive-time.py [--threads N ...] [--model NAME ...] [--rounds N]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(os.environ.get("ONNXGATE_BUILD_DIR", os.path.join(ROOT, "build")),
                   "harness", "onnxgate")
MODELS = ["mlp", "mobilenet_v2", "resnet18", "transformer_encoder"]


def onnxgate(args, env=None):
    result = subprocess.run([BIN, "--root", ROOT] + args, env=env, capture_output=True,
                            text=True, check=False)
    if result.returncode not in (0, 1):  # 1: a latency verdict, not a failure to measure
        sys.exit(f"onnxgate {' '.join(args)} failed ({result.returncode}):\n{result.stderr}")
    return result.stdout


def executions(verbose_output):
    """(signature, milliseconds) of every primitive execution oneDNN reported, in order."""
    out = []
    for line in verbose_output.splitlines():
        fields = line.split(",")
        if len(fields) > 4 and fields[0] == "onednn_verbose" and fields[1] == "exec":
            out.append((",".join(fields[2:-1]), float(fields[-1])))
    return out


def per_run_totals(execs):
    """Splits the executions into runs and returns each run's total, earliest first.

    Every steady-state run executes the same primitives in the same order, so the run length is
    the shortest period that repeats over most of the executions, counted back from the end (a
    model of identical layers also repeats per layer, but only within one run); the first run,
    which also reorders constant weights once, breaks the period and is left out."""
    signatures = [s for s, _ in execs]
    n = len(signatures)
    for period in range(1, n // 3 + 1):
        tail = 0
        while tail + period < n and signatures[n - 1 - tail] == signatures[n - 1 - tail - period]:
            tail += 1
        if tail + period >= n // 2:
            break
    else:
        sys.exit("could not find a repeating run in oneDNN's verbose output")
    runs = [sum(t for _, t in execs[end - period:end])
            for end in range(n, n - tail - period, -period) if end - period >= n - tail - period]
    return list(reversed(runs))[1:]  # the oldest one may still hold warm-up work


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--model", nargs="+", default=MODELS)
    parser.add_argument("--rounds", type=int, default=2)
    options = parser.parse_args()

    with tempfile.TemporaryDirectory() as work:
        zoo = os.path.join(work, "zoo")
        onnxgate(["zoo", "generate", zoo])
        common = ["bench", "--runtime", "builtin", "--ep", "dnnl", "--optimization-level", "2",
                  "--models", zoo]
        rows = []
        for model in options.model:
            for threads in options.threads:
                verbose = onnxgate(common + ["--model", model, "--threads", str(threads),
                                             "--repetitions", "9", "--min-time", "0.05",
                                             "--warmup", "0.1"],
                                   env=dict(os.environ, ONEDNN_VERBOSE="1"))
                runs = per_run_totals(executions(verbose))
                report = os.path.join(work, "against.json")
                onnxgate(common + ["--model", model, "--threads", str(threads), "--against", "ort",
                                   "--repetitions", "9", "--rounds", str(options.rounds),
                                   "--json", report])
                with open(report, encoding="utf-8") as f:
                    latency = json.load(f)["latency"][0]
                rows.append((model, threads, statistics.median(runs), len(runs),
                             latency["median_ms"], latency["baseline_median_ms"],
                             1 + latency["change_ratio"]))
                print(".", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)

    print(f"{'model':<20} {'thr':>3} {'primitives ms':>13} {'runs':>5} {'dnnl ms':>8} "
          f"{'ORT ms':>8} {'dnnl/ORT':>8} {'primitives/ORT':>14}")
    for model, threads, primitives, runs, dnnl, ort, ratio in rows:
        print(f"{model:<20} {threads:>3} {primitives:>13.2f} {runs:>5} {dnnl:>8.2f} {ort:>8.2f} "
              f"{ratio:>8.2f} {primitives / ort:>14.2f}")


if __name__ == "__main__":
    main()
