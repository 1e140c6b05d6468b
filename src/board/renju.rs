//! Renju's forbidden points for black (with the recursive false-three check), on the
//! board's incremental patterns. What makes a five under each rule set is
//! [`crate::pattern::run_wins`], which the pattern tables are built from.

use super::Board;
use crate::pattern::{Pattern, Pattern4};
use crate::types::{Color, Dir, Pos, Rule};

/// Recursion guard for chains of false-three checks (never reached in real play).
const MAX_FORBID_DEPTH: u32 = 16;

/// Renju: is the empty square `p` forbidden to black?
///
/// Order of the checks (as Piskvork and the Gomocup judge apply them): an exact five is
/// always legal; then a double four (two fours on two lines, or on one line) or an
/// overline is forbidden; then two or more *real* threes are forbidden, where a three is
/// real only if one of its straight-four points is itself neither forbidden nor a five.
pub fn is_forbidden(board: &mut Board, p: Pos) -> bool {
    if board.rule() != Rule::Renju || !board.in_board(p) || !board.is_empty(p) {
        return false;
    }
    // Only cells the pattern tables flag can be forbidden.
    if board.pattern4(p, Color::Black) != Pattern4::Forbid {
        return false;
    }
    forbidden_at(board, p, 0)
}

fn forbidden_at(board: &mut Board, p: Pos, depth: u32) -> bool {
    let pats = Dir::ALL.map(|d| board.pattern(p, Color::Black, d));
    if pats.contains(&Pattern::F5) {
        return false;
    }
    let fours: u32 = pats
        .iter()
        .map(|&x| match x {
            Pattern::B4 | Pattern::F4 => 1,
            Pattern::B44 => 2,
            _ => 0,
        })
        .sum();
    if fours >= 2 || pats.contains(&Pattern::Overline) {
        return true;
    }
    let threes = pats.iter().filter(|&&x| x == Pattern::F3).count();
    if threes < 2 || depth >= MAX_FORBID_DEPTH {
        return false;
    }
    board.place(p, Color::Black);
    let mut real = 0;
    for (d, &pat) in Dir::ALL.iter().zip(pats.iter()) {
        if pat == Pattern::F3 && is_real_three(board, p, *d, depth) {
            real += 1;
            if real >= 2 {
                break;
            }
        }
    }
    board.lift(p);
    real >= 2
}

/// With black's stone on `p`, does the three through `p` along `d` have a straight-four
/// point that black may play (not forbidden, not a five)?
fn is_real_three(board: &mut Board, p: Pos, d: Dir, depth: u32) -> bool {
    for k in [-3, -2, -1, 1, 2, 3] {
        let e = p.step(d, k);
        if !board.is_empty(e) || board.pattern(e, Color::Black, d) != Pattern::F4 {
            continue;
        }
        // The straight four must contain p: every cell between p and e is black.
        let step = if k > 0 { 1 } else { -1 };
        if (1..k.abs()).any(|j| board.cell(p.step(d, step * j)) != crate::types::Cell::Black) {
            continue;
        }
        match board.pattern4(e, Color::Black) {
            Pattern4::Five => continue,
            Pattern4::Forbid if forbidden_at(board, e, depth + 1) => continue,
            _ => return true,
        }
    }
    false
}
