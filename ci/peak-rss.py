#!/usr/bin/env python3
"""Runs a command in a session of its own and prints, as JSON on stderr's last line, its wall
time and the peak of the summed resident memory of every process in that session (the command
and all its workers), sampled every 10 ms from /proc.

Usage: ci/peak-rss.py <command> [args...]; exits with the command's exit code.
"""
import json
import os
import subprocess
import sys
import time


def session_rss_bytes(sid):
    total = 0
    page = os.sysconf("SC_PAGE_SIZE")
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            # After the command's name: state, ppid, pgrp, session, ...; rss is field 24.
            if int(fields[3]) == sid:
                total += int(fields[21]) * page
        except (OSError, IndexError, ValueError):
            continue
    return total


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    start = time.monotonic()
    child = subprocess.Popen(sys.argv[1:], start_new_session=True)
    peak = 0
    while child.poll() is None:
        peak = max(peak, session_rss_bytes(child.pid))
        time.sleep(0.01)
    seconds = time.monotonic() - start
    print(json.dumps({"seconds": round(seconds, 3), "peak_rss_mib": round(peak / 2**20, 1),
                      "exit": child.returncode}), file=sys.stderr)
    return child.returncode


if __name__ == "__main__":
    sys.exit(main())
