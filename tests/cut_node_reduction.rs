//! Cut-node reductions (`lmr_cut`): off by default; on, the unforced moves past the first
//! at a node expected to fail high (not the killers) are reduced a few quarter plies
//! more, so fixed-depth trees shrink, stay deterministic, and the forced wins and
//! defences are still found. With late-move reductions off the key changes nothing. No
//! timing assertions.

mod common;

use common::{
    assert_changes_nothing, assert_finds_the_win_of_an_open_three,
    assert_node_limited_searches_repeat, assert_proves_the_win_carried_by_fours,
    assert_stops_an_open_three, fixed_depth_change,
};
use sente::search::params::SearchParams;

const SETTINGS: [&str; 2] = ["lmr_cut=4", "lmr_cut=8"];

#[test]
fn cut_node_reduction_is_off_by_default() {
    assert_eq!(SearchParams::default().lmr_cut, 0);
    let mut p = SearchParams::default();
    p.apply(SETTINGS[0]).unwrap();
    assert_eq!(p.lmr_cut, 4);
}

#[test]
fn cut_node_reduction_shrinks_fixed_depth_trees_and_is_deterministic() {
    for s in SETTINGS {
        // Repeatable at depth 8 (checked by `fixed_depth_change`).
        let (changed, on_nodes, off_nodes) = fixed_depth_change(s, "lmr_cut=0", 8);
        assert!(changed >= 5, "{s}: only {changed} searches changed");
        assert!(
            on_nodes < off_nodes,
            "{s}: {on_nodes} nodes with the cut-node reduction, {off_nodes} without"
        );
        assert_node_limited_searches_repeat(s);
    }
}

#[test]
fn cut_node_reduction_is_a_late_move_reduction() {
    // Late-move reductions off: the key must not reduce anything.
    assert_changes_nothing("lmr=off,lmr_cut=8", "lmr=off", 6, "lmr_cut");
}

#[test]
fn cut_node_reduction_still_finds_the_win_of_an_open_three() {
    for s in SETTINGS {
        assert_finds_the_win_of_an_open_three(s);
    }
}

#[test]
fn cut_node_reduction_still_stops_an_open_three() {
    for s in SETTINGS {
        assert_stops_an_open_three(s);
    }
}

#[test]
fn cut_node_reduction_still_proves_a_win_carried_by_fours() {
    assert_proves_the_win_carried_by_fours(&SETTINGS);
}
