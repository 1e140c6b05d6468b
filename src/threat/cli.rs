//! `pbrain-sente solve` (solve positions read from stdin) and `pbrain-sente solve-bench`
//! (run the shared puzzle suites and print statistics). Developer tools: they print to
//! stdout, outside the protocol.

use super::vcf::VcfSolver;
use super::vct::VctSolver;
use super::ThreatResult;
use crate::board::Board;
use crate::types::{Color, Pos, Rule};
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Which solver a command runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Fours only.
    Vcf,
    /// Threes and fours.
    Vct,
}

/// Which VCT search the commands run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum VctAlgo {
    /// [`VctSolver::solve_portfolio`]: df-pn and depth-first in turns.
    Both,
    /// [`VctSolver::solve_dfpn`].
    Dfpn,
    /// [`VctSolver::solve_dfs`].
    Dfs,
}

/// Options of `solve`.
///
/// Why it exists: parsed once from argv, shared by `solve` and `solve-bench`.
#[derive(Clone, Debug)]
pub struct Options {
    /// Board side.
    pub size: usize,
    /// Rule set.
    pub rule: Rule,
    /// Solver.
    pub mode: Mode,
    /// Time limit per position, milliseconds.
    pub time_ms: u64,
    /// Ply limit (plies to the five).
    pub max_plies: i32,
    /// Time limit per VCT position in `solve-bench`, milliseconds.
    pub vct_time_ms: u64,
    /// Data directory for `solve-bench`.
    pub data: String,
    /// Suite filter for `solve-bench` (substring of the set name).
    pub only: Option<String>,
    /// VCT search: `dfpn` (default, [`VctSolver::solve`]), `dfs` or `both`.
    pub vct_algo: VctAlgo,
    /// Node limit per VCT position (`--vct-nodes`; a deterministic budget for comparing
    /// searches on a noisy machine), unlimited by default.
    pub vct_nodes: u64,
    /// Table budget of the VCT solver in MiB (`--hash-mb`).
    pub hash_mb: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            size: 15,
            rule: Rule::Renju,
            mode: Mode::Vcf,
            time_ms: 1000,
            vct_time_ms: 3000,
            max_plies: 199,
            data: "../shared/data".to_string(),
            only: None,
            vct_algo: VctAlgo::Dfpn,
            vct_nodes: u64::MAX,
            hash_mb: DEFAULT_VCT_MB,
        }
    }
}

/// Default table budget of the VCT solver in `solve` and `solve-bench`, MiB: its df-pn
/// table gets half (4 M entries), the inner VCF table a quarter. Larger tables lose
/// fewer proofs at 3 M nodes and more; since the solver prefetches its probes, their
/// cache misses no longer cost the node rate that bought (see RESULTS, threat rounds 10
/// and 11).
pub const DEFAULT_VCT_MB: usize = 256;

/// Parse `--size N --rule R --mode vcf|vct --time-ms T --vct-time-ms T --max-plies P
/// --data DIR --only S --vct-algo both|dfpn|dfs --vct-nodes N --hash-mb M`.
///
/// # Errors
/// Unknown option or bad value.
pub fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i].as_str();
        let val = args
            .get(i + 1)
            .cloned()
            .ok_or(format!("{key} needs a value"))?;
        let num = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("bad value for {key}: {v}"))
        };
        match key {
            "--size" => o.size = num(&val)? as usize,
            "--rule" => o.rule = Rule::parse(&val).ok_or(format!("bad rule {val}"))?,
            "--mode" => {
                o.mode = match val.as_str() {
                    "vcf" => Mode::Vcf,
                    "vct" => Mode::Vct,
                    _ => return Err(format!("bad mode {val}")),
                }
            }
            "--time-ms" => o.time_ms = num(&val)?,
            "--vct-time-ms" => o.vct_time_ms = num(&val)?,
            "--max-plies" => o.max_plies = num(&val)?.min(999) as i32,
            "--data" => o.data = val,
            "--only" => o.only = Some(val),
            "--vct-nodes" => o.vct_nodes = num(&val)?,
            "--hash-mb" => o.hash_mb = (num(&val)? as usize).clamp(1, 1 << 16),
            "--vct-algo" => {
                o.vct_algo = match val.as_str() {
                    "both" => VctAlgo::Both,
                    "dfpn" => VctAlgo::Dfpn,
                    "dfs" => VctAlgo::Dfs,
                    _ => return Err(format!("bad VCT search {val}")),
                }
            }
            _ => return Err(format!("unknown option {key}")),
        }
        i += 2;
    }
    Ok(o)
}

/// One position read from a line: the moves in play order and, if the line says so,
/// the side to move (the attacker).
///
/// Why it exists: `solve` accepts bare move lists and whole `positions.txt` lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionLine {
    /// Stones in play order (black, white, black, ...).
    pub moves: Vec<(i64, i64)>,
    /// Side to move if a field `black` / `white` was present.
    pub to_move: Option<Color>,
}

fn parse_xy(tok: &str) -> Option<(i64, i64)> {
    let (x, y) = tok.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

/// Parse one input line (`None` for blank and `#` comment lines). The moves are the
/// first tab-separated field whose tokens all look like `x,y`, apart from an optional
/// side word (`black` / `white`); a field that is only a side word also sets the side.
/// A line without such a field gives no moves, which `solve` reports as an error.
#[must_use]
pub fn parse_line(line: &str) -> Option<PositionLine> {
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') {
        return None;
    }
    let mut to_move = None;
    let mut moves = None;
    let side = |w: &str| match w.to_ascii_lowercase().as_str() {
        "black" => Some(Color::Black),
        "white" => Some(Color::White),
        _ => None,
    };
    for field in t.split('\t') {
        let f = field.trim();
        if let Some(c) = side(f) {
            to_move = to_move.or(Some(c));
        }
        if moves.is_none() {
            // A side word may also end a space-separated move list ("7,7 8,8 black").
            let mut field_side = None;
            let toks: Option<Vec<(i64, i64)>> = f
                .split_whitespace()
                .filter(|w| match side(w) {
                    Some(c) => {
                        field_side = field_side.or(Some(c));
                        false
                    }
                    None => true,
                })
                .map(parse_xy)
                .collect();
            if let Some(v) = toks {
                if !v.is_empty() {
                    moves = Some(v);
                    to_move = to_move.or(field_side);
                }
            }
        }
    }
    Some(PositionLine {
        moves: moves.unwrap_or_default(),
        to_move,
    })
}

/// Build the board of a position line.
///
/// # Errors
/// A move off the board or on an occupied square.
pub fn build_board(pl: &PositionLine, size: usize, rule: Rule) -> Result<Board, String> {
    let mut b = Board::new(size, size, rule).map_err(|e| e.to_string())?;
    for &(x, y) in &pl.moves {
        let p = b.pos(x, y).ok_or(format!("move {x},{y} off the board"))?;
        if !b.is_empty(p) {
            return Err(format!("move {x},{y} on an occupied square"));
        }
        b.make(p);
    }
    Ok(b)
}

/// Both solvers with their tables, reused across positions.
///
/// Why it exists: one object runs either mode under a wall-clock limit enforced by a
/// watchdog thread through the stop flag (the solvers never read the clock).
pub struct Runner {
    vcf: VcfSolver,
    vct: VctSolver,
    /// Which VCT search runs.
    pub vct_algo: VctAlgo,
    /// Node limit of each VCT search.
    pub vct_nodes: u64,
}

/// The answer to one position.
#[derive(Clone, Debug)]
pub struct Answer {
    /// Solver result.
    pub result: ThreatResult,
    /// Winning line if any.
    pub line: Vec<Pos>,
    /// Wall time, milliseconds.
    pub ms: f64,
    /// Nodes visited.
    pub nodes: u64,
}

impl Default for Runner {
    fn default() -> Self {
        Self::new()
    }
}

impl Runner {
    /// A VCF solver with a 64 MiB table and a VCT solver with [`DEFAULT_VCT_MB`].
    #[must_use]
    pub fn new() -> Runner {
        Runner::with_vct_mb(DEFAULT_VCT_MB)
    }

    /// A VCF solver with a 64 MiB table and a VCT solver with `vct_mb` MiB.
    #[must_use]
    pub fn with_vct_mb(vct_mb: usize) -> Runner {
        Runner {
            vcf: VcfSolver::new(64 << 20),
            vct: VctSolver::new(vct_mb << 20),
            vct_algo: VctAlgo::Dfpn,
            vct_nodes: u64::MAX,
        }
    }

    /// Solve `board` for `attacker` within `time_ms`. Tables are cleared first so every
    /// position is timed from scratch.
    pub fn solve(
        &mut self,
        board: &mut Board,
        attacker: Color,
        mode: Mode,
        max_plies: i32,
        time_ms: u64,
    ) -> Answer {
        let stop = AtomicBool::new(false);
        let done = AtomicBool::new(false);
        self.vcf.clear();
        self.vct.clear();
        let start = Instant::now();
        let (result, line, nodes) = std::thread::scope(|s| {
            s.spawn(|| {
                let deadline = start + Duration::from_millis(time_ms);
                while !done.load(Ordering::Relaxed) {
                    let now = Instant::now();
                    if now >= deadline {
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    std::thread::sleep((deadline - now).min(Duration::from_millis(2)));
                }
            });
            let out = match mode {
                Mode::Vcf => {
                    let r = self.vcf.solve(board, attacker, max_plies, u64::MAX, &stop);
                    (
                        r,
                        self.vcf.principal_line().to_vec(),
                        self.vcf.stats().nodes,
                    )
                }
                Mode::Vct => {
                    let v = &mut self.vct;
                    let n = self.vct_nodes;
                    let r = match self.vct_algo {
                        VctAlgo::Both => v.solve_portfolio(board, attacker, max_plies, n, &stop),
                        VctAlgo::Dfpn => v.solve_dfpn(board, attacker, max_plies, n, &stop),
                        VctAlgo::Dfs => v.solve_dfs(board, attacker, max_plies, n, &stop),
                    };
                    (
                        r,
                        self.vct.principal_line().to_vec(),
                        self.vct.stats().nodes,
                    )
                }
            };
            done.store(true, Ordering::Relaxed);
            out
        });
        Answer {
            result,
            line,
            ms: start.elapsed().as_secs_f64() * 1000.0,
            nodes,
        }
    }
}

fn format_answer(a: &Answer) -> String {
    match a.result {
        ThreatResult::Win { first, plies } => {
            let line: Vec<String> = a.line.iter().map(ToString::to_string).collect();
            format!("win {first} {plies} {:.1} {}", a.ms, line.join(" "))
        }
        ThreatResult::NoWin => format!("none {:.1}", a.ms),
        ThreatResult::Unknown => format!("unknown {:.1}", a.ms),
    }
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// `pbrain-sente solve [options]`: one answer line per stdin position, then a summary.
/// Returns the process exit code.
#[must_use]
pub fn run(args: &[String]) -> i32 {
    let o = match parse_options(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("solve: {e}");
            return 2;
        }
    };
    let mut runner = Runner::with_vct_mb(o.hash_mb);
    runner.vct_algo = o.vct_algo;
    runner.vct_nodes = o.vct_nodes;
    let mut times = Vec::new();
    let mut solved = 0;
    let mut total = 0;
    let mut nodes = 0u64;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let Some(pl) = parse_line(&line) else {
            continue;
        };
        total += 1;
        if pl.moves.is_empty() {
            println!("error no moves in line: {}", line.trim());
            continue;
        }
        let mut board = match build_board(&pl, o.size, o.rule) {
            Ok(b) => b,
            Err(e) => {
                println!("error {e}");
                continue;
            }
        };
        let attacker = pl.to_move.unwrap_or(board.side_to_move());
        let a = runner.solve(&mut board, attacker, o.mode, o.max_plies, o.time_ms);
        if a.result.is_win() {
            solved += 1;
        }
        times.push(a.ms);
        nodes += a.nodes;
        println!("{}", format_answer(&a));
    }
    let max = times.iter().copied().fold(0.0, f64::max);
    println!(
        "summary solved {solved}/{total} median_ms {:.1} max_ms {:.1} nodes {nodes}",
        median(&mut times),
        max
    );
    0
}

/// Statistics of one benchmark set.
#[derive(Default)]
struct SetStats {
    total: usize,
    wins: usize,
    times: Vec<f64>,
    over_1s: usize,
    nodes: u64,
    notes: Vec<String>,
}

impl SetStats {
    fn add(&mut self, a: &Answer) {
        self.total += 1;
        if a.result.is_win() {
            self.wins += 1;
        }
        if a.ms > 1000.0 {
            self.over_1s += 1;
        }
        self.times.push(a.ms);
        self.nodes += a.nodes;
    }

    fn report(&mut self, name: &str) -> String {
        let max = self.times.iter().copied().fold(0.0, f64::max);
        let total_ms: f64 = self.times.iter().sum();
        format!(
            "{name}: won {}/{} ({:.1}%) median_ms {:.1} max_ms {:.1} total_ms {:.0} over_1s {} nodes {}{}",
            self.wins,
            self.total,
            100.0 * self.wins as f64 / self.total.max(1) as f64,
            median(&mut self.times),
            max,
            total_ms,
            self.over_1s,
            self.nodes,
            if self.notes.is_empty() {
                String::new()
            } else {
                format!(" | {}", self.notes.join("; "))
            }
        )
    }
}

fn read_suite(path: &str) -> Vec<Vec<String>> {
    let Ok(text) = std::fs::read_to_string(path) else {
        println!("cannot read {path}");
        return Vec::new();
    };
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

fn color_of(s: &str) -> Color {
    if s == "white" {
        Color::White
    } else {
        Color::Black
    }
}

fn set_board(f: &[String]) -> Option<Board> {
    let pl = parse_line(&f[5])?;
    build_board(&pl, 15, Rule::Renju).ok()
}

/// `pbrain-sente solve-bench [options]` (see [`parse_options`]): run the lfz084, quintet
/// and mintaka suites and print one statistics line per set. `--time-ms` is the limit per
/// VCF position (default 1000), `--vct-time-ms` per VCT position (default 3000).
#[must_use]
pub fn bench(args: &[String]) -> i32 {
    let o = match parse_options(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("solve-bench: {e}");
            return 2;
        }
    };
    let mut runner = Runner::with_vct_mb(o.hash_mb);
    runner.vct_algo = o.vct_algo;
    runner.vct_nodes = o.vct_nodes;
    let want = |name: &str| o.only.as_deref().is_none_or(|s| name.contains(s));
    // lfz084: sets by id prefix.
    let mut sets: Vec<(String, SetStats)> = Vec::new();
    for f in read_suite(&format!("{}/lfz084_renju_puzzles/positions.txt", o.data)) {
        if f.len() < 6 {
            continue;
        }
        let set = f[0]
            .rsplit_once('_')
            .map_or(f[0].clone(), |(s, _)| s.to_string());
        if !want(&set) {
            continue;
        }
        let Some(mut b) = set_board(&f) else { continue };
        let (mode, t) = if f[4] == "VCF" {
            (Mode::Vcf, o.time_ms)
        } else {
            (Mode::Vct, o.vct_time_ms)
        };
        let a = runner.solve(&mut b, color_of(&f[3]), mode, o.max_plies, t);
        let i = match sets.iter().position(|(n, _)| *n == set) {
            Some(i) => i,
            None => {
                sets.push((set.clone(), SetStats::default()));
                sets.len() - 1
            }
        };
        if !a.result.is_win() {
            sets[i]
                .1
                .notes
                .push(format!("{} {}", f[0], format_answer(&a)));
        }
        sets[i].1.add(&a);
    }
    for (n, s) in &mut sets {
        println!("lfz084 {}", s.report(n));
    }
    // quintet: proven within limit / disproven never claimed.
    if want("quintet") {
        let mut s = SetStats::default();
        let (mut proven, mut proven_ok, mut disproven, mut false_claims) = (0, 0, 0, 0);
        for f in read_suite(&format!(
            "{}/quintet_renju_mate_bench/positions.txt",
            o.data
        )) {
            let Some(mut b) = set_board(&f) else { continue };
            let label: Vec<&str> = f[4].split_whitespace().collect();
            let limit: i32 = label
                .iter()
                .find_map(|t| t.strip_prefix("limit="))
                .and_then(|v| v.parse().ok())
                .unwrap_or(30);
            let mode = if label[0] == "vcf" {
                Mode::Vcf
            } else {
                Mode::Vct
            };
            let a = runner.solve(&mut b, color_of(&f[3]), mode, 2 * limit + 1, o.vct_time_ms);
            if label[1] == "proven" {
                proven += 1;
                if a.result.is_win() {
                    proven_ok += 1;
                } else {
                    s.notes.push(format!("{} {}", f[0], format_answer(&a)));
                }
            } else {
                disproven += 1;
                if a.result.is_win() {
                    false_claims += 1;
                    s.notes
                        .push(format!("CLAIMED {} {}", f[0], format_answer(&a)));
                }
            }
            s.add(&a);
        }
        println!(
            "quintet: proven found {proven_ok}/{proven}, disproven claimed as win {false_claims}/{disproven}; {}",
            s.report("all")
        );
    }
    if want("mintaka") {
        let mut s = SetStats::default();
        let (mut vcf, mut found, mut novcf, mut claimed) = (0, 0, 0, 0);
        for f in read_suite(&format!("{}/mintaka_renju_vcf_tests/positions.txt", o.data)) {
            let Some(mut b) = set_board(&f) else { continue };
            let a = runner.solve(&mut b, color_of(&f[3]), Mode::Vcf, o.max_plies, o.time_ms);
            if f[4] == "VCF" {
                vcf += 1;
                found += usize::from(a.result.is_win());
            } else {
                novcf += 1;
                claimed += usize::from(a.result.is_win());
            }
            s.notes.push(format!("{} {}", f[0], format_answer(&a)));
            s.add(&a);
        }
        println!(
            "mintaka: VCF found {found}/{vcf}, NO_VCF claimed {claimed}/{novcf}; {}",
            s.report("all")
        );
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_word_after_the_moves_sets_the_attacker() {
        let pl = parse_line("7,7 6,8 7,8 black").expect("a position");
        assert_eq!(pl.moves, vec![(7, 7), (6, 8), (7, 8)]);
        assert_eq!(pl.to_move, Some(Color::Black));
        let pl = parse_line("7,7 6,8 White").expect("a position");
        assert_eq!(pl.moves, vec![(7, 7), (6, 8)]);
        assert_eq!(pl.to_move, Some(Color::White));
    }

    #[test]
    fn positions_txt_line_gives_moves_and_side() {
        let line = "id_1\t15\trenju\twhite\tVCF\t7,7 8,8 9,9\th8 i7 j6\t-";
        let pl = parse_line(line).expect("a position");
        assert_eq!(pl.moves, vec![(7, 7), (8, 8), (9, 9)]);
        assert_eq!(pl.to_move, Some(Color::White));
    }

    #[test]
    fn hash_mb_sets_the_vct_table_budget_and_defaults_to_256() {
        let args = |v: &[&str]| v.iter().map(|s| (*s).to_string()).collect::<Vec<_>>();
        assert_eq!(parse_options(&args(&[])).map(|o| o.hash_mb), Ok(256));
        let o = parse_options(&args(&["--mode", "vct", "--hash-mb", "32"]));
        assert_eq!(o.map(|o| o.hash_mb), Ok(32));
        assert!(parse_options(&args(&["--hash-mb", "lots"])).is_err());
    }

    #[test]
    fn line_without_moves_gives_no_moves() {
        let pl = parse_line("7,7 banana 8,8").expect("not a comment");
        assert!(pl.moves.is_empty());
        assert_eq!(parse_line("# comment"), None);
        assert_eq!(parse_line("   "), None);
    }
}
