#!/usr/bin/env python3
"""How Rapfi saw the games of a match: read the RAPFI_LOG=DIR logs of rapfi-guard.py.

    benches/sparring/rapfi-evals.py DIR [THRESHOLD]
    benches/sparring/rapfi-evals.py [--engine NAME] [--games] --arm ARM DIR [--arm ARM DIR ...]

Rapfi's value of its position is the last `Eval` of each of its searches, from its side
(positive: Rapfi better; a mate in n plies is 20000 - n, being mated -20000 + n).

First form, the logs alone (one log per Rapfi process, so per game): one line per game
with Rapfi's moves, its value before its first move (is the opening lost already?), at
which of its moves the value first reached THRESHOLD (default 300) and first announced
a mate, and its first eight values; then the medians.

Second form, with the arm's records: ARM is the NAME given to match.sh (the folder with
games.tsv and the .psq records), DIR its RAPFI_LOG folder. Each log is paired with its
game by Rapfi's moves (the moves Rapfi printed must be the game's moves of its colour,
in order; a log that fits no game is counted and left out). For the engine's lost and
won games apart:

* the median of Rapfi's value at its move k after the opening (k = 0, 2, 4, ...; mates
  left out of the median) and how many games stood at +200 or more / -200 or less then;
* each lost game that Rapfi finished with a mate, by its value at the move before it
  first announced the mate: "sudden" (under +300: a tactic found from a level position,
  a blunder or a deep sequence), "climb" (+300 to +1000) or "gradual" (+1000 or more:
  lost in quiet play long before the mate); "no mate" if it never announced one.

With --games, one line per game too: colour, result, stones, Rapfi's values in order.
"""
import os
import re
import statistics
import sys

EVAL = re.compile(r"Depth \d+-\d+ \| Eval (\S+)")
MOVE = re.compile(r"^<\s*(-?\d+)\s*,\s*(-?\d+)\s*$")
MATE = 20000
STEPS = (0, 2, 4, 6, 8, 10, 12, 15, 20, 25, 30)


def value(token):
    """Rapfi's `Eval` token as a number from its side (+M5 -> 19995, -M4 -> -19996)."""
    if "M" in token:
        n = int(token.replace("+", "").replace("-", "").replace("M", ""))
        return -MATE + n if token.startswith("-") else MATE - n
    return int(token)


def read_log(path):
    """(Rapfi's moves, its value at each of them) from one relay log."""
    moves, values, last = [], [], None
    with open(path, errors="replace") as f:
        for line in f:
            m = EVAL.search(line)
            if m:
                last = value(m.group(1))
                continue
            m = MOVE.match(line.strip())
            if m and line.startswith("<"):
                moves.append((int(m.group(1)), int(m.group(2))))
                values.append(last)
                last = None
    return moves, values


def read_psq(path):
    """The moves of a .psq record, 0-based."""
    out = []
    with open(path) as f:
        lines = f.read().splitlines()
    for line in lines[1:]:
        parts = line.split(",")
        if len(parts) == 3 and all(p.strip().lstrip("-").isdigit() for p in parts):
            out.append((int(parts[0]) - 1, int(parts[1]) - 1))
        elif out:
            break
    return out


def arm_games(arm, engine):
    """Per game: (number, engine is black, result for the engine 1 / 0 / 0.5, stones,
    the game's moves)."""
    out = []
    with open(os.path.join(arm, "games.tsv")) as f:
        for line in f:
            row = line.rstrip("\n").split("\t")
            if len(row) < 6:
                continue
            n, black, white, res = int(row[0]), row[1], row[2], row[3]
            if engine not in (black, white):
                continue
            ours_black = black == engine
            score = {"1-0": 1.0, "0-1": 0.0}.get(res, 0.5)
            if not ours_black and res in ("1-0", "0-1"):
                score = 1.0 - score
            moves = read_psq(os.path.join(arm, "game_%04d.psq" % n))
            out.append((n, ours_black, score, int(row[5] or 0), moves))
    return out


def pair(games, logdir):
    """Map game number -> Rapfi's values, pairing each log with the game whose moves of
    Rapfi's colour are the log's moves."""
    found, unmatched = {}, 0
    for name in sorted(os.listdir(logdir)):
        moves, values = read_log(os.path.join(logdir, name))
        if not moves:
            continue
        hit = None
        for n, ours_black, _, _, gm in games:
            if n in found:
                continue
            # Rapfi's colour is the other one; its moves are every other move of the game.
            rapfi = [m for i, m in enumerate(gm) if (i % 2 == 0) != ours_black]
            if rapfi[-len(moves):] == moves and len(moves) <= len(rapfi):
                hit = n
                break
        if hit is None:
            unmatched += 1
        else:
            found[hit] = values
    return found, unmatched


def arm_report(argv):
    engine, per_game, pairs = "sente", False, []
    i = 0
    while i < len(argv):
        if argv[i] == "--engine" and i + 1 < len(argv):
            engine = argv[i + 1]
            i += 2
        elif argv[i] == "--games":
            per_game = True
            i += 1
        elif argv[i] == "--arm" and i + 2 < len(argv):
            pairs += [argv[i + 1].rstrip("/"), argv[i + 2].rstrip("/")]
            i += 3
        else:
            print(__doc__)
            return 2
    if not pairs or len(pairs) % 2:
        print(__doc__)
        return 2
    rows = []
    for arm, logdir in zip(pairs[::2], pairs[1::2]):
        games = arm_games(arm, engine)
        values, unmatched = pair(games, logdir)
        print("%s: %d games, %d with a Rapfi log, %d logs paired with no game"
              % (arm, len(games), len(values), unmatched))
        for n, ours_black, score, stones, _ in games:
            if n in values:
                rows.append((arm, n, ours_black, score, stones, values[n]))
    if per_game:
        for arm, n, ours_black, score, stones, vals in rows:
            print("%s %d %s %s %d: %s" % (arm, n, "B" if ours_black else "W",
                                          {1.0: "won", 0.0: "lost"}.get(score, "draw"),
                                          stones, " ".join(str(v) for v in vals)))
    for label, score in (("lost", 0.0), ("won", 1.0)):
        sel = [r[5] for r in rows if r[3] == score]
        print("%s games: %d" % (label, len(sel)))
        for k in STEPS:
            at = [v[k] for v in sel if len(v) > k and v[k] is not None]
            plain = [x for x in at if abs(x) < MATE - 1000]
            if not at:
                break
            print("  Rapfi's move %2d: %3d games, median %6s, +200 or more %3d, -200 or less %3d"
                  % (k, len(at), "%d" % statistics.median(plain) if plain else "-",
                     sum(1 for x in at if x >= 200), sum(1 for x in at if x <= -200)))
    kinds = {"sudden": 0, "climb": 0, "gradual": 0, "no mate": 0}
    for r in rows:
        if r[3] != 0.0:
            continue
        vals = [x for x in r[5] if x is not None]
        first = next((i for i, x in enumerate(vals) if x >= MATE - 1000), None)
        if first is None:
            kinds["no mate"] += 1
        else:
            before = vals[first - 1] if first > 0 else 0
            kinds["sudden" if before < 300 else "climb" if before < 1000 else "gradual"] += 1
    print("lost games by Rapfi's value before its first mate announcement: "
          + ", ".join("%s %d" % kv for kv in kinds.items()))
    return 0


def logs_report(folder, threshold):
    """The first form: every log of `folder` on its own."""
    firsts, rises, mates, games = [], [], [], 0
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".log"):
            continue
        _, ev = read_log(os.path.join(folder, name))
        if not ev:
            continue
        games += 1
        known = [(i + 1, v) for i, v in enumerate(ev) if v is not None]
        first = known[0][1] if known else None
        rise = next((i for i, v in known if v >= threshold), None)
        mate = next((i for i, v in known if v >= MATE - 1000), None)
        print(name, len(ev), first, rise, mate, ev[:8])
        if first is not None:
            firsts.append(first)
        if rise:
            rises.append(rise)
        if mate:
            mates.append(mate)
    if not games:
        print("no logs in", folder)
        return 1
    print(f"games {games}; Rapfi's first evaluation: median {statistics.median(firsts)}, "
          f">= {threshold} in {sum(v >= threshold for v in firsts)}, "
          f"<= -{threshold} in {sum(v <= -threshold for v in firsts)}")
    if rises:
        print(f"reached {threshold} in {len(rises)} games, at Rapfi's move "
              f"{statistics.median(rises)} (median)")
    if mates:
        print(f"announced a mate in {len(mates)} games, at Rapfi's move "
              f"{statistics.median(mates)} (median)")
    return 0


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    if "--arm" in argv:
        return arm_report(argv)
    return logs_report(argv[0], int(argv[1]) if len(argv) > 1 else 300)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
