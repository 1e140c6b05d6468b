//! Shared helpers for board tests (`mod common;` in a test crate).

use sente::board::Board;
use sente::types::{Color, Pos, Rule};

/// Build a position from lists of black and white stones, black to move unless
/// `to_move` says otherwise. Missing stones of one colour are added as fillers on the
/// far rows 0 and `size-1` (every third column), which the tests keep clear.
#[allow(dead_code)]
pub fn position(
    size: usize,
    rule: Rule,
    blacks: &[(usize, usize)],
    whites: &[(usize, usize)],
    to_move: Color,
) -> Board {
    let mut b: Vec<Pos> = blacks.iter().map(|&(x, y)| Pos::new(x, y)).collect();
    let mut w: Vec<Pos> = whites.iter().map(|&(x, y)| Pos::new(x, y)).collect();
    let mut fillers = (0..size)
        .step_by(3)
        .flat_map(|x| [Pos::new(x, 0), Pos::new(x, size - 1)])
        .filter(|p| !b.contains(p) && !w.contains(p))
        .collect::<Vec<_>>()
        .into_iter();
    let want_black = |w: usize| if to_move == Color::Black { w } else { w + 1 };
    while b.len() < want_black(w.len()) {
        b.push(fillers.next().expect("filler"));
    }
    while want_black(w.len()) < b.len() {
        w.push(fillers.next().expect("filler"));
    }
    let mut board = Board::new(size, size, rule).unwrap();
    for i in 0..b.len().max(w.len()) {
        if let Some(&p) = b.get(i) {
            board.make(p);
        }
        if let Some(&p) = w.get(i) {
            board.make(p);
        }
    }
    assert_eq!(board.side_to_move(), to_move);
    board.assert_consistent();
    board
}
