//! Ordering by the evaluation (`order_net`): off by default; on, the unforced nodes far
//! enough from the leaves order their top-N moves by the leaf search's value after each,
//! so fixed-depth trees change, stay deterministic, and the forced wins and defences are
//! still found. Below its depth the key changes nothing. `order_net_all` values every
//! listed move (the top N chosen so); `root_net` orders the root moves the same way. No
//! timing assertions.

mod common;

use common::{
    assert_changes_nothing, assert_finds_the_win_of_an_open_three,
    assert_node_limited_searches_repeat, assert_proves_the_win_carried_by_fours,
    assert_stops_an_open_three, fixed_depth_change,
};
use sente::search::params::SearchParams;

const SETTINGS: [&str; 4] = [
    "order_net=2",
    "order_net=4",
    "order_net=4,order_net_all=on",
    "root_net=on",
];

#[test]
fn ordering_by_the_network_is_off_by_default() {
    assert_eq!(SearchParams::default().order_net, 0);
    let mut p = SearchParams::default();
    p.apply(SETTINGS[1]).unwrap();
    assert_eq!(p.order_net, 4);
    assert!(!SearchParams::default().order_net_all);
    assert!(!SearchParams::default().root_net);
}

#[test]
fn ordering_by_the_network_changes_fixed_depth_trees_and_is_deterministic() {
    for s in SETTINGS {
        // Repeatable at depth 8 (checked by `fixed_depth_change`).
        let (changed, on_nodes, off_nodes) = fixed_depth_change(s, "order_net=0", 8);
        assert!(
            changed >= 5,
            "{s}: only {changed} searches changed ({on_nodes} nodes against {off_nodes})"
        );
        assert_node_limited_searches_repeat(s);
    }
}

#[test]
fn ordering_by_the_network_acts_only_from_its_depth() {
    // No node of a 6-ply search has 20 plies left: nothing may change.
    assert_changes_nothing("order_net=20", "order_net=0", 6, "order_net");
    assert_changes_nothing(
        "order_net=20,order_net_all=on",
        "order_net=0",
        6,
        "order_net_all",
    );
}

#[test]
fn valuing_every_listed_move_chooses_other_moves_than_reordering_the_top_n() {
    let (changed, _, _) = fixed_depth_change("order_net=4,order_net_all=on", "order_net=4", 8);
    assert!(changed >= 5, "only {changed} searches changed");
}

#[test]
fn valuing_every_listed_move_needs_order_net() {
    assert_changes_nothing("order_net_all=on", "order_net=0", 6, "order_net_all");
}

#[test]
fn ordering_by_the_network_still_finds_the_win_of_an_open_three() {
    for s in SETTINGS {
        assert_finds_the_win_of_an_open_three(s);
    }
}

#[test]
fn ordering_by_the_network_still_stops_an_open_three() {
    for s in SETTINGS {
        assert_stops_an_open_three(s);
    }
}

#[test]
fn ordering_by_the_network_still_proves_a_win_carried_by_fours() {
    assert_proves_the_win_carried_by_fours(&SETTINGS);
}
