//! Reverse futility at expected cut nodes (`rfp_cut`): 1000 (the usual margin) by default;
//! smaller, the nodes expected to fail high that the table knows nothing of prune with less
//! margin, so fixed-depth searches change, stay deterministic, and the forced wins and
//! defences are still found. Without reverse futility the key changes nothing. No timing
//! assertions.

mod common;

use common::{
    assert_changes_nothing, assert_finds_the_win_of_an_open_three,
    assert_node_limited_searches_repeat, assert_proves_the_win_carried_by_fours,
    assert_stops_an_open_three, fixed_depth_change,
};
use sente::search::params::SearchParams;

const SETTINGS: [&str; 2] = ["rfp_cut=800", "rfp_cut=500,rfp=4,rfp_renju=4"];

#[test]
fn cut_node_margin_is_the_usual_one_by_default() {
    assert_eq!(SearchParams::default().rfp_cut, 1000);
    let mut p = SearchParams::default();
    p.apply(SETTINGS[0]).unwrap();
    assert_eq!(p.rfp_cut, 800);
}

#[test]
fn cut_node_margin_changes_fixed_depth_searches_deterministically() {
    // Each setting against the same search with the usual margin.
    for (s, base) in SETTINGS
        .into_iter()
        .zip(["rfp_cut=1000", "rfp=4,rfp_renju=4"])
    {
        // Repeatable at depth 8 (checked by `fixed_depth_change`).
        let (changed, _, _) = fixed_depth_change(s, base, 8);
        assert!(changed >= 5, "{s}: only {changed} searches changed");
        assert_node_limited_searches_repeat(s);
    }
}

#[test]
fn cut_node_margin_acts_only_through_reverse_futility() {
    let off = "rfp=0,rfp_renju=0";
    assert_changes_nothing(&format!("{off},rfp_cut=300"), off, 6, "rfp_cut");
}

#[test]
fn cut_node_margin_still_finds_the_win_of_an_open_three() {
    for s in SETTINGS {
        assert_finds_the_win_of_an_open_three(s);
    }
}

#[test]
fn cut_node_margin_still_stops_an_open_three() {
    for s in SETTINGS {
        assert_stops_an_open_three(s);
    }
}

#[test]
fn cut_node_margin_still_proves_a_win_carried_by_fours() {
    assert_proves_the_win_carried_by_fours(&SETTINGS);
}
