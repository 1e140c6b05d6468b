#!/usr/bin/env python3
"""How Rapfi saw each game of a match: read the RAPFI_LOG=DIR logs of rapfi-guard.py.

    benches/sparring/rapfi-evals.py DIR [THRESHOLD]

One line per game (one log per Rapfi process, so per game): Rapfi's moves, its evaluation
before its first move (its own view: positive = Rapfi better), at which of its moves the
evaluation first reached THRESHOLD (default 300) and first announced a mate (+M), and its
first eight evaluations (mates as +-20000). Then the medians: whether games are lost in the
opening (a first evaluation already high) or in the middle game (a rise after it)."""
import glob
import re
import statistics
import sys

EVAL = re.compile(r"Eval ([-+]?M?\d+)")
MOVE = re.compile(r"< -?\d+,-?\d+\s*$")


def value(token):
    if "M" in token:
        return -20000 if token.startswith("-") else 20000
    return int(token)


def game(path):
    evals, last = [], None
    for line in open(path, errors="replace"):
        if line.startswith("< MESSAGE") and "Eval" in line:
            m = EVAL.search(line)
            if m:
                last = value(m.group(1))
        elif MOVE.match(line):
            evals.append(last)
            last = None
    return evals


def main():
    folder = sys.argv[1]
    threshold = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    firsts, rises, mates, games = [], [], [], 0
    for path in sorted(glob.glob(folder + "/*.log")):
        ev = game(path)
        if not ev:
            continue
        games += 1
        known = [(i + 1, v) for i, v in enumerate(ev) if v is not None]
        first = known[0][1] if known else None
        rise = next((i for i, v in known if v >= threshold), None)
        mate = next((i for i, v in known if v == 20000), None)
        print(path.split("/")[-1], len(ev), first, rise, mate, ev[:8])
        if first is not None:
            firsts.append(first)
        if rise:
            rises.append(rise)
        if mate:
            mates.append(mate)
    if not games:
        print("no logs in", folder)
        return
    print(f"games {games}; Rapfi's first evaluation: median {statistics.median(firsts)}, "
          f">= {threshold} in {sum(v >= threshold for v in firsts)}, "
          f"<= -{threshold} in {sum(v <= -threshold for v in firsts)}")
    if rises:
        print(f"reached {threshold} in {len(rises)} games, at Rapfi's move "
              f"{statistics.median(rises)} (median)")
    if mates:
        print(f"announced a mate in {len(mates)} games, at Rapfi's move "
              f"{statistics.median(mates)} (median)")


main()
