//! Every tunable of the search and the evaluation, in one place, so that matches can
//! compare configurations by changing values here (or through [`SearchParams::apply`]).

use crate::eval::weights::Weights;
use crate::pattern::Pattern4;
use crate::types::Value;

/// A set of learned evaluation weights, compared by identity.
#[derive(Clone, Copy, Debug)]
pub struct WeightsRef(pub &'static Weights);

impl PartialEq for WeightsRef {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for WeightsRef {}

/// Which root driver runs each iteration of iterative deepening.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Driver {
    /// MTD(f): a sequence of zero-window searches converging on the value.
    Mtdf,
    /// Principal-variation search inside an aspiration window.
    Pvs,
}

// Weights of the static evaluation, kept apart from the search knobs so a tuner can
// replace them as one block.
/// Evaluation weights, indexed by `Pattern4 as usize`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// Value of each empty cell where the side to move has that class.
    pub own: [Value; Pattern4::COUNT],
    /// Value (subtracted) of each empty cell where the opponent has that class.
    pub opp: [Value; Pattern4::COUNT],
    /// Renju: value for white of each black forbidden-class cell (black is hindered).
    pub forbid_for_white: Value,
    /// Penalty when the opponent has an open three (a straight-four point) and the side
    /// to move has no four to answer with: it must defend.
    pub opp_three_no_four: Value,
    /// Bonus when the side to move has a four-three or double-three point and the
    /// opponent cannot make a four.
    pub own_double_threat: Value,
    /// Bonus for having the move.
    pub tempo: Value,
    /// The learned evaluation's weights ([`crate::eval::weights`]); `None`: the
    /// hand-set evaluation from the fields above.
    pub learned: Option<WeightsRef>,
}

impl Default for EvalParams {
    fn default() -> Self {
        // None, Forbid, Flex2, Block3, Flex2x2, Block3Plus, Flex3, Flex3Plus, Flex3x2,
        // Block4, Block4Plus, Block4Flex3, Flex4, Five
        EvalParams {
            own: [0, 0, 4, 5, 12, 16, 22, 36, 110, 20, 44, 280, 500, 1000],
            opp: [0, 0, 3, 4, 9, 12, 16, 26, 60, 16, 32, 120, 160, 400],
            forbid_for_white: 6,
            opp_three_no_four: 120,
            own_double_threat: 300,
            tempo: 12,
            learned: None,
        }
    }
}

// The knobs of the search; one value per engine configuration.
/// Search parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Root driver.
    pub driver: Driver,
    /// Top-N pruning: at most this many moves are searched at an unforced node.
    pub top_n: usize,
    /// At the root, at most this many moves (forced stages are never cut).
    pub root_top_n: usize,
    /// First aspiration half-window of the PVS driver.
    pub aspiration_delta: Value,
    /// Late-move reductions on/off.
    pub lmr: bool,
    /// Moves with an index below this are never reduced.
    pub lmr_min_index: usize,
    /// Reductions only at this remaining depth or more.
    pub lmr_min_depth: i32,
    /// Logarithmic reductions: a quiet move at index `i` and depth `d` is reduced by
    /// `(lmr_c + lmr_k · ln d · ln i) / 1000` plies (0 = the older step formula: 1 ply,
    /// 2 from twice the minimum index and depth).
    pub lmr_k: i32,
    /// Constant term of the logarithmic reduction (thousandths of a ply).
    pub lmr_c: i32,
    /// Moves that make or stop a three (not quiet) are reduced by this many plies less
    /// than quiet ones (a large value: never reduced).
    pub lmr_tactical: i32,
    /// At a node that must answer an open three (the defences and own fours only, no
    /// top-N cut), moves from index 2 on are first searched one ply shallower when at
    /// least 3 plies are left (re-searched at full depth if they beat alpha).
    pub lmr_defend: bool,
    /// Extend a node whose only move is a forced block by one ply.
    pub forced_extension: bool,
    /// Most plies of forced blocks the quiescence search plays.
    pub qsearch_max_ply: i32,
    /// Most own fours in a line of the quiescence search (each followed by its forced
    /// block; 0 = the leaf takes the static value without trying fours).
    pub qsearch_fours: i32,
    /// Poll the clock and the stop flag every this many nodes.
    pub check_interval: u64,
    /// No new iteration starts after this many thousandths of the (stretched) soft
    /// limit: the next one would rarely finish, and an unfinished iteration is mostly lost.
    pub next_iteration_permille: u32,
    /// History bonus is depth² times this.
    pub history_scale: i32,
    /// History values are capped at this (they only break ties of pattern scores).
    pub history_cap: i32,
    /// Move-ordering bonus of a killer move (`1 << 20`: before every pattern score).
    pub killer_score: i32,
    /// Move-ordering weight of the class the side to move makes on a cell.
    pub order_own: [i32; Pattern4::COUNT],
    /// Move-ordering weight of the class the opponent would make on a cell (defence).
    pub order_opp: [i32; Pattern4::COUNT],
    /// Threat solvers on/off: VCF/VCT at the root (play a found win, restrict the root to
    /// the defences against the opponent's) and VCF at the leaves.
    pub threats: bool,
    /// Root: node budget of the side to move's VCF question.
    pub root_vcf_nodes: u64,
    /// Root: node budget of the side to move's VCT question (0 = no VCT at the root).
    pub root_vct_nodes: u64,
    /// Root: node budget of each VCF check while finding defences to the opponent's VCF.
    pub defence_vcf_nodes: u64,
    /// Root: node budget of the opponent's VCT question when finding the defences to it
    /// (each candidate defence gets 1/16 of it; 0 = no VCT defence).
    pub defence_vct_nodes: u64,
    /// Root: the threat solvers stop after this many thousandths of the soft time limit
    /// (also after half the hard limit); the rest goes to the search.
    pub threat_time_permille: u32,
    /// Leaves: node budget of the side to move's VCF check (0 = no leaf VCF).
    pub leaf_vcf_nodes: u64,
    /// Root move verification: after an iteration of at least `verify_depth`, the best
    /// root move is checked for a VCF/VCT of the opponent with this node budget, and
    /// dropped from the root if one is found (0 = off).
    pub verify_nodes: u64,
    /// Root move verification starts after an iteration of this depth.
    pub verify_depth: i32,
    /// At most this many different root moves are verified in one search.
    pub verify_moves: usize,
    /// Leaves: longest VCF looked for (plies to the five).
    pub leaf_vcf_plies: i32,
    /// Reverse futility pruning: at a non-PV node with at most this many plies left
    /// (0 = off), where the opponent has no immediate threat, return the static value
    /// if it beats beta by `rfp_margin` per ply left.
    pub rfp_depth: i32,
    /// Transposition table entries keep a lower and an upper bound (see
    /// [`crate::tt::Tt::two_bounds`]).
    pub tt_two_bounds: bool,
    /// Search the TT move before generating the other moves.
    pub tt_first: bool,
    /// Reduce late root moves like inner ones (quiet moves only).
    pub root_lmr: bool,
    /// Late-move pruning: at an unforced node with `d` plies left, moves after the first
    /// `lmp + d²` are skipped (0 = off).
    pub lmp: usize,
    /// Internal iterative reduction: a node of at least this depth without a TT move is
    /// searched one ply shallower (0 = off).
    pub iir_depth: i32,
    /// Reverse futility margin per ply left.
    pub rfp_margin: Value,
    /// MTD(f) passes that fail the same way in a row double their step away from the
    /// last value (off: the classic next test at the last value returned).
    pub mtd_step: bool,
    /// With nothing to save for later moves (a per-move limit only: optimum = maximum),
    /// use the whole budget: no soft stop (`next_iteration_permille`), and start the
    /// next iteration even when it is predicted to end past the hard limit: the time is
    /// otherwise unused, and a move that fails high in the unfinished iteration
    /// replaces the best one. With a match clock nothing changes.
    pub partial_iterations: bool,
    /// Decide four-three and double-three points against an opponent without fours as
    /// wins in 5 at every node (see [`crate::eval::quick_result`]).
    pub quick_win5: bool,
    /// Evaluation weights.
    pub eval: EvalParams,
}

/// The default top-N width.
pub const TOP_N: usize = 10;

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            driver: Driver::Mtdf,
            top_n: TOP_N,
            root_top_n: 2 * TOP_N,
            aspiration_delta: 24,
            lmr: true,
            lmr_min_index: 3,
            lmr_min_depth: 3,
            lmr_k: 1400,
            lmr_c: 0,
            lmr_tactical: 1,
            lmr_defend: true,
            forced_extension: true,
            qsearch_max_ply: 12,
            qsearch_fours: 0,
            check_interval: 256,
            next_iteration_permille: 600,
            history_scale: 1,
            history_cap: 300,
            killer_score: crate::movegen::KILLER_SCORE,
            // None, Forbid, Flex2, Block3, Flex2x2, Block3Plus, Flex3, Flex3Plus, Flex3x2,
            // Block4, Block4Plus, Block4Flex3, Flex4, Five
            order_own: [
                0, 0, 150, 120, 400, 450, 1000, 1300, 6000, 900, 1800, 8000, 20_000, 100_000,
            ],
            order_opp: [
                0, 0, 80, 60, 200, 220, 500, 650, 3000, 450, 900, 4000, 10_000, 50_000,
            ],
            threats: true,
            root_vcf_nodes: 200_000,
            root_vct_nodes: 200_000,
            defence_vcf_nodes: 4_000,
            defence_vct_nodes: 64_000,
            threat_time_permille: 150,
            leaf_vcf_nodes: 0,
            verify_nodes: 0,
            verify_depth: 6,
            verify_moves: 4,
            leaf_vcf_plies: 21,
            rfp_depth: 2,
            rfp_margin: 80,
            mtd_step: true,
            lmp: 0,
            root_lmr: true,
            tt_two_bounds: false,
            tt_first: true,
            iir_depth: 3,
            quick_win5: false,
            partial_iterations: true,
            eval: EvalParams::default(),
        }
    }
}

impl SearchParams {
    /// Apply `key=value` settings separated by commas or spaces, e.g.
    /// `driver=pvs,top_n=6,lmr=0`. Keys: driver (mtdf|pvs), top_n, root_top_n, asp,
    /// lmr, lmr_index, lmr_depth, lmr_k, lmr_c,
    /// lmr_tactical, lmr_defend (on|off), fext, qply, qfours (own fours in a quiescence line,
    /// 0 = off), threats (on|off), root_vcf, root_vct,
    /// def_vcf, def_vct, threat_permille, leaf_vcf (node budgets; 0 = off), leaf_plies,
    /// verify (node budget of the root move verification, 0 = off), verify_depth,
    /// verify_moves,
    /// next_iter (permille of the soft limit after which no iteration starts), rfp
    /// (reverse futility depth, 0 = off), rfp_margin, mtd_step (on|off: MTD(f) steps that
    /// double while passes fail the same way), lmp (late-move pruning base, 0 =
    /// off), root_lmr (on|off), hist_scale,
    /// hist_cap (history bonus per depth² and its cap), killer (ordering bonus of a
    /// killer move), tt_bounds (on|off: two bounds per TT entry), tt_first (on|off: the TT move before
    /// generation), iir (internal iterative reduction from this depth, 0 = off), win5
    /// (on|off: four-three / double-three wins in 5 from the counts), partial (on|off:
    /// with a per-move limit only, no soft stop and iterations predicted to end past
    /// the hard limit are started); evaluation:
    /// eval (learned|classic), weights (a weight file for the learned evaluation; a
    /// file that cannot be used is an error and changes nothing), and for the classic
    /// one ev_own, ev_opp (14 weights separated by '/'), ev_forbid, ev_three, ev_double,
    /// ev_tempo (see [`EvalParams`]).
    ///
    /// # Errors
    /// A message naming the first unknown key or bad value.
    pub fn apply(&mut self, spec: &str) -> Result<(), String> {
        for item in spec.split([',', ' ']).filter(|s| !s.is_empty()) {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| format!("expected key=value, got {item:?}"))?;
            let num = || v.parse::<i64>().map_err(|_| format!("bad number {v:?}"));
            // Evaluation weights: one value per `Pattern4` class, separated by '/'.
            let weights = |v: &str| -> Result<[Value; Pattern4::COUNT], String> {
                let w: Vec<Value> = v
                    .split('/')
                    .map(|x| x.parse::<Value>().map_err(|_| format!("bad weight {x:?}")))
                    .collect::<Result<_, _>>()?;
                w.try_into()
                    .map_err(|_| format!("expected {} weights in {v:?}", Pattern4::COUNT))
            };
            let flag = || match v {
                "1" | "true" | "on" => Ok(true),
                "0" | "false" | "off" => Ok(false),
                _ => Err(format!("bad flag {v:?}")),
            };
            match k {
                "driver" => {
                    self.driver = match v {
                        "mtdf" => Driver::Mtdf,
                        "pvs" => Driver::Pvs,
                        _ => return Err(format!("bad driver {v:?}")),
                    }
                }
                "top_n" => self.top_n = num()?.clamp(1, 1024) as usize,
                "root_top_n" => self.root_top_n = num()?.clamp(1, 1024) as usize,
                "asp" => self.aspiration_delta = num()?.clamp(1, 10_000) as Value,
                "lmr" => self.lmr = flag()?,
                "lmr_index" => self.lmr_min_index = num()?.clamp(1, 1024) as usize,
                "lmr_depth" => self.lmr_min_depth = num()?.clamp(1, 100) as i32,
                "lmr_k" => self.lmr_k = num()?.clamp(0, 10_000) as i32,
                "lmr_c" => self.lmr_c = num()?.clamp(-10_000, 10_000) as i32,
                "lmr_tactical" => self.lmr_tactical = num()?.clamp(0, 100) as i32,
                "lmr_defend" => self.lmr_defend = flag()?,
                "fext" => self.forced_extension = flag()?,
                "qply" => self.qsearch_max_ply = num()?.clamp(0, 60) as i32,
                "qfours" => self.qsearch_fours = num()?.clamp(0, 30) as i32,
                "threats" => self.threats = flag()?,
                "root_vcf" => self.root_vcf_nodes = num()?.max(0) as u64,
                "root_vct" => self.root_vct_nodes = num()?.max(0) as u64,
                "def_vcf" => self.defence_vcf_nodes = num()?.max(0) as u64,
                "def_vct" => self.defence_vct_nodes = num()?.max(0) as u64,
                "threat_permille" => self.threat_time_permille = num()?.clamp(0, 1000) as u32,
                "leaf_vcf" => self.leaf_vcf_nodes = num()?.max(0) as u64,
                "verify" => self.verify_nodes = num()?.max(0) as u64,
                "verify_depth" => self.verify_depth = num()?.clamp(1, 100) as i32,
                "verify_moves" => self.verify_moves = num()?.clamp(1, 64) as usize,
                "leaf_plies" => self.leaf_vcf_plies = num()?.clamp(1, 199) as i32,
                "rfp" => self.rfp_depth = num()?.clamp(0, 20) as i32,
                "rfp_margin" => self.rfp_margin = num()?.clamp(0, 10_000) as Value,
                "mtd_step" => self.mtd_step = flag()?,
                "root_lmr" => self.root_lmr = flag()?,
                "tt_bounds" => self.tt_two_bounds = flag()?,
                "tt_first" => self.tt_first = flag()?,
                "hist_scale" => self.history_scale = num()?.clamp(0, 10_000) as i32,
                "killer" => self.killer_score = num()?.clamp(0, 1 << 24) as i32,
                "hist_cap" => self.history_cap = num()?.clamp(0, 1 << 20) as i32,
                "lmp" => self.lmp = num()?.clamp(0, 1024) as usize,
                "win5" => self.quick_win5 = flag()?,
                "partial" => self.partial_iterations = flag()?,
                "ev_own" => self.eval.own = weights(v)?,
                "ev_opp" => self.eval.opp = weights(v)?,
                "ev_forbid" => self.eval.forbid_for_white = num()?.clamp(-10_000, 10_000) as Value,
                "ev_three" => self.eval.opp_three_no_four = num()?.clamp(-10_000, 10_000) as Value,
                "ev_double" => self.eval.own_double_threat = num()?.clamp(-10_000, 10_000) as Value,
                "ev_tempo" => self.eval.tempo = num()?.clamp(-10_000, 10_000) as Value,
                "eval" => {
                    self.eval.learned = match v {
                        "learned" => Some(WeightsRef(Weights::builtin())),
                        "classic" => None,
                        _ => return Err(format!("bad eval {v:?} (learned|classic)")),
                    }
                }
                "weights" => {
                    let w = Weights::load_static(v).map_err(|(_, e)| e)?;
                    self.eval.learned = Some(WeightsRef(w));
                }
                "iir" => self.iir_depth = num()?.clamp(0, 100) as i32,
                "next_iter" => self.next_iteration_permille = num()?.clamp(100, 2000) as u32,
                _ => return Err(format!("unknown parameter {k:?}")),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apply_sets_evaluation_weights_and_rejects_a_wrong_count() {
        let mut p = SearchParams::default();
        p.apply("ev_own=0/0/1/2/3/4/5/6/7/8/9/10/11/12,ev_three=77,killer=5,lmr_defend=off")
            .unwrap();
        assert!(!p.lmr_defend && SearchParams::default().lmr_defend);
        assert_eq!(p.eval.own, [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
        assert_eq!(p.eval.opp, EvalParams::default().opp);
        assert_eq!(p.eval.opp_three_no_four, 77);
        assert_eq!(p.killer_score, 5);
        let before = p.clone();
        assert!(p.apply("ev_opp=1/2/3").is_err());
        assert!(p.apply("ev_opp=0/0/1/2/3/4/5/6/7/8/9/10/11/x").is_err());
        assert_eq!(p.eval, before.eval);
    }
}
