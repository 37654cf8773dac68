"""The onnxgate side of the adapter protocol, for the adapters' tests: an adapter script in a
process of its own, spoken to through frames (docs/adapter-protocol.md)."""

import json
import struct
import subprocess
import sys


class AdapterClient:
    def __init__(self, script):
        self.process = subprocess.Popen([sys.executable, script], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE)
        self.next_id = 1

    def call(self, blobs=(), **header):
        """Sends one request; returns (reply header, reply blobs)."""
        header["id"] = self.next_id
        self.next_id += 1
        data = json.dumps(header).encode()
        frame = [b"OGA1", struct.pack("<II", len(data), len(blobs)), data]
        for blob in blobs:
            frame += [struct.pack("<Q", len(blob)), blob]
        self.process.stdin.write(b"".join(frame))
        self.process.stdin.flush()
        magic, size, count = struct.unpack("<4sII", self.process.stdout.read(12))
        reply = json.loads(self.process.stdout.read(size))
        out = []
        for _ in range(count):
            (n,) = struct.unpack("<Q", self.process.stdout.read(8))
            out.append(self.process.stdout.read(n))
        return reply, out

    def ask(self, **header):
        """Sends one request without blobs; returns the reply's header."""
        return self.call(**header)[0]

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=60)
        self.process.stdout.close()
