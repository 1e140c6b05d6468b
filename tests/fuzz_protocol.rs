//! Property/fuzz tests of the protocol: random and mutated input lines, fed to an
//! in-process `Session` (100,000+ lines: every line gets its reply, replies have valid
//! shapes, bad input never changes the game) and to the real binary (it stays alive and
//! answers exactly as many lines as the in-process session).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sente::protocol::input::{InputError, MAX_LINE};
use sente::protocol::{Flow, Incoming, Session};
use sente::types::{Pos, Rule};

const COMMANDS: &[&str] = &[
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "BOARD",
    "YXBOARD",
    "SWAP2BOARD",
    "INFO",
    "ABOUT",
    "TAKEBACK",
    "PLAY",
    "YXNBEST",
    "STOP",
    "YXSTOP",
    "YXSHOWFORBID",
    "YXHASHCLEAR",
    "YXSHOWINFO",
    "DONE",
];

const INFO_KEYS: &[&str] = &[
    "timeout_turn",
    "timeout_match",
    "time_left",
    "max_memory",
    "game_type",
    "rule",
    "evaluate",
    "folder",
    "thread_num",
    "hash_size",
    "max_depth",
    "max_node",
    "pondering",
    "caution_factor",
    "show_detail",
    "unknown_key",
];

// Generates protocol-like lines: mostly well-formed commands with random (often bad)
// arguments, plus raw garbage and mutations of earlier lines.
struct Gen {
    rng: StdRng,
    last: Vec<Vec<u8>>,
    /// Allow INFO time/depth keys (the binary run keeps searches short by omitting them).
    time_keys: bool,
}

impl Gen {
    fn number(&mut self) -> String {
        match self.rng.gen_range(0..10) {
            0 => "99999999999999999999999".into(),
            1 => format!("-{}", self.rng.gen_range(0..40)),
            2 => "x".into(),
            3 => String::new(),
            _ => self.rng.gen_range(0..34).to_string(),
        }
    }

    fn coord(&mut self) -> String {
        match self.rng.gen_range(0..12) {
            0 => format!("{},{},{}", self.number(), self.number(), self.number()),
            1 => self.number(),
            2 => format!("{} {}", self.number(), self.number()),
            3..=5 => format!("{},{}", self.number(), self.number()),
            _ => format!(
                "{},{}",
                self.rng.gen_range(0..20),
                self.rng.gen_range(0..20)
            ),
        }
    }

    fn command(&mut self) -> String {
        let w = COMMANDS[self.rng.gen_range(0..COMMANDS.len())];
        match w {
            "START" => {
                let n = match self.rng.gen_range(0..6) {
                    0 => self.number(),
                    1 => "15 15".into(),
                    _ => ["15", "20", "7", "5", "32"][self.rng.gen_range(0..5)].into(),
                };
                format!("START {n}")
            }
            "RECTSTART" => format!("RECTSTART {}", self.coord()),
            "TURN" | "TAKEBACK" | "PLAY" => format!("{w} {}", self.coord()),
            "YXNBEST" => format!("YXNBEST {}", self.number()),
            "INFO" => {
                let mut k = INFO_KEYS[self.rng.gen_range(0..INFO_KEYS.len())];
                if !self.time_keys
                    && matches!(
                        k,
                        "timeout_turn" | "timeout_match" | "time_left" | "max_depth"
                    )
                {
                    k = "game_type";
                }
                let v = match k {
                    "rule" => ["0", "1", "2", "3", "4", "5", "8", "9", "x"]
                        [self.rng.gen_range(0..9)]
                    .to_string(),
                    "folder" => "C:\\a folder\\with spaces".into(),
                    "evaluate" => self.coord(),
                    _ => self.number(),
                };
                format!("INFO {k} {v}")
            }
            "DONE" => "DONE".into(),
            _ => w.to_string(),
        }
    }

    fn block_line(&mut self) -> String {
        match self.rng.gen_range(0..10) {
            0 => "DONE".into(),
            1 => self.coord(),
            _ => format!(
                "{},{},{}",
                self.rng.gen_range(0..16),
                self.rng.gen_range(0..16),
                self.rng.gen_range(1..4)
            ),
        }
    }

    fn mutate(&mut self, mut b: Vec<u8>) -> Vec<u8> {
        for _ in 0..self.rng.gen_range(1..4) {
            let n = b.len();
            match self.rng.gen_range(0..6) {
                0 if n > 0 => {
                    let i = self.rng.gen_range(0..n);
                    b[i] = self.rng.gen();
                }
                1 if n > 0 => {
                    b.remove(self.rng.gen_range(0..n));
                }
                2 => {
                    let i = self.rng.gen_range(0..=n);
                    b.insert(i, self.rng.gen());
                }
                3 => b.make_ascii_lowercase(),
                4 => b.push(b'\r'),
                _ => b.splice(0..0, b"  ".iter().copied()).for_each(drop),
            }
        }
        b
    }

    fn line(&mut self) -> Vec<u8> {
        let line = match self.rng.gen_range(0..20) {
            0 => (0..self.rng.gen_range(0..40))
                .map(|_| self.rng.gen::<u8>())
                .collect(),
            1 if !self.last.is_empty() => {
                let i = self.rng.gen_range(0..self.last.len());
                let base = self.last[i].clone();
                self.mutate(base)
            }
            2 => vec![b'9'; MAX_LINE + self.rng.gen_range(1..100)],
            3 => Vec::new(),
            4..=8 => self.block_line().into_bytes(),
            _ => self.command().into_bytes(),
        };
        let line: Vec<u8> = line.into_iter().filter(|&c| c != b'\n').collect();
        if self.last.len() < 64 {
            self.last.push(line.clone());
        } else {
            let i = self.rng.gen_range(0..64);
            self.last[i] = line.clone();
        }
        if first_word(&line) == "END" {
            b"ABOUT".to_vec()
        } else {
            line
        }
    }
}

/// Upper-cased first word, as the engine splits it (ASCII whitespace).
fn first_word(line: &[u8]) -> String {
    let s = String::from_utf8_lossy(line);
    s.trim()
        .split(|c: char| c.is_ascii_whitespace())
        .next()
        .unwrap_or("")
        .to_ascii_uppercase()
}

fn to_incoming(seq: u64, bytes: &[u8]) -> Incoming {
    let mut inc = Incoming::now(seq, "");
    let mut b = bytes;
    if b.last() == Some(&b'\r') {
        b = &b[..b.len() - 1];
    }
    inc.line = if bytes.len() > MAX_LINE {
        Err(InputError::TooLong)
    } else {
        String::from_utf8(b.to_vec()).map_err(|_| InputError::NotUtf8)
    };
    inc
}

/// Is `l` one of the reply shapes the protocol allows?
fn valid_shape(l: &str) -> bool {
    let is_move = |t: &str| {
        t.split_once(',').is_some_and(|(a, b)| {
            !a.is_empty()
                && !b.is_empty()
                && a.bytes().all(|c| c.is_ascii_digit())
                && b.bytes().all(|c| c.is_ascii_digit())
        })
    };
    l == "OK"
        || l == "SWAP"
        || (l.starts_with("ERROR ") && l.len() > 6)
        || (l.starts_with("UNKNOWN ") && l.len() > 8)
        || (l.starts_with("MESSAGE ") && l.len() > 8)
        || l.starts_with("name=\"Sente\", version=")
        || (l.starts_with("FORBID ")
            && l.ends_with('.')
            && l[7..l.len() - 1].len().is_multiple_of(4)
            && l[7..l.len() - 1].bytes().all(|c| c.is_ascii_digit()))
        || (!l.is_empty() && l.split(' ').count() <= 3 && l.split(' ').all(is_move))
}

type Snapshot = (usize, usize, Rule, Vec<Pos>, u64);

fn snapshot(s: &Session<Vec<u8>>) -> Snapshot {
    let b = s.engine().board();
    (
        b.width(),
        b.height(),
        b.rule(),
        b.history().to_vec(),
        b.key(),
    )
}

/// Replies the protocol owes for `line` given whether a block is open before it:
/// (min, max) non-MESSAGE lines.
fn expected_replies(line: &[u8], in_block: bool) -> (usize, usize) {
    let text = String::from_utf8_lossy(line);
    let t = text.trim();
    let valid = line.len() <= MAX_LINE && std::str::from_utf8(line).is_ok();
    if !valid {
        return if in_block { (0, 0) } else { (1, 1) };
    }
    if t.is_empty() {
        return (0, 0);
    }
    let w = first_word(line);
    let silent = matches!(w.as_str(), "INFO" | "STOP" | "YXSTOP");
    let messages_only = matches!(w.as_str(), "YXHASHCLEAR" | "YXSHOWINFO");
    let opener = matches!(w.as_str(), "BOARD" | "YXBOARD" | "SWAP2BOARD");
    let known = COMMANDS.contains(&w.as_str()) && w != "DONE";
    if in_block {
        if t.eq_ignore_ascii_case("DONE") {
            return (0, 1); // YXBOARD success is silent
        }
        if !known || silent {
            return (0, 0);
        }
        // Abandoned block: one ERROR, then the command itself.
        return if opener || messages_only {
            (1, 1)
        } else {
            (2, 2)
        };
    }
    if silent || opener || messages_only {
        (0, 0)
    } else {
        (1, 1)
    }
}

fn drain(s: &mut Session<Vec<u8>>) -> Vec<String> {
    let out = std::mem::take(s.output_mut());
    String::from_utf8(out)
        .expect("replies are UTF-8")
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn random_lines_always_get_their_reply_and_bad_lines_change_nothing() {
    let mut gen = Gen {
        rng: StdRng::seed_from_u64(0x5e17e),
        last: Vec::new(),
        time_keys: true,
    };
    let mut s = Session::new(Vec::new());
    s.engine_mut().set_search_enabled(false);
    let (mut errors, mut moves, mut unchanged_checked) = (0usize, 0usize, 0usize);
    for seq in 1..=120_000u64 {
        let line = gen.line();
        let before = snapshot(&s);
        let in_block = s.in_block();
        let flow = s.handle(to_incoming(seq, &line));
        assert_eq!(
            flow,
            Flow::Continue,
            "line {seq} {:?} made the session exit",
            String::from_utf8_lossy(&line)
        );
        let out = drain(&mut s);
        for l in &out {
            assert!(
                valid_shape(l),
                "line {seq} {:?}: bad reply shape {l:?}",
                String::from_utf8_lossy(&line)
            );
        }
        let replies: Vec<&String> = out.iter().filter(|l| !l.starts_with("MESSAGE ")).collect();
        let (lo, hi) = expected_replies(&line, in_block);
        assert!(
            (lo..=hi).contains(&replies.len()),
            "line {seq} {:?} (block open: {in_block}): expected {lo}..={hi} replies, got {out:?}",
            String::from_utf8_lossy(&line)
        );
        let all_bad = !replies.is_empty()
            && replies
                .iter()
                .all(|l| l.starts_with("ERROR") || l.starts_with("UNKNOWN"));
        if all_bad && !in_block {
            assert_eq!(
                snapshot(&s),
                before,
                "line {seq} {:?} got {out:?} but changed the game",
                String::from_utf8_lossy(&line)
            );
            unchanged_checked += 1;
        }
        errors += usize::from(all_bad);
        if let Some(m) = replies
            .iter()
            .find(|l| l.contains(',') && !l.contains(' ') && !l.starts_with('E'))
        {
            let b = s.engine().board();
            assert_eq!(
                b.last_move().map(|p| p.to_string()).as_deref(),
                Some(m.as_str()),
                "line {seq}: reply is not the move played"
            );
            moves += 1;
        }
        if seq % 5000 == 0 {
            s.engine().board().assert_consistent();
        }
    }
    // The generator must actually exercise both paths.
    assert!(
        errors > 10_000 && moves > 1_000 && unchanged_checked > 10_000,
        "errors {errors} moves {moves}"
    );
}

#[test]
fn the_binary_survives_random_input_and_answers_every_line() {
    let mut gen = Gen {
        rng: StdRng::seed_from_u64(42),
        last: Vec::new(),
        time_keys: false,
    };
    let mut input: Vec<Vec<u8>> = vec![
        b"INFO timeout_turn 0".to_vec(),
        b"INFO max_depth 1".to_vec(),
    ];
    for _ in 0..2_000 {
        input.push(gen.line());
    }
    input.push(b"DONE".to_vec()); // close a block left open
    input.push(b"ABOUT".to_vec());

    // Reference count from the in-process session.
    let mut s = Session::new(Vec::new());
    s.engine_mut().set_search_enabled(false);
    let mut expected = 0;
    for (i, l) in input.iter().enumerate() {
        s.handle(to_incoming(i as u64 + 1, l));
        expected += drain(&mut s)
            .iter()
            .filter(|l| !l.starts_with("MESSAGE "))
            .count();
    }

    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-sente"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("RUST_LOG")
        .env_remove("SENTE_LOG")
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        for l in &input {
            let mut b = l.clone();
            b.push(b'\n');
            if stdin.write_all(&b).is_err() {
                return;
            }
        }
    });
    let mut replies = Vec::new();
    for l in BufReader::new(child.stdout.take().unwrap()).split(b'\n') {
        let l = String::from_utf8(l.unwrap()).expect("UTF-8 output");
        assert!(valid_shape(&l), "bad reply shape {l:?}");
        if !l.starts_with("MESSAGE ") {
            replies.push(l);
        }
    }
    writer.join().unwrap();
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "exit status {status}");
    assert!(err.is_empty(), "stderr: {err}");
    assert!(
        replies
            .last()
            .is_some_and(|l| l.starts_with("name=\"Sente\"")),
        "last reply {:?}",
        replies.last()
    );
    assert_eq!(
        replies.len(),
        expected,
        "every line must get exactly its reply"
    );
}
