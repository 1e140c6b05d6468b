//! Experimental evaluation: a small network (one clipped-ReLU hidden layer) over the
//! learned evaluation's features — the counts of each cell combination of the side to
//! move and of the opponent ([`super::features::combos`], scaled by 1/4) and the threat
//! mask as a one-hot input. Its output is a logit of the side to move's expected score;
//! the value is that logit × [`LOGIT_SCALE`]. Selected with the key `mlp=FILE`; the file
//! (made outside the crate for now, see benches/RESULTS.md) is little-endian: `u32`
//! hidden size `h`, then `f32`s: the input weights (inputs × `h`, input-major), the `h`
//! hidden biases, the `h` output weights and the output bias.
//!
//! The hidden sums are computed from scratch at each evaluation (every empty cell's two
//! combinations): simple and slower than the tables; an incremental accumulator is the
//! next step if it plays better.

use super::features::{combo_of_index, threat_mask, COMBOS, THREATS};
use crate::board::Board;
use crate::types::{Value, VALUE_MATE_IN_MAX};

/// Inputs: own combinations, opponent combinations, threat masks.
pub const INPUTS: usize = 2 * COMBOS + THREATS;
/// Largest hidden size accepted.
pub const MAX_HIDDEN: usize = 64;
/// Evaluation units per logit: the hand-set evaluation predicts game results best at
/// sigmoid(value / 155) (benches/RESULTS.md), so a logit maps to about that many units.
pub const LOGIT_SCALE: f32 = 155.0;

/// A loaded network.
#[derive(Debug)]
pub struct Mlp {
    /// Where it was loaded from.
    pub source: String,
    h: usize,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
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
        let (b1, rest) = rest.split_at(h);
        let (w2, b2) = rest.split_at(h);
        Ok(Mlp {
            source: source.to_string(),
            h,
            w1: w1.to_vec(),
            b1: b1.to_vec(),
            w2: w2.to_vec(),
            b2: b2[0],
        })
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

    fn add_row(&self, acc: &mut [f32; MAX_HIDDEN], input: usize, c: f32) {
        let row = &self.w1[input * self.h..(input + 1) * self.h];
        for (a, w) in acc.iter_mut().zip(row) {
            *a += c * w;
        }
    }

    /// The value of `board` for the side to move.
    #[must_use]
    pub fn evaluate(&self, board: &Board) -> Value {
        let me = board.side_to_move();
        let t = combo_of_index();
        let mut acc = [0f32; MAX_HIDDEN];
        acc[..self.h].copy_from_slice(&self.b1);
        for p in board.all_squares() {
            if !board.is_empty(p) {
                continue;
            }
            let a = usize::from(t[board.value_index(p, me)]);
            if a > 0 {
                self.add_row(&mut acc, a, 0.25);
            }
            let o = usize::from(t[board.value_index(p, me.opp())]);
            if o > 0 {
                self.add_row(&mut acc, COMBOS + o, 0.25);
            }
        }
        self.add_row(&mut acc, 2 * COMBOS + threat_mask(board, me), 1.0);
        let mut out = self.b2;
        for (a, w) in acc[..self.h].iter().zip(&self.w2) {
            out += w * a.clamp(0.0, 1.0);
        }
        let limit = (VALUE_MATE_IN_MAX - 1) as f32;
        (out * LOGIT_SCALE).clamp(-limit, limit) as Value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(h: u32, fill: f32) -> Vec<u8> {
        let n = INPUTS * h as usize + 2 * h as usize + 1;
        let mut v = h.to_le_bytes().to_vec();
        for _ in 0..n {
            v.extend_from_slice(&fill.to_le_bytes());
        }
        v
    }

    #[test]
    fn a_network_file_of_the_wrong_length_or_size_is_refused() {
        assert!(Mlp::parse(&bytes(4, 0.1), "x").is_ok());
        let mut short = bytes(4, 0.1);
        short.pop();
        assert!(Mlp::parse(&short, "x").is_err());
        assert!(Mlp::parse(&bytes(0, 0.1), "x").is_err());
        assert!(Mlp::parse(&bytes(4, f32::NAN), "x").is_err());
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
        assert_eq!(m.evaluate(&board), (0.5 * LOGIT_SCALE) as Value);
    }
}
