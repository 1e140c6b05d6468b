//! Per-colour vector sums over the empty cells, kept incrementally like the scalar cell
//! value sums ([`super::CellValues`]): each colour's cells map, by their class field
//! ([`super::Board::value_index`]), to a row of a table, and the board keeps the sum of
//! the rows of its empty cells per colour. A network evaluation reads these sums as its
//! first layer (an "accumulator"), so it costs a few hundred operations per node
//! instead of a pass over every cell. A move only records what it changed; the sums
//! are computed when an evaluation asks for them ([`VectorStack::refresh`], through
//! [`super::Board::refresh_vectors`]), so the many frames no evaluation reads cost
//! next to nothing.
//!
//! 16-bit integers added with wraparound: the sums are exact modulo 2^16 whatever the
//! order of the moves that led to a position (the search stays deterministic, and the
//! rebuild equals the increments), and a table whose true sums stay within `i16` reads
//! them exactly. 16 bits halve the work of 32 (a move changes ~25 rows of each of up
//! to 128 numbers); where the processor has AVX2 the update uses it.

use super::{value_index, Slot, CELL_VALUE_FIELDS, REACH, STENCIL};
use crate::pattern::HALF;
use crate::types::Dir;

/// Widest row accepted.
pub const MAX_WIDTH: usize = 128;

/// The table: per colour, the row of every class field; the rows themselves.
pub struct CellVectors {
    width: usize,
    map: [Vec<u16>; 2],
    rows: Vec<i16>,
}

impl std::fmt::Debug for CellVectors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "CellVectors({} rows of {})",
            self.rows.len() / self.width,
            self.width
        )
    }
}

impl CellVectors {
    /// A table of `rows.len() / width` rows of `width` numbers; `map[c][i]` is the row
    /// of colour index `c`'s cells whose field index is `i`.
    ///
    /// # Errors
    /// A width out of `1..=MAX_WIDTH`, rows not a whole number, a map that is not
    /// [`CELL_VALUE_FIELDS`] long or names a missing row, or a non-zero row for field 0
    /// (the field of every stone and of empty cells with nothing on any line, which the
    /// sums leave out).
    pub fn new(width: usize, map: [Vec<u16>; 2], rows: Vec<i16>) -> Result<CellVectors, String> {
        if !(1..=MAX_WIDTH).contains(&width) || !rows.len().is_multiple_of(width) {
            return Err(format!("bad width {width} for {} numbers", rows.len()));
        }
        let n = rows.len() / width;
        for m in &map {
            if m.len() != CELL_VALUE_FIELDS || m.iter().any(|&r| usize::from(r) >= n) {
                return Err("a map does not fit the fields or the rows".into());
            }
            let zero = usize::from(m[0]) * width;
            if rows[zero..zero + width].iter().any(|&x| x != 0) {
                return Err("the row of field 0 is not zero".into());
            }
        }
        Ok(CellVectors { width, map, rows })
    }

    /// Numbers per row (and per colour's sum).
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    /// The row number of colour index `c`'s cell with packed state `st`.
    #[inline(always)]
    fn row_of(&self, c: usize, st: u64) -> usize {
        usize::from(self.map[c][value_index(st, c)])
    }

    /// The row number of colour index `c`'s cells whose field index is `i`.
    #[inline]
    #[must_use]
    pub fn row_index(&self, c: usize, i: usize) -> usize {
        usize::from(self.map[c & 1][i & (CELL_VALUE_FIELDS - 1)])
    }

    /// Row `r`.
    #[inline(always)]
    #[must_use]
    pub fn row(&self, r: usize) -> &[i16] {
        &self.rows[r * self.width..(r + 1) * self.width]
    }
}

/// The sums of one board: per frame, both colours' sums (`2 × width` numbers), brought
/// up to date lazily. A move only records the states its stencil's cells take
/// ([`VectorStack::record`]); the sums of a frame are computed when an evaluation asks
/// for them ([`VectorStack::refresh`]), from the last frame whose sums are exact and the
/// moves recorded since. Most frames of a search are never evaluated (interior nodes,
/// leaves decided by the threat counts, the threat solvers' moves): in the bench's
/// positions fewer than half.
pub(super) struct VectorStack {
    pub(super) table: &'static CellVectors,
    sums: Vec<i16>,
    /// Per frame `f`: the states the move from `f` to `f + 1` left in its stencil's
    /// cells, by record (the states before it are the board frame's `saved`).
    after: Vec<[u64; STENCIL]>,
    /// Per frame `f`: how the move from `f` was recorded: [`NONE`] (a look-ahead stone:
    /// the frames above it cannot be computed), [`NEAR`] or [`FAR`] (its stencil).
    kind: Vec<u8>,
    /// The frames `0..=valid` below the board's top hold exact sums.
    valid: usize,
    /// Whether the processor has AVX2 (checked once).
    avx2: bool,
}

/// [`VectorStack::kind`]: not recorded.
const NONE: u8 = 0;
/// [`VectorStack::kind`]: recorded without the cells 5 steps away.
const NEAR: u8 = 1;
/// [`VectorStack::kind`]: recorded with the cells 5 steps away.
const FAR: u8 = 2;

/// Per stencil record (see `super::record`), the window offset of its cell, with and
/// without the cells 5 steps away; records past the stencil's length are never read.
const fn record_cells(far: bool) -> [usize; STENCIL] {
    let mut t = [REACH; STENCIL];
    let h = if far { HALF } else { HALF - 1 };
    let mut d = 0;
    while d < 4 {
        let off = Dir::ALL[d].offset();
        let mut k = -h;
        while k <= h {
            if k != 0 || d == 0 {
                t[super::record(far, d, k)] = (REACH as i32 + off * k) as usize;
            }
            k += 1;
        }
        d += 1;
    }
    t
}
const CELLS_FAR: [usize; STENCIL] = record_cells(true);
const CELLS_NEAR: [usize; STENCIL] = record_cells(false);

/// Records a frame holds, with and without the cells 5 steps away.
const fn records(far: bool) -> usize {
    let h = if far { HALF } else { HALF - 1 } as usize;
    8 * h + 1
}

impl VectorStack {
    pub(super) fn new(table: &'static CellVectors, frames: usize) -> VectorStack {
        #[cfg(target_arch = "x86_64")]
        let avx2 = std::arch::is_x86_feature_detected!("avx2");
        #[cfg(not(target_arch = "x86_64"))]
        let avx2 = false;
        VectorStack {
            table,
            sums: vec![0; frames * 2 * table.width],
            after: vec![[0; STENCIL]; frames],
            kind: vec![NONE; frames],
            valid: 0,
            avx2,
        }
    }

    /// Colour index `c`'s sum at frame `f`, if it is exact (`f` at most
    /// [`VectorStack::valid`]; see [`VectorStack::refresh`]).
    #[inline]
    pub(super) fn sum(&self, f: usize, c: usize) -> Option<&[i16]> {
        let w = self.table.width;
        (f <= self.valid).then(|| &self.sums[(2 * f + c) * w..(2 * f + c + 1) * w])
    }

    /// Recompute frame `f`'s sums from the cells' states (the frames below it are
    /// not exact afterwards: only called on a board without moves).
    pub(super) fn rebuild(&mut self, f: usize, cells: impl Iterator<Item = u64>) {
        let t = self.table;
        let w = t.width;
        let out = &mut self.sums[2 * f * w..2 * (f + 1) * w];
        out.fill(0);
        for st in cells {
            for c in 0..2 {
                let row = t.row(t.row_of(c, st));
                for (s, x) in out[c * w..(c + 1) * w].iter_mut().zip(row) {
                    *s = s.wrapping_add(*x);
                }
            }
        }
        self.valid = f;
    }

    /// The move from frame `f` to `f + 1`: keep the states it left in its stencil's
    /// cells (`window`, around the stone), for [`VectorStack::refresh`].
    #[inline]
    pub(super) fn record(&mut self, f: usize, far: bool, window: &[Slot; super::WINDOW]) {
        let cells = if far { &CELLS_FAR } else { &CELLS_NEAR };
        let a = &mut self.after[f];
        for (x, &q) in a.iter_mut().zip(cells).take(records(far)) {
            *x = window[q].st;
        }
        self.kind[f] = if far { FAR } else { NEAR };
        self.valid = self.valid.min(f);
    }

    /// A stone put on frame `f` without a record (a look-ahead stone): the frames
    /// above it have no sums until they are made again.
    #[inline]
    pub(super) fn forget(&mut self, f: usize) {
        self.kind[f] = NONE;
        self.valid = self.valid.min(f);
    }

    /// Bring the sums up to frame `top` from the last exact frame and the recorded
    /// moves since (`saved(g)`: the board frame `g`'s states before its move). False
    /// when a move on the way was not recorded (the sums of `top` stay unknown).
    pub(super) fn refresh<'a>(
        &mut self,
        top: usize,
        saved: impl Fn(usize) -> &'a [Slot; STENCIL],
    ) -> bool {
        let w = self.table.width;
        while self.valid < top {
            let g = self.valid;
            if self.kind[g] == NONE {
                return false;
            }
            let (before, after) = self.sums.split_at_mut(2 * (g + 1) * w);
            let next = &mut after[..2 * w];
            next.copy_from_slice(&before[2 * g * w..]);
            let far = self.kind[g] == FAR;
            apply(self.table, self.avx2, next, far, saved(g), &self.after[g]);
            self.valid = g + 1;
        }
        true
    }

    /// Frame `top`'s sums as [`VectorStack::refresh`] would compute them, without
    /// changing the stack (for consistency checks).
    pub(super) fn peek<'a>(
        &self,
        top: usize,
        saved: impl Fn(usize) -> &'a [Slot; STENCIL],
    ) -> Option<Vec<i16>> {
        let w = self.table.width;
        let from = self.valid.min(top);
        let mut buf = self.sums[2 * from * w..2 * (from + 1) * w].to_vec();
        for g in from..top {
            if self.kind[g] == NONE {
                return None;
            }
            let far = self.kind[g] == FAR;
            apply(
                self.table,
                self.avx2,
                &mut buf,
                far,
                saved(g),
                &self.after[g],
            );
        }
        Some(buf)
    }
}

/// Add to both colours' sums `sums` (`2 × width` numbers) the rows of the stencil's
/// cells in their states after a move (`after`) less those before it (`saved`).
#[inline]
fn apply(
    t: &CellVectors,
    avx2: bool,
    sums: &mut [i16],
    far: bool,
    saved: &[Slot; STENCIL],
    after: &[u64; STENCIL],
) {
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: the processor has AVX2 (checked at construction).
        unsafe { apply_avx2(t, sums, far, saved, after) };
        return;
    }
    let _ = avx2;
    apply_any(t, sums, far, saved, after);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn apply_avx2(
    t: &CellVectors,
    sums: &mut [i16],
    far: bool,
    saved: &[Slot; STENCIL],
    after: &[u64; STENCIL],
) {
    apply_any(t, sums, far, saved, after);
}

#[inline(always)]
fn apply_any(
    t: &CellVectors,
    sums: &mut [i16],
    far: bool,
    saved: &[Slot; STENCIL],
    after: &[u64; STENCIL],
) {
    let w = t.width;
    // The changed rows first, per colour (row numbers come from the `u16` maps).
    let mut pairs = [[(0u16, 0u16); STENCIL]; 2];
    let mut len = [0usize; 2];
    for (s, &new) in saved.iter().zip(after).take(records(far)) {
        let old = s.st;
        if old == new {
            continue;
        }
        for c in 0..2 {
            let (a, b) = (t.row_of(c, old), t.row_of(c, new));
            if a != b {
                pairs[c][len[c]] = (a as u16, b as u16);
                len[c] += 1;
            }
        }
    }
    for c in 0..2 {
        let dst = &mut sums[c * w..(c + 1) * w];
        let pairs = &pairs[c][..len[c]];
        let rows = |&(a, b): &(u16, u16)| (t.row(usize::from(a)), t.row(usize::from(b)));
        if let Ok(dst) = <&mut [i16; UNROLLED]>::try_from(&mut *dst) {
            // The sum kept in registers while its rows are added (one load and one
            // store per colour, not per row).
            let mut acc = *dst;
            for (ra, rb) in pairs.iter().map(rows) {
                let ra = <&[i16; UNROLLED]>::try_from(ra).expect("rows of the sums' width");
                let rb = <&[i16; UNROLLED]>::try_from(rb).expect("rows of the sums' width");
                for k in 0..UNROLLED {
                    acc[k] = acc[k].wrapping_add(rb[k].wrapping_sub(ra[k]));
                }
            }
            *dst = acc;
        } else {
            for (ra, rb) in pairs.iter().map(rows) {
                for ((s, x), y) in dst.iter_mut().zip(rb).zip(ra) {
                    *s = s.wrapping_add(x.wrapping_sub(*y));
                }
            }
        }
    }
}

/// Row width whose updates are unrolled and kept in registers: a hidden layer of 32 (the
/// shipped networks), each colour's sum holding 64 numbers.
const UNROLLED: usize = 64;
