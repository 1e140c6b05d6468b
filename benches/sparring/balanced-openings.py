#!/usr/bin/env python3
"""Opening sets for matches, balanced by Rapfi's judgement.

    benches/sparring/balanced-openings.py RULE SIZE COUNT OUT [options]

Draws random openings of a few stones near the centre (black first, alternating; seeded,
so the same arguments give the same candidates), asks Rapfi (classical, one fresh
process per opening) for its value after a short search, and keeps the openings whose
value for the side to move lies within +-WITHIN, until COUNT are kept. RULE is a
Gomocup rule number or name: 0 / freestyle, 1 / standard, 4 / renju (renju openings
that would put a black stone on a forbidden point are filtered by Rapfi's refusal or a
mate value, and the KataGomo sets in ../shared/data are better there).

Options: --seed N (default 1), --ms MS (Rapfi's time per opening, 200), --within V (100),
--radius R (stones within R cells of the centre, Chebyshev; 3), --stones A-B (3-5),
--max-tries N (50 x COUNT).

Writes one tab-separated line per opening: name, size, rule, Rapfi's value for the side to
move, side to move, the moves as `x,y x,y ...` (the format `sente-arbiter --openings`
reads; it takes the first column of moves). A summary goes to stderr.

Environment: RAPFI (default ~/sparring/rapfi/pbrain-rapfi; its config.toml and network
files are read from the binary's folder, so it is started there).
"""

import os
import random
import re
import subprocess
import sys

RULES = {"0": 0, "freestyle": 0, "1": 1, "standard": 1, "4": 4, "renju": 4}
RULE_NAMES = {0: "freestyle", 1: "standard", 4: "renju"}


def usage(msg=""):
    if msg:
        sys.stderr.write(f"balanced-openings: {msg}\n")
    sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
    sys.exit(2)


def parse_args(argv):
    if len(argv) < 4:
        usage()
    rule = RULES.get(argv[0].lower())
    if rule is None:
        usage(f"unknown rule {argv[0]!r}")
    try:
        size, count = int(argv[1]), int(argv[2])
    except ValueError:
        usage("SIZE and COUNT are numbers")
    opts = {"seed": 1, "ms": 200, "within": 100, "radius": 3, "stones": (3, 5), "max_tries": 50 * count}
    rest = argv[4:]
    i = 0
    while i < len(rest):
        key, val = rest[i], rest[i + 1] if i + 1 < len(rest) else None
        if val is None:
            usage(f"{key} needs a value")
        if key == "--stones":
            a, _, b = val.partition("-")
            opts["stones"] = (int(a), int(b or a))
        elif key in ("--seed", "--ms", "--within", "--radius", "--max-tries"):
            opts[key[2:].replace("-", "_")] = int(val)
        else:
            usage(f"unknown option {key}")
        i += 2
    if not 5 <= size <= 22 or count < 1:
        usage("SIZE must be 5..22 and COUNT at least 1")
    return rule, size, count, argv[3], opts


def candidate(rng, size, radius, stones):
    """Random distinct cells within `radius` of the centre, `stones` of them."""
    c = size // 2
    cells = [(x, y) for x in range(c - radius, c + radius + 1) for y in range(c - radius, c + radius + 1)]
    n = rng.randint(stones[0], stones[1])
    return rng.sample(cells, n)


def rapfi_value(rapfi, rule, size, moves, ms):
    """Rapfi's value for the side to move after `ms` ms, or None (mate, refusal, no answer)."""
    # BOARD colours: 1 = the engine's own stones (the side to move), 2 = the opponent's.
    to_move_black = len(moves) % 2 == 0
    lines = [f"START {size}", f"INFO rule {rule}", f"INFO timeout_turn {ms}",
             "INFO timeout_match 1000000", "INFO time_left 1000000", "BOARD"]
    for i, (x, y) in enumerate(moves):
        black = i % 2 == 0
        lines.append(f"{x},{y},{1 if black == to_move_black else 2}")
    lines.append("DONE")
    folder = os.path.dirname(os.path.abspath(rapfi))
    try:
        p = subprocess.Popen([rapfi], cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
    except OSError as e:
        sys.exit(f"balanced-openings: cannot start {rapfi}: {e}")
    p.stdin.write("\n".join(lines) + "\n")
    p.stdin.flush()
    value = None
    try:
        for line in p.stdout:
            line = line.strip()
            m = re.search(r"Eval ([-+]?M?\d+)", line)
            if m:
                v = m.group(1)
                value = None if "M" in v else int(v)
            elif re.fullmatch(r"\d+,\d+", line):
                break
            elif line.upper().startswith("ERROR"):
                value = None
                break
    finally:
        try:
            p.stdin.write("END\n")
            p.stdin.flush()
        except OSError:
            pass
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
    return value


def main():
    rule, size, count, out, o = parse_args(sys.argv[1:])
    rapfi = os.environ.get("RAPFI", os.path.expanduser("~/sparring/rapfi/pbrain-rapfi"))
    rng = random.Random(o["seed"])
    kept, tries, seen = [], 0, set()
    while len(kept) < count and tries < o["max_tries"]:
        moves = candidate(rng, size, o["radius"], o["stones"])
        key = (tuple(sorted(moves[0::2])), tuple(sorted(moves[1::2])))
        if key in seen:
            continue
        seen.add(key)
        tries += 1
        v = rapfi_value(rapfi, rule, size, moves, o["ms"])
        if v is not None and abs(v) <= o["within"]:
            kept.append((v, moves))
    prefix = {0: "free", 1: "std", 4: "renju"}[rule]
    with open(out, "w") as f:
        f.write(f"# {len(kept)} openings kept of {tries} tried: balanced-openings.py {' '.join(sys.argv[1:])}\n")
        for i, (v, moves) in enumerate(kept, 1):
            side = "black" if len(moves) % 2 == 0 else "white"
            mv = " ".join(f"{x},{y}" for x, y in moves)
            f.write(f"{prefix}{size}_{o['seed']}_{i:03}\t{size}\t{RULE_NAMES[rule]}\t{v}\t{side}\t{mv}\n")
    sys.stderr.write(f"{len(kept)} of {tries} candidates kept (|value| <= {o['within']} after {o['ms']} ms)\n")
    return 0 if len(kept) == count else 1


if __name__ == "__main__":
    sys.exit(main())
