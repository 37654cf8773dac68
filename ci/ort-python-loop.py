#!/usr/bin/env python3
"""ONNX Runtime's own Python loop over a suite, for comparing onnxgate's speed with it: in one
process, for every case, load the model, feed the inputs of every data set from its golden,
and compare the outputs with numpy (np.allclose, rtol 1e-3, atol 1e-5). No isolation, no
reports. Cases with inputs or outputs that are not tensors of numpy's types are skipped and
counted. Run from the ONNX Runtime adapter's environment:

    .venv/ort/bin/python ci/ort-python-loop.py <repository root> <suite>
"""

import json
import os
import sys
import time

import h5py
import numpy as np
import onnxruntime as ort

NATIVE = {"FLOAT": np.float32, "UINT8": np.uint8, "INT8": np.int8, "UINT16": np.uint16,
          "INT16": np.int16, "INT32": np.int32, "INT64": np.int64, "BOOL": np.bool_,
          "FLOAT16": np.float16, "DOUBLE": np.float64, "UINT32": np.uint32, "UINT64": np.uint64}


def values(group):
    out = {}
    for name in group:
        ds = group[name]
        if str(ds.attrs.get("kind", "tensor")) != "tensor":
            return None
        dtype = NATIVE.get(str(ds.attrs["onnx_dtype"]))
        if dtype is None:
            return None
        shape = tuple(int(d) for d in ds.attrs["shape"])
        out[str(ds.attrs["name"])] = np.asarray(ds[()]).astype(dtype).reshape(shape)
    return out


def main():
    root, suite = sys.argv[1], sys.argv[2]
    cases = json.load(open(os.path.join(root, "suites", suite, "suite.json")))["cases"]
    so = ort.SessionOptions()
    so.log_severity_level = 3
    so.intra_op_num_threads = 1
    start = time.perf_counter()
    ran = passed = skipped = errors = 0
    for case in cases:
        golden = os.path.join(root, "golden", "data", suite, case["name"] + ".h5")
        model = os.path.join(root, "suites", suite, case["model"])
        try:
            with h5py.File(golden, "r") as f:
                sets = [(values(f["sets"][s]["inputs"]), values(f["sets"][s]["outputs"]))
                        for s in f["sets"]]
        except (OSError, KeyError, ValueError):
            skipped += 1
            continue
        if any(i is None or o is None for i, o in sets):
            skipped += 1
            continue
        ran += 1
        try:
            session = ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])
            names = [o.name for o in session.get_outputs()]
            ok = True
            for inputs, expected in sets:
                got = dict(zip(names, session.run(None, inputs)))
                for name, want in expected.items():
                    have = got.get(name)
                    if have is None or have.shape != want.shape:
                        ok = False
                    elif want.dtype.kind in "fc":
                        ok &= bool(np.allclose(have, want, rtol=1e-3, atol=1e-5, equal_nan=True))
                    else:
                        ok &= bool(np.array_equal(have, want))
            passed += ok
        except Exception:
            errors += 1
    seconds = time.perf_counter() - start
    print(json.dumps({"suite": suite, "cases": len(cases), "ran": ran, "passed": passed,
                      "errors": errors, "skipped": skipped, "seconds": round(seconds, 2)}))


if __name__ == "__main__":
    main()
