//! Lazy SMP: searches with helper threads (`Searcher::with_threads`). The thread counts
//! are set on the searcher directly, so these run with helpers even on a one-core
//! machine, where `INFO thread_num` would be capped to 1. The only time bound is a
//! generous one on how soon a raised stop flag ends the search.

mod common;

use common::fixed_limits;
use sente::bench::{board_from, parse_moves, BENCH_POSITIONS};
use sente::board::Board;
use sente::engine::{tt_bytes_for, HELPER_MEMORY, NON_TT_MEMORY};
use sente::search::params::SearchParams;
use sente::search::{SearchResult, Searcher};
use sente::time::SearchLimits;
use sente::types::{is_mate, Pos, Rule};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn moves(s: &str) -> Vec<Pos> {
    parse_moves(s).expect("moves parse")
}

fn search(b: &mut Board, threads: usize, params: &SearchParams, l: &SearchLimits) -> SearchResult {
    let mut s = Searcher::with_threads(8 << 20, params.clone(), threads);
    s.go(b, l, None, &mut |_| {})
}

fn assert_legal(b: &mut Board, r: &SearchResult, what: &str) {
    assert!(r.best.is_some(), "{what}: no move");
    assert!(b.is_empty(r.best), "{what}: {} is occupied", r.best);
    assert!(b.is_legal(r.best), "{what}: {} is not legal", r.best);
}

/// Every bench position (freestyle 15 and 20, standard, renju), with 2 and 4 threads,
/// to a fixed depth and within 150 ms: a legal move from a completed iteration, and the
/// board left as it was.
#[test]
fn a_multi_threaded_search_returns_a_legal_move() {
    let params = SearchParams::default();
    for threads in [2, 4] {
        for (i, &(size, rule, m)) in BENCH_POSITIONS.iter().enumerate() {
            let mut b = board_from(size, rule, &moves(m)).expect("legal position");
            let history = b.history().to_vec();
            let what = format!("position {} with {threads} threads", i + 1);
            let r = search(&mut b, threads, &params, &fixed_limits(7, None));
            assert_legal(&mut b, &r, &what);
            assert_eq!(r.depth, 7, "{what}");
            let timed = SearchLimits::fixed(Duration::from_millis(150), Instant::now());
            let r = search(&mut b, threads, &params, &timed);
            assert_legal(&mut b, &r, &format!("{what}, 150 ms"));
            assert_eq!(b.history(), history.as_slice(), "{what}: board changed");
        }
    }
}

/// A helper searches a copy of the board (`Board::duplicate`): with the learned
/// evaluation (`eval=learned`, whose cell value sums the board keeps) the copy must keep
/// those sums, or every helper would evaluate with the threat term alone.
#[test]
fn a_helpers_board_copy_evaluates_as_the_original() {
    let mut params = SearchParams::default();
    params.apply("eval=learned").unwrap();
    for &(size, rule, m) in &BENCH_POSITIONS {
        let mut b = board_from(size, rule, &moves(m)).expect("legal position");
        sente::eval::prepare(&mut b, &params.eval);
        let mut c = b.duplicate();
        assert_eq!(c.history(), b.history());
        assert_eq!(c.key(), b.key());
        assert_eq!(
            sente::eval::evaluate(&mut c, &params.eval),
            sente::eval::evaluate(&mut b, &params.eval),
            "{rule:?} {size}: {m}"
        );
    }
    // And a search with helpers under it plays a legal move of a completed iteration.
    let mut b = board_from(15, Rule::Renju, &moves(BENCH_POSITIONS[7].2)).unwrap();
    let r = search(&mut b, 3, &params, &fixed_limits(6, None));
    assert_legal(&mut b, &r, "learned evaluation, 3 threads");
    assert_eq!(r.depth, 6);
}

/// A search of three threads on an open position with 30 s to go: raised after
/// 100 ms, the stop flag ends it within 2 s (every helper joined, since `go` waits for
/// them), with a completed iteration's legal move; a flag raised before the search
/// ends it at once.
#[test]
fn a_multi_threaded_search_honours_the_stop_flag() {
    let mut params = SearchParams::default();
    // Without the root threat phase the iterative deepening starts at once.
    params.apply("threats=off").unwrap();
    for rule in [Rule::Freestyle, Rule::Renju] {
        let mut b = board_from(15, rule, &moves("7,7 8,8 6,8 8,6 8,7 6,6")).unwrap();
        let mut s = Searcher::with_threads(8 << 20, params.clone(), 3);
        let stop = Arc::new(AtomicBool::new(false));
        // 30 s: a helper that missed the flag would hold `go` until then.
        let limits = SearchLimits::fixed(Duration::from_secs(30), Instant::now());
        let raised = std::thread::scope(|sc| {
            let flag = Arc::clone(&stop);
            let raiser = sc.spawn(move || {
                std::thread::sleep(Duration::from_millis(100));
                flag.store(true, Ordering::SeqCst);
                Instant::now()
            });
            let r = s.go(&mut b, &limits, Some(Arc::clone(&stop)), &mut |_| {});
            let returned = Instant::now();
            let raised = raiser.join().unwrap();
            assert_legal(&mut b, &r, &format!("{rule:?}"));
            assert!(r.depth >= 1, "{rule:?}: no iteration in 100 ms");
            returned.saturating_duration_since(raised)
        });
        assert!(
            raised < Duration::from_secs(2),
            "{rule:?}: stopped {raised:?} after the flag"
        );
        // Raised before the search: it returns without searching on.
        let t = Instant::now();
        let r = s.go(&mut b, &limits, Some(Arc::clone(&stop)), &mut |_| {});
        assert!(t.elapsed() < Duration::from_secs(2));
        assert!(r.depth <= 1, "{rule:?}: searched on past a raised flag");
    }
}

/// A freestyle position where white wins in 15 plies (found by a 100 ms game search):
/// with the threat solvers off (and the move ordering this test was written with, no
/// `order_far`), one thread proves the win at depth 9; two and three threads at the
/// same depth must prove it too and play a move that wins, which a one-thread search
/// of the position after it confirms.
#[test]
fn a_multi_threaded_search_finds_the_forced_win_one_thread_finds() {
    let pos = "7,7 6,8 8,6 8,7 6,6 7,6 8,8 5,5 6,5 6,4 9,9 10,10 4,6 6,9 9,6 6,10 6,11 7,10 \
               9,8 9,7 11,8 8,10 9,10";
    let mut params = SearchParams::default();
    params.apply("threats=off,order_far=off").unwrap();
    let mut b = board_from(15, Rule::Freestyle, &moves(pos)).unwrap();
    let one = search(&mut b, 1, &params, &fixed_limits(9, None));
    assert!(is_mate(one.value) && one.value > 0, "one thread: {one:?}");
    for threads in [2, 3] {
        let r = search(&mut b, threads, &params, &fixed_limits(9, None));
        assert!(
            is_mate(r.value) && r.value > 0,
            "{threads} threads: no win ({r:?})"
        );
        assert_legal(&mut b, &r, &format!("{threads} threads"));
        // The move wins: the opponent, to move after it, is lost. A four leaves the
        // opponent one block, which the search plays at once without a value (no
        // nodes); then the winner, to move after the block, must still win.
        b.make(r.best);
        let reply = search(&mut b, 1, &params, &fixed_limits(9, None));
        let forced = reply.nodes == 0 && !is_mate(reply.value);
        if forced {
            b.make(reply.best);
            let again = search(&mut b, 1, &params, &fixed_limits(9, None));
            b.unmake();
            assert!(
                is_mate(again.value) && again.value > 0,
                "{threads} threads: {} then the block {} does not win ({again:?})",
                r.best,
                reply.best
            );
        }
        b.unmake();
        assert!(
            forced || (is_mate(reply.value) && reply.value < 0),
            "{threads} threads: {} does not win ({reply:?})",
            r.best
        );
    }
}

/// With helpers, the tables shrink so that the whole process stays within the memory
/// limit: tables, the rest of the process and each helper's own memory.
#[test]
fn tables_leave_room_for_every_helper_thread() {
    for limit in [67_108_864u64, 367_001_600, 2_147_483_647] {
        let one = tt_bytes_for(limit, None, 1);
        for threads in [2usize, 4, 8] {
            let t = tt_bytes_for(limit, None, threads) as u64;
            let helpers = (threads as u64 - 1) * HELPER_MEMORY;
            assert!(t + NON_TT_MEMORY + helpers <= limit, "{limit} {threads}");
            assert!(t as usize <= one, "{limit} {threads}");
            // The split inside the searcher adds up to the budget too.
            let s = Searcher::with_threads(t as usize, SearchParams::default(), threads);
            assert_eq!(s.threads(), threads);
            assert!(s.tt_bytes() as u64 <= t + 128 * 1024, "{limit} {threads}");
        }
    }
}

/// `selfplay --threads-a 2`: a node-limited match between a two-thread and a
/// one-thread player plays every game (node counts with helpers vary, so only the
/// game count is checked).
#[test]
fn selfplay_runs_a_side_with_helper_threads() {
    let args: Vec<String> = [
        "--games",
        "2",
        "--nodes",
        "4000",
        "--size",
        "11",
        "--threads-a",
        "2",
    ]
    .iter()
    .map(|s| (*s).to_string())
    .collect();
    assert_eq!(sente::selfplay::cli(&args), 0);
    let bad: Vec<String> = ["--threads-b", "0"]
        .iter()
        .map(|s| (*s).to_string())
        .collect();
    assert_eq!(sente::selfplay::cli(&bad), 2);
}
