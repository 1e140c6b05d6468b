//! The incremental board: walled cells, line words (2 bits per cell, one word per line
//! of each direction), per-cell combination codes, combined pattern classes with
//! per-side counts, Zobrist key and candidate cells, all updated by make/unmake without
//! allocation.
//!
//! Every incremental structure can be rebuilt from the cells alone
//! ([`Board::assert_consistent`] does that and compares).

use crate::pattern::{
    key_shift, spread, HotTables, Pattern, Pattern4, RuleTables, DIR_SHIFT, FIELD_BITS,
    FIELD_SHIFT, FIELD_SIZE, HALF,
};
use crate::types::{Cell, Color, Dir, Pos, Rule, MAX_SIZE, MIN_SIZE, NUM_CELLS, PAD, STRIDE};
use std::fmt;

mod renju;
mod vectors;

pub use vectors::CellVectors;
use vectors::VectorStack;

/// Most moves a game can hold (every square of the largest board).
pub const MAX_MOVES: usize = MAX_SIZE * MAX_SIZE;

/// Most frames (moves plus temporary look-ahead stones of rule checks) on the undo stack.
const MAX_FRAMES: usize = MAX_MOVES + 64;
/// Cells one stone's update visits: 4 lines × 10 neighbours, plus the cell itself.
const STENCIL: usize = 4 * 10 + 1;

/// Where a frame saves the state of the cell `k` steps from the stone along direction
/// `d` (`k` = 0: the stone's own cell, under `d` = 0), with or without the cells 5 steps
/// away: first the row through the stone in board order (from `-h` to `h`, so that
/// unmake copies it back as one block), then per other direction the cells 1 forward,
/// 1 back, 2 forward, and so on.
const fn record(far: bool, d: usize, k: i32) -> usize {
    let h = if far { HALF } else { HALF - 1 };
    if d == 0 {
        (h + k) as usize
    } else {
        let base = (2 * h + 1 + (d as i32 - 1) * 2 * h) as usize;
        if k > 0 {
            base + 2 * k as usize - 2
        } else {
            base + 2 * (-k) as usize - 1
        }
    }
}
const _: () = assert!(record(true, 3, -HALF) == STENCIL - 1);

/// Bit position of the cell content in [`Slot::st`].
const ST_CELL: u32 = 32;
/// The combination codes of both colours in [`Slot::st`].
const ST_CODES: u64 = (FIELD_BITS as u64) << FIELD_SHIFT[0] | (FIELD_BITS as u64) << FIELD_SHIFT[1];
/// The codes of direction 0 of both colours in [`Slot::st`] (direction d: shifted by
/// [`DIR_SHIFT`]`[d]`).
const ST_DIR0: u64 = (spread(7) as u64) << FIELD_SHIFT[0] | (spread(7) as u64) << FIELD_SHIFT[1];
const _: () = assert!(ST_CODES >> ST_CELL == 0 && FIELD_SHIFT[1] == 16 && FIELD_SIZE == 1 << 16);
/// Bits 0 and 16 of [`Slot::st`] (bit 0 of each colour's field), never set.
const ST_ODD: u64 = 1 << FIELD_SHIFT[0] | 1 << FIELD_SHIFT[1];
// The codes of every direction (tables' codes of direction 0, shifted) keep them clear.
const _: () = assert!(ST_CODES & ST_ODD == 0 && (ST_DIR0 << 3) & ST_ODD == 0);

/// Everything the board keeps about one cell but its lines: 8 bytes, read and written
/// as one word (a move touches one word per neighbour).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(transparent)]
struct Slot {
    /// Packed state: black's class field (its combination codes
    /// [`crate::pattern::combo_code`], see [`FIELD_SIZE`]) in bits 0..16,
    /// white's in bits 16..32, kept for every empty cell of the board and zero for any
    /// other cell (class `None`); the [`Cell`] in bits 32..40. The fields index the
    /// colours' tables ([`HotTables::class`], and [`HotTables::onehot_b`] and
    /// [`HotTables::onehot_w`] straight from the packed state). The classes themselves
    /// are not stored: a move looks them up before and after changing the codes, which
    /// costs fewer operations than keeping them.
    ///
    /// No other bit is ever set. Bits 0 and 16 ([`ST_ODD`]) being clear is a safety
    /// invariant: the unchecked one-hot look-ups read an aligned entry only for even
    /// fields. Every write keeps it: a state is built from the cell bits, the [`ST_CODES`]
    /// of a state, and codes from [`HotTables::codes`] (or `codes_of_halves`,
    /// `codes_near`), which set only [`ST_DIR0`] bits, shifted by at most 3 (see
    /// [`DIR_SHIFT`]).
    st: u64,
}

impl Slot {
    /// An off-board cell with nothing computed yet.
    const WALL: Slot = Slot {
        st: (Cell::Wall as u64) << ST_CELL,
    };

    /// The content.
    #[inline(always)]
    fn cell(&self) -> Cell {
        match (self.st >> ST_CELL) & 3 {
            0 => Cell::Empty,
            1 => Cell::Black,
            2 => Cell::White,
            _ => Cell::Wall,
        }
    }

    /// Replace the content (the codes of a cell that is not empty are zero).
    #[inline(always)]
    fn set_cell(&mut self, v: Cell) {
        let codes = if v == Cell::Empty {
            self.st & ST_CODES
        } else {
            0
        };
        self.st = codes | (v as u64) << ST_CELL;
    }

    /// The class field (see [`HotTables::class`]) of colour index `c`.
    #[inline(always)]
    fn field(&self, c: usize) -> u32 {
        (self.st as u32 >> FIELD_SHIFT[c & 1]) & (FIELD_SIZE as u32 - 1)
    }
}

/// Entries of a [`CellValues`] table per colour: one per class field (the field's bits
/// 1..13, i.e. the field shifted right by one).
pub const CELL_VALUE_FIELDS: usize = 1 << 12;

/// Per colour, a value for each class field of a cell (indexed by the field shifted
/// right by one; entry 0, the field of every stone and of empty cells with nothing on
/// any line, must be 0). The board keeps each colour's sum of the values of its
/// fields over the empty cells incrementally ([`Board::value_sum`]); what the values
/// mean is the evaluation's business (it packs two numbers in each).
#[repr(C, align(64))]
pub struct CellValues(pub [[i64; CELL_VALUE_FIELDS]; 2]);

/// The values of a board that has no table set: all zero.
static ZERO_VALUES: CellValues = CellValues([[0; CELL_VALUE_FIELDS]; 2]);

/// The [`CellValues`] index of colour index `c`'s field in a packed cell state.
#[inline(always)]
const fn value_index(st: u64, c: usize) -> usize {
    ((st >> (FIELD_SHIFT[c & 1] + 1)) as usize) & (CELL_VALUE_FIELDS - 1)
}

/// Line words: per direction, one word per line of the largest board (rows, columns,
/// 63 diagonals, 63 anti-diagonals), padded to 256 so that a byte indexes them.
const NUM_LINES: usize = 256;
/// Cells of wall before position 0 of a line word (and at least as many after the
/// last position): the window of a stone reaches 10 cells either way.
const LINE_PAD: u32 = 2 * HALF as u32;
/// A line word: 64 cells of 2 bits, low half first (stored as two halves so that
/// changing one cell reads and writes one 8-byte half).
type Line = [u64; 2];

/// Per cell of the padded layout: for each direction, the index of its line word and
/// twice its position on that line (the shift that brings the cell 10 positions back
/// to bit 0). Zero for off-board cells (never used).
static LINE_OF: [[u8; 8]; NUM_CELLS] = {
    let mut t = [[0u8; 8]; NUM_CELLS];
    let mut i = 0;
    while i < NUM_CELLS {
        let (x, y) = (
            (i % STRIDE).wrapping_sub(PAD),
            (i / STRIDE).wrapping_sub(PAD),
        );
        if x < MAX_SIZE && y < MAX_SIZE {
            let m = MAX_SIZE;
            t[i] = [
                y as u8,
                2 * x as u8,
                (m + x) as u8,
                2 * y as u8,
                (2 * m + (m - 1) + x - y) as u8,
                2 * y as u8,
                (2 * m + (2 * m - 1) + x + y) as u8,
                2 * y as u8,
            ];
        }
        i += 1;
    }
    t
};
const _: () = assert!(2 * MAX_SIZE + 2 * (2 * MAX_SIZE - 1) <= NUM_LINES);
const _: () = assert!(2 * (MAX_SIZE as u32 + 2 * LINE_PAD) <= 128);

/// The window of line word `line` around the cell at shift `s` (from [`LINE_OF`]): the
/// cells 10 positions back to 21 forward, 2 bits each, the cell itself at bits 20..22.
#[inline(always)]
fn line_window(line: Line, s: u32) -> u64 {
    // The shift is below 64, so this is one double-word shift.
    ((u128::from(line[1]) << 64 | u128::from(line[0])) >> (s & 63)) as u64
}

/// Per cell of the padded layout and direction, where a move finds the line around the
/// cell in the line words ([`LineWords`]) as one unaligned 8-byte word: its byte offset
/// (the line's first byte plus the cell's shift from [`LINE_OF`] over 8) and the rest of
/// the shift (0, 2, 4 or 6). The word at that offset shifted right by the rest holds the
/// cells 10 positions back to at least 18 forward, the cell itself at bits 20..22, the
/// same as [`line_window`] in those bits; the cell's bits are at the rest plus 20 in the
/// word. Also the line's first byte (`base`), so that a move needs no mask to find it.
/// Zero for off-board cells (never used).
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct LineAt {
    off: [u16; 4],
    base: [u16; 4],
    rest: [u8; 4],
}

static LINE_AT: [LineAt; NUM_CELLS] = {
    let mut t = [LineAt {
        off: [0; 4],
        base: [0; 4],
        rest: [0; 4],
    }; NUM_CELLS];
    let mut i = 0;
    while i < NUM_CELLS {
        let mut d = 0;
        while d < 4 {
            let (l, s) = (LINE_OF[i][2 * d] as usize, LINE_OF[i][2 * d + 1] as usize);
            t[i].off[d] = (16 * l + s / 8) as u16;
            t[i].base[d] = (16 * l) as u16;
            t[i].rest[d] = (s % 8) as u8;
            // The word and the line lie inside the line words (see `LineWords::word`).
            assert!(t[i].off[d] < 4096 && t[i].base[d] == t[i].off[d] & !15);
            d += 1;
        }
        i += 1;
    }
    t
};
// The 8 bytes at any offset lie inside the line's 16 (the shift is below 64), and a
// masked offset indexes the bytes.
const _: () = assert!(2 * (MAX_SIZE - 1) / 8 + 8 <= 16 && NUM_LINES * 16 == 4096);

/// The line words as bytes, each line's 16 bytes at 16 times its index in little-endian
/// order (the 128-bit line word: bit b in byte b / 8), so that a move reads and writes
/// the 8 bytes around a cell as one unaligned word ([`LineAt`]).
#[derive(Clone)]
#[repr(C, align(64))]
struct LineWords([u8; LINE_BYTES]);

/// Bytes of [`LineWords`]: 16 per line, and 8 to spare so that an 8-byte word at any
/// offset below 4096 reads inside the array.
const LINE_BYTES: usize = NUM_LINES * 16 + 8;

impl LineWords {
    /// Every line all walls.
    const WALLS: LineWords = LineWords([u8::MAX; LINE_BYTES]);

    /// The line word `l`.
    #[inline(always)]
    fn line(&self, l: usize) -> Line {
        self.line_at(16 * (l & (NUM_LINES - 1)))
    }

    /// The line word whose first byte is at `base` (a multiple of 16 below 4096).
    #[inline(always)]
    fn line_at(&self, base: usize) -> Line {
        [self.word(base), self.word(base + 8)]
    }

    /// Replace the line word whose first byte is at `base` (a multiple of 16 below 4096).
    #[inline(always)]
    fn set_line_at(&mut self, base: usize, line: Line) {
        self.set_word(base, line[0]);
        self.set_word(base + 8, line[1]);
    }

    /// [`LineWords::line_at`] of a `base` from [`LINE_AT`], without the mask. (The
    /// masked accessors in these four places cost about 55 instructions per make+undo
    /// pair: benches/RESULTS.md.)
    #[inline(always)]
    fn line_at_unmasked(&self, base: u16) -> Line {
        let base = usize::from(base);
        debug_assert!(base < 4096);
        // SAFETY: every base in `LINE_AT` is below 4096 (asserted where it is built), so
        // its 16 bytes lie inside the `LINE_BYTES` bytes.
        unsafe { self.0.as_ptr().add(base).cast::<Line>().read_unaligned() }.map(u64::from_le)
    }

    /// [`LineWords::set_line_at`] of a `base` from [`LINE_AT`], without the mask.
    #[inline(always)]
    fn set_line_at_unmasked(&mut self, base: u16, line: Line) {
        let base = usize::from(base);
        debug_assert!(base < 4096);
        // SAFETY: as in `line_at_unmasked`.
        unsafe {
            self.0
                .as_mut_ptr()
                .add(base)
                .cast::<Line>()
                .write_unaligned(line.map(u64::to_le));
        }
    }

    /// [`LineWords::word`] of an offset from [`LINE_AT`], without the mask.
    #[inline(always)]
    fn word_unmasked(&self, o: u16) -> u64 {
        let o = usize::from(o);
        debug_assert!(o < 4096);
        // SAFETY: every offset in `LINE_AT` is below 4096 (asserted where it is built),
        // so the 8 bytes at it lie inside the `LINE_BYTES` = 4096 + 8 bytes.
        unsafe { self.0.as_ptr().add(o).cast::<u64>().read_unaligned() }.to_le()
    }

    /// [`LineWords::set_word`] of an offset from [`LINE_AT`], without the mask.
    #[inline(always)]
    fn set_word_unmasked(&mut self, o: u16, v: u64) {
        let o = usize::from(o);
        debug_assert!(o < 4096);
        // SAFETY: as in `word_unmasked`.
        unsafe {
            self.0
                .as_mut_ptr()
                .add(o)
                .cast::<u64>()
                .write_unaligned(v.to_le())
        }
    }

    /// The 8 bytes at offset `o` (below 4096) as a little-endian word.
    #[inline(always)]
    fn word(&self, o: usize) -> u64 {
        let o = o & 0xFFF;
        u64::from_le_bytes(self.0[o..o + 8].try_into().expect("8 bytes"))
    }

    /// Write the 8 bytes at offset `o` (below 4096).
    #[inline(always)]
    fn set_word(&mut self, o: usize, v: u64) {
        let o = o & 0xFFF;
        self.0[o..o + 8].copy_from_slice(&v.to_le_bytes());
    }
}

/// Bit of a line word where the cell at shift `s` sits.
#[inline(always)]
fn line_bit(s: u32) -> u32 {
    s + 2 * LINE_PAD
}

/// The half of `line` that holds the cell at shift `s`, and the cell's bit in it.
fn line_half(line: &mut Line, s: u32) -> (&mut u64, u32) {
    let b = line_bit(s);
    (&mut line[(b >> 6) as usize & 1], b & 63)
}

/// The left and right half lines of the cell `j` positions from the window's centre
/// (|j| <= 5), in the layout of a line key's low and high 10 bits; the left one is
/// followed by the cell itself (bits 10..12, see [`HotTables::codes_of_halves`]).
#[inline(always)]
const fn halves_at(w: u64, j: i32) -> (u64, u64) {
    (w >> (2 * (j + 5)), w >> (2 * (j + 11)))
}

/// The near key (see [`crate::pattern::NEAR_KEY_BITS`]) of the cell `j` positions from
/// the window's centre (|j| <= 4), in the low bits (higher bits are garbage).
#[inline(always)]
const fn near_at(w: u64, j: i32) -> u64 {
    w >> (2 * (j + 6))
}

/// The bit of [`Board::reach`] for the cell `k` steps (1 <= |k| <= 5) from a stone
/// along direction `d`: the cells up to 4 steps below bit 32 (so that the test of each
/// is a 32-bit `test` that fuses with its branch, not a `bt`), those 5 steps away above.
const fn reach_bit(d: usize, k: i32) -> u32 {
    let (n, back) = (k.unsigned_abs(), (k < 0) as u32);
    if n <= 4 {
        8 * d as u32 + 2 * (n - 1) + back
    } else {
        32 + 2 * d as u32 + back
    }
}
const _: () = {
    // Every (direction, offset) has its own bit.
    let mut seen = 0u64;
    let mut d = 0;
    while d < 4 {
        let mut k = -HALF;
        while k <= HALF {
            if k != 0 {
                let b = 1u64 << reach_bit(d, k);
                assert!(seen & b == 0);
                seen |= b;
            }
            k += 1;
        }
        d += 1;
    }
};

/// A boxed array of wall slots, built on the heap.
fn wall_slots() -> Box<[Slot; SLOTS]> {
    vec![Slot::WALL; SLOTS]
        .into_boxed_slice()
        .try_into()
        .expect("SLOTS slots")
}

/// Number of count lanes per colour: the classes, padded to a vector's 16 lanes (the
/// last two stay zero).
const LANES: usize = 16;
/// Per colour, per class: how many empty cells have that class (at most 1024, the
/// squares of the largest board).
type Counts = [[u16; LANES]; 2];
const _: () = assert!(MAX_SIZE * MAX_SIZE <= u16::MAX as usize);

/// One level of the undo stack. Frame `i` holds the counts with `i` stones (moves and
/// look-ahead stones) on the board, so the top frame's are the current counts and
/// unmake restores them by popping; and what unmake needs to take back the `i + 1`-th
/// stone: the packed state ([`Slot::st`]) of every cell its update visited, in the
/// order of [`record`] (the stone's own cell included), and the four line words through
/// it as they were before (copied back whole: cheaper than clearing the stone's bits).
///
/// Aligned to cache lines, so that the counts are exactly one line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Frame {
    counts: Counts,
    lines: [Line; 4],
    saved: [Slot; STENCIL],
    /// Per colour, the sum of the values ([`CellValues`]) of its fields over the empty
    /// cells.
    vsum: [i64; 2],
}

impl Frame {
    const EMPTY: Frame = Frame {
        counts: [[0; LANES]; 2],
        lines: [[0; 2]; 4],
        saved: [Slot { st: 0 }; STENCIL],
        vsum: [0; 2],
    };
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

/// Where the near count of cell index 0 sits: the first cell of the stencil of any cell
/// index (3 rows and 3 columns back) falls at or after the start of the array.
const NEAR_OFF: usize = 3 * STRIDE + 3;
/// Bytes from the first to past the last near count one stone's stencil rows touch
/// (7 rows of 8 bytes, `STRIDE` apart), starting at the stone's index.
const NEAR_SPAN: usize = 6 * STRIDE + 8;
/// Length of the near-count array: the stencil rows of every cell index fit, so that a
/// move needs neither index masks nor bounds checks (the index is below `NUM_CELLS`).
const NEAR_LEN: usize = NUM_CELLS + NEAR_SPAN;

/// Count changes of one colour over one move, a byte lane per class, kept as two sums:
/// the cells that entered each class and the cells that left it. A move changes at most
/// 41 cells, so no lane of either sum passes 41 (no carry between lanes, even in the
/// portable `u128` form) and their difference fits a signed byte.
/// On x86-64 the lanes are one SSE2 register (part of the x86-64 baseline), so that the
/// deltas cost no general-purpose registers.
#[cfg(target_arch = "x86_64")]
mod lanes {
    use crate::pattern::OneHot;
    use core::arch::x86_64::{
        __m128i, _mm_add_epi16, _mm_add_epi8, _mm_cmpgt_epi8, _mm_load_si128, _mm_loadu_si128,
        _mm_setzero_si128, _mm_storeu_si128, _mm_sub_epi8, _mm_unpackhi_epi8, _mm_unpacklo_epi8,
    };

    #[derive(Clone, Copy)]
    pub struct Lanes(__m128i);

    impl Lanes {
        /// Every lane at zero.
        // SAFETY: `__m128i` is 16 bytes without invalid bit patterns.
        pub const ZERO: Lanes =
            Lanes(unsafe { core::mem::transmute::<[u8; 16], __m128i>([0; 16]) });

        /// `self` plus `v`, lane by lane.
        #[inline(always)]
        pub fn add(self, v: &OneHot) -> Lanes {
            // SAFETY: `OneHot` is 16 bytes aligned to 16; SSE2 is part of the x86-64
            // baseline.
            Lanes(unsafe { _mm_add_epi8(self.0, _mm_load_si128(v.0.as_ptr().cast())) })
        }

        /// `to` = `from` plus each lane of `plus` less the same lane of `minus`.
        #[inline(always)]
        pub fn add_diff(plus: Lanes, minus: Lanes, from: &[u16; 16], to: &mut [u16; 16]) {
            let (p, q) = (
                from.as_ptr().cast::<__m128i>(),
                to.as_mut_ptr().cast::<__m128i>(),
            );
            // SAFETY: SSE2 is part of the x86-64 baseline; the two unaligned loads and
            // stores cover exactly the 32 bytes of `from` and of `to`.
            unsafe {
                let d = _mm_sub_epi8(plus.0, minus.0);
                // Sign-extend the 16 bytes to 16-bit lanes.
                let s8 = _mm_cmpgt_epi8(_mm_setzero_si128(), d);
                let parts = [_mm_unpacklo_epi8(d, s8), _mm_unpackhi_epi8(d, s8)];
                for (k, part) in parts.into_iter().enumerate() {
                    let sum = _mm_add_epi16(_mm_loadu_si128(p.add(k)), part);
                    _mm_storeu_si128(q.add(k), sum);
                }
            }
        }
    }
}

/// The portable version of [`lanes`] (also compiled on x86-64 for the test that compares
/// the two).
#[cfg(any(test, not(target_arch = "x86_64")))]
mod lanes_u128 {
    use crate::pattern::OneHot;

    #[derive(Clone, Copy)]
    pub struct Lanes(u128);

    impl Lanes {
        pub const ZERO: Lanes = Lanes(0);

        #[inline(always)]
        pub fn add(self, v: &OneHot) -> Lanes {
            Lanes(self.0.wrapping_add(u128::from_le_bytes(v.0)))
        }

        #[inline(always)]
        pub fn add_diff(plus: Lanes, minus: Lanes, from: &[u16; 16], to: &mut [u16; 16]) {
            let (p, m) = (plus.0.to_le_bytes(), minus.0.to_le_bytes());
            for (i, n) in to.iter_mut().enumerate() {
                *n = from[i]
                    .wrapping_add(u16::from(p[i]))
                    .wrapping_sub(u16::from(m[i]));
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
use lanes::Lanes;
#[cfg(not(target_arch = "x86_64"))]
use lanes_u128::Lanes;

/// Cells from a stone to the farthest cell its update visits (5 steps diagonally).
const REACH: usize = HALF as usize * (STRIDE + 1);
/// The cells around a stone that its update can visit, centred on the stone.
const WINDOW: usize = 2 * REACH + 1;

/// Slots of the board: one per cell index, and a window's worth to spare so that the
/// window of any index lies inside the array without a clamp (on-board squares never
/// come near the spare slots, which stay walls).
const SLOTS: usize = NUM_CELLS + WINDOW;

/// The window of `s` centred on `i` (an on-board square).
#[inline(always)]
fn window(s: &mut [Slot; SLOTS], i: usize) -> &mut [Slot; WINDOW] {
    let start = i.wrapping_sub(REACH) & (NUM_CELLS - 1);
    (&mut s[start..start + WINDOW])
        .try_into()
        .expect("window size")
}

/// [`window`] for reading.
#[inline(always)]
fn window_ref(s: &[Slot; SLOTS], i: usize) -> &[Slot; WINDOW] {
    let start = i.wrapping_sub(REACH) & (NUM_CELLS - 1);
    (&s[start..start + WINDOW]).try_into().expect("window size")
}

/// The parts of the board one stone's pattern update writes, borrowed apart so that the
/// compiler keeps the pointers in registers (through `&mut self` it reloaded them after
/// every store).
///
/// The update visits every on-board cell of the stencil (4 lines × 8 or 10 neighbours)
/// the same way, without branches on their contents: the content of a neighbour is
/// unpredictable, and the branch on it (and on whether its patterns changed)
/// mispredicted about 15 times per move. Non-empty cells get their codes "updated" too:
/// the joint table gives zero codes for a cell that is not empty, so that they stay zero
/// (class `None`, the one-hot vector of which enters and leaves the deltas alike). Cells off the board are skipped (a branch on the square, not
/// on the position: in random 15×15 middle games, 7 of the 32 neighbours are off the
/// board); their state never changes, and only their records are written.
struct Update<'a> {
    /// The cells around the stone, which is at `REACH`.
    w: &'a mut [Slot; WINDOW],
    tables: &'a HotTables,
    /// This frame's saved states.
    saved: &'a mut [Slot; STENCIL],
    /// Which of the cells the update visits lie on the board ([`Board::reach`]): bit
    /// [`reach_bit`]`(d, k)` for the cell `k` steps along direction `d`.
    reach: u64,
    /// Per colour: the cells that entered each class so far...
    plus: [Lanes; 2],
    /// ...and the cells that left it.
    minus: [Lanes; 2],
    /// The cell values summed by the board.
    values: &'a CellValues,
    /// Per colour: the change of the value sum so far.
    vdelta: [i64; 2],
}

impl Update<'_> {
    /// The update of the line through the stone along direction `D`: the 8 (or with
    /// `FAR`, 10) cells around it, unrolled so that every offset, shift and record index
    /// is a constant. `line` is the window of the line (with the stone) around it.
    #[inline(always)]
    fn dir<const D: usize, const FAR: bool, const VALUES: bool>(&mut self, line: u64) {
        let off = Dir::ALL[D].offset() as usize;
        // One bit test per cell (no count to extract first).
        let reach = self.reach;
        let on_board = |k: i32| reach & 1 << reach_bit(D, k) != 0;
        let tables = self.tables;
        // The codes of the cell `k` positions from the window's centre: freestyle's from
        // its near key (one look-up), the others' from its two half lines.
        let codes = |k: i32| {
            if FAR {
                let (left, right) = halves_at(line, k);
                tables.codes_of_halves(left, right)
            } else {
                tables.codes_near(near_at(line, k))
            }
        };
        macro_rules! at {
            ($($k:literal)*) => {$(
                let (n, q) = (record(FAR, D, $k), REACH + off * $k);
                let (fwd, back) = (on_board($k), on_board(-$k));
                self.cell::<D, VALUES>(n, q, fwd, || codes($k));
                let (n, q) = (record(FAR, D, -$k), REACH - off * $k);
                self.cell::<D, VALUES>(n, q, back, || codes(-$k));
            )*};
        }
        at!(1 2 3 4);
        if FAR {
            at!(5);
        }
    }

    /// Refresh the codes along `D` of window cell `q` (to `codes()`, see
    /// [`HotTables::codes`]) and its classes, saving its state as record `n`; if the cell
    /// is not `on_board`, only save its state.
    #[inline(always)]
    fn cell<const D: usize, const VALUES: bool>(
        &mut self,
        n: usize,
        q: usize,
        on_board: bool,
        codes: impl FnOnce() -> u32,
    ) {
        let slot = &mut self.w[q];
        if !on_board {
            // Every off-board slot holds the same wall state (no move changes it), so
            // the record needs no load.
            debug_assert_eq!(*slot, Slot::WALL);
            self.saved[n] = Slot::WALL;
            return;
        }
        let old = slot.st;
        self.saved[n].st = old;
        let codes = u64::from(codes());
        // The cleared bits and the new codes do not overlap, so the sum is their union
        // (one `lea` that also applies the direction's shift).
        let st = (old & !(ST_DIR0 << DIR_SHIFT[D])) + (codes << DIR_SHIFT[D]);
        slot.st = st;
        // A non-empty cell's flags make both classes `None`.
        let t = self.tables;
        // SAFETY: `old` is a packed state and `st` is one with a direction's codes
        // replaced by table codes, so both have bits 0 and 16 clear (see `Slot::st`).
        unsafe {
            self.plus[0] = self.plus[0].add(t.onehot_b(st));
            self.minus[0] = self.minus[0].add(t.onehot_b(old));
            self.plus[1] = self.plus[1].add(t.onehot_w(st));
            self.minus[1] = self.minus[1].add(t.onehot_w(old));
        }
        if VALUES {
            let v = &self.values.0;
            self.vdelta[0] += v[0][value_index(st, 0)] - v[0][value_index(old, 0)];
            self.vdelta[1] += v[1][value_index(st, 1)] - v[1][value_index(old, 1)];
        }
    }
}

/// The undo of one [`Update`]: the same cells in the same order, copying the saved
/// states back.
struct Restore<'a> {
    w: &'a mut [Slot; WINDOW],
    saved: &'a [Slot; STENCIL],
}

impl Restore<'_> {
    /// See [`Update::dir`]; `D` > 0 (see [`Restore::row`] for direction 0).
    #[inline(always)]
    fn dir<const D: usize, const FAR: bool>(&mut self) {
        let off = Dir::ALL[D].offset() as usize;
        macro_rules! at {
            ($($k:literal)*) => {$(
                self.w[REACH + off * $k] = self.saved[record(FAR, D, $k)];
                self.w[REACH - off * $k] = self.saved[record(FAR, D, -$k)];
            )*};
        }
        at!(1 2 3 4);
        if FAR {
            at!(5);
        }
    }

    /// The row through the stone (direction 0, the stone's cell included): adjacent
    /// cells saved in order, copied back as one block.
    #[inline(always)]
    fn row<const FAR: bool>(&mut self) {
        const { assert!(Dir::ALL[0].offset() == 1) };
        let h = if FAR { HALF } else { HALF - 1 } as usize;
        let first = record(FAR, 0, -(h as i32));
        self.w[REACH - h..=REACH + h].copy_from_slice(&self.saved[first..=first + 2 * h]);
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
    /// The cell values whose sums the board keeps ([`Board::set_cell_values`]).
    values: &'static CellValues,
    /// The vector sums the board keeps, if any ([`Board::set_cell_vectors`]).
    vectors: Option<Box<VectorStack>>,
    /// Whether patterns depend on cells 5 steps away (every rule but freestyle); if not,
    /// moves leave the codes of the cells 5 steps away alone.
    far: bool,
    /// Per cell of the padded layout: content, codes, classes.
    s: Box<[Slot; SLOTS]>,
    /// Per square: how far the update of a stone there reaches on the board (see
    /// [`Update::reach`]); fixed for the board size.
    reach: Box<[u64; NUM_CELLS]>,
    /// Per line of each direction (see [`LINE_OF`]): its cells, 2 bits each, walls
    /// around.
    lines: Box<LineWords>,
    /// Per cell: how many stones lie in its candidate stencil (kept apart from the
    /// slots, one byte per cell, so that a move updates a row of them at once).
    near: Box<[u8; NEAR_LEN]>,
    key: u64,
    side: Color,
    history: Box<[Pos; MAX_MOVES]>,
    len: usize,
    blocked: usize,
    outcome: Option<MoveOutcome>,
    /// Undo stack (see [`Frame`]): per stone, the counts before it and the states of the
    /// cells it changed; the top frame holds the current counts.
    frames: Box<[Frame]>,
    frames_len: usize,
}

/// The squares of a `width` × `height` board, row by row (no borrow of a board, so a
/// caller may change the board while it walks them).
fn squares(width: usize, height: usize) -> impl Iterator<Item = Pos> {
    (0..height).flat_map(move |y| (0..width).map(move |x| Pos::new(x, y)))
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
            values: &ZERO_VALUES,
            vectors: None,
            far: rule != Rule::Freestyle,
            s: wall_slots(),
            reach: Box::new([0; NUM_CELLS]),
            lines: Box::new(LineWords::WALLS),
            near: vec![0; NEAR_LEN].try_into().expect("size"),
            key: 0,
            side: Color::Black,
            history: Box::new([Pos::NONE; MAX_MOVES]),
            len: 0,
            blocked: 0,
            outcome: None,
            // One more than the most stones: the top frame holds the counts.
            frames: vec![Frame::EMPTY; MAX_FRAMES + 1].into_boxed_slice(),
            frames_len: 0,
        };
        for y in 0..height {
            for x in 0..width {
                b.s[Pos::new(x, y).idx()].set_cell(Cell::Empty);
            }
        }
        let squares: Vec<Pos> = b.all_squares().collect();
        for p in squares {
            let mut reach = 0;
            for (d, dir) in Dir::ALL.into_iter().enumerate() {
                for k in (-HALF..=HALF).filter(|&k| k != 0) {
                    if b.in_board(p.step(dir, k)) {
                        reach |= 1 << reach_bit(d, k);
                    }
                }
            }
            b.reach[p.idx()] = reach;
        }
        b.rebuild();
        Ok(b)
    }

    /// An independent copy (for a second thread or a referee), built from the moves,
    /// keeping the same cell value sums ([`Board::set_cell_values`]).
    #[must_use]
    pub fn duplicate(&self) -> Board {
        let mut b = Board::new(self.width, self.height, self.rule).expect("size was valid");
        for p in self.all_squares() {
            if self.s[p.idx()].cell() == Cell::Wall {
                b.put_blocked(p);
            }
        }
        for &p in self.history() {
            b.make(p);
        }
        b.set_cell_values(self.values);
        b.set_cell_vectors(self.vectors.as_ref().map(|v| v.table));
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
    /// The Zobrist key after the side to move plays `p` (what [`Board::key`] returns
    /// after [`Board::make`]`(p)`): the search prefetches the child's table entry with it
    /// before making the move, so that the load overlaps the move's update.
    #[inline]
    #[must_use]
    pub fn key_after(&self, p: Pos) -> u64 {
        self.key ^ ZOBRIST.cell[self.side.idx()][p.idx()] ^ ZOBRIST.side
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
        self.s[p.idx()].cell()
    }

    /// True if `p` is an empty square of the board.
    #[inline]
    #[must_use]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.s[p.idx()].cell() == Cell::Empty
    }

    /// Every square of the board, row by row.
    pub fn all_squares(&self) -> impl Iterator<Item = Pos> + '_ {
        squares(self.width, self.height)
    }

    /// The directional pattern `c` would make at the empty square `p` along `d`.
    #[inline]
    #[must_use]
    pub fn pattern(&self, p: Pos, c: Color, d: Dir) -> Pattern {
        let (l, r) = halves_at(self.line_window(p, d), 0);
        let key = (l & 0x3FF) | (r & 0x3FF) << 10;
        self.tables.pattern(key as u32, c)
    }

    /// The five points a stone of `c` on the empty square `p` would make, read from the
    /// line words without placing it: the squares within 4 steps of `p` along its lines
    /// where `c` then has a five by the rule (class [`Pattern4::Five`], since a stone
    /// changes only the patterns along its own lines), per direction of
    /// [`Dir::ALL`] the squares 1 step forward, 1 back, 2 forward and so on. Written to
    /// `out` (at most 8 are kept); returns how many. Only lines along which the stone
    /// makes a four are looked at: a line with a new five point is a four through `p`.
    ///
    /// Equal, in that order, to the five points of `c` near `p` once the stone is placed,
    /// when `c` had none before (the VCF solver's cheap look ahead of a four).
    #[must_use]
    pub fn fives_after(&self, p: Pos, c: Color, out: &mut [Pos; 8]) -> usize {
        let stone = Cell::stone(c) as u64;
        let key_of = |w: u64, j: i32| {
            let (l, r) = halves_at(w, j);
            ((l & 0x3FF) | (r & 0x3FF) << 10) as u32
        };
        let mut n = 0;
        for d in Dir::ALL {
            let w = self.line_window(p, d);
            if !self.tables.pattern(key_of(w, 0), c).is_four() {
                continue;
            }
            // The stone on the window's centre cell (bits 20..22).
            let w = w | stone << 20;
            for k in 1..HALF {
                for j in [k, -k] {
                    let empty = (w >> (20 + 2 * j)) & 3 == Cell::Empty as u64;
                    if empty && self.tables.pattern(key_of(w, j), c) == Pattern::F5 && n < 8 {
                        out[n] = p.step(d, j);
                        n += 1;
                    }
                }
            }
        }
        n
    }

    /// The window of the line through `p` along `d` (see [`line_window`]).
    #[inline]
    fn line_window(&self, p: Pos, d: Dir) -> u64 {
        let at = &LINE_OF[p.idx()];
        let d = d as usize & 3;
        line_window(
            self.lines.line(usize::from(at[2 * d])),
            u32::from(at[2 * d + 1]),
        )
    }

    /// The [`CellValues`] index of the square `p` for `c`: its class field (the four
    /// direction codes, [`crate::pattern::combo_code`]) shifted right by one; 0 if `p`
    /// is not empty.
    #[inline]
    #[must_use]
    pub fn value_index(&self, p: Pos, c: Color) -> usize {
        value_index(self.s[p.idx()].st, c.idx())
    }

    /// The combined class of the empty square `p` for `c` (`None` if not empty).
    #[inline]
    #[must_use]
    pub fn pattern4(&self, p: Pos, c: Color) -> Pattern4 {
        let field = self.s[p.idx()].field(c.idx());
        self.tables.hot().class(c.idx(), field)
    }

    /// How many empty squares have class `p4` for `c`.
    #[inline]
    #[must_use]
    pub fn count(&self, c: Color, p4: Pattern4) -> u32 {
        u32::from(self.all_counts()[c.idx()][p4 as usize])
    }

    /// Colour `c`'s sum of the values ([`CellValues`]) of its fields over the empty
    /// cells (see [`Board::set_cell_values`]; 0 while none are set).
    #[inline]
    #[must_use]
    pub fn value_sum(&self, c: Color) -> i64 {
        self.frames[self.frames_len].vsum[c.idx()]
    }

    /// True when the board keeps the sums of `values`.
    #[must_use]
    pub fn has_cell_values(&self, values: &CellValues) -> bool {
        std::ptr::eq(self.values, values)
    }

    /// Keep the sums of `values` from now on. The cells' values are recomputed: the
    /// moves are taken back, the empty board rebuilt, and the moves played again (like
    /// [`Board::set_blocked`]), so that every undo frame stays exact.
    pub fn set_cell_values(&mut self, values: &'static CellValues) {
        if std::ptr::eq(self.values, values) {
            return;
        }
        debug_assert_eq!(self.frames_len, self.len, "no look-ahead stones");
        let moves: Vec<Pos> = self.history().to_vec();
        for _ in 0..moves.len() {
            self.unmake();
        }
        self.values = values;
        self.rebuild();
        for m in moves {
            self.make(m);
        }
    }

    /// True when the board keeps the vector sums of `table`.
    #[must_use]
    pub fn has_cell_vectors(&self, table: &CellVectors) -> bool {
        self.vectors
            .as_ref()
            .is_some_and(|v| std::ptr::eq(v.table, table))
    }

    /// Colour `c`'s sum of its cells' rows of the table set by
    /// [`Board::set_cell_vectors`] (`None` while none is set, and while the sums are not
    /// brought up to date: see [`Board::refresh_vectors`]).
    #[inline]
    #[must_use]
    pub fn vector_sum(&self, c: Color) -> Option<&[i16]> {
        self.vectors.as_ref()?.sum(self.frames_len, c.idx())
    }

    /// Bring the vector sums up to the current position: the moves only record what
    /// they change, and the sums are computed when an evaluation needs them. Cheap when
    /// they are up to date. Nothing happens on top of look-ahead stones
    /// ([`Board::place`]): the sums stay unknown there.
    #[inline]
    pub fn refresh_vectors(&mut self) {
        if let Some(v) = self.vectors.as_deref_mut() {
            let frames = &self.frames;
            v.refresh(self.frames_len, |g| &frames[g].saved);
        }
    }

    /// Keep the vector sums of `table` from now on (or none), recomputed like
    /// [`Board::set_cell_values`] and up to date on return. The sums cost every move a pass over the cells it
    /// changes, so set them only for an evaluation that reads them.
    pub fn set_cell_vectors(&mut self, table: Option<&'static CellVectors>) {
        let same = match (&self.vectors, table) {
            (None, None) => true,
            (Some(v), Some(t)) => std::ptr::eq(v.table, t),
            _ => false,
        };
        if same {
            self.refresh_vectors();
            return;
        }
        debug_assert_eq!(self.frames_len, self.len, "no look-ahead stones");
        let moves: Vec<Pos> = self.history().to_vec();
        for _ in 0..moves.len() {
            self.unmake();
        }
        self.vectors = table.map(|t| Box::new(VectorStack::new(t, self.frames.len())));
        self.rebuild();
        for m in moves {
            self.make(m);
        }
        self.refresh_vectors();
    }

    /// Per-class counts of `c`, indexed by `Pattern4 as usize`.
    #[inline]
    #[must_use]
    pub fn counts(&self, c: Color) -> &[u16; Pattern4::COUNT] {
        self.all_counts()[c.idx()]
            .first_chunk()
            .expect("a colour has a lane per class")
    }

    /// The current counts of both colours (held by the top undo frame).
    #[inline]
    fn all_counts(&self) -> &Counts {
        &self.frames[self.frames_len].counts
    }

    /// True if some stone lies in the candidate stencil of `p`.
    #[inline]
    #[must_use]
    pub fn is_near(&self, p: Pos) -> bool {
        self.near[NEAR_OFF + p.idx()] > 0
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

    /// Forget the outcome of the last [`Board::play`], so that play goes on (for setting
    /// up positions whose stones need not be in game order).
    pub fn forget_outcome(&mut self) {
        self.outcome = None;
    }

    /// Check that `p` is an empty square of this board.
    ///
    /// # Errors
    /// Off board, occupied or blocked.
    pub fn check_square(&self, p: Pos) -> Result<(), PlayError> {
        if !self.in_board(p) {
            return Err(PlayError::OffBoard);
        }
        match self.s[p.idx()].cell() {
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
        self.s[p.idx()].set_cell(Cell::Wall);
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
    #[inline]
    fn put(&mut self, p: Pos, v: Cell) {
        // One specialised update per rule kind and colour, so that the key changes are
        // constants (as separate functions: inlined, the compiler merged them again and
        // passed the constants through the stack).
        // The scalar value sums only when a table is set (learned linear weights): the
        // network and the hand-set evaluation never read them.
        let values = !std::ptr::eq(self.values, &ZERO_VALUES);
        match (self.far, v, values) {
            (false, Cell::Black, false) => self.put_as::<false, { Cell::Black as u32 }, false>(p),
            (false, _, false) => self.put_as::<false, { Cell::White as u32 }, false>(p),
            (true, Cell::Black, false) => self.put_as::<true, { Cell::Black as u32 }, false>(p),
            (true, _, false) => self.put_as::<true, { Cell::White as u32 }, false>(p),
            (false, Cell::Black, true) => self.put_as::<false, { Cell::Black as u32 }, true>(p),
            (false, _, true) => self.put_as::<false, { Cell::White as u32 }, true>(p),
            (true, Cell::Black, true) => self.put_as::<true, { Cell::Black as u32 }, true>(p),
            (true, _, true) => self.put_as::<true, { Cell::White as u32 }, true>(p),
        }
    }

    /// [`Board::put`] of the cell code `V`, with or without the cells 5 steps away.
    #[inline(never)]
    fn put_as<const FAR: bool, const V: u32, const VALUES: bool>(&mut self, p: Pos) {
        // One check for the frame and the next (the stack has room for every stone).
        assert!(self.frames_len + 1 < self.frames.len(), "undo stack full");
        let (below, above) = self.frames.split_at_mut(self.frames_len + 1);
        let (frame, next) = (&mut below[self.frames_len], &mut above[0]);
        self.frames_len += 1;
        let mut up = Update {
            w: window(&mut self.s, p.idx()),
            tables: self.tables.hot(),
            saved: &mut frame.saved,
            reach: self.reach[p.idx()],
            plus: [Lanes::ZERO; 2],
            minus: [Lanes::ZERO; 2],
            values: self.values,
            vdelta: [0; 2],
        };
        let centre = &mut up.w[REACH];
        let old = centre.st;
        centre.st = u64::from(V) << ST_CELL;
        up.saved[record(FAR, 0, 0)].st = old;
        // The cell leaves the counts and the value sums.
        // SAFETY: `old` is a packed state: bits 0 and 16 clear (see `Slot::st`).
        unsafe {
            up.minus[0] = up.minus[0].add(up.tables.onehot_b(old));
            up.minus[1] = up.minus[1].add(up.tables.onehot_w(old));
        }
        if VALUES {
            up.vdelta[0] -= up.values.0[0][value_index(old, 0)];
            up.vdelta[1] -= up.values.0[1][value_index(old, 1)];
        }
        let at = &LINE_AT[p.idx()];
        let lines = &mut *self.lines;
        macro_rules! dirs {
            ($($d:literal)*) => {$(
                // The whole line for unmake (one 16-byte copy, from which the next
                // move's 8-byte read can forward), and the word around the stone.
                let (o, rest) = (at.off[$d], u32::from(at.rest[$d]));
                frame.lines[$d] = lines.line_at_unmasked(at.base[$d]);
                let word = lines.word_unmasked(o);
                lines.set_word_unmasked(o, word | (u64::from(V) << line_bit(0)) << rest);
                up.dir::<$d, FAR, VALUES>(word >> rest | u64::from(V) << line_bit(0));
            )*};
        }
        dirs!(0 1 2 3);
        let (plus, minus, vdelta) = (up.plus, up.minus, up.vdelta);
        Lanes::add_diff(plus[0], minus[0], &frame.counts[0], &mut next.counts[0]);
        Lanes::add_diff(plus[1], minus[1], &frame.counts[1], &mut next.counts[1]);
        next.vsum = [frame.vsum[0] + vdelta[0], frame.vsum[1] + vdelta[1]];
        if let Some(v) = self.vectors.as_deref_mut() {
            v.record(self.frames_len - 1, FAR, window_ref(&self.s, p.idx()));
        }
    }

    /// Take away the stone of the last frame (at `p`) and restore everything it changed.
    #[inline]
    fn remove(&mut self, p: Pos) {
        if self.far {
            self.remove_as::<true>(p);
        } else {
            self.remove_as::<false>(p);
        }
    }

    /// [`Board::remove`], with or without the cells 5 steps away.
    #[inline(never)]
    fn remove_as<const FAR: bool>(&mut self, p: Pos) {
        self.frames_len -= 1;
        let frame = &self.frames[self.frames_len];
        let mut un = Restore {
            w: window(&mut self.s, p.idx()),
            saved: &frame.saved,
        };
        un.row::<FAR>();
        un.dir::<1, FAR>();
        un.dir::<2, FAR>();
        un.dir::<3, FAR>();
        let at = &LINE_AT[p.idx()];
        for d in 0..4 {
            self.lines.set_line_at_unmasked(at.base[d], frame.lines[d]);
        }
    }

    /// Put a stone of `c` on the empty square `p` without touching history, side to
    /// move or key: for look-ahead inside rule checks and the threat solvers. Undo with
    /// [`Board::lift`]. The move is not recorded for the vector sums (nothing evaluates
    /// a position with look-ahead stones): the frames above it have none
    /// ([`Board::vector_sum`] is `None` there) until they are made again.
    pub(crate) fn place(&mut self, p: Pos, c: Color) {
        let vectors = self.vectors.take();
        self.put(p, Cell::stone(c));
        self.vectors = vectors;
        if let Some(v) = self.vectors.as_deref_mut() {
            v.forget(self.frames_len - 1);
        }
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
        // The stencil's rows start at `p.idx()` (see `NEAR_OFF`): one slice for all of
        // them, constant offsets within it.
        let first = p.idx();
        let rows: &mut [u8; NEAR_SPAN] = (&mut self.near[first..first + NEAR_SPAN])
            .try_into()
            .expect("span");
        for (r, &mask) in NEAR_ROWS.iter().enumerate() {
            let o = r * STRIDE;
            let bytes: &mut [u8; 8] = (&mut rows[o..o + 8]).try_into().expect("8");
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
        renju::is_forbidden(self, p)
    }

    /// Renju: black is to move, the board is not full, and every empty square is
    /// forbidden to black, so black's move is a foul (a loss; a full board is a draw).
    pub fn black_must_foul(&mut self) -> bool {
        if self.rule != Rule::Renju || self.side != Color::Black || self.empty_count() == 0 {
            return false;
        }
        squares(self.width, self.height).all(|p| !self.is_empty(p) || self.is_forbidden(p))
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
        let mut counts = [[0; LANES]; 2];
        let mut vsum = [0i64; 2];
        self.near.fill(0);
        self.key = 0;
        *self.lines = LineWords::WALLS;
        for i in 0..NUM_CELLS {
            let p = Pos(i as u16);
            if self.in_board(p) {
                let at = &LINE_OF[i];
                for d in 0..4 {
                    let (l, s) = (usize::from(at[2 * d]), u32::from(at[2 * d + 1]));
                    let cell = self.s[i].cell() as u64;
                    let mut line = self.lines.line(l);
                    let (half, bit) = line_half(&mut line, s);
                    *half = *half & !(3 << bit) | cell << bit;
                    self.lines.set_line_at(16 * l, line);
                }
            }
            match self.s[i].cell() {
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
            let cell = self.s[i].cell();
            let mut st = (cell as u64) << ST_CELL;
            // Codes for every empty cell (only on the board), which count their classes.
            // (From keys read off the cells, not the line words: an independent check
            // of the words' layout.)
            if cell == Cell::Empty {
                for d in 0..4 {
                    let key = self.window_key(Pos(i as u16), Dir::ALL[d]);
                    st |= u64::from(self.tables.hot().codes(key)) << DIR_SHIFT[d];
                }
                for c in 0..2 {
                    let p4 = self.tables.hot().class(c, Slot { st }.field(c));
                    counts[c][p4 as usize] += 1;
                }
                for (c, v) in vsum.iter_mut().enumerate() {
                    *v += self.values.0[c][value_index(st, c)];
                }
            }
            self.s[i].st = st;
        }
        self.frames[self.frames_len].counts = counts;
        self.frames[self.frames_len].vsum = vsum;
        if let Some(v) = self.vectors.as_deref_mut() {
            v.rebuild(self.frames_len, self.s.iter().map(|s| s.st));
        }
        // The stencil offsets one by one (the reference for the row masks of `add_near`).
        for j in 0..self.len {
            let base = self.history[j].idx() as i32;
            for &(dx, dy) in &NEAR {
                let q = (base + dy * STRIDE as i32 + dx) as usize & (NUM_CELLS - 1);
                self.near[NEAR_OFF + q] += 1;
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
                    self.s[q as usize].cell() as u32
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
            values: self.values,
            vectors: self
                .vectors
                .as_ref()
                .map(|v| Box::new(VectorStack::new(v.table, 1))),
            far: self.far,
            s: wall_slots(),
            reach: Box::new([0; NUM_CELLS]),
            lines: Box::new(LineWords([0; LINE_BYTES])),
            near: vec![0; NEAR_LEN].try_into().expect("size"),
            key: 0,
            side: self.side,
            history: self.history.clone(),
            len: self.len,
            blocked: self.blocked,
            outcome: None,
            frames: vec![Frame::EMPTY].into_boxed_slice(),
            frames_len: 0,
        };
        for i in 0..NUM_CELLS {
            fresh.s[i].set_cell(self.s[i].cell());
        }
        fresh.rebuild();
        let mut stones = [0usize; 2];
        for p in self.history() {
            match self.s[p.idx()].cell() {
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
            let (mine, theirs) = (self.s[i].st, fresh.s[i].st);
            // The one-hot lookups read straight from the packed state.
            assert_eq!(
                mine & !(ST_CODES | 3 << ST_CELL),
                0,
                "stray bits in the state of {:?}",
                Pos(i as u16)
            );
            assert_eq!(
                mine >> ST_CELL,
                theirs >> ST_CELL,
                "cell {:?}",
                Pos(i as u16)
            );
            for c in [Color::Black, Color::White] {
                assert_eq!(
                    self.pattern4(Pos(i as u16), c),
                    fresh.pattern4(Pos(i as u16), c),
                    "class of {:?} for {c:?}",
                    Pos(i as u16)
                );
            }
            if on_board {
                // Codes are kept for empty squares and zero for the others.
                assert_eq!(
                    mine & ST_CODES,
                    theirs & ST_CODES,
                    "codes of {:?}",
                    Pos(i as u16)
                );

                assert_eq!(
                    self.near[NEAR_OFF + i],
                    fresh.near[NEAR_OFF + i],
                    "near count of {:?}",
                    Pos(i as u16)
                );
            }
        }
        if let (Some(v), Some(f)) = (&self.vectors, &fresh.vectors) {
            // The sums the recorded moves give (unknown above a look-ahead stone).
            if let Some(sums) = v.peek(self.frames_len, |g| &self.frames[g].saved) {
                let w = v.table.width();
                for c in 0..2 {
                    assert_eq!(
                        Some(&sums[c * w..(c + 1) * w]),
                        f.sum(0, c),
                        "vector sums {c}"
                    );
                }
            }
        }
        for l in 0..NUM_LINES {
            assert_eq!(self.lines.line(l), fresh.lines.line(l), "line word {l}");
        }
        // The words a move reads around a cell (`LINE_AT`) hold the window's cells.
        for p in self.all_squares() {
            let at = &LINE_AT[p.idx()];
            for (d, dir) in Dir::ALL.into_iter().enumerate() {
                let w = self.lines.word(usize::from(at.off[d])) >> at.rest[d];
                let want = self.line_window(p, dir);
                // 64 bits less the rest: cells -10..=18.
                let mask = (1u64 << 58) - 1;
                assert_eq!(w & mask, want & mask, "word around {p:?} {dir:?}");
            }
        }
        // The windows the moves read out of the line words are the cells around.
        for p in self.all_squares() {
            for d in Dir::ALL {
                let (l, r) = halves_at(self.line_window(p, d), 0);
                let key = (l & 0x3FF) | (r & 0x3FF) << 10;
                assert_eq!(key as u32, fresh.window_key(p, d), "window of {p:?} {d:?}");
            }
        }
        assert_eq!(self.all_counts(), fresh.all_counts(), "class counts");
        assert_eq!(
            self.frames[self.frames_len].vsum, fresh.frames[fresh.frames_len].vsum,
            "cell value sums"
        );
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::OneHot;
    use rand::{Rng, SeedableRng};

    fn one_hot(class: usize) -> OneHot {
        OneHot(std::array::from_fn(|i| u8::from(i == class)))
    }

    /// The count deltas of random moves (at most 41 class changes per colour, as in one
    /// move) through the vector lanes and through plain integers agree.
    #[test]
    fn count_lanes_apply_the_same_deltas_as_plain_integers() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(41);
        for _ in 0..2000 {
            let mut counts = [0u16; 16];
            for c in counts.iter_mut().take(Pattern4::COUNT) {
                *c = rng.gen_range(41..1024);
            }
            let mut want = counts;
            let mut portable_counts = counts;
            let (mut plus, mut minus) = (Lanes::ZERO, Lanes::ZERO);
            let (mut pplus, mut pminus) = (lanes_u128::Lanes::ZERO, lanes_u128::Lanes::ZERO);
            for _ in 0..rng.gen_range(0..=41) {
                let old = rng.gen_range(0..Pattern4::COUNT);
                minus = minus.add(&one_hot(old));
                pminus = pminus.add(&one_hot(old));
                want[old] -= 1;
                if rng.gen_bool(0.1) {
                    // The cell leaves the counts (as the stone's own cell does).
                    continue;
                }
                let new = rng.gen_range(0..Pattern4::COUNT);
                plus = plus.add(&one_hot(new));
                pplus = pplus.add(&one_hot(new));
                want[new] += 1;
            }
            let (mut sum, mut portable_sum) = ([0; 16], [0; 16]);
            Lanes::add_diff(plus, minus, &counts, &mut sum);
            lanes_u128::Lanes::add_diff(pplus, pminus, &portable_counts, &mut portable_sum);
            (counts, portable_counts) = (sum, portable_sum);
            assert_eq!(counts, want);
            assert_eq!(portable_counts, want);
        }
    }

    /// Along random games of every rule, `key_after(p)` is the key `make(p)` gives,
    /// for every empty square.
    #[test]
    fn key_after_is_the_key_of_the_made_move() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(43);
        for rule in Rule::ALL {
            let mut b = Board::new(15, 15, rule).expect("size");
            for _ in 0..40 {
                let empty: Vec<Pos> = b.all_squares().filter(|&p| b.is_empty(p)).collect();
                for &p in &empty {
                    let want = b.key_after(p);
                    b.make(p);
                    assert_eq!(b.key(), want);
                    b.unmake();
                }
                b.make(empty[rng.gen_range(0..empty.len())]);
            }
        }
    }

    /// Look-ahead stones (`place`, as the threat solvers and renju's rule checks put
    /// them) are not recorded for the vector sums, so that the frames above them (the
    /// solvers' own `make`s) have none; once they are all taken back, the sums brought
    /// up to date equal a rebuild, and so do those of later moves. The shipped
    /// freestyle network's table: rows of 64 numbers (the unrolled path).
    #[test]
    fn look_ahead_stones_leave_the_search_frames_vector_sums_exact() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(0x91ACE);
        let table = crate::eval::mlp::Mlp::builtin()
            .cell_vectors(Rule::Freestyle, crate::eval::mlp::Forbid::Off);
        assert_eq!(
            table.width(),
            64,
            "the shipped network's sums take the unrolled path"
        );
        for rule in [Rule::Freestyle, Rule::Renju] {
            let mut b = Board::new(15, 15, rule).expect("size");
            b.set_cell_vectors(Some(table));
            for _ in 0..60 {
                let empty: Vec<Pos> = b.all_squares().filter(|&p| b.is_empty(p)).collect();
                // A look-ahead: two placed stones with a made move between them.
                let (a, m, c) = (
                    empty[rng.gen_range(0..empty.len())],
                    empty[rng.gen_range(0..empty.len())],
                    empty[rng.gen_range(0..empty.len())],
                );
                if a != m && m != c && a != c {
                    b.place(a, b.side_to_move());
                    b.make(m);
                    b.refresh_vectors();
                    assert!(b.vector_sum(Color::Black).is_none(), "above a placed stone");
                    b.place(c, b.side_to_move());
                    b.lift(c);
                    b.unmake();
                    b.lift(a);
                }
                assert!(b.has_cell_vectors(table), "the board kept its vector sums");
                b.assert_consistent();
                let empty: Vec<Pos> = b.all_squares().filter(|&p| b.is_empty(p)).collect();
                b.make(empty[rng.gen_range(0..empty.len())]);
                b.assert_consistent();
                if rng.gen_bool(0.5) {
                    b.refresh_vectors();
                    assert!(b.vector_sum(Color::White).is_some());
                    b.assert_consistent();
                }
            }
        }
    }
}
