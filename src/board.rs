//! The incremental board: walled cells, per-cell line keys, directional patterns,
//! combined pattern classes with per-side counts, Zobrist key and candidate cells,
//! all updated by make/unmake without allocation.
//!
//! Every incremental structure can be rebuilt from the cells alone
//! ([`Board::assert_consistent`] does that and compares).

use crate::pattern::{key_shift, Pattern, Pattern4, RuleTables, HALF};
use crate::types::{Cell, Color, Dir, Pos, Rule, MAX_SIZE, MIN_SIZE, NUM_CELLS, STRIDE};
use std::fmt;

/// Most moves a game can hold (every square of the largest board).
pub const MAX_MOVES: usize = MAX_SIZE * MAX_SIZE;

/// Most frames (moves plus temporary look-ahead stones of rule checks) on the undo stack.
const MAX_FRAMES: usize = MAX_MOVES + 64;
/// Most cells one stone can change: 4 lines × 10 neighbours, plus the cell itself.
const MAX_CHANGES_PER_FRAME: usize = 4 * 10 + 1;

/// One empty cell's state before a stone changed it, for unmake: its line key along the
/// one direction in which the stone lies (`dir`), its patterns and classes.
#[derive(Clone, Copy, Default)]
struct Change {
    key: u32,
    pats: u32,
    cell: u16,
    p4: [Pattern4; 2],
    dir: u8,
}

/// Everything the board keeps about one cell. One record per cell (rather than one array
/// per field) so that a move touches one cache line per neighbour, and so that stores to
/// one field never sit exactly 4 KiB from loads of another (which stalled the loads).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Slot {
    /// Per direction: the 20-bit key of the 10 cells around this one on that line.
    keys: [u32; 4],
    /// Packed directional patterns: black's along direction d in bits 4d..4d+4, white's
    /// in bits 16+4d..20+4d, so each colour's half is directly the index of its
    /// combination table. Meaningful only for empty cells.
    pats: u32,
    /// Combined class for [black, white]; `None` for non-empty cells.
    p4: [Pattern4; 2],
    /// Content.
    cell: Cell,
}

impl Slot {
    /// An off-board cell with nothing computed yet.
    const WALL: Slot = Slot {
        keys: [0; 4],
        pats: 0,
        p4: [Pattern4::None; 2],
        cell: Cell::Wall,
    };
}

/// A boxed array of wall slots, built on the heap.
fn wall_slots() -> Box<[Slot; NUM_CELLS]> {
    vec![Slot::WALL; NUM_CELLS]
        .into_boxed_slice()
        .try_into()
        .expect("NUM_CELLS slots")
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

/// The stencil as 7 rows (dy = -3..=3) of byte masks over dx = -3..=3 (byte dx + 3),
/// so that a move updates the near counts with 7 eight-byte additions.
const fn near_rows() -> [u64; 7] {
    let mut rows = [0u64; 7];
    let mut n = 0;
    while n < NEAR.len() {
        let (dx, dy) = NEAR[n];
        rows[(dy + 3) as usize] |= 1 << (8 * (dx + 3));
        n += 1;
    }
    rows
}

const NEAR_ROWS: [u64; 7] = near_rows();

/// Length of the near-count array: every cell, plus room for an 8-byte access at the
/// last index.
const NEAR_LEN: usize = NUM_CELLS + 8;

/// The bits of a line key that hold the two cells 5 steps away.
const FAR_BITS: u32 = 3 << key_shift(-HALF) | 3 << key_shift(HALF);

/// The parts of the board one stone's pattern update writes, borrowed apart so that the
/// compiler keeps the pointers in registers (through `&mut self` it reloaded them after
/// every store).
struct Update<'a> {
    s: &'a mut [Slot; NUM_CELLS],
    tables: &'a RuleTables,
    /// This frame's part of the undo stack.
    changes: &'a mut [Change],
    n: usize,
    counts: &'a mut [[u32; Pattern4::COUNT]; 2],
}

impl Update<'_> {
    /// Save the state of cell `q` in the current frame.
    #[inline(always)]
    fn record<const D: usize>(&mut self, q: usize) {
        let slot = &self.s[q];
        let ch = Change {
            key: slot.keys[D],
            pats: slot.pats,
            cell: q as u16,
            p4: slot.p4,
            dir: D as u8,
        };
        if let Some(c) = self.changes.get_mut(self.n) {
            *c = ch;
        }
        self.n += 1;
    }

    /// The update of the line through `i` along direction `D`: the 10 cells around `i`
    /// (unrolled by hand so that every offset and shift is a constant).
    #[inline(always)]
    fn dir<const D: usize, const FAR: bool>(&mut self, i: usize, code: u32) {
        let off = Dir::ALL[D].offset() as usize;
        macro_rules! at {
            ($($k:literal)*) => {$(
                // The cell k steps forward sees i at offset -k; k steps back, at +k.
                self.cell::<D>(i.wrapping_add(off * $k), code << key_shift(-$k));
                self.cell::<D>(i.wrapping_sub(off * $k), code << key_shift($k));
            )*};
        }
        at!(1 2 3 4);
        if FAR {
            at!(5);
        }
    }

    /// If `q` is empty: add `bits` to its line key along `D`, refresh its pattern along
    /// `D` and, when that changed, its combined classes and the counts.
    #[inline(always)]
    fn cell<const D: usize>(&mut self, q: usize, bits: u32) {
        let q = q & (NUM_CELLS - 1);
        if self.s[q].cell != Cell::Empty {
            return;
        }
        // Every empty neighbour is recorded (its key changes), so unmake only restores.
        self.record::<D>(q);
        let key = self.s[q].keys[D] ^ bits;
        self.s[q].keys[D] = key;
        let spread = self.tables.line(key) << (4 * D);
        let old = self.s[q].pats;
        let new = (old & !(0x000F_000F << (4 * D))) | spread;
        let diff = old ^ new;
        if diff == 0 {
            return;
        }
        self.s[q].pats = new;
        if diff & 0xFFFF != 0 {
            self.refresh::<0>(q, new);
        }
        if diff >> 16 != 0 {
            self.refresh::<1>(q, new);
        }
    }

    /// Recompute the combined class of colour `C` at the empty cell `q` from its packed
    /// patterns `pats`, moving it between the counts.
    #[inline(always)]
    fn refresh<const C: usize>(&mut self, q: usize, pats: u32) {
        let new = self.tables.combo(C, pats >> (16 * C));
        let old = self.s[q].p4[C];
        self.counts[C][old as usize] -= 1;
        self.counts[C][new as usize] += 1;
        self.s[q].p4[C] = new;
    }
}

/// The game position with all incremental pattern state. Not `Clone`: copying it is
/// expensive, and the search works by make/unmake; use [`Board::duplicate`] when a
/// second board is really needed.
pub struct Board {
    width: usize,
    height: usize,
    rule: Rule,
    tables: &'static RuleTables,
    /// Whether patterns depend on cells 5 steps away (every rule but freestyle); if not,
    /// moves leave those cells' keys alone, and the 5-away bits of keys are stale.
    far: bool,
    /// Per cell of the padded layout: content, line keys, patterns, classes.
    s: Box<[Slot; NUM_CELLS]>,
    /// Per colour: how many empty cells have each class.
    counts: [[u32; Pattern4::COUNT]; 2],
    /// Per cell: how many stones lie in its candidate stencil (kept apart from the
    /// slots, one byte per cell, so that a move updates a row of them at once).
    near: Box<[u8; NEAR_LEN]>,
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
            far: rule != Rule::Freestyle,
            s: wall_slots(),
            counts: [[0; Pattern4::COUNT]; 2],
            near: vec![0; NEAR_LEN].try_into().expect("size"),
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
                b.s[Pos::new(x, y).idx()].cell = Cell::Empty;
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
            if self.s[p.idx()].cell == Cell::Wall {
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
        self.s[p.idx()].cell
    }

    /// True if `p` is an empty square of the board.
    #[inline]
    #[must_use]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.s[p.idx()].cell == Cell::Empty
    }

    /// Every square of the board, row by row.
    pub fn all_squares(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
    }

    /// The directional pattern `c` would make at the empty square `p` along `d`.
    #[inline]
    #[must_use]
    pub fn pattern(&self, p: Pos, c: Color, d: Dir) -> Pattern {
        let shift = 16 * c.idx() as u32 + 4 * d as u32;
        Pattern::from_u8((self.s[p.idx()].pats >> shift) as u8)
    }

    /// The combined class of the empty square `p` for `c` (`None` if not empty).
    #[inline]
    #[must_use]
    pub fn pattern4(&self, p: Pos, c: Color) -> Pattern4 {
        self.s[p.idx()].p4[c.idx()]
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
        match self.s[p.idx()].cell {
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
        self.s[p.idx()].cell = Cell::Wall;
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
        self.add_near(p, true);
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
        self.add_near(p, false);
        self.remove(p);
    }

    /// Place a stone on the empty cell `p`, update the patterns around it and push an
    /// undo frame. Does not touch history, side or key.
    ///
    /// Line keys are kept for empty cells only: a stone's own keys stay as they were when
    /// it was placed, which is right again when it is taken back, because moves are taken
    /// back in reverse order (every later stone, whose key updates it skipped, is gone).
    #[inline]
    fn put(&mut self, p: Pos, v: Cell) {
        let i = p.idx();
        debug_assert!(self.frames_len < MAX_FRAMES);
        self.frames[self.frames_len] = Frame {
            changes_start: self.changes_len as u32,
            counts: self.counts,
        };
        self.frames_len += 1;
        let start = self.changes_len;
        let mut up = Update {
            s: &mut self.s,
            tables: self.tables,
            changes: &mut self.changes[start..start + MAX_CHANGES_PER_FRAME],
            n: 0,
            counts: &mut self.counts,
        };
        up.record::<0>(i);
        let slot = &mut up.s[i];
        let old = slot.p4;
        slot.p4 = [Pattern4::None; 2];
        slot.cell = v;
        up.counts[0][old[0] as usize] -= 1;
        up.counts[1][old[1] as usize] -= 1;
        let code = v as u32;
        if self.far {
            up.dir::<0, true>(i, code);
            up.dir::<1, true>(i, code);
            up.dir::<2, true>(i, code);
            up.dir::<3, true>(i, code);
        } else {
            up.dir::<0, false>(i, code);
            up.dir::<1, false>(i, code);
            up.dir::<2, false>(i, code);
            up.dir::<3, false>(i, code);
        }
        self.changes_len = start + up.n;
    }

    /// Take away the stone of the last frame (at `p`) and restore everything it changed.
    #[inline]
    fn remove(&mut self, p: Pos) {
        let s = &mut *self.s;
        s[p.idx()].cell = Cell::Empty;
        self.frames_len -= 1;
        let frame = &self.frames[self.frames_len];
        let start = frame.changes_start as usize;
        // Each cell is recorded at most once per stone, so the order does not matter.
        for ch in &self.changes[start..self.changes_len] {
            let slot = &mut s[ch.cell as usize & (NUM_CELLS - 1)];
            slot.keys[ch.dir as usize & 3] = ch.key;
            slot.pats = ch.pats;
            slot.p4 = ch.p4;
        }
        self.changes_len = start;
        self.counts = frame.counts;
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

    /// Add (`add`) or take away the stone on `p` from the near counts of its stencil.
    /// Each byte changes by at most one and stays in 0..=32, so the eight-byte additions
    /// never carry or borrow between cells.
    #[inline]
    fn add_near(&mut self, p: Pos, add: bool) {
        // In range for on-board p: the stencil reaches 3 < PAD cells out.
        let first = p.idx().wrapping_sub(3 * STRIDE + 3);
        for (r, &mask) in NEAR_ROWS.iter().enumerate() {
            let o = first.wrapping_add(r * STRIDE) & (NUM_CELLS - 1);
            let bytes: &mut [u8; 8] = (&mut self.near[o..o + 8]).try_into().expect("8");
            let v = u64::from_le_bytes(*bytes);
            let v = if add {
                v.wrapping_add(mask)
            } else {
                v.wrapping_sub(mask)
            };
            *bytes = v.to_le_bytes();
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
        self.near.fill(0);
        self.key = 0;
        for i in 0..NUM_CELLS {
            let p = Pos(i as u16);
            // Keys of wall cells are never read; only on-board squares need them.
            if self.in_board(p) {
                for d in 0..4 {
                    self.s[i].keys[d] = self.window_key(p, Dir::ALL[d]);
                }
            }
            match self.s[i].cell {
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
            self.s[i].p4 = [Pattern4::None; 2];
            self.s[i].pats = 0;
            if self.s[i].cell == Cell::Empty {
                let mut packed = 0u32;
                for d in 0..4 {
                    packed |= self.tables.line(self.s[i].keys[d]) << (4 * d);
                }
                self.s[i].pats = packed;
                self.counts[0][0] += 1;
                self.counts[1][0] += 1;
                for c in 0..2 {
                    let p4 = self.tables.combo(c, packed >> (16 * c));
                    self.counts[c][0] -= 1;
                    self.counts[c][p4 as usize] += 1;
                    self.s[i].p4[c] = p4;
                }
            }
        }
        // The stencil offsets one by one (the reference for the row masks of `add_near`).
        for j in 0..self.len {
            let base = self.history[j].idx() as i32;
            for &(dx, dy) in &NEAR {
                let q = (base + dy * STRIDE as i32 + dx) as usize & (NUM_CELLS - 1);
                self.near[q] += 1;
            }
        }
    }

    /// The line key of the cells around `p` along `d`, read from the cells.
    fn window_key(&self, p: Pos, d: Dir) -> u32 {
        let mut key = 0;
        for k in -HALF..=HALF {
            if k != 0 {
                let q = p.idx() as i32 + d.offset() * k;
                let v = if (0..NUM_CELLS as i32).contains(&q) {
                    self.s[q as usize].cell as u32
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
            far: self.far,
            s: wall_slots(),
            counts: [[0; Pattern4::COUNT]; 2],
            near: vec![0; NEAR_LEN].try_into().expect("size"),
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
        for i in 0..NUM_CELLS {
            fresh.s[i].cell = self.s[i].cell;
        }
        fresh.rebuild();
        let mut stones = [0usize; 2];
        for p in self.history() {
            match self.s[p.idx()].cell {
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
            if self.s[i].cell == Cell::Empty {
                // Keys of stones are frozen while they stand (see `put`); without `far`,
                // the bits of the cells 5 steps away are not kept.
                let mask = if self.far { !0 } else { !FAR_BITS };
                for d in 0..4 {
                    assert_eq!(
                        self.s[i].keys[d] & mask,
                        fresh.s[i].keys[d] & mask,
                        "line key {i} dir {d}"
                    );
                }
                assert_eq!(
                    self.s[i].pats,
                    fresh.s[i].pats,
                    "patterns of {:?}",
                    Pos(i as u16)
                );
            }
            assert_eq!(self.s[i].p4, fresh.s[i].p4, "class of {:?}", Pos(i as u16));
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
