"""Where ONNX Runtime placed a session's nodes, as the protocol's placements, and the check of a
forbidden fallback.

Placements are ONNX Runtime's own record of the provider it assigned each node
(session.record_ep_graph_assignment_info, read at load). That record is made when ONNX Runtime
partitions the graph, before the fusions of the higher optimization levels; so where a session
optimizes (level 1 or 2) and no provider of it compiles subgraphs of its own (which ONNX Runtime
cannot save), the session also saves its optimized model (optimized_model_filepath) and the
placements are that model's nodes, as ONNX Runtime ran them: each on the provider recorded for
the node of the same name, else for the node that made its first output, else on the provider
that holds most nodes. ONNX Runtime gives no reason when a
provider declines a node, so a node on another provider than the first gets, for each provider
before it, the reason "ONNX Runtime assigned this node to <provider>; no reason given". A
forbidden fallback is judged from these placements, not from session.disable_cpu_ep_fallback,
which makes ONNX Runtime refuse every session that lists the CPU provider and says nothing of a
fallback between other providers.
"""

import sys

import onnx

CPU = "CPUExecutionProvider"
# Providers that compile the subgraphs they take into nodes of their own: ONNX Runtime cannot
# save an optimized model of a session using one ("Unable to serialize model as it contains
# compiled nodes").
COMPILING = {"OpenVINOExecutionProvider", "TensorrtExecutionProvider",
             "NvTensorRTRTXExecutionProvider", "DnnlExecutionProvider", "QNNExecutionProvider",
             "VitisAIExecutionProvider", "MIGraphXExecutionProvider", "CoreMLExecutionProvider",
             "NnapiExecutionProvider", "WebGpuExecutionProvider", "CANNExecutionProvider"}
NO_REASON = "ONNX Runtime assigned this node to %s; no reason given"


class PlacementError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def declines(provider, providers):
    """A decline for each provider of the priority list before `provider` (all of them when
    ONNX Runtime placed the node on a provider the list does not hold)."""
    before = providers[:providers.index(provider)] if provider in providers else providers
    return [{"provider": p, "reason": NO_REASON % provider} for p in before]


def saves_optimized_model(optimization_level, providers):
    """Whether a session at `optimization_level` on `providers` should save its optimized model
    for its placements: it optimizes, and ONNX Runtime can save what it made."""
    return optimization_level > 0 and not COMPILING.intersection(providers)


def placement(name, op_type, domain, provider, providers):
    return {"node": name, "op_type": op_type, "domain": domain, "provider": provider,
            "declines": declines(provider, providers)}


def of_session(session, providers, optimized=None):
    """The placements of `session`'s nodes, or None when this ONNX Runtime cannot say. With
    `optimized`, (the model the session was made from, as a path or serialized bytes, and the
    path it saved its optimized model to), those of the optimized model's nodes."""
    try:
        subgraphs = session.get_provider_graph_assignment_info()
    except Exception as exc:  # older ONNX Runtime: no such method, or no record
        print("ort_adapter: no placements: %s" % exc, file=sys.stderr)
        return None
    recorded = []
    for subgraph in subgraphs:
        for i, node in enumerate(subgraph.get_nodes()):
            recorded.append(placement(node.name or "%s_%d" % (node.op_type, i), node.op_type,
                                      node.domain, subgraph.ep_name, providers))
    if optimized is None:
        return recorded
    try:
        source, saved = optimized
        original = (onnx.load_from_string(source) if isinstance(source, bytes)
                    else onnx.load(source, load_external_data=False)).graph.node
        after = onnx.load(saved, load_external_data=False).graph.node
    except Exception as exc:  # not saved, or not readable: the record is what there is
        print("ort_adapter: placements before optimization: %s" % exc, file=sys.stderr)
        return recorded
    return after_optimization(recorded, original, after, providers)


def after_optimization(recorded, original, optimized, providers):
    """Placements of the `optimized` graph's nodes (NodeProtos), each on the provider `recorded`
    (the placements of the `original` graph's nodes) gives the node of its name, else the
    original node that made its first output it shares, else the provider of most nodes."""
    by_name = {p["node"]: p["provider"] for p in recorded}
    counts = {}
    for p in recorded:
        counts[p["provider"]] = counts.get(p["provider"], 0) + 1
    most = max(sorted(counts), key=lambda p: counts[p]) if counts else CPU
    by_output = {out: by_name[node.name] for node in original if node.name in by_name
                 for out in node.output}
    placements = []
    for i, node in enumerate(optimized):
        name = node.name or "%s_%d" % (node.op_type, i)
        provider = by_name.get(name) or next(
            (by_output[o] for o in node.output if o in by_output), most)
        placements.append(placement(name, node.op_type, node.domain, provider, providers))
    return placements


def check_no_fallback(placements, providers):
    """Raises PlacementError when a node is not on the first provider (UNIMPLEMENTED, naming the
    node), or when that cannot be told (UNAVAILABLE). A session on the CPU provider alone cannot
    fall back."""
    if providers == [CPU]:
        return
    if placements is None:
        raise PlacementError("UNAVAILABLE", "fallback is forbidden, but this ONNX Runtime does "
                             "not report which provider runs each node, so a fallback from %s "
                             "could not be seen" % providers[0])
    moved = [p for p in placements if p["provider"] != providers[0]]
    if moved:
        raise PlacementError("UNIMPLEMENTED", "fallback is forbidden: node '%s' (%s) falls back "
                             "to %s, not %s: %s%s" % (
                                 moved[0]["node"], moved[0]["op_type"], moved[0]["provider"],
                                 providers[0], NO_REASON % moved[0]["provider"],
                                 others_moved(moved[1:])))


def others_moved(moved, named=8):
    """'; also 'n2' (Neg) on CPUExecutionProvider, ... (and N more)' for the other nodes not on
    the first provider, the first `named` of them by name."""
    if not moved:
        return ""
    listed = ", ".join("'%s' (%s) on %s" % (p["node"], p["op_type"], p["provider"])
                       for p in moved[:named])
    more = " (and %d more)" % (len(moved) - named) if len(moved) > named else ""
    return "; also %s%s" % (listed, more)
