//! The threat solvers' self-checks: with each switched on, the solvers verify every
//! verdict of one of their shortcuts against the slow way (and panic on a wrong one)
//! while solving the quintet VCT cases. Built only with the `self-check` feature
//! (`cargo test --release --features self-check --test threat_self_check`, which
//! `.ci/run` runs); each solver carries its own switches, so these tests run in
//! parallel without seeing each other's checks.
#![cfg(feature = "self-check")]

mod threat_support;

use sente::threat::self_check::{SelfCheckCounts, SelfChecks};
use sente::threat::vct::VctSolver;
use sente::types::Color;
use std::sync::atomic::AtomicBool;
use threat_support::quintet_cases;

static NO_STOP: AtomicBool = AtomicBool::new(false);

/// Solve every VCT case of the quintet set (200,000 nodes each, the side to move
/// attacking) with a fresh solver running the self-checks `checks`, calling `after` with
/// the attacker and the checks of that case once each is done; the checks of all cases.
fn checks_with(
    checks: SelfChecks,
    mut after: impl FnMut(Color, SelfCheckCounts),
) -> SelfCheckCounts {
    let mut total = SelfCheckCounts::default();
    for case in quintet_cases().into_iter().filter(|c| c.mode != "vcf") {
        let mut b = case.board;
        let a = b.side_to_move();
        let mut s = VctSolver::new(1 << 22);
        s.set_self_checks(checks);
        s.solve(&mut b, a, 2 * case.limit + 1, 200_000, &NO_STOP);
        let n = s.self_check_counts();
        after(a, n);
        total = total + n;
    }
    total
}

#[test]
fn defences_passed_over_by_the_line_shortcut_leave_the_line_working() {
    // Every defence that the df-pn search counts as refuted without a replay (the line
    // provably still works) is replayed here too; a wrong verdict panics in the solver.
    let mut colours = [false; 2];
    let checks = SelfChecks {
        line_shortcut: true,
        ..SelfChecks::default()
    };
    let n = checks_with(checks, |a, _| colours[a.idx()] = true).line_shortcut;
    assert_eq!(colours, [true, true], "both colours attack");
    assert!(n > 1000, "{n} shortcuts checked");
}

#[test]
fn threats_refuted_by_a_defender_vcf_leave_the_defender_a_working_vcf_line() {
    // Every AND node that the df-pn search disproves because the defender has a VCF
    // gets that VCF's line replayed move by move on the real position (every four a
    // four, every reply forced and legal, the attacker never first to a five); the
    // solver panics on a line that does not hold.
    let mut colours = [false; 2];
    let checks = SelfChecks {
        defender_vcf: true,
        ..SelfChecks::default()
    };
    let n = checks_with(checks, |a, n| {
        if n.defender_vcf > 0 {
            colours[a.idx()] = true;
        }
    })
    .defender_vcf;
    assert!(n > 100, "{n} refutations checked");
    assert_eq!(
        colours,
        [true, true],
        "refutations with both colours attacking"
    );
}

#[test]
fn defences_refuted_by_an_earlier_quick_looks_line_leave_the_attacker_a_vcf() {
    // Every candidate defence that the df-pn search counts as refuted because the line
    // of a VCF found after a sibling candidate still replays is given to a fresh VCF
    // solver, which must find a win; the solver panics otherwise.
    let checks = SelfChecks {
        alt_lines: true,
        ..SelfChecks::default()
    };
    let n = checks_with(checks, |_, _| {}).alt_lines;
    assert!(n > 100, "{n} refutations checked");
}

#[test]
fn cached_and_expansions_match_the_ones_generated_afresh() {
    // Every AND node that the side table would expand is expanded afresh too (pass
    // test, line, candidate defences); the solver panics if the two differ.
    let checks = SelfChecks {
        and_cache: true,
        ..SelfChecks::default()
    };
    let n = checks_with(checks, |_, _| {}).and_cache;
    assert!(n > 300, "{n} hits checked");
}

#[test]
fn cached_or_threats_match_the_ones_generated_afresh() {
    // Every OR node whose threats the side table holds scans the board afresh too
    // (squares, classes, the defender's fours after each threat); the solver panics if
    // the two differ.
    let checks = SelfChecks {
        or_cache: true,
        ..SelfChecks::default()
    };
    let n = checks_with(checks, |_, _| {}).or_cache;
    assert!(n > 300, "{n} hits checked");
}

#[test]
fn four_lists_derived_from_the_parents_match_a_scan_of_the_board() {
    // Every VCF node that derives its attacker's four squares from the list two plies up
    // and the last four's lines also scans the whole board; the solver panics if the
    // two lists differ.
    let checks = SelfChecks {
        derived_fours: true,
        ..SelfChecks::default()
    };
    let n = checks_with(checks, |_, _| {}).derived_fours;
    assert!(n > 1000, "{n} derived lists checked");
}

#[test]
fn every_check_at_once_passes() {
    // All switches together (the checks interact: the AND-cache check expands afresh,
    // which runs the others on those expansions too).
    let n = checks_with(SelfChecks::ALL, |_, _| {});
    assert!(
        n.line_shortcut > 0 && n.defender_vcf > 0 && n.alt_lines > 0,
        "{n:?}"
    );
    assert!(
        n.and_cache > 0 && n.or_cache > 0 && n.derived_fours > 0,
        "{n:?}"
    );
}
