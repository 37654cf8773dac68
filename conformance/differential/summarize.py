#!/usr/bin/env python3
"""Prints what the differential test of ref against ONNX Runtime covered and found, from the
generator's manifest and the gate's JSON report:

    summarize.py --manifest manifest.json --gate gate.json [--list-covered]

- every op version ref registers, covered (ONNX Runtime ran a case of it and ref was judged
  against ONNX Runtime's outputs) or not covered, with the reason for each one not covered;
- the cases ONNX Runtime declined, counted by reason;
- every disagreement: the known ones (known-differences/ref.json, with their reasons) and the
  unexpected ones, which fail the test.
Exit status 0, or 2 when a case ONNX Runtime ran is missing from the gate's report; otherwise
the gate's exit status is the test's verdict.
"""

import argparse
import collections
import json
import re
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def reason_class(reason):
    """A declined case's reason with its numbers and names kept, its paths and node names cut,
    so that equal causes count together."""
    reason = re.sub(r"/onnxruntime_src/\S+ ", "", reason)
    reason = re.sub(r"(onnxruntime|std)::[^)]*\) ", "", reason)
    return reason[:160]


def not_covered_reason(op, since, cases, refused, limits):
    """Why no case of (op, since) was compared: `cases` are the cases written for it, `refused`
    the variants of it that ONNX's checker or version converter refused."""
    if "." not in op and since > limits["opset"]:
        return "a version of opset %d; ONNX Runtime %s loads ai.onnx opsets up to %d" % (
            since, limits["version"], limits["opset"])
    declined = [c["ort"] for c in cases if c.get("ort") not in (None, "ran")]
    if declined:
        counts = collections.Counter(reason_class(r) for r in declined)
        top, n = counts.most_common(1)[0]
        return "ONNX Runtime declined its %d case(s): %s%s" % (
            len(declined), top, "" if n == len(declined) else " (and %d other reason(s))" %
            (len(counts) - 1))
    if refused:
        counts = collections.Counter(r[:160] for r in refused)
        top, _ = counts.most_common(1)[0]
        return "%d conversion(s) or variant(s) to it were refused: %s" % (len(refused), top)
    return ("no single-node case of the node suites uses the op, and its schema is not "
            "elementwise (no minimal model)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--gate", required=True)
    parser.add_argument("--list-covered", action="store_true")
    args = parser.parse_args()
    manifest = load(args.manifest)
    gate = load(args.gate)
    limits = {"opset": manifest["ort_opsets"][""][1], "version": manifest["onnxruntime"]}
    records = {c["case"]: c for c in gate["cases"] if c.get("ep") == "ref"}

    by_version = collections.defaultdict(list)
    refused = collections.defaultdict(list)
    for case in manifest["cases"]:
        if "op" in case:
            by_version[(case["op"], case["since"])].append(case)
        elif "not_generated" in case:
            refused[tuple(case["wanted"])].append(case["not_generated"])
    claims = [tuple(c) for c in manifest["ref_claims"]]
    covered, uncovered = [], []
    for op, since in claims:
        judged = [c for c in by_version.get((op, since), []) if c["case"] in records]
        (covered if judged else uncovered).append((op, since, len(judged)))

    cases = manifest["cases"]
    written = [c for c in cases if "op" in c]
    ran = [c for c in written if c.get("ort") == "ran"]
    lost = sorted(c["case"] for c in ran if c["case"] not in records)
    not_generated = [c for c in cases if "not_generated" in c]
    print("Differential test of ref against ONNX Runtime %s (inputs from seed %d)" % (
        manifest["onnxruntime"], manifest["seed"]))
    print("  ref registers %d op versions: %d covered, %d not covered" % (
        len(claims), len(covered), len(uncovered)))
    print("  %d case(s) written (%d variants not made: ONNX's checker or version converter "
          "refused them), ONNX Runtime ran %d and declined %d; ref judged %d" % (
              len(written), len(not_generated), len(ran), len(written) - len(ran),
              len(records)))
    verdicts = collections.Counter(r["verdict"] for r in records.values())
    print("  ref's verdicts: %s" % ", ".join("%s %d" % kv for kv in sorted(verdicts.items())))

    if args.list_covered:
        print("\nCovered op versions (%d):" % len(covered))
        for op, since, n in sorted(covered):
            print("  %s v%d: %d case(s)" % (op, since, n))
    print("\nNot covered op versions (%d):" % len(uncovered))
    for op, since, _ in sorted(uncovered):
        print("  %s v%d: %s" % (op, since, not_covered_reason(
            op, since, by_version.get((op, since), []), refused.get((op, since), []), limits)))

    declined = collections.Counter(reason_class(c["ort"]) for c in written
                                   if c.get("ort") != "ran")
    print("\nCases ONNX Runtime declined (%d), by reason:" % sum(declined.values()))
    for reason, n in declined.most_common():
        print("  %5d  %s" % (n, reason))

    known = [r for r in records.values() if r.get("expectation_reason")]
    print("\nKnown differences (%d case(s), conformance/differential/known-differences/ref.json):"
          % len(known))
    for r in sorted(known, key=lambda r: r["case"]):
        print("  %s: %s" % (r["case"], r.get("outcome", r["verdict"])))
    unexpected = [r for r in records.values()
                  if r["verdict"] in ("FAIL", "CRASH", "TIMEOUT", "UNRESOLVED", "XPASS")
                  or (r["verdict"] == "UNSUPPORTED" and not r.get("expectation_reason"))]
    print("\nDisagreements not in the known differences (%d):" % len(unexpected))
    for r in sorted(unexpected, key=lambda r: r["case"]):
        print("  %s: %s: %s" % (r["case"], r["verdict"], " ".join(r.get("message", "").split())[:400]))
    if lost:
        print("\nsummarize.py: %d case(s) that ONNX Runtime ran are not in the gate's report "
              "(first: %s): the import or the gate lost them" % (len(lost), lost[0]))
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
