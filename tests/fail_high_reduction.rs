//! The fail-high reduction (`fhr`): at a node whose static value beats beta by `fhr` per
//! ply left, the moves that make no four are searched a ply shallower. It must shrink
//! fixed-depth trees, stay deterministic, and never reduce a four (a win carried by fours
//! is found at the same depth). No timing assertions.

mod common;

use common::{
    bench_boards, fixed_limits as limits, freestyle_board as board, repeatable_search,
    search_spec as search,
};
use sente::board::Board;
use sente::types::{Color, VALUE_MATE_IN_MAX};

#[test]
fn fail_high_reduction_shrinks_fixed_depth_trees_and_is_deterministic() {
    let (mut on_nodes, mut off_nodes, mut changed) = (0, 0, 0);
    for (what, mut b) in bench_boards() {
        let on = repeatable_search(&what, &mut b, "fhr=30", 8);
        let off = search(&mut b, "fhr=0", &limits(8, None));
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

/// Black to move wins (found by a seeded random search over playouts): the threat
/// solver proves a VCT of 19 plies from (6,10), and the main search alone (no solvers)
/// proves a win from depth 6. The line is carried by fours; when the reduction was made
/// to cut fours too, depth 6 with `fhr=1` no longer found the win.
fn win_carried_by_fours() -> Board {
    board(&[
        (6, 7),
        (8, 8),
        (7, 11),
        (7, 10),
        (5, 9),
        (10, 5),
        (5, 11),
        (9, 7),
        (10, 7),
        (11, 3),
        (9, 9),
        (6, 4),
    ])
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
