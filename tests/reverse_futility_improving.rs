//! Reverse futility by improvement (`rfp_imp`): off by default; on, a node whose static
//! value rose over the last two plies prunes with a ply less of margin, so fixed-depth
//! trees shrink, stay deterministic, and the forced wins and defences are still found.
//! Without reverse futility the option changes nothing (it acts only through it). No
//! timing assertions.

mod common;

use common::{
    assert_finds_the_win_of_an_open_three, assert_stops_an_open_three, bench_boards, bench_pairs,
    fixed_limits as limits, search_spec as search, win_carried_by_fours,
};
use sente::search::params::SearchParams;
use sente::types::{Color, VALUE_MATE_IN_MAX};

const SETTINGS: [&str; 2] = ["rfp_imp=on", "rfp_imp=on,rfp=4,rfp_renju=4"];

#[test]
fn improvement_margin_is_off_by_default() {
    assert!(!SearchParams::default().rfp_imp);
    let mut p = SearchParams::default();
    p.apply(SETTINGS[0]).unwrap();
    assert!(p.rfp_imp);
}

#[test]
fn improvement_margin_shrinks_fixed_depth_trees_and_is_deterministic() {
    for s in SETTINGS {
        let base = s.replacen("rfp_imp=on", "rfp_imp=off", 1);
        let (mut on_nodes, mut off_nodes, mut changed) = (0, 0, 0);
        // Repeatable at depth 8 (checked by `bench_pairs`).
        for (_, on, off) in bench_pairs(s, &base, 8) {
            changed += usize::from(on.nodes != off.nodes);
            on_nodes += on.nodes;
            off_nodes += off.nodes;
        }
        assert!(changed >= 5, "{s}: only {changed} searches changed");
        assert!(
            on_nodes < off_nodes,
            "{s}: {on_nodes} nodes with the improvement margin, {off_nodes} without"
        );
        for (name, mut b) in bench_boards() {
            let nodes = limits(60, Some(20_000));
            let r1 = search(&mut b, s, &nodes);
            let r2 = search(&mut b, s, &nodes);
            assert_eq!(
                (r1.nodes, r1.best, r1.value, r1.depth),
                (r2.nodes, r2.best, r2.value, r2.depth),
                "{name} {s}: two node-limited searches differ"
            );
            assert!(b.is_legal(r1.best), "{name} {s}: {:?}", r1.best);
        }
    }
}

#[test]
fn improvement_margin_acts_only_through_reverse_futility() {
    // Reverse futility off in every rule: the static values computed for the option
    // must not change the tree.
    let off = "rfp=0,rfp_renju=0";
    for (name, on, plain) in bench_pairs(&format!("{off},rfp_imp=on"), off, 6) {
        assert_eq!(
            (on.nodes, on.best, on.value),
            (plain.nodes, plain.best, plain.value),
            "{name}: rfp_imp changed a search without reverse futility"
        );
    }
}

#[test]
fn improvement_margin_still_finds_the_win_of_an_open_three() {
    for s in SETTINGS {
        assert_finds_the_win_of_an_open_three(s);
    }
}

#[test]
fn improvement_margin_still_stops_an_open_three() {
    for s in SETTINGS {
        assert_stops_an_open_three(s);
    }
}

#[test]
fn improvement_margin_still_proves_a_win_carried_by_fours() {
    let mut b = win_carried_by_fours();
    assert_eq!(b.side_to_move(), Color::Black);
    let first = (1..=8)
        .find(|&d| search(&mut b, "threats=0", &limits(d, None)).value >= VALUE_MATE_IN_MAX)
        .expect("the search proves the win within 8 plies");
    for s in SETTINGS {
        let r = search(&mut b, &format!("threats=0,{s}"), &limits(first + 1, None));
        assert!(
            r.value >= VALUE_MATE_IN_MAX,
            "depth {} with {s}: {} ({:?})",
            first + 1,
            r.value,
            r.best
        );
    }
}
