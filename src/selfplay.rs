//! In-process self-play matches between two search configurations, for strength
//! comparisons (`pbrain-sente selfplay`).
//!
//! Each opening is played twice with colours swapped. Per-move limits are either a
//! node count (deterministic, independent of machine load) or a time per move (budgeted
//! like a real `timeout_turn`; moves over the limit are counted as late). Prints
//! W-L-D from configuration A's point of view and an Elo estimate.

use crate::bench::{board_from, parse_moves};
use crate::board::MoveOutcome;
use crate::search::params::SearchParams;
use crate::search::Searcher;
use crate::time::{SearchLimits, TimeSettings};
use crate::types::{Pos, Rule};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

// Everything a match needs, parsed from the command line.
/// Match settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Configuration A.
    pub a: SearchParams,
    /// Configuration B.
    pub b: SearchParams,
    /// Number of games (rounded up to even).
    pub games: usize,
    /// Time per move in ms (used when `nodes` is `None`).
    pub ms: u64,
    /// Node limit per move.
    pub nodes: Option<u64>,
    /// Board size.
    pub size: usize,
    /// Rule.
    pub rule: Rule,
    /// Opening file (positions.txt format) or `None` for generated openings.
    pub openings: Option<String>,
    /// Seed for generated openings.
    pub seed: u64,
    /// Transposition table per player (bytes).
    pub tt_bytes: usize,
    /// Search threads of A and of B (Lazy SMP; not capped at the core count).
    pub threads: [usize; 2],
    /// With `nodes`: each side's node limit is `nodes` times its thread count (the
    /// search's node limit counts every thread), i.e. the same nodes per thread: a
    /// comparison of thread counts as if the machine ran every thread at full speed.
    pub nodes_per_thread: bool,
    /// B's node limit when it differs from A's (`nodes`).
    pub nodes_b: Option<u64>,
}

/// Result counts from A's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// A's wins.
    pub wins: u32,
    /// A's losses.
    pub losses: u32,
    /// Draws.
    pub draws: u32,
    /// Moves that took longer than the per-move time (time mode only).
    pub late: u32,
}

impl Score {
    /// Elo difference A − B and its ~95 % half-interval, from the score fraction.
    #[must_use]
    pub fn elo(&self) -> (f64, f64) {
        let n = f64::from(self.wins + self.losses + self.draws);
        if n == 0.0 {
            return (0.0, 0.0);
        }
        let p = (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n;
        let to_elo = |p: f64| -400.0 * (1.0 / p.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10();
        let s = (p * (1.0 - p) / n).sqrt();
        let e = to_elo(p);
        (e, (to_elo(p + 1.96 * s) - to_elo(p - 1.96 * s)) / 2.0)
    }
}

/// Openings for the match: from the file (entries of this size and rule), else random
/// balanced 3–4 stone openings near the centre. The flag says whether they came from
/// the file.
#[must_use]
pub fn openings(cfg: &MatchConfig, count: usize) -> (Vec<Vec<Pos>>, bool) {
    let mut out = Vec::new();
    if let Some(path) = &cfg.openings {
        if let Ok(text) = std::fs::read_to_string(path) {
            for line in text.lines().filter(|l| !l.starts_with('#')) {
                let f: Vec<&str> = line.split('\t').collect();
                if f.len() >= 4
                    && f[1].parse::<usize>().ok() == Some(cfg.size)
                    && Rule::parse(f[2]) == Some(cfg.rule)
                {
                    // The moves are the first later column whose tokens are all `x,y`
                    // (column 6 in gomocup_openings, 8 in katagomo_renju5_openings).
                    let moves = f[3..]
                        .iter()
                        .find_map(|c| parse_moves(c).filter(|m| !m.is_empty()));
                    if let Some(m) = moves {
                        if board_from(cfg.size, cfg.rule, &m).is_some() {
                            out.push(m);
                        }
                    }
                }
            }
        }
    }
    if !out.is_empty() {
        out.truncate(count);
        return (out, true);
    }
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let mut judge = Searcher::new(4 << 20, SearchParams::default());
    let c = (cfg.size / 2) as i64;
    let mut tries = 0;
    while out.len() < count && tries < 100_000 {
        tries += 1;
        let n = rng.gen_range(3..=4);
        let mut moves = Vec::new();
        while moves.len() < n {
            let p = Pos::new(
                (c + rng.gen_range(-3..=3)) as usize,
                (c + rng.gen_range(-3..=3)) as usize,
            );
            if !moves.contains(&p) {
                moves.push(p);
            }
        }
        let Some(mut b) = board_from(cfg.size, cfg.rule, &moves) else {
            continue;
        };
        let mut l = SearchLimits::fixed(Duration::from_secs(60), Instant::now());
        l.max_depth = Some(4);
        let r = judge.go(&mut b, &l, None, &mut |_| {});
        if r.value.abs() <= 80 && !out.contains(&moves) {
            out.push(moves);
        }
    }
    (out, false)
}

/// Play one game from `opening`; `a_is_black` says who plays black. Returns
/// (+1 A wins, −1 B wins, 0 draw, late moves).
fn play_game(
    cfg: &MatchConfig,
    players: &mut [Searcher; 2],
    opening: &[Pos],
    a_is_black: bool,
) -> (i32, u32) {
    let Some(mut board) = board_from(cfg.size, cfg.rule, opening) else {
        return (0, 0);
    };
    for p in players.iter_mut() {
        p.clear();
    }
    let mut late = 0;
    loop {
        let black_to_move = board.move_count() % 2 == 0;
        let a_to_move = black_to_move == a_is_black;
        let idx = usize::from(!a_to_move);
        let start = Instant::now();
        let nodes = if idx == 1 {
            cfg.nodes_b.or(cfg.nodes)
        } else {
            cfg.nodes
        };
        let mut limits = if let Some(n) = nodes {
            let mut l = SearchLimits::fixed(Duration::from_secs(3600), start);
            let per = if cfg.nodes_per_thread {
                cfg.threads[idx] as u64
            } else {
                1
            };
            l.max_nodes = Some(n.saturating_mul(per));
            l
        } else {
            let settings = TimeSettings {
                turn_ms: Some(i64::try_from(cfg.ms).unwrap_or(i64::MAX)),
                match_ms: 0,
                left_ms: None,
            };
            SearchLimits::from_settings(&settings, board.move_count() / 2, start)
        };
        limits.multi_pv = 1;
        let r = players[idx].go(&mut board, &limits, None, &mut |_| {});
        if cfg.nodes.is_none() && start.elapsed() > Duration::from_millis(cfg.ms) {
            late += 1;
        }
        let mv = if r.best.is_some() && board.is_legal(r.best) {
            r.best
        } else {
            crate::fallback::fallback_move(&mut board)
        };
        let a_sign = if a_to_move { 1 } else { -1 };
        match board.play(mv) {
            Ok(MoveOutcome::Continue) => {}
            Ok(MoveOutcome::Win) => return (a_sign, late),
            Ok(MoveOutcome::Foul) | Err(_) => return (-a_sign, late),
            Ok(MoveOutcome::Draw) => return (0, late),
        }
    }
}

/// Run the match, printing one line per game pair and a summary; returns the score.
pub fn run_match(cfg: &MatchConfig, mut report: impl FnMut(&str)) -> Score {
    let pairs = cfg.games.div_ceil(2);
    let (ops, from_file) = openings(cfg, pairs);
    report(&format!(
        "{} openings {}",
        ops.len(),
        if from_file {
            "from the file"
        } else {
            "generated from the seed"
        }
    ));
    let mut players = [
        Searcher::with_threads(cfg.tt_bytes, cfg.a.clone(), cfg.threads[0]),
        Searcher::with_threads(cfg.tt_bytes, cfg.b.clone(), cfg.threads[1]),
    ];
    let mut score = Score::default();
    let mut as_black = Score::default();
    if ops.is_empty() {
        report("no openings");
        return score;
    }
    for i in 0..pairs {
        let op = &ops[i % ops.len()];
        for a_is_black in [true, false] {
            let (res, late) = play_game(cfg, &mut players, op, a_is_black);
            score.late += late;
            let s = if a_is_black {
                &mut as_black
            } else {
                &mut score
            };
            match res {
                1 => s.wins += 1,
                -1 => s.losses += 1,
                _ => s.draws += 1,
            }
        }
        let total = Score {
            wins: score.wins + as_black.wins,
            losses: score.losses + as_black.losses,
            draws: score.draws + as_black.draws,
            late: score.late,
        };
        report(&format!(
            "pair {}/{pairs}: A {}-{}-{} (W-L-D)",
            i + 1,
            total.wins,
            total.losses,
            total.draws
        ));
    }
    let total = Score {
        wins: score.wins + as_black.wins,
        losses: score.losses + as_black.losses,
        draws: score.draws + as_black.draws,
        late: score.late,
    };
    let (elo, err) = total.elo();
    report(&format!(
        "A as black {}-{}-{}, A as white {}-{}-{}",
        as_black.wins, as_black.losses, as_black.draws, score.wins, score.losses, score.draws
    ));
    report(&format!(
        "Result: A {}-{}-{} (W-L-D) Elo {elo:+.0} ± {err:.0}, late moves {}",
        total.wins, total.losses, total.draws, total.late
    ));
    total
}

/// `selfplay --a SPEC --b SPEC --games N (--ms MS | --nodes N) [--size S] [--rule R]
/// [--openings FILE] [--seed S] [--threads-a N] [--threads-b N] [--nodes-per-thread]
/// [--nodes-b N]`.
/// Returns the process exit code.
pub fn cli(args: &[String]) -> i32 {
    let mut cfg = MatchConfig {
        a: SearchParams::default(),
        b: SearchParams::default(),
        games: 200,
        ms: 200,
        nodes: None,
        size: 15,
        rule: Rule::Freestyle,
        openings: None,
        seed: 1,
        tt_bytes: 16 << 20,
        threads: [1, 1],
        nodes_per_thread: false,
        nodes_b: None,
    };
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1).cloned().unwrap_or_default();
        let r = match args[i].as_str() {
            "--a" => cfg.a.apply(&v),
            "--b" => cfg.b.apply(&v),
            "--games" => v.parse().map(|n| cfg.games = n).map_err(|e| e.to_string()),
            "--ms" => v.parse().map(|n| cfg.ms = n).map_err(|e| e.to_string()),
            "--nodes" => v
                .parse()
                .map(|n| cfg.nodes = Some(n))
                .map_err(|e| e.to_string()),
            "--size" => v.parse().map(|n| cfg.size = n).map_err(|e| e.to_string()),
            "--rule" => Rule::parse(&v)
                .map(|r| cfg.rule = r)
                .ok_or_else(|| "bad rule".to_string()),
            "--openings" => {
                cfg.openings = Some(v);
                Ok(())
            }
            "--seed" => v.parse().map(|n| cfg.seed = n).map_err(|e| e.to_string()),
            "--nodes-b" => v
                .parse()
                .map(|n| cfg.nodes_b = Some(n))
                .map_err(|e| e.to_string()),
            "--nodes-per-thread" => {
                cfg.nodes_per_thread = true;
                i += 1;
                continue;
            }
            "--threads-a" | "--threads-b" => {
                v.parse::<usize>().map_err(|e| e.to_string()).and_then(|n| {
                    if (1..=256).contains(&n) {
                        cfg.threads[usize::from(args[i] == "--threads-b")] = n;
                        Ok(())
                    } else {
                        Err("threads must be 1..256".to_string())
                    }
                })
            }
            other => Err(format!("unknown option {other}")),
        };
        if let Err(e) = r {
            eprintln!("selfplay: {}: {e}", args[i]);
            return 2;
        }
        i += 2;
    }
    run_match(&cfg, |line| println!("{line}"));
    0
}
