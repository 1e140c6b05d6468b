//! Behaviour of the search: TT round trips, tactical must-moves, legality, stopping
//! and determinism. No timing assertions: limits are depths and node counts.

mod common;
mod threat_support;

use common::{fixed_limits, search_spec};
use sente::board::Board;
use sente::engine::{tt_bytes_for, Engine, NON_TT_MEMORY};
use sente::pattern::Pattern4;
use sente::search::params::{Driver, SearchParams};
use sente::search::{SearchResult, Searcher};
use sente::tt::{Bound, Tt};
use sente::types::{mate_in, mated_in, Color, Pos, Rule};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use threat_support::diagram;

fn board(size: usize, rule: Rule, moves: &[(usize, usize)]) -> Board {
    let mut b = Board::new(size, size, rule).unwrap();
    for &(x, y) in moves {
        b.play(Pos::new(x, y)).unwrap();
    }
    b
}

fn search(b: &mut Board, depth: i32, params: SearchParams) -> SearchResult {
    let mut s = Searcher::new(1 << 20, params);
    s.go(b, &fixed_limits(depth, None), None, &mut |_| {})
}

fn both_drivers() -> [SearchParams; 2] {
    let mtdf = SearchParams::default();
    let pvs = SearchParams {
        driver: Driver::Pvs,
        ..SearchParams::default()
    };
    [mtdf, pvs]
}

#[test]
fn tt_returns_what_was_stored_and_mate_scores_survive_a_ply_shift() {
    let mut tt = Tt::new(1 << 16);
    let key = 0x1234_5678_9abc_def0;
    assert!(tt.probe(key, 0).is_none());
    tt.store(key, 3, 77, Pos::new(4, 5), 6, Bound::Lower);
    let h = tt.probe(key, 3).unwrap();
    assert_eq!(
        (h.value, h.best, h.depth, h.bound),
        (77, Pos::new(4, 5), 6, Bound::Lower)
    );
    // A win 5 plies after a node at ply 4 (mate_in(9) from the root) read back at ply 2
    // is a win 5 plies after that node: mate_in(7).
    tt.store(key, 4, mate_in(9), Pos::new(1, 1), 3, Bound::Exact);
    assert_eq!(tt.probe(key, 2).unwrap().value, mate_in(7));
    tt.store(key, 4, mated_in(10), Pos::NONE, 3, Bound::Upper);
    let h = tt.probe(key, 6).unwrap();
    assert_eq!(h.value, mated_in(12));
    assert_eq!(
        h.best,
        Pos::new(1, 1),
        "a store without a move keeps the old move"
    );
    tt.clear();
    assert!(tt.probe(key, 0).is_none());
}

#[test]
fn search_makes_five_when_it_can() {
    for params in both_drivers() {
        // Black (3..6, 7) four, open at 7,7; white to block elsewhere... black to move.
        let mut b = board(
            15,
            Rule::Freestyle,
            &[
                (3, 7),
                (3, 9),
                (4, 7),
                (4, 9),
                (5, 7),
                (5, 9),
                (6, 7),
                (10, 1),
            ],
        );
        let r = search(&mut b, 4, params);
        assert!(
            r.best == Pos::new(7, 7) || r.best == Pos::new(2, 7),
            "{:?}",
            r.best
        );
        assert_eq!(r.value, mate_in(1));
    }
}

#[test]
fn search_blocks_the_opponents_five_point() {
    for params in both_drivers() {
        // White has (3..6, 9) blocked on the left by black at (2,9); black to move.
        let mut b = board(
            15,
            Rule::Freestyle,
            &[
                (2, 9),
                (3, 9),
                (7, 7),
                (4, 9),
                (7, 6),
                (5, 9),
                (0, 14),
                (6, 9),
            ],
        );
        assert_eq!(b.side_to_move(), Color::Black);
        let r = search(&mut b, 5, params);
        assert_eq!(r.best, Pos::new(7, 9));
    }
}

#[test]
fn search_answers_an_open_three_before_it_becomes_an_open_four() {
    for params in both_drivers() {
        // Black has an open three (5..7, 7); white to move with nothing of its own.
        let mut b = board(
            15,
            Rule::Freestyle,
            &[(5, 7), (12, 2), (6, 7), (2, 12), (7, 7)],
        );
        assert_eq!(b.side_to_move(), Color::White);
        let r = search(&mut b, 6, params);
        let black_class = b.pattern4(r.best, Color::Black);
        assert!(
            black_class >= Pattern4::Block4,
            "{:?} does not stop the three ({black_class:?})",
            r.best
        );
        // After the reply black has no straight-four point left.
        b.make(r.best);
        assert_eq!(b.count(Color::Black, Pattern4::Flex4), 0);
    }
}

#[test]
fn search_wins_with_its_own_open_three_instead_of_defending() {
    // Both sides have an open three; black to move makes the straight four.
    let mut b = board(
        15,
        Rule::Freestyle,
        &[(5, 7), (5, 10), (6, 7), (6, 10), (7, 7), (7, 10)],
    );
    let r = search(&mut b, 5, SearchParams::default());
    assert_eq!(
        b.pattern4(r.best, Color::Black),
        Pattern4::Flex4,
        "{:?}",
        r.best
    );
    assert!(r.value >= mate_in(5));
}

/// A simple deterministic pseudo-random sequence (no dependence on rand's algorithms).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

#[test]
fn search_never_returns_an_occupied_or_forbidden_square() {
    let mut rng = Lcg(7);
    let mut cands = Vec::new();
    for game in 0..24 {
        let rule = [Rule::Renju, Rule::Freestyle, Rule::Standard][game % 3];
        let mut b = Board::new(15, 15, rule).unwrap();
        let n = 6 + rng.next(30);
        for _ in 0..n {
            b.candidates(&mut cands);
            let mut legal = Vec::new();
            for &p in &cands {
                if b.pattern4(p, b.side_to_move()) != Pattern4::Five && b.is_legal(p) {
                    legal.push(p);
                }
            }
            if legal.is_empty() {
                break;
            }
            let p = legal[rng.next(legal.len())];
            if b.play(p) != Ok(sente::board::MoveOutcome::Continue) {
                b.undo();
                break;
            }
        }
        let r = search(&mut b, 3, SearchParams::default());
        assert!(r.best.is_some());
        assert!(
            b.is_legal(r.best),
            "{rule:?} game {game}: {:?}\n{b}",
            r.best
        );
    }
}

#[test]
fn renju_black_search_avoids_a_double_three_point() {
    // Black (5,7),(6,7) and (7,5),(7,6): (7,7) is a double-three point, forbidden.
    let mut b = board(
        15,
        Rule::Renju,
        &[
            (5, 7),
            (0, 0),
            (6, 7),
            (14, 0),
            (7, 5),
            (0, 14),
            (7, 6),
            (14, 14),
        ],
    );
    assert!(b.is_forbidden(Pos::new(7, 7)));
    for depth in 1..=4 {
        let r = search(&mut b, depth, SearchParams::default());
        assert_ne!(r.best, Pos::new(7, 7));
        assert!(b.is_legal(r.best));
    }
}

/// A 6 × 6 renju board with three empty squares, white to move: (3,0) and (2,5) make
/// overlines for black (forbidden), (0,1) is legal for black. `X` black, `O` white, `.`
/// empty; no line of five anywhere, and no empty square makes one for either colour.
fn renju_board_with_two_overline_squares_left() -> Board {
    let rows = ["XXX.XX", ".OOXOO", "OXOOOX", "XOOOOX", "OXXOOO", "XX.XXX"];
    diagram(&rows, Rule::Renju, Color::White)
}

/// Renju black left with only forbidden squares must play a foul and loses (a full
/// board would be a draw): white takes the one square black may play.
#[test]
fn renju_black_with_only_forbidden_squares_left_loses() {
    let mut b = renju_board_with_two_overline_squares_left();
    assert_eq!(b.side_to_move(), Color::White);
    assert_eq!(b.empty_count(), 3);
    let (x, left) = (Pos::new(0, 1), [Pos::new(3, 0), Pos::new(2, 5)]);
    assert!(!b.is_forbidden(x));
    b.make(x);
    assert!(left.iter().all(|&p| b.is_forbidden(p)));
    assert!(b.black_must_foul());
    b.unmake();
    for params in both_drivers() {
        let r = search(&mut b, 4, params);
        assert_eq!(r.best, x, "{r:?}");
        assert!(r.value >= mate_in(4), "{r:?}");
    }
    // Black to move with a legal square left is not lost that way.
    b.make(left[0]);
    assert!(!b.black_must_foul());
}

#[test]
fn a_search_stopped_by_the_flag_returns_a_legal_move() {
    let mut b = board(15, Rule::Freestyle, &[(7, 7), (8, 8), (6, 8), (8, 6)]);
    let stop = Arc::new(AtomicBool::new(true));
    let mut s = Searcher::new(1 << 20, SearchParams::default());
    let r = s.go(&mut b, &fixed_limits(30, None), Some(stop), &mut |_| {});
    assert!(b.is_legal(r.best));
    assert_eq!(b.move_count(), 4, "board restored");

    let mut e = Engine::new();
    e.set_position(
        &[Pos::new(7, 7), Pos::new(6, 8)],
        &[Pos::new(8, 8), Pos::new(8, 6)],
        &[],
    )
    .unwrap();
    e.stop_flag()
        .store(true, std::sync::atomic::Ordering::SeqCst);
    let m = e.go(&fixed_limits(30, None), &mut |_| {});
    let mut check = board(15, Rule::Freestyle, &[(7, 7), (8, 8), (6, 8), (8, 6)]);
    assert!(check.is_legal(m));
}

#[test]
fn a_node_limited_search_stops_and_returns_a_legal_move() {
    let mut b = board(15, Rule::Freestyle, &[(7, 7), (8, 8), (6, 8), (8, 6)]);
    let mut l = fixed_limits(60, None);
    l.max_nodes = Some(5_000);
    let mut s = Searcher::new(1 << 20, SearchParams::default());
    let r = s.go(&mut b, &l, None, &mut |_| {});
    assert!(r.nodes < 5_000 + 2_048, "{}", r.nodes);
    assert!(b.is_legal(r.best));
}

#[test]
fn depth_limited_search_is_deterministic() {
    for params in both_drivers() {
        let mut b = board(
            15,
            Rule::Standard,
            &[(7, 7), (7, 6), (9, 5), (8, 6), (5, 6)],
        );
        let r1 = search(&mut b, 6, params.clone());
        let r2 = search(&mut b, 6, params.clone());
        assert_eq!((r1.nodes, r1.best, r1.value), (r2.nodes, r2.best, r2.value));
        assert!(r1.nodes > 100);
    }
}

#[test]
fn each_completed_iteration_is_reported_once() {
    let mut b = board(15, Rule::Freestyle, &[(7, 7), (8, 8)]);
    let mut s = Searcher::new(1 << 20, SearchParams::default());
    let mut depths = Vec::new();
    let r = s.go(&mut b, &fixed_limits(5, None), None, &mut |i| {
        depths.push(i.depth)
    });
    assert_eq!(depths, vec![1, 2, 3, 4, 5]);
    assert_eq!(r.depth, 5);
}

#[test]
fn table_size_respects_the_memory_budget() {
    let mib = 1u64 << 20;
    for limit in [40 * mib, 100 * mib, 350 * mib, 4096 * mib] {
        let t = tt_bytes_for(limit, None, 1) as u64;
        assert!(t + NON_TT_MEMORY <= limit, "{limit}: {t}");
    }
    assert_eq!(tt_bytes_for(350 * mib, Some(1024), 1), 1024 * 1024);
    assert!(tt_bytes_for(64 * mib, Some(1 << 30), 1) as u64 + NON_TT_MEMORY <= 64 * mib);
}

#[test]
fn a_selfplay_match_plays_every_game_with_colours_swapped() {
    use sente::selfplay::{run_match, MatchConfig};
    let cfg = MatchConfig {
        a: SearchParams::default(),
        b: SearchParams {
            top_n: 4,
            ..SearchParams::default()
        },
        games: 4,
        ms: 0,
        nodes: Some(3_000),
        size: 11,
        rule: Rule::Freestyle,
        openings: None,
        seed: 5,
        tt_bytes: 1 << 20,
        threads: [1, 1],
        nodes_per_thread: false,
        nodes_b: None,
    };
    let mut lines = Vec::new();
    let s1 = run_match(&cfg, |l| lines.push(l.to_string()));
    assert_eq!(s1.wins + s1.losses + s1.draws, 4);
    assert!(lines.last().unwrap().starts_with("Result: A "));
    let s2 = run_match(&cfg, |_| {});
    assert_eq!(s1, s2, "node-limited matches are deterministic");
}

#[test]
fn selfplay_reads_the_moves_column_of_both_opening_file_formats() {
    use sente::selfplay::{openings, MatchConfig};
    let path = std::env::temp_dir().join(format!("sente_openings_{}.txt", std::process::id()));
    // gomocup_openings layout (moves in column 6), katagomo layout (column 8), a line of
    // another size and an illegal line (a repeated square), which are skipped.
    let text = "# header\n\
        g1\t15\trenju\t3\twhite\t7,7 7,8 8,8\tsrc:1\n\
        k1\t15\trenju\twhite\t0.5\t0.4\t0.1\t7,7 8,7 6,8 9,9 5,5\th8 i8 g7 j6 f10\n\
        g2\t20\trenju\t3\twhite\t1,1 2,2 3,3\tsrc:2\n\
        g3\t15\trenju\t3\twhite\t7,7 7,7 8,8\tsrc:3\n";
    std::fs::write(&path, text).unwrap();
    let cfg = MatchConfig {
        a: SearchParams::default(),
        b: SearchParams::default(),
        games: 8,
        ms: 0,
        nodes: Some(1_000),
        size: 15,
        rule: Rule::Renju,
        openings: Some(path.to_string_lossy().into_owned()),
        seed: 1,
        tt_bytes: 1 << 20,
        threads: [1, 1],
        nodes_per_thread: false,
        nodes_b: None,
    };
    let (ops, from_file) = openings(&cfg, 4);
    std::fs::remove_file(&path).ok();
    assert!(from_file);
    let p = |x, y| Pos::new(x, y);
    assert_eq!(
        ops,
        vec![
            vec![p(7, 7), p(7, 8), p(8, 8)],
            vec![p(7, 7), p(8, 7), p(6, 8), p(9, 9), p(5, 5)]
        ]
    );
}

#[test]
fn late_move_reductions_grow_with_depth_and_move_index_and_spare_early_moves() {
    use sente::search::reduction;
    let p = SearchParams::default();
    for d in 0..40 {
        for i in 0..40 {
            let r = reduction(&p, d, i);
            if i < p.lmr_min_index || (d as i32) < p.lmr_min_depth {
                assert_eq!(r, 0, "depth {d} index {i}");
            }
            assert!(r >= 0, "depth {d} index {i}: {r}");
            assert!(reduction(&p, d + 1, i) >= r && reduction(&p, d, i + 1) >= r);
        }
    }
    assert!(reduction(&p, 20, 9) >= 2, "deep late moves are reduced");
    let off = SearchParams {
        lmr: false,
        ..SearchParams::default()
    };
    assert_eq!(reduction(&off, 20, 9), 0);
}

#[test]
fn a_repeated_search_with_the_tt_move_first_still_blocks_a_four() {
    // The TT move searched before generation must not bypass the forced stages: after
    // a first search fills the table, a position where the opponent has a four is
    // searched again and must block it.
    for tt_first in [false, true] {
        let params = SearchParams {
            tt_first,
            ..SearchParams::default()
        };
        // Black four (3..6, 7) open at (7, 7) only (white at (2, 7)); white to move.
        let mut b = board(
            15,
            Rule::Freestyle,
            &[(3, 7), (2, 7), (4, 7), (10, 10), (5, 7), (11, 3), (6, 7)],
        );
        let mut s = Searcher::new(1 << 20, params.clone());
        for depth in [4, 6] {
            let r = s.go(&mut b, &fixed_limits(depth, None), None, &mut |_| {});
            assert_eq!(r.best, Pos::new(7, 7), "tt_first {tt_first} depth {depth}");
        }
    }
}

#[test]
fn an_order_file_replaces_the_shipped_ordering_in_every_rule_while_order_learned_is_on() {
    let dir = std::env::temp_dir().join(format!("sente-order-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("freestyle.txt");
    std::fs::write(&path, include_str!("../src/order_weights.txt")).unwrap();
    let with_file = |learned: bool| {
        let mut p = SearchParams::default();
        p.apply(&format!("order_file={}", path.display())).unwrap();
        p.order_learned = learned;
        p
    };
    let moves = [(7, 7), (7, 6), (9, 5), (8, 6), (5, 6)];
    let nodes = |rule, p: SearchParams| {
        let mut b = board(15, rule, &moves);
        let r = search(&mut b, 6, p);
        (r.nodes, r.best, r.value)
    };
    // The shipped freestyle table read from a file orders freestyle as the shipped one.
    assert_eq!(
        nodes(Rule::Freestyle, with_file(true)),
        nodes(Rule::Freestyle, SearchParams::default())
    );
    // Standard has no shipped table: the file changes its search, unless switched off.
    assert_ne!(
        nodes(Rule::Standard, with_file(true)),
        nodes(Rule::Standard, SearchParams::default())
    );
    assert_eq!(
        nodes(Rule::Standard, with_file(false)),
        nodes(Rule::Standard, SearchParams::default())
    );
    let mut p = SearchParams::default();
    assert!(p.apply("order_file=/nonexistent/order.txt").is_err());
    assert_eq!(p, SearchParams::default());
    std::fs::remove_dir_all(&dir).ok();
}

/// A middle-game shape (black first) that the search tests below search to a fixed
/// depth on 15 × 15 and 20 × 20 boards.
const MIDDLE_GAME: [(usize, usize); 8] = [
    (7, 7),
    (8, 8),
    (8, 7),
    (6, 7),
    (7, 9),
    (7, 6),
    (9, 8),
    (6, 8),
];

#[test]
fn singular_extension_is_on_by_default_on_every_board_size() {
    // The same middle-game shape on both sizes, searched to a depth where the
    // extension is tried (`se_depth` 8). `se` is on by default; `se_large` keeps it on
    // boards of more than 15 cells a side when `se` is off.
    let nodes = |size: usize, spec: &str| {
        let mut b = board(size, Rule::Freestyle, &MIDDLE_GAME);
        search_spec(&mut b, spec, &fixed_limits(10, None)).nodes
    };
    let small = nodes(15, "");
    assert_eq!(small, nodes(15, "se=on,se_large=off"));
    assert_ne!(small, nodes(15, "se=off"));
    let large = nodes(20, "");
    assert_eq!(large, nodes(20, "se=off"));
    assert_ne!(large, nodes(20, "se=off,se_large=off"));
}

#[test]
fn leaves_read_the_table_and_store_their_values_by_default() {
    // A middle game searched to a fixed depth: reading the table at the leaves changes
    // the tree (`qtt=1` against 0), storing the leaves' values changes it again (2
    // against 1), and the default is 2.
    let run = |spec: &str| {
        let mut b = board(15, Rule::Freestyle, &MIDDLE_GAME);
        let r = search_spec(&mut b, spec, &fixed_limits(8, None));
        assert!(b.is_legal(r.best), "{spec}: {:?}", r.best);
        r.nodes
    };
    let (off, read, store) = (run("qtt=0"), run("qtt=1"), run("qtt=2"));
    assert_ne!(off, read);
    assert_ne!(read, store);
    assert_eq!(run(""), store);
}
