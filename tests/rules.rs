//! Rule cases, each named after the rule it checks. Positions are hand-made on 15×15
//! unless said otherwise; coordinates are (x, y), 0-based.

mod common;
use common::position;
use sente::board::Board;
use sente::types::{Color, Pos, Rule};

use sente::board::{MoveOutcome, PlayError};
use sente::pattern::Pattern4;

const B: Color = Color::Black;
const W: Color = Color::White;

fn p(x: usize, y: usize) -> Pos {
    Pos::new(x, y)
}

/// Black row (3..=6, 7) plus (8, 7): playing (7, 7) makes six in a row.
const OVERLINE_ROW: [(usize, usize); 5] = [(3, 7), (4, 7), (5, 7), (6, 7), (8, 7)];

#[test]
fn exact_five_wins_under_every_rule() {
    for rule in Rule::ALL {
        let mut b = position(15, rule, &[(3, 7), (4, 7), (5, 7), (6, 7)], &[], B);
        assert_eq!(b.play(p(7, 7)), Ok(MoveOutcome::Win), "{rule:?}");
        assert_eq!(b.play(p(0, 7)), Err(PlayError::GameOver));
    }
}

#[test]
fn overline_wins_in_freestyle_and_caro8() {
    for rule in [Rule::Freestyle, Rule::Caro8] {
        let mut b = position(15, rule, &OVERLINE_ROW, &[], B);
        assert_eq!(b.play(p(7, 7)), Ok(MoveOutcome::Win), "{rule:?}");
    }
}

#[test]
fn overline_is_not_five_in_standard() {
    for to_move in [B, W] {
        let (blacks, whites) = if to_move == B {
            (&OVERLINE_ROW[..], &[][..])
        } else {
            (&[][..], &OVERLINE_ROW[..])
        };
        let mut b = position(15, Rule::Standard, blacks, whites, to_move);
        assert_eq!(b.pattern4(p(7, 7), to_move), Pattern4::None);
        assert_eq!(b.play(p(7, 7)), Ok(MoveOutcome::Continue));
    }
}

#[test]
fn overline_is_not_five_in_caro9() {
    let mut b = position(15, Rule::Caro9, &OVERLINE_ROW, &[], B);
    assert_eq!(b.play(p(7, 7)), Ok(MoveOutcome::Continue));
}

#[test]
fn renju_black_overline_is_forbidden() {
    let mut b = position(15, Rule::Renju, &OVERLINE_ROW, &[], B);
    assert!(b.is_forbidden(p(7, 7)));
    assert_eq!(b.play(p(7, 7)), Ok(MoveOutcome::Foul));
}

#[test]
fn renju_white_overline_wins() {
    let mut b = position(15, Rule::Renju, &[], &OVERLINE_ROW, W);
    assert_eq!(b.play(p(7, 7)), Ok(MoveOutcome::Win));
}

#[test]
fn renju_double_three_is_forbidden() {
    let mut b = position(15, Rule::Renju, &[(8, 7), (9, 7), (7, 8), (7, 9)], &[], B);
    assert!(b.is_forbidden(p(7, 7)));
    assert_eq!(b.forbidden_points(), vec![p(7, 7)]);
    assert!(!b.is_legal(p(7, 7)));
    assert_eq!(b.play(p(7, 7)), Ok(MoveOutcome::Foul));
}

#[test]
fn double_three_is_allowed_outside_renju_and_for_white() {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Caro8] {
        let mut b = position(15, rule, &[(8, 7), (9, 7), (7, 8), (7, 9)], &[], B);
        assert!(!b.is_forbidden(p(7, 7)));
        assert_eq!(b.pattern4(p(7, 7), B), Pattern4::Flex3x2);
    }
    let mut b = position(15, Rule::Renju, &[], &[(8, 7), (9, 7), (7, 8), (7, 9)], W);
    assert_eq!(b.play(p(7, 7)), Ok(MoveOutcome::Continue));
}

#[test]
fn renju_double_four_on_two_lines_is_forbidden() {
    let mut b = position(
        15,
        Rule::Renju,
        &[(8, 7), (9, 7), (10, 7), (7, 8), (7, 9), (7, 10)],
        &[(11, 7), (7, 11)],
        B,
    );
    assert!(b.is_forbidden(p(7, 7)));
    assert_eq!(b.play(p(7, 7)), Ok(MoveOutcome::Foul));
}

#[test]
fn renju_double_four_on_one_line_is_forbidden() {
    // XXX.?.XXX
    let row = [(3, 7), (4, 7), (5, 7), (9, 7), (10, 7), (11, 7)];
    let mut b = position(15, Rule::Renju, &row, &[], B);
    assert!(b.is_forbidden(p(7, 7)));
    // XX.X?.XX (the stone fills a gap of XX.XX.XX)
    let row2 = [(3, 7), (4, 7), (6, 7), (9, 7), (10, 7)];
    let mut b2 = position(15, Rule::Renju, &row2, &[], B);
    assert!(b2.is_forbidden(p(7, 7)));
    // For white the same shape is a winning double four, not a foul.
    let mut w = position(15, Rule::Renju, &[], &row, W);
    assert_eq!(w.pattern4(p(7, 7), W), Pattern4::Flex4);
    assert_eq!(w.play(p(7, 7)), Ok(MoveOutcome::Continue));
}

#[test]
fn five_beats_forbidden_shapes() {
    // Exact five on the row plus a double three (vertical and diagonal).
    let blacks = [
        (3, 7),
        (4, 7),
        (5, 7),
        (6, 7),
        (7, 8),
        (7, 9),
        (8, 8),
        (9, 9),
    ];
    let mut b = position(15, Rule::Renju, &blacks, &[], B);
    assert!(!b.is_forbidden(p(7, 7)));
    assert_eq!(b.play(p(7, 7)), Ok(MoveOutcome::Win));
    // Exact five on the row plus an overline on the column.
    let blacks = [
        (3, 7),
        (4, 7),
        (5, 7),
        (6, 7),
        (7, 3),
        (7, 4),
        (7, 5),
        (7, 6),
        (7, 8),
    ];
    let mut b = position(15, Rule::Renju, &blacks, &[], B);
    assert_eq!(b.play(p(7, 7)), Ok(MoveOutcome::Win));
}

/// Black (8,7),(9,7) and (7,8),(7,9): (7,7) makes two threes. With black columns at
/// x = 6 and x = 10 (rows 8..=10), both straight-four points of the horizontal three,
/// (6,7) and (10,7), become double fours, so that three is false.
fn false_three_position(with_right_column: bool) -> Board {
    false_three_position_with(with_right_column, &[], B)
}

/// [`false_three_position`] with white stones `whites` and `side` to move.
fn false_three_position_with(
    with_right_column: bool,
    whites: &[(usize, usize)],
    side: Color,
) -> Board {
    let mut blacks = vec![(8, 7), (9, 7), (7, 8), (7, 9), (6, 8), (6, 9), (6, 10)];
    if with_right_column {
        blacks.extend([(10, 8), (10, 9), (10, 10)]);
    }
    position(15, Rule::Renju, &blacks, whites, side)
}

#[test]
fn false_three_does_not_make_double_three() {
    let mut b = false_three_position(true);
    assert_eq!(
        b.pattern4(p(7, 7), B),
        Pattern4::Forbid,
        "tables flag the shape"
    );
    assert!(
        !b.is_forbidden(p(7, 7)),
        "one three is false: not a double three"
    );
    assert_eq!(b.play(p(7, 7)), Ok(MoveOutcome::Continue));
}

#[test]
fn three_with_one_legal_extension_is_real() {
    let mut b = false_three_position(false);
    assert!(b.is_forbidden(p(7, 7)));
}

/// The score the move generator gives `cell` on `board` (its side to move) with the
/// ordering weights `own` / `opp`, or `None` when the cell is not listed; the position
/// must leave the side to move unforced.
fn generated_score(
    board: &mut Board,
    own: &[i32; Pattern4::COUNT],
    opp: &[i32; Pattern4::COUNT],
    cell: Pos,
) -> Option<i32> {
    use sente::movegen::{generate, BBox, MoveList, OrderInfo, Stage};
    let history = [0i32; sente::types::NUM_CELLS];
    let bbox = BBox::of_board(board);
    let info = OrderInfo::plain(&history, own, opp);
    let mut list = MoveList::default();
    assert_eq!(generate(board, &bbox, &mut list, &info, 0), Stage::All);
    list.as_slice()
        .iter()
        .find(|m| m.pos == cell)
        .map(|m| m.score)
}

/// The move generator lists the legal cell of the false-three shape for black with the
/// `false_forbid` ordering weight (at weight 0 it was not listed), and never the forbidden
/// double three of the same shape.
#[test]
fn false_forbid_lists_a_legal_double_three_cell_and_never_a_forbidden_one() {
    use sente::search::params::SearchParams;
    let params = SearchParams::default();
    let mut off = SearchParams::default();
    off.apply("false_forbid=0").expect("apply");
    let cell = p(7, 7);
    for legal in [true, false] {
        let mut board = false_three_position(legal);
        assert_eq!(board.pattern4(cell, B), Pattern4::Forbid);
        assert_eq!(board.is_forbidden(cell), !legal);
        let mut listed = |own: &[i32; Pattern4::COUNT]| {
            generated_score(&mut board, own, &params.order_opp, cell)
        };
        // With the weight 0 the cell scores 0 and is not listed among the patterned moves.
        assert_eq!(listed(&off.order_own), None);
        let with = listed(&params.order_own);
        if legal {
            assert!(with.is_some_and(|s| s >= params.false_forbid), "{with:?}");
        } else {
            assert_eq!(with, None);
        }
    }
}

/// White's move generator gives the `opp_forbid` weight to black's legal double-three cell
/// of the false-three shape (black's threat point) and takes it off the forbidden one.
#[test]
fn opp_forbid_weighs_blacks_legal_double_three_cell_for_white_but_not_a_forbidden_one() {
    use sente::search::params::SearchParams;
    let off = SearchParams::default();
    let mut on = SearchParams::default();
    on.apply("opp_forbid=500").expect("apply");
    let cell = p(7, 7);
    for legal in [true, false] {
        // White closes black's two column threes below (black keeps its fours there,
        // so the row three stays false with the right column) and the two diagonal
        // threes: no open three of black's to answer, white's moves are unforced.
        let mut board = false_three_position_with(legal, &[(6, 11), (10, 11), (5, 10), (5, 11)], W);
        assert_eq!(board.side_to_move(), W);
        assert_eq!(board.pattern4(cell, B), Pattern4::Forbid);
        assert_eq!(board.is_forbidden(cell), !legal);
        let mut score = |params: &SearchParams| {
            generated_score(&mut board, &params.order_own, &params.order_opp, cell).unwrap_or(0)
        };
        let (without, with) = (score(&off), score(&on));
        if legal {
            assert!(with >= without + on.opp_forbid, "{without} {with}");
        } else {
            assert_eq!(with, without);
        }
    }
}

#[test]
fn three_blocked_by_the_edge_is_not_a_three() {
    // (0,7) with (1,7),(2,7): the straight four would need (-1,7). Plus a real
    // vertical three: only one three, so legal.
    let mut b = position(15, Rule::Renju, &[(1, 7), (2, 7), (0, 8), (0, 9)], &[], B);
    assert!(!b.is_forbidden(p(0, 7)));
    // One column in, the same shape is a double three.
    let mut b = position(15, Rule::Renju, &[(2, 7), (3, 7), (1, 8), (1, 9)], &[], B);
    assert!(b.is_forbidden(p(1, 7)));
}

#[test]
fn caro_five_blocked_at_both_ends_does_not_win() {
    for rule in [Rule::Caro8, Rule::Caro9] {
        let mut b = position(
            15,
            rule,
            &[(3, 7), (4, 7), (5, 7), (6, 7)],
            &[(2, 7), (8, 7)],
            B,
        );
        assert_eq!(b.play(p(7, 7)), Ok(MoveOutcome::Continue), "{rule:?}");
        let mut b = position(15, rule, &[(3, 7), (4, 7), (5, 7), (6, 7)], &[(2, 7)], B);
        assert_eq!(b.play(p(7, 7)), Ok(MoveOutcome::Win), "{rule:?}");
    }
    // Freestyle does not care about the ends.
    let mut b = position(
        15,
        Rule::Freestyle,
        &[(3, 7), (4, 7), (5, 7), (6, 7)],
        &[(2, 7), (8, 7)],
        B,
    );
    assert_eq!(b.play(p(7, 7)), Ok(MoveOutcome::Win));
}

#[test]
fn edge_does_not_block_in_caro() {
    for rule in [Rule::Caro8, Rule::Caro9] {
        // Five on x = 0..=4 with the edge on the left and white on the right.
        let mut b = position(15, rule, &[(0, 7), (1, 7), (2, 7), (3, 7)], &[(5, 7)], B);
        assert_eq!(b.play(p(4, 7)), Ok(MoveOutcome::Win), "{rule:?}");
    }
}

#[test]
fn blocked_cells_break_lines() {
    let mut b = position(
        15,
        Rule::Freestyle,
        &[(2, 7), (3, 7), (5, 7), (6, 7)],
        &[],
        B,
    );
    assert_eq!(b.winning_move(B), Some(p(4, 7)));
    let mut b2 = position(
        15,
        Rule::Freestyle,
        &[(2, 7), (3, 7), (5, 7), (6, 7)],
        &[],
        B,
    );
    b2.set_blocked(p(4, 7)).unwrap();
    b2.assert_consistent();
    assert_eq!(b2.winning_move(B), None);
    assert_eq!(b2.play(p(4, 7)), Err(PlayError::Blocked));
    // A blocked cell next to four stones leaves only one five point.
    b.set_blocked(p(1, 7)).unwrap();
    assert_eq!(b.pattern4(p(4, 7), B), Pattern4::Five);
    b.assert_consistent();
}

#[test]
fn bad_moves_leave_the_board_unchanged() {
    let mut b = position(15, Rule::Renju, &[(7, 7)], &[], W);
    let key = b.key();
    assert_eq!(b.play(p(7, 7)), Err(PlayError::Occupied));
    assert_eq!(b.play(p(15, 3)), Err(PlayError::OffBoard));
    assert_eq!(b.play(Pos::NONE), Err(PlayError::OffBoard));
    assert_eq!(b.set_blocked(p(7, 7)), Err(PlayError::Occupied));
    assert_eq!(b.key(), key);
    assert_eq!(b.move_count(), 1);
    assert_eq!(b.history(), &[p(7, 7)][..]);
    b.assert_consistent();
}

#[test]
fn board_sizes_outside_5_to_32_are_errors() {
    assert!(Board::new(4, 15, Rule::Freestyle).is_err());
    assert!(Board::new(15, 33, Rule::Freestyle).is_err());
    assert!(Board::new(0, 0, Rule::Freestyle).is_err());
    assert!(Board::new(5, 32, Rule::Renju).is_ok());
    let b = Board::new(7, 19, Rule::Standard).unwrap();
    assert_eq!(b.pos(6, 18), Some(p(6, 18)));
    assert_eq!(b.pos(7, 0), None);
    assert_eq!(b.pos(-1, 0), None);
}

#[test]
fn full_board_is_a_draw() {
    // 5×5 freestyle filled in a pattern that never makes five in a row.
    let mut b = Board::new(5, 5, Rule::Freestyle).unwrap();
    let mut order = Vec::new();
    // Alternate colours by rows pairs so no line gets five of one colour.
    let rows: [[u8; 5]; 5] = [
        [1, 1, 2, 2, 1],
        [2, 2, 1, 1, 2],
        [1, 1, 2, 2, 1],
        [2, 2, 1, 1, 2],
        [1, 2, 1, 2, 1],
    ];
    let mut blacks = Vec::new();
    let mut whites = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, &c) in row.iter().enumerate() {
            if c == 1 {
                blacks.push(p(x, y))
            } else {
                whites.push(p(x, y))
            }
        }
    }
    assert_eq!(blacks.len(), 13);
    for i in 0..13 {
        order.push(blacks[i]);
        if i < 12 {
            order.push(whites[i]);
        }
    }
    let mut last = MoveOutcome::Continue;
    for (i, &m) in order.iter().enumerate() {
        last = b.play(m).unwrap_or_else(|e| panic!("move {i} {m:?}: {e}"));
        if i + 1 < order.len() {
            assert_eq!(last, MoveOutcome::Continue, "move {i}");
        }
    }
    assert_eq!(last, MoveOutcome::Draw);
    assert_eq!(b.undo(), Some(order[24]));
    assert_eq!(b.outcome(), None);
}
