//! Swap2 opening decisions: the three stones of the proposal and the choice of colour,
//! by the static score of the fallback chooser.

use crate::board::{Board, MoveOutcome};
use crate::fallback::static_eval;
use crate::types::{Color, Pos, Rule, Value};

/// Stones of a swap2 opening proposal, relative to the centre: (dx, dy) of black 1,
/// white 2, black 3. Chosen among by [`swap2_opening`].
pub const SWAP2_SHAPES: [[(i64, i64); 3]; 6] = [
    [(0, 0), (1, 1), (3, 0)],
    [(0, 0), (-1, 1), (2, 2)],
    [(0, 0), (2, 0), (0, 3)],
    [(0, 0), (1, -1), (-2, 2)],
    [(0, 0), (0, 2), (3, 1)],
    [(0, 0), (2, 2), (-1, 3)],
];

/// Score margin (black's view, white to move) above which taking black is preferred in
/// swap2: roughly what the tempo of the side to move is worth.
pub const SWAP2_TEMPO: Value = 40;

/// Swap2 phase 1: three stones (black, white, black) near the centre. Rule: of the fixed
/// [`SWAP2_SHAPES`], take the one whose static evaluation for black with white to move is
/// closest to [`SWAP2_TEMPO`] (i.e. closest to balanced once white's tempo is counted);
/// ties go to the earlier shape. `None` if the board is too small for every shape.
#[must_use]
pub fn swap2_opening(width: usize, height: usize, rule: Rule) -> Option<[Pos; 3]> {
    let (cx, cy) = ((width / 2) as i64, (height / 2) as i64);
    let mut best: Option<(Value, [Pos; 3])> = None;
    for shape in &SWAP2_SHAPES {
        let Ok(mut b) = Board::new(width, height, rule) else {
            return None;
        };
        let mut stones = [Pos::NONE; 3];
        let mut ok = true;
        for (i, &(dx, dy)) in shape.iter().enumerate() {
            match b.pos(cx + dx, cy + dy) {
                Some(p) if matches!(b.play(p), Ok(MoveOutcome::Continue)) => stones[i] = p,
                _ => ok = false,
            }
        }
        if !ok {
            continue;
        }
        let e = (static_eval(&b, Color::Black) - SWAP2_TEMPO).abs();
        if best.is_none_or(|(be, _)| e < be) {
            best = Some((e, stones));
        }
    }
    best.map(|(_, s)| s)
}

/// Swap2 phases 2 and 3 (white to move after 3 or 5 stones): true when taking black is
/// better, by the rule "black's static evaluation exceeds [`SWAP2_TEMPO`]", or when
/// black already has a five threat and white cannot win at once.
#[must_use]
pub fn swap2_take_black(board: &Board) -> bool {
    if board.winning_move(Color::White).is_some() {
        return false;
    }
    if board.winning_move(Color::Black).is_some() {
        return true;
    }
    static_eval(board, Color::Black) > SWAP2_TEMPO
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn swap2_opening_is_three_distinct_stones_near_the_centre() {
        let s = swap2_opening(15, 15, Rule::Standard).unwrap();
        assert!(s[0] != s[1] && s[1] != s[2] && s[0] != s[2]);
        for p in s {
            assert!(p.distance(Pos::new(7, 7)) <= 3);
        }
    }
}
