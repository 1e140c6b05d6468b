#!/usr/bin/env python3
"""What one or more match arms of benches/sparring/match.sh say beyond the arbiter's summary.

    benches/sparring/arm-report.py [--engine NAME] [--control ARM] ARM [ARM ...]

ARM is the NAME given to match.sh: the folder NAME/ (games.tsv and the game_*.psq
records) and, if present, NAME.log. For each arm it prints

* the engine's wins, losses and draws by colour (black / white), from games.tsv;
* its score by game length (stones on the board at the end, the opening's included:
  within 39, 40-59, 60 or more; short games are the tactical ones), and how many
  openings it won with both colours, split, or lost with both;
* its thinking time per move by its own move number after the opening (from the
  times in the .psq records): how many moves, the mean, the median, the share of
  quick replies (under 100 ms: forced blocks, a found win, a single defence) and of
  moves that ran to within 10 % of the arm's longest think (the per-move cap);

then the same over all arms together. The engine is the one named `sente` in
games.tsv unless --engine says otherwise.

With --control CONTROL, each arm is also compared game by game with the control arm
(played on the same openings file: game N of both is the same opening and colour):
the games the arm scored better and worse in, and a sign test over those discordant
games, z = (better - worse) / sqrt(better + worse). Two arms of one binary on one set
differ by 5-14 points over 100 games, mostly in which openings each side wins, so the
pairing is what tells a change from that noise (|z| under 2 is within it). Games that
ended in a crash are left out of the comparison on both sides.
"""
import os
import sys

QUICK_MS = 100


def parse_args(argv):
    engine, control, arms = "sente", None, []
    i = 0
    while i < len(argv):
        if argv[i] == "--engine" and i + 1 < len(argv):
            engine = argv[i + 1]
            i += 2
        elif argv[i] == "--control" and i + 1 < len(argv):
            control = argv[i + 1].rstrip("/")
            i += 2
        elif argv[i] in ("-h", "--help"):
            print(__doc__)
            sys.exit(0)
        else:
            arms.append(argv[i].rstrip("/"))
            i += 1
    if not arms:
        print(__doc__)
        sys.exit(2)
    return engine, control, arms


def games(arm):
    """(number, black, white, result "1-0" / "0-1" / "1/2-1/2", how it ended, stones on
    the board at the end (0 if not given), opening (its file and line, "" if not given))
    per game of games.tsv."""
    out = []
    with open(os.path.join(arm, "games.tsv")) as f:
        for line in f:
            t = line.rstrip("\n").split("\t")
            if len(t) >= 4 and t[0].isdigit():
                end = t[4] if len(t) > 4 else ""
                stones = int(t[5]) if len(t) > 5 and t[5].isdigit() else 0
                opening = t[6] if len(t) > 6 else ""
                out.append((int(t[0]), t[1], t[2], t[3], end, stones, opening))
    return out


# Game length classes (stones on the board at the end): label and largest count.
LENGTHS = (("within 39", 39), ("40-59", 59), ("60 or more", 10**9))


def length_class(stones):
    """The label of the length class of a game that ended with `stones` on the board."""
    return next(label for label, hi in LENGTHS if stones <= hi)


def score(result, is_black):
    """The score of the player of that colour in a game with that result."""
    if result == "1/2-1/2":
        return 0.5
    return 1.0 if (result == "1-0") == is_black else 0.0


def scores(engine, arm):
    """The engine's score (1, 0.5, 0) per game number, crashed games left out."""
    return {
        number: score(result, black == engine)
        for number, black, white, result, end, _, _ in games(arm)
        if engine in (black, white) and not end.startswith("crash")
    }


def paired(engine, control, arm):
    """The paired comparison of `arm` with `control` over the games both finished."""
    a, c = scores(engine, arm), scores(engine, control)
    both = sorted(set(a) & set(c))
    better = sum(1 for g in both if a[g] > c[g])
    worse = sum(1 for g in both if a[g] < c[g])
    z = (better - worse) / (better + worse) ** 0.5 if better + worse else 0.0
    sa = sum(a[g] for g in both)
    sc = sum(c[g] for g in both)
    n = len(both)
    pct = (lambda x: 100 * x / n) if n else (lambda x: 0.0)
    return (
        f"{arm} against {control}: {n} games in both, {sa:g} ({pct(sa):.1f} %) against "
        f"{sc:g} ({pct(sc):.1f} %); better in {better}, worse in {worse}, sign test z {z:+.2f}"
    )


def moves(path):
    """The (x, y, ms) rows of a .psq record (the header and the trailer skipped)."""
    rows = []
    with open(path) as f:
        lines = f.read().splitlines()[1:]
    for line in lines:
        t = line.split(",")
        if len(t) == 3 and all(p.strip().lstrip("-").isdigit() for p in t):
            rows.append(tuple(int(p) for p in t))
    return rows


def report(engine, arm):
    """By colour [wins, losses, draws]; thinking times by own move number; per game
    length class [points, games] and per opening the points (crashed games left out of
    those two)."""
    by_colour = {"black": [0, 0, 0], "white": [0, 0, 0]}
    times = {}
    by_length = {label: [0.0, 0] for label, _ in LENGTHS}
    by_opening = {}
    for number, black, white, result, end, stones, opening in games(arm):
        if engine not in (black, white):
            continue
        is_black = black == engine
        colour = "black" if is_black else "white"
        s = score(result, is_black)
        # Win, loss, draw: the slots of scores 1, 0 and 0.5.
        by_colour[colour][{1.0: 0, 0.0: 1, 0.5: 2}[s]] += 1
        if not end.startswith("crash"):
            by_length[length_class(stones)][0] += s
            by_length[length_class(stones)][1] += 1
            if opening:
                by_opening[opening] = by_opening.get(opening, 0.0) + s
        psq = os.path.join(arm, f"game_{number:04d}.psq")
        if not os.path.exists(psq):
            continue
        rows = moves(psq)
        # The opening's stones carry no time.
        k = 0
        while k < len(rows) and rows[k][2] == 0:
            k += 1
        own = 0
        for i in range(k, len(rows)):
            if (i % 2 == 0) == is_black:
                times.setdefault(own, []).append(rows[i][2])
                own += 1
    return by_colour, times, by_length, by_opening


def summary(label, ms, cap):
    ms = sorted(ms)
    n = len(ms)
    if n == 0:
        return f"{label:>8}  no moves"
    quick = sum(1 for t in ms if t < QUICK_MS) / n
    full = sum(1 for t in ms if t >= 0.9 * cap) / n if cap > 0 else 0.0
    return (
        f"{label:>8}  {n:5d} moves  mean {sum(ms) / n:4.0f} ms  median {ms[n // 2]:4d} ms"
        f"  under {QUICK_MS} ms {100 * quick:3.0f} %  at the cap {100 * full:3.0f} %"
    )


def show(title, engine, by_colour, times, by_length, by_opening):
    print(f"== {title}")
    for colour in ("black", "white"):
        w, l, d = by_colour[colour]
        n = w + l + d
        score = (w + d / 2) / n * 100 if n else 0.0
        print(f"{engine} as {colour}: {w}-{l}-{d} of {n}, {score:.1f} %")
    parts = [f"{label} {pts:g} / {n}" for label, (pts, n) in by_length.items()]
    print("points by game length (stones at the end, opening included): " + ", ".join(parts))
    if by_opening:
        both = sum(1 for v in by_opening.values() if v == 2)
        none = sum(1 for v in by_opening.values() if v == 0)
        print(
            f"openings: {len(by_opening)}, won with both colours {both}, "
            f"lost with both {none}, the rest split"
        )
    every = [t for v in times.values() for t in v]
    cap = max(every) if every else 0
    print(f"thinking time by own move after the opening (cap taken as the longest, {cap} ms):")
    for start in range(0, 40, 5):
        chunk = [t for m in range(start, start + 5) for t in times.get(m, [])]
        print(summary(f"{start}-{start + 4}", chunk, cap))
    late = [t for m, v in times.items() if m >= 40 for t in v]
    print(summary("40-", late, cap))
    print(summary("all", every, cap))


def main():
    engine, control, arms = parse_args(sys.argv[1:])
    total_colour = {"black": [0, 0, 0], "white": [0, 0, 0]}
    total_times = {}
    total_length = {label: [0.0, 0] for label, _ in LENGTHS}
    for arm in arms:
        by_colour, times, by_length, by_opening = report(engine, arm)
        show(arm, engine, by_colour, times, by_length, by_opening)
        for c in total_colour:
            total_colour[c] = [a + b for a, b in zip(total_colour[c], by_colour[c])]
        for m, v in times.items():
            total_times.setdefault(m, []).extend(v)
        for label, (pts, n) in by_length.items():
            total_length[label][0] += pts
            total_length[label][1] += n
    if len(arms) > 1:
        show("all arms", engine, total_colour, total_times, total_length, {})
    if control is not None:
        print("== paired with the control")
        for arm in arms:
            print(paired(engine, control, arm))


if __name__ == "__main__":
    main()
