"""Where ONNX Runtime placed a session's nodes, as the protocol's placements, and the check of a
forbidden fallback.

Placements are ONNX Runtime's own record of the provider it assigned each node
(session.record_ep_graph_assignment_info, read at load). ONNX Runtime gives no reason when a
provider declines a node, so a node on another provider than the first gets, for each provider
before it, the reason "ONNX Runtime assigned this node to <provider>; no reason given". A
forbidden fallback is judged from these placements, not from session.disable_cpu_ep_fallback,
which makes ONNX Runtime refuse every session that lists the CPU provider and says nothing of a
fallback between other providers.
"""

import sys

CPU = "CPUExecutionProvider"
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


def of_session(session, providers):
    """The placements of `session`'s nodes, or None when this ONNX Runtime cannot say."""
    try:
        subgraphs = session.get_provider_graph_assignment_info()
    except Exception as exc:  # older ONNX Runtime: no such method, or no record
        print("ort_adapter: no placements: %s" % exc, file=sys.stderr)
        return None
    placements = []
    for subgraph in subgraphs:
        for i, node in enumerate(subgraph.get_nodes()):
            placements.append({"node": node.name or "%s_%d" % (node.op_type, i),
                               "op_type": node.op_type, "domain": node.domain,
                               "provider": subgraph.ep_name,
                               "declines": declines(subgraph.ep_name, providers)})
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
        more = " (and %d more node(s) not on it)" % (len(moved) - 1) if len(moved) > 1 else ""
        raise PlacementError("UNIMPLEMENTED", "fallback is forbidden: node '%s' (%s) falls back "
                             "to %s, not %s: %s%s" % (
                                 moved[0]["node"], moved[0]["op_type"], moved[0]["provider"],
                                 providers[0], NO_REASON % moved[0]["provider"], more))
