//! Move generation and ordering for the search, without allocation.
//!
//! Moves are the empty cells near stones inside a bounding box that the search carries
//! from ply to ply ([`BBox`]). Forced situations come first and restrict the list:
//! 1. the opponent has a five point → only that point (caro with several: each of them);
//! 2. the opponent has an open three (a straight-four point) → only the cells where the
//!    opponent would make a four (the three's defence points) and our own fours;
//! 3. with [`OrderInfo::four_three`] (the search key `defend43`, on below the root), the
//!    opponent has a four-three point → only that point, the cells that stop its four or
//!    its three, counters at the four's block point and our own fours
//!    ([`Stage::DefendFourThree`]);
//! 4. otherwise every candidate, scored by the pattern classes both colours would make
//!    there, plus TT move, killers and history; the caller keeps the best N (top-N).
//!
//! Renju: black's forbidden points are never generated (`Board::is_forbidden` runs only
//! on cells whose black class is `Forbid`). Ties are broken by square index, so the order
//! is deterministic.

use crate::board::Board;
use crate::order::OrderTable;
use crate::pattern::Pattern4;
use crate::types::{Color, Dir, Pos, Rule, MAX_SIZE, NUM_CELLS, STRIDE};

/// Capacity of a move list: every square of the largest board.
pub const MAX_LIST: usize = MAX_SIZE * MAX_SIZE;

/// A move with its ordering score.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct ScoredMove {
    /// The square.
    pub pos: Pos,
    /// Ordering score (higher first).
    pub score: i32,
}

// Fixed-capacity storage so the search never allocates: one list per ply lives in the
// search stack.
/// A fixed-capacity list of scored moves.
pub struct MoveList {
    moves: [ScoredMove; MAX_LIST],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            moves: [ScoredMove::default(); MAX_LIST],
            len: 0,
        }
    }
}

impl MoveList {
    /// Number of moves.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }
    /// True if there is no move.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Remove every move.
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// Append a move (ignored when full, which cannot happen for distinct squares).
    #[inline]
    pub fn push(&mut self, pos: Pos, score: i32) {
        if self.len < MAX_LIST {
            self.moves[self.len] = ScoredMove { pos, score };
            self.len += 1;
        }
    }
    /// The moves.
    #[must_use]
    pub fn as_slice(&self) -> &[ScoredMove] {
        &self.moves[..self.len]
    }
    /// The moves, mutable.
    pub fn as_mut_slice(&mut self) -> &mut [ScoredMove] {
        &mut self.moves[..self.len]
    }
    /// Move `i`.
    #[inline]
    #[must_use]
    pub fn get(&self, i: usize) -> ScoredMove {
        self.moves[i]
    }

    /// Move the best of moves `i..` (score descending, then square index ascending) to
    /// position `i` and return it: picking `0, 1, 2, …` yields the order of
    /// [`MoveList::sort_and_truncate`] without sorting the moves a cutoff never reaches.
    /// `i` must be below [`MoveList::len`].
    #[inline]
    pub fn pick(&mut self, i: usize) -> ScoredMove {
        let s = &mut self.moves[i..self.len];
        // One comparison per move: the score above the inverted square index.
        let key = |m: &ScoredMove| (i64::from(m.score) << 16) | i64::from(!m.pos.0);
        let mut best = 0;
        let mut best_key = key(&s[0]);
        for (j, m) in s.iter().enumerate().skip(1) {
            let k = key(m);
            if k > best_key {
                best_key = k;
                best = j;
            }
        }
        s.swap(0, best);
        s[0]
    }

    /// Keep the best `k` of moves `from..` at `from..from + k` in [`MoveList::pick`]
    /// order and drop the others (the list ends after them): one pass that inserts
    /// into a short sorted buffer of keys (score above the inverted square index, which
    /// give the move back), cheaper than `k` picks or a sort.
    pub fn keep_top(&mut self, from: usize, k: usize) {
        const BUF: usize = 32;
        let end = self.len;
        let k = k.min(end.saturating_sub(from));
        if k == 0 {
            self.len = from.min(end);
            return;
        }
        let key = |m: &ScoredMove| (i64::from(m.score) << 16) | i64::from(!m.pos.0);
        if k > BUF {
            // Long forced lists: sort them all.
            let s = &mut self.moves[from..end];
            s.sort_unstable_by_key(|m| std::cmp::Reverse(key(m)));
            self.len = from + k;
            return;
        }
        let mut top = [0i64; BUF];
        let mut t = 0;
        for m in &self.moves[from..end] {
            let km = key(m);
            if t == k {
                if km <= top[k - 1] {
                    continue;
                }
                t -= 1;
            }
            let mut q = t;
            while q > 0 && top[q - 1] < km {
                top[q] = top[q - 1];
                q -= 1;
            }
            top[q] = km;
            t += 1;
        }
        for (slot, &km) in self.moves[from..from + k].iter_mut().zip(&top[..k]) {
            *slot = ScoredMove {
                pos: Pos(!(km as u16)),
                score: (km >> 16) as i32,
            };
        }
        self.len = from + k;
    }

    /// Remove `pos` if listed (the order of the others may change; picking does not
    /// depend on it).
    pub fn remove(&mut self, pos: Pos) {
        if let Some(i) = self.moves[..self.len].iter().position(|m| m.pos == pos) {
            self.len -= 1;
            self.moves[i] = self.moves[self.len];
        }
    }

    /// Sort best first (score descending, then square index ascending) and keep at most
    /// `n` moves.
    pub fn sort_and_truncate(&mut self, n: usize) {
        let cmp = |a: &ScoredMove, b: &ScoredMove| b.score.cmp(&a.score).then(a.pos.cmp(&b.pos));
        let s = &mut self.moves[..self.len];
        if n < s.len() {
            if n == 0 {
                self.len = 0;
                return;
            }
            s.select_nth_unstable_by(n - 1, cmp);
            self.len = n;
        }
        self.moves[..self.len].sort_unstable_by(cmp);
    }
}

// The area where candidates can be: stones' bounding box grown by the candidate
// stencil's reach; carried per ply so generation scans far fewer cells than the board.
/// Inclusive bounding box of candidate squares.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct BBox {
    x0: u8,
    y0: u8,
    x1: u8,
    y1: u8,
    /// False when no stone is on the board yet.
    any: bool,
}

/// How far from a stone a candidate can be (the board's stencil reaches 3).
const REACH: usize = 3;

impl BBox {
    /// The box around every stone of `board`.
    #[must_use]
    pub fn of_board(board: &Board) -> BBox {
        let mut b = BBox {
            x0: 0,
            y0: 0,
            x1: 0,
            y1: 0,
            any: false,
        };
        for &p in board.history() {
            b = b.with(p, board.width(), board.height());
        }
        b
    }

    /// True if `p` is inside the box.
    #[inline]
    #[must_use]
    pub fn contains(&self, p: Pos) -> bool {
        let (x, y) = (p.x(), p.y());
        self.any
            && (usize::from(self.x0)..=usize::from(self.x1)).contains(&x)
            && (usize::from(self.y0)..=usize::from(self.y1)).contains(&y)
    }

    /// This box grown to include the candidates around a stone on `p`.
    #[inline]
    #[must_use]
    pub fn with(self, p: Pos, width: usize, height: usize) -> BBox {
        let (x, y) = (p.x(), p.y());
        let nx0 = x.saturating_sub(REACH) as u8;
        let ny0 = y.saturating_sub(REACH) as u8;
        let nx1 = (x + REACH).min(width - 1) as u8;
        let ny1 = (y + REACH).min(height - 1) as u8;
        if !self.any {
            return BBox {
                x0: nx0,
                y0: ny0,
                x1: nx1,
                y1: ny1,
                any: true,
            };
        }
        BBox {
            x0: self.x0.min(nx0),
            y0: self.y0.min(ny0),
            x1: self.x1.max(nx1),
            y1: self.y1.max(ny1),
            any: true,
        }
    }
}

/// Which generation rule produced a list.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stage {
    /// Only the block of the opponent's five point (empty list: it is forbidden to us).
    BlockFive,
    /// Defence against an open three: its defence points and our fours.
    DefendThree,
    /// Defence against a four-three point of the opponent: the point, the cells that
    /// stop its four or its three, and our fours ([`OrderInfo::four_three`]).
    DefendFourThree,
    /// Every candidate (to be cut to the top N by the caller).
    All,
}

// What the generator needs to know about ordering besides the board; borrowed from the
// search for one call.
/// Ordering inputs of one node.
pub struct OrderInfo<'a> {
    /// Best move from the transposition table (or none).
    pub tt_move: Pos,
    /// Killer moves of this ply.
    pub killers: [Pos; 2],
    /// History scores of the side to move, per cell.
    pub history: &'a [i32; NUM_CELLS],
    /// Ordering weight of the class the side to move makes on a cell.
    pub own: &'a [i32; Pattern4::COUNT],
    /// Ordering weight of the class the opponent would make on a cell.
    pub opp: &'a [i32; Pattern4::COUNT],
    /// Score bonus of a killer move (see [`KILLER_SCORE`]).
    pub killer: i32,
    /// Learned scores of the unforced stage instead of `own`/`opp` ([`crate::order`]).
    pub learned: Option<&'a OrderTable>,
    /// The last four moves, newest first ([`crate::order::near_moves`]; `learned` uses
    /// the first two, `far` all four).
    pub near: [Pos; 4],
    /// Scale down the pattern score of a cell far from the recent moves: halved when it
    /// is more than `far` squares (Chebyshev) from the last two moves, quartered when
    /// from all four (0 = off; the search parameters `order_far` and `far_dist`, default
    /// [`FAR`]).
    pub far: i32,
    /// When the opponent has a four-three point and no straight-four point, list only
    /// the moves that can stop it ([`Stage::DefendFourThree`]).
    pub four_three: bool,
}

/// The default Chebyshev distance beyond which a cell is far from a recent move
/// (`OrderInfo::far`, the search parameter `far_dist`).
pub const FAR: usize = 4;

impl<'a> OrderInfo<'a> {
    /// The pattern-class weights `own`/`opp` alone: no TT move, killers, learned table
    /// or recent moves (the tools that list moves outside a search).
    #[must_use]
    pub fn plain(
        history: &'a [i32; NUM_CELLS],
        own: &'a [i32; Pattern4::COUNT],
        opp: &'a [i32; Pattern4::COUNT],
    ) -> Self {
        OrderInfo {
            tt_move: Pos::NONE,
            killers: [Pos::NONE; 2],
            history,
            own,
            opp,
            killer: 0,
            learned: None,
            near: [Pos::NONE; 4],
            far: 0,
            four_three: false,
        }
    }

    /// The ordering bonus of `p` as the TT move or a killer (0 for any other square).
    #[inline]
    fn bonus(&self, p: Pos) -> i32 {
        if p == self.tt_move {
            TT_MOVE_SCORE
        } else if p == self.killers[0] || p == self.killers[1] {
            self.killer
        } else {
            0
        }
    }
}

/// Score given to the TT move so that it comes first and survives top-N.
pub const TT_MOVE_SCORE: i32 = 1 << 28;
/// Score bonus of a killer move that puts it before every pattern score (the default
/// of `SearchParams::killer_score`).
pub const KILLER_SCORE: i32 = 1 << 20;

/// True if `p` is forbidden for the side to move (renju black only; slow path only for
/// cells whose black class is `Forbid`).
#[inline]
pub fn forbidden_for_mover(board: &mut Board, p: Pos) -> bool {
    board.rule() == Rule::Renju
        && board.side_to_move() == Color::Black
        && board.pattern4(p, Color::Black) == Pattern4::Forbid
        && board.is_forbidden(p)
}

/// The opponent's five point (a cell where `c` makes five), looked for first on the
/// lines through `hint` (normally the last move, which made the four), then in `bbox`.
#[must_use]
pub fn find_five_point(board: &Board, c: Color, hint: Option<Pos>, bbox: &BBox) -> Option<Pos> {
    if let Some(h) = hint {
        for d in Dir::ALL {
            for k in -4..=4 {
                if k == 0 {
                    continue;
                }
                let q = h.step(d, k);
                if board.is_empty(q) && board.pattern4(q, c) == Pattern4::Five {
                    return Some(q);
                }
            }
        }
    }
    let mut found = None;
    scan(board, bbox, |q| {
        if found.is_none() && board.pattern4(q, c) == Pattern4::Five {
            found = Some(q);
        }
    });
    found
}

/// True when blocking one of `c`'s five points may not be enough to stop the others, or
/// may stop several: caro with two or more five points (a block can cap another five at
/// both ends). Then every five point is a candidate block.
#[inline]
#[must_use]
pub fn caro_multi_five(board: &Board, c: Color) -> bool {
    matches!(board.rule(), Rule::Caro8 | Rule::Caro9) && board.count(c, Pattern4::Five) >= 2
}

/// Up to `out.len()` squares in `bbox` where `c` makes five; returns how many.
pub fn five_points(board: &Board, c: Color, bbox: &BBox, out: &mut [Pos]) -> usize {
    let mut n = 0;
    scan(board, bbox, |q| {
        if n < out.len() && board.pattern4(q, c) == Pattern4::Five {
            out[n] = q;
            n += 1;
        }
    });
    n
}

/// Up to `out.len()` squares in `bbox` where `c` makes a four that is not a straight
/// four (classes `Block4`, `Block4Plus`, `Block4Flex3`), the four-threes first; returns
/// how many.
pub fn four_points(board: &Board, c: Color, bbox: &BBox, out: &mut [Pos]) -> usize {
    let mut n = 0;
    let mut threes = 0;
    scan(board, bbox, |q| {
        let p4 = board.pattern4(q, c);
        if n < out.len() && (Pattern4::Block4..=Pattern4::Block4Flex3).contains(&p4) {
            out[n] = q;
            if p4 == Pattern4::Block4Flex3 {
                out.swap(threes, n);
                threes += 1;
            }
            n += 1;
        }
    });
    n
}

/// Call `f` on every empty candidate square (near a stone) in `bbox`, row by row.
#[inline]
fn scan(board: &Board, bbox: &BBox, mut f: impl FnMut(Pos)) {
    if !bbox.any {
        return;
    }
    let (x0, x1) = (usize::from(bbox.x0), usize::from(bbox.x1));
    for y in bbox.y0..=bbox.y1 {
        // Squares of a row are consecutive indices.
        let row = Pos::new(x0, usize::from(y)).0;
        for i in 0..=(x1 - x0) as u16 {
            let p = Pos(row + i);
            if board.is_near(p) && board.is_empty(p) {
                f(p);
            }
        }
    }
}

/// Renju black's cells of class `Forbid` met by a scan, to be checked afterwards (that
/// needs `&mut Board`); at most 64 (further ones are not listed).
struct ForbidLog {
    cells: [Pos; 64],
    n: usize,
}

impl ForbidLog {
    /// Log `p`; false (and nothing logged) when the log is full.
    #[inline]
    fn add(&mut self, p: Pos) -> bool {
        if self.n == self.cells.len() {
            return false;
        }
        self.cells[self.n] = p;
        self.n += 1;
        true
    }
}

/// The side to move and its opponent of a scan specialised for `BLACK` to move.
#[inline(always)]
const fn sides<const BLACK: bool>() -> (Color, Color) {
    if BLACK {
        (Color::Black, Color::White)
    } else {
        (Color::White, Color::Black)
    }
}

/// The scans of [`generate`] once no five needs blocking (see the module docs), for the
/// side to move black (`BLACK`) or white, and renju black (`FORBID`: its `Forbid` cells
/// are logged for the exact check) or not, so that the colour's class fields are
/// constant offsets and other rules carry no renju test: writes the moves to `moves`
/// and returns how many.
#[inline(never)]
fn scan_moves<const BLACK: bool, const FORBID: bool>(
    board: &Board,
    bbox: &BBox,
    moves: &mut [ScoredMove; MAX_LIST],
    info: &OrderInfo,
    min_fill: usize,
    defend: bool,
    forbid: &mut ForbidLog,
) -> usize {
    let (me, opp) = sides::<BLACK>();
    if !bbox.any {
        return 0;
    }
    let (own, opp_w, history) = (info.own, info.opp, info.history);
    let mut len = 0usize;
    // Appends a move; the squares are distinct, so at most `MAX_LIST` of them.
    let mut push = |moves: &mut [ScoredMove; MAX_LIST], len: &mut usize, p: Pos, o, s| {
        if FORBID && o == Pattern4::Forbid {
            if forbid.n == forbid.cells.len() {
                return;
            }
            forbid.cells[forbid.n] = p;
            forbid.n += 1;
        }
        moves[*len] = ScoredMove { pos: p, score: s };
        *len += 1;
    };
    // The rows of the box: squares of a row are consecutive indices.
    let first = usize::from(Pos::new(usize::from(bbox.x0), usize::from(bbox.y0)).0);
    let width = usize::from(bbox.x1 - bbox.x0) + 1;
    let rows = usize::from(bbox.y1 - bbox.y0) + 1;
    let candidate = |p: Pos| board.is_near(p) && board.is_empty(p);
    if defend {
        // Only the cells where either colour makes a four. The counts say how many
        // there are of each colour: the scan stops once it has met them all.
        let fours = |c: Color| -> u32 {
            board.counts(c)[Pattern4::Block4 as usize..]
                .iter()
                .map(|&n| u32::from(n))
                .sum()
        };
        let (mut left_me, mut left_opp) = (fours(me), fours(opp));
        let mut i = first;
        for _ in 0..rows {
            let end = i + width;
            while i < end {
                let p = Pos(i as u16);
                i += 1;
                if !candidate(p) {
                    continue;
                }
                let o = board.pattern4(p, me);
                let t = board.pattern4(p, opp);
                let (fo, ft) = (o >= Pattern4::Block4, t >= Pattern4::Block4);
                if fo || ft {
                    let s = own[o as usize] + opp_w[t as usize];
                    push(moves, &mut len, p, o, s + history[p.idx()] + info.bonus(p));
                    left_me = left_me.wrapping_sub(u32::from(fo));
                    left_opp = left_opp.wrapping_sub(u32::from(ft));
                    if left_me == 0 && left_opp == 0 {
                        return len;
                    }
                }
            }
            i += STRIDE - width;
        }
        return len;
    }
    scan_all::<BLACK, FORBID>(board, first, width, rows, moves, info, min_fill, forbid)
}

/// The defence of [`Stage::DefendFourThree`]: when the opponent has a four-three point
/// `P` (class `Block4Flex3`), lists `P`, the other cells that complete the four along
/// its four line (a stone there leaves `P` no four), the empty cells within four steps of
/// `P` along its three line (a superset of the cells that leave the three closed), the
/// cells next to the four's block point along our own lines where we make a closed three
/// or better (a stone there can make that block a four of ours: a counter), and every
/// own four point (a four answers first). Any other move loses to the four-three (the
/// four, its forced block, then a straight four). Only the first such point is
/// defended: if the opponent has another, the search sees it at the next ply.
///
/// Returns false, with `list` untouched, when the four's block point is already an own
/// four point (the block answers with a four: no direct defence needed) or nothing is
/// left (renju black: every defence forbidden); the caller then lists every move.
fn four_three_defence(
    board: &mut Board,
    bbox: &BBox,
    list: &mut MoveList,
    info: &OrderInfo,
) -> bool {
    use crate::pattern::Pattern;
    use crate::types::Cell;
    let me = board.side_to_move();
    let opp = me.opp();
    if !bbox.any {
        return false;
    }
    let mut cells = [Pos::NONE; 64];
    let mut n = 0usize;
    let add = |cells: &mut [Pos; 64], n: &mut usize, p: Pos| {
        if *n < cells.len() && !cells[..*n].contains(&p) {
            cells[*n] = p;
            *n += 1;
        }
    };
    // One pass over the box: the first four-three point and every own four point.
    let mut four_three = Pos::NONE;
    for y in bbox.y0..=bbox.y1 {
        for x in bbox.x0..=bbox.x1 {
            let p = Pos::new(usize::from(x), usize::from(y));
            if !board.is_near(p) || !board.is_empty(p) {
                continue;
            }
            if board.pattern4(p, me) >= Pattern4::Block4 {
                add(&mut cells, &mut n, p);
            }
            if four_three == Pos::NONE && board.pattern4(p, opp) == Pattern4::Block4Flex3 {
                four_three = p;
            }
        }
    }
    if four_three == Pos::NONE {
        return false;
    }
    let p = four_three;
    add(&mut cells, &mut n, p);
    for d in Dir::ALL {
        match board.pattern(p, opp, d) {
            Pattern::B4 => {
                for s in [-1, 1] {
                    for k in 1..=4 {
                        let q = p.step(d, s * k);
                        match board.cell(q) {
                            c if c == Cell::stone(opp) => continue,
                            Cell::Empty if board.pattern(q, opp, d) >= Pattern::B4 => {
                                if board.pattern4(q, me) >= Pattern4::Block4 {
                                    return false;
                                }
                                add(&mut cells, &mut n, q);
                                // Counters: our closed threes through the block point.
                                for d2 in Dir::ALL {
                                    for s2 in [-1, 1] {
                                        for k2 in 1..=4 {
                                            let c = q.step(d2, s2 * k2);
                                            match board.cell(c) {
                                                x if x == Cell::stone(me) => continue,
                                                Cell::Empty
                                                    if board.pattern(c, me, d2) >= Pattern::B3 =>
                                                {
                                                    add(&mut cells, &mut n, c);
                                                }
                                                _ => break,
                                            }
                                        }
                                    }
                                }
                            }
                            _ => {}
                        }
                        break;
                    }
                }
            }
            Pattern::F3 => {
                for s in [-1, 1] {
                    for k in 1..=4 {
                        let q = p.step(d, s * k);
                        match board.cell(q) {
                            c if c == Cell::stone(opp) => {}
                            Cell::Empty => add(&mut cells, &mut n, q),
                            _ => break,
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let renju_black = board.rule() == Rule::Renju && me == Color::Black;
    let mut len = 0;
    for &c in &cells[..n] {
        let o = board.pattern4(c, me);
        if renju_black && o == Pattern4::Forbid && board.is_forbidden(c) {
            continue;
        }
        let t = board.pattern4(c, opp);
        list.moves[len] = ScoredMove {
            pos: c,
            score: info.own[o as usize]
                + info.opp[t as usize]
                + info.history[c.idx()]
                + info.bonus(c),
        };
        len += 1;
    }
    if len == 0 {
        return false;
    }
    list.len = len;
    true
}

/// The unforced scan of [`scan_moves`]: every candidate cell where either colour makes
/// a pattern, scored by the two classes' weights and the history, then the TT move and
/// killers (their bonus added, or listed if they have no pattern), then the cells with
/// no pattern if fewer than `min_fill` moves are listed. The TT move and killers are
/// left out of the cell loop so that it keeps its few values in registers.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn scan_all<const BLACK: bool, const FORBID: bool>(
    board: &Board,
    first: usize,
    width: usize,
    rows: usize,
    moves: &mut [ScoredMove; MAX_LIST],
    info: &OrderInfo,
    min_fill: usize,
    forbid: &mut ForbidLog,
) -> usize {
    let (me, opp) = sides::<BLACK>();
    let (own, opp_w, history) = (info.own, info.opp, info.history);
    let candidate = |p: Pos| board.is_near(p) && board.is_empty(p);
    let base_of = |p: Pos| {
        let o = board.pattern4(p, me);
        let base = own[o as usize] + opp_w[board.pattern4(p, opp) as usize];
        match info.learned {
            // The cells listed stay those with a pattern; the learned score orders them
            // (it is at least 1, see `OrderTable::new`).
            Some(l) if base != 0 => (o, l.score(board, p, me, info.near[0], info.near[1])),
            _ => (o, base),
        }
    };
    // `far` (hand-set weights only): the column and row of each recent move; a missing
    // one is near every cell.
    let far = info.far > 0 && info.learned.is_none();
    let recent = info
        .near
        .map(|q| q.is_some().then(|| (q.x() as i32, q.y() as i32)));
    let reach = info.far;
    // Candidates with no pattern (the TT move and killers among them included).
    let mut zero = 0usize;
    let mut len = 0usize;
    let mut i = first;
    for _ in 0..rows {
        let end = i + width;
        // The columns within `reach` of each recent move on this row (none when the row
        // is farther; all for a missing move).
        let row_first = i;
        let (x_first, y) = (Pos(i as u16).x() as i32, Pos(i as u16).y() as i32);
        let span = recent.map(|r| match r {
            None => (i32::MIN, i32::MAX),
            Some((rx, ry)) if (ry - y).abs() <= reach => (rx - reach, rx + reach),
            Some(_) => (1, 0),
        });
        while i < end {
            let p = Pos(i as u16);
            i += 1;
            if !candidate(p) {
                continue;
            }
            let (o, base) = base_of(p);
            if base == 0 {
                zero += 1;
                continue;
            }
            let base = if far && base > 0 {
                let x = x_first + (i - 1 - row_first) as i32;
                let near = |k: usize| (span[k].0..=span[k].1).contains(&x);
                let shift = if near(0) || near(1) {
                    0
                } else if near(2) || near(3) {
                    1
                } else {
                    2
                };
                (base >> shift).max(1)
            } else {
                base
            };
            if FORBID && o == Pattern4::Forbid && !forbid.add(p) {
                continue;
            }
            moves[len] = ScoredMove {
                pos: p,
                score: base + history[p.idx()],
            };
            len += 1;
        }
        i += STRIDE - width;
    }
    // The moves are in square order so far: the TT move and killers are found by
    // bisection. Each is counted once (the TT move's bonus wins over a killer's).
    let (tt, k0, k1) = (info.tt_move, info.killers[0], info.killers[1]);
    let in_box = |p: Pos| {
        let (lo, hi) = (first, first + (rows - 1) * STRIDE + width);
        (lo..hi).contains(&p.idx()) && (p.idx() - first) % STRIDE < width
    };
    let scanned = len;
    let mut specials_zero = 0usize;
    for (j, p) in [tt, k0, k1].into_iter().enumerate() {
        if (j == 2 && p == k0) || (j > 0 && p == tt) || !in_box(p) || !candidate(p) {
            continue;
        }
        let bonus = if j == 0 { TT_MOVE_SCORE } else { info.killer };
        match moves[..scanned].binary_search_by_key(&p, |m| m.pos) {
            Ok(at) => moves[at].score += bonus,
            Err(_) => {
                let (o, base) = base_of(p);
                if base != 0 {
                    // Logged full for renju black: not listed, as in the scan.
                    continue;
                }
                specials_zero += 1;
                if FORBID && o == Pattern4::Forbid && !forbid.add(p) {
                    continue;
                }
                moves[len] = ScoredMove {
                    pos: p,
                    score: history[p.idx()] + bonus,
                };
                len += 1;
            }
        }
    }
    if zero > specials_zero && len < min_fill {
        let special = |p: Pos| p == tt || p == k0 || p == k1;
        let mut i = first;
        for _ in 0..rows {
            for j in i..i + width {
                let p = Pos(j as u16);
                if !candidate(p) {
                    continue;
                }
                let (o, base) = base_of(p);
                if base == 0 && !special(p) {
                    if FORBID && o == Pattern4::Forbid && !forbid.add(p) {
                        continue;
                    }
                    moves[len] = ScoredMove {
                        pos: p,
                        score: history[p.idx()],
                    };
                    len += 1;
                }
            }
            i += STRIDE;
        }
    }
    len
}

/// Fill `list` with the moves of the side to move (see the module docs) and say which
/// stage applied. The caller has already handled an own five point (a win). With an
/// empty board the centre is the only move. In the unforced stage, cells where neither
/// colour makes any pattern are added only when fewer than `min_fill` others exist.
pub fn generate(
    board: &mut Board,
    bbox: &BBox,
    list: &mut MoveList,
    info: &OrderInfo,
    min_fill: usize,
) -> Stage {
    list.clear();
    let me = board.side_to_move();
    let opp = me.opp();
    if board.move_count() == 0 {
        let c = Pos::new(board.width() / 2, board.height() / 2);
        if board.is_empty(c) {
            list.push(c, 0);
        }
        return Stage::All;
    }
    if caro_multi_five(board, opp) {
        let mut fives = [Pos::NONE; 8];
        let n = five_points(board, opp, bbox, &mut fives);
        for &p in &fives[..n] {
            list.push(p, TT_MOVE_SCORE + info.history[p.idx()]);
        }
        return Stage::BlockFive;
    }
    if board.count(opp, Pattern4::Five) > 0 {
        if let Some(p) = find_five_point(board, opp, board.last_move(), bbox) {
            if !forbidden_for_mover(board, p) {
                list.push(p, TT_MOVE_SCORE);
            }
        }
        return Stage::BlockFive;
    }
    let renju_black = board.rule() == Rule::Renju && me == Color::Black;
    let defend = board.count(opp, Pattern4::Flex4) > 0;
    if !defend
        && info.four_three
        && board.count(opp, Pattern4::Block4Flex3) > 0
        && !matches!(board.rule(), Rule::Caro8 | Rule::Caro9)
        && four_three_defence(board, bbox, list, info)
    {
        return Stage::DefendFourThree;
    }
    let mut forbid = ForbidLog {
        cells: [Pos::NONE; 64],
        n: 0,
    };
    let moves = &mut list.moves;
    list.len = match (me, renju_black) {
        (Color::Black, true) => {
            scan_moves::<true, true>(board, bbox, moves, info, min_fill, defend, &mut forbid)
        }
        (Color::Black, false) => {
            scan_moves::<true, false>(board, bbox, moves, info, min_fill, defend, &mut forbid)
        }
        (Color::White, _) => {
            scan_moves::<false, false>(board, bbox, moves, info, min_fill, defend, &mut forbid)
        }
    };
    let (forbid_checks, n_forbid) = (forbid.cells, forbid.n);
    if n_forbid > 0 {
        let mut i = 0;
        while i < list.len {
            let p = list.moves[i].pos;
            if forbid_checks[..n_forbid].contains(&p) && board.is_forbidden(p) {
                list.len -= 1;
                list.moves[i] = list.moves[list.len];
            } else {
                i += 1;
            }
        }
    }
    // Renju white: black's `Forbid` cells carry `opp`'s weight for that class only
    // where black may play them (a double three with a false three); the forbidden
    // ones lose it again.
    let w = info.opp[Pattern4::Forbid as usize];
    if w != 0 && me == Color::White && board.rule() == Rule::Renju {
        for i in 0..list.len {
            let p = list.moves[i].pos;
            if board.pattern4(p, opp) == Pattern4::Forbid && board.is_forbidden(p) {
                list.moves[i].score -= w;
            }
        }
    }
    if defend {
        Stage::DefendThree
    } else {
        Stage::All
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The generator's `far` scaling written directly (the reference of the tests): how
    /// far `p` is from the recent moves `near` (newest first), as a shift of its
    /// ordering score: 0 when within `dist` of the last move or of the one before it, 1
    /// when only of the two before those, 2 when of none. A missing move counts as near.
    fn far_shift(p: Pos, near: &[Pos; 4], dist: usize) -> u32 {
        let far = |q: Pos| q.is_some() && p.distance(q) > dist;
        if !far(near[0]) || !far(near[1]) {
            0
        } else if !far(near[2]) || !far(near[3]) {
            1
        } else {
            2
        }
    }

    #[test]
    fn a_cell_far_from_the_last_two_moves_orders_at_half_and_from_all_four_at_a_quarter() {
        let at = Pos::new;
        // Newest first: the last move, the mover's previous one, the two before.
        let near = [at(7, 7), at(8, 8), at(2, 2), at(12, 2)];
        // Within four squares (Chebyshev) of the last move or the one before it.
        assert_eq!(far_shift(at(11, 7), &near, FAR), 0);
        assert_eq!(far_shift(at(12, 12), &near, FAR), 0);
        // Five or more from both, within four of an older move.
        assert_eq!(far_shift(at(2, 1), &near, FAR), 1);
        assert_eq!(far_shift(at(13, 0), &near, FAR), 1);
        // Far from all four.
        assert_eq!(far_shift(at(0, 14), &near, FAR), 2);
        // A missing move (the start of a game) counts as near.
        let early = [at(7, 7), Pos::NONE, Pos::NONE, Pos::NONE];
        assert_eq!(far_shift(at(0, 14), &early, FAR), 0);
        let three = [at(7, 7), at(8, 8), at(2, 2), Pos::NONE];
        assert_eq!(far_shift(at(0, 14), &three, FAR), 1);
    }

    /// A list of 1..60 distinct squares with small scores (many ties), and a copy of it.
    fn random_list_twice(rng: &mut rand::rngs::StdRng) -> (MoveList, MoveList) {
        use rand::Rng;
        let n = rng.gen_range(1..60);
        let mut a = MoveList::default();
        let mut cells: Vec<usize> = (0..225).collect();
        for _ in 0..n {
            let c = cells.swap_remove(rng.gen_range(0..cells.len()));
            a.push(Pos::new(c % 15, c / 15), rng.gen_range(-3..4));
        }
        let mut b = MoveList::default();
        for m in a.as_slice() {
            b.push(m.pos, m.score);
        }
        (a, b)
    }

    #[test]
    fn picking_in_turn_gives_the_sorted_order() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        for _ in 0..200 {
            let (mut a, mut b) = random_list_twice(&mut rng);
            let keep = rng.gen_range(1..12);
            b.sort_and_truncate(keep);
            let picked: Vec<ScoredMove> = (0..b.len()).map(|i| a.pick(i)).collect();
            assert_eq!(picked, b.as_slice());
        }
    }

    #[test]
    fn keep_top_gives_the_picking_order_of_the_best_k_and_drops_the_rest() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(12);
        for round in 0..400 {
            let (mut a, mut b) = random_list_twice(&mut rng);
            if round % 4 == 0 {
                // Large and negative scores survive the packed keys.
                for m in a.as_mut_slice().iter_mut().chain(b.as_mut_slice()) {
                    m.score = m.score.wrapping_mul(1 << 27);
                }
            }
            let n = a.len();
            let from = rng.gen_range(0..n);
            // Up to 40: past the 32-key buffer too.
            let k = rng.gen_range(0..40);
            for i in 0..from {
                a.pick(i);
                b.pick(i);
            }
            b.keep_top(from, k);
            let top = k.min(n - from);
            assert_eq!(b.len(), from + top);
            let picked: Vec<ScoredMove> = (from..from + top).map(|i| a.pick(i)).collect();
            assert_eq!(picked, &b.as_slice()[from..]);
            assert_eq!(&a.as_slice()[..from], &b.as_slice()[..from]);
        }
    }

    #[test]
    fn remove_drops_only_that_move_and_picking_order_is_unchanged() {
        let mut l = MoveList::default();
        for (i, sc) in [4, 9, 1, 7, 3].iter().enumerate() {
            l.push(Pos::new(i, 0), *sc);
        }
        l.remove(Pos::new(1, 0));
        l.remove(Pos::new(9, 9)); // not listed: no change
        let picked: Vec<usize> = (0..l.len()).map(|i| l.pick(i).pos.x()).collect();
        assert_eq!(picked, vec![3, 0, 4, 2]);
    }

    #[test]
    fn bbox_contains_the_candidates_around_its_stones() {
        let b = BBox::default().with(Pos::new(7, 7), 15, 15);
        assert!(b.contains(Pos::new(4, 10)) && b.contains(Pos::new(10, 4)));
        assert!(!b.contains(Pos::new(3, 7)) && !b.contains(Pos::new(7, 11)));
        assert!(!BBox::default().contains(Pos::new(0, 0)));
    }

    #[test]
    fn sort_and_truncate_breaks_ties_by_square() {
        let mut l = MoveList::default();
        l.push(Pos::new(3, 3), 5);
        l.push(Pos::new(1, 1), 5);
        l.push(Pos::new(2, 2), 9);
        l.push(Pos::new(0, 0), 1);
        l.sort_and_truncate(3);
        let v: Vec<Pos> = l.as_slice().iter().map(|m| m.pos).collect();
        assert_eq!(v, vec![Pos::new(2, 2), Pos::new(1, 1), Pos::new(3, 3)]);
    }

    /// The moves and stage of a plain scan of every square (the rules of the module
    /// docs for positions without a five to block), in no particular order.
    fn plain_generate(
        board: &mut Board,
        bbox: &BBox,
        info: &OrderInfo,
        min_fill: usize,
    ) -> (Stage, Vec<ScoredMove>) {
        let me = board.side_to_move();
        let opp = me.opp();
        let defend = board.count(opp, Pattern4::Flex4) > 0;
        let special = |p: Pos| p == info.tt_move || info.killers.contains(&p);
        let bonus = |p: Pos| {
            if p == info.tt_move {
                TT_MOVE_SCORE
            } else if info.killers.contains(&p) {
                info.killer
            } else {
                0
            }
        };
        let squares: Vec<Pos> = board
            .all_squares()
            .filter(|&p| bbox.contains(p) && board.is_near(p) && board.is_empty(p))
            .collect();
        let mut out = Vec::new();
        let mut skipped = false;
        for &p in &squares {
            let (o, t) = (board.pattern4(p, me), board.pattern4(p, opp));
            let base = info.own[o as usize] + info.opp[t as usize];
            let listed = if defend {
                o >= Pattern4::Block4 || t >= Pattern4::Block4
            } else {
                base != 0 || special(p)
            };
            skipped |= !listed;
            if listed {
                out.push(ScoredMove {
                    pos: p,
                    score: base + info.history[p.idx()] + bonus(p),
                });
            }
        }
        if !defend && skipped && out.len() < min_fill {
            for &p in &squares {
                let (o, t) = (board.pattern4(p, me), board.pattern4(p, opp));
                if info.own[o as usize] + info.opp[t as usize] == 0 && !special(p) {
                    out.push(ScoredMove {
                        pos: p,
                        score: info.history[p.idx()],
                    });
                }
            }
        }
        if board.rule() == Rule::Renju && me == Color::Black {
            out.retain(|m| {
                board.pattern4(m.pos, me) != Pattern4::Forbid || !board.is_forbidden(m.pos)
            });
        }
        let stage = if defend {
            Stage::DefendThree
        } else {
            Stage::All
        };
        (stage, out)
    }

    #[test]
    fn order_far_scales_the_pattern_score_of_cells_far_from_the_recent_moves() {
        let mut board = Board::new(15, 15, Rule::Freestyle).expect("size");
        // Black's pair in one corner, the last moves in the other.
        for (x, y) in [(2, 2), (12, 12), (3, 2), (13, 12), (10, 10), (13, 13)] {
            board.make(Pos::new(x, y));
        }
        let params = crate::search::params::SearchParams::default();
        let history = [0i32; NUM_CELLS];
        let plain = OrderInfo::plain(&history, &params.order_own, &params.order_opp);
        let bbox = BBox::of_board(&board);
        let mut a = MoveList::default();
        assert_eq!(generate(&mut board, &bbox, &mut a, &plain, 0), Stage::All);
        // The scan against the reference at distances 2 to 8 (`far_dist`).
        for dist in 2..=8 {
            let far = OrderInfo {
                near: crate::order::near_moves(&board),
                far: dist as i32,
                ..OrderInfo::plain(&history, &params.order_own, &params.order_opp)
            };
            let mut b = MoveList::default();
            assert_eq!(generate(&mut board, &bbox, &mut b, &far, 0), Stage::All);
            assert_eq!(a.len(), b.len());
            let mut shifts = [0usize; 3];
            for m in a.as_slice() {
                let shift = far_shift(m.pos, &far.near, dist);
                shifts[shift as usize] += 1;
                let scaled = b
                    .as_slice()
                    .iter()
                    .find(|s| s.pos == m.pos)
                    .expect("listed");
                assert_eq!(
                    scaled.score,
                    (m.score >> shift).max(1),
                    "{} at {dist}",
                    m.pos
                );
            }
            if dist == FAR {
                // Cells near the last moves and cells near black's pair only (e.g. 4,2).
                assert!(shifts[0] > 0 && shifts[1] > 0, "{shifts:?}");
                assert_eq!(far_shift(Pos::new(4, 2), &far.near, dist), 1);
            }
        }
    }

    /// The empty squares next to stones, or the centre of an empty board: the moves of
    /// the random games below.
    fn near_squares(board: &Board) -> Vec<Pos> {
        if board.move_count() == 0 {
            return vec![Pos::new(board.width() / 2, board.height() / 2)];
        }
        board
            .all_squares()
            .filter(|&p| board.is_near(p) && board.is_empty(p))
            .collect()
    }

    /// Random games of up to 60 moves near the stones; at every position without a
    /// five to block, `generate` lists what the plain scan lists.
    #[test]
    fn generate_lists_the_moves_of_a_plain_scan_of_every_square() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(13);
        let params = crate::search::params::SearchParams::default();
        let mut compared = [0usize; 2];
        for game in 0..120 {
            let rule = Rule::ALL[game % Rule::ALL.len()];
            let size = if game % 3 == 0 { 20 } else { 15 };
            let mut board = Board::new(size, size, rule).expect("size");
            let mut history = [0i32; NUM_CELLS];
            let mut bbox = BBox::default();
            for _ in 0..rng.gen_range(1..60) {
                let near = near_squares(&board);
                let m = near[rng.gen_range(0..near.len())];
                bbox = bbox.with(m, size, size);
                board.make(m);
                history[m.idx()] = rng.gen_range(0..300);
                let opp = board.side_to_move().opp();
                if board.count(opp, Pattern4::Five) > 0 {
                    break;
                }
                // None, a near cell (occupied by now if it is `m`) or any square (also
                // outside the box); sometimes the killers repeat the TT move or each other.
                let pick = |rng: &mut rand::rngs::StdRng| match rng.gen_range(0..10) {
                    0..=2 => Pos::NONE,
                    3 => Pos::new(rng.gen_range(0..size), rng.gen_range(0..size)),
                    _ => near[rng.gen_range(0..near.len())],
                };
                let tt_move = pick(&mut rng);
                let mut killers = [pick(&mut rng), pick(&mut rng)];
                if rng.gen_bool(0.1) {
                    killers[rng.gen_range(0..2)] = tt_move;
                }
                if rng.gen_bool(0.1) {
                    killers[1] = killers[0];
                }
                let info = OrderInfo {
                    tt_move,
                    killers,
                    history: &history,
                    own: &params.order_own,
                    opp: &params.order_opp,
                    killer: params.killer_score,
                    learned: None,
                    near: [Pos::NONE; 4],
                    far: 0,
                    four_three: false,
                };
                let min_fill = rng.gen_range(0..40);
                let mut list = MoveList::default();
                let stage = generate(&mut board, &bbox, &mut list, &info, min_fill);
                let (want_stage, mut want) = plain_generate(&mut board, &bbox, &info, min_fill);
                let mut got = list.as_slice().to_vec();
                got.sort_by_key(|m| m.pos);
                want.sort_by_key(|m| m.pos);
                assert_eq!(
                    (stage, got),
                    (want_stage, want),
                    "{rule:?} {:?}",
                    board.history()
                );
                compared[usize::from(stage == Stage::DefendThree)] += 1;
            }
        }
        // Both stages were exercised.
        assert!(compared[0] > 500 && compared[1] > 50, "{compared:?}");
    }

    /// Black's closed three (4..6, 7), blocked by white (3, 7), and open two (7, 8),
    /// (7, 9) make (7, 7) a four-three point; white to move, with no four of its own,
    /// gets that point, the four's other point (8, 7) and the three line's empty cells
    /// within four steps, and nothing else; without the option every move is listed.
    #[test]
    fn four_three_point_of_the_opponent_limits_the_moves_to_its_defences() {
        let mut board = Board::new(15, 15, Rule::Freestyle).expect("size");
        let black = [(4, 7), (5, 7), (6, 7), (7, 8), (7, 9)];
        let white = [(3, 7), (0, 0), (14, 14), (0, 14)];
        let mut bbox = BBox::default();
        for i in 0..black.len() {
            for &(x, y) in black.get(i).into_iter().chain(white.get(i)) {
                let p = Pos::new(x, y);
                bbox = bbox.with(p, 15, 15);
                board.make(p);
            }
        }
        assert_eq!(board.side_to_move(), Color::White);
        assert_eq!(
            board.pattern4(Pos::new(7, 7), Color::Black),
            Pattern4::Block4Flex3
        );
        let history = [0i32; NUM_CELLS];
        let params = crate::search::params::SearchParams::default();
        let mut info = OrderInfo::plain(&history, &params.order_own, &params.order_opp);
        let mut list = MoveList::default();
        assert_eq!(generate(&mut board, &bbox, &mut list, &info, 0), Stage::All);
        let all = list.len();
        info.four_three = true;
        let stage = generate(&mut board, &bbox, &mut list, &info, 0);
        assert_eq!(stage, Stage::DefendFourThree);
        let mut got: Vec<Pos> = list.as_slice().iter().map(|m| m.pos).collect();
        got.sort();
        let mut want: Vec<Pos> = [
            (7, 7),
            (8, 7),
            (7, 3),
            (7, 4),
            (7, 5),
            (7, 6),
            (7, 10),
            (7, 11),
        ]
        .iter()
        .map(|&(x, y)| Pos::new(x, y))
        .collect();
        want.sort();
        assert_eq!(got, want);
        assert!(all > 2 * want.len(), "{all}");
    }

    /// Random games near the stones: at every position where the opponent has a
    /// four-three point (and no five or straight-four point) and the defence stage
    /// applies, every near move left out of its list loses to a VCF of the opponent
    /// (the four-three itself at least): the stage never drops a defence.
    #[test]
    fn every_move_left_out_against_a_four_three_loses_to_a_vcf() {
        use crate::threat::vcf::VcfSolver;
        use rand::{Rng, SeedableRng};
        use std::sync::atomic::AtomicBool;
        let mut rng = rand::rngs::StdRng::seed_from_u64(43);
        let params = crate::search::params::SearchParams::default();
        let history = [0i32; NUM_CELLS];
        let mut solver = VcfSolver::new(1 << 20);
        let stop = AtomicBool::new(false);
        let mut checked = [0usize; 3];
        for game in 0..240 {
            let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju][game % 3];
            let mut board = Board::new(15, 15, rule).expect("size");
            let mut bbox = BBox::default();
            for _ in 0..rng.gen_range(8..70) {
                let near = near_squares(&board);
                let m = near[rng.gen_range(0..near.len())];
                bbox = bbox.with(m, 15, 15);
                board.make(m);
                let me = board.side_to_move();
                let opp = me.opp();
                if board.count(opp, Pattern4::Five) > 0 || board.count(me, Pattern4::Five) > 0 {
                    break;
                }
                if board.count(opp, Pattern4::Block4Flex3) == 0 {
                    continue;
                }
                let mut info = OrderInfo::plain(&history, &params.order_own, &params.order_opp);
                info.four_three = true;
                let mut list = MoveList::default();
                if generate(&mut board, &bbox, &mut list, &info, 0) != Stage::DefendFourThree {
                    continue;
                }
                assert!(!list.is_empty());
                let listed: Vec<Pos> = list.as_slice().iter().map(|m| m.pos).collect();
                let others = near_squares(&board)
                    .into_iter()
                    .filter(|p| !listed.contains(p));
                for c in others {
                    if !board.is_legal(c) {
                        continue;
                    }
                    board.make(c);
                    let r = solver.solve(&mut board, opp, 40, 200_000, &stop);
                    board.unmake();
                    assert!(
                        r.is_win(),
                        "{rule:?}: {c:?} left out of {listed:?} does not lose to a VCF after {:?}",
                        board.history()
                    );
                }
                checked[game % 3] += 1;
            }
        }
        // Every rule met the stage often.
        assert!(checked.iter().all(|&n| n > 20), "{checked:?}");
    }
}
