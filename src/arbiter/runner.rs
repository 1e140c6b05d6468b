//! A match: many games between two engines, run in parallel, scored and optionally stopped
//! by an SPRT.
//!
//! Game `i` (0-based) uses opening `(i / 2) % openings` and engine 1 plays black when `i` is
//! even, so every opening is played twice with colours swapped (a "pair").

use super::game::{opening_board, play_game, EngineSpec, GameConfig};
use super::openings::Opening;
use super::record::GameRecord;
use super::stats::{penta_elo, Penta, Sprt, SprtDecision, Wld};
use anyhow::{Context, Result};
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::PathBuf;
use std::sync::{mpsc, Mutex};

/// Stack size of game threads (a board holds a few fixed-size arrays).
const GAME_THREAD_STACK: usize = 32 * 1024 * 1024;

/// Statistical model of the SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtModel {
    /// Independent games (loss/draw/win).
    Trinomial,
    /// Game pairs on the same opening (pair score in quarter points).
    Pentanomial,
}

// Everything a match needs, built by the CLI or by tests. Exists so that `run_match` has
// one input and the CLI stays a thin parser.
/// Settings of a match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Rules and limits of each game.
    pub game: GameConfig,
    /// Engine 1 and engine 2.
    pub engines: [EngineSpec; 2],
    /// Openings, used in order and cycled.
    pub openings: Vec<Opening>,
    /// Number of games.
    pub games: usize,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Where to write `.psq`/`.sgf` records and `games.tsv`, if anywhere.
    pub out_dir: Option<PathBuf>,
    /// Optional SPRT.
    pub sprt: Option<Sprt>,
    /// Model of the SPRT.
    pub sprt_model: SprtModel,
}

// The running totals of a match, which the progress lines and the final report print.
/// Results of a match so far, from engine 1's point of view.
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    /// Wins, losses, draws of engine 1.
    pub wld: Wld,
    /// Completed pairs by pair score (index = half points of engine 1, 0..=4).
    pub penta: Penta,
    /// Games per end reason code.
    pub reasons: BTreeMap<&'static str, u32>,
    /// Games that did not end on the board (protocol, clock or process failures).
    pub failures: u32,
    /// Last LLR and decision, when an SPRT runs.
    pub sprt: Option<(f64, SprtDecision)>,
    /// Every finished game, in completion order.
    pub records: Vec<GameRecord>,
    /// Per engine (index 0 = engine 1): moves played, total and longest thinking time (ms).
    pub times: [MoveTimes; 2],
}

// Thinking-time totals of one engine, so the report shows how close engines run to the clock.
/// Thinking-time statistics of one engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveTimes {
    /// Moves played.
    pub moves: u64,
    /// Sum of thinking times, ms.
    pub total_ms: u64,
    /// Longest thinking time, ms.
    pub max_ms: u64,
    /// Moves that took longer than the per-move limit (`turn_ms`, when set), measured
    /// by the arbiter from sending the command to reading the move, without tolerance.
    pub over_turn: u64,
}

impl MatchSummary {
    fn add(&mut self, rec: GameRecord, pending: &mut HashMap<usize, f64>, turn_ms: u64) {
        let s = rec.engine1_score();
        if s == 1.0 {
            self.wld.wins += 1;
        } else if s == 0.0 {
            self.wld.losses += 1;
        } else {
            self.wld.draws += 1;
        }
        *self.reasons.entry(rec.reason.code()).or_insert(0) += 1;
        if !rec.reason.is_rules_result() {
            self.failures += 1;
        }
        let pair = (rec.number - 1) / 2;
        if let Some(other) = pending.remove(&pair) {
            self.penta[((s + other) * 2.0).round() as usize] += 1;
        } else {
            pending.insert(pair, s);
        }
        for (i, m) in rec.moves.iter().enumerate().skip(rec.opening_len) {
            let black_moved = i % 2 == 0;
            let t = &mut self.times[usize::from(black_moved != rec.engine1_black)];
            t.moves += 1;
            t.total_ms += m.ms;
            t.max_ms = t.max_ms.max(m.ms);
            if turn_ms > 0 && m.ms > turn_ms {
                t.over_turn += 1;
            }
        }
        self.records.push(rec);
    }
}

/// Check every opening against the rules before any engine starts.
pub fn validate_openings(cfg: &MatchConfig) -> Result<()> {
    for o in &cfg.openings {
        opening_board(&cfg.game, o)?;
    }
    Ok(())
}

/// Text of one progress line.
fn progress_line(rec: &GameRecord, total: usize, sum: &MatchSummary, e1: &str) -> String {
    let w = &sum.wld;
    let played = rec.moves.len() - rec.opening_len;
    format!(
        "game {}/{} [{}] {} (B) vs {} (W): {} {} after {} moves | {e1}: +{} -{} ={} score {:.3}",
        rec.number,
        total,
        rec.opening_source,
        rec.black,
        rec.white,
        rec.result_str(),
        rec.reason,
        played,
        w.wins,
        w.losses,
        w.draws,
        w.score()
    )
}

/// Write the records of one game into `dir`.
fn save_records(dir: &std::path::Path, rec: &GameRecord) -> Result<()> {
    let base = dir.join(format!("game_{:04}", rec.number));
    std::fs::write(base.with_extension("psq"), rec.to_psq())
        .with_context(|| format!("writing {}", base.display()))?;
    std::fs::write(base.with_extension("sgf"), rec.to_sgf())
        .with_context(|| format!("writing {}", base.display()))?;
    let mut tsv = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("games.tsv"))
        .context("writing games.tsv")?;
    writeln!(
        tsv,
        "{}\t{}\t{}\t{}\t{}\t{}\t{}",
        rec.number,
        rec.black,
        rec.white,
        rec.result_str(),
        rec.reason,
        rec.moves.len(),
        rec.opening_source
    )?;
    Ok(())
}

/// Run the match, printing one progress line per game to `out`, and return the totals.
pub fn run_match(cfg: &MatchConfig, out: &mut dyn Write) -> Result<MatchSummary> {
    anyhow::ensure!(!cfg.openings.is_empty(), "no openings");
    validate_openings(cfg)?;
    if let Some(dir) = &cfg.out_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let _ = std::fs::remove_file(dir.join("games.tsv"));
    }
    let mut summary = MatchSummary::default();
    let workers = cfg.concurrency.max(1).min(cfg.games.max(1));
    // The main thread hands out game numbers one at a time, so that no game starts after the
    // SPRT has decided; workers exit when the job channel closes.
    let (job_tx, job_rx) = mpsc::channel::<usize>();
    let job_rx = Mutex::new(job_rx);
    let mut job_tx = Some(job_tx);
    std::thread::scope(|scope| -> Result<()> {
        let (tx, rx) = mpsc::channel::<Result<GameRecord>>();
        for _ in 0..workers {
            let tx = tx.clone();
            let job_rx = &job_rx;
            std::thread::Builder::new()
                .stack_size(GAME_THREAD_STACK)
                .spawn_scoped(scope, move || loop {
                    let job = job_rx.lock().map(|rx| rx.recv());
                    let Ok(Ok(i)) = job else { break };
                    let opening = &cfg.openings[(i / 2) % cfg.openings.len()];
                    let e1_black = i % 2 == 0;
                    let (b, w) = if e1_black {
                        (&cfg.engines[0], &cfg.engines[1])
                    } else {
                        (&cfg.engines[1], &cfg.engines[0])
                    };
                    let r = play_game(&cfg.game, b, w, opening, i + 1, e1_black);
                    if tx.send(r).is_err() {
                        break;
                    }
                })
                .context("spawning a game thread")?;
        }
        drop(tx);
        let result = collect_results(cfg, out, &rx, job_tx.as_ref(), workers, &mut summary);
        // Closing the job channel lets every worker exit (the scope joins them).
        drop(job_tx.take());
        result
    })?;
    Ok(summary)
}

/// Hand out games to the workers and record their results until all are done or the SPRT
/// decides.
fn collect_results(
    cfg: &MatchConfig,
    out: &mut dyn Write,
    rx: &mpsc::Receiver<Result<GameRecord>>,
    job_tx: Option<&mpsc::Sender<usize>>,
    workers: usize,
    summary: &mut MatchSummary,
) -> Result<()> {
    let e1 = cfg.engines[0].name.clone();
    let mut pending = HashMap::new();
    let mut next = 0;
    let mut running = 0;
    let give = |next: &mut usize, running: &mut usize| -> Result<()> {
        if let Some(tx) = job_tx {
            tx.send(*next).context("game threads stopped")?;
            *next += 1;
            *running += 1;
        }
        Ok(())
    };
    while next < workers.min(cfg.games) {
        give(&mut next, &mut running)?;
    }
    while running > 0 {
        let rec = rx.recv().context("game threads stopped")??;
        running -= 1;
        if let Some(dir) = &cfg.out_dir {
            save_records(dir, &rec)?;
        }
        summary.add(rec, &mut pending, cfg.game.turn_ms);
        let last = summary.records.last().expect("just added");
        let line = progress_line(last, cfg.games, summary, &e1);
        writeln!(out, "{line}")?;
        out.flush()?;
        let mut decided = false;
        if let Some(sprt) = &cfg.sprt {
            let llr = match cfg.sprt_model {
                SprtModel::Trinomial => sprt.llr_trinomial(&summary.wld),
                SprtModel::Pentanomial => sprt.llr_pentanomial(&summary.penta),
            };
            let d = sprt.decide(llr);
            summary.sprt = Some((llr, d));
            decided = d != SprtDecision::Continue;
        }
        if !decided && next < cfg.games {
            give(&mut next, &mut running)?;
        }
    }
    Ok(())
}

/// Format a signed Elo figure (±inf for a perfect score).
fn elo_str(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // -0.0 (score exactly one half) prints as +0.0
        format!("{:+.1}", e + 0.0)
    }
}

/// The final report: W-L-D, score, Elo ± 95 %, LOS, reasons, SPRT.
#[must_use]
pub fn summary_text(cfg: &MatchConfig, sum: &MatchSummary) -> String {
    let w = &sum.wld;
    let e = w.elo();
    let mut s = format!(
        "Result {} vs {}: W-L-D {}-{}-{} ({} games), score {:.1}/{} = {:.3}\n",
        cfg.engines[0].name,
        cfg.engines[1].name,
        w.wins,
        w.losses,
        w.draws,
        w.games(),
        w.score() * f64::from(w.games()),
        w.games(),
        w.score()
    );
    let margin = if e.margin().is_finite() {
        format!("{:.1}", e.margin())
    } else {
        "inf".into()
    };
    s += &format!(
        "Elo difference {} ± {margin} (95% interval {} .. {}), LOS {:.1}%\n",
        elo_str(e.elo),
        elo_str(e.lower),
        elo_str(e.upper),
        100.0 * w.los()
    );
    s += &format!("Pairs (pentanomial 0..2 points): {:?}", sum.penta);
    if let Some(p) = penta_elo(&sum.penta) {
        let m = if p.margin().is_finite() {
            format!("{:.1}", p.margin())
        } else {
            "inf".into()
        };
        s += &format!(
            ", Elo from pairs {} ± {m} ({} .. {})",
            elo_str(p.elo),
            elo_str(p.lower),
            elo_str(p.upper)
        );
    }
    s += "\n";
    let reasons: Vec<String> = sum
        .reasons
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    for (e, t) in cfg.engines.iter().zip(&sum.times) {
        let avg = t.total_ms.checked_div(t.moves).unwrap_or(0);
        s += &format!(
            "Time {}: {} moves, average {avg} ms, longest {} ms, {} over the turn limit\n",
            e.name, t.moves, t.max_ms, t.over_turn
        );
    }
    s += &format!(
        "Ends: {} ({} not decided on the board)\n",
        reasons.join(", "),
        sum.failures
    );
    if let (Some(sprt), Some((llr, d))) = (&cfg.sprt, sum.sprt) {
        let verdict = match d {
            SprtDecision::H0 => "H0 accepted",
            SprtDecision::H1 => "H1 accepted",
            SprtDecision::Continue => "no decision",
        };
        s += &format!(
            "SPRT elo0 {} elo1 {} alpha {} beta {} ({:?}): LLR {llr:.3} bounds [{:.3}, {:.3}] {verdict}\n",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            cfg.sprt_model,
            sprt.lower_bound(),
            sprt.upper_bound()
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arbiter::record::{Outcome, Reason, TimedMove};
    use crate::types::{Pos, Rule};

    fn rec(number: usize, engine1_black: bool, outcome: Outcome) -> GameRecord {
        let ms = [0, 10, 20, 30, 40];
        GameRecord {
            number,
            black: "b".into(),
            white: "w".into(),
            engine1_black,
            rule: Rule::Freestyle,
            size: 15,
            opening_source: "t".into(),
            opening_len: 1,
            moves: ms
                .iter()
                .enumerate()
                .map(|(i, &ms)| TimedMove {
                    pos: Pos::new(i, 0),
                    ms,
                })
                .collect(),
            outcome,
            reason: Reason::Five,
        }
    }

    #[test]
    fn summary_scores_pairs_and_charges_times_to_the_right_engine() {
        let mut sum = MatchSummary::default();
        let mut pending = HashMap::new();
        // Game 1: engine 1 black, black wins. Game 2 (same pair): engine 1 white, black wins.
        sum.add(rec(1, true, Outcome::BlackWins), &mut pending, 25);
        assert_eq!(sum.penta, [0; 5]);
        sum.add(rec(2, false, Outcome::BlackWins), &mut pending, 25);
        assert_eq!(
            sum.wld,
            Wld {
                wins: 1,
                losses: 1,
                draws: 0
            }
        );
        assert_eq!(sum.penta, [0, 0, 1, 0, 0]);
        // Moves after the opening: index 1 (white, 10 ms), 2 (black, 20), 3 (white, 30),
        // 4 (black, 40). Engine 1 was black once and white once.
        let expect = MoveTimes {
            moves: 4,
            total_ms: 100,
            max_ms: 40,
            // 30 and 40 ms are over the 25 ms turn limit.
            over_turn: 2,
        };
        assert_eq!(sum.times, [expect, expect]);
        sum.add(rec(3, false, Outcome::Draw), &mut pending, 0);
        assert_eq!(
            sum.times[0],
            MoveTimes {
                moves: 6,
                total_ms: 140,
                max_ms: 40,
                // The third game had no turn limit: nothing more is over it.
                over_turn: 2,
            }
        );
        assert_eq!(
            sum.times[1],
            MoveTimes {
                moves: 6,
                total_ms: 160,
                max_ms: 40,
                over_turn: 2,
            }
        );
        assert_eq!(sum.wld.draws, 1);
        assert_eq!(sum.reasons.get("five"), Some(&3));
    }
}
