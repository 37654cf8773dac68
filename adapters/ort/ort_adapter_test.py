#!/usr/bin/env python3
"""Tests of the ONNX Runtime adapter's options, version limits and placements, and of the adapter
driven through the protocol, run by the CTest unit.ort_adapter with the adapter's Python:

    .venv/ort/bin/python adapters/ort/ort_adapter_test.py
"""

import json
import os
import struct
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import numpy as np  # noqa: E402
import onnxruntime as ort  # noqa: E402
from onnx import numpy_helper  # noqa: E402

import ort_options  # noqa: E402
import ort_placements  # noqa: E402
import ort_versions  # noqa: E402

CPU = "CPUExecutionProvider"
AZURE = "AzureExecutionProvider"
AVAILABLE = [CPU, AZURE]


class OptionsTest(unittest.TestCase):
    def test_every_key(self):
        parsed = ort_options.parse({"providers": "%s,%s" % (AZURE, CPU),
                                    "provider_option.%s.device_id" % CPU: "0",
                                    "session_config.session.x.y": "1",
                                    "log_severity": "0"}, AVAILABLE)
        self.assertEqual(parsed.providers, [AZURE, CPU])
        self.assertEqual(parsed.provider_options, {CPU: {"device_id": "0"}})
        self.assertEqual(parsed.session_config, {"session.x.y": "1"})
        self.assertEqual(parsed.log_severity, 0)

    def test_defaults(self):
        parsed = ort_options.parse({}, AVAILABLE)
        self.assertEqual(parsed.log_severity, 3)
        self.assertEqual(parsed.session_providers([CPU]), [CPU])

    def test_session_providers_follow_the_load_then_the_list(self):
        parsed = ort_options.parse({"providers": "%s,%s" % (AZURE, CPU)}, AVAILABLE)
        self.assertEqual(parsed.session_providers([AZURE]), [AZURE, CPU])
        self.assertEqual(parsed.session_providers([CPU]), [CPU, AZURE])

    def test_errors_name_the_option(self):
        for options, needle in [({"threads": "2"}, "unknown runtime option 'threads'"),
                                ({"providers": "NoSuchEP"}, "'NoSuchEP'"),
                                ({"providers": "%s,%s" % (CPU, CPU)}, "twice"),
                                ({"provider_option.NoSuchEP.x": "1"}, "'NoSuchEP'"),
                                ({"provider_option.%s" % CPU: "1"}, "provider_option.<provider>"),
                                ({"session_config.": "1"}, "'session_config.'"),
                                ({"log_severity": "5"}, "'log_severity'")]:
            with self.assertRaises(ort_options.OptionError) as caught:
                ort_options.parse(options, AVAILABLE)
            self.assertIn(needle, str(caught.exception))


def loads(model):
    return ort_versions.refusal(ort, model) is None


class VersionsTest(unittest.TestCase):
    def test_limits_are_where_onnx_runtime_draws_them(self):
        ir, opsets = ort_versions.accepted_versions(ort)
        self.assertTrue(loads(ort_versions.probe_model(ir[1], {"": 7})))
        self.assertFalse(loads(ort_versions.probe_model(ir[1] + 1, {"": 7})))
        top = opsets[""][1]
        self.assertTrue(loads(ort_versions.probe_model(ir[1], {"": top})))
        self.assertFalse(loads(ort_versions.probe_model(ir[1], {"": top + 1})))
        self.assertIn("ai.onnx.ml", opsets)


class PlacementsTest(unittest.TestCase):
    def test_declines_have_reasons(self):
        self.assertEqual(ort_placements.declines(CPU, [CPU]), [])
        self.assertEqual(ort_placements.declines(CPU, [AZURE, CPU]),
                         [{"provider": AZURE, "reason": ort_placements.NO_REASON % CPU}])
        self.assertEqual(len(ort_placements.declines(CPU, [AZURE])), 1)

    def test_forbidden_fallback(self):
        on_cpu = [{"node": "n", "op_type": "Relu", "provider": CPU}]
        ort_placements.check_no_fallback(on_cpu, [CPU])
        ort_placements.check_no_fallback(None, [CPU])  # nothing can fall back
        with self.assertRaises(ort_placements.PlacementError) as caught:
            ort_placements.check_no_fallback(on_cpu, [AZURE, CPU])
        self.assertEqual(caught.exception.code, "UNIMPLEMENTED")
        self.assertIn("node 'n' (Relu) falls back to %s, not %s" % (CPU, AZURE),
                      str(caught.exception))
        with self.assertRaises(ort_placements.PlacementError) as caught:
            ort_placements.check_no_fallback(None, [AZURE])
        self.assertEqual(caught.exception.code, "UNAVAILABLE")


class Adapter:
    """ort_adapter.py in a process of its own, spoken to through frames."""

    def __init__(self):
        self.process = subprocess.Popen([sys.executable, os.path.join(HERE, "ort_adapter.py")],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 1

    def call(self, blobs=(), **header):
        header["id"] = self.next_id
        self.next_id += 1
        data = json.dumps(header).encode()
        frame = [b"OGA1", struct.pack("<II", len(data), len(blobs)), data]
        for blob in blobs:
            frame += [struct.pack("<Q", len(blob)), blob]
        self.process.stdin.write(b"".join(frame))
        self.process.stdin.flush()
        magic, size, blobs = struct.unpack("<4sII", self.process.stdout.read(12))
        reply = json.loads(self.process.stdout.read(size))
        for _ in range(blobs):
            (n,) = struct.unpack("<Q", self.process.stdout.read(8))
            self.process.stdout.read(n)
        return reply

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=60)
        self.process.stdout.close()


class ProtocolTest(unittest.TestCase):
    def setUp(self):
        self.adapter = Adapter()
        self.model = tempfile.NamedTemporaryFile(suffix=".onnx")
        self.model.write(ort_versions.probe_model(8, {"": 13}))
        self.model.flush()

    def tearDown(self):
        self.adapter.close()
        self.model.close()

    def load(self, providers, fallback):
        return self.adapter.call(op="load", model_path=self.model.name, providers=providers,
                                 fallback=fallback, optimization_level=0, intra_op_threads=1)

    def test_hello_takes_the_priority_list_and_says_the_limits(self):
        hello = self.adapter.call(op="hello", protocol=2, options={"providers": AZURE})
        self.assertTrue(hello["ok"], hello)
        self.assertEqual(hello["providers"][0], AZURE)
        self.assertEqual(hello["ir"], ort_versions.accepted_versions(ort)[0])

    def test_an_unknown_option_fails_the_hello(self):
        hello = self.adapter.call(op="hello", protocol=2, options={"colour": "red"})
        self.assertFalse(hello["ok"])
        self.assertIn("'colour'", hello["message"])

    def test_fallback(self):
        self.assertTrue(self.adapter.call(op="hello", protocol=2, options={})["ok"])
        allowed = self.load([AZURE, CPU], "allow")
        self.assertTrue(allowed["ok"], allowed)
        [placement] = allowed["placements"]
        self.assertEqual(placement["provider"], CPU)
        self.assertEqual(placement["declines"],
                         [{"provider": AZURE, "reason": ort_placements.NO_REASON % CPU}])
        forbidden = self.load([AZURE], "forbid")
        self.assertEqual(forbidden["code"], "UNIMPLEMENTED", forbidden)
        self.assertIn("(Identity) falls back to %s" % CPU, forbidden["message"])
        self.assertTrue(self.load([CPU], "forbid")["ok"])

    def test_timed_runs_time_each_run(self):
        hello = self.adapter.call(op="hello", protocol=2, options={})
        self.assertIn("timed_runs", hello["capabilities"])
        model = self.load([CPU], "allow")["model"]
        x = numpy_helper.from_array(np.array([1.5], dtype=np.float32), "x").SerializeToString()
        feeds = [{"name": "x", "kind": "tensor", "dtype": 1, "blob": 0}]
        timed = self.adapter.call(blobs=[x], op="timed_runs", model=model, feeds=feeds, runs=5)
        self.assertTrue(timed["ok"], timed)
        self.assertEqual(timed["clock"], "perf_counter")
        self.assertEqual(len(timed["times_ms"]), 5)
        self.assertTrue(all(t >= 0 for t in timed["times_ms"]))
        refused = self.adapter.call(blobs=[x], op="timed_runs", model=model, feeds=feeds, runs=0)
        self.assertEqual(refused["code"], "INVALID_ARGUMENT", refused)


if __name__ == "__main__":
    unittest.main()
