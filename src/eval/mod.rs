//! Static evaluation from the board's incremental per-class counts, and the O(1)
//! "decided position" shortcuts the search applies at every node.
//!
//! Every empty cell is worth the weight of the class ([`Pattern4`]) a stone of each
//! colour would make there; the side to move's cells weigh more than the opponent's
//! (it moves first). A few threat terms adjust for who must react. All weights live in
//! [`EvalParams`]. The rule enters through the pattern tables (five definitions, renju
//! forbidden classes) plus a renju term for black's forbidden cells.

pub mod features;
pub mod mlp;
pub mod params;
pub mod weights;

use crate::board::Board;
use crate::pattern::Pattern4;
use crate::types::{mate_in, mated_in, Color, Rule, Value, VALUE_MATE_IN_MAX};
use params::EvalParams;

/// Scale of the learned evaluation: sigmoid(value / `SCALE`) is the expected score of
/// the side to move (the fit: `learn::train`).
pub const SCALE: i32 = 200;

const FIVE: usize = Pattern4::Five as usize;
const FLEX4: usize = Pattern4::Flex4 as usize;
const B4F3: usize = Pattern4::Block4Flex3 as usize;
const BLOCK4: usize = Pattern4::Block4 as usize;
const F3X2: usize = Pattern4::Flex3x2 as usize;

/// Static value of the position for the side to move (never a mate score): the learned
/// linear evaluation when `p` has weights (they are only ever chosen on purpose, so they
/// win over the network, which is on by default), else the network where it applies,
/// else the hand-set one.
#[inline]
#[must_use]
pub fn evaluate(board: &mut Board, p: &EvalParams) -> Value {
    if let Some(w) = p.learned {
        return learned(board, w.0);
    }
    match network(board, p) {
        Some(m) => {
            board.refresh_vectors();
            let v = m.evaluate(board, p.mlp_forbid);
            if p.mlp_tempo == 0 {
                v
            } else {
                (v - p.mlp_tempo).clamp(-VALUE_MATE_IN_MAX + 1, VALUE_MATE_IN_MAX - 1)
            }
        }
        None => classic(board, p),
    }
}

/// The network that evaluates `board` under `p`: none when linear weights are chosen
/// (they come first) or when the network does not apply to the board's rule and size.
#[inline]
fn network(board: &Board, p: &EvalParams) -> Option<&'static mlp::Mlp> {
    p.mlp
        .filter(|_| p.learned.is_none())
        .and_then(|m| m.0.for_board(board))
}

/// The learned evaluation: the own values of the side to move's cell combinations less
/// the opponent values of the opponent's (summed by the board, [`Board::value_sum`],
/// which must be kept for `w`'s cell values: see [`prepare`]), plus the value of the
/// threat mask.
#[inline]
#[must_use]
pub fn learned(board: &Board, w: &weights::Weights) -> Value {
    debug_assert!(board.has_cell_values(w.cell_values(board.rule())));
    let me = board.side_to_move();
    let (own, _) = weights::unpack(board.value_sum(me));
    let (_, opp) = weights::unpack(board.value_sum(me.opp()));
    let threat = w.rule(board.rule()).threat[me.idx()][features::threat_mask(board, me)];
    let v = own - opp + i64::from(threat);
    v.clamp(
        i64::from(-VALUE_MATE_IN_MAX + 1),
        i64::from(VALUE_MATE_IN_MAX - 1),
    ) as Value
}

/// Make `board` keep the cell value sums or vector sums the evaluation `p` reads, and
/// no vector sums when it reads none (a no-op when the board keeps what it needs).
pub fn prepare(board: &mut Board, p: &EvalParams) {
    if let Some(w) = p.learned {
        board.set_cell_values(w.0.cell_values(board.rule()));
    }
    let net = network(board, p);
    board.set_cell_vectors(net.map(|m| m.cell_vectors(board.rule(), p.mlp_forbid)));
    if let Some(m) = net {
        m.warm(board);
    }
}

/// The hand-set evaluation ([`classic`]) as learned-evaluation weights: each
/// combination gets the weight of its class, each threat mask the hand-set threat
/// terms it implies (nearly: the mask merges four-three with double-three points).
/// Training starts from these.
#[must_use]
pub fn classic_weights(p: &EvalParams) -> weights::Weights {
    use crate::pattern::RuleTables;
    let mut rules = Vec::new();
    for rule in Rule::ALL {
        let t = RuleTables::get(rule);
        let mut r = weights::RuleWeights::zero();
        for (k, codes) in features::combos().iter().enumerate().skip(1) {
            let packed = codes
                .iter()
                .enumerate()
                .fold(0u32, |a, (d, &c)| a | u32::from(c) << (3 * d));
            for c in 0..2 {
                let class = t.combo(c, packed) as usize;
                r.own[c][k] = p.own[class] as i16;
                r.opp[c][k] = p.opp[class] as i16;
                if rule == Rule::Renju && c == 0 && class == Pattern4::Forbid as usize {
                    r.own[c][k] -= p.forbid_for_white as i16;
                    r.opp[c][k] -= p.forbid_for_white as i16;
                }
            }
        }
        for mask in 0..features::THREATS {
            let bit = |b: usize| mask >> b & 1 != 0;
            let mut v = p.tempo;
            let own_fours = bit(1) || bit(3) || bit(4);
            let opp_fours = bit(0) || bit(2) || bit(7) || bit(8);
            if bit(2) && !own_fours {
                v -= p.opp_three_no_four;
            }
            if bit(3) && !opp_fours {
                v += p.own_double_threat;
            }
            r.threat[0][mask] = v as i16;
            r.threat[1][mask] = v as i16;
        }
        rules.push(r);
    }
    weights::Weights::new(rules, "classic")
}

/// The hand-set evaluation: a weight per class of each empty cell and colour, and a
/// few threat terms ([`EvalParams`]).
#[must_use]
pub fn classic(board: &Board, p: &EvalParams) -> Value {
    let me = board.side_to_move();
    let mc = board.counts(me);
    let oc = board.counts(me.opp());
    let mut v = p.tempo;
    for i in Pattern4::Flex2 as usize..Pattern4::COUNT {
        v += p.own[i] * mc[i] as Value - p.opp[i] * oc[i] as Value;
    }
    if board.rule() == Rule::Renju {
        let f = p.forbid_for_white * board.count(Color::Black, Pattern4::Forbid) as Value;
        v += if me == Color::White { f } else { -f };
    }
    let own_fours: u32 = mc[BLOCK4..=FLEX4].iter().map(|&n| u32::from(n)).sum();
    let opp_fours: u32 = oc[BLOCK4..=FIVE].iter().map(|&n| u32::from(n)).sum();
    if oc[FLEX4] > 0 && own_fours == 0 {
        v -= p.opp_three_no_four;
    }
    if (mc[B4F3] > 0 || mc[F3X2] > 0) && opp_fours == 0 {
        v += p.own_double_threat;
    }
    v.clamp(-VALUE_MATE_IN_MAX + 1, VALUE_MATE_IN_MAX - 1)
}

/// A proven result readable from the counts alone, for the side to move at `ply`:
/// - it can make five now → win at `ply + 1`;
/// - else the opponent has two or more five points → loss at `ply + 2`;
/// - else it has a straight four / double four point and the opponent has no five
///   point → win at `ply + 3`;
/// - else (`win5`) it has a four-three or double-three point and the opponent has no
///   cell where it makes a four (nor, in renju, a black `Forbid` cell, which may hide a
///   legal four) → win at `ply + 5`: the four (or one three) is answered, the other
///   three becomes a straight four. Not for renju black, whose follow-up may be
///   forbidden.
///
/// (Renju: black's classes already exclude forbidden shapes, and a five point of white
/// that is forbidden to black is found by the move generator.)
///
/// Caro: two five points are not always a win there (in `O.XXXX.` a block at the right
/// end leaves a five blocked at both ends), and the counts cannot tell which pairs are,
/// so the last two shortcuts are off; the search decides those positions by playing.
#[inline]
#[must_use]
pub fn quick_result(board: &Board, ply: i32, win5: bool) -> Option<Value> {
    let me = board.side_to_move();
    let mc = board.counts(me);
    if mc[FIVE] > 0 {
        return Some(mate_in(ply + 1));
    }
    if matches!(board.rule(), Rule::Caro8 | Rule::Caro9) {
        return None;
    }
    let oc = board.counts(me.opp());
    if oc[FIVE] >= 2 {
        return Some(mated_in(ply + 2));
    }
    if oc[FIVE] == 0 && mc[FLEX4] > 0 {
        return Some(mate_in(ply + 3));
    }
    if win5 && (mc[B4F3] > 0 || mc[F3X2] > 0) && oc[BLOCK4..=FIVE].iter().all(|&n| n == 0) {
        let renju = board.rule() == Rule::Renju;
        if !renju || (me == Color::White && oc[Pattern4::Forbid as usize] == 0) {
            return Some(mate_in(ply + 5));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Pos;

    fn board(moves: &[(usize, usize)]) -> Board {
        board_in(Rule::Freestyle, moves)
    }

    fn board_in(rule: Rule, moves: &[(usize, usize)]) -> Board {
        let mut b = Board::new(15, 15, rule).unwrap();
        for &(x, y) in moves {
            b.make(Pos::new(x, y));
        }
        b
    }

    #[test]
    fn open_three_for_the_side_to_move_is_a_win_in_three() {
        // Black (5..7, 7) open three, white scattered, black to move.
        let b = board(&[(5, 7), (0, 0), (6, 7), (0, 14), (7, 7), (14, 0)]);
        assert_eq!(quick_result(&b, 0, true), Some(mate_in(3)));
    }

    #[test]
    fn caro_four_with_two_five_points_is_not_a_quick_win() {
        // Row 7: white (2,7), black (4..6, 7); black to move. Black (7,7) makes
        // O.XXXX. with five points 3 and 8; white at 8 leaves 3 a five blocked at both
        // ends, which is no win in caro. Freestyle: a win in 3.
        let stones = [(4, 7), (2, 7), (5, 7), (0, 0), (6, 7), (14, 0)];
        let free = board_in(Rule::Freestyle, &stones);
        assert_eq!(free.pattern4(Pos::new(7, 7), Color::Black), Pattern4::Flex4);
        assert_eq!(quick_result(&free, 0, true), Some(mate_in(3)));
        for rule in [Rule::Caro8, Rule::Caro9] {
            let mut b = board_in(rule, &stones);
            assert_eq!(b.pattern4(Pos::new(7, 7), Color::Black), Pattern4::Flex4);
            assert_eq!(quick_result(&b, 0, true), None, "{rule:?}");
            // After the four, white (to move) faces two five points: not lost in caro.
            b.make(Pos::new(7, 7));
            assert_eq!(b.count(Color::Black, Pattern4::Five), 2);
            assert_eq!(quick_result(&b, 0, true), None, "{rule:?}");
        }
    }

    #[test]
    fn four_three_against_no_four_is_a_win_in_five_but_not_for_renju_black() {
        // Black: closed three (4..6, 7) blocked by white (3,7), open two (7,8),(7,9):
        // (7,7) is a four-three. Black to move.
        let quiet_white = [(0, 0), (14, 14), (0, 14), (14, 0)];
        let fours_white = [(0, 0), (1, 0), (2, 0), (14, 14)];
        let game = |rule, white: [(usize, usize); 4]| {
            let black = [(4, 7), (5, 7), (6, 7), (7, 8), (7, 9)];
            let w = [(3, 7), white[0], white[1], white[2], white[3]];
            let moves: Vec<_> = black
                .iter()
                .zip(w.iter())
                .flat_map(|(b, w)| [*b, *w])
                .collect();
            board_in(rule, &moves)
        };
        let b = game(Rule::Freestyle, quiet_white);
        assert_eq!(
            b.pattern4(Pos::new(7, 7), Color::Black),
            Pattern4::Block4Flex3
        );
        assert_eq!(b.count(Color::Black, Pattern4::Flex4), 0);
        assert_eq!(quick_result(&b, 2, true), Some(mate_in(7)));
        assert_eq!(quick_result(&b, 2, false), None);
        // White's edge three (0..2, 0) gives it a four point: no shortcut.
        let b = game(Rule::Freestyle, fours_white);
        assert!(b.count(Color::White, Pattern4::Block4) > 0);
        assert_eq!(quick_result(&b, 2, true), None);
        // Renju black: the straight-four point may turn out forbidden.
        let b = game(Rule::Renju, quiet_white);
        assert_eq!(
            b.pattern4(Pos::new(7, 7), Color::Black),
            Pattern4::Block4Flex3
        );
        assert_eq!(quick_result(&b, 2, true), None);
    }

    #[test]
    fn double_three_against_no_four_is_a_win_in_five() {
        // Black open twos (5,7),(6,7) and (7,5),(7,6): (7,7) makes two open threes
        // (where both lines cross). White scattered, black to move.
        let b = board(&[
            (5, 7),
            (0, 0),
            (6, 7),
            (14, 14),
            (7, 5),
            (0, 14),
            (7, 6),
            (14, 0),
        ]);
        assert_eq!(b.pattern4(Pos::new(7, 7), Color::Black), Pattern4::Flex3x2);
        assert_eq!(quick_result(&b, 0, true), Some(mate_in(5)));
        assert_eq!(quick_result(&b, 0, false), None);
    }

    /// Without the two threat terms the mask cannot express exactly, the hand-set
    /// evaluation's weights as learned-evaluation weights give the same values, in
    /// random positions of every rule (renju's forbidden-cell term included).
    #[test]
    fn classic_weights_reproduce_the_hand_set_evaluation() {
        use rand::{Rng, SeedableRng};
        let p = EvalParams {
            opp_three_no_four: 0,
            own_double_threat: 0,
            ..EvalParams::default()
        };
        let w: &'static weights::Weights = Box::leak(Box::new(classic_weights(&p)));
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let mut cands = Vec::new();
        let mut compared = 0;
        for rule in Rule::ALL {
            for _ in 0..40 {
                let mut b = Board::new(15, 15, rule).unwrap();
                b.set_cell_values(w.cell_values(rule));
                for _ in 0..rng.gen_range(1..40) {
                    b.candidates(&mut cands);
                    let m = cands[rng.gen_range(0..cands.len())];
                    if b.pattern4(m, b.side_to_move()) == Pattern4::Five || !b.is_legal(m) {
                        break;
                    }
                    b.make(m);
                    assert_eq!(learned(&b, w), classic(&b, &p), "{rule:?}\n{b}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 500);
    }

    #[test]
    fn chosen_linear_weights_win_over_the_default_network() {
        let p = EvalParams {
            learned: Some(params::Shared(weights::Weights::builtin())),
            ..EvalParams::default()
        };
        assert!(p.mlp.is_some(), "the network is on by default");
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        prepare(&mut b, &p);
        for (x, y) in [(7, 7), (8, 8), (6, 7), (9, 9), (5, 7)] {
            b.make(Pos::new(x, y));
            assert_eq!(
                evaluate(&mut b, &p),
                learned(&b, weights::Weights::builtin())
            );
        }
        // Without the weights the network evaluates this board, and differently.
        let net = EvalParams::default();
        let mut b2 = Board::new(15, 15, Rule::Freestyle).unwrap();
        prepare(&mut b2, &net);
        for (x, y) in [(7, 7), (8, 8), (6, 7), (9, 9), (5, 7)] {
            b2.make(Pos::new(x, y));
        }
        assert_ne!(evaluate(&mut b2, &net), evaluate(&mut b, &p));
    }

    #[test]
    fn mlp_tempo_lowers_the_networks_value_for_the_side_to_move() {
        let tempo = EvalParams {
            mlp_tempo: 37,
            ..EvalParams::default()
        };
        let (mut a, mut b) = (
            Board::new(20, 20, Rule::Freestyle).unwrap(),
            Board::new(20, 20, Rule::Freestyle).unwrap(),
        );
        prepare(&mut a, &EvalParams::default());
        prepare(&mut b, &tempo);
        for (x, y) in [(10, 10), (11, 11), (9, 10), (12, 9), (8, 10), (3, 3)] {
            a.make(Pos::new(x, y));
            b.make(Pos::new(x, y));
            let plain = evaluate(&mut a, &EvalParams::default());
            assert_eq!(evaluate(&mut b, &tempo), plain - 37, "after {x},{y}");
        }
        // The tables do not read it.
        let tables = EvalParams {
            mlp: None,
            ..EvalParams::default()
        };
        let with = EvalParams {
            mlp_tempo: 37,
            ..tables.clone()
        };
        let mut c = board(&[(7, 7), (8, 8), (6, 7)]);
        assert_eq!(evaluate(&mut c, &with), evaluate(&mut c, &tables));
    }

    #[test]
    fn evaluation_is_antisymmetric_in_spirit() {
        // Black has an open two, white nothing: black to move is better than white to
        // move in the same stones (white would face it).
        let mut b1 = board(&[(6, 7), (0, 0), (7, 7)]);
        let w_view = evaluate(&mut b1, &EvalParams::default());
        let mut b2 = board(&[(6, 7), (0, 0), (7, 7), (14, 14)]);
        let b_view = evaluate(&mut b2, &EvalParams::default());
        assert!(w_view < 0 && b_view > 0, "{w_view} {b_view}");
    }
}
