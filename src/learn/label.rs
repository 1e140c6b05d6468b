//! `pbrain-sente label`: give the positions of a data file ([`super::datagen`]) the
//! values another engine's search finds for them, so that the evaluation can be fitted
//! to a stronger engine's judgement (`train --lambda 0`) instead of to noisy game
//! results alone.
//!
//! The engine is any Piskvork-protocol program that reports its value in a `MESSAGE`
//! line with an `Eval V` or `ev V` token (Rapfi: `MESSAGE Depth 12-16 | Eval -302 | …`;
//! Sente: `MESSAGE depth 12-14 ev 35 …`), `V` from the side to move's view, a mate as
//! `+M7`/`-M7` or a number beyond the range. Each position after the opening (at least
//! one stone) is sent as a `BOARD` with `INFO max_depth D`; the last value reported before
//! the move is the label (clamped to ±[`MATE_LABEL`]). Games are spread over `--threads`
//! engine processes and written in their input order with the game results unchanged;
//! each game starts with `START`. (A run is reproducible only as far as the engine's
//! search is at a fixed depth: Sente's is not quite, because its table grows while it
//! idles, see `Engine::prefault`.)
//!
//! Some engines drop commands that arrive while they finish a search (Rapfi reads its
//! next command before it leaves its thinking state): after each move the labeller sends
//! `ABOUT` until it is answered, and only then the next position.

use super::datagen::{read_files, Game, MAGIC};
use crate::arbiter::engine_proc::{split_command, EngineProcess, ReadError};
use crate::types::{Pos, Rule};
use std::time::{Duration, Instant};

/// The label of a proven position (mate values are clamped to this).
pub const MATE_LABEL: i16 = 20_000;

/// How long one position may take before the engine is taken for hung.
const POSITION_TIMEOUT: Duration = Duration::from_secs(120);

/// The value of a `MESSAGE` line: the token after `Eval` or `ev` (any case).
#[must_use]
pub fn parse_value(line: &str) -> Option<i16> {
    let rest = line.trim().strip_prefix("MESSAGE")?;
    let mut tokens = rest.split(|c: char| c.is_whitespace() || c == '|' || c == ':');
    while let Some(t) = tokens.next() {
        if t.eq_ignore_ascii_case("eval") || t.eq_ignore_ascii_case("ev") {
            let v = tokens.find(|t| !t.is_empty())?;
            let (sign, body): (i64, &str) = match v.as_bytes().first()? {
                b'-' => (-1, &v[1..]),
                b'+' => (1, &v[1..]),
                _ => (1, v),
            };
            if body.starts_with(['M', 'm']) {
                return Some(sign as i16 * MATE_LABEL);
            }
            let n: i64 = body.parse().ok()?;
            return Some((sign * n).clamp(-i64::from(MATE_LABEL), i64::from(MATE_LABEL)) as i16);
        }
    }
    None
}

/// One engine process that is given positions (`BOARD`) and answers with a move: a
/// labeller (the settings bound its depth) or a player ([`super::judge`]).
pub(crate) struct Labeller {
    pub(crate) proc: EngineProcess,
    /// The (rule, size) of the last `START`.
    current: Option<(Rule, usize)>,
    /// `INFO` lines sent after the rule whenever the rule or size changes.
    settings: Vec<String>,
}

impl Labeller {
    /// A labeller: searches to `depth` (and at most `turn_ms` per position).
    pub(crate) fn new(argv: &[String], depth: u32, turn_ms: u64) -> Result<Labeller, String> {
        Labeller::with_settings(
            argv,
            vec![
                format!("INFO timeout_turn {turn_ms}"),
                "INFO timeout_match 0".into(),
                format!("INFO max_depth {depth}"),
            ],
        )
    }

    /// An engine with its own `INFO` lines (sent after `INFO rule`).
    pub(crate) fn with_settings(
        argv: &[String],
        settings: Vec<String>,
    ) -> Result<Labeller, String> {
        let proc = EngineProcess::spawn(argv).map_err(|e| format!("{}: {e}", argv[0]))?;
        Ok(Labeller {
            proc,
            current: None,
            settings,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        self.proc
            .send(line)
            .map_err(|e| format!("engine gone ({e})"))
    }

    fn recv(&mut self, deadline: Instant) -> Result<String, String> {
        self.proc.recv_line(deadline).map_err(|e| match e {
            ReadError::Timeout => "engine timed out".to_string(),
            ReadError::Closed => "engine exited".to_string(),
        })
    }

    /// Answer-or-resend `ABOUT` until the engine answers: it is then reading commands.
    fn sync(&mut self) -> Result<(), String> {
        let end = Instant::now() + POSITION_TIMEOUT;
        loop {
            self.send("ABOUT")?;
            let wait = Instant::now() + Duration::from_millis(50);
            loop {
                match self.proc.recv_line(wait) {
                    Ok(l) if l.trim_start().to_ascii_lowercase().starts_with("name=") => {
                        return Ok(())
                    }
                    Ok(_) => {}
                    Err(ReadError::Timeout) => break,
                    Err(ReadError::Closed) => return Err("engine exited".into()),
                }
            }
            if Instant::now() > end {
                return Err("engine does not answer ABOUT".into());
            }
        }
    }

    /// A new game: `START` (which clears the engine's table, so a game's labels do not
    /// depend on the games labelled before it by the same process), the settings again
    /// when the rule or size changed, then the lines of `extra`.
    pub(crate) fn start(
        &mut self,
        rule: Rule,
        size: usize,
        extra: &[String],
    ) -> Result<(), String> {
        self.send(&format!("START {size}"))?;
        let deadline = Instant::now() + POSITION_TIMEOUT;
        loop {
            let l = self.recv(deadline)?;
            if l.trim() == "OK" {
                break;
            }
            if l.starts_with("ERROR") {
                return Err(format!("START {size}: {l}"));
            }
        }
        let fresh = self.current != Some((rule, size));
        if fresh {
            self.send(&format!("INFO rule {}", rule.to_piskvork()))?;
            for i in 0..self.settings.len() {
                let line = self.settings[i].clone();
                self.send(&line)?;
            }
        }
        for line in extra {
            self.send(line)?;
        }
        if fresh || !extra.is_empty() {
            self.sync()?;
        }
        self.current = Some((rule, size));
        Ok(())
    }

    /// The engine's move in the position after `moves` and the last value it reported
    /// (0 if none), for the side to move.
    pub(crate) fn search(&mut self, moves: &[Pos]) -> Result<(Pos, i16), String> {
        self.send("BOARD")?;
        let n = moves.len();
        for (i, m) in moves.iter().enumerate() {
            // 1: a stone of the side to move, 2: the opponent's.
            let own = if (n - i).is_multiple_of(2) { 1 } else { 2 };
            self.send(&format!("{},{},{own}", m.x(), m.y()))?;
        }
        self.send("DONE")?;
        let deadline = Instant::now() + POSITION_TIMEOUT;
        let mut value = 0;
        let reply = loop {
            let l = self.recv(deadline)?;
            if let Some(v) = parse_value(&l) {
                value = v;
            } else if let Some((x, y)) = crate::arbiter::game::parse_move(&l) {
                break Pos::try_new(x, y).ok_or_else(|| format!("move off the board: {l}"))?;
            } else if l.starts_with("ERROR") {
                return Err(format!("position of {n} stones: {l}"));
            }
        };
        self.sync()?;
        Ok((reply, value))
    }

    /// The engine's value of the position after `moves`, for the side to move.
    pub(crate) fn value(&mut self, moves: &[Pos]) -> Result<i16, String> {
        Ok(self.search(moves)?.1)
    }

    /// `g` with its values replaced by the engine's (from `max(opening, 1)` on).
    fn label(&mut self, g: &Game) -> Result<Game, String> {
        self.start(g.rule, g.width, &[])?;
        let first = g.opening.max(1);
        let mut values = Vec::with_capacity(g.moves.len() - first.min(g.moves.len()));
        for i in first..g.moves.len() {
            values.push(self.value(&g.moves[..i])?);
        }
        Ok(Game {
            opening: first.min(g.moves.len()),
            values,
            has_values: true,
            ..g.clone()
        })
    }
}

/// Label `games` with `threads` processes of `engine` at `depth` (and at most `turn_ms`
/// per position, sent as `timeout_turn`); `progress` gets a line now and then. Games on non-square boards are left out (the protocol's `START`
/// sets a square board).
///
/// # Errors
/// The first failure of an engine (it could not start, exited, refused a position).
pub fn label_games(
    games: &[Game],
    engine: &[String],
    depth: u32,
    turn_ms: u64,
    threads: usize,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Vec<Game>, String> {
    let threads = threads.max(1);
    let todo: Vec<&Game> = games.iter().filter(|g| g.width == g.height).collect();
    let total: usize = todo
        .iter()
        .map(|g| g.moves.len().saturating_sub(g.opening.max(1)))
        .sum();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let started = Instant::now();
    let (todo, done) = (&todo, &done);
    spread(
        threads,
        "labelling",
        |t| -> Result<Vec<(usize, Game)>, String> {
            let mut lab = Labeller::new(engine, depth, turn_ms)?;
            let mut out = Vec::new();
            let mut last = Instant::now();
            for (i, g) in todo.iter().enumerate().skip(t).step_by(threads) {
                let labelled = lab.label(g)?;
                let n = done.fetch_add(labelled.values.len(), std::sync::atomic::Ordering::Relaxed)
                    + labelled.values.len();
                out.push((i, labelled));
                if t == 0 && last.elapsed() > Duration::from_secs(10) {
                    last = Instant::now();
                    let secs = started.elapsed().as_secs_f64();
                    progress(&format!(
                        "label: {n}/{total} positions, {:.0}/s",
                        n as f64 / secs
                    ));
                }
            }
            lab.proc.shutdown();
            Ok(out)
        },
    )
}

/// Run `work(t)` for `t` in `0..threads` on scoped threads (`what` names them in the
/// error of a panic); each returns (index, item) pairs. The items of all, in index order,
/// or the first error.
///
/// # Errors
/// The first error a worker returned (in worker order), or a worker's panic.
pub(crate) fn spread<T: Send>(
    threads: usize,
    what: &str,
    work: impl Fn(usize) -> Result<Vec<(usize, T)>, String> + Sync,
) -> Result<Vec<T>, String> {
    let results: Vec<Result<Vec<(usize, T)>, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let work = &work;
                s.spawn(move || work(t))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(format!("{what} thread panicked")))
            })
            .collect()
    });
    let mut all = Vec::new();
    for r in results {
        all.extend(r?);
    }
    all.sort_by_key(|(i, _)| *i);
    Ok(all.into_iter().map(|(_, x)| x).collect())
}

/// `label --engine CMD --data FILE[,FILE…] --out FILE [--depth D] [--turn-ms MS]
/// [--threads T] [--games N]`. Returns the exit code.
pub fn cli(args: &[String]) -> i32 {
    let (mut engine, mut data, mut out) = (None, None, None);
    let (mut depth, mut threads, mut max_games) = (12u32, 1usize, usize::MAX);
    // Generous by default: the depth is the bound that matters. An engine whose time
    // manager spends part of the turn before its search (Sente's root threat phase)
    // needs a smaller value.
    let mut turn_ms = 1_000_000u64;
    for pair in args.chunks(2) {
        let (k, v) = (pair[0].as_str(), pair.get(1).cloned().unwrap_or_default());
        let ok = match k {
            "--engine" => {
                engine = Some(v);
                true
            }
            "--data" => {
                data = Some(v);
                true
            }
            "--out" => {
                out = Some(v);
                true
            }
            "--depth" => v.parse().map(|n| depth = n).is_ok(),
            "--turn-ms" => v.parse().map(|n| turn_ms = n).is_ok(),
            "--threads" => v.parse().map(|n| threads = n).is_ok(),
            "--games" => v.parse().map(|n| max_games = n).is_ok(),
            _ => false,
        };
        if !ok {
            eprintln!(
                "label: bad argument {k} {}",
                pair.get(1).map_or("", String::as_str)
            );
            return 2;
        }
    }
    let (Some(engine), Some(data), Some(out)) = (engine, data, out) else {
        eprintln!("label: --engine CMD, --data FILE and --out FILE are required");
        return 2;
    };
    let argv = match split_command(&engine) {
        Ok(a) if !a.is_empty() => a,
        _ => {
            eprintln!("label: bad --engine command");
            return 2;
        }
    };
    let mut games = match read_files(&data) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("label: {e}");
            return 1;
        }
    };
    games.truncate(max_games);
    let labelled = match label_games(&games, &argv, depth, turn_ms, threads, &|l| {
        eprintln!("{l}")
    }) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("label: {e}");
            return 1;
        }
    };
    let mut buf = MAGIC.to_vec();
    for g in &labelled {
        g.write(&mut buf);
    }
    if let Err(e) = std::fs::write(&out, &buf) {
        eprintln!("label: {out}: {e}");
        return 1;
    }
    let n: usize = labelled.iter().map(|g| g.values.len()).sum();
    eprintln!("label: {} games, {n} positions to {out}", labelled.len());
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_read_from_rapfi_and_sente_message_lines() {
        assert_eq!(
            parse_value("MESSAGE Depth 12-16 | Eval -302 | Time 21ms | H8"),
            Some(-302)
        );
        assert_eq!(
            parse_value("MESSAGE depth 6-7 ev 46 n 9049 n/ms 210 tm 43 pv 8,7"),
            Some(46)
        );
        assert_eq!(
            parse_value("MESSAGE Depth 10-2 | Eval -M2 | Time 1ms"),
            Some(-MATE_LABEL)
        );
        assert_eq!(parse_value("MESSAGE Eval +M15"), Some(MATE_LABEL));
        assert_eq!(parse_value("MESSAGE ev 99999"), Some(MATE_LABEL));
        assert_eq!(parse_value("MESSAGE Speed 0 | Eval VAL_NONE"), None);
        assert_eq!(parse_value("MESSAGE Load config from config.toml"), None);
        assert_eq!(parse_value("7,7"), None);
    }
}
