#!/usr/bin/env python3
"""ONNX Runtime's own loop over one model, for comparing with `onnxgate bench --runtime ort`:
one session made as the ORT adapter makes it for a bench (CPU provider, the graph optimization
level, intra_op_num_threads, inter_op_num_threads 1), inputs made once as the bench makes them
(symbolic dimensions 1, floats drawn at random, integers 0, booleans false), a warm-up, and then
repetitions of as many session.run calls as fill the time per repetition, each call timed alone
with time.perf_counter_ns. A repetition's sample is the mean of its runs, as onnxgate's is.
Prints one JSON object: the model, the runs per repetition, the samples and their median in ms.
Run from the ONNX Runtime adapter's environment:

    .venv/ort/bin/python ci/ort-own-loop.py <model.onnx> [--threads N] [--optimization-level L]
        [--repetitions R] [--min-time S] [--warmup S]
"""

import argparse
import json
import statistics
import time

import numpy as np
import onnxruntime as ort

OPT_LEVELS = {0: ort.GraphOptimizationLevel.ORT_DISABLE_ALL,
              1: ort.GraphOptimizationLevel.ORT_ENABLE_BASIC,
              2: ort.GraphOptimizationLevel.ORT_ENABLE_ALL}
TYPES = {"tensor(float)": np.float32, "tensor(double)": np.float64,
         "tensor(float16)": np.float16, "tensor(int64)": np.int64, "tensor(int32)": np.int32,
         "tensor(int8)": np.int8, "tensor(uint8)": np.uint8, "tensor(bool)": np.bool_}


def make_feeds(session):
    rng = np.random.default_rng(1234)
    feeds = {}
    for arg in session.get_inputs():
        if arg.type not in TYPES:
            raise SystemExit("ort-own-loop: input '%s' is of type %s, which this loop does not "
                             "make" % (arg.name, arg.type))
        dtype = TYPES[arg.type]
        shape = [d if isinstance(d, int) and d >= 0 else 1 for d in arg.shape]
        if np.issubdtype(dtype, np.floating):
            feeds[arg.name] = rng.standard_normal(shape).astype(dtype)
        else:
            feeds[arg.name] = np.zeros(shape, dtype=dtype)
    return feeds


def timed(session, feeds, runs):
    """Each of `runs` session.run calls' time in ms."""
    clock = time.perf_counter_ns
    times = []
    for _ in range(runs):
        start = clock()
        session.run(None, feeds)
        times.append((clock() - start) / 1e6)
    return times


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--optimization-level", type=int, default=0, choices=[0, 1, 2])
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument("--min-time", type=float, default=0.2)
    parser.add_argument("--warmup", type=float, default=0.5)
    args = parser.parse_args()
    so = ort.SessionOptions()
    so.log_severity_level = 3
    so.graph_optimization_level = OPT_LEVELS[args.optimization_level]
    so.intra_op_num_threads = args.threads
    so.inter_op_num_threads = 1
    session = ort.InferenceSession(args.model, so, providers=["CPUExecutionProvider"])
    feeds = make_feeds(session)
    session.run(None, feeds)  # the first run, apart, as the bench's
    spent, runs, per_run = 0.0, 3, 0.0
    while True:  # warm-up, sizing the runs as onnxgate sizes its timed runs
        times = timed(session, feeds, runs)
        per_run = statistics.fmean(times)
        spent += per_run * runs
        if spent >= args.warmup * 1000:
            break
        runs = max(1, min(runs * 4, int((args.warmup * 1000 - spent) / max(per_run, 1e-6)) + 1))
    runs = max(1, int(args.min_time * 1000 / max(per_run, 1e-6)) + 1)
    samples = [statistics.fmean(timed(session, feeds, runs)) for _ in range(args.repetitions)]
    print(json.dumps({"model": args.model, "runs_per_repetition": runs, "samples_ms": samples,
                      "median_ms": statistics.median(samples)}))


if __name__ == "__main__":
    main()
