"""A tiny pbrain engine for the arbiter tests, with switchable misbehaviour.

Plays its --moves list in order (skipping taken squares), then the first empty square in
row-major order. Options (K = the engine's own move number, 1-based):
  --moves "x,y;x,y"   scripted moves
  --late K MS         sleep MS before answering move K
  --crash K           exit with code 3 instead of answering move K
  --garbage K         answer move K with "hello world"
  --occupied K        answer move K with the opponent's last move
  --offboard K        answer move K with "99,99"
  --double K          answer move K twice (a second, unasked move line)
  --memory K MB       touch MB megabytes before answering move K
  --chatter           send MESSAGE and DEBUG lines before every move
  --refuse-start      answer START with ERROR
  --log FILE          append every received command to FILE
"""
import sys
import time

args = sys.argv[1:]
opts = {}
i = 0
while i < len(args):
    a = args[i]
    if a in ("--late", "--memory"):
        opts[a] = (int(args[i + 1]), int(args[i + 2]))
        i += 3
    elif a in ("--crash", "--garbage", "--occupied", "--offboard", "--double"):
        opts[a] = int(args[i + 1])
        i += 2
    elif a in ("--moves", "--log"):
        opts[a] = args[i + 1]
        i += 2
    else:
        opts[a] = True
        i += 1

script = []
if opts.get("--moves"):
    script = [tuple(int(v) for v in m.split(",")) for m in opts["--moves"].split(";")]
size = 15
board = {}
last_opp = None
count = 0
hog = None


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def log(line):
    if opts.get("--log"):
        with open(opts["--log"], "a") as f:
            f.write(line + "\n")


def reply():
    global count, hog
    count += 1
    if opts.get("--chatter"):
        out("MESSAGE thinking about move %d" % count)
        out("DEBUG nothing to see")
    if "--late" in opts and opts["--late"][0] == count:
        time.sleep(opts["--late"][1] / 1000.0)
    if opts.get("--crash") == count:
        sys.exit(3)
    if opts.get("--garbage") == count:
        out("hello world")
        return
    if opts.get("--occupied") == count and last_opp is not None:
        out("%d,%d" % last_opp)
        return
    if opts.get("--offboard") == count:
        out("99,99")
        return
    if "--memory" in opts and opts["--memory"][0] == count:
        hog = b"x" * (opts["--memory"][1] * 1024 * 1024)
    while script and script[0] in board:
        script.pop(0)
    if script:
        mv = script.pop(0)
    else:
        mv = next((x, y) for y in range(size) for x in range(size) if (x, y) not in board)
    board[mv] = 1
    out("%d,%d" % mv)
    if opts.get("--double") == count:
        out("%d,%d" % mv)


for raw in sys.stdin:
    line = raw.strip()
    if not line:
        continue
    log(line)
    word = line.split()[0].upper()
    if word == "START":
        if opts.get("--refuse-start"):
            out("ERROR not today")
            continue
        size = int(line.split()[1])
        board = {}
        out("OK")
    elif word == "INFO":
        pass
    elif word == "BEGIN":
        reply()
    elif word == "TURN":
        x, y = (int(v) for v in line.split()[1].split(","))
        board[(x, y)] = 2
        last_opp = (x, y)
        reply()
    elif word == "BOARD":
        board = {}
        for raw2 in sys.stdin:
            l2 = raw2.strip()
            log(l2)
            if l2.upper() == "DONE":
                break
            x, y, f = (int(v) for v in l2.split(","))
            board[(x, y)] = f
            if f == 2:
                last_opp = (x, y)
        reply()
    elif word == "END":
        sys.exit(0)
    else:
        out("UNKNOWN " + line)
