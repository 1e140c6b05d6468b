//! Threat-space solvers: VCF (victory by continuous fours), VCT (victory by continuous
//! threats: threes and fours) and the defences against an opponent's threat sequence.
//!
//! # Use from the search
//! - [`vcf::VcfSolver::solve`]: "can `attacker` win by fours alone?" Allocation-free after
//!   construction, cheap enough for search leaves (pass a node budget of a few hundred to
//!   a few thousand).
//! - [`vct::VctSolver::solve`]: the same question with threes allowed, for the root, with
//!   a larger node budget.
//! - [`defence::defences`]: when the opponent has a VCF/VCT, the moves that may refute it.
//!
//! All solvers take the attacker explicitly (it need not be the side to move: asking
//! about the opponent is how threats against us are found), never read the clock (a
//! node budget and a stop flag bound them) and leave the board exactly as they found it.
//!
//! # Soundness
//! A [`ThreatResult::Win`] is a forced win by the board's rule: renju black never uses a
//! forbidden point (each candidate is checked with [`Board::is_forbidden`]), a white four
//! whose only block is forbidden to black wins, and fives are whatever the rule's pattern
//! tables call a five (standard: no overline, caro: not blocked at both ends).
//!
//! Solvers put stones with the board's look-ahead primitives (stone placement without
//! history or side to move), so "the defender passes" costs nothing; positions are hashed
//! by [`StoneHash`] on top of [`Board::key`].

pub mod cli;
pub mod defence;
pub mod dfpn;
pub(crate) mod replay;
pub mod self_check;
pub mod tt;
pub mod vcf;
pub mod vct;

use crate::board::Board;
use crate::pattern::{Pattern4, HALF};
use crate::types::{Color, Dir, Pos, Rule, NUM_CELLS};

/// What a solver found for the attacker.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ThreatResult {
    /// A forced win: play `first`; the five comes `plies` plies from now (1 = a five now).
    Win {
        /// The first attacking move.
        first: Pos,
        /// Plies until the attacker's five, counting the first move.
        plies: i32,
    },
    /// Proven: no win of this kind within the ply limit.
    NoWin,
    /// The node budget or the stop flag ended the search first.
    Unknown,
}

impl ThreatResult {
    /// True for [`ThreatResult::Win`].
    #[must_use]
    pub fn is_win(&self) -> bool {
        matches!(self, ThreatResult::Win { .. })
    }
}

/// Counters of one solver call.
///
/// Why it exists: the benchmark and the search report effort per call.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct SolveStats {
    /// Attacker nodes visited.
    pub nodes: u64,
}

/// Per-stone hash keys for positions reached by the solvers' own stone placements.
///
/// Why it exists: the board's Zobrist key does not change under look-ahead placement,
/// so the solvers XOR these keys (fixed seed, independent of the board's) on top of it.
pub(crate) struct StoneHash {
    keys: [[u64; NUM_CELLS]; 2],
}

const fn mix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn make_hash() -> StoneHash {
    let mut keys = [[0u64; NUM_CELLS]; 2];
    let mut state = 0x7415_EA77_0000_0005u64;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < NUM_CELLS {
            let (s, v) = mix(state);
            state = s;
            keys[c][i] = v;
            i += 1;
        }
        c += 1;
    }
    StoneHash { keys }
}

pub(crate) static HASH: StoneHash = make_hash();

impl StoneHash {
    /// Key of a stone of `c` on `p`.
    #[inline]
    pub(crate) fn stone(&self, c: Color, p: Pos) -> u64 {
        self.keys[c.idx()][p.idx()]
    }
}

/// Root hash of a solver call: the board key plus attacker, rule and size.
pub(crate) fn root_key(board: &Board, attacker: Color, salt: u64) -> u64 {
    let (_, r) = mix(salt
        ^ (board.rule().idx() as u64) << 8
        ^ (board.width() as u64) << 16
        ^ (board.height() as u64) << 24
        ^ (attacker.idx() as u64) << 32);
    board.key() ^ r
}

/// Every square of the board, row by row (cached per board size by the solvers).
pub(crate) fn squares(board: &Board) -> Vec<Pos> {
    board.all_squares().collect()
}

/// True if `c` may play the empty square `p` (renju: black not on a forbidden point).
#[inline]
pub(crate) fn legal_for(board: &mut Board, p: Pos, c: Color) -> bool {
    !(c == Color::Black
        && board.rule() == Rule::Renju
        && board.pattern4(p, Color::Black) == Pattern4::Forbid
        && board.is_forbidden(p))
}

/// True if the defender `d` may still block on `f` once the attacker's four is placed,
/// judged before it is: always, except that a renju black block must not be of the
/// forbid class now. A white stone only takes squares away from black's lines, so it
/// makes no square of that class (no new overline, four or open three), and only
/// squares of that class can be forbidden.
#[inline]
pub(crate) fn block_stays_legal(board: &Board, f: Pos, d: Color) -> bool {
    d != Color::Black
        || board.rule() != Rule::Renju
        || board.pattern4(f, Color::Black) != Pattern4::Forbid
}

/// True if a stone of `c` on the empty square `p` is a legal move making a four (or five).
#[inline]
pub(crate) fn is_four_move(board: &mut Board, p: Pos, c: Color) -> bool {
    let x = board.pattern4(p, c);
    if x >= Pattern4::Block4 {
        return true;
    }
    x == Pattern4::Forbid
        && Dir::ALL.iter().any(|&d| board.pattern(p, c, d).is_four())
        && !board.is_forbidden(p)
}

/// The squares within distance `HALF` of `p` along the four lines where `c` makes five,
/// written to `out` (cleared first). Every five point created by a stone on `p` is there.
#[inline]
pub(crate) fn fives_near(board: &Board, p: Pos, c: Color, out: &mut [Pos; 8]) -> usize {
    // Once as many are found as the board has five points, there are no more.
    let total = (board.count(c, Pattern4::Five) as usize).min(out.len());
    let mut n = 0;
    if total == 0 {
        return 0;
    }
    for d in Dir::ALL {
        for k in 1..HALF {
            for q in [p.step(d, k), p.step(d, -k)] {
                if board.pattern4(q, c) == Pattern4::Five && !out[..n].contains(&q) {
                    out[n] = q;
                    n += 1;
                    if n == total {
                        return n;
                    }
                }
            }
        }
    }
    n
}

/// The first square (row order) where `c` makes five, if any.
pub(crate) fn find_five(board: &Board, squares: &[Pos], c: Color) -> Option<Pos> {
    if board.count(c, Pattern4::Five) == 0 {
        return None;
    }
    squares
        .iter()
        .copied()
        .find(|&p| board.pattern4(p, c) == Pattern4::Five)
}

/// Number of empty squares where `c` has a class in `lo..=hi`, by the class counts.
#[inline]
pub(crate) fn class_count(board: &Board, c: Color, lo: Pattern4, hi: Pattern4) -> u32 {
    board.counts(c)[lo as usize..=hi as usize]
        .iter()
        .map(|&k| u32::from(k))
        .sum()
}

/// Call `f` on each of `squares`, in order, where `c`'s class passes `wanted`, and stop
/// after `total` of them: the number the class counts give for those classes (see
/// [`class_count`]), so the scan ends at the last such square instead of the board's end.
#[inline]
pub(crate) fn scan_counted(
    board: &mut Board,
    squares: &[Pos],
    c: Color,
    mut total: u32,
    wanted: impl Fn(Pattern4) -> bool,
    mut f: impl FnMut(&mut Board, Pos, Pattern4),
) {
    for &p in squares {
        if total == 0 {
            break;
        }
        let x = board.pattern4(p, c);
        if wanted(x) {
            total -= 1;
            f(board, p, x);
        }
    }
}

/// Most stones one look-ahead places (see [`Placed`]): a VCF line of
/// [`vcf::MAX_ATTACKS`] fours completed to its longest (line completion stops at
/// `4 * MAX_ATTACKS` moves) and a reply.
pub(crate) const MAX_PLACED: usize = 4 * vcf::MAX_ATTACKS as usize + 8;

/// Stones put on a board by a look-ahead along a line (a replay, a line's completion),
/// taken back in reverse by [`Placed::undo`].
///
/// Why it exists: those look-aheads run for every candidate defence and every VCF win;
/// the record lives on the stack instead of in a `Vec` per call. Callers refuse lines
/// longer than `MAX_PLACED - 2` (no solver writes one).
pub(crate) struct Placed {
    stones: [Pos; MAX_PLACED],
    n: usize,
}

impl Placed {
    pub(crate) fn new() -> Placed {
        Placed {
            stones: [Pos::NONE; MAX_PLACED],
            n: 0,
        }
    }

    /// Put a stone of `c` on `p` and record it.
    #[inline]
    pub(crate) fn place(&mut self, board: &mut Board, p: Pos, c: Color) {
        board.place(p, c);
        self.stones[self.n] = p;
        self.n += 1;
    }

    /// Take back every recorded stone, the last first.
    pub(crate) fn undo(&mut self, board: &mut Board) {
        for &p in self.stones[..self.n].iter().rev() {
            board.lift(p);
        }
        self.n = 0;
    }
}

/// Move-ordering rank of an attacker's threat class for the VCT searches, strongest
/// first: a four-three, two threes, a three with more, a three, fours, then the quieter
/// threats (closed threes, twos). `None` for every other class; renju black's forbid
/// class is each search's own question.
#[inline]
pub(crate) fn threat_rank(x: Pattern4) -> Option<u8> {
    Some(match x {
        Pattern4::Block4Flex3 => 0,
        Pattern4::Flex3x2 => 1,
        Pattern4::Flex3Plus => 2,
        Pattern4::Flex3 => 3,
        Pattern4::Block4Plus => 4,
        Pattern4::Block4 => 5,
        Pattern4::Block3Plus => 6,
        Pattern4::Flex2x2 => 7,
        Pattern4::Block3 => 8,
        Pattern4::Flex2 => 9,
        _ => return None,
    })
}

/// Number of squares where `c` makes a four, by the class counts (renju black's
/// forbid-class squares are counted as possible fours).
#[inline]
pub(crate) fn four_count(board: &Board, c: Color) -> u32 {
    let n = class_count(board, c, Pattern4::Block4, Pattern4::Flex4);
    if c == Color::Black && board.rule() == Rule::Renju {
        n + board.count(c, Pattern4::Forbid)
    } else {
        n
    }
}

/// What the defender must do after the attacker made the five points `fives`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Reply {
    /// No defence: the attacker makes five next move.
    Lost,
    /// The defender's only move (the single useful block).
    Forced(Pos),
    /// No five point, or several useful blocks (not a forcing move for VCF purposes).
    Free,
}

/// The defender's answer to the attacker's five points `fives` (defender to move, with
/// no five of its own). One five point must be blocked unless that is forbidden to renju
/// black. Two or more win outright, except under caro rules, where a block at one end can
/// turn the other five into one blocked at both ends: there each block is tried, and
/// only a position in which no block stops every five counts as lost.
pub(crate) fn reply_to_fives(board: &mut Board, a: Color, fives: &[Pos]) -> Reply {
    let d = a.opp();
    match fives.len() {
        0 => Reply::Free,
        1 if legal_for(board, fives[0], d) => Reply::Forced(fives[0]),
        1 => Reply::Lost,
        _ if !matches!(board.rule(), Rule::Caro8 | Rule::Caro9) => Reply::Lost,
        _ => {
            let mut killer = None;
            for &f in fives {
                board.place(f, d);
                let stops = board.count(a, Pattern4::Five) == 0;
                board.lift(f);
                if stops {
                    if killer.is_some() {
                        return Reply::Free;
                    }
                    killer = Some(f);
                }
            }
            killer.map_or(Reply::Lost, Reply::Forced)
        }
    }
}

/// All squares where `c` makes five, up to 8 (for positions reached without a known
/// last move).
pub(crate) fn all_fives(board: &Board, squares: &[Pos], c: Color, out: &mut [Pos; 8]) -> usize {
    let mut n = 0;
    let total = board.count(c, Pattern4::Five) as usize;
    if total == 0 {
        return 0;
    }
    // The count says how many there are: stop at the last one (or when `out` is full).
    for &p in squares {
        if board.pattern4(p, c) == Pattern4::Five {
            out[n] = p;
            n += 1;
            if n == total || n == out.len() {
                break;
            }
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Random positions of every rule without a five point, each side's every empty
    /// square: `f(board, square, colour)`. Returns how many were visited.
    fn each_square_of_random_positions(
        seed: u64,
        mut f: impl FnMut(&mut Board, Pos, Color),
    ) -> u32 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut visited = 0;
        for game in 0..150 {
            let rule = Rule::ALL[game % Rule::ALL.len()];
            let mut board = Board::new(15, 15, rule).unwrap();
            let mut cands = Vec::new();
            for _ in 0..rng.gen_range(12..70) {
                board.candidates(&mut cands);
                if cands.is_empty() {
                    break;
                }
                let p = cands[rng.gen_range(0..cands.len())];
                if board.play(p) != Ok(crate::board::MoveOutcome::Continue) {
                    break;
                }
                for c in [Color::Black, Color::White] {
                    if board.count(c, Pattern4::Five) > 0 {
                        continue;
                    }
                    for p in board.all_squares().collect::<Vec<Pos>>() {
                        if board.is_empty(p) {
                            f(&mut board, p, c);
                            visited += 1;
                        }
                    }
                }
            }
        }
        visited
    }

    #[test]
    fn five_points_read_before_a_stone_equal_those_on_the_board_after_it() {
        let mut with_fives = 0u32;
        let visited = each_square_of_random_positions(0xF5, |board, p, c| {
            let mut before = [Pos::NONE; 8];
            let n = board.fives_after(p, c, &mut before);
            board.place(p, c);
            let mut after = [Pos::NONE; 8];
            let k = fives_near(board, p, c, &mut after);
            let total = board.count(c, Pattern4::Five) as usize;
            board.lift(p);
            assert_eq!(before[..n], after[..k], "{:?} {c:?} at {p:?}", board.rule());
            assert_eq!(n, total.min(8), "every five point is near the stone");
            with_fives += u32::from(n > 0);
        });
        // The positions must have made fours (and two-point fours) often.
        assert!(
            with_fives > 2_000,
            "{with_fives} fours in {visited} squares"
        );
    }

    #[test]
    fn a_renju_block_judged_legal_before_the_four_stays_legal_after_it() {
        let mut judged = 0u32;
        each_square_of_random_positions(0xB1, |board, m, a| {
            let d = a.opp();
            let mut fives = [Pos::NONE; 8];
            let n = board.fives_after(m, a, &mut fives);
            for &f in &fives[..n] {
                if block_stays_legal(board, f, d) {
                    board.place(m, a);
                    assert!(legal_for(board, f, d), "{d:?} block {f:?} after {m:?}");
                    board.lift(m);
                    judged += u32::from(d == Color::Black && board.rule() == Rule::Renju);
                }
            }
        });
        assert!(judged > 500, "{judged} renju black blocks judged");
    }
}
