//! Experimental evaluation: a small network (one clipped-ReLU hidden layer) over the
//! learned evaluation's features — the counts of each cell combination of the side to
//! move and of the opponent ([`super::features::combos`], scaled by 1/4) and the threat
//! mask as a one-hot input. Its output is a logit of the side to move's expected score;
//! the value is that logit × [`LOGIT_SCALE`]. Selected with the key `mlp=FILE`; the file
//! (made outside the crate for now, see benches/RESULTS.md) is little-endian: `u32`
//! hidden size `h`, then `f32`s: the input weights (inputs × `h`, input-major), the `h`
//! hidden biases, the `h` output weights and the output bias.
//!
//! The cells' part of the hidden sums is kept by the board as it moves
//! ([`Board::set_cell_vectors`], prepared by [`crate::eval::prepare`]): per colour the
//! sum, over its empty cells, of the input rows of the cell's combination as the side
//! to move's and as the opponent's, in fixed point ([`QUANT`] per unit) so that the
//! sums are exact. An evaluation then adds the bias and the threat mask's row, clips
//! and takes the output: a few hundred operations. A board without those sums is
//! evaluated from scratch with the same integer rows (the same value).

use super::features::{
    combo_of_index, size_correction, threat_mask, COMBOS, REFERENCE_SIZE, THREATS,
};
use crate::board::{Board, CellVectors};
use crate::pattern::{Pattern4, RuleTables};
use crate::types::{Rule, Value, MAX_SIZE, MIN_SIZE, VALUE_MATE_IN_MAX};
use std::sync::OnceLock;

/// The shipped network (freestyle): see docs/learned-evaluation.md for how it was made.
static BUILTIN: &[u8] = include_bytes!("mlp_freestyle.bin");
/// The shipped renju network (the same docs).
static BUILTIN_RENJU: &[u8] = include_bytes!("mlp_renju.bin");

/// Inputs: own combinations, opponent combinations, threat masks.
pub const INPUTS: usize = 2 * COMBOS + THREATS;
/// Largest hidden size accepted.
pub const MAX_HIDDEN: usize = 64;
/// Evaluation units per logit: the hand-set evaluation predicts game results best at
/// sigmoid(value / 155) (benches/RESULTS.md), so a logit maps to about that many units.
pub const LOGIT_SCALE: f32 = 155.0;
/// Fixed-point units per unit of a cell input row (the rows, scaled by the inputs'
/// 1/4, are rounded to integers of this many units; the board's 16-bit sums then hold
/// hidden inputs within ±32, where the networks trained so far stay within ±12).
pub const QUANT: f32 = 1024.0;
/// Largest input weight accepted (a row entry must fit in `i16`).
const MAX_WEIGHT: f32 = 64.0;

/// A loaded network.
#[derive(Debug)]
pub struct Mlp {
    /// Where it was loaded from.
    pub source: String,
    /// The (rule, side) pairs of the square boards it evaluates (`None`: every rule and
    /// size, as for a file given by the user).
    only: Option<&'static [(Rule, usize)]>,
    /// The network that evaluates the positions this one does not (the shipped ones
    /// form a chain: freestyle and standard, then renju).
    next: Option<&'static Mlp>,
    h: usize,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
    /// The cell input rows in fixed point, per combination: own part (`h`), then
    /// opponent part (`h`); the board keeps their sums.
    vectors: CellVectors,
    /// The same rows for renju boards under [`Forbid::Own`] and [`Forbid::Both`]:
    /// black's forbidden-class fields map to rows without the own part, or to the
    /// zero row ([`renju_vectors`]).
    renju: [CellVectors; 2],
    /// Per board geometry (rule, width, height), the fixed-point hidden sums of
    /// [`size_correction`], made when a board of that geometry is first evaluated:
    /// black's and white's own parts, then their opponent parts (`4 h` numbers).
    offsets: Box<[OnceLock<Box<[i16]>>]>,
}

/// Board sides a geometry offset is kept for (`MIN_SIZE..=MAX_SIZE`).
const SIDES: usize = MAX_SIZE - MIN_SIZE + 1;

/// How the network reads renju black's forbidden-class cells (a double three, a double
/// four or an overline: [`Pattern4::Forbid`]). The cell combinations do not say whose
/// they are, so such a cell reads like white's winning double three or double four.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forbid {
    /// As their combination, like any cell.
    Off,
    /// Not as black's own cells when black is to move (black cannot play there); as
    /// their combination when white is to move.
    Own,
    /// Not at all: as cells with nothing on their lines.
    Both,
}

impl Forbid {
    /// Every reading, by its name (`off`, `own`, `both`).
    pub const ALL: [(Forbid, &'static str); 3] = [
        (Forbid::Off, "off"),
        (Forbid::Own, "own"),
        (Forbid::Both, "both"),
    ];

    /// The reading named `v`.
    #[must_use]
    pub fn parse(v: &str) -> Option<Forbid> {
        Forbid::ALL.iter().find(|(_, n)| *n == v).map(|(f, _)| *f)
    }

    /// The reading's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        Forbid::ALL
            .iter()
            .find(|(f, _)| *f == self)
            .map_or("off", |(_, n)| n)
    }

    /// Whether a forbidden-class cell of renju black counts as black's when `black_to_move`
    /// says who is to move (always outside renju).
    #[must_use]
    pub fn counts(self, black_to_move: bool) -> bool {
        match self {
            Forbid::Off => true,
            Forbid::Own => !black_to_move,
            Forbid::Both => false,
        }
    }
}

/// The rows and colour maps of a renju board under `forbid`: white's map and black's
/// other fields as on every board; each of black's forbidden-class fields to a row
/// that keeps the own part of its combination's row only if `forbid` counts the cell
/// with black to move, and the opponent part only if it counts it with white to move
/// ([`Forbid::counts`]): its own row, the zero row, or a row added per combination.
fn renju_vectors(h: usize, rows: &[i16], forbid: Forbid) -> Result<CellVectors, String> {
    let t = combo_of_index();
    let tables = RuleTables::get(Rule::Renju);
    let (own, opp) = (forbid.counts(true), forbid.counts(false));
    let mut rows = rows.to_vec();
    let mut added = vec![None; COMBOS];
    let mut black = t.to_vec();
    for (i, r) in black.iter_mut().enumerate() {
        let field = u32::try_from(i << 1).map_err(|e| e.to_string())?;
        if i == 0 || tables.hot().class(0, field) != Pattern4::Forbid {
            continue;
        }
        let k = usize::from(t[i]);
        let row = match (own, opp) {
            (true, true) => k,
            (false, false) => 0,
            _ => *added[k].get_or_insert_with(|| {
                let n = rows.len() / (2 * h);
                let keep = |part: bool, at: usize| {
                    let from = &rows[k * 2 * h + at..k * 2 * h + at + h];
                    if part {
                        from.to_vec()
                    } else {
                        vec![0; h]
                    }
                };
                let (a, b) = (keep(own, 0), keep(opp, h));
                rows.extend(a.into_iter().chain(b));
                n
            }),
        };
        *r = row.try_into().map_err(|_| "too many rows".to_string())?;
    }
    CellVectors::new(2 * h, [black, t.to_vec()], rows)
}

impl Mlp {
    /// Read a network file's bytes.
    ///
    /// # Errors
    /// A message when the size field or the length does not fit the format.
    pub fn parse(bytes: &[u8], source: &str) -> Result<Mlp, String> {
        let word = |i: usize| -> Option<[u8; 4]> { bytes.get(4 * i..4 * i + 4)?.try_into().ok() };
        let h = word(0).map(u32::from_le_bytes).ok_or("truncated header")? as usize;
        if h == 0 || h > MAX_HIDDEN {
            return Err(format!("hidden size {h} out of range 1..={MAX_HIDDEN}"));
        }
        let n = INPUTS * h + 2 * h + 1;
        if bytes.len() != 4 * (1 + n) {
            return Err(format!(
                "{} bytes, expected {} for hidden size {h}",
                bytes.len(),
                4 * (1 + n)
            ));
        }
        let f: Vec<f32> = (1..=n)
            .map(|i| f32::from_le_bytes(word(i).unwrap_or_default()))
            .collect();
        if f.iter().any(|x| !x.is_finite()) {
            return Err("a weight is not a finite number".into());
        }
        let (w1, rest) = f.split_at(INPUTS * h);
        if w1[..2 * COMBOS * h].iter().any(|x| x.abs() > MAX_WEIGHT) {
            return Err(format!("an input weight is beyond ±{MAX_WEIGHT}"));
        }
        let (b1, rest) = rest.split_at(h);
        let (w2, b2) = rest.split_at(h);
        // Row k: combination k's own weights, then its opponent weights; row 0 (the
        // empty combination, and every stone) zero, as the inputs leave it out.
        let mut rows = vec![0i16; COMBOS * 2 * h];
        for k in 1..COMBOS {
            for i in 0..h {
                let q = |w: f32| (w * 0.25 * QUANT).round() as i16;
                rows[k * 2 * h + i] = q(w1[k * h + i]);
                rows[k * 2 * h + h + i] = q(w1[(COMBOS + k) * h + i]);
            }
        }
        let map = combo_of_index().to_vec();
        let renju = [
            renju_vectors(h, &rows, Forbid::Own)?,
            renju_vectors(h, &rows, Forbid::Both)?,
        ];
        let vectors = CellVectors::new(2 * h, [map.clone(), map], rows)?;
        Ok(Mlp {
            source: source.to_string(),
            only: None,
            next: None,
            h,
            w1: w1.to_vec(),
            b1: b1.to_vec(),
            w2: w2.to_vec(),
            b2: b2[0],
            vectors,
            renju,
            offsets: (0..Rule::ALL.len() * SIDES * SIDES)
                .map(|_| OnceLock::new())
                .collect(),
        })
    }

    /// The shipped networks: one trained on freestyle positions, which evaluates
    /// freestyle 15 × 15 and 20 × 20 (on 20 × 20 since its inputs are counted as on
    /// 15 × 15) and standard 15 × 15 (it lost far more against PentaZen in renju than
    /// the tables: benches/RESULTS.md), followed by one trained on renju positions for
    /// renju 15 × 15 ([`Mlp::for_board`] picks).
    ///
    /// # Panics
    /// If a shipped file does not parse (a test checks that they do).
    pub fn builtin() -> &'static Mlp {
        static M: OnceLock<&'static Mlp> = OnceLock::new();
        M.get_or_init(|| {
            let renju = Mlp::shipped(BUILTIN_RENJU, "builtin renju", &[(Rule::Renju, 15)], None);
            Mlp::shipped(
                BUILTIN,
                "builtin",
                &[
                    (Rule::Freestyle, 15),
                    (Rule::Standard, 15),
                    (Rule::Freestyle, 20),
                ],
                Some(renju),
            )
        })
    }

    /// A shipped network for the square boards of `only` (rule, side), followed by
    /// `next`, alive for the process's lifetime.
    fn shipped(
        bytes: &[u8],
        source: &str,
        only: &'static [(Rule, usize)],
        next: Option<&'static Mlp>,
    ) -> &'static Mlp {
        let mut m = Mlp::parse(bytes, source).expect("a shipped network parses");
        m.only = Some(only);
        m.next = next;
        Box::leak(Box::new(m))
    }

    /// The network of this chain that evaluates `board`'s positions, if any (otherwise
    /// the tables do).
    #[must_use]
    pub fn for_board(&'static self, board: &Board) -> Option<&'static Mlp> {
        let mut m = Some(self);
        while let Some(n) = m {
            if n.applies(board) {
                return Some(n);
            }
            m = n.next;
        }
        None
    }

    /// Whether the network evaluates `board`'s positions (otherwise the tables do).
    #[must_use]
    pub fn applies(&self, board: &Board) -> bool {
        self.only.is_none_or(|only| {
            board.width() == board.height() && only.contains(&(board.rule(), board.width()))
        })
    }

    /// The cell rows a board of `rule` must keep the sums of for the fast evaluation
    /// under `forbid`.
    #[must_use]
    pub fn cell_vectors(&self, rule: Rule, forbid: Forbid) -> &CellVectors {
        match (rule, forbid) {
            (Rule::Renju, Forbid::Own) => &self.renju[0],
            (Rule::Renju, Forbid::Both) => &self.renju[1],
            _ => &self.vectors,
        }
    }

    /// Load `path` once for the process's lifetime (parameters hold `&'static`).
    ///
    /// # Errors
    /// The file cannot be read or parsed.
    pub fn load_static(path: &str) -> Result<&'static Mlp, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        let m = Mlp::parse(&bytes, path).map_err(|e| format!("{path}: {e}"))?;
        Ok(Box::leak(Box::new(m)))
    }

    /// The hidden-sum offsets of `board`'s geometry (`None` on a reference board, where
    /// they are zero).
    #[inline]
    fn offsets(&self, board: &Board) -> Option<&[i16]> {
        let (w, h) = (board.width(), board.height());
        if (w, h) == (REFERENCE_SIZE, REFERENCE_SIZE) {
            return None;
        }
        let slot = (board.rule().idx() * SIDES + (w - MIN_SIZE)) * SIDES + (h - MIN_SIZE);
        let cell = self.offsets.get(slot)?;
        Some(cell.get_or_init(|| {
            let d = size_correction(w, h, board.rule());
            let n = self.h;
            let mut out = vec![0i32; 4 * n];
            for c in 0..2 {
                for (k, &dk) in d[c].iter().enumerate().skip(1) {
                    if dk != 0 {
                        let row = self.vectors.row(k);
                        for i in 0..n {
                            out[c * n + i] += dk * i32::from(row[i]);
                            out[(2 + c) * n + i] += dk * i32::from(row[n + i]);
                        }
                    }
                }
            }
            // Wrapped to 16 bits like the board's sums, which they are added to.
            out.iter().map(|&x| x as i16).collect()
        }))
    }

    /// Make the offsets of `board`'s geometry now (before a search), so that the
    /// search's first evaluation on a new board size allocates nothing.
    pub fn warm(&self, board: &Board) {
        let _ = self.offsets(board);
    }

    /// The value of `board` for the side to move, renju black's forbidden cells read
    /// as `forbid` says.
    #[must_use]
    pub fn evaluate(&self, board: &Board, forbid: Forbid) -> Value {
        let me = board.side_to_move();
        let h = self.h;
        let table = self.cell_vectors(board.rule(), forbid);
        if h == FAST_HIDDEN && board.has_cell_vectors(table) {
            if let (Some(m), Some(o)) = (board.vector_sum(me), board.vector_sum(me.opp())) {
                return self.evaluate_fast(board, m, o);
            }
        }
        let mut own = [0i16; MAX_HIDDEN];
        let mut opp = [0i16; MAX_HIDDEN];
        match (board.vector_sum(me), board.vector_sum(me.opp())) {
            (Some(m), Some(o)) if board.has_cell_vectors(table) => {
                own[..h].copy_from_slice(&m[..h]);
                opp[..h].copy_from_slice(&o[h..]);
            }
            _ => {
                for p in board.all_squares().filter(|&p| board.is_empty(p)) {
                    let a = table.row_index(me.idx(), board.value_index(p, me));
                    let o = table.row_index(me.opp().idx(), board.value_index(p, me.opp()));
                    let (ra, ro) = (table.row(a), table.row(o));
                    for i in 0..h {
                        own[i] = own[i].wrapping_add(ra[i]);
                        opp[i] = opp[i].wrapping_add(ro[h + i]);
                    }
                }
            }
        }
        if let Some(off) = self.offsets(board) {
            let (m, o) = (me.idx(), me.opp().idx());
            for i in 0..h {
                own[i] = own[i].wrapping_add(off[m * h + i]);
                opp[i] = opp[i].wrapping_add(off[(2 + o) * h + i]);
            }
        }
        let threat = 2 * COMBOS + threat_mask(board, me);
        let row = &self.w1[threat * h..(threat + 1) * h];
        let mut out = self.b2;
        for i in 0..h {
            let a = self.b1[i] + (f32::from(own[i]) + f32::from(opp[i])) / QUANT + row[i];
            out += self.w2[i] * a.clamp(0.0, 1.0);
        }
        let limit = (VALUE_MATE_IN_MAX - 1) as f32;
        (out * LOGIT_SCALE).clamp(-limit, limit) as Value
    }
}

/// The hidden size of the shipped networks, evaluated through fixed-size arrays.
const FAST_HIDDEN: usize = 32;

impl Mlp {
    /// [`Mlp::evaluate`] for [`FAST_HIDDEN`] hidden units from the board's sums (`own`:
    /// the side to move's, `opp`: the opponent's): the same operations in the same
    /// order, on fixed-size arrays the compiler vectorises (the final sum stays in
    /// order, so the value is the same to the bit).
    #[inline]
    fn evaluate_fast(&self, board: &Board, own: &[i16], opp: &[i16]) -> Value {
        const H: usize = FAST_HIDDEN;
        let me = board.side_to_move();
        let fixed = |v: &[i16]| -> [i16; H] { v.try_into().expect("the hidden size") };
        let mut own = fixed(&own[..H]);
        let mut opp = fixed(&opp[H..2 * H]);
        if let Some(off) = self.offsets(board) {
            let (m, o) = (me.idx(), me.opp().idx());
            let (om, oo) = (
                fixed(&off[m * H..(m + 1) * H]),
                fixed(&off[(2 + o) * H..(3 + o) * H]),
            );
            for i in 0..H {
                own[i] = own[i].wrapping_add(om[i]);
                opp[i] = opp[i].wrapping_add(oo[i]);
            }
        }
        let threat = 2 * COMBOS + threat_mask(board, me);
        fn float(v: &[f32]) -> &[f32; H] {
            v.try_into().expect("the hidden size")
        }
        let row = float(&self.w1[threat * H..(threat + 1) * H]);
        let (b1, w2) = (float(&self.b1[..H]), float(&self.w2[..H]));
        let mut terms = [0f32; H];
        for i in 0..H {
            let a = b1[i] + (f32::from(own[i]) + f32::from(opp[i])) / QUANT + row[i];
            terms[i] = w2[i] * a.clamp(0.0, 1.0);
        }
        let mut out = self.b2;
        for t in terms {
            out += t;
        }
        let limit = (VALUE_MATE_IN_MAX - 1) as f32;
        (out * LOGIT_SCALE).clamp(-limit, limit) as Value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Color;

    fn bytes(h: u32, fill: f32) -> Vec<u8> {
        let n = INPUTS * h as usize + 2 * h as usize + 1;
        let mut v = h.to_le_bytes().to_vec();
        for _ in 0..n {
            v.extend_from_slice(&fill.to_le_bytes());
        }
        v
    }

    /// A network of hidden size `h` with pseudo-random weights in ±`scale`.
    fn random_bytes(h: u32, scale: f32, seed: u64) -> Vec<u8> {
        let n = INPUTS * h as usize + 2 * h as usize + 1;
        let mut x = seed;
        let mut v = h.to_le_bytes().to_vec();
        for _ in 0..n {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let u = (x >> 40) as f32 / (1u64 << 24) as f32;
            v.extend_from_slice(&((2.0 * u - 1.0) * scale).to_le_bytes());
        }
        v
    }

    #[test]
    fn a_position_reads_alike_on_boards_of_15_and_20() {
        // The same stones in the middle of a 15 × 15 and of a 20 × 20 board: the
        // network's inputs are counted as on 15 × 15, so the values agree up to the
        // few cells whose lines reach the smaller board's edges. Without the size
        // correction the 20 × 20 board has ~175 more lone-stone cells per colour and
        // the shipped network's value moves by about 100.
        use crate::types::Pos;
        let m: &'static Mlp = Box::leak(Box::new(Mlp::parse(BUILTIN, "x").expect("parse")));
        let stones = [(7, 7), (8, 8), (7, 9), (6, 8), (8, 9), (9, 9), (6, 10)];
        let value = |n: usize, kept: bool| {
            let mut b = Board::new(n, n, Rule::Freestyle).expect("board");
            if kept {
                b.set_cell_vectors(Some(m.cell_vectors(Rule::Freestyle, Forbid::Off)));
            }
            let o = (n - 15) / 2;
            for &(x, y) in &stones {
                b.make(Pos::new(x + o, y + o));
            }
            b.refresh_vectors();
            assert_eq!(b.vector_sum(Color::Black).is_some(), kept);
            m.evaluate(&b, Forbid::Off)
        };
        let small = value(15, true);
        for kept in [true, false] {
            let big = value(20, kept);
            assert!((big - small).abs() <= 25, "15: {small}, 20: {big}");
        }
        // The correction is zero on the reference board and not on another.
        let d = size_correction(15, 15, Rule::Freestyle);
        assert!(d.iter().flatten().all(|&x| x == 0));
        let d = size_correction(20, 20, Rule::Freestyle);
        assert_eq!(d[0].iter().sum::<i32>(), 225 - 400);
    }

    #[test]
    fn the_kept_sums_give_the_same_value_as_a_pass_over_the_cells() {
        use crate::types::Pos;
        // 16 hidden units go through the general loop, 32 (the shipped networks')
        // through the fixed-size one.
        // Renju under every reading of black's forbidden cells (their own maps).
        for (hidden, rule, n, forbid) in [
            (16, Rule::Freestyle, 15, Forbid::Off),
            (16, Rule::Renju, 15, Forbid::Off),
            (16, Rule::Renju, 15, Forbid::Own),
            (FAST_HIDDEN as u32, Rule::Renju, 15, Forbid::Own),
            (FAST_HIDDEN as u32, Rule::Renju, 15, Forbid::Both),
            (16, Rule::Freestyle, 20, Forbid::Off),
            (FAST_HIDDEN as u32, Rule::Freestyle, 15, Forbid::Off),
            (FAST_HIDDEN as u32, Rule::Freestyle, 20, Forbid::Own),
        ] {
            let m: &'static Mlp = Box::leak(Box::new(
                Mlp::parse(&random_bytes(hidden, 0.5, 7), "x").expect("parse"),
            ));
            let table = m.cell_vectors(rule, forbid);
            let mut kept = Board::new(n, n, rule).expect("board");
            kept.set_cell_vectors(Some(table));
            let mut plain = Board::new(n, n, rule).expect("board");
            let mut x = 12345u64;
            let mut differ = 0;
            let mut last = m.evaluate(&plain, forbid);
            for _ in 0..400 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                // Mostly moves, some takebacks; the values are compared now and then.
                if (x >> 20).is_multiple_of(5) && plain.move_count() > 0 {
                    kept.unmake();
                    plain.unmake();
                } else {
                    let p = Pos::new(3 + (x >> 33) as usize % 9, 3 + (x >> 45) as usize % 9);
                    if !plain.is_empty(p) || plain.move_count() > 50 {
                        continue;
                    }
                    kept.make(p);
                    plain.make(p);
                }
                if (x >> 25).is_multiple_of(3) {
                    assert!(kept.has_cell_vectors(table));
                    assert!(!plain.has_cell_vectors(table));
                    let v = m.evaluate(&plain, forbid);
                    // The sums brought up to date over the moves and takebacks since
                    // the last comparison (read by the evaluation, not a pass).
                    kept.refresh_vectors();
                    assert!(kept.vector_sum(Color::White).is_some());
                    assert_eq!(m.evaluate(&kept, forbid), v, "{rule:?}\n{plain}");
                    differ += usize::from(v != last);
                    last = v;
                }
            }
            // The values are not all the same (the sums are read at all).
            assert!(differ > 20, "{rule:?}: only {differ} changes");
        }
    }

    #[test]
    fn renju_blacks_forbidden_cells_leave_the_inputs_the_reading_names() {
        use crate::eval::features::{double_three_combo, DOUBLE_THREE_MOVES};
        use crate::types::Pos;
        // One hidden unit that counts the cells of the double-three combination (two
        // open threes), as the side to move's (own) and as the opponent's: the value
        // is 155 / 4 per cell (a quarter per count, the output weight 1).
        let k = double_three_combo();
        let mut w = vec![0f32; INPUTS + 3];
        w[k] = 1.0;
        w[COMBOS + k] = 1.0;
        w[INPUTS + 1] = 1.0; // the output weight
        let mut bytes = 1u32.to_le_bytes().to_vec();
        for x in w {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        let m: &'static Mlp = Box::leak(Box::new(Mlp::parse(&bytes, "x").expect("parse")));
        // Black's two open twos cross at 7,7: a double three, forbidden to black.
        let mut b = Board::new(15, 15, Rule::Renju).expect("board");
        for &(x, y) in &DOUBLE_THREE_MOVES[..7] {
            b.make(Pos::new(x, y));
        }
        assert_eq!(b.pattern4(Pos::new(7, 7), Color::Black), Pattern4::Forbid);
        let per_cell = (0.25 * LOGIT_SCALE) as Value;
        let value = |b: &Board, forbid| {
            let mut kept = b.duplicate();
            kept.set_cell_vectors(Some(m.cell_vectors(Rule::Renju, forbid)));
            kept.refresh_vectors();
            let v = m.evaluate(b, forbid);
            assert_eq!(m.evaluate(&kept, forbid), v);
            v
        };
        // White to move: black's forbidden cell is an opponent cell, left out only
        // under `both`.
        assert_eq!(value(&b, Forbid::Off), per_cell);
        assert_eq!(value(&b, Forbid::Own), per_cell);
        assert_eq!(value(&b, Forbid::Both), 0);
        // Black to move: its own forbidden cell counts only under `off`.
        let (x, y) = DOUBLE_THREE_MOVES[7];
        b.make(Pos::new(x, y));
        assert_eq!(value(&b, Forbid::Off), per_cell);
        assert_eq!(value(&b, Forbid::Own), 0);
        assert_eq!(value(&b, Forbid::Both), 0);
        // Any network: the readings differ on this renju board and not on the same
        // stones in freestyle, which has no forbidden cells.
        let r: &'static Mlp = Box::leak(Box::new(
            Mlp::parse(&random_bytes(16, 0.5, 3), "r").expect("parse"),
        ));
        assert_ne!(r.evaluate(&b, Forbid::Off), r.evaluate(&b, Forbid::Own));
        let mut f = Board::new(15, 15, Rule::Freestyle).expect("board");
        for &(x, y) in &DOUBLE_THREE_MOVES[..8] {
            f.make(Pos::new(x, y));
        }
        let v = r.evaluate(&f, Forbid::Off);
        assert_eq!(r.evaluate(&f, Forbid::Own), v);
        assert_eq!(r.evaluate(&f, Forbid::Both), v);
    }

    #[test]
    fn the_shipped_networks_cover_freestyle_15_and_20_standard_and_renju_15() {
        let m = Mlp::builtin();
        assert_eq!(m.source, "builtin");
        let board = |n, rule| Board::new(n, n, rule).expect("board");
        let pick = |n, rule| m.for_board(&board(n, rule)).map(|x| x.source.as_str());
        assert_eq!(pick(15, Rule::Freestyle), Some("builtin"));
        assert_eq!(pick(15, Rule::Standard), Some("builtin"));
        assert_eq!(pick(20, Rule::Freestyle), Some("builtin"));
        assert_eq!(pick(15, Rule::Renju), Some("builtin renju"));
        assert!(!m.applies(&board(15, Rule::Renju)));
        for (n, rule) in [
            (19, Rule::Freestyle),
            (20, Rule::Standard),
            (20, Rule::Renju),
            (15, Rule::Caro8),
        ] {
            assert_eq!(pick(n, rule), None, "{n} {rule:?}");
        }
        // A file given by the user evaluates every rule and size.
        let file: &'static Mlp = Box::leak(Box::new(Mlp::parse(BUILTIN, "x").expect("parse")));
        for (n, rule) in [(15, Rule::Renju), (20, Rule::Freestyle), (15, Rule::Caro8)] {
            assert_eq!(
                file.for_board(&board(n, rule)).map(|x| x.source.as_str()),
                Some("x")
            );
        }
    }

    #[test]
    fn a_network_file_of_the_wrong_length_or_size_is_refused() {
        assert!(Mlp::parse(&bytes(4, 0.1), "x").is_ok());
        let mut short = bytes(4, 0.1);
        short.pop();
        assert!(Mlp::parse(&short, "x").is_err());
        assert!(Mlp::parse(&bytes(0, 0.1), "x").is_err());
        assert!(Mlp::parse(&bytes(4, f32::NAN), "x").is_err());
        // Cell weights beyond what the board's 16-bit rows hold.
        assert!(Mlp::parse(&bytes(4, 100.0), "x").is_err());
    }

    #[test]
    fn the_output_bias_alone_gives_its_logit_times_the_scale() {
        // All weights zero but the output bias: every position is worth bias × scale.
        let mut b = bytes(2, 0.0);
        let n = b.len();
        b[n - 4..].copy_from_slice(&0.5f32.to_le_bytes());
        let m = Mlp::parse(&b, "x").expect("parse");
        let mut board = Board::new(15, 15, crate::types::Rule::Freestyle).expect("board");
        board.make(crate::types::Pos::new(7, 7));
        assert_eq!(
            m.evaluate(&board, Forbid::Off),
            (0.5 * LOGIT_SCALE) as Value
        );
    }
}
