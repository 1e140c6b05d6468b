//! Replays every transcript in `protocol-samples/` against the built `pbrain-sente`
//! binary and checks every reply (format: `protocol-samples/README.md`).

use std::collections::{HashMap, HashSet, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

/// How long one expected reply may take (generous: the machine is shared).
const REPLY_TIMEOUT: Duration = Duration::from_secs(30);

const ENGINE: u8 = 1;
const MANAGER: u8 = 2;
const NEUTRAL: u8 = 3;

// The test's own model of the game, independent of the engine's code: sizes, who owns
// which square, and the move history (for TAKEBACK and five detection).
struct Model {
    width: i64,
    height: i64,
    stones: HashMap<(i64, i64), u8>,
    history: Vec<(i64, i64)>,
    rng: u64,
}

impl Model {
    fn new() -> Model {
        Model {
            width: 15,
            height: 15,
            stones: HashMap::new(),
            history: Vec::new(),
            rng: 0x9E37_79B9_7F4A_7C15,
        }
    }

    fn on_board(&self, (x, y): (i64, i64)) -> bool {
        (0..self.width).contains(&x) && (0..self.height).contains(&y)
    }

    fn place(&mut self, sq: (i64, i64), owner: u8) {
        self.stones.insert(sq, owner);
        self.history.push(sq);
    }

    fn clear(&mut self) {
        self.stones.clear();
        self.history.clear();
    }

    /// A pseudo-random empty square (deterministic sequence).
    fn auto_square(&mut self) -> (i64, i64) {
        for _ in 0..100_000 {
            self.rng ^= self.rng << 13;
            self.rng ^= self.rng >> 7;
            self.rng ^= self.rng << 17;
            let x = (self.rng % self.width as u64) as i64;
            let y = ((self.rng >> 20) % self.height as u64) as i64;
            if !self.stones.contains_key(&(x, y)) {
                return (x, y);
            }
        }
        panic!("board full: no square for <auto>");
    }

    /// Does `owner` have five or more in a row?
    fn has_five(&self, owner: u8) -> bool {
        let dirs = [(1, 0), (0, 1), (1, 1), (1, -1)];
        self.stones
            .iter()
            .filter(|(_, &o)| o == owner)
            .any(|(&(x, y), _)| {
                dirs.iter().any(|&(dx, dy)| {
                    (1..5).all(|k| self.stones.get(&(x + dx * k, y + dy * k)) == Some(&owner))
                })
            })
    }
}

// What a sent command does to the model once its reply shows it succeeded.
#[derive(Debug)]
enum Effect {
    None,
    Start(i64, i64),
    Restart,
    Turn((i64, i64)),
    Stones(Vec<((i64, i64), u8)>),
    Takeback((i64, i64)),
    Play((i64, i64)),
    /// A command that succeeds silently (YXBOARD): applied by `<nothing>`.
    Silent(Box<Effect>),
}

fn apply(model: &mut Model, e: Effect) {
    match e {
        Effect::None => {}
        Effect::Start(w, h) => {
            model.width = w;
            model.height = h;
            model.clear();
        }
        Effect::Restart => model.clear(),
        Effect::Turn(sq) => model.place(sq, MANAGER),
        Effect::Stones(list) => {
            model.clear();
            for (sq, o) in list {
                model.place(sq, o);
            }
        }
        Effect::Takeback(sq) => {
            model.stones.remove(&sq);
            model.history.retain(|&h| h != sq);
        }
        Effect::Play(sq) => model.place(sq, ENGINE),
        Effect::Silent(inner) => apply(model, *inner),
    }
}

fn parse_xy(s: &str) -> Option<(i64, i64)> {
    let (a, b) = s.split_once(',')?;
    let ok = |t: &str| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit());
    if ok(a) && ok(b) {
        Some((a.parse().ok()?, b.parse().ok()?))
    } else {
        None
    }
}

fn parse_xy_loose(s: &str) -> Option<(i64, i64)> {
    let mut it = s.split(',').map(|t| t.trim().parse::<i64>());
    match (it.next(), it.next()) {
        (Some(Ok(x)), Some(Ok(y))) => Some((x, y)),
        _ => None,
    }
}

/// Decode `\r`, `\\` and `\xNN` escapes of a `>` line.
fn unescape(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            match b[i + 1] {
                b'r' => {
                    out.push(b'\r');
                    i += 2;
                    continue;
                }
                b'\\' => {
                    out.push(b'\\');
                    i += 2;
                    continue;
                }
                b'x' if i + 3 < b.len() + 1 => {
                    let hex = std::str::from_utf8(&b[i + 2..i + 4]).unwrap();
                    out.push(u8::from_str_radix(hex, 16).unwrap());
                    i += 4;
                    continue;
                }
                _ => {}
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

/// Stones of an open block, with their owners.
type BlockStones = Vec<((i64, i64), u8)>;

// One running engine process plus the runner's bookkeeping.
struct Runner {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Option<String>>,
    stderr: thread::JoinHandle<Vec<u8>>,
    model: Model,
    pending: VecDeque<Effect>,
    /// Open block: kind word and collected stones.
    block: Option<(String, BlockStones)>,
    messages: usize,
    lineno: usize,
}

impl Runner {
    fn spawn(name: &str) -> Runner {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-sente"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env_remove("RUST_LOG")
            .env_remove("SENTE_LOG")
            .spawn()
            .expect("spawn pbrain-sente");
        let stdout = child.stdout.take().unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(None);
                        return;
                    }
                    Ok(_) => {
                        let s = String::from_utf8_lossy(&buf)
                            .trim_end_matches(['\n', '\r'])
                            .to_string();
                        if tx.send(Some(s)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let stderr = thread::spawn(move || {
            let mut v = Vec::new();
            let _ = stderr.read_to_end(&mut v);
            v
        });
        Runner {
            name: name.to_string(),
            stdin: child.stdin.take(),
            child,
            lines: rx,
            stderr,
            model: Model::new(),
            pending: VecDeque::new(),
            block: None,
            messages: 0,
            lineno: 0,
        }
    }

    fn fail(&self, msg: &str) -> ! {
        panic!("{} line {}: {msg}", self.name, self.lineno);
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let Some(stdin) = self.stdin.as_mut() else {
            self.fail("stdin already closed")
        };
        let mut data = bytes.to_vec();
        data.push(b'\n');
        if let Err(e) = stdin.write_all(&data).and_then(|()| stdin.flush()) {
            self.fail(&format!("write failed: {e}"));
        }
    }

    /// Next output line (`None` = stdout closed).
    fn recv_any(&mut self) -> Option<String> {
        match self.lines.recv_timeout(REPLY_TIMEOUT) {
            Ok(l) => l,
            Err(RecvTimeoutError::Timeout) => self.fail("timed out waiting for a reply"),
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Next non-MESSAGE line.
    fn recv_reply(&mut self) -> String {
        loop {
            match self.recv_any() {
                Some(l) if l.starts_with("MESSAGE ") => self.messages += 1,
                Some(l) => return l,
                None => self.fail("engine closed its output"),
            }
        }
    }

    /// Send a command line, recording its expected effect on the model.
    fn send_command(&mut self, text: &str) {
        let text = if text.contains("<auto>") {
            let (x, y) = self.model.auto_square();
            text.replace("<auto>", &format!("{x},{y}"))
        } else if text.contains("<lastmove>") {
            let (x, y) = *self
                .model
                .history
                .last()
                .unwrap_or_else(|| self.fail("no last move"));
            text.replace("<lastmove>", &format!("{x},{y}"))
        } else {
            text.to_string()
        };
        let bytes = unescape(&text);
        self.send_raw(&bytes);
        let line = String::from_utf8_lossy(&bytes).trim().to_string();
        if line.is_empty() {
            return;
        }
        if let Some((kind, stones)) = &mut self.block {
            if line.eq_ignore_ascii_case("DONE") {
                let kind = kind.clone();
                let stones = std::mem::take(stones);
                self.block = None;
                let e = Effect::Stones(stones);
                self.pending.push_back(if kind == "YXBOARD" {
                    Effect::Silent(Box::new(e))
                } else {
                    e
                });
                return;
            }
            let parts: Vec<&str> = line.split(',').collect();
            if let (Some(sq), true) = (parse_xy_loose(&line), parts.len() >= 2) {
                let owner = match parts.get(2).map(|s| s.trim()) {
                    Some("1") => ENGINE,
                    Some("2") => MANAGER,
                    _ => NEUTRAL,
                };
                stones.push((sq, owner));
                return;
            }
            // Anything else abandons or spoils the block; samples expect the ERROR.
            let word = line
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_ascii_uppercase();
            if [
                "START", "RESTART", "BEGIN", "TURN", "BOARD", "ABOUT", "TAKEBACK", "PLAY",
            ]
            .contains(&word.as_str())
            {
                self.block = None;
                self.pending.push_back(Effect::None);
            } else {
                return;
            }
        }
        let word = line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        let rest = line[word.len().min(line.len())..].trim();
        let effect = match word.as_str() {
            "INFO" | "STOP" | "YXSTOP" | "YXHASHCLEAR" | "YXSHOWINFO" | "END" => return,
            "BOARD" | "YXBOARD" | "SWAP2BOARD" => {
                self.block = Some((word.clone(), Vec::new()));
                return;
            }
            "START" => {
                let n = rest
                    .split_whitespace()
                    .next()
                    .and_then(|t| t.parse().ok())
                    .unwrap_or(0);
                Effect::Start(n, n)
            }
            "RECTSTART" => parse_xy_loose(rest).map_or(Effect::None, |(w, h)| Effect::Start(w, h)),
            "RESTART" => Effect::Restart,
            "TURN" => parse_xy_loose(rest).map_or(Effect::None, Effect::Turn),
            "TAKEBACK" => parse_xy_loose(rest).map_or(Effect::None, Effect::Takeback),
            "PLAY" => parse_xy_loose(rest).map_or(Effect::None, Effect::Play),
            _ => Effect::None,
        };
        self.pending.push_back(effect);
    }

    /// Consume one reply for the oldest pending command; apply its effect on success.
    fn reply_for_command(&mut self) -> String {
        let line = self.recv_reply();
        let effect = self.pending.pop_front().unwrap_or(Effect::None);
        if !(line.starts_with("ERROR") || line.starts_with("UNKNOWN")) {
            apply(&mut self.model, effect);
        }
        line
    }

    fn check_move(&mut self, line: &str) -> (i64, i64) {
        let Some(sq) = parse_xy(line) else {
            self.fail(&format!("expected a move, got '{line}'"))
        };
        if !self.model.on_board(sq) {
            self.fail(&format!(
                "move {line} is off the {}x{} board",
                self.model.width, self.model.height
            ));
        }
        if self.model.stones.contains_key(&sq) {
            self.fail(&format!("move {line} is on an occupied square"));
        }
        sq
    }

    fn expect(&mut self, pat: &str) {
        match pat {
            "<nothing>" => {
                if matches!(self.pending.front(), Some(Effect::Silent(_))) {
                    let e = self.pending.pop_front().unwrap();
                    apply(&mut self.model, e);
                }
                self.send_raw(b"ABOUT");
                let l = self.recv_any().unwrap_or_default();
                if !l.starts_with("name=\"Sente\"") {
                    self.fail(&format!("expected no reply, got '{l}'"));
                }
            }
            "<move>" => {
                let l = self.reply_for_command();
                let sq = self.check_move(&l);
                self.model.place(sq, ENGINE);
            }
            "<swap-or-move>" => {
                let l = self.reply_for_command();
                if l != "SWAP" {
                    let sq = self.check_move(&l);
                    self.model.place(sq, ENGINE);
                }
            }
            "<exit>" => {
                let mut moves = 0;
                loop {
                    match self.recv_any() {
                        None => break,
                        Some(l) if l.starts_with("MESSAGE ") => {}
                        Some(l) if parse_xy(&l).is_some() && moves == 0 => moves += 1,
                        Some(l) => self.fail(&format!("unexpected output before exit: '{l}'")),
                    }
                }
                let status = self.child.wait().expect("wait");
                if !status.success() {
                    self.fail(&format!("exit status {status}"));
                }
            }
            _ if pat.starts_with("<moves ") => {
                let n: usize = pat[7..pat.len() - 1].parse().unwrap();
                let l = self.reply_for_command();
                let list: Vec<(i64, i64)> = l.split(' ').map(|t| self.check_move(t)).collect();
                let distinct: HashSet<_> = list.iter().collect();
                if list.len() != n || distinct.len() != n {
                    self.fail(&format!("expected {n} distinct moves, got '{l}'"));
                }
            }
            _ if pat.starts_with("MESSAGE") => {
                let l = self.recv_any().unwrap_or_default();
                if !glob(pat, &l) {
                    self.fail(&format!("expected '{pat}', got '{l}'"));
                }
            }
            _ => {
                let l = self.reply_for_command();
                if !glob(pat, &l) {
                    self.fail(&format!("expected '{pat}', got '{l}'"));
                }
            }
        }
    }

    /// Play up to `n` turns against a pseudo-random opponent; the engine must make five.
    fn autoplay(&mut self, n: usize) {
        for _ in 0..n {
            if self.model.has_five(ENGINE) {
                return;
            }
            self.send_command("TURN <auto>");
            self.expect("<move>");
        }
        if !self.model.has_five(ENGINE) {
            self.fail(&format!(
                "no five for the engine after {n} turns against random moves"
            ));
        }
    }

    fn directive(&mut self, d: &str) {
        let mut it = d.split_whitespace();
        match (it.next(), it.next()) {
            (Some("eof"), _) => self.stdin = None,
            (Some("sleep"), Some(ms)) => thread::sleep(Duration::from_millis(ms.parse().unwrap())),
            (Some("autoplay"), Some(n)) => self.autoplay(n.parse().unwrap()),
            (Some("repeat"), Some(n)) => {
                let text: String = it.collect::<Vec<_>>().join(" ");
                let line = text.repeat(n.parse().unwrap());
                self.send_raw(line.as_bytes());
                self.pending.push_back(Effect::None);
            }
            _ => self.fail(&format!("bad directive '{d}'")),
        }
    }

    fn finish(mut self) {
        self.stdin = None;
        let mut rest = Vec::new();
        while let Some(l) = self.recv_any() {
            if !l.starts_with("MESSAGE ") {
                rest.push(l);
            }
        }
        if !rest.is_empty() {
            self.fail(&format!("unexpected trailing output: {rest:?}"));
        }
        let status = self.child.wait().expect("wait");
        assert!(status.success(), "{}: exit status {status}", self.name);
        let err = self.stderr.join().unwrap();
        assert!(
            err.is_empty(),
            "{}: stderr not empty: {}",
            self.name,
            String::from_utf8_lossy(&err)
        );
    }
}

/// Exact match, or prefix match when `pat` ends in `*`.
fn glob(pat: &str, line: &str) -> bool {
    match pat.strip_suffix('*') {
        Some(prefix) => line.starts_with(prefix),
        None => pat == line,
    }
}

fn run_sample(path: &Path) {
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let text = std::fs::read_to_string(path).unwrap();
    let mut r = Runner::spawn(&name);
    let mut exited = false;
    for (i, raw) in text.lines().enumerate() {
        r.lineno = i + 1;
        if let Some(cmd) = raw.strip_prefix("> ") {
            r.send_command(cmd);
        } else if raw == ">" {
            r.send_raw(b"");
        } else if let Some(pat) = raw.strip_prefix("< ") {
            r.expect(pat.trim_end());
            if pat.trim_end() == "<exit>" {
                exited = true;
                break;
            }
        } else if let Some(d) = raw.strip_prefix("! ") {
            r.directive(d);
        } else if !(raw.trim().is_empty() || raw.starts_with('#')) {
            r.fail(&format!("bad sample line '{raw}'"));
        }
    }
    if exited {
        let err = r.stderr.join().unwrap();
        assert!(err.is_empty(), "{name}: stderr not empty");
    } else {
        r.finish();
    }
}

fn samples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-samples");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_protocol_sample_replays_against_the_binary() {
    let all = samples();
    assert!(
        all.len() >= 10,
        "expected the protocol samples, found {}",
        all.len()
    );
    // Two samples at a time: fast, without crowding the shared machine.
    for pair in all.chunks(2) {
        let handles: Vec<_> = pair
            .iter()
            .cloned()
            .map(|p| thread::spawn(move || run_sample(&p)))
            .collect();
        for h in handles {
            if let Err(e) = h.join() {
                std::panic::resume_unwind(e);
            }
        }
    }
}

#[test]
fn sample_runner_rejects_a_wrong_reply() {
    // The checker itself must be able to fail: an ABOUT reply is not OK.
    let dir = std::env::temp_dir().join(format!("sente-sample-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("wrong.txt");
    std::fs::write(&path, "> ABOUT\n< OK\n").unwrap();
    let result = thread::spawn(move || run_sample(&path)).join();
    assert!(result.is_err(), "a wrong expectation must fail");
}
