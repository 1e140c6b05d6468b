//! Replaying a VCF line on the current position: does it still win after other stones
//! were put down? The VCT searches (df-pn and the depth-first one) and the defence
//! generators ask this of every candidate defence.

use super::{fives_near, reply_to_fives, Placed, Reply, MAX_PLACED};
use crate::board::Board;
use crate::pattern::Pattern4;
use crate::types::{Color, Pos};

/// What a replayed VCF line relied on.
#[derive(Clone, Copy)]
pub(crate) struct ReplayFlags {
    /// Renju: a black attacking move on a forbid-class square (legal only by the exact
    /// false-three rule), or a win because black's block was forbidden. Stones far from
    /// the line can change those verdicts, so every square must be tried as a defence.
    pub(crate) relies_on_renju: bool,
    /// The attacker's five points after the line's last move (the first 8).
    pub(crate) fives: [Pos; 8],
    /// How many of `fives` are set.
    pub(crate) n_fives: usize,
}

/// Replay the VCF line `line` (attacker moves with the defender's forced replies) of
/// attacker `a` on the current position. `Some` if it still wins: every attacking move
/// is legal, blocks any defender five, and makes a five point; the defender never gets
/// a five first; the line ends in a five, two five points or a forbidden block. The board
/// is restored.
pub(crate) fn replay(board: &mut Board, a: Color, line: &[Pos]) -> Option<ReplayFlags> {
    let d = a.opp();
    // At most the line's moves and one more block are placed. Longer lines than any
    // solver writes are refused, a sound "no".
    if line.len() + 2 > MAX_PLACED {
        return None;
    }
    let mut placed = Placed::new();
    let mut flags = ReplayFlags {
        relies_on_renju: false,
        fives: [Pos::NONE; 8],
        n_fives: 0,
    };
    let mut i = 0;
    let ok = loop {
        if board.count(a, Pattern4::Five) > 0 {
            break true;
        }
        let Some(&m) = line.get(i) else { break false };
        if !board.is_empty(m) {
            break false;
        }
        let nd = board.count(d, Pattern4::Five);
        if nd > 1 || (nd == 1 && board.pattern4(m, d) != Pattern4::Five) {
            break false;
        }
        if board.pattern4(m, a) == Pattern4::Forbid {
            if board.is_forbidden(m) {
                break false;
            }
            flags.relies_on_renju = true;
        }
        placed.place(board, m, a);
        if board.count(d, Pattern4::Five) > 0 {
            break false;
        }
        let mut fives = [Pos::NONE; 8];
        let n5 = fives_near(board, m, a, &mut fives);
        let f = match reply_to_fives(board, a, &fives[..n5]) {
            Reply::Free => break false,
            Reply::Lost => {
                // One five point and still lost: black's block is forbidden.
                flags.relies_on_renju |= n5 == 1;
                flags.fives = fives;
                flags.n_fives = n5;
                break true;
            }
            Reply::Forced(f) => f,
        };
        placed.place(board, f, d);
        i += 2;
    };
    placed.undo(board);
    ok.then_some(flags)
}
