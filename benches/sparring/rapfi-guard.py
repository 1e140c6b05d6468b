#!/usr/bin/env python3
"""A relay between a Piskvork match manager (sente-arbiter) and Rapfi.

Rapfi drops a command that arrives in the few milliseconds after it printed a move, and it
sizes its hash table from `INFO max_memory`; without this relay it lost games to an `ERROR`
reply or to a late first move. The relay
- holds the manager's input back until 30 ms after Rapfi's last move line;
- drops `INFO max_memory` (Rapfi keeps its default 32 MiB table);
- with RAPFI_LOG=DIR set, writes both directions to DIR/<time>-<pid>.log (Rapfi's MESSAGE
  lines carry its depth, evaluation and mate distances: a second opinion on a lost game).

RAPFI (default ~/sparring/rapfi/pbrain-rapfi) is started in its own folder, where its
config.toml is (../shared/reference/sparring.md). Use: `sente-arbiter --engine2
benches/sparring/rapfi-guard.py ...`.
"""
import os
import re
import subprocess
import sys
import threading
import time

RAPFI = os.environ.get("RAPFI", os.path.expanduser("~/sparring/rapfi/pbrain-rapfi"))
HOLD = 0.030
MOVE = re.compile(rb"^\s*-?\d+\s*,\s*-?\d+\s*$")

proc = subprocess.Popen([RAPFI], cwd=os.path.dirname(RAPFI), stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
last_move = 0.0
lock = threading.Lock()
log = None
if os.environ.get("RAPFI_LOG"):
    os.makedirs(os.environ["RAPFI_LOG"], exist_ok=True)
    name = "%d-%d.log" % (int(time.time()), os.getpid())
    log = open(os.path.join(os.environ["RAPFI_LOG"], name), "wb", buffering=0)


def relay_replies():
    global last_move
    out = sys.stdout.buffer
    for line in proc.stdout:
        if MOVE.match(line):
            with lock:
                last_move = time.monotonic()
        out.write(line)
        out.flush()
        if log:
            log.write(b"< " + line)
    os._exit(0)


threading.Thread(target=relay_replies, daemon=True).start()
for line in sys.stdin.buffer:
    if log:
        log.write(b"> " + line)
    if line.strip().upper().startswith(b"INFO MAX_MEMORY"):
        continue
    with lock:
        wait = last_move + HOLD - time.monotonic()
    if wait > 0:
        time.sleep(wait)
    try:
        proc.stdin.write(line)
        proc.stdin.flush()
    except BrokenPipeError:
        break
try:
    proc.stdin.close()
except OSError:
    pass
proc.wait()
