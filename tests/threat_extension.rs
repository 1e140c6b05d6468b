//! The threat extension (`three_ext`): a move that makes an open three, a four or better
//! for the mover is searched deeper, so a fixed-depth search sees attacks of threes that
//! the same depth without it does not; the search stays deterministic. No timing
//! assertions.

mod common;

use common::{
    bench_boards, fixed_limits as limits, freestyle_board as board, repeatable_search,
    search_spec as search,
};
use sente::board::Board;
use sente::types::{Color, Rule, VALUE_MATE_IN_MAX};

/// Black to move: (9,7) makes the open three 7..9 on row 7 and, with (9,4), prepares
/// (9,6), which then makes two open threes (column 9, split, and row 6 with (10,6),
/// (11,6)).
/// The win: (9,7), a defence, (9,6), a defence, an open four — the open four point is
/// seen at the fifth ply. White's stones are far away in the corners.
fn three_then_double_three() -> Board {
    board(&[
        (7, 7),
        (0, 0),
        (8, 7),
        (14, 0),
        (9, 4),
        (0, 14),
        (10, 6),
        (14, 14),
        (11, 6),
        (14, 7),
    ])
}

#[test]
fn threat_extension_sees_a_win_through_an_open_three_one_ply_earlier() {
    let mut b = three_then_double_three();
    assert_eq!(b.side_to_move(), Color::Black);
    // The threat solvers off: only the main search can find the win.
    let off = search(&mut b, "threats=0,three_ext=0", &limits(3, None));
    assert!(
        off.value < VALUE_MATE_IN_MAX,
        "depth 3 without the extension already sees a win ({}, {:?})",
        off.value,
        off.best
    );
    let on = search(&mut b, "threats=0,three_ext=4", &limits(3, None));
    assert!(
        on.value >= VALUE_MATE_IN_MAX,
        "depth 3 with a one-ply threat extension: {} ({:?})",
        on.value,
        on.best
    );
    // Without the extension one more ply finds it too: the position is a win.
    let deeper = search(&mut b, "threats=0,three_ext=0", &limits(4, None));
    assert!(deeper.value >= VALUE_MATE_IN_MAX, "{}", deeper.value);
}

#[test]
fn threat_extension_changes_the_tree_and_is_deterministic() {
    let mut changed = 0;
    for (what, mut b) in bench_boards() {
        let d1 = repeatable_search(&what, &mut b, "three_ext=1,three_ext_renju=1", 7);
        let off = search(&mut b, "three_ext=0,three_ext_renju=0", &limits(7, None));
        changed += usize::from(off.nodes != d1.nodes);
    }
    assert!(changed >= 10, "only {changed} searches changed");
}

#[test]
fn renju_games_take_the_threat_extension_of_three_ext_renju() {
    let (mut renju, mut changed, mut others) = (0, 0, 0);
    for (what, mut b) in bench_boards() {
        let fixed = limits(7, None);
        let base = search(&mut b, "three_ext=0,three_ext_renju=0", &fixed).nodes;
        let general = search(&mut b, "three_ext=1,three_ext_renju=0", &fixed).nodes;
        let renju_key = search(&mut b, "three_ext=0,three_ext_renju=1", &fixed).nodes;
        if b.rule() == Rule::Renju {
            renju += 1;
            assert_eq!(general, base, "{what}: `three_ext` changed a renju search");
            changed += usize::from(renju_key != base);
        } else {
            others += 1;
            assert_eq!(renju_key, base, "{what}: `three_ext_renju` outside renju");
        }
    }
    assert!(
        renju > 0 && others > 0,
        "{renju} renju and {others} other positions"
    );
    assert!(
        2 * changed >= renju,
        "`three_ext_renju` changed {changed} of {renju} renju searches"
    );
}
