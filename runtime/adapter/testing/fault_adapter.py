"""A test-only adapter (docs/adapter-protocol.md) on the Python standard library alone. Its model
has one input X and one output Y, and a run returns X as Y, unless the fault named by the first
argument says otherwise:

  none             well behaved
  exit_at_start    exits with code 3 before reading anything
  garbage_hello    prints a line that is not a frame instead of answering hello
  die_on_run       exits with code 1 on every run
  die_once         exits with code 1 on its first run if it is the one that creates the file
                   named by the second argument (atomically): exactly one run dies, and the
                   adapter started in its place runs
  hang_on_run      never answers a run
  garbage_on_run   prints a Python traceback's first line instead of answering a run
  output_count     answers a run with no outputs
  no_message       fails a run with INTERNAL and no message
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


def write_frame(header, blobs=()):
    data = json.dumps(header).encode()
    out = b"OGA1" + struct.pack("<II", len(data), len(blobs)) + data
    for blob in blobs:
        out += struct.pack("<Q", len(blob)) + blob
    OUT.write(out)
    OUT.flush()


def main():
    if FAULT == "exit_at_start":
        return 3
    while True:
        frame = read_frame()
        if frame is None:
            return 0
        header, blobs = frame
        op = header["op"]
        if op == "hello":
            if FAULT == "garbage_hello":
                OUT.write(b"hello from a program that is not an adapter\n")
                OUT.flush()
                time.sleep(60)
                return 0
            write_frame({"ok": True, "protocol": 1, "name": "fault-adapter", "version": "1.0",
                         "ir": [3, 14], "opsets": {"": [1, 28]}, "providers": ["echo"],
                         "max_threads": {"echo": 1}})
        elif op == "load":
            info = {"kind": "tensor", "dtype": 1, "dims": ["N"]}
            write_frame({"ok": True, "model": 1, "inputs": [dict(info, name="X")],
                         "outputs": [dict(info, name="Y")],
                         "placements": [{"node": "n0", "op_type": "Relu", "provider": "echo"}]})
        elif op == "run":
            if FAULT == "die_on_run":
                os._exit(1)
            if FAULT == "die_once":
                try:  # atomic: of adapters running at once, exactly one creates it and dies
                    os.close(os.open(MARKER, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
                    os._exit(1)
                except FileExistsError:
                    pass
            if FAULT == "hang_on_run":
                time.sleep(3600)
            if FAULT == "garbage_on_run":
                OUT.write(b"Traceback (most recent call last):\n")
                OUT.flush()
                time.sleep(60)
                return 0
            if FAULT == "output_count":
                write_frame({"ok": True, "outputs": []})
            elif FAULT == "no_message":
                write_frame({"ok": False, "code": "INTERNAL"})
            else:
                feed = header["feeds"][0]
                write_frame({"ok": True, "outputs": [{"name": "Y", "kind": "tensor", "dtype": 1,
                                                      "blob": 0}]}, [blobs[feed["blob"]]])
        elif op == "claims":
            write_frame({"ok": True, "claims": [{"domain": "", "op_type": "Relu",
                                                 "since_version": 14, "until_version": 14}]})
        else:
            write_frame({"ok": True})


if __name__ == "__main__":
    sys.exit(main())
