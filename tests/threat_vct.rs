//! VCT solver and defence generators: wins survive every defence, renju forbidden points
//! and quintet's disproven limits are respected, defence lists match brute force.

mod threat_support;

use sente::board::Board;
use sente::pattern::Pattern4;
use sente::threat::defence::{vcf_defences, vct_defences};
use sente::threat::vcf::VcfSolver;
use sente::threat::vct::VctSolver;
use sente::threat::ThreatResult;
use sente::types::{Color, Pos, Rule};
use std::sync::atomic::AtomicBool;
use threat_support::{diagram, quintet_cases, stones, verify_win};

static NO_STOP: AtomicBool = AtomicBool::new(false);

/// The VCT solver as the verifier's attacker strategy once the defender leaves the line.
fn vct_strategy(board: &mut Board, a: Color, plies: i32) -> Option<Vec<Pos>> {
    let mut s = VctSolver::new(1 << 20);
    match s.solve(board, a, plies, 2_000_000, &NO_STOP) {
        ThreatResult::Win { .. } => Some(s.principal_line().to_vec()),
        _ => None,
    }
}

/// Which search of the VCT solver a test runs.
#[derive(Clone, Copy, Debug)]
enum Algo {
    /// `solve` (df-pn).
    Solve,
    /// `solve_portfolio`: df-pn and the depth-first search in turns.
    Both,
    /// `solve_dfs`.
    Dfs,
}

fn run(
    s: &mut VctSolver,
    algo: Algo,
    board: &mut Board,
    a: Color,
    max_plies: i32,
    nodes: u64,
) -> ThreatResult {
    match algo {
        Algo::Solve => s.solve(board, a, max_plies, nodes, &NO_STOP),
        Algo::Both => s.solve_portfolio(board, a, max_plies, nodes, &NO_STOP),
        Algo::Dfs => s.solve_dfs(board, a, max_plies, nodes, &NO_STOP),
    }
}

/// Run the VCT solver for the side to move; on a win within `verify_plies`, check it
/// against every defence.
fn vct(board: &mut Board, max_plies: i32, nodes: u64, verify_plies: i32) -> ThreatResult {
    vct_with(Algo::Solve, board, max_plies, nodes, verify_plies)
}

/// [`vct`] with a chosen search.
fn vct_with(
    algo: Algo,
    board: &mut Board,
    max_plies: i32,
    nodes: u64,
    verify_plies: i32,
) -> ThreatResult {
    let mut s = VctSolver::new(1 << 22);
    let key = board.key();
    let a = board.side_to_move();
    let r = run(&mut s, algo, board, a, max_plies, nodes);
    assert_eq!(board.key(), key, "solver must restore the board");
    board.assert_consistent();
    if let ThreatResult::Win { first, plies } = r {
        let line = s.principal_line().to_vec();
        assert_eq!(line[0], first);
        assert!(
            plies <= max_plies,
            "win of {plies} plies over the limit {max_plies}"
        );
        if plies <= verify_plies {
            assert!(
                verify_win(board, &line, plies, &mut vct_strategy),
                "claimed VCT {line:?} ({plies} plies) does not hold\n{board}"
            );
        }
    }
    r
}

/// (8,7) makes two open threes.
const DOUBLE_THREE: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "........X......",
    "........X......",
    "......XX.......",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
];

#[test]
fn freestyle_double_three_is_a_vct_but_no_vcf() {
    let mut b = diagram(&DOUBLE_THREE, Rule::Freestyle, Color::Black);
    let mut vcf = VcfSolver::new(1 << 16);
    assert_eq!(
        vcf.solve(&mut b, Color::Black, 99, 1_000_000, &NO_STOP),
        ThreatResult::NoWin
    );
    match vct(&mut b, 99, 5_000_000, 7) {
        ThreatResult::Win { plies, .. } => assert!(plies <= 7, "{plies}"),
        other => panic!("expected a VCT, got {other:?}"),
    }
}

/// lfz084 black_win_100_072 (renju, black to move): the win (9 plies by Rapfi's count)
/// starts with (5,6), a move that makes only an open two; the defender's pass then loses to
/// the VCF (5,4) (6,5) (5,5).
const OPEN_TWO_START: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    ".......OO......",
    "....O..X..X....",
    ".....XOXXXO....",
    ".......XOX.....",
    ".......O.XO....",
    ".........O.....",
    "...............",
    "...............",
    "...............",
    "...............",
];

#[test]
fn renju_vct_may_start_with_a_move_making_only_an_open_two() {
    let mut b = diagram(&OPEN_TWO_START, Rule::Renju, Color::Black);
    let first = Pos::new(5, 6);
    assert_eq!(b.pattern4(first, Color::Black), Pattern4::Flex2);
    match vct(&mut b, 9, 2_000_000, 9) {
        ThreatResult::Win { plies, .. } => assert!(plies <= 9, "{plies}"),
        other => panic!("expected a VCT of at most 9 plies, got {other:?}"),
    }
}

#[test]
fn renju_black_double_three_point_is_no_vct_move() {
    // (8,7) is forbidden to black; nothing else wins within 5 plies.
    let mut b = diagram(&DOUBLE_THREE, Rule::Renju, Color::Black);
    let r = vct(&mut b, 5, 5_000_000, 5);
    assert!(!r.is_win(), "{r:?}");
    // White with the same stones may use the point.
    let swapped: Vec<String> = DOUBLE_THREE.iter().map(|r| r.replace('X', "O")).collect();
    let rows: Vec<&str> = swapped.iter().map(String::as_str).collect();
    let mut w = diagram(&rows, Rule::Renju, Color::White);
    assert!(vct(&mut w, 5, 5_000_000, 5).is_win());
}

#[test]
fn quintet_vct_cases_never_claim_a_disproven_win() {
    for case in quintet_cases()
        .into_iter()
        .filter(|c| c.mode != "vcf" && c.name != BEYOND_THREAT_LIMIT)
    {
        let mut b = case.board;
        // Wins of up to 13 plies are replayed against every defence.
        let r = vct(&mut b, 2 * case.limit + 1, 300_000, 13);
        if !case.proven {
            assert!(!r.is_win(), "{}: claimed {r:?}", case.name);
        }
    }
}

#[test]
fn quintet_vct_cases_never_claim_a_disproven_win_by_the_other_searches() {
    for case in quintet_cases()
        .into_iter()
        .filter(|c| c.mode != "vcf" && c.name != BEYOND_THREAT_LIMIT)
    {
        let mut b = case.board;
        let r = vct_with(Algo::Both, &mut b, 2 * case.limit + 1, 300_000, 0);
        if !case.proven {
            assert!(!r.is_win(), "{}: claimed {r:?}", case.name);
        }
    }
}

#[test]
fn quintet_short_vct_wins_are_found_and_hold() {
    for algo in [Algo::Solve, Algo::Both, Algo::Dfs] {
        for name in [
            "vct_black",
            "vct_white",
            "vct_counter",
            "vct_game_white_l03_2",
        ] {
            let case = quintet_cases()
                .into_iter()
                .find(|c| c.name == name)
                .unwrap();
            let mut b = case.board;
            let r = vct_with(algo, &mut b, 2 * case.limit + 1, 3_000_000, 9);
            assert!(r.is_win(), "{name} {algo:?}: {r:?}");
        }
    }
}

#[test]
fn a_search_cut_by_its_node_budget_is_not_a_no_win_on_the_next_call() {
    // The same solver is asked again and again with a budget too small to finish: its
    // tables must not turn the unfinished work into a "no win" (the deepening search
    // once did, from a stored failure limited by its threat budget).
    for algo in [Algo::Solve, Algo::Both, Algo::Dfs] {
        let case = quintet_cases()
            .into_iter()
            .find(|c| c.name == "vct_black")
            .unwrap();
        let mut b = case.board;
        let a = b.side_to_move();
        let mut s = VctSolver::new(1 << 22);
        let mut won = false;
        for budget in [200, 400, 800, 1_600, 3_200, 6_400, 12_800, 3_000_000] {
            let r = run(&mut s, algo, &mut b, a, 2 * case.limit + 1, budget);
            assert_ne!(r, ThreatResult::NoWin, "{algo:?} budget {budget}");
            won |= r.is_win();
        }
        assert!(won, "{algo:?}");
    }
}

/// Ground truth by brute force: the legal squares after which `attacker` has no VCF.
fn brute_force_vcf_defences(board: &mut Board, attacker: Color) -> Vec<Pos> {
    let mut s = VcfSolver::new(1 << 20);
    let squares: Vec<Pos> = board.all_squares().filter(|&p| board.is_empty(p)).collect();
    let mut out = Vec::new();
    for p in squares {
        if !board.is_legal(p) {
            continue;
        }
        board.make(p);
        if !s.solve(board, attacker, 99, 1_000_000, &NO_STOP).is_win() {
            out.push(p);
        }
        board.unmake();
    }
    out
}

#[test]
fn vcf_defences_match_brute_force() {
    // (6,3) is a four-three for black.
    let four_three = [
        "...............",
        "...............",
        "...............",
        "..OXXX.........",
        "......X........",
        "......X........",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
    ];
    for rule in [Rule::Freestyle, Rule::Renju] {
        let mut b = diagram(&four_three, rule, Color::White);
        let mut s = VcfSolver::new(1 << 20);
        let got = vcf_defences(&mut b, Color::Black, &mut s, 99, 1_000_000, &NO_STOP)
            .expect("black threatens a VCF");
        let want = brute_force_vcf_defences(&mut b, Color::Black);
        assert!(want.contains(&Pos::new(6, 3)), "{want:?}");
        assert_eq!(got, want, "{rule:?}");
    }
    // White to move with nothing threatened: no restriction.
    let mut quiet = diagram(&DOUBLE_THREE, Rule::Freestyle, Color::White);
    let mut s = VcfSolver::new(1 << 20);
    assert_eq!(
        vcf_defences(&mut quiet, Color::Black, &mut s, 99, 1_000_000, &NO_STOP),
        None
    );
}

#[test]
fn renju_vcf_defences_against_white_forbidden_trick_match_brute_force() {
    let rows = [
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
    // Black to move against white's threat (5,11) with the forbidden block at (5,7).
    let mut b = diagram(&rows, Rule::Renju, Color::Black);
    let mut s = VcfSolver::new(1 << 20);
    let got = vcf_defences(&mut b, Color::White, &mut s, 99, 1_000_000, &NO_STOP)
        .expect("white threatens a VCF");
    let want = brute_force_vcf_defences(&mut b, Color::White);
    assert_eq!(got, want);
    assert!(got.contains(&Pos::new(5, 11)));
    assert!(!got.contains(&Pos::new(5, 7)), "forbidden to black");
}

#[test]
fn vct_defences_list_exactly_the_moves_after_which_no_win_is_proven() {
    let mut b = diagram(&DOUBLE_THREE, Rule::Freestyle, Color::White);
    let mut vcf = VcfSolver::new(1 << 20);
    let mut vct = VctSolver::new(1 << 22);
    let got = vct_defences(
        &mut b,
        Color::Black,
        &mut vcf,
        &mut vct,
        99,
        2_000_000,
        usize::MAX,
        &NO_STOP,
    )
    .expect("black threatens a VCT");
    // Every listed move leaves black without a proven VCT; every other legal square
    // lets black win.
    let squares: Vec<Pos> = b.all_squares().filter(|&p| b.is_empty(p)).collect();
    for p in squares {
        b.make(p);
        let r = vct.solve(&mut b, Color::Black, 99, 2_000_000, &NO_STOP);
        b.unmake();
        if got.contains(&p) {
            assert!(!r.is_win(), "{p:?} listed but black still wins");
        } else if b.is_near(p) {
            assert!(r.is_win(), "{p:?} not listed but black has no VCT");
        }
    }
}

#[test]
fn vct_defences_give_no_list_when_more_squares_survive_than_the_cap() {
    // DOUBLE_THREE's black twos, with three white stones that leave a few defences.
    let black = vec![
        Pos::new(8, 5),
        Pos::new(8, 6),
        Pos::new(6, 7),
        Pos::new(7, 7),
    ];
    let white = vec![Pos::new(8, 4), Pos::new(5, 7), Pos::new(8, 8)];
    let mut b = stones(15, Rule::Freestyle, black, white, Color::White);
    // Fresh solvers for each call: a table kept from an earlier call can refute more.
    let run = |b: &mut Board, cap: usize| {
        let mut vcf = VcfSolver::new(1 << 20);
        let mut vct = VctSolver::new(1 << 22);
        vct_defences(
            b,
            Color::Black,
            &mut vcf,
            &mut vct,
            99,
            2_000_000,
            cap,
            &NO_STOP,
        )
    };
    let all = run(&mut b, usize::MAX).expect("black threatens a VCT");
    assert!(all.len() >= 2, "{all:?}");
    assert_eq!(
        run(&mut b, all.len()),
        Some(all.clone()),
        "the cap is inclusive"
    );
    assert_eq!(run(&mut b, all.len() - 1), None, "one square over the cap");
}

/// quintet disproves a win within 7 attacks for this case, but only over its threats of
/// depth 2 (`threat_limit=2`: moves that set up a two-four VCF); a threat here may be any
/// move after which a defender pass loses to a VCF of any length. The 15-ply win (7
/// attacks and the five) found is replayed against every defence.
const BEYOND_THREAT_LIMIT: &str = "vct_game_white_l08_5_short";

#[test]
fn quintet_l08_5_short_has_a_15_ply_win_beyond_quintets_threat_limit() {
    let case = quintet_cases()
        .into_iter()
        .find(|c| c.name == BEYOND_THREAT_LIMIT)
        .unwrap();
    assert!(!case.proven);
    let mut b = case.board;
    match vct(&mut b, 2 * case.limit + 1, 3_000_000, 15) {
        ThreatResult::Win { plies, .. } => assert!(plies <= 15, "{plies}"),
        other => panic!("expected the verified win, got {other:?}"),
    }
}
