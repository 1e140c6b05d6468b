//! Shared helpers of the threat-solver tests: an exhaustive win verifier and loaders for
//! the copied quintet positions (`mod threat_support;` in a test crate).

// Each test crate uses only some of these helpers.
#![allow(dead_code)]

use sente::board::{Board, MoveOutcome};
use sente::types::{Color, Pos, Rule};

/// How the verifier finds the attacker's move once the defender has left the line.
pub type Fallback<'a> = dyn FnMut(&mut Board, Color, i32) -> Option<Vec<Pos>> + 'a;

/// Check that the side to move on `board` (the attacker) wins within `plies` plies
/// against every legal defence, playing `line` while the defender follows it. At each
/// defender turn every legal move is tried (renju black never on a forbidden point);
/// when the defender leaves the line the attacker plays a five if it has one, or asks
/// `fallback` for a new line (VCF claims pass a fallback that gives up). Wins and fouls
/// are judged by [`Board::play`], i.e. by the rules alone. The board is restored.
pub fn verify_win(
    board: &mut Board,
    line: &[Pos],
    plies: i32,
    fallback: &mut Fallback<'_>,
) -> bool {
    let a = board.side_to_move();
    attacker_turn(board, a, line, plies, fallback)
}

fn attacker_turn(
    board: &mut Board,
    a: Color,
    line: &[Pos],
    plies: i32,
    fallback: &mut Fallback<'_>,
) -> bool {
    if plies < 1 {
        return false;
    }
    if let Some(p) = board.winning_move(a) {
        let ok = board.play(p) == Ok(MoveOutcome::Win);
        board.undo();
        return ok;
    }
    let owned;
    let line = if line.is_empty() {
        match fallback(board, a, plies) {
            Some(l) if !l.is_empty() => {
                owned = l;
                &owned[..]
            }
            _ => return false,
        }
    } else {
        line
    };
    let m = line[0];
    let ok = match board.play(m) {
        Ok(MoveOutcome::Win) => true,
        Ok(MoveOutcome::Continue) => defender_turn(board, a, &line[1..], plies - 1, fallback),
        _ => false,
    };
    if board.history().last() == Some(&m) {
        board.undo();
    }
    ok
}

fn defender_turn(
    board: &mut Board,
    a: Color,
    line: &[Pos],
    plies: i32,
    fallback: &mut Fallback<'_>,
) -> bool {
    if plies < 1 {
        return false;
    }
    let squares: Vec<Pos> = board.all_squares().filter(|&p| board.is_empty(p)).collect();
    for p in squares {
        if !board.is_legal(p) {
            continue;
        }
        let ok = match board.play(p) {
            Ok(MoveOutcome::Continue) => {
                let rest = if line.first() == Some(&p) {
                    &line[1..]
                } else {
                    &[]
                };
                attacker_turn(board, a, rest, plies - 1, fallback)
            }
            // A defender five or a full board refutes the claim.
            _ => false,
        };
        board.undo();
        if !ok {
            return false;
        }
    }
    true
}

/// A fallback that never finds a new line (enough for VCF claims: every deviation from
/// a VCF line must allow an immediate five).
pub fn no_fallback(_: &mut Board, _: Color, _: i32) -> Option<Vec<Pos>> {
    None
}

/// Build a board from a diagram: rows top (y = 0) to bottom, `X` black, `O` white,
/// anything else empty. Stones are played alternately; the colour with fewer stones
/// gets fillers in the corners region (row 0 / last row, x = 0, 3, 6, …) until the side
/// to move is `to_move`. The diagram must keep those cells empty.
pub fn diagram(rows: &[&str], rule: Rule, to_move: Color) -> Board {
    let size = rows.len();
    let mut b = Vec::new();
    let mut w = Vec::new();
    for (y, r) in rows.iter().enumerate() {
        for (x, ch) in r.chars().filter(|c| !c.is_whitespace()).enumerate() {
            match ch {
                'X' => b.push(Pos::new(x, y)),
                'O' => w.push(Pos::new(x, y)),
                _ => {}
            }
        }
    }
    stones(size, rule, b, w, to_move)
}

/// Build a board from black and white stone lists (see [`diagram`] for the fillers).
pub fn stones(size: usize, rule: Rule, mut b: Vec<Pos>, mut w: Vec<Pos>, to_move: Color) -> Board {
    let mut fillers = (0..size)
        .step_by(3)
        .flat_map(|x| [Pos::new(x, 0), Pos::new(x, size - 1)])
        .filter(|p| !b.contains(p) && !w.contains(p))
        .collect::<Vec<_>>()
        .into_iter();
    let want_black = |nw: usize| if to_move == Color::Black { nw } else { nw + 1 };
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
    board
}

/// One copied quintet case.
pub struct QuintetCase {
    /// Case name.
    pub name: String,
    /// `vcf` or `vct_dfpns`.
    pub mode: String,
    /// Whether quintet proved a win within `limit` attacks.
    pub proven: bool,
    /// Attack limit (attacking moves up to the settling four).
    pub limit: i32,
    /// The position, attacker to move.
    pub board: Board,
}

/// Load `tests/data/quintet_cases.tsv` (copied from quintet_renju_mate_bench, MIT,
/// Copyright (c) 2020 Renju Note).
pub fn quintet_cases() -> Vec<QuintetCase> {
    let text = include_str!("../data/quintet_cases.tsv");
    let mut out = Vec::new();
    for l in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = l.split('\t').collect();
        let label: Vec<&str> = f[4].split_whitespace().collect();
        let limit = label
            .iter()
            .find_map(|t| t.strip_prefix("limit="))
            .and_then(|v| v.parse().ok())
            .expect("limit");
        let mut board = Board::new(15, 15, Rule::Renju).unwrap();
        for t in f[5].split_whitespace() {
            let (x, y) = t.split_once(',').unwrap();
            board.make(Pos::new(x.parse().unwrap(), y.parse().unwrap()));
        }
        let to_move = if f[3] == "white" {
            Color::White
        } else {
            Color::Black
        };
        assert_eq!(board.side_to_move(), to_move, "{}", f[0]);
        out.push(QuintetCase {
            name: f[0].to_string(),
            mode: label[0].to_string(),
            proven: label[1] == "proven",
            limit,
            board,
        });
    }
    out
}
