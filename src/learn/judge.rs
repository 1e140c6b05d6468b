//! `pbrain-sente judge`: how good are the moves an engine chooses, by a stronger engine's
//! judgement. A benchmark for playing strength that is far less noisy than a match.
//!
//! Positions are taken from game files ([`super::datagen`] format; imported match records
//! or labelled files): the plies `--plies A-B` after each game's opening, each position
//! once, spread evenly to `--positions N`. Every player (any Piskvork-protocol program,
//! with its own `INFO` lines) is asked for its move in each position as in a match
//! (`START`, `timeout_turn`, `timeout_match`, a `time_left` that falls with the ply), and
//! the judge (a labeller: an engine searching to `--depth`) gives the position after each
//! distinct move its value. A move that makes five is worth a mate, a renju foul minus
//! one. The report per player: the mean expected score after its move, sigmoid(value /
//! `--scale`), from the mover's view, and its mean difference to the first player's over
//! the same positions (paired, with a 95 % interval), with how often the moves differ.
//!
//! Why: a match against Rapfi of 80 games tells a change of ±100 Elo at best, because
//! each opening's result mostly follows from which colour it favours. The games are lost
//! in a few early moves that a stronger engine's search shows to be mistakes; judging
//! the moves themselves, paired on the same positions, sees much smaller differences.

use super::datagen::{read_files, Game};
use super::label::{spread, Labeller, MATE_LABEL};
use crate::arbiter::engine_proc::split_command;
use crate::board::{Board, MoveOutcome};
use crate::types::{Pos, Rule};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// One position to judge.
#[derive(Clone, Debug)]
pub struct Position {
    /// Index of the game in the input.
    pub game: usize,
    /// Rule.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// The moves that lead to it, black first.
    pub moves: Vec<Pos>,
}

/// A player: a name, its command line and the `INFO` lines it gets after the common ones.
#[derive(Clone, Debug)]
pub struct Player {
    /// Name in the report.
    pub name: String,
    /// Command line.
    pub argv: Vec<String>,
    /// Extra `INFO KEY VALUE` lines.
    pub infos: Vec<String>,
}

impl Player {
    /// The player's own `timeout_match` (its last `--info NAME:timeout_match=MS`), if given.
    #[must_use]
    pub fn match_ms(&self) -> Option<u64> {
        self.infos
            .iter()
            .rev()
            .find_map(|l| l.strip_prefix("INFO timeout_match ")?.trim().parse().ok())
    }
}

/// The `time_left` a player gets before its move in a position where it has made
/// `own_moves` moves: `match_ms` less 250 ms per move, at least a fifth of it.
#[must_use]
pub fn time_left(match_ms: u64, own_moves: usize) -> u64 {
    match_ms
        .saturating_sub(250 * own_moves as u64)
        .max(match_ms / 5)
}

/// Settings of a run.
#[derive(Clone, Debug)]
pub struct JudgeConfig {
    /// The players' `timeout_turn` (ms).
    pub turn_ms: u64,
    /// The players' `timeout_match` (ms); `time_left` is this (or the player's own
    /// `timeout_match` from its `--info`) less 250 ms per earlier move of the side to
    /// move, at least a fifth of it.
    pub match_ms: u64,
    /// The judge's depth.
    pub depth: u32,
    /// Worker threads (each with its own judge and player processes).
    pub threads: usize,
}

/// The judged moves of one position: per player its move and the judge's value after
/// it, from the mover's view.
#[derive(Clone, Debug)]
pub struct Judged {
    /// Index into the position list.
    pub position: usize,
    /// Per player: (move, value).
    pub moves: Vec<(Pos, i16)>,
}

/// The positions of `games` at plies `plies` (inclusive, counted from the first move
/// after the opening) whose recorded value, where the file has values, is within
/// `max_value`; each distinct position (the same stones in any order) once, square
/// boards only, games over excluded; then `count` of them spread evenly (all if fewer).
#[must_use]
pub fn select_positions(
    games: &[Game],
    plies: (usize, usize),
    max_value: i16,
    count: usize,
) -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut all = Vec::new();
    for (gi, g) in games.iter().enumerate() {
        if g.width != g.height {
            continue;
        }
        let Ok(mut board) = Board::new(g.width, g.height, g.rule) else {
            continue;
        };
        let first = g.opening.max(1);
        for (i, &m) in g.moves.iter().enumerate() {
            if i >= first + plies.0 && i <= first + plies.1 {
                let value_ok = !g.has_values
                    || g.values
                        .get(i - first)
                        .is_some_and(|v| v.unsigned_abs() <= max_value.unsigned_abs());
                if value_ok && seen.insert((g.rule, g.width, board.key())) {
                    all.push(Position {
                        game: gi,
                        rule: g.rule,
                        size: g.width,
                        moves: g.moves[..i].to_vec(),
                    });
                }
            }
            if board.play(m) != Ok(MoveOutcome::Continue) {
                break;
            }
        }
    }
    if all.len() <= count {
        return all;
    }
    (0..count)
        .map(|k| all[k * all.len() / count].clone())
        .collect()
}

/// The value of `mv` played in `pos` for the mover, without asking the judge when the
/// move ends the game: a five is a mate, a renju foul a mate against, a full board 0.
fn decided_value(pos: &Position, mv: Pos) -> Result<Option<i16>, String> {
    let mut b = Board::new(pos.size, pos.size, pos.rule).map_err(|e| format!("{e:?}"))?;
    for &m in &pos.moves {
        b.play(m).map_err(|e| format!("{e:?}"))?;
    }
    match b.play(mv) {
        Ok(MoveOutcome::Continue) => Ok(None),
        Ok(MoveOutcome::Win) => Ok(Some(MATE_LABEL)),
        Ok(MoveOutcome::Foul) => Ok(Some(-MATE_LABEL)),
        Ok(MoveOutcome::Draw) => Ok(Some(0)),
        // An illegal move (occupied, off the board) loses like a foul.
        Err(_) => Ok(Some(-MATE_LABEL)),
    }
}

/// Judge every position: each player's move and the judge's value after it.
/// `progress` gets a line now and then.
///
/// # Errors
/// The first failure of an engine (it could not start, exited, refused a position).
pub fn judge(
    positions: &[Position],
    players: &[Player],
    judge_argv: &[String],
    cfg: &JudgeConfig,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Vec<Judged>, String> {
    let threads = cfg.threads.max(1);
    let done = AtomicUsize::new(0);
    let started = Instant::now();
    let done = &done;
    spread(
        threads,
        "judging",
        |t| -> Result<Vec<(usize, Judged)>, String> {
            let mut judge = Labeller::new(judge_argv, cfg.depth, 1_000_000)?;
            let mut procs = players
                .iter()
                .map(|p| {
                    let mut settings = vec![
                        format!("INFO timeout_turn {}", cfg.turn_ms),
                        format!("INFO timeout_match {}", cfg.match_ms),
                    ];
                    settings.extend(p.infos.iter().cloned());
                    Labeller::with_settings(&p.argv, settings)
                        .map_err(|e| format!("{}: {e}", p.name))
                })
                .collect::<Result<Vec<_>, _>>()?;
            let mut out = Vec::new();
            let mut last = Instant::now();
            for (pi, pos) in positions.iter().enumerate().skip(t).step_by(threads) {
                let own_moves = pos.moves.len() / 2;
                let mut judged: Vec<(Pos, i16)> = Vec::with_capacity(players.len());
                for (p, proc) in players.iter().zip(procs.iter_mut()) {
                    let match_ms = p.match_ms().unwrap_or(cfg.match_ms);
                    let extra = [format!("INFO time_left {}", time_left(match_ms, own_moves))];
                    proc.start(pos.rule, pos.size, &extra)
                        .map_err(|e| format!("{}: {e}", p.name))?;
                    let (mv, _) = proc
                        .search(&pos.moves)
                        .map_err(|e| format!("{}: {e}", p.name))?;
                    let value = if let Some(&(_, v)) = judged.iter().find(|j| j.0 == mv) {
                        v
                    } else if let Some(v) = decided_value(pos, mv)? {
                        v
                    } else {
                        let mut after = pos.moves.clone();
                        after.push(mv);
                        judge.start(pos.rule, pos.size, &[])?;
                        -judge.value(&after)?
                    };
                    judged.push((mv, value));
                }
                out.push((
                    pi,
                    Judged {
                        position: pi,
                        moves: judged,
                    },
                ));
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                if t == 0 && last.elapsed() > Duration::from_secs(10) {
                    last = Instant::now();
                    progress(&format!(
                        "judge: {n}/{} positions, {:.0} s",
                        positions.len(),
                        started.elapsed().as_secs_f64()
                    ));
                }
            }
            judge.proc.shutdown();
            for p in procs {
                p.proc.shutdown();
            }
            Ok(out)
        },
    )
}

/// Expected score of a value: sigmoid(value / scale).
fn score(value: i16, scale: f64) -> f64 {
    1.0 / (1.0 + (-f64::from(value) / scale).exp())
}

/// One player's figures against the first player's (the first against itself: 0).
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Mean expected score after the player's moves (0–1).
    pub mean: f64,
    /// Mean of (this player's score − the first player's), paired by position.
    pub diff: f64,
    /// Half-width of the 95 % interval of `diff`.
    pub diff_95: f64,
    /// Positions where the moves differ from the first player's.
    pub differ: usize,
    /// Positions where this player's move scores higher / lower than the first's by
    /// more than 0.05.
    pub better: usize,
    /// See `better`.
    pub worse: usize,
    /// Moves after which the judge sees a mate against the mover.
    pub mated: usize,
}

/// The summaries of every player over `judged`.
#[must_use]
pub fn summarize(judged: &[Judged], players: usize, scale: f64) -> Vec<Summary> {
    let n = judged.len().max(1) as f64;
    (0..players)
        .map(|p| {
            let scores: Vec<f64> = judged.iter().map(|j| score(j.moves[p].1, scale)).collect();
            let diffs: Vec<f64> = judged
                .iter()
                .map(|j| score(j.moves[p].1, scale) - score(j.moves[0].1, scale))
                .collect();
            let mean = scores.iter().sum::<f64>() / n;
            let diff = diffs.iter().sum::<f64>() / n;
            let var = diffs.iter().map(|d| (d - diff).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
            Summary {
                mean,
                diff,
                diff_95: 1.96 * (var / n).sqrt(),
                differ: judged
                    .iter()
                    .filter(|j| j.moves[p].0 != j.moves[0].0)
                    .count(),
                better: diffs.iter().filter(|&&d| d > 0.05).count(),
                worse: diffs.iter().filter(|&&d| d < -0.05).count(),
                mated: judged
                    .iter()
                    .filter(|j| j.moves[p].1 <= -MATE_LABEL / 2)
                    .count(),
            }
        })
        .collect()
}

/// Parse `NAME:VALUE` (a player's name and the rest).
fn named(v: &str) -> Option<(&str, &str)> {
    let (n, rest) = v.split_once(':')?;
    (!n.is_empty()).then_some((n, rest))
}

/// `judge --judge CMD --data FILE[,FILE…] --player NAME:CMD [--player …]
/// [--info NAME:KEY=VALUE …] [--plies A-B] [--max-value V] [--positions N]
/// [--turn-ms MS] [--match-ms MS] [--depth D] [--threads T] [--scale K] [--out FILE]`.
/// Returns the exit code.
pub fn cli(args: &[String]) -> i32 {
    match run_cli(args) {
        Ok(()) => 0,
        Err((code, e)) => {
            eprintln!("judge: {e}");
            code
        }
    }
}

fn run_cli(args: &[String]) -> Result<(), (i32, String)> {
    let usage = |m: String| (2, m);
    let (mut judge_cmd, mut data, mut out) = (None, None, None);
    let mut players: Vec<Player> = Vec::new();
    let mut plies = (0usize, 15usize);
    let (mut max_value, mut count, mut scale) = (MATE_LABEL, 400usize, 253.0f64);
    let mut cfg = JudgeConfig {
        turn_ms: 500,
        match_ms: 30_000,
        depth: 12,
        threads: 1,
    };
    for pair in args.chunks(2) {
        let (k, v) = (pair[0].as_str(), pair.get(1).map_or("", String::as_str));
        let bad = || usage(format!("bad argument {k} {v}"));
        match k {
            "--judge" => judge_cmd = Some(v.to_string()),
            "--data" => data = Some(v.to_string()),
            "--out" => out = Some(v.to_string()),
            "--player" => {
                let (name, cmd) = named(v).ok_or_else(bad)?;
                let argv = split_command(cmd).map_err(|_| bad())?;
                if argv.is_empty() || players.iter().any(|p| p.name == name) {
                    return Err(bad());
                }
                players.push(Player {
                    name: name.to_string(),
                    argv,
                    infos: Vec::new(),
                });
            }
            "--info" => {
                let (name, kv) = named(v).ok_or_else(bad)?;
                let (key, value) = kv.split_once('=').ok_or_else(bad)?;
                let p = players
                    .iter_mut()
                    .find(|p| p.name == name)
                    .ok_or_else(|| usage(format!("--info for {name} before its --player")))?;
                p.infos.push(format!("INFO {key} {value}"));
            }
            "--plies" => {
                let (a, b) = v.split_once('-').ok_or_else(bad)?;
                plies = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
            }
            "--max-value" => max_value = v.parse().map_err(|_| bad())?,
            "--positions" => count = v.parse().map_err(|_| bad())?,
            "--turn-ms" => cfg.turn_ms = v.parse().map_err(|_| bad())?,
            "--match-ms" => cfg.match_ms = v.parse().map_err(|_| bad())?,
            "--depth" => cfg.depth = v.parse().map_err(|_| bad())?,
            "--threads" => cfg.threads = v.parse().map_err(|_| bad())?,
            "--scale" => scale = v.parse().map_err(|_| bad())?,
            _ => return Err(bad()),
        }
    }
    let (Some(judge_cmd), Some(data)) = (judge_cmd, data) else {
        return Err(usage("--judge CMD and --data FILE are required".into()));
    };
    if players.is_empty() {
        return Err(usage("at least one --player NAME:CMD".into()));
    }
    let judge_argv = split_command(&judge_cmd)
        .ok()
        .filter(|a| !a.is_empty())
        .ok_or_else(|| usage("bad --judge command".into()))?;
    let games = read_files(&data).map_err(|e| (1, e))?;
    let positions = select_positions(&games, plies, max_value, count);
    eprintln!(
        "judge: {} positions from {} games, {} players, judge depth {}",
        positions.len(),
        games.len(),
        players.len(),
        cfg.depth
    );
    let judged = judge(&positions, &players, &judge_argv, &cfg, &|l| {
        eprintln!("{l}")
    })
    .map_err(|e| (1, e))?;
    if let Some(out) = out {
        std::fs::write(&out, table(&positions, &players, &judged))
            .map_err(|e| (1, format!("{out}: {e}")))?;
    }
    for line in report(
        &players,
        &summarize(&judged, players.len(), scale),
        judged.len(),
    ) {
        println!("{line}");
    }
    // Per side to move (renju's colours play different games).
    for (side, part) in ["black", "white"].iter().zip(by_side(&positions, &judged)) {
        if !part.is_empty() && part.len() < judged.len() {
            println!("{side} to move:");
            for line in report(
                &players,
                &summarize(&part, players.len(), scale),
                part.len(),
            ) {
                println!("  {line}");
            }
        }
    }
    Ok(())
}

/// `judged` split by the side to move in its position: black's, then white's.
fn by_side(positions: &[Position], judged: &[Judged]) -> [Vec<Judged>; 2] {
    let mut out = [Vec::new(), Vec::new()];
    for j in judged {
        out[positions[j.position].moves.len() % 2].push(j.clone());
    }
    out
}

/// Tab-separated, one row per position: game, ply, the moves, then per player its move
/// and the judge's value after it.
fn table(positions: &[Position], players: &[Player], judged: &[Judged]) -> String {
    let mut s = String::from("game\tply\tmoves");
    for p in players {
        let _ = write!(s, "\t{0}_move\t{0}_value", p.name);
    }
    s.push('\n');
    for j in judged {
        let pos = &positions[j.position];
        let moves: Vec<String> = pos
            .moves
            .iter()
            .map(|m| format!("{},{}", m.x(), m.y()))
            .collect();
        let _ = write!(s, "{}\t{}\t{}", pos.game, pos.moves.len(), moves.join(" "));
        for (m, v) in &j.moves {
            let _ = write!(s, "\t{},{}\t{v}", m.x(), m.y());
        }
        s.push('\n');
    }
    s
}

/// The report lines.
fn report(players: &[Player], sums: &[Summary], n: usize) -> Vec<String> {
    let mut out = vec![format!(
        "{:<16} {:>9} {:>18} {:>7} {:>7} {:>7} {:>6}",
        "player", "score %", "vs first (95 %)", "differ", "better", "worse", "mated"
    )];
    for (p, s) in players.iter().zip(sums) {
        out.push(format!(
            "{:<16} {:>9.2} {:>+10.2} ± {:<5.2} {:>7} {:>7} {:>7} {:>6}",
            p.name,
            100.0 * s.mean,
            100.0 * s.diff,
            100.0 * s.diff_95,
            s.differ,
            s.better,
            s.worse,
            s.mated
        ));
    }
    out.push(format!("{n} positions"));
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Black's four on row 7 (x 3–6) and white's on row 8: black to move makes five at
    /// (7, 7).
    pub(crate) const BEFORE_FIVE: [(usize, usize); 8] = [
        (3, 7),
        (3, 8),
        (4, 7),
        (4, 8),
        (5, 7),
        (5, 8),
        (6, 7),
        (6, 8),
    ];

    fn game(moves: &[(usize, usize)], opening: usize, values: Option<Vec<i16>>) -> Game {
        let moves: Vec<Pos> = moves.iter().map(|&(x, y)| Pos::new(x, y)).collect();
        let n = moves.len();
        Game {
            rule: Rule::Freestyle,
            width: 15,
            height: 15,
            opening,
            has_values: values.is_some(),
            values: values.unwrap_or_else(|| vec![0; n - opening]),
            moves,
            result: 0,
        }
    }

    #[test]
    fn positions_are_taken_once_within_the_plies_and_the_value_bound() {
        let line = [(7, 7), (8, 8), (6, 7), (9, 9), (5, 7), (10, 10), (1, 1)];
        // Same opening and first replies in two games: the shared positions count once.
        let a = game(&line, 2, None);
        let b = game(&line[..5], 2, None);
        let got = select_positions(&[a.clone(), b], (0, 2), MATE_LABEL, 100);
        let lens: Vec<usize> = got.iter().map(|p| p.moves.len()).collect();
        assert_eq!(lens, vec![2, 3, 4]);
        // Recorded values beyond the bound leave their positions out.
        let valued = game(&line, 2, Some(vec![10, 900, -20, 0, 0]));
        let got = select_positions(&[valued], (0, 2), 500, 100);
        let lens: Vec<usize> = got.iter().map(|p| p.moves.len()).collect();
        assert_eq!(lens, vec![2, 4]);
        // Spread evenly when there are more than asked for.
        let got = select_positions(&[a], (0, 4), MATE_LABEL, 2);
        let lens: Vec<usize> = got.iter().map(|p| p.moves.len()).collect();
        assert_eq!(lens, vec![2, 4]);
    }

    #[test]
    fn positions_after_the_game_is_won_are_not_taken() {
        // Black makes five with its fifth stone; the move after it never counts.
        let mut moves = BEFORE_FIVE.to_vec();
        moves.extend([(7, 7), (9, 9)]);
        let g = game(&moves, 1, None);
        let got = select_positions(&[g], (0, 20), MATE_LABEL, 100);
        assert_eq!(got.last().map(|p| p.moves.len()), Some(8));
    }

    #[test]
    fn a_winning_move_is_judged_without_the_judge() {
        let pos = Position {
            game: 0,
            rule: Rule::Freestyle,
            size: 15,
            moves: BEFORE_FIVE.iter().map(|&(x, y)| Pos::new(x, y)).collect(),
        };
        assert_eq!(decided_value(&pos, Pos::new(7, 7)), Ok(Some(MATE_LABEL)));
        assert_eq!(decided_value(&pos, Pos::new(3, 7)), Ok(Some(-MATE_LABEL)));
        assert_eq!(decided_value(&pos, Pos::new(9, 9)), Ok(None));
    }

    #[test]
    fn summaries_pair_each_player_with_the_first() {
        let j = |a: i16, b: i16, same: bool| Judged {
            position: 0,
            moves: vec![
                (Pos::new(1, 1), a),
                (if same { Pos::new(1, 1) } else { Pos::new(2, 2) }, b),
            ],
        };
        let judged = [j(0, 0, true), j(0, 500, false), j(0, -MATE_LABEL, false)];
        let s = summarize(&judged, 2, 253.0);
        assert_eq!(s[0].diff, 0.0);
        assert_eq!(
            (s[1].differ, s[1].better, s[1].worse, s[1].mated),
            (2, 1, 1, 1)
        );
        let expect = (score(500, 253.0) - 0.5 + score(-MATE_LABEL, 253.0) - 0.5) / 3.0;
        assert!((s[1].diff - expect).abs() < 1e-12);
        assert!((s[0].mean - 0.5).abs() < 1e-12);
    }

    #[test]
    fn a_players_own_timeout_match_sets_its_time_left() {
        let player = |infos: &[&str]| Player {
            name: "p".into(),
            argv: vec!["engine".into()],
            infos: infos.iter().map(|s| s.to_string()).collect(),
        };
        assert_eq!(player(&["INFO sente.top_n 40"]).match_ms(), None);
        let own = player(&["INFO timeout_match 60000", "INFO timeout_match 120000"]);
        assert_eq!(own.match_ms(), Some(120_000));
        // 120 s less 250 ms for each of 10 earlier moves; never below a fifth.
        assert_eq!(time_left(own.match_ms().unwrap_or(30_000), 10), 117_500);
        assert_eq!(time_left(30_000, 10), 27_500);
        assert_eq!(time_left(1_000, 10), 200);
    }

    #[test]
    fn positions_with_an_even_number_of_stones_have_black_to_move() {
        let pos = |n: usize| Position {
            game: 0,
            rule: Rule::Renju,
            size: 15,
            moves: (0..n).map(|i| Pos::new(i, 0)).collect(),
        };
        let positions = [pos(5), pos(6), pos(0), pos(7)];
        let judged: Vec<Judged> = (0..4)
            .map(|i| Judged {
                position: i,
                moves: vec![(Pos::new(9, 9), 0)],
            })
            .collect();
        let [black, white] = by_side(&positions, &judged);
        let of = |v: &[Judged]| v.iter().map(|j| j.position).collect::<Vec<_>>();
        assert_eq!((of(&black), of(&white)), (vec![1, 2], vec![0, 3]));
    }
}
