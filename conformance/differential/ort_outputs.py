"""ONNX Runtime's outputs for the differential cases, computed through onnxgate's ONNX Runtime
adapter (adapters/ort/ort_adapter.py): its Adapter's load, run and unload handlers are called
with the headers and blobs of the adapter protocol (docs/adapter-protocol.md), so ONNX Runtime is
configured exactly as `--runtime ort` configures it (CPUExecutionProvider, optimization level 0,
one intra-op thread) and declines a model for the reasons the adapter reports.

Cases run in worker processes (`python3 ort_outputs.py --worker <source root>`), one case at a
time, so that a crash or hang of ONNX Runtime costs that case only (it is skipped, saying so).
A worker reads a case folder per line on stdin and answers one JSON line: {"ok": true} after
writing test_data_set_0/output_<k>.pb, or {"ok": false, "code": ..., "message": ...}.
"""

import importlib.util
import json
import os
import select
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # the adapter module is imported from the source tree

CASE_SECONDS = 20  # per case, load and run; ONNX Runtime takes milliseconds on these models


def _load_adapter(source_root):
    path = os.path.join(source_root, "adapters", "ort", "ort_adapter.py")
    spec = importlib.util.spec_from_file_location("onnxgate_ort_adapter", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # makes descriptor 1 a copy of stderr, as the adapter does
    return module


def _feed_blobs(case_dir):
    """The feeds of test_data_set_0 as protocol feeds and blobs: input_<k>.pb is the k-th graph
    input without an initializer, of the kind the model declares."""
    import onnx
    model = onnx.load(os.path.join(case_dir, "model.onnx"), load_external_data=False)
    initialized = {t.name for t in model.graph.initializer}
    declared = [i for i in model.graph.input if i.name not in initialized]
    feeds, blobs = [], []
    for k, info in enumerate(declared):
        path = os.path.join(case_dir, "test_data_set_0", "input_%d.pb" % k)
        if not os.path.exists(path):
            break
        with open(path, "rb") as f:
            blob = f.read()
        which = info.type.WhichOneof("value")
        kind = {"sequence_type": "sequence", "optional_type": "optional"}.get(which, "tensor")
        feeds.append({"name": info.name, "kind": kind, "blob": len(blobs)})
        blobs.append(blob)
    return feeds, blobs


def _run_case(adapter, module, case_dir):
    feeds, blobs = _feed_blobs(case_dir)
    header = {"op": "load", "model_path": os.path.join(case_dir, "model.onnx"),
              "providers": ["CPUExecutionProvider"], "optimization_level": 0,
              "intra_op_threads": 1, "fallback": "allow"}
    try:
        loaded, _ = adapter.load(header, [])
    except module.AdapterError as exc:
        return {"ok": False, "code": exc.code, "message": "load: " + str(exc)}
    try:
        reply, out_blobs = adapter.run({"op": "run", "model": loaded["model"], "feeds": feeds},
                                       blobs)
    except module.AdapterError as exc:
        return {"ok": False, "code": exc.code, "message": "run: " + str(exc)}
    finally:
        adapter.unload({"op": "unload", "model": loaded["model"]}, [])
    set_dir = os.path.join(case_dir, "test_data_set_0")
    for k, output in enumerate(reply["outputs"]):
        with open(os.path.join(set_dir, "output_%d.pb" % k), "wb") as f:
            f.write(out_blobs[output["blob"]])
    return {"ok": True}


def worker_main(source_root):
    replies = os.fdopen(os.dup(1), "w", buffering=1)  # before the adapter moves descriptor 1
    module = _load_adapter(source_root)
    adapter = module.Adapter()
    hello, _ = adapter.hello({"op": "hello", "protocol": module.adapter_protocol.PROTOCOL}, [])
    replies.write(json.dumps({"ready": True, "opsets": hello["opsets"], "ir": hello["ir"],
                              "version": module.ort.__version__}) + "\n")
    for line in sys.stdin:
        case_dir = line.rstrip("\n")
        try:
            answer = _run_case(adapter, module, case_dir)
        except Exception as exc:  # a fault of this script or of a file: that case's answer
            answer = {"ok": False, "code": "INTERNAL", "message": "%s: %s" % (
                type(exc).__name__, exc)}
        replies.write(json.dumps(answer) + "\n")
    return 0


class _Worker:
    def __init__(self, python, source_root):
        self.proc = subprocess.Popen(
            [python, os.path.abspath(__file__), "--worker", source_root],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            bufsize=1)
        self.case = None
        self.started = 0.0
        self.hello = self._read_line(120)

    def _read_line(self, seconds):
        ready, _, _ = select.select([self.proc.stdout], [], [], seconds)
        if not ready:
            return None
        line = self.proc.stdout.readline()
        return json.loads(line) if line else None

    def send(self, case):
        self.case, self.started = case, time.monotonic()
        self.proc.stdin.write(case + "\n")
        self.proc.stdin.flush()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def run_all(case_dirs, python, source_root, jobs):
    """{case dir: answer} for every case, on `jobs` workers; a worker that dies or passes
    CASE_SECONDS is replaced and its case answered as such."""
    pending = list(reversed(case_dirs))
    answers = {}
    workers = []
    info = None
    for _ in range(max(1, min(jobs, len(case_dirs)))):
        w = _Worker(python, source_root)
        if w.hello is None:
            w.stop()
            raise RuntimeError("the ONNX Runtime adapter did not start in a worker (run "
                               "ci/install-deps.sh to make .venv/ort)")
        info = w.hello
        workers.append(w)
    idle = list(workers)
    busy = []
    while pending or busy:
        while idle and pending:
            w = idle.pop()
            w.send(pending.pop())
            busy.append(w)
        ready, _, _ = select.select([w.proc.stdout for w in busy], [], [], 1.0)
        for w in list(busy):
            answer = None
            if w.proc.stdout in ready:
                line = w.proc.stdout.readline()
                answer = json.loads(line) if line else {
                    "ok": False, "code": "CRASH",
                    "message": "ONNX Runtime's worker died (exit %s)" % w.proc.wait()}
            elif time.monotonic() - w.started > CASE_SECONDS:
                answer = {"ok": False, "code": "TIMEOUT",
                          "message": "ONNX Runtime did not finish in %d s" % CASE_SECONDS}
            if answer is None:
                continue
            answers[w.case] = answer
            busy.remove(w)
            if answer.get("code") in ("CRASH", "TIMEOUT"):
                w.stop()
                w = _Worker(python, source_root)
                if w.hello is None:
                    raise RuntimeError("the ONNX Runtime adapter did not restart in a worker")
            idle.append(w)
    for w in idle:
        w.proc.stdin.close()
        w.stop()
    return answers, info


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        sys.exit(worker_main(sys.argv[2]))
    sys.exit("usage: ort_outputs.py --worker <source root>")
