#!/usr/bin/env python3
"""Tests of the OpenVINO adapter's options and version limits, and of the adapter driven through
the protocol, run by the CTest unit.openvino_adapter with the adapter's Python:

    .venv/openvino/bin/python adapters/openvino/openvino_adapter_test.py
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
import openvino as ov  # noqa: E402

from adapter_client import AdapterClient  # noqa: E402
import openvino_options  # noqa: E402
import openvino_versions  # noqa: E402

DEVICES = ["CPU", "GPU"]


class OptionsTest(unittest.TestCase):
    def test_every_form(self):
        parsed = openvino_options.parse({"config.NUM_STREAMS": "1", "CPU.PERF_COUNT": "NO"},
                                        DEVICES)
        self.assertEqual(parsed.properties, {"CPU": {"NUM_STREAMS": "1", "PERF_COUNT": "NO"},
                                             "GPU": {"NUM_STREAMS": "1"}})
        self.assertEqual(parsed.config_for("CPU", 3),
                         {"EXECUTION_MODE_HINT": "ACCURACY", "INFERENCE_NUM_THREADS": "3",
                          "NUM_STREAMS": "1", "PERF_COUNT": "NO"})

    def test_an_option_overrides_a_default(self):
        parsed = openvino_options.parse({"CPU.EXECUTION_MODE_HINT": "PERFORMANCE"}, DEVICES)
        self.assertEqual(parsed.config_for("CPU", 1)["EXECUTION_MODE_HINT"], "PERFORMANCE")

    def test_errors_name_the_option(self):
        for options, needle in [({"threads": "2"}, "unknown runtime option 'threads'"),
                                ({"NPU.X": "1"}, "unknown device 'NPU'"),
                                ({"config.X": 1}, "expected a string")]:
            with self.assertRaises(openvino_options.OptionError) as caught:
                openvino_options.parse(options, DEVICES)
            self.assertIn(needle, str(caught.exception))

    def test_openvino_refusals_name_the_option_and_the_device(self):
        core = ov.Core()
        for options, needle in [({"CPU.NO_SUCH_KEY": "1"}, "has no property 'NO_SUCH_KEY'"),
                                ({"CPU.NUM_STREAMS": "many"}, "refuses NUM_STREAMS=many")]:
            parsed = openvino_options.parse(options, DEVICES)
            with self.assertRaises(openvino_options.OptionError) as caught:
                openvino_options.check_with(core, parsed, {})
            self.assertIn("runtime option '%s'" % list(options)[0], str(caught.exception))
            self.assertIn(needle, str(caught.exception))


class VersionsTest(unittest.TestCase):
    def test_limits_are_those_of_the_onnx_package(self):
        ir, opsets = openvino_versions.accepted_versions()
        self.assertEqual(ir, [3, onnx.IR_VERSION])
        self.assertEqual(opsets[""], [1, onnx.defs.onnx_opset_version()])

    def test_declines(self):
        self.assertTrue(openvino_versions.declines(
            "OpenVINO does not support the following ONNX operations: ai.onnx.Foo-1"))
        self.assertFalse(openvino_versions.declines("Check 'shape' failed: wrong rank"))


def one_node_model(op, elem=onnx.TensorProto.FLOAT, domain=""):
    value = helper.make_tensor_value_info
    graph = helper.make_graph([helper.make_node(op, ["x"], ["y"], name="the_node", domain=domain)],
                              "one_node", [value("x", elem, [2])], [value("y", elem, [2])])
    imports = [helper.make_opsetid("", 13)] + ([helper.make_opsetid(domain, 1)] if domain else [])
    model = helper.make_model(graph, opset_imports=imports)
    model.ir_version = 8
    return model


class ProtocolTest(unittest.TestCase):
    def setUp(self):
        self.adapter = AdapterClient(os.path.join(HERE, "openvino_adapter.py"))
        self.scratch = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.adapter.close()
        self.scratch.cleanup()

    def hello(self, **options):
        return self.adapter.ask(op="hello", protocol=2, options=options)

    def load(self, model, device="CPU"):
        path = os.path.join(self.scratch.name, "model.onnx")
        onnx.save(model, path)
        return self.adapter.ask(op="load", model_path=path, providers=[device], fallback="forbid",
                                optimization_level=0, intra_op_threads=1)

    def test_hello_offers_the_devices_and_says_which_are_missing(self):
        hello = self.hello()
        self.assertTrue(hello["ok"], hello)
        self.assertEqual(hello["providers"], DEVICES)
        self.assertEqual(hello["name"], "openvino")
        if "GPU" not in ov.Core().available_devices:
            self.assertIn("finds no GPU device", hello["unavailable"]["GPU"])
            gpu = self.load(one_node_model("Relu"), "GPU")
            self.assertEqual(gpu["code"], "UNAVAILABLE", gpu)

    def test_a_bad_option_fails_the_hello(self):
        hello = self.hello(**{"CPU.NO_SUCH_KEY": "1"})
        self.assertEqual(hello["code"], "INVALID_ARGUMENT", hello)
        self.assertIn("'CPU.NO_SUCH_KEY'", hello["message"])

    def test_a_node_runs_on_the_cpu(self):
        self.assertTrue(self.hello()["ok"])
        loaded = self.load(one_node_model("Relu"))
        self.assertTrue(loaded["ok"], loaded)
        self.assertEqual(loaded["placements"],
                         [{"node": "the_node", "op_type": "Relu", "domain": "", "provider": "CPU"}])
        feed = numpy_helper.from_array(np.array([-1.0, 2.0], np.float32)).SerializeToString()
        reply, blobs = self.adapter.call(blobs=[feed], op="run", model=loaded["model"],
                                         feeds=[{"name": "x", "kind": "tensor", "dtype": 1,
                                                 "blob": 0}])
        self.assertTrue(reply["ok"], reply)
        out = onnx.TensorProto()
        out.ParseFromString(blobs[0])
        self.assertEqual(numpy_helper.to_array(out).tolist(), [0.0, 2.0])

    def test_a_feed_of_an_input_openvino_dropped_is_not_passed(self):
        self.assertTrue(self.hello()["ok"])
        value = helper.make_tensor_value_info
        graph = helper.make_graph(
            [helper.make_node("CastLike", ["x", "like"], ["y"])], "castlike",
            [value("x", onnx.TensorProto.DOUBLE, [2]), value("like", onnx.TensorProto.FLOAT, [1])],
            [value("y", onnx.TensorProto.FLOAT, [2])])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
        model.ir_version = 10
        loaded = self.load(model)
        self.assertTrue(loaded["ok"], loaded)
        feeds = [numpy_helper.from_array(np.array([1.5, -2.0])).SerializeToString(),
                 numpy_helper.from_array(np.array([0.0], np.float32)).SerializeToString()]
        reply, blobs = self.adapter.call(blobs=feeds, op="run", model=loaded["model"], feeds=[
            {"name": "x", "kind": "tensor", "dtype": 11, "blob": 0},
            {"name": "like", "kind": "tensor", "dtype": 1, "blob": 1}])
        self.assertTrue(reply["ok"], reply)
        out = onnx.TensorProto()
        out.ParseFromString(blobs[0])
        self.assertEqual(numpy_helper.to_array(out).tolist(), [1.5, -2.0])

    def test_what_openvino_or_the_adapter_cannot_take_is_unimplemented(self):
        self.assertTrue(self.hello()["ok"])
        unknown = self.load(one_node_model("NoSuchOp", domain="com.example"))
        self.assertEqual(unknown["code"], "UNIMPLEMENTED", unknown)
        bf16 = self.load(one_node_model("Relu", onnx.TensorProto.BFLOAT16))
        self.assertEqual(bf16["code"], "UNIMPLEMENTED", bf16)
        self.assertIn("BFLOAT16", bf16["message"])


if __name__ == "__main__":
    unittest.main()
