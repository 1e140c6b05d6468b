//! The Piskvork/Gomocup protocol front end: the only code that touches stdin/stdout.
//!
//! `parse` turns lines into typed commands, `reply` formats answers, `input` reads capped
//! byte lines, `log` is the optional `SENTE_LOG` transcript. [`Session`] holds the protocol
//! state and dispatches one line at a time to the [`Engine`]; [`run`] wires it to a stdin
//! reader thread.
//!
//! Threads: a reader thread reads stdin. It exits the process at once on `END`, sets the
//! engine's stop flag on `STOP`/`YXSTOP`, and queues every other line (stamped with its
//! receipt time and a sequence number) for the main thread, which runs the session and
//! the search. Lines that arrive during a search wait in the queue and are handled after
//! the reply. A STOP applies to the last search command received before it, even if that
//! search has not started yet (sequence numbers decide).

// The protocol answers bad input with ERROR and never dies on it; the engine facade
// likewise: no unwrap, expect or panic outside their tests (submodules included).
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod input;
pub mod log;
pub mod parse;
pub mod reply;

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

use crate::board::MoveOutcome;
use crate::engine::swap2::{swap2_opening, swap2_take_black};
use crate::engine::Engine;
use crate::time::{SearchLimits, TimeSettings};
use crate::types::{Pos, Rule, MAX_SIZE};

use self::input::InputError;
use self::parse::{
    parse_block_line, parse_line, BlockKind, BlockLine, Command, Coord, Info, ParseError,
};

// State shared between the reader thread and the session, so a STOP can reach a search
// that runs on the main thread.
/// Cross-thread controls of a session.
#[derive(Debug)]
pub struct Control {
    /// The engine's stop flag (the search polls it).
    pub stop: Arc<AtomicBool>,
    /// Sequence number of the last STOP/YXSTOP line received.
    stop_seq: AtomicU64,
    /// Set when stdin has ended: searches that start afterwards stop at once.
    eof: AtomicBool,
}

impl Default for Control {
    fn default() -> Self {
        Control::new()
    }
}

impl Control {
    /// Fresh controls: no stop requested, input open.
    #[must_use]
    pub fn new() -> Control {
        Control {
            stop: Arc::new(AtomicBool::new(false)),
            stop_seq: AtomicU64::new(0),
            eof: AtomicBool::new(false),
        }
    }

    /// Record a STOP received as line `seq` and stop the running search, if any.
    pub fn request_stop(&self, seq: u64) {
        self.stop_seq.fetch_max(seq, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Record the end of input.
    pub fn set_eof(&self) {
        self.eof.store(true, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }
}

// One line as the reader thread hands it over: when it came and in which order.
/// A received input line.
#[derive(Clone, Debug)]
pub struct Incoming {
    /// Position in the input stream (1, 2, …).
    pub seq: u64,
    /// When the line was read: the search clock starts here.
    pub received: Instant,
    /// The text, or why it was unreadable.
    pub line: Result<String, InputError>,
}

impl Incoming {
    /// A line received now (for driving a session directly).
    #[must_use]
    pub fn now(seq: u64, text: &str) -> Incoming {
        Incoming {
            seq,
            received: Instant::now(),
            line: Ok(text.to_string()),
        }
    }
}

/// What the caller should do after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `END` was received or the output is gone: exit.
    Exit,
}

// A BOARD/YXBOARD/SWAP2BOARD block being read, kept until DONE so that the whole block
// gets one reply and a bad block changes nothing.
struct PendingBlock {
    kind: BlockKind,
    stones: Vec<(Coord, u8)>,
    error: Option<String>,
    received: Instant,
}

/// Most stone lines kept in one block (more cannot fit on the largest board).
const MAX_BLOCK_STONES: usize = MAX_SIZE * MAX_SIZE;

// The protocol state machine: one per process (or per test). Generic over the output so
// tests can drive it in-process.
/// A protocol session writing replies to `W`.
pub struct Session<W: Write> {
    engine: Engine,
    out: W,
    broken: bool,
    exit: bool,
    control: Arc<Control>,
    clock: TimeSettings,
    show_detail: bool,
    max_depth: Option<i32>,
    max_nodes: Option<u64>,
    rule: Rule,
    started: bool,
    block: Option<PendingBlock>,
    /// Log input lines here (off when the reader thread logs them at receipt).
    log_input: bool,
}

fn game_over_text(o: MoveOutcome) -> &'static str {
    match o {
        MoveOutcome::Continue => "game continues",
        MoveOutcome::Win => "a five: game over",
        MoveOutcome::Foul => "a renju foul: game over",
        MoveOutcome::Draw => "board full: game over",
    }
}

impl<W: Write> Session<W> {
    /// A session with a fresh engine, before `START`.
    pub fn new(out: W) -> Session<W> {
        Session::with_control(out, Arc::new(Control::new()))
    }

    /// A session whose engine uses `control.stop` as its stop flag.
    pub fn with_control(out: W, control: Arc<Control>) -> Session<W> {
        let engine = Engine::with_stop_flag(Arc::clone(&control.stop));
        Session {
            engine,
            out,
            broken: false,
            exit: false,
            control,
            clock: TimeSettings::default(),
            show_detail: true,
            max_depth: None,
            max_nodes: None,
            rule: Rule::Freestyle,
            started: false,
            block: None,
            log_input: true,
        }
    }

    /// The controls to hand to the reader thread.
    #[must_use]
    pub fn control(&self) -> Arc<Control> {
        Arc::clone(&self.control)
    }

    /// The engine (read-only: for tests and tools).
    #[must_use]
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The engine, mutably (tools and tests, e.g. to disable the search).
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// The output (tests read replies from a `Vec<u8>` here).
    pub fn output_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// The clock settings received so far.
    #[must_use]
    pub fn clock(&self) -> TimeSettings {
        self.clock
    }

    /// True while a BOARD/YXBOARD/SWAP2BOARD block is open.
    #[must_use]
    pub fn in_block(&self) -> bool {
        self.block.is_some()
    }

    fn emit(&mut self, line: &str) {
        emit_to(&mut self.out, &mut self.broken, line);
    }

    fn error(&mut self, reason: &str) {
        self.emit(&reply::error(reason));
    }

    /// Handle one input line; write its replies (flushed).
    pub fn handle(&mut self, inc: Incoming) -> Flow {
        let text = match &inc.line {
            Ok(t) => t.trim().to_string(),
            Err(e) => {
                if self.log_input {
                    log::record('>', &format!("<{}>", e.reason()));
                }
                if let Some(b) = &mut self.block {
                    b.error.get_or_insert_with(|| e.reason().to_string());
                } else {
                    self.error(e.reason());
                }
                return self.flow();
            }
        };
        if self.log_input {
            log::record('>', &text);
        }
        if text.is_empty() {
            return self.flow();
        }
        if self.block.is_some() && !self.block_line(&text, &inc) {
            return self.flow();
        }
        match parse_line(&text) {
            Ok(Command::End) => return Flow::Exit,
            Ok(cmd) => self.execute(cmd, &inc),
            Err(e) => {
                let s = e.to_string();
                self.emit(&s);
            }
        }
        self.flow()
    }

    fn flow(&self) -> Flow {
        if self.broken || self.exit {
            Flow::Exit
        } else {
            Flow::Continue
        }
    }

    /// Feed a line to the open block. Returns true when the line is not part of the block
    /// and must be handled as a command (the block was abandoned with an ERROR).
    fn block_line(&mut self, text: &str, inc: &Incoming) -> bool {
        let Some(block) = &mut self.block else {
            return true;
        };
        match parse_block_line(text, block.kind) {
            Ok(BlockLine::Done) => {
                if let Some(b) = self.block.take() {
                    self.finish_block(b, inc.seq);
                }
                false
            }
            Ok(BlockLine::Stone(c, f)) => {
                if block.stones.len() >= MAX_BLOCK_STONES {
                    block
                        .error
                        .get_or_insert_with(|| "too many stones".to_string());
                } else {
                    block.stones.push((c, f));
                }
                false
            }
            Err(e) => {
                if parse::is_command_word(text) {
                    let (word, rest) = parse::split_command(text);
                    match word.as_str() {
                        // Side-band lines do not break a block.
                        "INFO" => {
                            self.apply_info(parse::parse_info(rest));
                            false
                        }
                        "STOP" | "YXSTOP" => false,
                        "END" => {
                            self.exit = true;
                            false
                        }
                        _ => {
                            let kind = block.kind;
                            self.block = None;
                            self.error(&format!("{} not closed by DONE", kind.name()));
                            true
                        }
                    }
                } else {
                    let reason = match e {
                        ParseError::Invalid(t) | ParseError::Unknown(t) => t,
                    };
                    block.error.get_or_insert(reason);
                    false
                }
            }
        }
    }

    fn require_started(&mut self) -> bool {
        if !self.started {
            self.error("no game: send START first");
        }
        self.started
    }

    fn on_board(&mut self, c: Coord) -> Option<Pos> {
        let p = self.engine.board().pos(c.x, c.y);
        if p.is_none() {
            let b = self.engine.board();
            let msg = format!("{c} is off the {}x{} board", b.width(), b.height());
            self.error(&msg);
        }
        p
    }

    fn execute(&mut self, cmd: Command, inc: &Incoming) {
        match cmd {
            Command::Start { width, height } => {
                self.block = None;
                match self.engine.new_game(width, height, self.rule) {
                    Ok(()) => {
                        self.started = true;
                        self.emit("OK");
                    }
                    Err(e) => self.error(&format!("cannot start a {width}x{height} board: {e}")),
                }
            }
            Command::Restart => {
                if self.require_started() {
                    let (w, h) = (self.engine.board().width(), self.engine.board().height());
                    match self.engine.new_game(w, h, self.rule) {
                        Ok(()) => self.emit("OK"),
                        Err(e) => self.error(&format!("cannot restart: {e}")),
                    }
                }
            }
            Command::Begin => {
                if self.require_started() {
                    if self.engine.board().move_count() == 0 {
                        self.think(inc.seq, inc.received, 1);
                    } else {
                        self.error("BEGIN needs an empty board");
                    }
                }
            }
            Command::Turn(c) => {
                if !self.require_started() {
                    return;
                }
                let Some(p) = self.on_board(c) else { return };
                match self.engine.play(p) {
                    Ok(MoveOutcome::Continue) => self.think(inc.seq, inc.received, 1),
                    Ok(o) => {
                        self.engine.undo();
                        self.error(&format!("{c} ends the game ({})", game_over_text(o)));
                    }
                    Err(e) => self.error(&format!("cannot play {c}: {e}")),
                }
            }
            Command::Block(kind) => {
                self.block = Some(PendingBlock {
                    kind,
                    stones: Vec::new(),
                    error: None,
                    received: inc.received,
                });
            }
            Command::Info(info) => self.apply_info(info),
            Command::End => {}
            Command::About => self.emit(&reply::about()),
            Command::Takeback(c) => {
                if !self.require_started() {
                    return;
                }
                let Some(p) = self.on_board(c) else { return };
                if self.engine.board().last_move() == Some(p) {
                    self.engine.undo();
                    self.emit("OK");
                } else {
                    self.error(&format!("{c} is not the last move"));
                }
            }
            Command::Play(c) => {
                if !self.require_started() {
                    return;
                }
                let Some(p) = self.on_board(c) else { return };
                match self.engine.play(p) {
                    Ok(_) => self.emit(&reply::mv(p)),
                    Err(e) => self.error(&format!("cannot play {c}: {e}")),
                }
            }
            Command::YxNbest(n) => {
                if self.require_started() {
                    self.think(inc.seq, inc.received, n);
                }
            }
            Command::Stop => {}
            Command::YxShowForbid => {
                if self.require_started() {
                    let pts = self.engine.forbidden_points();
                    self.emit(&reply::forbid(&pts));
                }
            }
            Command::YxHashClear => {
                self.engine.clear_hash();
                self.emit(&reply::message("hash cleared"));
            }
            Command::YxShowInfo => {
                self.emit(&reply::message(&format!(
                    "INFO MAX_THREAD_NUM {}",
                    crate::engine::max_threads()
                )));
                self.emit(&reply::message("INFO MAX_HASH_SIZE 30"));
            }
        }
    }

    fn apply_info(&mut self, info: Info) {
        match info {
            Info::TimeoutTurn(v) => self.clock.turn_ms = Some(v),
            Info::TimeoutMatch(v) => self.clock.match_ms = v,
            Info::TimeLeft(v) => self.clock.left_ms = Some(v),
            Info::MaxMemory(v) => self.engine.set_memory_limit(u64::try_from(v).unwrap_or(0)),
            Info::Rule(v) => {
                let (rule, continuous) = Rule::from_piskvork(v);
                self.rule = rule;
                self.engine.set_rule(rule);
                self.engine.set_continuous(continuous);
            }
            Info::ThreadNum(v) => self
                .engine
                .set_threads(usize::try_from(v.clamp(1, 256)).unwrap_or(1)),
            Info::HashSize(v) => self.engine.set_hash_kib(u64::try_from(v).unwrap_or(0)),
            Info::MaxDepth(v) => {
                self.max_depth = (v > 0).then(|| i32::try_from(v).unwrap_or(i32::MAX))
            }
            Info::MaxNode(v) => self.max_nodes = u64::try_from(v).ok().filter(|&n| n > 0),
            Info::ShowDetail(v) => self.show_detail = v != 0,
            Info::GameType(_)
            | Info::Evaluate
            | Info::Folder(_)
            | Info::Pondering(_)
            | Info::CautionFactor(_) => {}
            Info::Unknown(k, v) => {
                let spec = format!("{}={v}", k.to_ascii_lowercase());
                match self.engine.set_search_param(&spec) {
                    Ok(()) => log::record('#', &format!("search parameter {spec}")),
                    Err(e) => log::record('#', &format!("ignored INFO key {k}: {e}")),
                }
            }
            Info::Invalid(r) => log::record('#', &format!("ignored INFO: {r}")),
        }
    }

    fn finish_block(&mut self, block: PendingBlock, seq: u64) {
        if !self.started {
            self.error("no game: send START first");
            return;
        }
        if let Some(e) = block.error {
            self.error(&format!("{}: {e}", block.kind.name()));
            return;
        }
        let mut stones: Vec<(Pos, u8)> = Vec::with_capacity(block.stones.len());
        for &(c, f) in &block.stones {
            let Some(p) = self.engine.board().pos(c.x, c.y) else {
                self.error(&format!("{}: {c} is off the board", block.kind.name()));
                return;
            };
            if stones.iter().any(|&(q, _)| q == p) {
                self.error(&format!("{}: {c} is listed twice", block.kind.name()));
                return;
            }
            stones.push((p, f));
        }
        match block.kind {
            BlockKind::Board | BlockKind::YxBoard => {
                let pick = |f: u8| {
                    stones
                        .iter()
                        .filter(|s| s.1 == f)
                        .map(|s| s.0)
                        .collect::<Vec<_>>()
                };
                let (own, opp, blocked) = (pick(1), pick(2), pick(3));
                let (black, white) = if own.len() == opp.len() {
                    (own, opp)
                } else if opp.len() == own.len() + 1 {
                    (opp, own)
                } else {
                    self.error(&format!("{}: impossible stone counts", block.kind.name()));
                    return;
                };
                if let Err(e) = self.engine.set_position(&black, &white, &blocked) {
                    self.error(&format!("{}: {e}", block.kind.name()));
                    return;
                }
                if block.kind == BlockKind::Board {
                    self.think(seq, block.received, 1);
                }
            }
            BlockKind::Swap2Board => self.swap2(&stones, seq, block.received),
        }
    }

    fn swap2(&mut self, stones: &[(Pos, u8)], seq: u64, received: Instant) {
        let n = stones.len();
        if n == 0 {
            let b = self.engine.board();
            match swap2_opening(b.width(), b.height(), b.rule()) {
                Some(s) => self.emit(&reply::moves(&s)),
                None => self.error("SWAP2BOARD: board too small for an opening"),
            }
            return;
        }
        if n != 3 && n != 5 {
            self.error(&format!("SWAP2BOARD expects 0, 3 or 5 stones, got {n}"));
            return;
        }
        let black: Vec<Pos> = stones.iter().step_by(2).map(|s| s.0).collect();
        let white: Vec<Pos> = stones.iter().skip(1).step_by(2).map(|s| s.0).collect();
        if let Err(e) = self.engine.set_position(&black, &white, &[]) {
            self.error(&format!("SWAP2BOARD: {e}"));
            return;
        }
        if swap2_take_black(self.engine.board()) {
            self.emit("SWAP");
        } else {
            self.think(seq, received, 1);
        }
    }

    /// Search the current position, play the chosen move and reply it.
    fn think(&mut self, seq: u64, received: Instant, multi_pv: usize) {
        if let Some(o) = self.engine.board().outcome() {
            self.error(game_over_text(o));
            return;
        }
        let own_moves = self.engine.board().move_count() / 2;
        let mut limits = SearchLimits::from_settings(&self.clock, own_moves, received);
        limits.max_depth = self.max_depth;
        limits.max_nodes = self.max_nodes;
        limits.multi_pv = multi_pv.max(1);

        // Clear the stop flag, then re-apply a STOP that arrived after this command.
        let c = &self.control;
        c.stop.store(false, Ordering::SeqCst);
        if c.stop_seq.load(Ordering::SeqCst) > seq || c.eof.load(Ordering::SeqCst) {
            c.stop.store(true, Ordering::SeqCst);
        }

        let show = self.show_detail;
        let out = &mut self.out;
        let broken = &mut self.broken;
        let mut mv = self.engine.go(&limits, &mut |info| {
            if show {
                emit_to(out, broken, &reply::search_info(info));
            }
        });
        log::record(
            '#',
            &format!(
                "search returned {mv} after {} ms (hard limit {} ms)",
                limits.elapsed().as_millis(),
                limits.maximum.as_millis()
            ),
        );
        self.clock.charge(limits.elapsed());
        let mut played = mv.is_some() && self.engine.play(mv).is_ok();
        if !played {
            // Safety net: the search returned nothing usable.
            mv = self.engine.fallback_move();
            played = mv.is_some() && self.engine.play(mv).is_ok();
        }
        if played {
            self.emit(&reply::mv(mv));
        } else {
            self.error("no legal move");
        }
    }
}

/// Write one line and flush; remember a broken pipe (the manager is gone).
fn emit_to<W: Write>(out: &mut W, broken: &mut bool, line: &str) {
    log::record('<', line);
    if *broken {
        return;
    }
    if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
        *broken = true;
    }
}

/// The reader thread: read lines, act on END/STOP at once, queue the rest.
fn reader<R: io::BufRead>(mut input: R, tx: &mpsc::Sender<Incoming>, control: &Control) {
    let mut seq: u64 = 0;
    loop {
        let line = match input::read_line(&mut input, input::MAX_LINE) {
            Ok(Some(l)) => l,
            Ok(None) | Err(_) => {
                log::record('#', "end of input");
                control.set_eof();
                return;
            }
        };
        seq += 1;
        let received = Instant::now();
        match &line {
            Ok(text) => log::record('>', text.trim()),
            Err(e) => log::record('>', &format!("<{}>", e.reason())),
        }
        if let Ok(text) = &line {
            let (word, _) = parse::split_command(text);
            match word.as_str() {
                "END" => std::process::exit(0),
                "STOP" | "YXSTOP" => {
                    control.request_stop(seq);
                    continue;
                }
                "INFO" => prebuild_rule_tables(text),
                _ => {}
            }
        }
        if tx
            .send(Incoming {
                seq,
                received,
                line,
            })
            .is_err()
        {
            return;
        }
    }
}

/// On `INFO rule`, start building that rule's pattern tables on a helper thread at once
/// (50–120 ms of work): when a manager writes START, the INFO lines and the first move in
/// one burst (the Gomocup judge), the main thread is still starting up, and on a second
/// core the tables are ready by the time it applies the rule. The tables are built once
/// per process; a second `get` waits for the first.
fn prebuild_rule_tables(line: &str) {
    let (_, rest) = parse::split_command(line);
    if let Info::Rule(v) = parse::parse_info(rest) {
        let (rule, _) = Rule::from_piskvork(v);
        let _ = std::thread::Builder::new()
            .name("rule-tables".into())
            .spawn(move || {
                let _ = crate::pattern::RuleTables::get(rule);
            });
    }
}

/// Run the protocol on stdin/stdout until END or end of input; returns the exit code.
pub fn run() -> i32 {
    if std::env::var_os("RUST_LOG").is_some() {
        let _ = env_logger::try_init();
    }
    // The reader starts first: it stamps lines with their receipt time while the engine
    // is still building its tables, so the move clock includes the set-up.
    let control = Arc::new(Control::new());
    let (tx, rx) = mpsc::channel::<Incoming>();
    let reader_control = Arc::clone(&control);
    let spawned = std::thread::Builder::new()
        .name("stdin-reader".into())
        .spawn(move || reader(io::stdin().lock(), &tx, &reader_control));
    if spawned.is_err() {
        return 1;
    }
    let mut session = Session::with_control(io::stdout().lock(), control);
    session.log_input = false; // the reader logs lines when they arrive
    loop {
        // While no line is waiting, fault in the search tables a step at a time, so the
        // first searches do not pay for it; a waiting line is handled first.
        let inc = match rx.try_recv() {
            Ok(inc) => inc,
            Err(mpsc::TryRecvError::Disconnected) => break,
            Err(mpsc::TryRecvError::Empty) => {
                if session.engine.prefault(PREFAULT_STEP) {
                    continue;
                }
                match rx.recv() {
                    Ok(inc) => inc,
                    Err(_) => break,
                }
            }
        };
        if session.handle(inc) == Flow::Exit {
            break;
        }
    }
    0
}

/// Bytes of search tables faulted in per idle step (~2 ms here): the delay an incoming
/// line can see before it is handled (its clock already runs from receipt).
pub const PREFAULT_STEP: usize = 1 << 20;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn session() -> Session<Vec<u8>> {
        let mut s = Session::new(Vec::new());
        s.handle(Incoming::now(1, "START 15"));
        s.output_mut().clear();
        s
    }

    fn replies(s: &mut Session<Vec<u8>>) -> Vec<String> {
        let out = std::mem::take(s.output_mut());
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn stop_received_before_the_search_started_still_stops_it() {
        let mut s = session();
        let c = s.control();
        c.request_stop(5); // STOP was line 5, BEGIN line 4: it is meant for this search
        s.handle(Incoming::now(4, "BEGIN"));
        assert!(c.stop.load(Ordering::SeqCst));
    }

    #[test]
    fn stale_stop_does_not_cut_the_next_search() {
        let mut s = session();
        let c = s.control();
        c.request_stop(2); // an idle STOP before the BEGIN of line 3
        s.handle(Incoming::now(3, "BEGIN"));
        assert!(!c.stop.load(Ordering::SeqCst));
    }

    #[test]
    fn end_of_input_makes_queued_searches_stop_at_once() {
        let mut s = session();
        let c = s.control();
        c.set_eof();
        s.handle(Incoming::now(3, "BEGIN"));
        assert!(c.stop.load(Ordering::SeqCst));
        assert_eq!(replies(&mut s).last().map(String::as_str), Some("7,7"));
    }

    #[test]
    fn show_detail_zero_silences_message_lines() {
        let mut s = session();
        s.handle(Incoming::now(2, "BEGIN"));
        assert!(replies(&mut s)
            .iter()
            .any(|l| l.starts_with("MESSAGE depth")));
        s.handle(Incoming::now(3, "INFO show_detail 0"));
        s.handle(Incoming::now(4, "INFO timeout_turn 300"));
        s.handle(Incoming::now(5, "TURN 0,0"));
        let r = replies(&mut s);
        assert_eq!(r.len(), 1, "{r:?}");
    }

    #[test]
    fn end_inside_a_block_exits() {
        let mut s = session();
        s.handle(Incoming::now(2, "BOARD"));
        assert_eq!(s.handle(Incoming::now(3, "end")), Flow::Exit);
    }

    #[test]
    fn board_colour_follows_the_stone_counts() {
        let mut s = session();
        for (i, l) in ["BOARD", "7,7,2", "DONE"].iter().enumerate() {
            s.handle(Incoming::now(10 + i as u64, l));
        }
        // one opponent stone: the opponent is black, Sente plays white
        assert_eq!(s.engine().board().move_count(), 2);
        assert_eq!(s.engine().board().history()[0], Pos::new(7, 7));
        for (i, l) in ["BOARD", "7,7,1", "8,8,2", "DONE"].iter().enumerate() {
            s.handle(Incoming::now(20 + i as u64, l));
        }
        // equal counts: Sente is black, its stone first
        assert_eq!(
            s.engine().board().history()[..2],
            [Pos::new(7, 7), Pos::new(8, 8)]
        );
        assert_eq!(s.engine().board().move_count(), 3);
    }

    fn depths(r: &[String]) -> Vec<i32> {
        r.iter()
            .filter_map(|l| l.strip_prefix("MESSAGE depth "))
            .filter_map(|l| l.split('-').next()?.parse().ok())
            .collect()
    }

    #[test]
    fn info_max_depth_and_max_node_bound_the_search() {
        let mut s = session();
        s.handle(Incoming::now(2, "INFO timeout_turn 60000"));
        s.handle(Incoming::now(3, "INFO max_depth 3"));
        for (i, l) in ["BOARD", "7,7,1", "8,8,2", "2,2,1", "12,12,2", "DONE"]
            .iter()
            .enumerate()
        {
            s.handle(Incoming::now(4 + i as u64, l));
        }
        let r = replies(&mut s);
        assert_eq!(depths(&r).last(), Some(&3), "{r:?}");
        s.handle(Incoming::now(20, "INFO max_depth 0"));
        s.handle(Incoming::now(21, "INFO max_node 3000"));
        s.handle(Incoming::now(22, "TURN 0,0"));
        let r = replies(&mut s);
        let nodes: Vec<u64> = r
            .iter()
            .filter_map(|l| l.split(" n ").nth(1)?.split(' ').next()?.parse().ok())
            .collect();
        assert!(nodes.iter().all(|&n| n <= 3000), "{r:?}");
        assert!(r.last().is_some_and(|l| !l.starts_with("MESSAGE")), "{r:?}");
    }

    #[test]
    fn info_with_a_search_parameter_key_sets_that_parameter() {
        let mut s = session();
        let default_top_n = s.engine().search_params().top_n;
        s.handle(Incoming::now(2, "INFO TOP_N 3"));
        assert_eq!(s.engine().search_params().top_n, 3);
        assert_ne!(default_top_n, 3);
        s.handle(Incoming::now(3, "info threats off"));
        assert!(!s.engine().search_params().threats);
        // Unknown keys and bad values change nothing and get no reply.
        let before = s.engine().search_params().clone();
        s.handle(Incoming::now(4, "INFO top_n many"));
        s.handle(Incoming::now(5, "INFO usedatabase 1"));
        assert_eq!(s.engine().search_params(), &before);
        assert!(replies(&mut s).is_empty());
        // The setting survives a new table size.
        s.handle(Incoming::now(6, "INFO max_memory 50000000"));
        s.handle(Incoming::now(7, "START 15"));
        assert_eq!(s.engine().search_params().top_n, 3);
    }

    #[test]
    fn info_with_the_tuning_prefix_sets_a_search_parameter_and_never_a_protocol_key() {
        let mut s = session();
        s.handle(Incoming::now(2, "INFO sente.top_n 5"));
        s.handle(Incoming::now(3, "INFO SENTE.LMR off"));
        assert_eq!(s.engine().search_params().top_n, 5);
        assert!(!s.engine().search_params().lmr);
        // A protocol key under the prefix is no parameter: ignored, no reply.
        let threads = s.engine().threads();
        s.handle(Incoming::now(4, "INFO sente.thread_num 2"));
        assert_eq!(s.engine().threads(), threads);
        assert!(replies(&mut s).is_empty());
    }

    #[test]
    fn start_allocates_the_search_tables_before_the_first_move() {
        let mut s = Session::new(Vec::new());
        s.handle(Incoming::now(1, "INFO max_memory 367001600"));
        assert_eq!(s.engine().allocated_tt_bytes(), 0);
        s.handle(Incoming::now(2, "START 15"));
        let bytes = s.engine().allocated_tt_bytes();
        assert_eq!(
            bytes,
            crate::engine::tt_bytes_for(367_001_600, None, 1) / 64 * 64
        );
        s.handle(Incoming::now(3, "INFO max_memory 50000000"));
        assert!(s.engine().allocated_tt_bytes() < bytes);
    }

    #[test]
    fn time_left_is_charged_when_the_manager_does_not_resend_it() {
        let mut s = session();
        s.handle(Incoming::now(2, "INFO timeout_match 10000"));
        s.handle(Incoming::now(3, "INFO time_left 10000"));
        let mut inc = Incoming::now(4, "BEGIN");
        inc.received -= std::time::Duration::from_millis(300);
        s.handle(inc);
        let left = s.clock().left_ms.unwrap();
        assert!(left <= 9700, "{left}");
    }
}
