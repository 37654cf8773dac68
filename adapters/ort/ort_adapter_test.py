#!/usr/bin/env python3
"""Tests of the ONNX Runtime adapter's options, version limits, provider probes and placements,
and of the adapter driven through the protocol, run by the CTests unit.ort_adapter and
unit.ort_openvino_adapter with the Python of each ONNX Runtime package:

    .venv/ort/bin/python adapters/ort/ort_adapter_test.py
    .venv/ort-openvino/bin/python adapters/ort/ort_adapter_test.py

Tests that need a provider the package lacks (AzureExecutionProvider in onnxruntime,
OpenVINOExecutionProvider in onnxruntime-openvino) are skipped, saying so.
"""

import os
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "common"))
import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnx import helper, numpy_helper  # noqa: E402
import onnxruntime as ort  # noqa: E402

from adapter_client import AdapterClient  # noqa: E402
import ort_options  # noqa: E402
import ort_placements  # noqa: E402
import ort_probe  # noqa: E402
import ort_versions  # noqa: E402

CPU = "CPUExecutionProvider"
AZURE = "AzureExecutionProvider"
OPENVINO = "OpenVINOExecutionProvider"
AVAILABLE = [CPU, AZURE]
HAS_AZURE = AZURE in ort.get_available_providers()
HAS_OPENVINO = OPENVINO in ort.get_available_providers()


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


def conv_relu_model():
    """Conv then Relu: ONNX Runtime's level-2 optimizations fuse them on the CPU provider."""
    weights = numpy_helper.from_array(np.ones((2, 1, 3, 3), np.float32), "W")
    value = helper.make_tensor_value_info
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "W"], ["c"], name="conv"),
         helper.make_node("Relu", ["c"], ["y"], name="relu")], "conv_relu",
        [value("x", onnx.TensorProto.FLOAT, [1, 1, 5, 5])],
        [value("y", onnx.TensorProto.FLOAT, None)], [weights])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    return model


class OptimizedPlacementsTest(unittest.TestCase):
    def test_fused_nodes_take_the_provider_of_what_they_replace(self):
        node = helper.make_node
        original = [node("Conv", ["x", "W"], ["c"], name="conv"),
                    node("Relu", ["c"], ["y"], name="relu"),
                    node("Neg", ["y"], ["z"], name="neg")]
        recorded = [ort_placements.placement(n.name, n.op_type, "", p, [AZURE, CPU])
                    for n, p in zip(original, [CPU, CPU, AZURE])]
        optimized = [node("FusedConv", ["x", "W"], ["y"], name="fused", domain="com.microsoft"),
                     node("Neg", ["y"], ["z"], name="neg"),
                     node("Orphan", ["z"], ["w"], name="")]
        placements = ort_placements.after_optimization(recorded, original, optimized,
                                                       [AZURE, CPU])
        self.assertEqual([(p["node"], p["op_type"], p["provider"]) for p in placements],
                         [("fused", "FusedConv", CPU), ("neg", "Neg", AZURE),
                          ("Orphan_2", "Orphan", CPU)])
        self.assertEqual(placements[0]["domain"], "com.microsoft")
        self.assertEqual(len(placements[0]["declines"]), 1)

    def test_only_sessions_that_optimize_without_compiling_providers_save_their_model(self):
        self.assertFalse(ort_placements.saves_optimized_model(0, [CPU]))
        self.assertTrue(ort_placements.saves_optimized_model(2, [CPU]))
        self.assertFalse(ort_placements.saves_optimized_model(2, [OPENVINO, CPU]))


class FakeSession:
    def __init__(self, model, options, providers, provider_options):
        if providers == ["BrokenExecutionProvider"]:
            raise RuntimeError("BrokenExecutionProvider: cannot start")
        lost = providers[0] == "GoneExecutionProvider" or provider_options[0].get("bad")
        self.providers = [CPU] if lost else providers + [CPU]

    def get_providers(self):
        return self.providers


class FakeOrt:
    __version__ = "0.0"
    SessionOptions = type("SessionOptions", (), {})
    InferenceSession = FakeSession


class ProbeTest(unittest.TestCase):
    def test_a_provider_missing_from_its_session_is_unavailable_with_what_was_said(self):
        unavailable = ort_probe.unavailable_providers(
            FakeOrt, [CPU, "GoneExecutionProvider", "BrokenExecutionProvider", AZURE], {}, b"")
        self.assertEqual(sorted(unavailable), ["BrokenExecutionProvider",
                                               "GoneExecutionProvider"])
        self.assertIn("cannot create GoneExecutionProvider on this machine",
                      unavailable["GoneExecutionProvider"])
        self.assertIn("cannot start", unavailable["BrokenExecutionProvider"])

    def test_options_a_provider_refuses_are_named(self):
        with self.assertRaises(ort_probe.ProviderOptionError) as caught:
            ort_probe.unavailable_providers(FakeOrt, [CPU, AZURE], {AZURE: {"bad": "1"}}, b"")
        self.assertIn("provider_option.%s.bad=1" % AZURE, str(caught.exception))

    def test_console_lines_that_say_what_went_wrong(self):
        said = ort_probe.what_was_said("\x1b[1;31m2026 [E:onnxruntime] Device GPU is not "
                                       "available\x1b[m\n****\nall fine\n")
        self.assertEqual(said, "2026 [E:onnxruntime] Device GPU is not available")


class ProtocolTest(unittest.TestCase):
    def setUp(self):
        self.adapter = AdapterClient(os.path.join(HERE, "ort_adapter.py"))
        self.model = tempfile.NamedTemporaryFile(suffix=".onnx")
        self.model.write(ort_versions.probe_model(8, {"": 13}))
        self.model.flush()

    def tearDown(self):
        self.adapter.close()
        self.model.close()

    def load(self, providers, fallback, path=None, level=0):
        return self.adapter.ask(op="load", model_path=path or self.model.name,
                                providers=providers, fallback=fallback, optimization_level=level,
                                intra_op_threads=1)

    def hello(self, **options):
        return self.adapter.ask(op="hello", protocol=2, options=options)

    def test_level_2_placements_are_the_nodes_onnx_runtime_ran(self):
        self.assertTrue(self.hello()["ok"])
        with tempfile.TemporaryDirectory() as scratch:
            path = os.path.join(scratch, "conv_relu.onnx")
            onnx.save(conv_relu_model(), path)
            options = ort.SessionOptions()
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            options.log_severity_level = 3
            options.optimized_model_filepath = os.path.join(scratch, "optimized.onnx")
            ort.InferenceSession(path, options, providers=[CPU])
            ran = [(n.op_type, n.domain) for n in onnx.load(options.optimized_model_filepath)
                   .graph.node]
            self.assertNotEqual(ran, [("Conv", ""), ("Relu", "")], "nothing was fused")
            for level, want in [(0, [("Conv", ""), ("Relu", "")]), (2, ran)]:
                loaded = self.load([CPU], "forbid", path, level)
                self.assertTrue(loaded["ok"], loaded)
                self.assertEqual([(p["op_type"], p["domain"]) for p in loaded["placements"]],
                                 want)
                self.assertEqual({p["provider"] for p in loaded["placements"]}, {CPU})

    @unittest.skipUnless(HAS_OPENVINO, "needs onnxruntime-openvino")
    def test_openvino_options_it_refuses_fail_the_hello_naming_them(self):
        hello = self.hello(**{"provider_option.%s.nosuch" % OPENVINO: "1"})
        self.assertEqual(hello["code"], "INVALID_ARGUMENT", hello)
        self.assertIn("provider_option.%s.nosuch=1" % OPENVINO, hello["message"])
        self.assertIn("Invalid OpenVINO EP option: nosuch", hello["message"])

    @unittest.skipUnless(HAS_OPENVINO, "needs onnxruntime-openvino")
    def test_openvino_takes_the_node_and_a_forbidden_fallback_is_not_one(self):
        hello = self.hello()
        self.assertTrue(hello["ok"], hello)
        self.assertNotIn(OPENVINO, hello["unavailable"])
        loaded = self.load([OPENVINO], "forbid")
        self.assertTrue(loaded["ok"], loaded)
        self.assertEqual([p["provider"] for p in loaded["placements"]], [OPENVINO])

    @unittest.skipUnless(HAS_AZURE, "needs AzureExecutionProvider (onnxruntime)")
    def test_hello_takes_the_priority_list_and_says_the_limits(self):
        hello = self.hello(providers=AZURE)
        self.assertTrue(hello["ok"], hello)
        self.assertEqual(hello["providers"][0], AZURE)
        self.assertEqual(hello["ir"], ort_versions.accepted_versions(ort)[0])

    def test_an_unknown_option_fails_the_hello(self):
        hello = self.hello(colour="red")
        self.assertFalse(hello["ok"])
        self.assertIn("'colour'", hello["message"])

    @unittest.skipUnless(HAS_AZURE, "needs AzureExecutionProvider (onnxruntime)")
    def test_fallback(self):
        self.assertTrue(self.hello()["ok"])
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
        hello = self.hello()
        self.assertIn("timed_runs", hello["capabilities"])
        model = self.load([CPU], "allow")["model"]
        x = numpy_helper.from_array(np.array([1.5], dtype=np.float32), "x").SerializeToString()
        feeds = [{"name": "x", "kind": "tensor", "dtype": 1, "blob": 0}]
        timed = self.adapter.ask(blobs=[x], op="timed_runs", model=model, feeds=feeds, runs=5)
        self.assertTrue(timed["ok"], timed)
        self.assertEqual(timed["clock"], "perf_counter")
        self.assertEqual(len(timed["times_ms"]), 5)
        self.assertTrue(all(t >= 0 for t in timed["times_ms"]))
        refused = self.adapter.ask(blobs=[x], op="timed_runs", model=model, feeds=feeds, runs=0)
        self.assertEqual(refused["code"], "INVALID_ARGUMENT", refused)


if __name__ == "__main__":
    unittest.main()
