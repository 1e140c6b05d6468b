//! Learned move-ordering scores for the unforced stage of move generation.
//!
//! The hand-set ordering scores a candidate cell by the pattern class each colour would
//! make there ([`crate::search::params::SearchParams::order_own`]). The learned one
//! scores it by the cell's full combination of its four line codes (the 330 multisets of
//! [`crate::eval::features::combos`]) for the side to move and for the opponent, plus a
//! term for its distance to the last move and to the mover's previous move, fitted to
//! another engine's move choices (`pbrain-sente train-order`, in [`crate::learn::order`]).
//! Top-N pruning keeps only the best-ordered moves at a node, so the moves an opponent
//! would choose must rank high; see `docs/learned-evaluation.md`.
//!
//! Weight files are text: a `rule NAME` line, then `own`, `opp` (330 integers each, in
//! combination order) and `near` (16 integers: distance bucket to the last move × 4 +
//! bucket to the previous move, buckets 1, 2, 3, 4+), whitespace-separated, `#` comments;
//! optionally `white_own` and `white_opp` (330 each) after them: then `own` and `opp`
//! score the cells for black to move and these for white (`train-order --colours 2`, for
//! renju, where black's and white's combinations do not mean the same).

use crate::board::{Board, CELL_VALUE_FIELDS};
use crate::eval::features::{combo_of_index, COMBOS};
use crate::types::{Color, Pos, Rule};
use std::sync::OnceLock;

/// The learned weights of one rule, in combination order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderWeights {
    /// The rule they were fitted for.
    pub rule: Rule,
    /// Score of a cell by the side to move's combination there.
    pub own: Vec<i32>,
    /// Score of a cell by the opponent's combination there.
    pub opp: Vec<i32>,
    /// Score by distance bucket to the last move × 4 + to the mover's previous move.
    pub near: [i32; 16],
    /// `own` and `opp` for white to move, when the colours have their own scores
    /// (`None`: `own` and `opp` score both colours).
    pub white: Option<(Vec<i32>, Vec<i32>)>,
}

/// The distance bucket (0..4) of a candidate to a stone: 1, 2, 3, 4 or more squares;
/// no stone (`Pos::NONE`) is far.
#[inline]
#[must_use]
pub fn bucket(p: Pos, stone: Pos) -> usize {
    if stone.is_some() {
        p.distance(stone).clamp(1, 4) - 1
    } else {
        3
    }
}

/// The last four moves, newest first: the last move, the side to move's previous one
/// and the two before them ([`Pos::NONE`] where there is none).
#[inline]
#[must_use]
pub fn near_moves(board: &Board) -> [Pos; 4] {
    let h = board.history();
    let at = |k: usize| h.len().checked_sub(k).map_or(Pos::NONE, |i| h[i]);
    [at(1), at(2), at(3), at(4)]
}

/// A labelled part of a weight file: `label`, then `n` integers.
fn read_part<'a>(
    words: &mut impl Iterator<Item = &'a str>,
    label: &str,
    n: usize,
) -> Result<Vec<i32>, String> {
    if words.next().ok_or(format!("missing {label}"))? != label {
        return Err(format!("expected `{label}`"));
    }
    (0..n)
        .map(|i| {
            words
                .next()
                .ok_or(format!("missing {label} value {i}"))?
                .parse()
                .map_err(|e| format!("{label} value {i}: {e}"))
        })
        .collect()
}

impl OrderWeights {
    /// Parse the text form (see the module docs).
    ///
    /// # Errors
    /// A message naming what is missing or malformed.
    pub fn parse(text: &str) -> Result<OrderWeights, String> {
        let mut words = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or(""))
            .flat_map(str::split_whitespace)
            .peekable();
        if words.next() != Some("rule") {
            return Err("the file must start with `rule NAME`".into());
        }
        let name = words.next().ok_or("missing rule name")?;
        let rule = Rule::parse(name).ok_or(format!("unknown rule {name}"))?;
        let own = read_part(&mut words, "own", COMBOS)?;
        let opp = read_part(&mut words, "opp", COMBOS)?;
        let near = read_part(&mut words, "near", 16)?;
        // Optional scores for white to move: a second `own` and `opp`, or nothing.
        let white = if words.peek().is_none() {
            None
        } else {
            let own = read_part(&mut words, "white_own", COMBOS)?;
            Some((own, read_part(&mut words, "white_opp", COMBOS)?))
        };
        Ok(OrderWeights {
            rule,
            own,
            opp,
            near: std::array::from_fn(|i| near[i]),
            white,
        })
    }

    /// The text form ([`OrderWeights::parse`] reads it back).
    #[must_use]
    pub fn to_text(&self) -> String {
        let join = |v: &[i32]| {
            v.chunks(22)
                .map(|c| {
                    let s: Vec<String> = c.iter().map(i32::to_string).collect();
                    format!("    {}\n", s.join(" "))
                })
                .collect::<String>()
        };
        let white = self.white.as_ref().map_or(String::new(), |(o, p)| {
            format!("white_own\n{}white_opp\n{}", join(o), join(p))
        });
        format!(
            "rule {}\nown\n{}opp\n{}near\n{}{white}",
            self.rule.name(),
            join(&self.own),
            join(&self.opp),
            join(&self.near)
        )
    }
}

/// The learned scores expanded for the move generator: indexed by a cell's
/// [`Board::value_index`] (its class field), so a score costs two table reads.
/// Indexed first by the side to move (the same tables twice without per-colour scores).
pub struct OrderTable {
    own: [Box<[i32; CELL_VALUE_FIELDS]>; 2],
    opp: [Box<[i32; CELL_VALUE_FIELDS]>; 2],
    near: [i32; 16],
    /// Where the weights came from: `built-in` or a file's path.
    pub source: String,
}

impl std::fmt::Debug for OrderTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "OrderTable({})", self.source)
    }
}

impl OrderTable {
    /// Expand `w`. The scores are shifted to be at least 1: a listed cell must score
    /// above the cells with no pattern (score 0), which the generator adds only to fill
    /// up a short list.
    #[must_use]
    pub fn new(w: &OrderWeights) -> OrderTable {
        let min = |v: &[i32]| v.iter().copied().min().unwrap_or(0);
        let (white_own, white_opp) = w.white.as_ref().map_or((&w.own, &w.opp), |(o, p)| (o, p));
        let shift =
            (1 - (min(&w.own) + min(&w.opp)).min(min(white_own) + min(white_opp)) - min(&w.near))
                .max(0);
        let t = combo_of_index();
        let expand = |v: &[i32]| -> Box<[i32; CELL_VALUE_FIELDS]> {
            let mut out = Box::new([0; CELL_VALUE_FIELDS]);
            for (o, &k) in out.iter_mut().zip(t.iter()) {
                *o = v[usize::from(k)];
            }
            out
        };
        OrderTable {
            own: [expand(&w.own), expand(white_own)],
            opp: [expand(&w.opp), expand(white_opp)],
            near: w.near.map(|v| v + shift),
            source: "built-in".to_string(),
        }
    }

    /// Read a weight file (the text form of [`OrderWeights`]) and keep its table for the
    /// process's lifetime.
    ///
    /// # Errors
    /// The path and what could not be read or parsed.
    pub fn load_static(path: &str) -> Result<&'static OrderTable, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let w = OrderWeights::parse(&text).map_err(|e| format!("{path}: {e}"))?;
        let mut t = OrderTable::new(&w);
        t.source = path.to_string();
        Ok(Box::leak(Box::new(t)))
    }

    /// The score of the empty cell `p` for the side to move `me`, whose opponent's last
    /// move was `last` and own previous move `prev`.
    #[inline]
    #[must_use]
    pub fn score(&self, board: &Board, p: Pos, me: Color, last: Pos, prev: Pos) -> i32 {
        self.own[me.idx()][board.value_index(p, me)]
            + self.opp[me.idx()][board.value_index(p, me.opp())]
            + self.near[bucket(p, last) * 4 + bucket(p, prev)]
    }
}

/// The shipped learned ordering of `rule`, if there is one (freestyle only so far).
#[must_use]
pub fn shipped(rule: Rule) -> Option<&'static OrderTable> {
    if rule != Rule::Freestyle {
        return None;
    }
    static T: OnceLock<Option<OrderTable>> = OnceLock::new();
    let t = T.get_or_init(|| {
        OrderWeights::parse(include_str!("order_weights.txt"))
            .ok()
            .map(|w| OrderTable::new(&w))
    });
    t.as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_weights_parse_and_round_trip_through_text() {
        let w = OrderWeights::parse(include_str!("order_weights.txt")).expect("parse");
        assert_eq!(w.rule, Rule::Freestyle);
        assert_eq!(OrderWeights::parse(&w.to_text()), Ok(w));
        assert!(shipped(Rule::Freestyle).is_some());
    }

    #[test]
    fn a_short_or_malformed_weight_file_is_refused() {
        let w = OrderWeights::parse(include_str!("order_weights.txt")).expect("parse");
        let text = w.to_text();
        let cut = &text[..text.len() / 2];
        assert!(OrderWeights::parse(cut).is_err());
        assert!(OrderWeights::parse(&text.replace("near", "far")).is_err());
        assert!(OrderWeights::parse(&text.replace("rule freestyle", "rule chess")).is_err());
    }

    #[test]
    fn a_weight_file_loads_into_the_table_of_its_text_and_a_bad_one_is_refused() {
        let dir = std::env::temp_dir().join(format!("sente-order-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut w = OrderWeights::parse(include_str!("order_weights.txt")).expect("parse");
        w.own[5] += 777;
        let good = dir.join("good.txt");
        std::fs::write(&good, w.to_text()).unwrap();
        let t = OrderTable::load_static(good.to_str().unwrap()).expect("load");
        let fresh = OrderTable::new(&w);
        assert_eq!(t.own, fresh.own);
        assert_eq!(t.opp, fresh.opp);
        assert_eq!(t.near, fresh.near);
        assert_ne!(t.own[0], shipped(Rule::Freestyle).unwrap().own[0]);
        assert_eq!(t.source, good.to_str().unwrap());
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, &w.to_text()[..100]).unwrap();
        let e = OrderTable::load_static(bad.to_str().unwrap()).unwrap_err();
        assert!(e.contains("bad.txt"), "{e}");
        assert!(OrderTable::load_static(dir.join("none.txt").to_str().unwrap()).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn white_scores_in_the_file_order_white_and_leave_black_as_it_was() {
        let w = OrderWeights::parse(include_str!("order_weights.txt")).expect("parse");
        let mut two = w.clone();
        let mut white_own = w.own.clone();
        white_own[7] += 1000;
        two.white = Some((white_own, w.opp.clone()));
        let text = two.to_text();
        assert!(text.contains("white_own") && text.contains("white_opp"));
        assert_eq!(OrderWeights::parse(&text), Ok(two.clone()));
        let cut = &text[..text.len() - 40];
        assert!(OrderWeights::parse(cut).is_err());
        let (one, both) = (OrderTable::new(&w), OrderTable::new(&two));
        assert_eq!(both.own[0], one.own[0]);
        assert_eq!(both.opp, one.opp);
        assert_eq!(one.own[0], one.own[1]);
        assert_ne!(both.own[1], one.own[1]);
        let k = combo_of_index()
            .iter()
            .position(|&c| c == 7)
            .expect("an index of combination 7");
        assert_eq!(both.own[1][k], one.own[1][k] + 1000);
    }

    #[test]
    fn distance_buckets_are_one_two_three_and_four_or_more() {
        let p = Pos::new(7, 7);
        assert_eq!(bucket(p, Pos::new(8, 8)), 0);
        assert_eq!(bucket(p, Pos::new(5, 7)), 1);
        assert_eq!(bucket(p, Pos::new(7, 10)), 2);
        assert_eq!(bucket(p, Pos::new(0, 0)), 3);
        assert_eq!(bucket(p, Pos::NONE), 3);
    }
}
