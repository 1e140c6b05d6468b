//! Per-colour vector sums over the empty cells, kept incrementally like the scalar cell
//! value sums ([`super::CellValues`]): each colour's cells map, by their class field
//! ([`super::Board::value_index`]), to a row of a table, and the board keeps the sum of
//! the rows of its empty cells per colour. A network evaluation reads these sums as its
//! first layer (an "accumulator"), so it costs a few hundred operations per node
//! instead of a pass over every cell.
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

    /// Row `r`.
    #[inline(always)]
    #[must_use]
    pub fn row(&self, r: usize) -> &[i16] {
        &self.rows[r * self.width..(r + 1) * self.width]
    }
}

/// The sums of one board: per frame, both colours' sums (`2 × width` numbers).
pub(super) struct VectorStack {
    pub(super) table: &'static CellVectors,
    sums: Vec<i16>,
    /// Whether the processor has AVX2 (checked once).
    avx2: bool,
}

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
            avx2,
        }
    }

    /// Colour index `c`'s sum at frame `f`.
    #[inline]
    pub(super) fn sum(&self, f: usize, c: usize) -> &[i16] {
        let w = self.table.width;
        &self.sums[(2 * f + c) * w..(2 * f + c + 1) * w]
    }

    /// Recompute frame `f`'s sums from the cells' states.
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
    }

    /// Frame `f + 1`'s sums from frame `f`'s and the move that made it: the cells of
    /// the stencil, their states before (`saved`) and after (`window`).
    #[inline]
    pub(super) fn update(
        &mut self,
        f: usize,
        far: bool,
        saved: &[Slot; STENCIL],
        window: &[Slot; super::WINDOW],
    ) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: the processor has AVX2 (checked at construction).
            unsafe { self.update_avx2(f, far, saved, window) };
            return;
        }
        self.update_any(f, far, saved, window);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn update_avx2(
        &mut self,
        f: usize,
        far: bool,
        saved: &[Slot; STENCIL],
        window: &[Slot; super::WINDOW],
    ) {
        self.update_any(f, far, saved, window);
    }

    #[inline(always)]
    fn update_any(
        &mut self,
        f: usize,
        far: bool,
        saved: &[Slot; STENCIL],
        window: &[Slot; super::WINDOW],
    ) {
        let t = self.table;
        let w = t.width;
        let (before, after) = self.sums.split_at_mut(2 * (f + 1) * w);
        let next = &mut after[..2 * w];
        next.copy_from_slice(&before[2 * f * w..]);
        let cells = if far { &CELLS_FAR } else { &CELLS_NEAR };
        for (s, &q) in saved.iter().zip(cells).take(records(far)) {
            let (old, new) = (s.st, window[q].st);
            if old == new {
                continue;
            }
            for c in 0..2 {
                let (a, b) = (t.row_of(c, old), t.row_of(c, new));
                if a != b {
                    let (ra, rb) = (t.row(a), t.row(b));
                    add_delta(&mut next[c * w..(c + 1) * w], rb, ra);
                }
            }
        }
    }
}

/// Row width whose updates are unrolled: a hidden layer of 32 (the shipped networks),
/// each colour's sum holding 64 numbers.
const UNROLLED: usize = 64;

/// `dst += plus - minus` (wrapping), every row `dst.len()` numbers long; rows of
/// [`UNROLLED`] numbers go through fixed-size arrays, which the compiler unrolls (13.6 %
/// fewer instructions in `bench 9` under callgrind).
#[inline(always)]
fn add_delta(dst: &mut [i16], plus: &[i16], minus: &[i16]) {
    if let (Ok(d), Ok(p), Ok(m)) = (
        <&mut [i16; UNROLLED]>::try_from(&mut *dst),
        <&[i16; UNROLLED]>::try_from(plus),
        <&[i16; UNROLLED]>::try_from(minus),
    ) {
        for k in 0..UNROLLED {
            d[k] = d[k].wrapping_add(p[k].wrapping_sub(m[k]));
        }
        return;
    }
    for ((s, x), y) in dst.iter_mut().zip(plus).zip(minus) {
        *s = s.wrapping_add(x.wrapping_sub(*y));
    }
}
