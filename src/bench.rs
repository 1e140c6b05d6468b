//! Benchmarks printed by `pbrain-sente bench…` subcommands (figures belong here, never
//! in timed tests).

use crate::board::Board;
use crate::types::{Pos, Rule};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// Make+undo throughput on random mid-game 15×15 positions with full incremental
/// pattern updates. Returns the report lines; the last is
/// `Board: <pairs/s median> make+undo pairs/s ...`, the median over 5 rounds of pairs per
/// second of this thread's CPU time (wall-clock time where /proc is unavailable), so
/// that other processes on a shared machine disturb the figure less. Only the make+undo
/// loops are timed, not setting up the positions.
#[must_use]
pub fn board_bench(rule: Rule, shuffled: bool) -> Vec<String> {
    let mut rng = StdRng::seed_from_u64(20_261_122);
    let mut out = Vec::new();
    // 32 positions of 20..40 random stones near each other, with their candidate moves.
    let mut setups: Vec<(Vec<Pos>, Vec<Pos>)> = Vec::new();
    let mut cands = Vec::new();
    while setups.len() < 32 {
        let mut b = Board::new(15, 15, rule).expect("15x15");
        let n = rng.gen_range(20..40);
        let mut moves = Vec::new();
        while moves.len() < n {
            b.candidates(&mut cands);
            let p = cands[rng.gen_range(0..cands.len())];
            if b.pattern4(p, b.side_to_move()) == crate::pattern::Pattern4::Five {
                continue;
            }
            b.make(p);
            moves.push(p);
        }
        b.candidates(&mut cands);
        setups.push((moves, cands.clone()));
    }
    let mut rates = Vec::new();
    for round in 0..5 {
        let mut pairs = 0u64;
        let (mut secs, mut cpu_secs) = (0.0f64, 0.0f64);
        for (moves, cand) in &setups {
            // The 200 passes over the candidates, each in its own random order when
            // `shuffled` (drawn before the clock starts).
            let order: Vec<Vec<Pos>> = (0..200)
                .map(|_| {
                    let mut o = cand.clone();
                    if shuffled {
                        o.shuffle(&mut rng);
                    }
                    o
                })
                .collect();
            let mut b = Board::new(15, 15, rule).expect("15x15");
            for &m in moves {
                b.make(m);
            }
            let start = Instant::now();
            let cpu_start = thread_cpu_ns();
            for pass in &order {
                for &c in pass {
                    b.make(c);
                    b.unmake();
                }
            }
            let wall = start.elapsed().as_secs_f64();
            secs += wall;
            cpu_secs += match (cpu_start, thread_cpu_ns()) {
                (Some(a), Some(b)) if b > a => (b - a) as f64 * 1e-9,
                _ => wall,
            };
            pairs += 200 * cand.len() as u64;
        }
        let rate = pairs as f64 / cpu_secs;
        out.push(format!(
            "round {round}: {pairs} pairs in {:.1} ms CPU ({:.1} ms wall) = {:.0} pairs/s",
            cpu_secs * 1e3,
            secs * 1e3,
            rate
        ));
        rates.push(rate);
    }
    rates.sort_by(f64::total_cmp);
    out.push(format!(
        "Board: {:.0} make+undo pairs/s (median of 5, per CPU second, {})",
        rates[2],
        rule.name()
    ));
    out
}

/// The search bench positions: (board size, rule, moves as `x,y` in play order).
///
/// These are the 10 positions of Rapfi's built-in `bench` (dhbloo/rapfi,
/// `Rapfi/command/benchmark.cpp`, table `benchSet`, commit 3aedf3a2; GPL-3.0 data table,
/// copied via ../shared/data/rapfi_bench_positions): freestyle 15 and 20, standard, renju.
pub const BENCH_POSITIONS: [(usize, Rule, &str); 10] = [
    (15, Rule::Freestyle, "7,7 6,6 5,5 6,7 6,8"),
    (15, Rule::Freestyle, "7,1 7,4 7,3 5,5"),
    (20, Rule::Freestyle, "4,1 5,1 7,2 6,2 6,5 7,4 5,8"),
    (
        20,
        Rule::Freestyle,
        "5,4 4,2 1,6 7,4 6,2 6,3 8,5 4,3 7,3 3,3 5,1 8,4 5,3 5,5 4,4 3,5 3,6 4,6 5,7",
    ),
    (15, Rule::Standard, "7,7 7,6 9,5 8,6 5,6"),
    (15, Rule::Standard, "5,5 8,8 7,7"),
    (15, Rule::Standard, "1,2 10,9 6,1 5,5"),
    (15, Rule::Renju, "7,7 8,8 9,9 8,7 8,6 6,8"),
    (
        15,
        Rule::Renju,
        "7,7 7,8 9,8 9,7 5,7 8,6 6,6 8,8 7,5 4,8 5,5 10,6 11,5 8,9 8,5 5,8 6,8 6,10 7,9 8,10 8,7",
    ),
    (15, Rule::Renju, "7,7 7,8 7,5 8,9 8,5 8,8 6,8 6,7 9,10 8,6"),
];

/// Depth of the search bench (14 since the logarithmic reductions: at 10 the search took
/// under half of the bench's time, the rest was the root threat phase, whose defence
/// checks are not counted as nodes).
pub const BENCH_DEPTH: i32 = 14;
/// Transposition table of the search bench (bytes).
pub const BENCH_TT_BYTES: usize = 16 << 20;
/// The bench searches to a fixed depth without a clock, but gives the root threat phase
/// the node budgets it has in a move with this `timeout_turn` (ms): without a clock it
/// would get the full budgets of the parameters, about ten times what it gets in such a
/// game move, and the bench would mostly time the threat solvers' defence searches.
pub const BENCH_THREAT_TURN_MS: i64 = 1000;

/// `params` with the root threat budgets cut to those of a move with `timeout_turn`
/// `turn_ms` and no match clock (see [`BENCH_THREAT_TURN_MS`]).
#[must_use]
pub fn with_turn_threat_budgets(
    params: &crate::search::params::SearchParams,
    turn_ms: i64,
) -> crate::search::params::SearchParams {
    use crate::time::{SearchLimits, TimeSettings};
    let settings = TimeSettings {
        turn_ms: Some(turn_ms),
        ..TimeSettings::default()
    };
    let limits = SearchLimits::from_settings(&settings, 0, Instant::now());
    let (b, _) = crate::search::root_threat_budgets(params, &limits);
    let mut p = params.clone();
    p.root_vcf_nodes = b.vcf_nodes;
    p.root_vct_nodes = b.vct_nodes;
    p.defence_vcf_nodes = b.def_vcf;
    p.defence_vct_nodes = b.def_vct;
    p
}

/// Parse a move list of `x,y` items separated by spaces.
#[must_use]
pub fn parse_moves(s: &str) -> Option<Vec<Pos>> {
    s.split_whitespace()
        .map(|t| {
            let (x, y) = t.split_once(',')?;
            Pos::try_new(x.trim().parse().ok()?, y.trim().parse().ok()?)
        })
        .collect()
}

/// A board of `size` under `rule` with `moves` played (checked).
#[must_use]
pub fn board_from(size: usize, rule: Rule, moves: &[Pos]) -> Option<Board> {
    let mut b = Board::new(size, size, rule).ok()?;
    for &m in moves {
        if b.play(m) != Ok(crate::board::MoveOutcome::Continue) {
            return None;
        }
    }
    Some(b)
}

/// Search every bench position to `depth` with a fresh 16 MB table on one thread, with
/// the search parameters `spec` (`SearchParams::apply` syntax, "" = defaults) and the
/// root threat budgets of a 1 s move ([`BENCH_THREAT_TURN_MS`]).
/// Returns the report lines; the last is `Bench: <nodes> nodes <nps> nps <ms> ms`, and
/// the node count is the same on every run and machine.
#[must_use]
pub fn search_bench(depth: i32, spec: &str) -> Vec<String> {
    use crate::search::{params::SearchParams, Searcher};
    use crate::time::SearchLimits;
    let mut out = Vec::new();
    let mut params = SearchParams::default();
    if let Err(e) = params.apply(spec) {
        return vec![format!("bad parameters: {e}")];
    }
    let params = with_turn_threat_budgets(&params, BENCH_THREAT_TURN_MS);
    let mut total_nodes = 0u64;
    let mut threat_ns = 0u64;
    // Build the rule tables before the clock starts.
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let _ = Board::new(15, 15, rule);
    }
    let mut wall = std::time::Duration::ZERO;
    let mut cpu_spent = 0u64;
    for (i, &(size, rule, moves)) in BENCH_POSITIONS.iter().enumerate() {
        let moves = parse_moves(moves).expect("bench moves parse");
        let mut b = board_from(size, rule, &moves).expect("bench position is legal");
        let mut s = Searcher::new(BENCH_TT_BYTES, params.clone());
        // Warm like the engine's table after it waited for input (`Engine::prefault`).
        while s.prefault(usize::MAX) {}
        let mut limits =
            SearchLimits::fixed(std::time::Duration::from_secs(86_400), Instant::now());
        limits.max_depth = Some(depth);
        if params.threats {
            // The root threat phase alone, on a fresh searcher (same work as in the
            // search below), timed in this thread's CPU time.
            let mut alone = Searcher::new(BENCH_TT_BYTES, params.clone());
            let t = thread_cpu_ns();
            let _ = alone.threat_phase(&mut b, &limits);
            if let (Some(a), Some(z)) = (t, thread_cpu_ns()) {
                threat_ns += z.saturating_sub(a);
            }
        }
        let t0 = Instant::now();
        let c0 = thread_cpu_ns();
        let r = s.go(&mut b, &limits, None, &mut |_| {});
        if let (Some(a), Some(z)) = (c0, thread_cpu_ns()) {
            cpu_spent += z.saturating_sub(a);
        }
        wall += t0.elapsed();
        total_nodes += r.nodes;
        out.push(format!(
            "position {:2} ({} {}): depth {} value {} best {} nodes {} time {} ms",
            i + 1,
            rule.name(),
            size,
            r.depth,
            r.value,
            r.best,
            r.nodes,
            t0.elapsed().as_millis()
        ));
    }
    // Wall time of the searches only (not of the separately timed threat phase).
    let ms = wall.as_millis().max(1);
    let nps = u128::from(total_nodes) * 1000 / ms;
    if cpu_spent > 0 {
        let cpu = u128::from(cpu_spent / 1_000_000).max(1);
        out.push(format!(
            "CPU: {cpu} ms, {} nodes per CPU second (wall-clock nps below is lower on a loaded machine)",
            u128::from(total_nodes) * 1000 / cpu
        ));
        // The root threat phase's defence searches are not all counted as nodes.
        let threat = u128::from(threat_ns / 1_000_000);
        out.push(format!(
            "Root threat phase: {threat} CPU ms; the rest of the search: {} nodes per CPU second",
            u128::from(total_nodes) * 1000 / cpu.saturating_sub(threat).max(1)
        ));
    }
    out.push(format!("Bench: {total_nodes} nodes {nps} nps {ms} ms"));
    out
}

/// The search bench's positions with `threads` search threads (Lazy SMP): each is
/// searched to `depth` by the main thread with a fresh 16 MB table, as in
/// [`search_bench`] (parameters `spec`, the threat budgets of a 1 s move). The node
/// counts are those of every thread and vary from run to run. Returns the report
/// lines; the last is `Bench-threads: <n> threads <nodes> nodes <nps> nps <ms> ms`,
/// the total node rate over the searches' wall-clock time.
#[must_use]
pub fn threads_bench(threads: usize, depth: i32, spec: &str) -> Vec<String> {
    use crate::search::{params::SearchParams, Searcher};
    use crate::time::SearchLimits;
    let mut out = Vec::new();
    let mut params = SearchParams::default();
    if let Err(e) = params.apply(spec) {
        return vec![format!("bad parameters: {e}")];
    }
    let params = with_turn_threat_budgets(&params, BENCH_THREAT_TURN_MS);
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let _ = Board::new(15, 15, rule);
    }
    let threads = threads.max(1);
    let mut total_nodes = 0u64;
    let mut wall = std::time::Duration::ZERO;
    let mut cpu_ms = Some(0u64);
    for (i, &(size, rule, moves)) in BENCH_POSITIONS.iter().enumerate() {
        let moves = parse_moves(moves).expect("bench moves parse");
        let mut b = board_from(size, rule, &moves).expect("bench position is legal");
        let mut s = Searcher::with_threads(BENCH_TT_BYTES, params.clone(), threads);
        while s.prefault(usize::MAX) {}
        let mut limits =
            SearchLimits::fixed(std::time::Duration::from_secs(86_400), Instant::now());
        limits.max_depth = Some(depth);
        let t0 = Instant::now();
        let c0 = process_cpu_ms();
        let r = s.go(&mut b, &limits, None, &mut |_| {});
        let took = t0.elapsed();
        wall += took;
        cpu_ms = match (cpu_ms, c0, process_cpu_ms()) {
            (Some(sum), Some(a), Some(z)) => Some(sum + z.saturating_sub(a)),
            _ => None,
        };
        total_nodes += r.nodes;
        out.push(format!(
            "position {:2} ({} {}): depth {} value {} best {} nodes {} time {} ms",
            i + 1,
            rule.name(),
            size,
            r.depth,
            r.value,
            r.best,
            r.nodes,
            took.as_millis()
        ));
    }
    let ms = wall.as_millis().max(1);
    let nps = u128::from(total_nodes) * 1000 / ms;
    if let Some(cpu) = cpu_ms {
        // How many cores the threads got on average (the rest went to other processes).
        out.push(format!(
            "CPU: {cpu} ms of the process in {ms} ms = {:.2} cores busy, {} nodes per CPU second",
            cpu as f64 / ms as f64,
            u128::from(total_nodes) * 1000 / u128::from(cpu.max(1))
        ));
    }
    out.push(format!(
        "Bench-threads: {threads} threads {total_nodes} nodes {nps} nps {ms} ms"
    ));
    out
}

/// Search an early 15×15 freestyle position for `ms` milliseconds with the search
/// parameters `spec` (`SearchParams::apply` syntax, "" = defaults) and report the depth
/// reached per iteration; the last line is `Depth: <d> in <ms> ms (<nodes> nodes)`.
#[must_use]
pub fn depth_bench(ms: u64, spec: &str) -> Vec<String> {
    use crate::search::{params::SearchParams, Searcher};
    use crate::time::SearchLimits;
    let moves = parse_moves(BENCH_POSITIONS[0].2).expect("moves");
    let mut b = board_from(15, Rule::Freestyle, &moves).expect("legal");
    let mut params = SearchParams::default();
    if let Err(e) = params.apply(spec) {
        return vec![format!("bad parameters: {e}")];
    }
    let mut s = Searcher::new(crate::search::DEFAULT_TT_BYTES, params);
    // The engine faults its table in while it waits for input (`Engine::prefault`), so
    // a game move finds it warm: so does this one.
    while s.prefault(usize::MAX) {}
    let limits = SearchLimits::fixed(std::time::Duration::from_millis(ms), Instant::now());
    let mut out = Vec::new();
    let r = s.go(&mut b, &limits, None, &mut |info| {
        out.push(format!(
            "depth {} seldepth {} value {} nodes {} time {} ms pv {}",
            info.depth,
            info.seldepth,
            info.value,
            info.nodes,
            info.time_ms,
            info.pv
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        ));
    });
    out.push(format!(
        "Depth: {} in {} ms ({} nodes, best {})",
        r.depth,
        limits.elapsed().as_millis(),
        r.nodes,
        r.best
    ));
    out
}

/// Time to build each rule's pattern tables from scratch (they are built when a game
/// with that rule starts, so the build counts against the first move): median of 9
/// builds per rule; the last line is `Tables: <max median> ms`.
#[must_use]
pub fn tables_bench() -> Vec<String> {
    let mut out = Vec::new();
    let mut worst = 0.0f64;
    for rule in Rule::ALL {
        let mut ms: Vec<f64> = (0..9)
            .map(|_| {
                let t = Instant::now();
                let tables = crate::pattern::RuleTables::build(rule);
                let took = t.elapsed().as_secs_f64() * 1000.0;
                assert_eq!(tables.rule, rule);
                took
            })
            .collect();
        ms.sort_by(f64::total_cmp);
        let med = ms[ms.len() / 2];
        worst = worst.max(med);
        out.push(format!(
            "{:10} {med:6.2} ms (median of 9)",
            format!("{rule:?}")
        ));
    }
    out.push(format!("Tables: {worst:.2} ms"));
    out
}

/// CPU time this thread has run, in ns, from `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`
/// (Linux only; `None` elsewhere or on failure).
///
/// Not from /proc/thread-self/schedstat: the kernel brings a running thread's total
/// up to date only at scheduler events (ticks, switches), so that a thread reading its
/// own total got a value up to a tick old; intervals of a few ms (a `bench-board`
/// position) then came out tens of per cent too long or too short, depending on how
/// they fell against the ticks (the "slow mode" of that bench: CPU time 40 % above the
/// wall-clock time of the same interval). The clock call updates the total first.
#[must_use]
pub fn thread_cpu_ns() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `clock_gettime` with a valid clock id writes one `timespec` through
        // the pointer, which points to one that lives across the call.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &raw mut ts) };
        if rc != 0 {
            return None;
        }
        u64::try_from(ts.tv_sec)
            .ok()?
            .checked_mul(1_000_000_000)?
            .checked_add(u64::try_from(ts.tv_nsec).ok()?)
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// CPU time (user + system) of this process in ms, from /proc (Linux only).
#[must_use]
pub fn process_cpu_ms() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks * 10)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{params::SearchParams, root_threat_budgets};
    use crate::time::{SearchLimits, TimeSettings};

    /// The thread CPU clock is up to date when read: over an interval of busy work that
    /// lies inside a wall-clock interval it counts no more than that interval (the
    /// schedstat total it replaced could count a tick more), and it advances. A 2 %
    /// allowance covers any rate difference between the scheduler's clock and the
    /// monotonic one; the schedstat error was a tick (1-4 ms) on 2 ms intervals.
    #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
    #[test]
    fn thread_cpu_time_of_busy_work_fits_inside_its_wall_time() {
        for _ in 0..20 {
            let wall = Instant::now();
            let a = thread_cpu_ns().expect("thread CPU clock");
            let mut x = 0u64;
            while wall.elapsed() < std::time::Duration::from_millis(2) {
                x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005) + 1);
            }
            let z = thread_cpu_ns().expect("thread CPU clock");
            let wall_ns = u64::try_from(wall.elapsed().as_nanos()).expect("short");
            assert!(z > a, "the clock did not advance over busy work");
            assert!(
                z - a <= wall_ns + wall_ns / 50,
                "{} ns CPU in {wall_ns} ns wall",
                z - a
            );
        }
    }

    #[test]
    fn bench_threat_budgets_are_those_of_a_move_with_that_turn_time() {
        let params = SearchParams::default();
        for turn in [200, BENCH_THREAT_TURN_MS, 5000] {
            let settings = TimeSettings {
                turn_ms: Some(turn),
                ..TimeSettings::default()
            };
            let in_game = SearchLimits::from_settings(&settings, 0, Instant::now());
            let (want, _) = root_threat_budgets(&params, &in_game);
            // The bench has no clock: a day per move.
            let bench = SearchLimits::fixed(std::time::Duration::from_secs(86_400), Instant::now());
            let (got, _) = root_threat_budgets(&with_turn_threat_budgets(&params, turn), &bench);
            assert_eq!(got, want, "turn {turn}");
            let (unlimited, _) = root_threat_budgets(&params, &bench);
            assert!(got.vcf_nodes < unlimited.vcf_nodes, "turn {turn}");
        }
    }
}
