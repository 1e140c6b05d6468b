//! Razoring (`razor`, `razor_margin`): off by default; on, it shrinks fixed-depth trees,
//! stays deterministic at a fixed depth and node count, and the main search still finds
//! the forced wins (an open three, a win carried by fours) and stops the open three it
//! did without it. No timing assertions.

mod common;

use common::{
    assert_finds_the_win_of_an_open_three, assert_node_limited_searches_repeat,
    assert_proves_the_win_carried_by_fours, assert_stops_an_open_three, bench_boards, bench_pairs,
    fixed_depth_change, fixed_limits as limits, search_spec as search,
};
use sente::search::params::SearchParams;
use sente::types::Rule;

const SETTINGS: [&str; 3] = [
    "razor=2,razor_renju=2",
    "razor=4,razor_renju=4",
    "razor=8,razor_margin=20,razor_renju=8",
];

#[test]
fn razoring_is_off_by_default() {
    let d = SearchParams::default();
    assert_eq!((d.razor_depth, d.razor_margin), (0, 40));
    assert_eq!(d.razor_depth_renju, 0);
    let mut p = SearchParams::default();
    p.apply(SETTINGS[2]).unwrap();
    assert_eq!(
        (p.razor_depth, p.razor_margin, p.razor_depth_renju),
        (8, 20, 8)
    );
}

#[test]
fn renju_razors_by_its_own_key() {
    // `razor` leaves renju games alone and `razor_renju` the others.
    let (mut renju, mut others) = (0, 0);
    for (i, (name, mut b)) in bench_boards().enumerate() {
        let is_renju = b.rule() == Rule::Renju;
        renju += usize::from(is_renju);
        others += usize::from(!is_renju);
        let plain = search(&mut b, "", &limits(8, None));
        // The key of the other rules: no change at all (whether the key of the board's
        // own rule changes it is counted below).
        let other = if is_renju { "razor=4" } else { "razor_renju=4" };
        let r = search(&mut b, other, &limits(8, None));
        assert_eq!(
            (r.nodes, r.best, r.value),
            (plain.nodes, plain.best, plain.value),
            "position {i} ({name}): {other} changed the search"
        );
    }
    assert!(
        renju >= 2 && others >= 2,
        "{renju} renju positions, {others} others"
    );
    let changed = |s: &str, want_renju: bool| {
        bench_pairs(s, "", 8)
            .into_iter()
            .zip(bench_boards())
            .filter(|((_, on, off), (_, b))| {
                (b.rule() == Rule::Renju) == want_renju && on.nodes != off.nodes
            })
            .count()
    };
    assert!(
        changed("razor=4", false) >= 2,
        "razor=4 changed too few positions"
    );
    assert!(
        changed("razor_renju=4", true) >= 2,
        "razor_renju=4 changed too few renju positions"
    );
}

#[test]
fn razoring_shrinks_fixed_depth_trees_and_is_deterministic() {
    for s in SETTINGS {
        // Repeatable at depth 8 (checked by `fixed_depth_change`).
        let (changed, on_nodes, off_nodes) = fixed_depth_change(s, "", 8);
        assert!(changed >= 5, "{s}: only {changed} searches changed");
        assert!(
            on_nodes < off_nodes,
            "{s}: {on_nodes} nodes with razoring, {off_nodes} without"
        );
        // A node limit far below the depth's needs: the limit stops the search.
        assert_node_limited_searches_repeat(s);
    }
}

#[test]
fn razoring_still_finds_the_win_of_an_open_three() {
    for s in SETTINGS {
        assert_finds_the_win_of_an_open_three(s);
    }
}

#[test]
fn razoring_still_stops_an_open_three() {
    for s in SETTINGS {
        assert_stops_an_open_three(s);
    }
}

#[test]
fn razoring_still_proves_a_win_carried_by_fours() {
    let first = assert_proves_the_win_carried_by_fours(&SETTINGS);
    assert!(first >= 4, "the win is proved already at depth {first}");
}
