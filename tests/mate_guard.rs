//! `mate_guard`: a node whose searched moves all lost to a mate searches the moves the
//! top-N cut and move-count pruning left out before it is called lost. Without it the
//! search can prove a "mate" that is only a pruned-away defence. No timing assertions.

mod common;

use common::{bench_boards, fixed_limits as limits, search_spec as search};
use sente::types::is_mate;

/// Bench position 9 (renju, white to move): Rapfi values it +198 for white after a 5-s
/// search (best 4,7), and a search of the 40 best moves at every node without
/// move-count pruning gives +44 at depth 14 (best 4,7); the default search, which cuts
/// each node to its 20 best and prunes late moves near the leaves, called white mated at
/// depth 14 without the singular extension (the default since the forty-second session
/// changes the tree, and so does renju's reverse futility to 8 plies since the
/// forty-fourth session; the test keeps the one it was made on).
fn renju_position() -> sente::board::Board {
    bench_boards().nth(8).expect("ten bench positions").1
}

#[test]
fn a_mate_from_pruned_defences_is_not_claimed_with_mate_guard() {
    let mut b = renju_position();
    let plain = search(
        &mut b,
        "threats=0,se=off,rfp_renju=2,rfp_margin_renju=80,mate_guard=0",
        &limits(14, None),
    );
    assert!(
        is_mate(plain.value) && plain.value < 0,
        "the unguarded search no longer claims the false mate ({}, {:?}): pick another \
         position for this test",
        plain.value,
        plain.best
    );
    let guarded = search(
        &mut b,
        "threats=0,se=off,rfp_renju=2,rfp_margin_renju=80,mate_guard=1",
        &limits(14, None),
    );
    assert!(
        !is_mate(guarded.value),
        "depth 14 with mate_guard=1: {} ({:?})",
        guarded.value,
        guarded.best
    );
}
