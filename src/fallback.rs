//! The emergency move chooser: a one-ply pattern score that always returns a legal
//! move, takes a five and blocks a five. It answers when a search is stopped before its
//! first iteration (the search, the engine facade, self-play and data generation call
//! it), and its static score also ranks the swap2 proposals.

// The chooser must always answer a move: no unwrap, expect or panic outside its tests.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::board::Board;
use crate::pattern::Pattern4;
use crate::types::{Color, Pos, Value};

/// Value of making `p4` for the side to move (attack) in the one-ply chooser.
#[must_use]
pub const fn attack_weight(p4: Pattern4) -> i32 {
    match p4 {
        Pattern4::None | Pattern4::Forbid => 0,
        Pattern4::Flex2 => 8,
        Pattern4::Block3 => 6,
        Pattern4::Flex2x2 => 20,
        Pattern4::Block3Plus => 15,
        Pattern4::Flex3 => 40,
        Pattern4::Flex3Plus => 60,
        Pattern4::Flex3x2 => 600,
        Pattern4::Block4 => 30,
        Pattern4::Block4Plus => 100,
        Pattern4::Block4Flex3 => 1_200,
        Pattern4::Flex4 => 2_000,
        Pattern4::Five => 100_000,
    }
}

/// Value of occupying a square where the opponent would make `p4` (defence).
#[must_use]
pub const fn defence_weight(p4: Pattern4) -> i32 {
    match p4 {
        Pattern4::None | Pattern4::Forbid => 0,
        Pattern4::Flex2 => 4,
        Pattern4::Block3 => 3,
        Pattern4::Flex2x2 => 10,
        Pattern4::Block3Plus => 8,
        Pattern4::Flex3 => 20,
        Pattern4::Flex3Plus => 30,
        Pattern4::Flex3x2 => 300,
        Pattern4::Block4 => 15,
        Pattern4::Block4Plus => 50,
        Pattern4::Block4Flex3 => 400,
        Pattern4::Flex4 => 1_000,
        Pattern4::Five => 50_000,
    }
}

/// A static score of `c`'s prospects: the attack weights of every empty square where `c`
/// has a pattern, minus the same for the opponent (O(1) through the board's counts).
#[must_use]
pub fn static_eval(board: &Board, c: Color) -> Value {
    let side = |col: Color| -> i64 {
        Pattern4::ALL
            .iter()
            .map(|&p4| i64::from(board.count(col, p4)) * i64::from(attack_weight(p4)))
            .sum()
    };
    let v = side(c) - side(c.opp());
    Value::try_from(v.clamp(-20_000, 20_000)).unwrap_or(0)
}

/// The emergency/placeholder move chooser: a legal move for the side to move from a
/// one-ply pattern score. Order: centre on an empty board; own five; block the
/// opponent's five; else the best of attack + defence weights over the candidate squares
/// (ties: nearer the centre, then lower `Pos`). Never returns an occupied square or a
/// renju-forbidden point unless every empty square is forbidden. Returns [`Pos::NONE`]
/// only when the board has no empty square.
pub fn fallback_move(board: &mut Board) -> Pos {
    let (w, h) = (board.width(), board.height());
    let centre = board.pos((w / 2) as i64, (h / 2) as i64);
    if board.move_count() == 0 {
        if let Some(c) = centre {
            if board.is_legal(c) {
                return c;
            }
        }
    }
    let me = board.side_to_move();
    let opp = me.opp();
    if let Some(p) = board.winning_move(me) {
        if board.is_empty(p) {
            return p;
        }
    }
    if let Some(p) = board.winning_move(opp) {
        if board.is_legal(p) {
            return p;
        }
    }
    let mut cands = Vec::new();
    board.candidates(&mut cands);
    let dist = |p: Pos| centre.map_or(0, |c| p.distance(c));
    let mut scored: Vec<(i32, usize, Pos)> = cands
        .iter()
        .filter(|&&p| board.is_empty(p))
        .map(|&p| {
            let s = attack_weight(board.pattern4(p, me)) + defence_weight(board.pattern4(p, opp));
            (s, dist(p), p)
        })
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    for &(_, _, p) in &scored {
        if board.is_legal(p) {
            return p;
        }
    }
    // No legal candidate: scan the whole board, nearest the centre first.
    let mut all: Vec<(usize, Pos)> = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if let Some(p) = board.pos(x as i64, y as i64) {
                if board.is_empty(p) {
                    all.push((dist(p), p));
                }
            }
        }
    }
    all.sort();
    for &(_, p) in &all {
        if board.is_legal(p) {
            return p;
        }
    }
    all.first().map_or(Pos::NONE, |&(_, p)| p)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::board::MoveOutcome;
    use crate::types::Rule;

    fn board_with(moves: &[(usize, usize)], size: usize, rule: Rule) -> Board {
        let mut b = Board::new(size, size, rule).unwrap();
        for &(x, y) in moves {
            b.play(Pos::new(x, y)).unwrap();
        }
        b
    }

    #[test]
    fn first_move_on_an_empty_board_is_the_centre() {
        let mut b = board_with(&[], 15, Rule::Freestyle);
        assert_eq!(fallback_move(&mut b), Pos::new(7, 7));
        let mut b = Board::new(20, 10, Rule::Standard).unwrap();
        assert_eq!(fallback_move(&mut b), Pos::new(10, 5));
    }

    #[test]
    fn fallback_takes_an_immediate_five() {
        // Black: (3..7, 7) four stones; white scattered; black to move.
        let mut b = board_with(
            &[
                (3, 7),
                (3, 9),
                (4, 7),
                (4, 9),
                (5, 7),
                (5, 9),
                (6, 7),
                (10, 1),
            ],
            15,
            Rule::Freestyle,
        );
        let m = fallback_move(&mut b);
        assert!(m == Pos::new(7, 7) || m == Pos::new(2, 7), "{m:?}");
    }

    #[test]
    fn fallback_blocks_an_immediate_five() {
        // White has four in a row (3..6, 9) blocked on the left; black to move, no five.
        let mut b = board_with(
            &[
                (2, 9),
                (3, 9),
                (0, 0),
                (4, 9),
                (14, 14),
                (5, 9),
                (0, 14),
                (6, 9),
            ],
            15,
            Rule::Freestyle,
        );
        assert_eq!(b.side_to_move(), Color::Black);
        assert_eq!(fallback_move(&mut b), Pos::new(7, 9));
    }

    #[test]
    fn fallback_never_plays_a_renju_forbidden_point() {
        // Black double-three point at (7,7): black (5,7),(6,7) and (7,5),(7,6).
        let mut b = board_with(
            &[
                (5, 7),
                (0, 0),
                (6, 7),
                (14, 0),
                (7, 5),
                (0, 14),
                (7, 6),
                (14, 14),
            ],
            15,
            Rule::Renju,
        );
        assert!(b.is_forbidden(Pos::new(7, 7)));
        for _ in 0..20 {
            let m = fallback_move(&mut b);
            assert!(b.is_legal(m), "{m:?}");
            if b.play(m) != Ok(MoveOutcome::Continue) {
                break;
            }
            let r = fallback_move(&mut b);
            if b.play(r) != Ok(MoveOutcome::Continue) {
                break;
            }
        }
    }

    #[test]
    fn fallback_plays_legal_moves_until_the_game_ends() {
        for rule in Rule::ALL {
            let mut b = Board::new(7, 7, rule).unwrap();
            for _ in 0..49 {
                let m = fallback_move(&mut b);
                assert!(m.is_some() && b.is_empty(m), "{rule:?}");
                match b.play(m) {
                    Ok(MoveOutcome::Continue) => {}
                    Ok(_) => break,
                    Err(e) => panic!("{rule:?}: {e:?}"),
                }
            }
        }
    }
}
