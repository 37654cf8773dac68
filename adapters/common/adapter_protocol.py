"""The adapter protocol's frames and request loop (docs/adapter-protocol.md), shared by the Python
adapters in adapters/.

An adapter calls take_stdio() before it imports its runtime: the protocol's stdout becomes a
private copy of file descriptor 1 and descriptor 1 itself becomes stderr, so that nothing a
runtime or a library prints can land in the middle of a frame. It then hands serve() its
handlers, {op: handler(header, blobs) -> (reply, blobs)}; a handler fails a request by raising
AdapterError with one of the protocol's codes.
"""

import json
import os
import struct
import sys

PROTOCOL = 2
MAGIC = b"OGA1"

_streams = {}


class AdapterError(Exception):
    """A failed request: `code` is one of the protocol's codes (UNIMPLEMENTED, INVALID_ARGUMENT,
    NOT_FOUND, UNAVAILABLE, DATA_LOSS, INTERNAL)."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def take_stdio():
    """Keeps private copies of stdin and stdout for the frames and points descriptor 1 (and
    sys.stdout) at stderr. Call it once, before importing the runtime."""
    if _streams:
        return
    _streams["out"] = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    _streams["in"] = os.fdopen(os.dup(0), "rb", buffering=0)


def check_protocol(header):
    """Raises AdapterError unless the hello asks for this protocol version."""
    if header.get("protocol") != PROTOCOL:
        raise AdapterError("INVALID_ARGUMENT", "protocol %r; this adapter speaks %d"
                           % (header.get("protocol"), PROTOCOL))


def _read_exactly(n):
    chunks = []
    while n > 0:
        chunk = _streams["in"].read(n)
        if not chunk:
            return None
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def read_frame(program):
    """(header, blobs) of the next request, or None at the end of stdin."""
    prefix = _read_exactly(12)
    if prefix is None:
        return None
    if prefix[:4] != MAGIC:
        raise SystemExit("%s: not a protocol frame on stdin" % program)
    header_len, blob_count = struct.unpack("<II", prefix[4:])
    header = json.loads(_read_exactly(header_len))
    blobs = []
    for _ in range(blob_count):
        (size,) = struct.unpack("<Q", _read_exactly(8))
        blobs.append(_read_exactly(size))
    return header, blobs


def write_frame(header, blobs=()):
    data = json.dumps(header).encode()
    parts = [MAGIC, struct.pack("<II", len(data), len(blobs)), data]
    for blob in blobs:
        parts.append(struct.pack("<Q", len(blob)))
        parts.append(blob)
    _streams["out"].write(b"".join(parts))


def serve(program, handlers):
    """Answers requests until stdin ends; returns the exit status (0). Every reply echoes its
    request's id; an exception that is not an AdapterError is answered as INTERNAL, so a bug in
    the adapter fails one request, not the run."""
    while True:
        frame = read_frame(program)
        if frame is None:
            return 0  # onnxgate closed the pipe: done
        header, blobs = frame
        handler = handlers.get(header.get("op"))
        echo = {"id": header["id"]} if "id" in header else {}
        try:
            if handler is None:
                raise AdapterError("INVALID_ARGUMENT", "unknown op %r" % header.get("op"))
            reply, out_blobs = handler(header, blobs)
            reply["ok"] = True
            write_frame(dict(reply, **echo), out_blobs)
        except AdapterError as exc:
            write_frame(dict({"ok": False, "code": exc.code, "message": str(exc) or exc.code},
                             **echo))
        except Exception as exc:  # a bug here, not in the model: still one clear answer
            write_frame(dict({"ok": False, "code": "INTERNAL",
                              "message": "%s: %s" % (type(exc).__name__, exc)}, **echo))
