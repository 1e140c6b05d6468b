//! The threat solvers inside the search: root wins, root defence, renju legality, caro
//! fives. Limits are depths (no timing assertions).

mod common;

use common::fixed_limits;
use sente::board::Board;
use sente::pattern::Pattern4;
use sente::search::params::SearchParams;
use sente::search::{SearchResult, Searcher};
use sente::threat::defence::vcf_defences;
use sente::threat::vcf::VcfSolver;
use sente::threat::ThreatResult;
use sente::types::{is_mate, Color, Pos, Rule};
use std::sync::atomic::AtomicBool;

/// lfz084 renju VCF puzzle (black to move; the solver finds a 15-ply VCF).
const RENJU_VCF: &str = "4,2 2,3 6,2 5,4 3,3 4,5 6,4 5,5 2,5 1,6 2,6 3,7 4,6 5,7 5,6 7,7";
/// Another lfz084 renju VCF puzzle (black to move); white has no VCF here, and the
/// search without solvers answers it with a move that does not stop it (depths 1, 2, 4).
const RENJU_VCF2: &str =
    "9,2 5,3 10,2 7,3 6,3 5,5 7,5 6,5 10,5 7,6 8,6 7,7 9,8 10,7 6,9 5,10 9,9 9,10 10,9 6,11";

fn board_of(size: usize, rule: Rule, moves: &str) -> Board {
    let mut b = Board::new(size, size, rule).unwrap();
    for m in moves.split_whitespace() {
        let (x, y) = m.split_once(',').unwrap();
        b.play(Pos::new(x.parse().unwrap(), y.parse().unwrap()))
            .unwrap();
    }
    b
}

fn search(b: &mut Board, depth: i32, params: SearchParams) -> SearchResult {
    let mut s = Searcher::new(4 << 20, params);
    s.go(b, &fixed_limits(depth, None), None, &mut |_| {})
}

fn off() -> SearchParams {
    SearchParams {
        threats: false,
        ..SearchParams::default()
    }
}

fn is_four_for(b: &Board, p: Pos, c: Color) -> bool {
    b.pattern4(p, c) >= Pattern4::Block4
}

#[test]
fn search_plays_a_root_vcf_that_a_shallow_search_cannot_see() {
    let mut b = board_of(15, Rule::Renju, RENJU_VCF);
    let before = b.key();
    // Without the solvers a 3-ply search sees no forced win.
    let r = search(&mut b, 3, off());
    assert!(!(is_mate(r.value) && r.value > 0), "value {}", r.value);
    // With them, a 1-ply search plays the first four of a VCF and says mate.
    let r = search(&mut b, 1, SearchParams::default());
    assert_eq!(b.key(), before, "board restored");
    assert!(is_mate(r.value) && r.value > 0, "value {}", r.value);
    assert!(b.is_legal(r.best));
    assert!(
        is_four_for(&b, r.best, Color::Black),
        "{} is no four",
        r.best
    );
    // After that four and the forced block, black still has a VCF.
    b.play(r.best).unwrap();
    let block = b
        .winning_move(Color::Black)
        .expect("a four has a five point");
    b.play(block).unwrap();
    let mut vcf = VcfSolver::new(1 << 20);
    let stop = AtomicBool::new(false);
    assert!(vcf
        .solve(&mut b, Color::Black, 99, 1_000_000, &stop)
        .is_win());
}

#[test]
fn search_defends_against_the_opponents_vcf() {
    // Black's VCF puzzle with a black stone in the far corner: white to move must stop it.
    let mut b = board_of(15, Rule::Renju, &format!("{RENJU_VCF2} 14,14"));
    let stop = AtomicBool::new(false);
    let mut vcf = VcfSolver::new(1 << 20);
    assert!(vcf
        .solve(&mut b, Color::Black, 99, 1_000_000, &stop)
        .is_win());
    assert_eq!(
        vcf.solve(&mut b, Color::White, 99, 1_000_000, &stop),
        ThreatResult::NoWin,
        "white has no VCF of its own"
    );
    let defences = vcf_defences(&mut b, Color::Black, &mut vcf, 99, 100_000, &stop)
        .expect("black threatens a VCF");
    assert!(!defences.is_empty());
    let mut candidates = Vec::new();
    b.candidates(&mut candidates);
    assert!(
        defences.len() < candidates.len(),
        "the defence set is a real restriction"
    );
    for depth in [1, 2, 4] {
        let r = search(&mut b, depth, SearchParams::default());
        assert!(
            defences.contains(&r.best) || is_four_for(&b, r.best, Color::White),
            "depth {depth}: {} is not among the defences {defences:?}",
            r.best
        );
    }
}

#[test]
fn renju_black_never_plays_a_forbidden_point_even_on_a_vcf_line() {
    // Black closed threes on row 7 (5..7) and column 8 (4..6), white blocks at (4,7) and
    // (8,3): (8,7) makes two fours. Freestyle: a win at once; renju: a forbidden
    // double four, which black must not play although every four-line passes there.
    let moves = "5,7 4,7 6,7 8,3 7,7 0,0 8,4 0,14 8,5 14,0 8,6 14,14";
    let free = board_of(15, Rule::Freestyle, moves);
    assert_eq!(free.pattern4(Pos::new(8, 7), Color::Black), Pattern4::Flex4);
    let mut fb = free;
    let r = search(&mut fb, 2, SearchParams::default());
    assert_eq!(r.best, Pos::new(8, 7));
    for depth in [1, 3] {
        let mut b = board_of(15, Rule::Renju, moves);
        assert!(b.is_forbidden(Pos::new(8, 7)));
        let r = search(&mut b, depth, SearchParams::default());
        assert!(b.is_legal(r.best), "depth {depth}: {}", r.best);
        assert!(!b.is_forbidden(r.best));
    }
}

#[test]
fn caro_search_blocks_the_end_that_caps_both_fives() {
    // Row 7: white (2,7), black (4..7, 7): O.XXXX. with five points 3 and 8. White to
    // move must block 8 (then black 3 is five blocked at both ends); 3 loses to 8.
    let moves = "4,7 2,7 5,7 0,0 6,7 14,0 7,7";
    for rule in [Rule::Caro8, Rule::Caro9] {
        let mut b = board_of(15, rule, moves);
        assert_eq!(b.count(Color::Black, Pattern4::Five), 2);
        for params in [SearchParams::default(), off()] {
            let r = search(&mut b, 3, params);
            assert_eq!(r.best, Pos::new(8, 7), "{rule:?}");
            assert!(!(is_mate(r.value) && r.value < 0), "{rule:?}: {}", r.value);
        }
    }
}

#[test]
fn searcher_tables_and_solver_tables_fit_in_the_byte_budget() {
    let mib = 1usize << 20;
    for bytes in [mib, 16 * mib, 300 * mib] {
        let mut s = Searcher::new(bytes, SearchParams::default());
        assert!(s.tt_bytes() <= bytes, "{bytes}: {}", s.tt_bytes());
        assert!(s.tt_bytes() >= bytes / 2, "{bytes}: {}", s.tt_bytes());
        s.resize_tt(bytes / 4);
        assert!(s.tt_bytes() <= bytes / 4, "{bytes}: {}", s.tt_bytes());
    }
}

#[test]
fn threat_switch_is_settable_by_name() {
    let mut p = SearchParams::default();
    assert!(p.threats);
    p.apply("threats=off,leaf_vcf=50,root_vct=0").unwrap();
    assert!(!p.threats);
    assert_eq!((p.leaf_vcf_nodes, p.root_vct_nodes), (50, 0));
    assert!(p.apply("threats=maybe").is_err());
}
