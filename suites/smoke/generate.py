#!/usr/bin/env python3
# Writes the smoke suite (ONNX text models, suite.json) and goldens from float64 numpy references.
"""Generator of the smoke suite.

Usage (from anywhere):
  python3 suites/smoke/generate.py           # (re)write models, suite.json and goldens
  python3 suites/smoke/generate.py --check   # verify that everything on disk is up to date

Optional tooling: neither the build nor the tests run it. Needs Python 3 with numpy and h5py.
Goldens are computed in float64 by reference_ops.py, independently of onnxgate's runtime, from
seeded inputs (numpy.random.default_rng, one seed per case derived from its name), then cast to the
output dtype. Every case is also evaluated in float32 and must pass against its own golden under the
case's tolerance, which shows the tolerances leave room for an honest float32 implementation.
Re-running gives byte-identical text files (models, suite.json); HDF5 bytes may differ.
The goldens are written in format 1 (no checksums); the committed ones carry checksums (format 2):
after writing, run `build/golden/onnxgate-upgrade-golden golden/data/smoke` (golden/README.md).
"""

import argparse
import hashlib
import json
import os
import sys
import textwrap
import zlib

import numpy as np

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
import cases as case_defs  # noqa: E402  (local modules, after the bytecode switch)
import golden_h5  # noqa: E402

SUITE_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(os.path.dirname(SUITE_DIR))
MODELS_DIR = os.path.join(SUITE_DIR, "models")
GOLDEN_DIR = os.path.join(REPO_ROOT, "golden", "data", "smoke")
GOLDEN_REL = "../../golden/data/smoke"  # relative to the suite folder, as suite.json wants

CREATED = "2026-11-21T03:00:00Z"  # fixed, so re-runs reproduce the same goldens and text
IR_VERSION = 8
DEFAULT_TOLERANCE = {"rtol": 0.001, "atol": 1e-7}
PRODUCER = "suites/smoke/generate.py (numpy %s, float64 reference computation)" % np.__version__
SOURCE = "hand-written by the onnxgate project"
TEXT_TYPES = {"FLOAT": "float", "DOUBLE": "double", "INT32": "int32", "INT64": "int64"}
FLOAT_TYPES = ("FLOAT", "DOUBLE")
VALUES_PER_LINE = 8


def type_text(dtype, shape):
    # Rank 0 is the bare type name; `float[]` would mean unknown rank.
    if not shape:
        return TEXT_TYPES[dtype]
    return "%s[%s]" % (TEXT_TYPES[dtype], ",".join(str(d) for d in shape))


def initializer_text(name, dtype, array):
    fmt = (lambda x: repr(float(x))) if dtype in FLOAT_TYPES else (lambda x: str(int(x)))
    values = [fmt(x) for x in np.asarray(array).reshape(-1)]
    lines = [", ".join(values[i:i + VALUES_PER_LINE])
             for i in range(0, len(values), VALUES_PER_LINE)]
    body = lines[0] if len(lines) == 1 else "\n    " + ",\n    ".join(lines) + "\n  "
    return "%s %s = {%s}" % (type_text(dtype, array.shape), name, body)


def model_text(case):
    header = textwrap.wrap("onnxgate smoke suite, case %s: %s" % (case.name, case.summary), 96)
    lines = ["# " + line for line in header]
    lines.append("# Written by suites/smoke/generate.py; change the generator, not this file.")
    lines.append('<ir_version: %d, opset_import: ["" : %d]>' % (IR_VERSION, case.opset))
    inputs = ", ".join("%s %s" % (type_text(d, s), n) for n, d, s in case.inputs)
    outputs = ", ".join("%s %s" % (type_text(d, s), n) for n, d, s in case.outputs)
    lines.append("%s (%s) => (%s)" % (case.name, inputs, outputs))
    if case.initializers:
        inits = [initializer_text(n, d, a) for n, (d, a) in case.initializers.items()]
        lines.append("<\n  " + ",\n  ".join(inits) + "\n>")
    lines.append("{")
    lines.extend("  " + node for node in case.nodes)
    lines.append("}")
    return "\n".join(lines) + "\n"


def op_types(case):
    """Op types in order of first use, read from the node lines ('out = Op <attrs> (ins)')."""
    ops = []
    for node in case.nodes:
        op = node.split("=", 1)[1].strip().split("(")[0].split("<")[0].strip()
        if op not in ops:
            ops.append(op)
    return ops


def evaluate(case, feeds, float_dtype):
    """Runs the case's reference with every float value in float_dtype; returns its outputs."""
    env = {}
    typed = [(n, d, feeds[n]) for n, d, _ in case.inputs]
    typed += [(n, d, a) for n, (d, a) in case.initializers.items()]
    for name, dtype, array in typed:
        env[name] = np.asarray(array).astype(float_dtype if dtype in FLOAT_TYPES else np.int64)
    results = case.compute(env)
    outputs = []
    for name, dtype, shape in case.outputs:
        array = np.asarray(results[name])
        assert array.shape == tuple(shape), "%s: output %s has shape %s, model says %s" % (
            case.name, name, array.shape, shape)
        if dtype in FLOAT_TYPES:
            assert np.all(np.isfinite(array)), "%s: output %s is not finite" % (case.name, name)
        outputs.append((name, dtype, array.astype(golden_h5.HDF5_DTYPES[dtype])))
    return outputs


def tolerance_margin(case, expected, actual):
    """Largest error/allowed ratio of the float32 evaluation against the golden (<= 1 passes)."""
    tol = case.tolerance or DEFAULT_TOLERANCE
    worst = 0.0
    for (name, dtype, want), (_, _, got) in zip(expected, actual):
        if dtype not in FLOAT_TYPES:
            if not np.array_equal(want, got):
                return float("inf")
            continue
        want, got = want.astype(np.float64), got.astype(np.float64)
        allowed = tol["atol"] + tol["rtol"] * np.abs(want)
        if want.size:
            worst = max(worst, float(np.max(np.abs(got - want) / allowed)))
    return worst


def build():
    """Builds every case: model text, golden sets and root attributes, in memory."""
    built = []
    for builder in case_defs.BUILDERS:
        seed = zlib.crc32(builder.__name__.encode("utf-8"))
        rng = np.random.default_rng(seed)
        case = builder(rng)
        assert case.name == builder.__name__, "builder %s names its case %s" % (
            builder.__name__, case.name)
        text = model_text(case)
        sets, margin = [], 0.0
        for _ in range(case.num_sets):
            feeds = case.make_inputs(rng)
            inputs = [(n, d, np.asarray(feeds[n]).astype(golden_h5.HDF5_DTYPES[d]))
                      for n, d, _ in case.inputs]
            outputs = evaluate(case, feeds, np.float64)
            margin = max(margin, tolerance_margin(case, outputs, evaluate(case, feeds, np.float32)))
            sets.append((inputs, outputs))
        root = {
            "producer": PRODUCER,
            "model_sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
            "opset_imports": "ai.onnx:%d" % case.opset,
            "created": CREATED,
            "source": "%s; inputs drawn from numpy.random.default_rng(%d)" % (SOURCE, seed),
        }
        built.append((case, text, root, sets, margin))
    return built


def suite_json(built):
    entries = []
    for case, _, _, _, _ in built:
        entry = {
            "name": case.name,
            "model": "models/%s.onnxtxt" % case.name,
            "golden": "%s/%s.h5" % (GOLDEN_REL, case.name),
            "op_types": op_types(case),
            "opset_imports": {"": case.opset},
            "tags": case.tags,
        }
        if case.tolerance:
            entry["tolerance"] = case.tolerance
        entries.append(entry)
    suite = {
        "name": "smoke",
        "description": "Small hand-written models covering every op of the ref EP's first "
                       "milestone (elementwise math with broadcasting, MatMul/Gemm, Conv, pooling, "
                       "BatchNormalization, Softmax, shape ops, Cast, Gather), a few ops at opsets "
                       "where their semantics differ, and a small CNN and MLP end to end.",
        "source": SOURCE,
        "license": "same as onnxgate",
        "golden_producer": PRODUCER,
        "format_version": 1,
        "default_tolerance": DEFAULT_TOLERANCE,
        "cases": entries,
    }
    return json.dumps(suite, indent=2) + "\n"


def write_text(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as out:
        out.write(text)
    os.replace(tmp, path)


def read_text(path):
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8", newline="") as src:
        return src.read()


def golden_differences(path, root, sets):
    """Describes how the golden at path differs from the expected one (empty list: identical)."""
    if not os.path.exists(path):
        return ["missing"]
    got_root, got_sets = golden_h5.read_golden(path)
    problems = ["root attribute %s: %r, expected %r" % (k, got_root.get(k), v)
                for k, v in dict(root, format=golden_h5.FORMAT).items() if got_root.get(k) != v]
    if got_root.get("format_version") not in (golden_h5.FORMAT_VERSION, 2):  # 2: upgraded
        problems.append("format_version %r" % got_root.get("format_version"))
    if len(got_sets) != len(sets):
        return problems + ["%d sets, expected %d" % (len(got_sets), len(sets))]
    for i, (want_set, got_set) in enumerate(zip(sets, got_sets)):
        for kind, want, got in zip(("inputs", "outputs"), want_set, got_set):
            if [(n, d) for n, d, _ in want] != [(n, d) for n, d, _ in got]:
                problems.append("sets/%d/%s: names or dtypes differ" % (i, kind))
                continue
            for (name, _, a), (_, _, b) in zip(want, got):
                if a.shape != b.shape or a.dtype != b.dtype or not np.array_equal(a, b):
                    problems.append("sets/%d/%s/%s: values differ" % (i, kind, name))
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="verify the files on disk instead of writing them")
    args = parser.parse_args()

    built = build()
    failures = []
    for case, _, _, _, margin in built:
        print("%-30s float32 error / tolerance = %.3g" % (case.name, margin))
        if margin > 1.0:
            failures.append("%s: a float32 evaluation fails the case tolerance (ratio %.3g)"
                            % (case.name, margin))
    expected_files = {os.path.join(SUITE_DIR, "suite.json"): suite_json(built)}
    for case, text, _, _, _ in built:
        expected_files[os.path.join(MODELS_DIR, case.name + ".onnxtxt")] = text

    if args.check:
        for path, text in expected_files.items():
            if read_text(path) != text:
                failures.append("%s: out of date" % os.path.relpath(path, REPO_ROOT))
        for case, _, root, sets, _ in built:
            path = os.path.join(GOLDEN_DIR, case.name + ".h5")
            failures.extend("%s: %s" % (os.path.relpath(path, REPO_ROOT), p)
                            for p in golden_differences(path, root, sets))
    else:
        os.makedirs(MODELS_DIR, exist_ok=True)
        os.makedirs(GOLDEN_DIR, exist_ok=True)
        for path, text in expected_files.items():
            write_text(path, text)
        for case, _, root, sets, _ in built:
            golden_h5.write_golden(os.path.join(GOLDEN_DIR, case.name + ".h5"), root, sets)
        # Files of cases that no longer exist would be picked up by nobody: remove them.
        names = {case.name for case, _, _, _, _ in built}
        for folder, ext in ((MODELS_DIR, ".onnxtxt"), (GOLDEN_DIR, ".h5")):
            for entry in sorted(os.listdir(folder)):
                if entry.endswith(ext) and entry[:-len(ext)] not in names:
                    print("removing stale %s" % os.path.join(folder, entry))
                    os.remove(os.path.join(folder, entry))
        print("wrote %d cases; add their checksums with: "
              "build/golden/onnxgate-upgrade-golden golden/data/smoke" % len(built))

    for failure in failures:
        print("error: " + failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
