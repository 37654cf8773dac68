#!/usr/bin/env python3
"""Tests of the differential test's generator (feeds.py, variants.py) and summarize.py, run by
the CTest unit.differential_generator with the ONNX Runtime adapter's Python:

    .venv/ort/bin/python conformance/differential/generate_test.py
"""

import io
import json
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnx import defs, helper  # noqa: E402

import feeds  # noqa: E402
import summarize  # noqa: E402
import variants  # noqa: E402


def reduce_sum_square(opset=18):
    node = helper.make_node("ReduceSumSquare", ["data", "axes"], ["reduced"], keepdims=1)
    graph = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info("data", onnx.TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("axes", onnx.TensorProto.INT64, [1])],
        [helper.make_tensor_value_info("reduced", onnx.TensorProto.FLOAT, [1, 3])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _pad_wrap():
    node = helper.make_node("Pad", ["x", "pads"], ["y"], mode="wrap")
    graph = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 2]),
         helper.make_tensor_value_info("pads", onnx.TensorProto.INT64, [4])],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])


class VariantsTest(unittest.TestCase):
    def test_flips_drops_and_their_pairs(self):
        model = reduce_sum_square()
        axes = feeds.GoldenValue("axes", "tensor", "INT64", np.array([0], dtype=np.int64))
        constants = {"axes": feeds.to_proto("axes", axes, axes.value)}
        made = dict(variants.attribute_variants(model, 18, constants))
        self.assertEqual(sorted(made), ["keepdims_0", "no_axes", "no_axes__keepdims_0",
                                        "no_axes__noop_with_empty_axes_1",
                                        "noop_with_empty_axes_1"])
        noop = made["no_axes__noop_with_empty_axes_1"]()
        self.assertEqual(list(noop.graph.node[0].input), ["data"])
        self.assertEqual([i.name for i in noop.graph.input], ["data"])
        attrs = {a.name: a.i for a in noop.graph.node[0].attribute}
        self.assertEqual(attrs, {"keepdims": 1, "noop_with_empty_axes": 1})
        # The output is declared with the shape inference gives the variant: the input's.
        dims = [d.dim_value for d in noop.graph.output[0].type.tensor_type.shape.dim]
        self.assertEqual(dims, [2, 3])
        onnx.checker.check_model(noop, full_check=True)
        # With axes kept as constants, inference knows keepdims=0's shape as well.
        flat = made["keepdims_0"]()
        self.assertEqual([d.dim_value for d in flat.graph.output[0].type.tensor_type.shape.dim],
                         [3])

    def test_topk_sorted_and_loop_trip_count_are_left_alone(self):
        node = helper.make_node("TopK", ["x", "k"], ["v", "i"])
        graph = helper.make_graph(
            [node], "g",
            [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [3, 4]),
             helper.make_tensor_value_info("k", onnx.TensorProto.INT64, [1])],
            [helper.make_tensor_value_info("v", onnx.TensorProto.FLOAT, [3, 2]),
             helper.make_tensor_value_info("i", onnx.TensorProto.INT64, [3, 2])])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)])
        suffixes = [s for s, _ in variants.attribute_variants(model, 11, {})]
        self.assertIn("largest_0", suffixes)
        self.assertNotIn("sorted_0", suffixes)

    def test_conversion_targets_are_the_claimed_versions_up_to_the_limit(self):
        claimed = {1, 11, 13, 18}
        targets = variants.conversion_targets("", "ReduceSumSquare", 18, 18, claimed, 26)
        self.assertEqual(targets, [(1, 1), (11, 11), (13, 13)])
        # A model beyond the limit is converted to its own version's opset as well.
        targets = variants.conversion_targets("", "ReduceSumSquare", 18, 28, {18}, 26)
        self.assertEqual(targets, [(18, 18)])

    def test_conversion_uses_constants_then_a_restamp_only_without_an_adapter(self):
        model = reduce_sum_square(18)
        converted, why = variants.converted(model, 13, {})
        self.assertIsNone(converted)
        self.assertIn("No initializer or constant input", why)
        axes = onnx.numpy_helper.from_array(np.array([0], dtype=np.int64), "axes")
        converted, why = variants.converted(model, 13, {"axes": axes})
        self.assertIsNone(why)
        self.assertEqual(converted.opset_import[0].version, 13)
        self.assertEqual([a.name for a in converted.graph.node[0].attribute
                          if a.name == "axes"], ["axes"])
        # Abs has no adapter from 13 to 6: the model is re-stamped, unchanged otherwise.
        node = helper.make_node("Abs", ["x"], ["y"])
        graph = helper.make_graph([node], "g",
                                  [helper.make_tensor_value_info("x", 1, [2])],
                                  [helper.make_tensor_value_info("y", 1, [2])])
        abs13 = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        restamped, why = variants.converted(abs13, 6, {})
        self.assertIsNone(why)
        self.assertEqual(restamped.opset_import[0].version, 6)
        self.assertEqual(restamped.graph.node[0], abs13.graph.node[0])
        _, why = variants.converted(_pad_wrap(), 18, {})
        self.assertIn("wrap", why)

    def test_minimal_model_only_for_elementwise_schemas(self):
        model = variants.minimal_model("", "Abs", 6, 6, 8)
        self.assertIsNotNone(model)
        onnx.checker.check_model(model, full_check=True)
        self.assertIsNone(variants.minimal_model("", "Reshape", 14, 14, 8))


class FeedsTest(unittest.TestCase):
    def roles_of(self, op, inputs, opset):
        node = helper.make_node(op, inputs, ["y"])
        return feeds.input_roles(defs.get_schema(op, opset, ""), node, set(inputs))

    def test_roles_from_the_schema(self):
        self.assertEqual(self.roles_of("Add", ["a", "b"], 14), {"a": "generic", "b": "generic"})
        self.assertEqual(self.roles_of("Reshape", ["x", "shape"], 14),
                         {"x": "generic", "shape": "keep"})
        self.assertEqual(self.roles_of("Where", ["c", "x", "y2"], 16),
                         {"c": "bool", "x": "generic", "y2": "generic"})
        self.assertEqual(self.roles_of("Resize", ["x", "roi", "scales"], 19)["scales"], "keep")

    def test_draws_stay_in_the_case_range_and_are_seeded(self):
        golden = feeds.GoldenValue("x", "tensor", "FLOAT",
                                   np.array([0.5, 2.0, 1.0], dtype=np.float32))
        a = feeds.draw_value(np.random.default_rng(7), golden, "generic")
        b = feeds.draw_value(np.random.default_rng(7), golden, "generic")
        np.testing.assert_array_equal(a, b)
        self.assertTrue(np.all((a >= 0.5) & (a <= 2.0)))
        self.assertEqual(a.dtype, np.float32)
        ints = feeds.GoldenValue("d", "tensor", "INT32", np.array([1, 5, 3, 2], dtype=np.int32))
        drawn = feeds.draw_value(np.random.default_rng(1), ints, "generic")
        self.assertFalse(np.any(drawn == 0))
        kept = feeds.draw_value(np.random.default_rng(1), ints, "keep")
        np.testing.assert_array_equal(kept, ints.value)
        special = feeds.GoldenValue("s", "tensor", "FLOAT",
                                    np.array([np.nan, 1.0, -np.inf], dtype=np.float32))
        self.assertIs(feeds.draw_value(np.random.default_rng(1), special, "generic"),
                      special.value)


class SummarizeTest(unittest.TestCase):
    def run_summary(self, manifest, gate):
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for name, doc in (("m.json", manifest), ("g.json", gate)):
                paths.append(os.path.join(d, name))
                with open(paths[-1], "w") as f:
                    json.dump(doc, f)
            sys.argv = ["summarize.py", "--manifest", paths[0], "--gate", paths[1]]
            out = io.StringIO()
            with redirect_stdout(out):
                rc = summarize.main()
        return rc, out.getvalue()

    def manifest(self):
        return {"seed": 1, "onnxruntime": "1.31.1", "ort_opsets": {"": [1, 26]},
                "ref_claims": [["Abs", 13], ["Abs", 6], ["Cast", 28]],
                "cases": [{"case": "test_abs__n__base", "op": "Abs", "since": 13, "opset": 13,
                           "ort": "ran", "variant": "base", "wanted": ["Abs", 13]},
                          {"case": "test_abs__n__opset_6", "op": "Abs", "since": 6,
                           "opset": 6, "ort": "UNIMPLEMENTED: load: no Abs(6)",
                           "variant": "opset_6", "wanted": ["Abs", 6]}]}

    def test_coverage_and_disagreements(self):
        gate = {"cases": [{"case": "test_abs__n__base", "ep": "ref", "verdict": "FAIL",
                           "message": "set 0 output 'y': max abs 1"}]}
        rc, out = self.run_summary(self.manifest(), gate)
        self.assertEqual(rc, 0)
        self.assertIn("ref registers 3 op versions: 1 covered, 2 not covered", out)
        self.assertIn("Abs v6: ONNX Runtime declined its 1 case(s): UNIMPLEMENTED", out)
        self.assertIn("Cast v28: a version of opset 28", out)
        self.assertIn("Disagreements not in the known differences (1):", out)
        self.assertIn("test_abs__n__base: FAIL", out)

    def test_a_case_the_gate_lost_is_an_error(self):
        rc, out = self.run_summary(self.manifest(), {"cases": []})
        self.assertEqual(rc, 2)
        self.assertIn("not in the gate's report", out)


if __name__ == "__main__":
    unittest.main()
