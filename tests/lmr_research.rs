//! The depth of a late-move reduction's re-search (`lmr_deeper`, `lmr_shallower`): off
//! by default; on, they change the tree, stay deterministic at a fixed node count and at
//! a fixed depth, and the search still finds the forced win and stops the open three it
//! did without them. No timing assertions.

mod common;

use common::{
    assert_finds_the_win_of_an_open_three, assert_node_limited_searches_repeat,
    assert_stops_an_open_three, bench_pairs,
};
use sente::search::params::SearchParams;

const SETTINGS: [&str; 3] = [
    "lmr_deeper=40",
    "lmr_shallower=20",
    "lmr_deeper=60,lmr_shallower=10",
];

#[test]
fn lmr_research_depth_is_off_by_default() {
    let d = SearchParams::default();
    assert_eq!((d.lmr_deeper, d.lmr_shallower), (0, 0));
    let mut p = SearchParams::default();
    p.apply(SETTINGS[2]).unwrap();
    assert_eq!((p.lmr_deeper, p.lmr_shallower), (60, 10));
}

#[test]
fn lmr_research_depth_changes_the_tree_and_is_deterministic_at_fixed_nodes_and_depth() {
    for s in SETTINGS {
        // Repeatable at depth 8 (checked by `bench_pairs`) and changed from the default.
        let changed = bench_pairs(s, "", 8)
            .iter()
            .filter(|(_, on, off)| on.nodes != off.nodes)
            .count();
        // Each setting reaches the re-searches at these depths (it is not a no-op).
        assert!(changed >= 3, "{s}: only {changed} searches changed");
        // A node limit far below the depth's needs: the limit stops the search.
        assert_node_limited_searches_repeat(s);
    }
}

#[test]
fn lmr_research_depth_still_finds_the_win_of_an_open_three() {
    for s in SETTINGS {
        assert_finds_the_win_of_an_open_three(s);
    }
}

#[test]
fn lmr_research_depth_still_stops_an_open_three() {
    for s in SETTINGS {
        assert_stops_an_open_three(s);
    }
}
