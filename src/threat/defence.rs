//! Defences: when the opponent threatens a forced win, which moves can stop it?
//!
//! Candidates are every square that can touch the attacker's winning line (within five
//! cells along a line of any of its stones; no other square changes a pattern the line
//! uses), every defender four (it forces an answer), and, in the renju cases where the line
//! depends on the exact forbidden-point rule, every empty square. Each candidate is then
//! verified by replaying the line and re-running the solver; a candidate is kept unless the
//! attacker is proven to win anyway, so an exhausted budget keeps it (a superset is safe
//! for move generation: the search still examines every kept move).

use super::replay::replay;
use super::vcf::VcfSolver;
use super::vct::VctSolver;
use super::{is_four_move, legal_for, root_key, HASH};
use crate::board::Board;
use crate::types::{Color, Dir, Pos, Rule};
use std::sync::atomic::AtomicBool;

/// The squares that may refute `line` for the defender `attacker.opp()`: the line's
/// neighbourhood along the four directions, the defender's fours, or every empty square
/// when `everywhere`. Sorted, without duplicates.
fn candidates(board: &mut Board, attacker: Color, line: &[Pos], everywhere: bool) -> Vec<Pos> {
    let d = attacker.opp();
    let mut out: Vec<Pos> = Vec::new();
    let squares: Vec<Pos> = board.all_squares().filter(|&p| board.is_empty(p)).collect();
    for p in squares {
        let near_line = everywhere
            || line.iter().any(|&q| {
                Dir::ALL
                    .iter()
                    .any(|&dir| (-5..=5).any(|k| q.step(dir, k) == p))
            });
        if (near_line || is_four_move(board, p, d)) && legal_for(board, p, d) {
            out.push(p);
        }
    }
    out
}

/// The defender's moves that stop `attacker`'s VCF, assuming the defender
/// (`attacker.opp()`) moves now. `None` if the attacker has no VCF within `max_plies`
/// (found within `node_limit`); `Some(empty)` if nothing stops it. Each returned move
/// leaves the attacker without a proven VCF (the solver gets `node_limit` per check).
pub fn vcf_defences(
    board: &mut Board,
    attacker: Color,
    solver: &mut VcfSolver,
    max_plies: i32,
    node_limit: u64,
    stop: &AtomicBool,
) -> Option<Vec<Pos>> {
    if !solver
        .solve(board, attacker, max_plies, node_limit, stop)
        .is_win()
    {
        return None;
    }
    let line = solver.principal_line().to_vec();
    // A line that does not replay (completed from a table that lost an entry) says
    // nothing about where it can be spoiled: then every square is a candidate.
    let everywhere = match replay(board, attacker, &line) {
        None => true,
        Some(f) => board.rule() == Rule::Renju && f.relies_on_renju,
    };
    let d = attacker.opp();
    let base = root_key(board, attacker, 0x5CF);
    let mut out = Vec::new();
    for c in candidates(board, attacker, &line, everywhere) {
        board.place(c, d);
        let refuted = replay(board, attacker, &line).is_some()
            || solver
                .solve_keyed(
                    board,
                    attacker,
                    max_plies,
                    node_limit,
                    stop,
                    base ^ HASH.stone(d, c),
                )
                .is_win();
        board.lift(c);
        if !refuted {
            out.push(c);
        }
    }
    Some(out)
}

/// The defender's moves that stop `attacker`'s VCF or VCT (defender to move now). `None`
/// if the attacker has neither within `max_plies` (VCT budget `node_limit`). With a VCF
/// threat this is [`vcf_defences`]. Against a VCT every empty square near the VCT line or
/// the stones is a candidate; a candidate is dropped only when the attacker is proven to
/// win after it, so budget exhaustion keeps moves rather than losing real defences. Each
/// candidate check gets `node_limit / 16` nodes. Against a VCT (not a VCF), `None` also
/// when more than `max_defences` candidates survive: with a small budget most positions
/// keep nearly every nearby square, a list that says nothing the move cut does not.
#[allow(clippy::too_many_arguments)]
pub fn vct_defences(
    board: &mut Board,
    attacker: Color,
    vcf: &mut VcfSolver,
    vct: &mut VctSolver,
    max_plies: i32,
    node_limit: u64,
    max_defences: usize,
    stop: &AtomicBool,
) -> Option<Vec<Pos>> {
    if let Some(v) = vcf_defences(board, attacker, vcf, max_plies, node_limit / 16 + 1, stop) {
        return Some(v);
    }
    if !vct
        .solve(board, attacker, max_plies, node_limit, stop)
        .is_win()
    {
        return None;
    }
    let line = vct.principal_line().to_vec();
    let d = attacker.opp();
    let squares: Vec<Pos> = board.all_squares().filter(|&p| board.is_empty(p)).collect();
    let mut out = Vec::new();
    let per = node_limit / 16 + 1;
    for c in squares {
        let near = board.is_near(c)
            || line.iter().any(|&q| {
                Dir::ALL
                    .iter()
                    .any(|&dir| (-5..=5).any(|k| q.step(dir, k) == c))
            });
        if !near || !legal_for(board, c, d) {
            continue;
        }
        // Play c for real when the defender is to move so the solvers' keys stay exact.
        let real = board.side_to_move() == d;
        if real {
            board.make(c);
        } else {
            board.place(c, d);
        }
        let refuted = if real {
            vcf.solve(board, attacker, max_plies, per, stop).is_win()
                || vct.solve(board, attacker, max_plies, per, stop).is_win()
        } else {
            let key = root_key(board, attacker, 0xDEF) ^ HASH.stone(d, c);
            vcf.solve_keyed(board, attacker, max_plies, per, stop, key)
                .is_win()
        };
        if real {
            board.unmake();
        } else {
            board.lift(c);
        }
        if !refuted {
            if out.len() == max_defences {
                return None;
            }
            out.push(c);
        }
    }
    Some(out)
}
