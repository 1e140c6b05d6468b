//! The evaluation's parameters: the hand-set weights and the choice of learned weights.
//! They live here, below the search, so that the evaluation needs nothing from the
//! search; the search's parameters (`search::params::SearchParams`) hold one
//! [`EvalParams`], set by its keys `ev_*`, `eval` and `weights`.

use crate::eval::mlp::{Forbid, Mlp};
use crate::eval::weights::Weights;
use crate::pattern::Pattern4;
use crate::types::Value;

/// A loaded table kept for the process's lifetime, compared by identity (which file it
/// came from), not by content.
#[derive(Debug)]
pub struct Shared<T: 'static>(pub &'static T);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Shared<T> {}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl<T> Eq for Shared<T> {}

/// A set of learned evaluation weights.
pub type WeightsRef = Shared<Weights>;
/// A loaded network ([`Mlp`]).
pub type MlpRef = Shared<Mlp>;

crate::tunable! {
    // Weights of the static evaluation, kept apart from the search knobs so a tuner can
    // replace them as one block.
    /// Evaluation weights, indexed by `Pattern4 as usize`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct EvalParams {
        // None, Forbid, Flex2, Block3, Flex2x2, Block3Plus, Flex3, Flex3Plus, Flex3x2,
        // Block4, Block4Plus, Block4Flex3, Flex4, Five
        /// Value of each empty cell where the side to move has that class.
        own: [Value; Pattern4::COUNT] = [0, 0, 4, 5, 12, 16, 22, 36, 110, 20, 44, 280, 500, 1000],
            "ev_own" ("14 numbers separated by `/`")
            => "classic evaluation: value of an empty cell where the side to move makes each \
                pattern class (`Pattern4` order: none, forbidden, flex2, block3, flex2x2, \
                block3+, flex3, flex3+, flex3x2, block4, block4+, block4-flex3, flex4, five)";
        /// Value (subtracted) of each empty cell where the opponent has that class.
        opp: [Value; Pattern4::COUNT] = [0, 0, 3, 4, 9, 12, 16, 26, 60, 16, 32, 120, 160, 400],
            "ev_opp" ("14 numbers separated by `/`")
            => "classic evaluation: value (subtracted) of an empty cell where the opponent \
                makes each pattern class";
        /// Renju: value for white of each black forbidden-class cell (black is hindered).
        forbid_for_white: Value = 6,
            "ev_forbid" [-10_000, 10_000]
            => "classic evaluation, renju: value for white of each point forbidden to black";
        /// Penalty when the opponent has an open three (a straight-four point) and the side
        /// to move has no four to answer with: it must defend.
        opp_three_no_four: Value = 120,
            "ev_three" [-10_000, 10_000]
            => "classic evaluation: penalty when the opponent has an open three and the side \
                to move has no four to answer with";
        /// Bonus when the side to move has a four-three or double-three point and the
        /// opponent cannot make a four.
        own_double_threat: Value = 300,
            "ev_double" [-10_000, 10_000]
            => "classic evaluation: bonus when the side to move has a four-three or \
                double-three point and the opponent cannot make a four";
        /// Bonus for having the move.
        tempo: Value = 12,
            "ev_tempo" [-10_000, 10_000] => "classic evaluation: bonus for having the move";
        /// The learned evaluation's weights ([`crate::eval::weights`]); `None`: the
        /// hand-set evaluation from the fields above.
        learned: Option<WeightsRef> = None,
            "eval" ("`learned` or `classic`") with parse_eval, show_eval
            => "`learned`: the learned evaluation with the weights compiled in; `classic`: \
                the hand-set one (the `ev_*` keys)",
            "weights" ("a file name") with parse_weights, show_weights
            => "the learned evaluation with the weights of this file (a file that cannot be \
                used is an error and changes nothing)";
        /// The network evaluation; the shipped ones by default (they evaluate freestyle
        /// 15 × 15 and 20 × 20, standard and renju 15 × 15, other rules and sizes keep the
        /// tables).
        mlp: Option<MlpRef> = Some(Shared(Mlp::builtin())),
            "mlp" ("`builtin`, a file name, or `-` for none") with parse_mlp, show_mlp
            => "evaluate with a small network instead of the tables: `builtin` (the \
                default) are the shipped ones, for freestyle 15 × 15 and 20 × 20, standard and \
                renju 15 × 15 (other rules and sizes keep the tables); a file (see `src/eval/mlp.rs`) evaluates every rule \
                and size; `-` the tables everywhere";
        /// How the network reads renju black's forbidden-class cells.
        mlp_forbid: Forbid = Forbid::Both,
            "mlp_forbid" ("`off`, `own` or `both`") with parse_forbid, show_forbid
            => "renju, the network: black's forbidden-class cells (double three, double four, \
                overline), which its inputs would read like white's winning ones, count as \
                usual (`off`), not as black's own cells when black is to move (`own`), or \
                not at all (`both`)";
        /// Subtracted from the network's value for the side to move.
        mlp_tempo: Value = 0,
            "mlp_tempo" [-1_000, 1_000]
            => "the network: subtracted from its value for the side to move (a correction of \
                its optimism for the side to move; 0 = none)";
    }
}

/// `mlp_forbid`: `off`, `own` or `both`.
fn parse_forbid(v: &str) -> Result<Forbid, String> {
    Forbid::parse(v).ok_or_else(|| format!("bad mlp_forbid {v:?} (off|own|both)"))
}

fn show_forbid(f: &Forbid) -> String {
    f.name().to_string()
}

/// `eval`: `learned` (the built-in weights) or `classic`.
fn parse_eval(v: &str) -> Result<Option<WeightsRef>, String> {
    match v {
        "learned" => Ok(Some(Shared(Weights::builtin()))),
        "classic" => Ok(None),
        _ => Err(format!("bad eval {v:?} (learned|classic)")),
    }
}

fn show_eval(w: &Option<WeightsRef>) -> String {
    if w.is_some() { "learned" } else { "classic" }.to_string()
}

/// `weights`: a weight file, loaded once and kept for the process.
fn parse_weights(v: &str) -> Result<Option<WeightsRef>, String> {
    let w = Weights::load_static(v).map_err(|(_, e)| e)?;
    Ok(Some(Shared(w)))
}

/// Where the weights in use came from (`built-in` or a path), `-` for none.
fn show_weights(w: &Option<WeightsRef>) -> String {
    w.map_or_else(|| "-".to_string(), |w| w.0.source.clone())
}

/// `mlp`: `-` none, `builtin` the shipped networks (freestyle 15 and 20, standard and renju
/// 15), else
/// a file.
fn parse_mlp(v: &str) -> Result<Option<MlpRef>, String> {
    match v {
        "-" => Ok(None),
        "builtin" => Ok(Some(Shared(Mlp::builtin()))),
        _ => Ok(Some(Shared(Mlp::load_static(v)?))),
    }
}

fn show_mlp(m: &Option<MlpRef>) -> String {
    m.map_or_else(|| "-".to_string(), |m| m.0.source.clone())
}
