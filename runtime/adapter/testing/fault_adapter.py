"""A test-only adapter (docs/adapter-protocol.md) on the Python standard library alone. Its model
has one input X and one output Y, and a run returns X as Y, unless the fault named by the first
argument says otherwise (a second argument, where a fault uses one, names a file):

  none               well behaved
  exit_at_start      exits with code 3 before reading anything
  garbage_hello      prints a line that is not a frame instead of answering hello
  old_protocol       answers hello as protocol 1 did (version 1, no "id")
  bad_provider       names its provider '../../../../pwned-baseline' in its hello
  isolation_case     says in its hello that each case needs a process of its own
  isolation_bad      says "isolation": "sometimes" in its hello
  isolation_number   says "isolation": 1 in its hello
  unavailable        offers providers "echo" and "gone", saying "gone" has no device here
  unavailable_stray  says a provider it does not offer is unavailable
  hang_on_claims     answers hello, never a claims request
  die_on_run         exits with code 1 on every run
  die_once           exits with code 1 on its first run if it is the one that creates the file
                     named by the second argument (atomically): exactly one run dies, and the
                     adapter started in its place runs
  hang_on_run        never answers a run
  garbage_on_run     prints a Python traceback's first line instead of answering a run
  output_count       answers a run with no outputs
  no_message         fails a run with INTERNAL and no message
  code_number        fails a run with a "code" that is a number
  message_object     fails a run with a "message" that is an object
  dtype_string       answers a run with an output whose "dtype" is a string
  nested_reply       answers a run with a header of 10^6 nested arrays (2 MB) and no "ok"
  duplicate_load     answers a load twice (the second is a late duplicate)
  wrong_id           answers a run with an id no request had
  no_id              answers a run without an id
  orphan_at_hello    starts a child that leaves with setsid() keeping stdout open (its pid
                     written to the second argument), then exits with code 4 before hello
  orphan_on_run      as orphan_at_hello, but well behaved until its first run
  orphan_sleeper     starts such a child (pid in the second argument) and stays well behaved
  timed_runs         well behaved, and offers timed runs: each run takes 0.25 ms on its clock
  timed_runs_count   offers timed runs and answers one with a time too few
  timed_runs_negative  offers timed runs and answers one with a time of -1 ms
  timed_runs_no_clock  offers timed runs and answers one without its "clock"
  capabilities_bad   says "capabilities": "timed_runs" (a string, not a list) in its hello
  chatty_run         writes 4 MiB of log lines to stderr before answering each run (more than
                     a pipe holds), then "chatty run done"
"""

import json
import os
import struct
import sys
import time

FAULT = sys.argv[1] if len(sys.argv) > 1 else "none"
MARKER = sys.argv[2] if len(sys.argv) > 2 else ""
IN = sys.stdin.buffer
OUT = sys.stdout.buffer


def read_exactly(n):
    data = b""
    while len(data) < n:
        chunk = IN.read(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def read_frame():
    prefix = read_exactly(12)
    if prefix is None:
        return None
    header_len, count = struct.unpack("<II", prefix[4:])
    header = json.loads(read_exactly(header_len))
    blobs = []
    for _ in range(count):
        (size,) = struct.unpack("<Q", read_exactly(8))
        blobs.append(read_exactly(size))
    return header, blobs


def write_raw(data, blobs=()):
    out = b"OGA1" + struct.pack("<II", len(data), len(blobs)) + data
    for blob in blobs:
        out += struct.pack("<Q", len(blob)) + blob
    OUT.write(out)
    OUT.flush()


def write_frame(header, blobs=()):
    write_raw(json.dumps(header).encode(), blobs)


def start_orphan():
    """A grandchild in a session of its own that keeps stdout open and sleeps; its pid goes to
    MARKER once it has left the session."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            with open(MARKER + ".tmp", "w") as f:
                f.write(str(os.getpid()))
            os.rename(MARKER + ".tmp", MARKER)
            time.sleep(3600)
        os._exit(0)
    while not os.path.exists(MARKER):
        time.sleep(0.01)


def answer_run(header, blobs, reply):
    if FAULT == "die_on_run":
        os._exit(1)
    if FAULT == "orphan_on_run":
        start_orphan()
        os._exit(4)
    if FAULT == "die_once":
        try:  # atomic: of adapters running at once, exactly one creates it and dies
            os.close(os.open(MARKER, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            os._exit(1)
        except FileExistsError:
            pass
    if FAULT == "hang_on_run":
        time.sleep(3600)
    if FAULT == "chatty_run":
        line = b"chatty: " + b"x" * 56 + b"\n"
        sys.stderr.buffer.write(line * ((4 << 20) // len(line)))
        sys.stderr.buffer.write(b"chatty run done\n")
        sys.stderr.buffer.flush()
    if FAULT == "garbage_on_run":
        OUT.write(b"Traceback (most recent call last):\n")
        OUT.flush()
        time.sleep(60)
        sys.exit(0)
    if FAULT == "nested_reply":
        depth = 10 ** 6
        write_raw(('{"id": %d, "x": ' % header["id"] + "[" * depth + "]" * depth + "}").encode())
    elif FAULT == "output_count":
        reply({"ok": True, "outputs": []})
    elif FAULT == "no_message":
        reply({"ok": False, "code": "INTERNAL"})
    elif FAULT == "code_number":
        reply({"ok": False, "code": 5, "message": "failed"})
    elif FAULT == "message_object":
        reply({"ok": False, "code": "INTERNAL", "message": {"text": "failed"}})
    elif FAULT == "wrong_id":
        write_frame({"ok": True, "id": header["id"] + 1000, "outputs": []})
    elif FAULT == "no_id":
        write_frame({"ok": True, "outputs": []})
    else:
        feed = header["feeds"][0]
        dtype = "float" if FAULT == "dtype_string" else 1
        reply({"ok": True, "outputs": [{"name": "Y", "kind": "tensor", "dtype": dtype,
                                        "blob": 0}]}, [blobs[feed["blob"]]])


def answer_timed_runs(header, reply):
    times = [0.25] * header["runs"]
    if FAULT == "timed_runs_count":
        times.pop()
    if FAULT == "timed_runs_negative":
        times[0] = -1.0
    answer = {"ok": True, "times_ms": times, "clock": "test"}
    if FAULT == "timed_runs_no_clock":
        del answer["clock"]
    reply(answer)


def main():
    if FAULT == "exit_at_start":
        return 3
    if FAULT == "orphan_sleeper":
        start_orphan()
    while True:
        frame = read_frame()
        if frame is None:
            return 0
        header, blobs = frame
        op = header["op"]

        def reply(fields, out_blobs=()):  # every reply echoes its request's id
            write_frame(dict(fields, **{"id": header["id"]} if "id" in header else {}),
                        out_blobs)

        if op == "hello":
            if FAULT == "garbage_hello":
                OUT.write(b"hello from a program that is not an adapter\n")
                OUT.flush()
                time.sleep(60)
                return 0
            if FAULT == "orphan_at_hello":
                start_orphan()
                return 4
            hello = {"ok": True, "protocol": 2, "name": "fault-adapter", "version": "1.0",
                     "ir": [3, 14], "opsets": {"": [1, 28]}, "providers": ["echo"],
                     "max_threads": {"echo": 1}}
            if FAULT == "old_protocol":
                write_frame(dict(hello, protocol=1))
                continue
            if FAULT == "bad_provider":
                hello["providers"] = ["../../../../pwned-baseline"]
            isolation = {"isolation_case": "case", "isolation_bad": "sometimes",
                         "isolation_number": 1}
            if FAULT in isolation:
                hello["isolation"] = isolation[FAULT]
            if FAULT == "unavailable":
                hello["providers"] = ["echo", "gone"]
                hello["unavailable"] = {"gone": "no gone device on this machine"}
            if FAULT == "unavailable_stray":
                hello["unavailable"] = {"elsewhere": "not here"}
            if FAULT.startswith("timed_runs"):
                hello["capabilities"] = ["timed_runs", "something_later"]
            if FAULT == "capabilities_bad":
                hello["capabilities"] = "timed_runs"
            reply(hello)
        elif op == "load":
            info = {"kind": "tensor", "dtype": 1, "dims": ["N"]}
            loaded = {"ok": True, "model": 1, "inputs": [dict(info, name="X")],
                      "outputs": [dict(info, name="Y")],
                      "placements": [{"node": "n0", "op_type": "Relu", "provider": "echo"}]}
            reply(loaded)
            if FAULT == "duplicate_load":
                reply(loaded)
        elif op == "run":
            answer_run(header, blobs, reply)
        elif op == "timed_runs":
            answer_timed_runs(header, reply)
        elif op == "claims":
            if FAULT == "hang_on_claims":
                time.sleep(3600)
            reply({"ok": True, "claims": [{"domain": "", "op_type": "Relu",
                                           "since_version": 14, "until_version": 14}]})
        else:
            reply({"ok": True})


if __name__ == "__main__":
    sys.exit(main())
