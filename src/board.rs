//! The incremental board: walled cells, per-cell line keys, directional patterns,
//! combined pattern classes with per-side counts, Zobrist key and candidate cells,
//! all updated by make/unmake without allocation.
//!
//! Every incremental structure can be rebuilt from the cells alone
//! ([`Board::assert_consistent`] does that and compares).

use crate::pattern::{key_shift, Pattern, Pattern4, RuleTables, HALF, KEY_COUNT};
use crate::types::{Cell, Color, Dir, Pos, Rule, MAX_SIZE, MIN_SIZE, NUM_CELLS, STRIDE};
use std::fmt;

/// Most moves a game can hold (every square of the largest board).
pub const MAX_MOVES: usize = MAX_SIZE * MAX_SIZE;

/// Most frames (moves plus temporary look-ahead stones of rule checks) on the undo stack.
const MAX_FRAMES: usize = MAX_MOVES + 64;
/// Most cells one stone can change: 4 lines × 10 neighbours, plus the cell itself.
const MAX_CHANGES_PER_FRAME: usize = 4 * 10 + 1;

/// One cell's state before a stone changed it, for unmake.
#[derive(Clone, Copy, Default)]
struct Change {
    cell: u16,
    p4: [Pattern4; 2],
    pats: u32,
}

/// What unmake needs to restore one stone: where its changes start, the counts before.
#[derive(Clone, Copy)]
struct Frame {
    changes_start: u32,
    counts: [[u32; Pattern4::COUNT]; 2],
}

/// Why a board could not be created.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BoardError {
    /// Width or height outside 5..=32.
    BadSize { width: usize, height: usize },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::BadSize { width, height } => write!(
                f,
                "unsupported board size {width}x{height} (each side must be {MIN_SIZE}..={MAX_SIZE})"
            ),
        }
    }
}

impl std::error::Error for BoardError {}

/// Why a move was refused. The board is unchanged after any of these.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PlayError {
    /// The square is outside the board.
    OffBoard,
    /// A stone is already there.
    Occupied,
    /// The square is blocked (continuous games).
    Blocked,
    /// The game has already ended (five, foul or full board).
    GameOver,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlayError::OffBoard => "square is off the board",
            PlayError::Occupied => "square is occupied",
            PlayError::Blocked => "square is blocked",
            PlayError::GameOver => "game is over",
        })
    }
}

impl std::error::Error for PlayError {}

/// What a checked move did to the game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveOutcome {
    /// The game goes on.
    Continue,
    /// The mover made a five by the rule and wins.
    Win,
    /// Renju: black played a forbidden point and loses.
    Foul,
    /// The board is full: draw.
    Draw,
}

/// Fixed-seed Zobrist keys: [black, white, blocked] per cell, plus the side key.
struct Zobrist {
    cell: [[u64; NUM_CELLS]; 3],
    side: u64,
}

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn make_zobrist() -> Zobrist {
    let mut cell = [[0u64; NUM_CELLS]; 3];
    let mut state = 0x5E47_E5E4_7E00_0001u64;
    let mut c = 0;
    while c < 3 {
        let mut i = 0;
        while i < NUM_CELLS {
            let (s, v) = splitmix(state);
            state = s;
            cell[c][i] = v;
            i += 1;
        }
        c += 1;
    }
    let (_, side) = splitmix(state);
    Zobrist { cell, side }
}

static ZOBRIST: Zobrist = make_zobrist();

/// Cells within this Chebyshev distance of a stone are move candidates...
const NEAR_SQUARE: i32 = 2;
/// ...and so are cells this many steps away along the 8 rays.
const NEAR_LINE: i32 = 3;

/// Offsets (dx, dy) of the candidate stencil around a stone.
const fn near_offsets() -> [(i32, i32); 32] {
    let mut out = [(0i32, 0i32); 32];
    let mut n = 0;
    let mut dy = -NEAR_SQUARE;
    while dy <= NEAR_SQUARE {
        let mut dx = -NEAR_SQUARE;
        while dx <= NEAR_SQUARE {
            if dx != 0 || dy != 0 {
                out[n] = (dx, dy);
                n += 1;
            }
            dx += 1;
        }
        dy += 1;
    }
    let rays = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (-1, -1),
        (1, -1),
        (-1, 1),
    ];
    let mut r = 0;
    while r < 8 {
        out[n] = (rays[r].0 * NEAR_LINE, rays[r].1 * NEAR_LINE);
        n += 1;
        r += 1;
    }
    out
}

const NEAR: [(i32, i32); 32] = near_offsets();

/// The game position with all incremental pattern state. Not `Clone`: copying it is
/// expensive, and the search works by make/unmake; use [`Board::duplicate`] when a
/// second board is really needed.
pub struct Board {
    width: usize,
    height: usize,
    rule: Rule,
    tables: &'static RuleTables,
    cells: [Cell; NUM_CELLS],
    /// Per direction, per cell: the 20-bit key of the 10 cells around it on that line.
    keys: [[u32; NUM_CELLS]; 4],
    /// Per cell: packed directional patterns, byte d = black nibble | white nibble << 4.
    /// Meaningful only for empty cells.
    pats: [u32; NUM_CELLS],
    /// Per cell: combined class for [black, white]; `None` for non-empty cells.
    p4: [[Pattern4; 2]; NUM_CELLS],
    /// Per colour: how many empty cells have each class.
    counts: [[u32; Pattern4::COUNT]; 2],
    /// Per cell: how many stones lie in its candidate stencil.
    near: [u8; NUM_CELLS],
    key: u64,
    side: Color,
    history: Box<[Pos; MAX_MOVES]>,
    len: usize,
    blocked: usize,
    outcome: Option<MoveOutcome>,
    /// Undo stack: the cells each stone changed, with their previous state.
    changes: Box<[Change]>,
    changes_len: usize,
    frames: Box<[Frame]>,
    frames_len: usize,
}

impl Board {
    /// An empty `width` × `height` board under `rule`.
    ///
    /// # Errors
    /// [`BoardError::BadSize`] unless both sides are in 5..=32.
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Board, BoardError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            return Err(BoardError::BadSize { width, height });
        }
        let mut b = Board {
            width,
            height,
            rule,
            tables: RuleTables::get(rule),
            cells: [Cell::Wall; NUM_CELLS],
            keys: [[0; NUM_CELLS]; 4],
            pats: [0; NUM_CELLS],
            p4: [[Pattern4::None; 2]; NUM_CELLS],
            counts: [[0; Pattern4::COUNT]; 2],
            near: [0; NUM_CELLS],
            key: 0,
            side: Color::Black,
            history: Box::new([Pos::NONE; MAX_MOVES]),
            len: 0,
            blocked: 0,
            outcome: None,
            changes: vec![Change::default(); MAX_FRAMES * MAX_CHANGES_PER_FRAME].into_boxed_slice(),
            changes_len: 0,
            frames: vec![
                Frame {
                    changes_start: 0,
                    counts: [[0; Pattern4::COUNT]; 2]
                };
                MAX_FRAMES
            ]
            .into_boxed_slice(),
            frames_len: 0,
        };
        for y in 0..height {
            for x in 0..width {
                b.cells[Pos::new(x, y).idx()] = Cell::Empty;
            }
        }
        b.rebuild();
        Ok(b)
    }

    /// An independent copy (for a second thread or a referee), built from the moves.
    #[must_use]
    pub fn duplicate(&self) -> Board {
        let mut b = Board::new(self.width, self.height, self.rule).expect("size was valid");
        for p in self.all_squares() {
            if self.cells[p.idx()] == Cell::Wall {
                b.put_blocked(p);
            }
        }
        for &p in self.history() {
            b.make(p);
        }
        b.outcome = self.outcome;
        b
    }

    /// Board width (x range).
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }
    /// Board height (y range).
    #[must_use]
    pub fn height(&self) -> usize {
        self.height
    }
    /// The rule set.
    #[must_use]
    pub fn rule(&self) -> Rule {
        self.rule
    }
    /// Who plays next.
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    /// Stones on the board (blocked squares not counted).
    #[must_use]
    pub fn move_count(&self) -> usize {
        self.len
    }
    /// Moves in play order.
    #[must_use]
    pub fn history(&self) -> &[Pos] {
        &self.history[..self.len]
    }
    /// The last move, if any.
    #[must_use]
    pub fn last_move(&self) -> Option<Pos> {
        self.len.checked_sub(1).map(|i| self.history[i])
    }
    /// Zobrist key of the position, side to move included.
    #[must_use]
    pub fn key(&self) -> u64 {
        self.key
    }
    /// Empty squares left.
    #[must_use]
    pub fn empty_count(&self) -> usize {
        self.width * self.height - self.len - self.blocked
    }
    /// The game-over state, if the game has ended through [`Board::play`].
    #[must_use]
    pub fn outcome(&self) -> Option<MoveOutcome> {
        self.outcome
    }

    /// The square (x, y) if it lies on this board.
    #[must_use]
    pub fn pos(&self, x: i64, y: i64) -> Option<Pos> {
        if (0..self.width as i64).contains(&x) && (0..self.height as i64).contains(&y) {
            Some(Pos::new(x as usize, y as usize))
        } else {
            None
        }
    }

    /// True if `p` is a square of this board (empty, stone or blocked).
    #[must_use]
    pub fn in_board(&self, p: Pos) -> bool {
        p.idx() < NUM_CELLS && p.x() < self.width && p.y() < self.height
    }

    /// Content of a cell (`Wall` for off-board and blocked squares).
    #[inline]
    #[must_use]
    pub fn cell(&self, p: Pos) -> Cell {
        self.cells[p.idx()]
    }

    /// True if `p` is an empty square of the board.
    #[inline]
    #[must_use]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.cells[p.idx()] == Cell::Empty
    }

    /// Every square of the board, row by row.
    pub fn all_squares(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
    }

    /// The directional pattern `c` would make at the empty square `p` along `d`.
    #[inline]
    #[must_use]
    pub fn pattern(&self, p: Pos, c: Color, d: Dir) -> Pattern {
        let byte = (self.pats[p.idx()] >> (8 * d as u32)) as u8;
        Pattern::from_u8(if c == Color::Black { byte } else { byte >> 4 })
    }

    /// The combined class of the empty square `p` for `c` (`None` if not empty).
    #[inline]
    #[must_use]
    pub fn pattern4(&self, p: Pos, c: Color) -> Pattern4 {
        self.p4[p.idx()][c.idx()]
    }

    /// How many empty squares have class `p4` for `c`.
    #[inline]
    #[must_use]
    pub fn count(&self, c: Color, p4: Pattern4) -> u32 {
        self.counts[c.idx()][p4 as usize]
    }

    /// Per-class counts of `c`, indexed by `Pattern4 as usize`.
    #[inline]
    #[must_use]
    pub fn counts(&self, c: Color) -> &[u32; Pattern4::COUNT] {
        &self.counts[c.idx()]
    }

    /// True if some stone lies in the candidate stencil of `p`.
    #[inline]
    #[must_use]
    pub fn is_near(&self, p: Pos) -> bool {
        self.near[p.idx()] > 0
    }

    // ----- moves -----

    /// Play `p` for the side to move, checking it.
    ///
    /// # Errors
    /// Off board, occupied, blocked or game over; the board is then unchanged.
    pub fn play(&mut self, p: Pos) -> Result<MoveOutcome, PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        self.check_square(p)?;
        let mover = self.side;
        let outcome = if self.pattern4(p, mover) == Pattern4::Five {
            MoveOutcome::Win
        } else if mover == Color::Black && self.is_forbidden(p) {
            MoveOutcome::Foul
        } else if self.empty_count() == 1 {
            MoveOutcome::Draw
        } else {
            MoveOutcome::Continue
        };
        self.make(p);
        if outcome != MoveOutcome::Continue {
            self.outcome = Some(outcome);
        }
        Ok(outcome)
    }

    /// Check that `p` is an empty square of this board.
    ///
    /// # Errors
    /// Off board, occupied or blocked.
    pub fn check_square(&self, p: Pos) -> Result<(), PlayError> {
        if !self.in_board(p) {
            return Err(PlayError::OffBoard);
        }
        match self.cells[p.idx()] {
            Cell::Empty => Ok(()),
            Cell::Wall => Err(PlayError::Blocked),
            _ => Err(PlayError::Occupied),
        }
    }

    /// Take back the last move (and any game-over state). `None` if no move was played.
    pub fn undo(&mut self) -> Option<Pos> {
        let last = self.last_move()?;
        self.unmake();
        self.outcome = None;
        Some(last)
    }

    /// Mark an empty square as blocked (field 3 of BOARD in continuous games). Blocked
    /// squares are not moves and are not taken back by [`Board::undo`].
    ///
    /// # Errors
    /// Off board, occupied or already blocked.
    pub fn set_blocked(&mut self, p: Pos) -> Result<(), PlayError> {
        self.check_square(p)?;
        // The undo stack records states relative to the squares present when each stone
        // went down, so take the moves back, block the square, and replay them.
        let moves: Vec<Pos> = self.history().to_vec();
        for _ in 0..moves.len() {
            self.unmake();
        }
        self.put_blocked(p);
        for m in moves {
            self.make(m);
        }
        Ok(())
    }

    /// Block a square on a board without moves (no undo record).
    fn put_blocked(&mut self, p: Pos) {
        debug_assert_eq!(self.frames_len, 0);
        self.cells[p.idx()] = Cell::Wall;
        self.key ^= ZOBRIST.cell[2][p.idx()];
        self.blocked += 1;
        self.rebuild();
    }

    /// Play `p` for the side to move without any check (search hot path). `p` must be
    /// an empty square of the board.
    #[inline]
    pub fn make(&mut self, p: Pos) {
        debug_assert!(self.is_empty(p) && self.in_board(p), "make on {p:?}");
        let c = self.side;
        self.put(p, Cell::stone(c));
        self.key ^= ZOBRIST.cell[c.idx()][p.idx()] ^ ZOBRIST.side;
        self.add_near(p, 1);
        self.history[self.len] = p;
        self.len += 1;
        self.side = c.opp();
    }

    /// Take back the last [`Board::make`] without any check (there must be one).
    #[inline]
    pub fn unmake(&mut self) {
        debug_assert!(self.len > 0);
        self.len -= 1;
        let p = self.history[self.len];
        let c = self.side.opp();
        self.side = c;
        self.key ^= ZOBRIST.cell[c.idx()][p.idx()] ^ ZOBRIST.side;
        self.add_near(p, -1);
        self.remove(p);
    }

    /// Place a stone on the empty cell `p`, update the patterns around it and push an
    /// undo frame. Does not touch history, side or key.
    #[inline]
    fn put(&mut self, p: Pos, v: Cell) {
        let i = p.idx();
        debug_assert!(self.frames_len < MAX_FRAMES);
        self.frames[self.frames_len] = Frame {
            changes_start: self.changes_len as u32,
            counts: self.counts,
        };
        self.frames_len += 1;
        self.record(i);
        for c in 0..2 {
            self.counts[c][self.p4[i][c] as usize] -= 1;
        }
        self.p4[i] = [Pattern4::None; 2];
        self.cells[i] = v;
        let base = i as i32;
        let code = v as u32;
        for d in 0..4 {
            let off = Dir::ALL[d].offset();
            for k in 1..=HALF {
                // The cell k steps forward sees p at offset -k; k steps back, at +k.
                for (q, rel) in [(base + off * k, -k), (base - off * k, k)] {
                    let q = q as usize & (NUM_CELLS - 1);
                    let key = self.keys[d][q] ^ (code << key_shift(rel));
                    self.keys[d][q] = key;
                    if self.cells[q] == Cell::Empty {
                        let byte = u32::from(self.tables.line[key as usize & (KEY_COUNT - 1)]);
                        let old = self.pats[q];
                        let new = (old & !(0xFF << (8 * d))) | (byte << (8 * d));
                        if new != old {
                            self.record(q);
                            self.pats[q] = new;
                            self.refresh_p4(q);
                        }
                    }
                }
            }
        }
    }

    /// Save the state of cell `i` in the current frame.
    #[inline]
    fn record(&mut self, i: usize) {
        debug_assert!(self.changes_len < self.changes.len());
        self.changes[self.changes_len] = Change {
            cell: i as u16,
            p4: self.p4[i],
            pats: self.pats[i],
        };
        self.changes_len += 1;
    }

    /// Take away the stone of the last frame (at `p`) and restore everything it changed.
    #[inline]
    fn remove(&mut self, p: Pos) {
        let i = p.idx();
        let code = self.cells[i] as u32;
        self.cells[i] = Cell::Empty;
        let base = i as i32;
        for d in 0..4 {
            let off = Dir::ALL[d].offset();
            for k in 1..=HALF {
                for (q, rel) in [(base + off * k, -k), (base - off * k, k)] {
                    let q = q as usize & (NUM_CELLS - 1);
                    self.keys[d][q] ^= code << key_shift(rel);
                }
            }
        }
        self.frames_len -= 1;
        let frame = self.frames[self.frames_len];
        let start = frame.changes_start as usize;
        for j in (start..self.changes_len).rev() {
            let ch = self.changes[j];
            let c = ch.cell as usize & (NUM_CELLS - 1);
            self.pats[c] = ch.pats;
            self.p4[c] = ch.p4;
        }
        self.changes_len = start;
        self.counts = frame.counts;
    }

    /// Recompute the combined classes of the empty cell `i` from its patterns.
    #[inline]
    fn refresh_p4(&mut self, i: usize) {
        let w = self.pats[i];
        let black = (w & 0xF) | ((w >> 4) & 0xF0) | ((w >> 8) & 0xF00) | ((w >> 12) & 0xF000);
        let w4 = w >> 4;
        let white = (w4 & 0xF) | ((w4 >> 4) & 0xF0) | ((w4 >> 8) & 0xF00) | ((w4 >> 12) & 0xF000);
        let new = [
            Pattern4::from_u8(self.tables.combo[0][black as usize & 0xFFFF]),
            Pattern4::from_u8(self.tables.combo[1][white as usize & 0xFFFF]),
        ];
        for c in 0..2 {
            let old = self.p4[i][c];
            if old != new[c] {
                self.counts[c][old as usize] -= 1;
                self.counts[c][new[c] as usize] += 1;
            }
        }
        self.p4[i] = new;
    }

    /// Put a stone of `c` on the empty square `p` without touching history, side to
    /// move or key: for look-ahead inside rule checks. Undo with [`Board::lift`].
    pub(crate) fn place(&mut self, p: Pos, c: Color) {
        self.put(p, Cell::stone(c));
    }

    /// Take away a stone put by [`Board::place`].
    pub(crate) fn lift(&mut self, p: Pos) {
        self.remove(p);
    }

    #[inline]
    fn add_near(&mut self, p: Pos, delta: i8) {
        let base = p.idx() as i32;
        for &(dx, dy) in &NEAR {
            // In range for on-board p: the stencil reaches 3 < PAD cells out.
            let q = (base + dy * STRIDE as i32 + dx) as usize & (NUM_CELLS - 1);
            self.near[q] = self.near[q].wrapping_add_signed(delta);
        }
    }

    // ----- rules -----

    /// Renju only: is `p` a forbidden point for black (exact recursive RIF check)?
    /// False for every other rule, for non-empty squares and for any exact five.
    pub fn is_forbidden(&mut self, p: Pos) -> bool {
        crate::rules::is_forbidden(self, p)
    }

    /// Every forbidden point for black on the board (renju; empty otherwise).
    pub fn forbidden_points(&mut self) -> Vec<Pos> {
        if self.rule != Rule::Renju {
            return Vec::new();
        }
        let squares: Vec<Pos> = self
            .all_squares()
            .filter(|&p| self.pattern4(p, Color::Black) == Pattern4::Forbid)
            .collect();
        squares
            .into_iter()
            .filter(|&p| self.is_forbidden(p))
            .collect()
    }

    /// True if the side to move may play `p`: an empty square of the board that is not
    /// a forbidden point for renju black.
    pub fn is_legal(&mut self, p: Pos) -> bool {
        self.check_square(p).is_ok() && !(self.side == Color::Black && self.is_forbidden(p))
    }

    /// A square where `c` makes five now, if any (lowest index first).
    #[must_use]
    pub fn winning_move(&self, c: Color) -> Option<Pos> {
        if self.count(c, Pattern4::Five) == 0 {
            return None;
        }
        self.all_squares()
            .find(|&p| self.pattern4(p, c) == Pattern4::Five)
    }

    /// Empty squares near stones, in index order; the centre on an empty board.
    pub fn candidates(&self, out: &mut Vec<Pos>) {
        out.clear();
        if self.len == 0 {
            let centre = Pos::new(self.width / 2, self.height / 2);
            if self.is_empty(centre) {
                out.push(centre);
                return;
            }
            out.extend(self.all_squares().filter(|&p| self.is_empty(p)));
            return;
        }
        out.extend(
            self.all_squares()
                .filter(|&p| self.is_empty(p) && self.is_near(p)),
        );
    }

    // ----- consistency -----

    /// Recompute every incremental structure from the cells and the history.
    fn rebuild(&mut self) {
        self.counts = [[0; Pattern4::COUNT]; 2];
        self.near = [0; NUM_CELLS];
        self.key = 0;
        for i in 0..NUM_CELLS {
            let p = Pos(i as u16);
            // Keys of wall cells are never read; only on-board squares need them.
            if self.in_board(p) {
                for d in 0..4 {
                    self.keys[d][i] = self.window_key(p, Dir::ALL[d]);
                }
            }
            match self.cells[i] {
                Cell::Black => self.key ^= ZOBRIST.cell[0][i],
                Cell::White => self.key ^= ZOBRIST.cell[1][i],
                Cell::Wall if self.in_board(p) => self.key ^= ZOBRIST.cell[2][i],
                _ => {}
            }
        }
        if self.side == Color::White {
            self.key ^= ZOBRIST.side;
        }
        for i in 0..NUM_CELLS {
            self.p4[i] = [Pattern4::None; 2];
            self.pats[i] = 0;
            if self.cells[i] == Cell::Empty {
                let mut packed = 0u32;
                for d in 0..4 {
                    packed |= u32::from(self.tables.line[self.keys[d][i] as usize]) << (8 * d);
                }
                self.pats[i] = packed;
                self.counts[0][0] += 1;
                self.counts[1][0] += 1;
                self.refresh_p4(i);
            }
        }
        for j in 0..self.len {
            let p = self.history[j];
            self.add_near(p, 1);
        }
    }

    /// The line key of the cells around `p` along `d`, read from the cells.
    fn window_key(&self, p: Pos, d: Dir) -> u32 {
        let mut key = 0;
        for k in -HALF..=HALF {
            if k != 0 {
                let q = p.idx() as i32 + d.offset() * k;
                let v = if (0..NUM_CELLS as i32).contains(&q) {
                    self.cells[q as usize] as u32
                } else {
                    Cell::Wall as u32
                };
                key |= v << key_shift(k);
            }
        }
        key
    }

    /// Rebuild a fresh board from the same cells and history and panic if any
    /// incremental structure differs. For tests and debugging.
    pub fn assert_consistent(&self) {
        let mut fresh = Board {
            width: self.width,
            height: self.height,
            rule: self.rule,
            tables: self.tables,
            cells: self.cells,
            keys: [[0; NUM_CELLS]; 4],
            pats: [0; NUM_CELLS],
            p4: [[Pattern4::None; 2]; NUM_CELLS],
            counts: [[0; Pattern4::COUNT]; 2],
            near: [0; NUM_CELLS],
            key: 0,
            side: self.side,
            history: self.history.clone(),
            len: self.len,
            blocked: self.blocked,
            outcome: None,
            changes: Vec::new().into_boxed_slice(),
            changes_len: 0,
            frames: Vec::new().into_boxed_slice(),
            frames_len: 0,
        };
        fresh.rebuild();
        let mut stones = [0usize; 2];
        for p in self.history() {
            match self.cells[p.idx()] {
                Cell::Black => stones[0] += 1,
                Cell::White => stones[1] += 1,
                other => panic!("history square {p:?} holds {other:?}"),
            }
        }
        assert_eq!(stones[0], self.len.div_ceil(2), "black stone count");
        assert_eq!(stones[1], self.len / 2, "white stone count");
        assert_eq!(self.key, fresh.key, "zobrist key");
        for i in 0..NUM_CELLS {
            let on_board = self.in_board(Pos(i as u16));
            if on_board {
                for d in 0..4 {
                    assert_eq!(self.keys[d][i], fresh.keys[d][i], "line key {i} dir {d}");
                }
            }
            if self.cells[i] == Cell::Empty {
                assert_eq!(
                    self.pats[i],
                    fresh.pats[i],
                    "patterns of {:?}",
                    Pos(i as u16)
                );
            }
            assert_eq!(self.p4[i], fresh.p4[i], "class of {:?}", Pos(i as u16));
            if on_board {
                assert_eq!(
                    self.near[i],
                    fresh.near[i],
                    "near count of {:?}",
                    Pos(i as u16)
                );
            }
        }
        assert_eq!(self.counts, fresh.counts, "class counts");
    }
}

impl fmt::Display for Board {
    /// A text diagram: `X` black, `O` white, `#` blocked, `.` empty; row 0 on top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..self.height {
            for x in 0..self.width {
                let ch = match self.cell(Pos::new(x, y)) {
                    Cell::Empty => '.',
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    Cell::Wall => '#',
                };
                write!(f, "{ch}")?;
                if x + 1 < self.width {
                    write!(f, " ")?;
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
