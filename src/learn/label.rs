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
use crate::board::Board;
use crate::movegen::{generate, BBox, MoveList, OrderInfo, Stage};
use crate::search::params::SearchParams;
use crate::types::{Pos, Rule, NUM_CELLS};
use std::time::{Duration, Instant};

/// The label of a proven position (mate values are clamped to this).
pub const MATE_LABEL: i16 = 20_000;

/// How long one position may take before the engine is taken for hung.
const POSITION_TIMEOUT: Duration = Duration::from_secs(120);
/// Default `timeout_turn` of a position (ms): well below [`POSITION_TIMEOUT`].
const DEFAULT_TURN_MS: u64 = 60_000;

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

    /// The labelled games of `g` for `targets`: `g` itself with the engine's values, or
    /// one game per labelled child position.
    fn label_targets(&mut self, g: &Game, targets: Targets) -> Result<Vec<Game>, String> {
        match targets {
            Targets::Positions => Ok(vec![self.label(g)?]),
            Targets::Children { moves, plies } => self.label_children(g, moves, plies),
        }
    }

    /// The children of `g`'s positions `plies.0..=plies.1` plies after its opening (see
    /// [`Targets::Children`]), each a game of its own: the moves to the child, then any
    /// empty cell, with the opening ending at the child, so that the child is its only
    /// position and the engine's value of it (for its side to move) its only value. The
    /// game result is `g`'s.
    fn label_children(
        &mut self,
        g: &Game,
        moves: usize,
        plies: (usize, usize),
    ) -> Result<Vec<Game>, String> {
        let Ok(mut board) = Board::new(g.width, g.height, g.rule) else {
            return Ok(Vec::new());
        };
        self.start(g.rule, g.width, &[])?;
        let mut out = Vec::new();
        let first = g.opening.max(1);
        for (i, &played) in g.moves.iter().enumerate() {
            let ply = i.wrapping_sub(first);
            if i >= first && (plies.0..=plies.1).contains(&ply) {
                for c in candidate_moves(&mut board, moves) {
                    let mut line = g.moves[..i].to_vec();
                    line.push(c);
                    let value = self.value(&line)?;
                    out.extend(child_game(g, &mut board, c, value));
                }
            }
            if !board.is_empty(played) {
                break;
            }
            board.make(played);
        }
        Ok(out)
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

/// The game of one child position (see [`Labeller::label_children`]): `g`'s moves to
/// `board` (its position), then `child` and any empty cell, the opening ending after
/// `child`, `value` its only value; none when the board would be full.
fn child_game(g: &Game, board: &mut Board, child: Pos, value: i16) -> Option<Game> {
    let mut moves: Vec<Pos> = g.moves[..board.move_count()].to_vec();
    moves.push(child);
    board.make(child);
    let filler = (0..g.width * g.height)
        .map(|k| Pos::new(k % g.width, k / g.width))
        .find(|&p| board.is_empty(p));
    board.unmake();
    moves.push(filler?);
    Some(Game {
        opening: moves.len() - 1,
        moves,
        values: vec![value],
        has_values: true,
        ..g.clone()
    })
}

/// Whether `g` is a child record of `label --children`: a single labelled position,
/// followed by one filler move.
#[must_use]
pub fn is_child(g: &Game) -> bool {
    g.values.len() == 1 && g.opening + 1 == g.moves.len() && g.opening >= 2
}

/// Whether the child records `a` and `b` are children of the same parent.
#[must_use]
pub fn are_siblings(a: &Game, b: &Game) -> bool {
    is_child(a)
        && is_child(b)
        && a.opening == b.opening
        && a.moves[..a.opening - 1] == b.moves[..b.opening - 1]
}

/// What `label` gives values to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Targets {
    /// Every position of each game after its opening.
    Positions,
    /// The positions after each of the first `moves` moves of Sente's move ordering, in
    /// the positions `plies.0..=plies.1` plies after each game's opening where the side
    /// to move has neither a five nor a forced reply: the moves the search weighs
    /// against each other, the good and the bad, where game positions show only the
    /// moves that were played.
    Children {
        /// Moves per position.
        moves: usize,
        /// First and last ply after the opening.
        plies: (usize, usize),
    },
}

/// The first `k` moves of Sente's move ordering (the hand-set pattern weights) in an
/// unforced position of the side to move, best first; none when it has a five point or
/// must answer a threat.
#[must_use]
pub fn candidate_moves(board: &mut Board, k: usize) -> Vec<Pos> {
    let me = board.side_to_move();
    if board.move_count() == 0 || board.winning_move(me).is_some() {
        return Vec::new();
    }
    let p = SearchParams::default();
    let hist = [0i32; NUM_CELLS];
    let info = OrderInfo::plain(&hist, &p.order_own, &p.order_opp);
    let mut list = MoveList::default();
    if generate(board, &BBox::of_board(board), &mut list, &info, k) != Stage::All {
        return Vec::new();
    }
    list.sort_and_truncate(k);
    list.as_slice().iter().map(|m| m.pos).collect()
}

/// The labelling engine: its command, depth, time per position and extra `INFO` lines.
#[derive(Clone, Copy, Debug)]
pub struct LabelEngine<'a> {
    /// Command and arguments.
    pub argv: &'a [String],
    /// `INFO max_depth`.
    pub depth: u32,
    /// `INFO timeout_turn` (ms).
    pub turn_ms: u64,
    /// More `INFO` lines, sent after those (`INFO sente.mlp builtin`).
    pub infos: &'a [String],
}

/// Label `games` with `threads` processes of `engine` (at its depth, and at most its
/// `turn_ms` per position, sent as `timeout_turn`); `progress` gets a line now and then. Games on non-square boards are left out (the protocol's `START`
/// sets a square board).
///
/// # Errors
/// The first failure of an engine (it could not start, exited, refused a position).
pub fn label_games(
    games: &[Game],
    targets: Targets,
    engine: &LabelEngine,
    threads: usize,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Vec<Game>, String> {
    let threads = threads.max(1);
    let todo: Vec<&Game> = games.iter().filter(|g| g.width == g.height).collect();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let games_done = std::sync::atomic::AtomicUsize::new(0);
    let started = Instant::now();
    let (todo, done, games_done) = (&todo, &done, &games_done);
    spread(
        threads,
        "labelling",
        |t| -> Result<Vec<(usize, Vec<Game>)>, String> {
            let mut lab = Labeller::new(engine.argv, engine.depth, engine.turn_ms)?;
            lab.settings.extend(engine.infos.iter().cloned());
            let mut out = Vec::new();
            let mut last = Instant::now();
            for (i, g) in todo.iter().enumerate().skip(t).step_by(threads) {
                let labelled = lab.label_targets(g, targets)?;
                let k: usize = labelled.iter().map(|g| g.values.len()).sum();
                let n = done.fetch_add(k, std::sync::atomic::Ordering::Relaxed) + k;
                let gn = games_done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                out.push((i, labelled));
                if t == 0 && last.elapsed() > Duration::from_secs(10) {
                    last = Instant::now();
                    let secs = started.elapsed().as_secs_f64();
                    progress(&format!(
                        "label: {gn}/{} games, {n} positions, {:.0}/s",
                        todo.len(),
                        n as f64 / secs
                    ));
                }
            }
            lab.proc.shutdown();
            Ok(out)
        },
    )
    .map(|per_game: Vec<Vec<Game>>| per_game.into_iter().flatten().collect())
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

/// The games after the first `skip`, at most `max` of them (`--skip`, `--games`).
fn window(mut games: Vec<Game>, skip: usize, max: usize) -> Vec<Game> {
    games.drain(..skip.min(games.len()));
    games.truncate(max);
    games
}

/// `label --engine CMD --data FILE[,FILE…] --out FILE [--depth D] [--turn-ms MS]
/// [--threads T] [--skip M] [--games N] [--children K [--plies A-B]] [--info KEY=VALUE …]`
/// (`--skip M --games N`: the games after the first M, at most N of them). Returns the
/// exit code.
pub fn cli(args: &[String]) -> i32 {
    let (mut engine, mut data, mut out) = (None, None, None);
    let (mut depth, mut threads, mut max_games, mut skip) = (12u32, 1usize, usize::MAX, 0usize);
    // Generous by default: the depth is the bound that matters. But below
    // `POSITION_TIMEOUT`, so that an engine that needs long for one position (Rapfi at
    // depth 12 once took over two minutes in renju) still answers with the value of its
    // deepest finished iteration instead of failing the whole run. An engine whose time
    // manager spends part of the turn before its search (Sente's root threat phase)
    // needs a smaller value.
    let mut turn_ms = DEFAULT_TURN_MS;
    let (mut children, mut plies) = (0usize, (0usize, 20usize));
    let mut infos = Vec::new();
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
            "--skip" => v.parse().map(|n| skip = n).is_ok(),
            "--children" => v.parse().map(|n| children = n).is_ok(),
            "--info" => match v.split_once('=') {
                Some((key, value)) if !key.is_empty() => {
                    infos.push(format!("INFO {key} {value}"));
                    true
                }
                _ => false,
            },
            "--plies" => match v.split_once('-').map(|(a, b)| (a.parse(), b.parse())) {
                Some((Ok(a), Ok(b))) if a <= b => {
                    plies = (a, b);
                    true
                }
                _ => false,
            },
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
    let games = match read_files(&data) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("label: {e}");
            return 1;
        }
    };
    let games = window(games, skip, max_games);
    let targets = if children > 0 {
        Targets::Children {
            moves: children,
            plies,
        }
    } else {
        Targets::Positions
    };
    let engine = LabelEngine {
        argv: &argv,
        depth,
        turn_ms,
        infos: &infos,
    };
    let labelled = match label_games(&games, targets, &engine, threads, &|l| eprintln!("{l}")) {
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

    fn freestyle_game(moves: &[(usize, usize)]) -> Game {
        Game {
            rule: Rule::Freestyle,
            width: 15,
            height: 15,
            opening: 1,
            moves: moves.iter().map(|&(x, y)| Pos::new(x, y)).collect(),
            result: 1,
            values: vec![0; moves.len() - 1],
            has_values: true,
        }
    }

    #[test]
    fn skip_and_games_choose_a_window_of_the_input_games() {
        let games: Vec<Game> = (0..5).map(|i| freestyle_game(&[(i, 0)])).collect();
        let firsts = |g: Vec<Game>| g.iter().map(|g| g.moves[0]).collect::<Vec<_>>();
        let at = |xs: &[usize]| xs.iter().map(|&x| Pos::new(x, 0)).collect::<Vec<_>>();
        assert_eq!(firsts(window(games.clone(), 1, 2)), at(&[1, 2]));
        assert_eq!(firsts(window(games.clone(), 3, usize::MAX)), at(&[3, 4]));
        assert_eq!(firsts(window(games.clone(), 0, 5)), at(&[0, 1, 2, 3, 4]));
        assert!(window(games, 9, 1).is_empty());
    }

    #[test]
    fn candidates_are_the_best_ordered_empty_cells_and_none_when_forced() {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (8, 8), (6, 7)] {
            b.make(Pos::new(x, y));
        }
        let c = candidate_moves(&mut b, 5);
        assert_eq!(c.len(), 5);
        let mut distinct = c.clone();
        distinct.sort_by_key(|p| p.idx());
        distinct.dedup();
        assert_eq!(distinct.len(), 5);
        assert!(c.iter().all(|&p| b.is_empty(p)));
        // The first of five is the first of ten: the list is ordered.
        assert_eq!(candidate_moves(&mut b, 10)[..5], c[..]);
        // White must answer black's open three after (5, 7): no unforced candidates.
        b.make(Pos::new(0, 14));
        b.make(Pos::new(5, 7));
        assert!(candidate_moves(&mut b, 5).is_empty());
        // The side to move with a five point: none either.
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in crate::learn::judge::tests::BEFORE_FIVE {
            b.make(Pos::new(x, y));
        }
        assert!(candidate_moves(&mut b, 5).is_empty());
    }

    #[test]
    fn a_child_game_holds_the_child_position_as_its_only_labelled_one() {
        let g = freestyle_game(&[(7, 7), (8, 8), (6, 7), (9, 9), (0, 0)]);
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for &m in &g.moves[..3] {
            b.make(m);
        }
        let child = Pos::new(5, 7);
        let c = child_game(&g, &mut b, child, -77).unwrap();
        assert_eq!(b.move_count(), 3, "the board is given back as it was");
        assert_eq!(&c.moves[..4], &[g.moves[0], g.moves[1], g.moves[2], child]);
        assert_eq!((c.opening, c.values.clone(), c.result), (4, vec![-77], 1));
        // The cell after the child is an empty one, and the record reads back.
        assert!(!c.moves[..4].contains(&c.moves[4]));
        let mut buf = Vec::new();
        c.write(&mut buf);
        assert_eq!(Game::read(&buf).unwrap().0, c);
    }

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
