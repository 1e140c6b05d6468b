//! The learned evaluation's weights: the file format, the weights compiled into the
//! binary, and loading another file for experiments.
//!
//! # File format (little-endian)
//!
//! | bytes | field |
//! |---|---|
//! | 8 | `SNTEVAL1` |
//! | 2, 2 | [`COMBOS`] (330), [`THREATS`] (2048) |
//! | 1 | rules (5, in [`Rule::ALL`] order: freestyle, standard, renju, caro8, caro9) |
//! | 3 | reserved (0) |
//! | per rule | own values of black's combinations (330 × i16), of white's, opponent values of black's, of white's (4 × 330 × i16); threat values with black to move (2048 × i16), with white to move (2048 × i16) |
//! | 4 | FNV-1a (32-bit) of every byte before it |
//!
//! 54,180 bytes. Values are in evaluation units (sigmoid(v / [`super::SCALE`]) is the
//! expected score). The evaluation, for the side to move, is the sum of the own values
//! of its combinations over the empty cells, less the sum of the opponent values of the
//! opponent's combinations, plus the value of its threat mask
//! ([`super::features::threat_mask`]).

use super::features::{combo_of_index, COMBOS, THREATS};
use crate::board::{CellValues, CELL_VALUE_FIELDS};
use crate::types::Rule;
use std::sync::OnceLock;

/// The header of a weight file.
pub const MAGIC: &[u8; 8] = b"SNTEVAL1";
/// Bytes of a weight file.
pub const FILE_BYTES: usize = 16 + Rule::ALL.len() * (4 * COMBOS + 2 * THREATS) * 2 + 4;

/// The weights shipped in the binary (`src/eval/weights.bin`; how they were made: see
/// `docs/learned-evaluation.md`).
static BUILTIN: &[u8] = include_bytes!("weights.bin");

/// The weights of one rule.
#[derive(Clone, PartialEq, Eq)]
pub struct RuleWeights {
    /// Per colour (black, white): the value of each cell combination of the side to
    /// move.
    pub own: [[i16; COMBOS]; 2],
    /// Per colour: the value (subtracted) of each cell combination of the opponent.
    pub opp: [[i16; COMBOS]; 2],
    /// Per colour to move: the value of each threat mask.
    pub threat: [[i16; THREATS]; 2],
}

impl RuleWeights {
    /// All zero.
    #[must_use]
    pub fn zero() -> RuleWeights {
        RuleWeights {
            own: [[0; COMBOS]; 2],
            opp: [[0; COMBOS]; 2],
            threat: [[0; THREATS]; 2],
        }
    }
}

/// A full set of weights and the board tables made from them.
pub struct Weights {
    /// Per rule ([`Rule::idx`]).
    pub rules: Vec<RuleWeights>,
    /// Per rule: the cell values the board sums ([`crate::board::CellValues`]).
    cells: Vec<Box<CellValues>>,
    /// Where they came from (`built-in` or a path).
    pub source: String,
}

impl std::fmt::Debug for Weights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Weights({})", self.source)
    }
}

/// The board's cell value of a combination: its own value in the low 32 bits, its
/// opponent value above (the sums unpack with [`unpack`]).
#[must_use]
pub fn pack(own: i16, opp: i16) -> i64 {
    i64::from(own) + (i64::from(opp) << 32)
}

/// A sum of [`pack`]ed values as (own sum, opponent sum): exact while the own sum
/// stays within ±2^31.
#[inline]
#[must_use]
pub fn unpack(sum: i64) -> (i64, i64) {
    let own = i64::from(sum as i32);
    (own, (sum - own) >> 32)
}

/// FNV-1a, 32 bits.
fn fnv1a(data: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in data {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

impl Weights {
    /// Weights from per-rule values.
    #[must_use]
    pub fn new(rules: Vec<RuleWeights>, source: &str) -> Weights {
        assert_eq!(rules.len(), Rule::ALL.len());
        let map = combo_of_index();
        let cells = rules
            .iter()
            .map(|r| {
                let mut v = Box::new(CellValues([[0; CELL_VALUE_FIELDS]; 2]));
                for c in 0..2 {
                    for i in 1..CELL_VALUE_FIELDS {
                        let k = usize::from(map[i]);
                        v.0[c][i] = pack(r.own[c][k], r.opp[c][k]);
                    }
                }
                v
            })
            .collect();
        Weights {
            rules,
            cells,
            source: source.to_string(),
        }
    }

    /// The weights of `rule`.
    #[inline]
    #[must_use]
    pub fn rule(&self, rule: Rule) -> &RuleWeights {
        &self.rules[rule.idx()]
    }

    /// The board's cell values for `rule`.
    #[must_use]
    pub fn cell_values(&self, rule: Rule) -> &CellValues {
        &self.cells[rule.idx()]
    }

    /// The file image.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(COMBOS as u16).to_le_bytes());
        out.extend_from_slice(&(THREATS as u16).to_le_bytes());
        out.extend_from_slice(&[Rule::ALL.len() as u8, 0, 0, 0]);
        for r in &self.rules {
            for v in r
                .own
                .iter()
                .chain(&r.opp)
                .flatten()
                .chain(r.threat.iter().flatten())
            {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        let h = fnv1a(&out);
        out.extend_from_slice(&h.to_le_bytes());
        out
    }

    /// Parse a file image.
    ///
    /// # Errors
    /// A message saying what is wrong: size, header, layout or checksum.
    pub fn from_bytes(data: &[u8], source: &str) -> Result<Weights, String> {
        if data.len() < 16 || &data[..8] != MAGIC {
            return Err(format!("{source}: not a Sente weight file"));
        }
        let combos = u16::from_le_bytes([data[8], data[9]]);
        let threats = u16::from_le_bytes([data[10], data[11]]);
        if usize::from(combos) != COMBOS
            || usize::from(threats) != THREATS
            || usize::from(data[12]) != Rule::ALL.len()
        {
            return Err(format!(
                "{source}: layout {combos} combinations, {threats} threat masks, {} rules; \
                 this engine needs {COMBOS}, {THREATS}, {}",
                data[12],
                Rule::ALL.len()
            ));
        }
        if data.len() != FILE_BYTES {
            return Err(format!(
                "{source}: {} bytes, expected {FILE_BYTES} (truncated or padded)",
                data.len()
            ));
        }
        let (body, sum) = data.split_at(FILE_BYTES - 4);
        let want = u32::from_le_bytes([sum[0], sum[1], sum[2], sum[3]]);
        if fnv1a(body) != want {
            return Err(format!("{source}: checksum mismatch (corrupt file)"));
        }
        let mut vals = body[16..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut rules = Vec::new();
        for _ in Rule::ALL {
            let mut r = RuleWeights::zero();
            let RuleWeights { own, opp, threat } = &mut r;
            for v in own
                .iter_mut()
                .chain(opp.iter_mut())
                .flatten()
                .chain(threat.iter_mut().flatten())
            {
                *v = vals.next().ok_or_else(|| format!("{source}: short"))?;
            }
            rules.push(r);
        }
        Ok(Weights::new(rules, source))
    }

    /// Read a weight file.
    ///
    /// # Errors
    /// The file cannot be read or is not a valid weight file.
    pub fn load(path: &str) -> Result<Weights, String> {
        let data = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        Weights::from_bytes(&data, path)
    }

    /// The weights compiled into the binary.
    #[must_use]
    pub fn builtin() -> &'static Weights {
        static W: OnceLock<Weights> = OnceLock::new();
        W.get_or_init(|| {
            Weights::from_bytes(BUILTIN, "built-in").unwrap_or_else(|e| {
                // The build ships a valid file (a test checks it); never reached.
                log::error!("{e}");
                Weights::new(vec![RuleWeights::zero(); Rule::ALL.len()], "zero")
            })
        })
    }

    /// The weights of the file `path`, kept for the rest of the process; the
    /// built-in ones (and the error) if it cannot be used.
    ///
    /// # Errors
    /// The file's problem; the built-in weights are returned with it.
    pub fn load_static(path: &str) -> Result<&'static Weights, (&'static Weights, String)> {
        match Weights::load(path) {
            Ok(w) => Ok(Box::leak(Box::new(w))),
            Err(e) => Err((Weights::builtin(), e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Weights {
        let mut rules = vec![RuleWeights::zero(); Rule::ALL.len()];
        for (i, r) in rules.iter_mut().enumerate() {
            for (k, v) in r.own[0].iter_mut().enumerate() {
                *v = (k as i16) * 3 - 100 + i as i16;
            }
            r.opp[1][7] = -5;
            r.threat[1][2047] = 1234;
            r.threat[0][1] = -321;
        }
        Weights::new(rules, "sample")
    }

    #[test]
    fn weight_file_round_trips() {
        let w = sample();
        let bytes = w.to_bytes();
        assert_eq!(bytes.len(), FILE_BYTES);
        let back = Weights::from_bytes(&bytes, "mem").unwrap();
        assert!(back.rules == w.rules);
        assert_eq!(back.to_bytes(), bytes);
        // The board table packs the own and opponent values of each field.
        let c = back.cell_values(Rule::Renju);
        let k = (1..CELL_VALUE_FIELDS)
            .find(|&i| combo_of_index()[i] == 7)
            .unwrap();
        assert_eq!(unpack(c.0[1][k]), (0, -5));
        assert_eq!(unpack(c.0[0][k]), (i64::from(7 * 3 - 100 + 2), 0));
        assert_eq!(c.0[0][0], 0);
        // Sums unpack exactly, negative parts included.
        let sum = pack(-300, 25) + pack(100, -700) + pack(-5, 1);
        assert_eq!(unpack(sum), (-205, -674));
    }

    #[test]
    fn corrupt_or_truncated_weight_files_are_refused_with_a_reason() {
        let bytes = sample().to_bytes();
        let short = Weights::from_bytes(&bytes[..bytes.len() - 10], "short").unwrap_err();
        assert!(short.contains("truncated"), "{short}");
        let mut flipped = bytes.clone();
        flipped[1000] ^= 0x40;
        let bad = Weights::from_bytes(&flipped, "flipped").unwrap_err();
        assert!(bad.contains("checksum"), "{bad}");
        let other = Weights::from_bytes(b"hello world, not weights", "text").unwrap_err();
        assert!(other.contains("not a Sente weight file"), "{other}");
        // A file that cannot be used leaves the built-in weights in place.
        let path = std::env::temp_dir().join(format!("sente-bad-weights-{}", std::process::id()));
        std::fs::write(&path, &flipped).unwrap();
        let r = Weights::load_static(path.to_str().unwrap());
        let _ = std::fs::remove_file(&path);
        let (w, e) = r.unwrap_err();
        assert!(std::ptr::eq(w, Weights::builtin()) && e.contains("checksum"));
    }

    #[test]
    fn the_built_in_weights_are_a_valid_file() {
        assert!(Weights::from_bytes(BUILTIN, "built-in").is_ok());
        assert_eq!(Weights::builtin().source, "built-in");
    }
}
