#!/usr/bin/env python3
"""Writes the differential cases of `ref` against ONNX Runtime as ONNX backend-test folders
(model.onnx, test_data_set_0/input_<k>.pb, output_<k>.pb) whose outputs are ONNX Runtime's,
and a manifest of what was generated, what ONNX Runtime declined and why, and which of ref's op
versions no case reaches. conformance/differential/run.sh imports the folders as a suite and
gates ref against them (docs/architecture.md, "Differential testing against ONNX Runtime").

    generate.py --source-root <repo> --ref-ops <onnxgate ops --ep ref --json> --out <folder>
                --manifest <file.json> [--seed N] [--jobs N]

Run it with the ONNX Runtime adapter's Python (.venv/ort/bin/python: onnx, numpy, h5py,
onnxruntime). Everything is derived from the seed and the committed suites: two runs write the
same models and inputs.

Seeds are the single-node models of the ONNX node suites (suites/onnx-node, onnx-node-1.12;
identical models once). Each gives: the model as it is, with fresh inputs (feeds.py); its
attribute and optional-input variants (variants.py); and the model converted to every other
version of its op that ref registers, up to the highest opset ONNX Runtime loads. An op version
of ref that no seed reaches gets a minimal model when its schema is elementwise.
"""

import argparse
import collections
import copy
import hashlib
import json
import os
import re
import shutil
import sys
import time
import zlib

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnx import checker, defs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import feeds  # noqa: E402
import ort_outputs  # noqa: E402
import variants  # noqa: E402

SUITES = [("onnx-node", "n"), ("onnx-node-1.12", "n112")]
# Variants of one kind per op and opset (see generate()): enough to vary dtypes and attributes,
# few enough that the test stays within minutes on two cores.
VARIANTS_PER_KIND = 6


def qualified(domain, op_type):
    return op_type if domain in ("", "ai.onnx") else domain + "." + op_type


def claimed_versions(ops_json):
    """{(domain, op_type): set of since versions ref claims}, from `onnxgate ops --json`."""
    with open(ops_json) as f:
        doc = json.load(f)
    out = {}
    for op in doc["operators"]:
        name = op["op"]
        domain, _, op_type = name.rpartition(".")
        since = {v["since_version"] for v in op["versions"] if v["claimed"]}
        if since:
            out[(domain, op_type)] = since
    return out


def opset_of(model, domain):
    for o in model.opset_import:
        if o.domain == domain or (domain in ("", "ai.onnx") and o.domain in ("", "ai.onnx")):
            return o.version
    return None


def active_since(model):
    node = model.graph.node[0]
    opset = opset_of(model, node.domain)
    schema = variants.schema_of(node, opset) if opset is not None else None
    return (schema.since_version if schema else None), opset


def seeds(source_root):
    """[(suite, prefix, case name, model, golden path)] of the single-node cases, each model
    once (by its bytes)."""
    seen = set()
    out = []
    for suite, prefix in SUITES:
        suite_dir = os.path.join(source_root, "suites", suite)
        with open(os.path.join(suite_dir, "suite.json")) as f:
            cases = json.load(f)["cases"]
        for case in cases:
            with open(os.path.join(suite_dir, case["model"]), "rb") as f:
                data = f.read()
            digest = hashlib.sha256(data).hexdigest()
            model = onnx.load_model_from_string(data)
            if len(model.graph.node) != 1 or digest in seen:
                continue
            seen.add(digest)
            golden = os.path.normpath(os.path.join(suite_dir, case["golden"]))
            out.append((suite, prefix, case["name"], model, golden))
    return out


def write_case(out_dir, name, model, goldens, roles, seed, max_ir):
    """Writes one backend-test folder with inputs drawn for it; returns its path. A model whose
    IR version ONNX Runtime does not load is written at the highest one it does (the IR version
    changes no operator's meaning; a model that needs a later one fails ONNX Runtime's load)."""
    if model.ir_version > max_ir:
        model = copy.deepcopy(model)
        model.ir_version = max_ir
    case_dir = os.path.join(out_dir, name)
    set_dir = os.path.join(case_dir, "test_data_set_0")
    os.makedirs(set_dir)
    onnx.save_model(model, os.path.join(case_dir, "model.onnx"))
    rng = np.random.default_rng([seed, zlib.crc32(name.encode())])
    initialized = {t.name for t in model.graph.initializer}
    fed = [i.name for i in model.graph.input if i.name not in initialized]
    for k, input_name in enumerate(fed):
        golden = goldens[input_name]
        value = feeds.draw_value(rng, golden, roles.get(input_name, "keep"))
        proto = feeds.to_proto(input_name, golden, value)
        with open(os.path.join(set_dir, "input_%d.pb" % k), "wb") as f:
            f.write(proto.SerializeToString())
    return case_dir


def seed_bases(model, claimed, max_opset, constants):
    """[(suffix, wanted since version, make)]: the model itself and its conversions to the
    other versions of its op that ref claims; make() gives (model, None) or (None, why not)."""
    node = model.graph.node[0]
    since, opset = active_since(model)
    out = [("base", since, lambda: (model, None))]
    versions = claimed.get((node.domain if node.domain != "ai.onnx" else "", node.op_type), set())
    if node.domain in ("", "ai.onnx"):
        for target, target_since in variants.conversion_targets(
                "", node.op_type, since, opset, versions, max_opset):
            out.append(("opset_%d" % target, target_since,
                        lambda t=target: variants.converted(model, t, constants)))
    return out


def valid(model, is_base):
    """None when the model passes ONNX's checker with strict shape inference (the base case is
    taken as the suite has it), else the checker's first line."""
    if is_base:
        return None
    try:
        checker.check_model(model, full_check=True)
    except Exception as exc:  # checker and shape-inference errors
        return str(exc).strip().splitlines()[0][:200]
    return None


class CaseWriter:
    """Writes the cases of one seed and records them in the manifest's entries."""

    def __init__(self, args, limits, entries, dirs, made):
        self.args, self.limits = args, limits
        self.entries, self.dirs, self.made = entries, dirs, made

    def start_seed(self, suite, prefix, case_name, model, golden_path):
        self.suite, self.prefix, self.case_name = suite, prefix, case_name
        self.goldens = feeds.read_golden_inputs(golden_path)
        node = model.graph.node[0]
        self.op = qualified(node.domain, node.op_type)
        roles = feeds.input_roles(variants.schema_of(node, opset_of(model, node.domain)), node,
                                  {i.name for i in model.graph.input})
        self.constants = feeds.kept_constants(self.goldens, roles)

    def write(self, suffix, wanted_since, kind, make):
        """Makes, checks and writes one case; returns its model, or None. `kind` is its key
        for the VARIANTS_PER_KIND cap (None: no cap)."""
        if kind is not None and self.made[kind] >= VARIANTS_PER_KIND:
            self.made["capped"] += 1
            return None
        name = "%s__%s__%s" % (self.case_name, self.prefix, suffix)
        entry = {"case": name, "seed": "%s/%s" % (self.suite, self.case_name),
                 "variant": suffix, "wanted": [self.op, wanted_since]}
        self.entries.append(entry)
        model, why = make()
        if why is None:
            why = valid(model, suffix == "base")
            why = None if why is None else "ONNX's checker: " + why
        if why is not None:
            entry["not_generated"] = why
            return None
        if kind is not None:
            self.made[kind] += 1
        node = model.graph.node[0]
        since, opset = active_since(model)
        entry.update({"op": qualified(node.domain, node.op_type), "since": since,
                      "opset": opset})
        roles = feeds.input_roles(variants.schema_of(node, opset), node,
                                  {i.name for i in model.graph.input})
        self.dirs.append(write_case(self.args.out, name, model, self.goldens, roles,
                                    self.args.seed, self.limits["ir"]))
        return model


def generate(args, claimed, limits):
    """Writes every case; returns (manifest cases, case dirs, variants left out by the cap).
    Each seed gives its model and its conversions (bases), and each base that ONNX Runtime
    can load its attribute and input variants. Conversions of one op to one opset, and
    variants of one kind (a flip, a drop) of one op at one opset, are made from the first
    VARIANTS_PER_KIND seeds that have them, in suite order."""
    entries, dirs = [], []
    made = collections.Counter()
    writer = CaseWriter(args, limits, entries, dirs, made)
    for suite, prefix, case_name, model, golden_path in seeds(args.source_root):
        writer.start_seed(suite, prefix, case_name, model, golden_path)
        for base_suffix, wanted_since, make in seed_bases(model, claimed, limits["opset"],
                                                                writer.constants):
            target = None if base_suffix == "base" else int(base_suffix.split("_")[1])
            kind = None if target is None else (writer.op, target, "convert")
            base = writer.write(base_suffix, wanted_since, kind, make)
            if base is None:
                continue
            since, opset = active_since(base)
            if opset is not None and opset > limits["opset"]:
                continue  # ONNX Runtime cannot load it: no variants of it either
            for suffix, make_variant in variants.attribute_variants(base, opset,
                                                                    writer.constants):
                full = suffix if base_suffix == "base" else base_suffix + "__" + suffix
                writer.write(full, since, (writer.op, opset, suffix),
                             lambda m=make_variant: (m(), None))
    return entries, dirs, made["capped"]


def minimal_cases(args, claimed, entries, limits):
    """Minimal models for claimed op versions no generated case reaches."""
    reached = {(e["op"], e["since"]) for e in entries if "op" in e}
    dirs = []
    for (domain, op_type), sinces in sorted(claimed.items()):
        for since, _ in variants.version_ranges(domain, op_type):
            if since not in sinces or since > limits["opset"] or (
                    qualified(domain, op_type), since) in reached:
                continue
            opset = since
            model = variants.minimal_model(domain, op_type, since, opset, 8)
            if model is None or valid(model, False) is not None:
                continue
            name = "test_minimal_%s__v%d" % (op_type, since)
            shape = (2, 3, 4)
            dtype = onnx.helper.tensor_dtype_to_np_dtype(
                model.graph.input[0].type.tensor_type.elem_type)
            goldens = {}
            for i in model.graph.input:
                base = np.linspace(-2.0, 2.0, num=24).reshape(shape).astype(dtype)
                goldens[i.name] = feeds.GoldenValue(
                    i.name, "tensor", onnx.TensorProto.DataType.Name(
                        i.type.tensor_type.elem_type), base)
            roles = {i.name: "generic" for i in model.graph.input}
            dirs.append(write_case(args.out, name, model, goldens, roles, args.seed, limits["ir"]))
            entries.append({"case": name, "seed": "schema", "variant": "minimal",
                            "op": qualified(domain, op_type), "since": since, "opset": opset})
    return dirs


def ort_reason(answer, case_dir):
    """ONNX Runtime's reason for declining a case, on one line, without the scratch path."""
    message = str(answer.get("message", "")).replace(case_dir + os.sep, "").replace(case_dir, "")
    message = re.sub(r"\[ONNXRuntimeError\] : \d+ : ", "", message)
    message = re.sub(r"Load model from \S+ failed:", "", message)
    message = " ".join(message.split())
    return "%s: %s" % (answer.get("code"), message[:300])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source-root", required=True)
    parser.add_argument("--ref-ops", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--seed", type=int, default=20261128)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    os.makedirs(args.out)
    claimed = claimed_versions(args.ref_ops)

    # One worker first, to learn the opsets ONNX Runtime loads.
    _, info = ort_outputs.run_all([], sys.executable, args.source_root, 1)
    # The highest ai.onnx opset and IR version ONNX Runtime loads, as its adapter says.
    limits = {"opset": info["opsets"][""][1], "ir": info["ir"][1]}
    started = time.monotonic()
    entries, dirs, capped = generate(args, claimed, limits)
    dirs += minimal_cases(args, claimed, entries, limits)
    written = time.monotonic()
    answers, info = ort_outputs.run_all(dirs, sys.executable, args.source_root, args.jobs)
    by_case = {e["case"]: e for e in entries}
    for case_dir, answer in answers.items():
        entry = by_case[os.path.basename(case_dir)]
        if answer["ok"]:
            entry["ort"] = "ran"
        else:
            entry["ort"] = ort_reason(answer, case_dir)
            shutil.rmtree(case_dir)
    manifest = {"seed": args.seed, "onnxruntime": info["version"], "ort_opsets": info["opsets"],
                "variants_per_kind": VARIANTS_PER_KIND, "capped": capped,
                "ref_claims": sorted([qualified(d, o), v] for (d, o), s in claimed.items()
                                     for v in s),
                "cases": entries}
    with open(args.manifest, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    ran = sum(1 for e in entries if e.get("ort") == "ran")
    print("generate.py: %d case(s) written in %.0f s; ONNX Runtime %s ran %d in %.0f s"
          % (len(dirs), written - started, info["version"], ran, time.monotonic() - written),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
