//! The depth of a late-move reduction's re-search (`lmr_deeper`, `lmr_shallower`): off
//! by default; on, they change the tree, stay deterministic at a fixed node count and at
//! a fixed depth, and the search still finds the forced win and stops the open three it
//! did without them. No timing assertions.

mod common;

use common::{
    assert_finds_the_win_of_an_open_three, assert_stops_an_open_three, bench_boards, bench_pairs,
    fixed_limits as limits, search_spec as search,
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
