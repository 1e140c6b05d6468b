//! Shared helpers for board tests (`mod common;` in a test crate).

use sente::bench::{board_from, parse_moves, BENCH_POSITIONS};
use sente::board::Board;
use sente::time::SearchLimits;
use sente::types::{Color, Pos, Rule};
use std::time::{Duration, Instant};

/// Build a position from lists of black and white stones, black to move unless
/// `to_move` says otherwise. Missing stones of one colour are added as fillers on the
/// far rows 0 and `size-1` (every third column), which the tests keep clear.
#[allow(dead_code)]
pub fn position(
    size: usize,
    rule: Rule,
    blacks: &[(usize, usize)],
    whites: &[(usize, usize)],
    to_move: Color,
) -> Board {
    let mut b: Vec<Pos> = blacks.iter().map(|&(x, y)| Pos::new(x, y)).collect();
    let mut w: Vec<Pos> = whites.iter().map(|&(x, y)| Pos::new(x, y)).collect();
    let mut fillers = (0..size)
        .step_by(3)
        .flat_map(|x| [Pos::new(x, 0), Pos::new(x, size - 1)])
        .filter(|p| !b.contains(p) && !w.contains(p))
        .collect::<Vec<_>>()
        .into_iter();
    let want_black = |w: usize| if to_move == Color::Black { w } else { w + 1 };
    while b.len() < want_black(w.len()) {
        b.push(fillers.next().expect("filler"));
    }
    while want_black(w.len()) < b.len() {
        w.push(fillers.next().expect("filler"));
    }
    let mut board = Board::new(size, size, rule).unwrap();
    for i in 0..b.len().max(w.len()) {
        if let Some(&p) = b.get(i) {
            board.make(p);
        }
        if let Some(&p) = w.get(i) {
            board.make(p);
        }
    }
    assert_eq!(board.side_to_move(), to_move);
    board.assert_consistent();
    board
}

/// Limits of a deterministic search: at most `depth` iterations and `nodes` nodes, with
/// an hour on the clock so that time never stops it.
#[allow(dead_code)]
pub fn fixed_limits(depth: i32, nodes: Option<u64>) -> SearchLimits {
    let mut l = SearchLimits::fixed(Duration::from_secs(3600), Instant::now());
    l.max_depth = Some(depth);
    l.max_nodes = nodes;
    l
}

/// A freestyle 15 × 15 board after `moves` (alternating colours, black first).
#[allow(dead_code)]
pub fn freestyle_board(moves: &[(usize, usize)]) -> Board {
    let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
    for &(x, y) in moves {
        b.play(Pos::new(x, y)).unwrap();
    }
    b
}

/// The positions of `pbrain-sente bench` as boards, each with its name for messages
/// (`position N`, counted from 1).
#[allow(dead_code)]
pub fn bench_boards() -> impl Iterator<Item = (String, Board)> {
    BENCH_POSITIONS
        .iter()
        .enumerate()
        .map(|(i, &(size, rule, m))| {
            let b = board_from(size, rule, &parse_moves(m).unwrap()).expect("legal position");
            (format!("position {}", i + 1), b)
        })
}

/// One search of `b` with the default parameters changed by `spec` (`key=value,…`), a
/// fresh 4 MiB table and no callbacks.
#[allow(dead_code)]
pub fn search_spec(b: &mut Board, spec: &str, l: &SearchLimits) -> sente::search::SearchResult {
    let mut p = sente::search::params::SearchParams::default();
    p.apply(spec).unwrap();
    let mut s = sente::search::Searcher::new(4 << 20, p);
    s.go(b, l, None, &mut |_| {})
}

/// [`search_spec`] to `depth` twice: asserts that both searches agree (nodes, move,
/// value), that the move is legal and that the board is left as it was; returns the result.
#[allow(dead_code)]
pub fn repeatable_search(
    what: &str,
    b: &mut Board,
    spec: &str,
    depth: i32,
) -> sente::search::SearchResult {
    let history = b.history().to_vec();
    let fixed = fixed_limits(depth, None);
    let first = search_spec(b, spec, &fixed);
    let again = search_spec(b, spec, &fixed);
    assert_eq!(
        (first.nodes, first.best, first.value),
        (again.nodes, again.best, again.value),
        "{what}: two depth-{depth} searches with {spec} differ"
    );
    assert!(b.is_legal(first.best), "{what}: {:?}", first.best);
    assert_eq!(b.history(), history.as_slice(), "{what}: board changed");
    first
}

/// Every bench position searched to `depth` with `on` (twice, checked repeatable, see
/// [`repeatable_search`]) and once with `off`: (name, result with `on`, result with `off`).
#[allow(dead_code)]
pub fn bench_pairs(
    on: &str,
    off: &str,
    depth: i32,
) -> Vec<(
    String,
    sente::search::SearchResult,
    sente::search::SearchResult,
)> {
    bench_boards()
        .map(|(what, mut b)| {
            let a = repeatable_search(&what, &mut b, on, depth);
            let z = search_spec(&mut b, off, &fixed_limits(depth, None));
            (what, a, z)
        })
        .collect()
}

/// Every bench position searched to `depth` with `on` (checked repeatable) and `off`:
/// (searches whose node count changed, `on`'s total nodes, `off`'s total nodes).
#[allow(dead_code)]
pub fn fixed_depth_change(on: &str, off: &str, depth: i32) -> (usize, u64, u64) {
    bench_pairs(on, off, depth)
        .iter()
        .fold((0, 0, 0), |(changed, n_on, n_off), (_, a, z)| {
            (
                changed + usize::from(a.nodes != z.nodes),
                n_on + a.nodes,
                n_off + z.nodes,
            )
        })
}

/// Every bench position searched to `depth` with `on` and `off` gives the same nodes,
/// move and value: the key in `on` has no effect there (`what` names that key).
#[allow(dead_code)]
pub fn assert_changes_nothing(on: &str, off: &str, depth: i32, what: &str) {
    for (name, a, z) in bench_pairs(on, off, depth) {
        assert_eq!(
            (a.nodes, a.best, a.value),
            (z.nodes, z.best, z.value),
            "{name}: {what} changed a search with {off}"
        );
    }
}

/// Black to move wins (found by a seeded random search over playouts): the threat
/// solver proves a VCT of 19 plies from (6,10), and the main search alone (no solvers)
/// proves a win from depth 6. The line is carried by fours; when the fail-high reduction
/// was made to cut fours too, depth 6 with `fhr=1` no longer found the win.
#[allow(dead_code)]
pub fn win_carried_by_fours() -> Board {
    freestyle_board(&[
        (6, 7),
        (8, 8),
        (7, 11),
        (7, 10),
        (5, 9),
        (10, 5),
        (5, 11),
        (9, 7),
        (10, 7),
        (11, 3),
        (9, 9),
        (6, 4),
    ])
}

/// With `spec`, a node limit far below the depth's needs stops the search on every
/// bench position, two such searches agree on nodes, move, value and depth, and the move
/// is legal.
#[allow(dead_code)]
pub fn assert_node_limited_searches_repeat(spec: &str) {
    for (name, mut b) in bench_boards() {
        let nodes = fixed_limits(60, Some(20_000));
        let r1 = search_spec(&mut b, spec, &nodes);
        let r2 = search_spec(&mut b, spec, &nodes);
        assert_eq!(
            (r1.nodes, r1.best, r1.value, r1.depth),
            (r2.nodes, r2.best, r2.value, r2.depth),
            "{name} {spec}: two node-limited searches differ"
        );
        assert!(b.is_legal(r1.best), "{name} {spec}: {:?}", r1.best);
    }
}

/// The shallowest depth (at most 8) at which the main search alone (no threat solvers)
/// proves the win of [`win_carried_by_fours`]; each of `specs` (with the solvers off)
/// must prove it one ply deeper. Returns that shallowest depth.
#[allow(dead_code)]
pub fn assert_proves_the_win_carried_by_fours(specs: &[&str]) -> i32 {
    use sente::types::{Color, VALUE_MATE_IN_MAX};
    let mut b = win_carried_by_fours();
    assert_eq!(b.side_to_move(), Color::Black);
    let first = (1..=8)
        .find(|&d| {
            search_spec(&mut b, "threats=0", &fixed_limits(d, None)).value >= VALUE_MATE_IN_MAX
        })
        .expect("the search proves the win within 8 plies");
    for s in specs {
        let r = search_spec(
            &mut b,
            &format!("threats=0,{s}"),
            &fixed_limits(first + 1, None),
        );
        assert!(
            r.value >= VALUE_MATE_IN_MAX,
            "depth {} with {s}: {} ({:?})",
            first + 1,
            r.value,
            r.best
        );
    }
    first
}

/// Both sides have an open three, black to move: a search with `spec` (threat solvers
/// off, so the main search has to find it) to depth 9 makes the straight four and
/// reports a mate within 5 plies.
#[allow(dead_code)]
pub fn assert_finds_the_win_of_an_open_three(spec: &str) {
    let mut b = freestyle_board(&[(5, 7), (5, 10), (6, 7), (6, 10), (7, 7), (7, 10)]);
    let r = search_spec(&mut b, &format!("threats=0,{spec}"), &fixed_limits(9, None));
    assert_eq!(
        b.pattern4(r.best, Color::Black),
        sente::pattern::Pattern4::Flex4,
        "{spec}: {:?}",
        r.best
    );
    assert!(r.value >= sente::types::mate_in(5), "{spec}: {}", r.value);
}

/// Black has an open three (5..7, 7), white to move with nothing of its own: a search
/// with `spec` (threat solvers off) to depth 9 stops it (no straight four left).
#[allow(dead_code)]
pub fn assert_stops_an_open_three(spec: &str) {
    use sente::pattern::Pattern4;
    let mut b = freestyle_board(&[(5, 7), (12, 2), (6, 7), (2, 12), (7, 7)]);
    assert_eq!(b.side_to_move(), Color::White);
    let r = search_spec(&mut b, &format!("threats=0,{spec}"), &fixed_limits(9, None));
    assert!(
        b.pattern4(r.best, Color::Black) >= Pattern4::Block4,
        "{spec}: {:?} does not stop the three",
        r.best
    );
    b.make(r.best);
    assert_eq!(b.count(Color::Black, Pattern4::Flex4), 0, "{spec}");
    b.unmake();
}
