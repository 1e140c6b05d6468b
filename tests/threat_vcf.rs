//! VCF solver: known wins are found and survive every defence, known non-wins are not
//! claimed, under every rule's five definition and renju's forbidden points.

mod threat_support;

use sente::board::Board;
use sente::threat::vcf::VcfSolver;
use sente::threat::ThreatResult;
use sente::types::{Color, Pos, Rule};
use std::sync::atomic::AtomicBool;
use threat_support::{diagram, no_fallback, quintet_cases, verify_win};

static NO_STOP: AtomicBool = AtomicBool::new(false);

/// Run the VCF solver for the side to move; on a win, re-check the line exhaustively.
fn vcf(board: &mut Board, max_plies: i32) -> ThreatResult {
    let mut s = VcfSolver::new(1 << 20);
    let key = board.key();
    let a = board.side_to_move();
    let r = s.solve(board, a, max_plies, 10_000_000, &NO_STOP);
    assert_eq!(board.key(), key, "solver must restore the board");
    board.assert_consistent();
    if let ThreatResult::Win { first, plies } = r {
        let line = s.principal_line().to_vec();
        assert_eq!(line[0], first);
        assert!(
            plies <= max_plies,
            "win of {plies} plies over the limit {max_plies}"
        );
        assert!(
            verify_win(board, &line, plies, &mut no_fallback),
            "claimed VCF {line:?} ({plies} plies) does not hold against every defence\n{board}"
        );
    }
    r
}

const TWO_FOURS: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    "..OXXX.........",
    "......X........",
    "......X........",
    "..OXXX.........",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
];

#[test]
fn freestyle_vcf_of_a_four_then_a_four_three_is_found_and_holds() {
    let mut b = diagram(&TWO_FOURS, Rule::Freestyle, Color::Black);
    match vcf(&mut b, 99) {
        ThreatResult::Win { plies, .. } => assert_eq!(plies, 5),
        other => panic!("expected a VCF, got {other:?}"),
    }
}

#[test]
fn vcf_shorter_than_the_shortest_win_is_not_claimed() {
    let mut b = diagram(&TWO_FOURS, Rule::Freestyle, Color::Black);
    assert_eq!(vcf(&mut b, 3), ThreatResult::NoWin);
}

#[test]
fn vcf_for_the_side_not_to_move_leaves_the_board_alone() {
    // White has nothing; asking about white from a black-to-move position is allowed.
    let mut b = diagram(&TWO_FOURS, Rule::Freestyle, Color::Black);
    let mut s = VcfSolver::new(1 << 16);
    let key = b.key();
    assert_eq!(
        s.solve(&mut b, Color::White, 99, 1_000_000, &NO_STOP),
        ThreatResult::NoWin
    );
    assert_eq!(b.key(), key);
}

const OVERLINE: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "..XXX.XX.......",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
];

#[test]
fn overline_is_not_five_in_standard_vcf() {
    let mut free = diagram(&OVERLINE, Rule::Freestyle, Color::Black);
    assert_eq!(
        vcf(&mut free, 99),
        ThreatResult::Win {
            first: Pos::new(5, 7),
            plies: 1
        }
    );
    for rule in [Rule::Standard, Rule::Renju, Rule::Caro9] {
        let mut b = diagram(&OVERLINE, rule, Color::Black);
        assert_eq!(vcf(&mut b, 99), ThreatResult::NoWin, "{rule:?}");
    }
}

const CARO: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "..OXXXX.O......",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
];

#[test]
fn caro_five_blocked_at_both_ends_is_no_vcf() {
    let mut free = diagram(&CARO, Rule::Freestyle, Color::Black);
    assert!(vcf(&mut free, 99).is_win());
    for rule in [Rule::Caro8, Rule::Caro9] {
        let mut b = diagram(&CARO, rule, Color::Black);
        assert_eq!(vcf(&mut b, 99), ThreatResult::NoWin, "{rule:?}");
    }
}

/// White's four at (5,11) leaves (5,7) as its only five point, and there black would
/// make an overline.
const FORBIDDEN_BLOCK: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    ".....X.........",
    "..XXX.XX.......",
    ".....O.........",
    ".....O.........",
    ".....O.........",
    "...............",
    ".....X.........",
    "...............",
    "...............",
];

#[test]
fn renju_white_wins_when_blacks_only_block_is_forbidden() {
    let mut b = diagram(&FORBIDDEN_BLOCK, Rule::Renju, Color::White);
    assert_eq!(
        vcf(&mut b, 99),
        ThreatResult::Win {
            first: Pos::new(5, 11),
            plies: 3
        }
    );
}

#[test]
fn standard_black_may_block_on_an_overline_point() {
    let mut b = diagram(&FORBIDDEN_BLOCK, Rule::Standard, Color::White);
    assert_eq!(vcf(&mut b, 99), ThreatResult::NoWin);
}

/// (7,7) would make two fours for black: a win in freestyle, forbidden in renju.
const DOUBLE_FOUR: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    ".......O.......",
    ".......X.......",
    ".......X.......",
    ".......X.......",
    "...OXXX........",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
];

#[test]
fn renju_black_vcf_never_uses_a_double_four_point() {
    let mut free = diagram(&DOUBLE_FOUR, Rule::Freestyle, Color::Black);
    assert_eq!(
        vcf(&mut free, 99),
        ThreatResult::Win {
            first: Pos::new(7, 7),
            plies: 3
        }
    );
    let mut renju = diagram(&DOUBLE_FOUR, Rule::Renju, Color::Black);
    assert_eq!(vcf(&mut renju, 99), ThreatResult::NoWin);
    // The same shape in white is a renju win: white has no forbidden points.
    let swapped: Vec<String> = DOUBLE_FOUR
        .iter()
        .map(|r| {
            r.chars()
                .map(|c| match c {
                    'X' => 'O',
                    'O' => 'X',
                    c => c,
                })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = swapped.iter().map(String::as_str).collect();
    let mut white = diagram(&rows, Rule::Renju, Color::White);
    assert!(vcf(&mut white, 99).is_win());
}

#[test]
fn defender_four_must_be_blocked_before_attacking() {
    // Black to move has a four-three at (6,6), but white already has an open four: black
    // must block a five point first, and two five points cannot both be blocked.
    let mut rows = TWO_FOURS.map(String::from);
    rows[10] = ".......OOOO....".to_string();
    rows[9] = "...............".to_string();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut b = diagram(&rows, Rule::Freestyle, Color::Black);
    assert_eq!(vcf(&mut b, 99), ThreatResult::NoWin);
}

#[test]
fn node_budget_gives_unknown_not_a_guess() {
    let case = quintet_cases()
        .into_iter()
        .find(|c| c.name == "vcf_black")
        .unwrap();
    let mut b = case.board;
    let a = b.side_to_move();
    let mut s = VcfSolver::new(1 << 20);
    assert_eq!(s.solve(&mut b, a, 99, 5, &NO_STOP), ThreatResult::Unknown);
    let stop = AtomicBool::new(true);
    let r = s.solve(&mut b, a, 99, u64::MAX, &stop);
    assert!(r != ThreatResult::NoWin, "a stopped search proves nothing");
}

#[test]
fn quintet_vcf_cases_match_their_verdicts() {
    for case in quintet_cases().into_iter().filter(|c| c.mode == "vcf") {
        let mut b = case.board;
        // quintet's limit counts attacks up to the settling four; the five is one more.
        let r = vcf(&mut b, 2 * case.limit + 1);
        assert_eq!(r.is_win(), case.proven, "{}: {r:?}", case.name);
        if !case.proven {
            assert_eq!(r, ThreatResult::NoWin, "{}", case.name);
        }
    }
}

/// Black's (4,7) makes a four with five points at both ends, but under caro rules white's
/// block at (3,7) leaves (8,7) a five blocked at both ends.
const CARO_CAPPED_FOUR: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    ".....XXX.O.....",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
];

#[test]
fn caro_four_with_two_five_points_can_still_be_blocked() {
    let mut free = diagram(&CARO_CAPPED_FOUR, Rule::Freestyle, Color::Black);
    assert!(vcf(&mut free, 99).is_win());
    for rule in [Rule::Caro8, Rule::Caro9] {
        let mut b = diagram(&CARO_CAPPED_FOUR, rule, Color::Black);
        assert_eq!(vcf(&mut b, 99), ThreatResult::NoWin, "{rule:?}");
    }
}
