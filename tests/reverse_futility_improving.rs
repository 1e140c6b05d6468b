//! Reverse futility by improvement (`rfp_imp`): off by default; on, a node whose static
//! value rose over the last two plies prunes with a ply less of margin, so fixed-depth
//! trees shrink, stay deterministic, and the forced wins and defences are still found.
//! Without reverse futility the option changes nothing (it acts only through it). No
//! timing assertions.

mod common;

use common::{
    assert_changes_nothing, assert_finds_the_win_of_an_open_three,
    assert_node_limited_searches_repeat, assert_proves_the_win_carried_by_fours,
    assert_stops_an_open_three, fixed_depth_change,
};
use sente::search::params::SearchParams;

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
        // Repeatable at depth 8 (checked by `fixed_depth_change`).
        let (changed, on_nodes, off_nodes) = fixed_depth_change(s, &base, 8);
        assert!(changed >= 5, "{s}: only {changed} searches changed");
        assert!(
            on_nodes < off_nodes,
            "{s}: {on_nodes} nodes with the improvement margin, {off_nodes} without"
        );
        // A node limit far below the depth's needs: the limit stops the search.
        assert_node_limited_searches_repeat(s);
    }
}

#[test]
fn improvement_margin_acts_only_through_reverse_futility() {
    // Reverse futility off in every rule: the static values computed for the option
    // must not change the tree.
    let off = "rfp=0,rfp_renju=0";
    assert_changes_nothing(&format!("{off},rfp_imp=on"), off, 6, "rfp_imp");
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
    assert_proves_the_win_carried_by_fours(&SETTINGS);
}
