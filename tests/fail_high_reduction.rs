//! The fail-high reduction (`fhr`): at a node whose static value beats beta by `fhr` per
//! ply left, the moves that make no four are searched a ply shallower. It must shrink
//! fixed-depth trees, stay deterministic, and never reduce a four (a win carried by fours
//! is found at the same depth). No timing assertions.

mod common;

use common::{bench_pairs, fixed_limits as limits, search_spec as search, win_carried_by_fours};
use sente::types::{Color, VALUE_MATE_IN_MAX};

#[test]
fn fail_high_reduction_shrinks_fixed_depth_trees_and_is_deterministic() {
    let (mut on_nodes, mut off_nodes, mut changed) = (0, 0, 0);
    // Reverse futility to 8 plies (renju's since the forty-fourth session, every rule's
    // since the forty-fifth) returns at most of the nodes the reduction would shrink; the
    // test keeps the trees it was made on (reverse futility to 2 plies, margin 80).
    let pin = "rfp=2,rfp_margin=80,rfp_renju=2,rfp_margin_renju=80";
    for (_, on, off) in bench_pairs(&format!("fhr=30,{pin}"), &format!("fhr=0,{pin}"), 8) {
        changed += usize::from(off.nodes != on.nodes);
        on_nodes += on.nodes;
        off_nodes += off.nodes;
    }
    assert!(changed >= 8, "only {changed} searches changed");
    assert!(
        on_nodes * 10 < off_nodes * 9,
        "fhr=30: {on_nodes} nodes against {off_nodes} without it"
    );
}

#[test]
fn fail_high_reduction_spares_fours_and_keeps_the_win() {
    let mut b = win_carried_by_fours();
    assert_eq!(b.side_to_move(), Color::Black);
    // The shallowest depth at which the main search alone (no threat solvers) proves
    // the win, without the reduction.
    let first = (1..=8)
        .find(|&d| search(&mut b, "threats=0,fhr=0", &limits(d, None)).value >= VALUE_MATE_IN_MAX)
        .expect("the search proves the win within 8 plies");
    assert!(first >= 4, "the win is proved already at depth {first}");
    // The most aggressive setting reduces every node a little above beta: the fours
    // are still searched at full depth.
    let on = search(&mut b, "threats=0,fhr=1", &limits(first, None));
    assert!(
        on.value >= VALUE_MATE_IN_MAX,
        "depth {first} with fhr=1: {} ({:?})",
        on.value,
        on.best
    );
}
