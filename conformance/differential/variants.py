"""Model variants of a single-node case, from ONNX's operator schemas: every int attribute whose
default is 0 or 1 flipped, every optional input the case feeds dropped, each drop with each
flip, and the model converted by ONNX's version converter to the other versions of its op; and a
minimal model for an elementwise op version no case reaches.

A variant's suffix names what changed ("keepdims_0", "no_axes",
"no_axes__noop_with_empty_axes_1", "opset_17"); the graph outputs of a variant are declared with
the types ONNX's shape inference gives them.
"""

import copy

import onnx
from onnx import defs, helper, shape_inference, version_converter

# Int attributes whose default is 0 or 1 but which hold an element type or a count, not a switch.
_NOT_SWITCHES = {"dtype", "to", "stash_type", "output_dtype", "precision", "block_size",
                 "num_outputs", "seed"}
# Flips after which the spec leaves the order of the outputs open, so that two correct runtimes
# may differ: TopK with sorted=0 ("the order of returned Values and Indices are undefined").
_ORDER_UNSPECIFIED = {("TopK", "sorted")}
# Optional inputs whose absence can make the op run forever: a Loop without its trip count M
# runs while its body keeps the condition true, which the node suites' bodies do.
_NOT_DROPPED = {("Loop", "M")}


def schema_of(node, opset):
    try:
        return defs.get_schema(node.op_type, opset, node.domain)
    except defs.SchemaError:
        return None


def _switch_attributes(schema, node):
    """[(name, flipped value)] for the node's int attributes that default to 0 or 1."""
    given = {a.name: a for a in node.attribute}
    flips = []
    for name, attr in sorted(schema.attributes.items()):
        default = attr.default_value
        if name in _NOT_SWITCHES or attr.type != defs.OpSchema.AttrType.INT:
            continue
        if default.type != onnx.AttributeProto.INT or default.i not in (0, 1):
            continue
        value = given[name].i if name in given else default.i
        if value in (0, 1):
            flips.append((name, 1 - value))
    return flips


def _droppable_inputs(schema, node, graph_inputs):
    """Names of the optional inputs the node reads from a graph input or initializer."""
    names = []
    for position, name in enumerate(node.input):
        if not name or position >= len(schema.inputs):
            continue
        formal = schema.inputs[position]
        if (node.op_type, formal.name) in _NOT_DROPPED:
            continue
        optional = formal.option == defs.OpSchema.FormalParameterOption.Optional
        if optional and name in graph_inputs and name not in names:
            names.append(name)
    return names


def _retype_outputs(model, constants=None):
    """Declares the graph outputs with the types ONNX's shape inference gives them now (an
    attribute or input changed them). `constants` ({name: TensorProto}) are the inputs whose
    values every case keeps (axes, shapes, sizes): the inference sees them as initializers, so
    that it knows the output shapes they decide. An output it cannot type keeps its
    declaration (the checker then judges the variant)."""
    probe = copy.deepcopy(model)
    del probe.graph.output[:]
    fed = {i.name for i in probe.graph.input}
    probe.graph.initializer.extend(t for name, t in sorted((constants or {}).items())
                                   if name in fed)
    try:
        inferred = shape_inference.infer_shapes(probe)
    except Exception:  # inference errors: the checker judges the variant afterwards
        return
    types = {v.name: v.type for v in inferred.graph.value_info}
    for output in model.graph.output:
        inferred_type = types.get(output.name)
        if inferred_type is None:
            continue
        if inferred_type.HasField("tensor_type") and not inferred_type.tensor_type.HasField(
                "shape"):
            continue  # the checker wants a shape: keep the declared one
        output.type.CopyFrom(inferred_type)


def _flipped(model, name, value, constants):
    m = copy.deepcopy(model)
    node = m.graph.node[0]
    for a in node.attribute:
        if a.name == name:
            node.attribute.remove(a)
            break
    node.attribute.append(helper.make_attribute(name, value))
    _retype_outputs(m, constants)
    return m


def _dropped(model, name, constants):
    m = copy.deepcopy(model)
    node = m.graph.node[0]
    inputs = ["" if i == name else i for i in node.input]
    while inputs and not inputs[-1]:
        inputs.pop()
    del node.input[:]
    node.input.extend(inputs)
    for collection in (m.graph.input, m.graph.initializer):
        for item in list(collection):
            if item.name == name:
                collection.remove(item)
    _retype_outputs(m, constants)
    return m


def attribute_variants(model, opset, constants):
    """[(suffix, make)]: flips, drops and drop x flip pairs of the model's one node; make()
    builds the variant."""
    node = model.graph.node[0]
    schema = schema_of(node, opset)
    if schema is None:
        return []
    graph_inputs = {i.name for i in model.graph.input} | {t.name for t in model.graph.initializer}
    flips = [(name, value) for name, value in _switch_attributes(schema, node)
             if (node.op_type, name) not in _ORDER_UNSPECIFIED]
    drops = _droppable_inputs(schema, node, graph_inputs)
    out = []
    for name, value in flips:
        out.append(("%s_%d" % (name, value),
                    lambda n=name, v=value: _flipped(model, n, v, constants)))
    for dropped in drops:
        out.append(("no_%s" % dropped, lambda d=dropped: _dropped(model, d, constants)))
        for name, value in flips:
            out.append(("no_%s__%s_%d" % (dropped, name, value),
                        lambda d=dropped, n=name, v=value:
                        _flipped(_dropped(model, d, constants), n, v, constants)))
    return out


_SINCE_VERSIONS = {}


def version_ranges(domain, op_type):
    """[(since_version, last opset at which it is active)] of an ai.onnx op, oldest first."""
    if domain not in ("", "ai.onnx"):
        return []
    if not _SINCE_VERSIONS:
        for s in defs.get_all_schemas_with_history():
            _SINCE_VERSIONS.setdefault((s.domain, s.name), set()).add(s.since_version)
    sinces = sorted(_SINCE_VERSIONS.get(("", op_type), ()))
    max_opset = defs.onnx_opset_version()
    return [(v, (sinces[i + 1] - 1) if i + 1 < len(sinces) else max_opset)
            for i, v in enumerate(sinces)]


def conversion_targets(domain, op_type, active_since, model_opset, claimed, max_target):
    """The opsets to convert a model to so that its op runs at each other version `claimed`
    holds, up to max_target (the highest opset the other runtime loads): for each version, the
    opset that introduced it; the model's own version is left out unless its opset is beyond
    max_target. [(opset, since)]."""
    targets = []
    for since, _ in version_ranges(domain, op_type):
        if since not in claimed or since > max_target or since == model_opset:
            continue
        if since != active_since or model_opset > max_target:
            targets.append((since, since))
    return targets


def restamped(model, target, constants):
    """The model with its ai.onnx opset import set to `target` and nothing else changed, for
    the checker to judge: a node that the op's schema at `target` accepts as it is."""
    m = copy.deepcopy(model)
    for o in m.opset_import:
        if o.domain in ("", "ai.onnx"):
            o.version = target
    _retype_outputs(m, constants)
    return m


def _with_constants(model, constants):
    """The model with the inputs in `constants` made initializers (no longer fed), so that
    ONNX's version converter can move a constant input into an attribute (ReduceSum's axes)."""
    m = copy.deepcopy(model)
    for i in list(m.graph.input):
        if i.name in constants:
            m.graph.input.remove(i)
            m.graph.initializer.append(constants[i.name])
    return m


def _convert(model, target):
    try:
        return version_converter.convert_version(model, target), None
    except Exception as exc:  # ONNX's converter raises its C++ errors as RuntimeError and others
        return None, str(exc).strip().splitlines()[0]


def converted(model, target, constants):
    """(the model converted to ai.onnx opset `target`, None), or (None, why not). ONNX's version
    converter first, then on a copy whose kept inputs are initializers; where it has no adapter
    for the op, the model re-stamped to `target` (restamped), which the caller's checker
    accepts only if the node is valid at that opset as it stands."""
    node = model.graph.node[0]
    modes = [a.s for a in node.attribute if a.name == "mode"]
    if node.op_type == "Pad" and modes == [b"wrap"] and target < 19:
        # The converter keeps mode 'wrap', which Pad has only from opset 19.
        return None, "Pad's mode 'wrap' exists from opset 19; ONNX's version converter keeps it"
    m, reason = _convert(model, target)
    if m is None and constants and "No Adapter" not in reason:
        m, reason = _convert(_with_constants(model, constants), target)
    if m is None:
        if "No Adapter" not in reason:
            return None, "ONNX's version converter: %s" % reason[:200]
        return restamped(model, target, constants), None
    _retype_outputs(m, constants)
    return m, None


def _elementwise_type(schema):
    """The first of float, double, int64 ... that an elementwise schema's one constraint allows:
    every input and output shares that constraint and no attribute is required."""
    if not schema.inputs or not schema.outputs:
        return None
    constraint = schema.inputs[0].type_str
    formals = list(schema.inputs) + list(schema.outputs)
    if any(f.type_str != constraint for f in formals):
        return None
    if any(f.option == defs.OpSchema.FormalParameterOption.Optional for f in formals):
        return None
    if any(a.required for a in schema.attributes.values()):
        return None
    allowed = [c.allowed_type_strs for c in schema.type_constraints
               if c.type_param_str == constraint]
    if not allowed:
        return None
    for name in ("float", "double", "int64", "int32", "bool"):
        if "tensor(%s)" % name in allowed[0]:
            return getattr(onnx.TensorProto, name.upper())
    return None


def minimal_model(domain, op_type, since, opset, ir_version):
    """A one-node model of an elementwise op version on [2, 3, 4] inputs, or None."""
    try:
        schema = defs.get_schema(op_type, opset, domain)
    except defs.SchemaError:
        return None
    if schema.since_version != since:
        return None
    elem = _elementwise_type(schema)
    if elem is None:
        return None
    variadic = schema.inputs[-1].option == defs.OpSchema.FormalParameterOption.Variadic
    count = max(len(schema.inputs), 2 if variadic else 1)
    names = ["x%d" % i for i in range(count)]
    node = helper.make_node(op_type, names, ["y"], domain=domain)
    graph = helper.make_graph(
        [node], "minimal_%s" % op_type,
        [helper.make_tensor_value_info(n, elem, [2, 3, 4]) for n in names],
        [helper.make_tensor_value_info("y", elem, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid(domain, opset)])
    model.ir_version = ir_version
    _retype_outputs(model)
    return model
