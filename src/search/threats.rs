//! The threat solvers inside the search (`SearchParams::threats`).
//!
//! - Root: the side to move's VCF, then the opponent's VCF (→ the moves that refute it),
//!   then the side to move's VCT, then the opponent's VCT (→ its refutations). A win is
//!   played at once; a threat restricts the root moves to its refutations (plus own
//!   fours). The whole phase is bounded by node budgets and by a watchdog that raises
//!   the solvers' stop flag after a fraction of the move's time (or on an outside stop).
//! - Leaves: the side to move's VCF with a small node budget, its answer cached by
//!   position key so repeated leaves cost one probe.
//!
//! The solvers, their tables and the leaf cache are created once per table size; the
//! leaf path does not allocate. They are used only through `crate::threat`'s public API.

use crate::board::Board;
use crate::threat::defence::{vcf_defences, vct_defences};
use crate::threat::vcf::VcfSolver;
use crate::threat::vct::VctSolver;
use crate::threat::ThreatResult;
use crate::types::Color;
use crate::types::Pos;
use std::sync::atomic::AtomicBool;

/// Longest root VCF looked for (plies to the five).
pub const ROOT_VCF_PLIES: i32 = 99;
/// Longest root VCT looked for (plies to the five).
pub const ROOT_VCT_PLIES: i32 = 41;
/// Most bytes the solver tables take from the search's budget.
pub const MAX_SOLVER_BYTES: usize = 32 << 20;

/// How a total byte budget is shared: (search TT, VCF solver, VCT solver, leaf cache).
/// The four parts add up to at most `total` (each solver table keeps a small minimum
/// size, about 48 KiB in all, for very small budgets).
#[must_use]
pub fn split_bytes(total: usize) -> (usize, usize, usize, usize) {
    let solvers = (total / 8).min(MAX_SOLVER_BYTES);
    let cache = solvers / 8;
    let vcf = solvers * 3 / 8;
    let vct = solvers / 2;
    (total - solvers, vcf, vct, cache)
}

/// How the table budget is shared with helper threads: the search TT, the main
/// thread's solver tables and each helper's, as (VCF, VCT, leaf cache) bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSplit {
    /// The transposition table (shared by every thread).
    pub tt: usize,
    /// The main thread's solver tables, as [`split_bytes`] gives them.
    pub main: (usize, usize, usize),
    /// Each helper's solver tables (no VCT: the root phase runs on the main thread).
    pub helper: (usize, usize, usize),
}

/// The split of `total` bytes for `threads` threads: with one thread exactly
/// [`split_bytes`]; each helper gets the leaf VCF table and cache its leaves may use,
/// together half the main thread's solver share spread over the helpers (at most the
/// main thread's VCF table and cache each), taken from the transposition table. The
/// parts add up to at most `total` (up to the solvers' small minimum sizes).
#[must_use]
pub fn split_tables(total: usize, threads: usize) -> TableSplit {
    let (tt, vcf, vct, cache) = split_bytes(total);
    let helpers = threads.max(1) - 1;
    if helpers == 0 {
        return TableSplit {
            tt,
            main: (vcf, vct, cache),
            helper: (0, 0, 0),
        };
    }
    let per_helper = ((vcf + vct + cache) / 2 / helpers).min(vcf + cache);
    TableSplit {
        tt: tt - per_helper * helpers,
        main: (vcf, vct, cache),
        helper: (per_helper * 3 / 4, 0, per_helper / 4),
    }
}

/// What the root threat phase found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootThreat {
    /// The side to move wins by force: play `line[0]`; five after `plies` plies.
    Win {
        /// The winning line, attacker first.
        line: Vec<Pos>,
        /// Plies to the five.
        plies: i32,
        /// True for a VCF, false for a VCT.
        vcf: bool,
    },
    /// The opponent threatens a VCF or VCT; only these moves (and own fours) may stop it.
    Defend(Vec<Pos>),
    /// Nothing proven (or the opponent's threat cannot be stopped).
    Nothing,
}

// One cached leaf answer: the position key and "VCF in `plies`" (0 = none found).
#[derive(Clone, Copy, Default)]
struct LeafEntry {
    key: u64,
    plies: i32,
}

// Owned by the search core: the solvers keep their tables between calls, so the root
// phase of the next move and the leaves of this one reuse earlier proofs.
/// The solvers and the leaf cache of one searcher.
pub struct Threats {
    /// VCF solver (root and leaves share its table).
    pub vcf: VcfSolver,
    /// VCT solver (root only).
    pub vct: VctSolver,
    cache: Vec<LeafEntry>,
    mask: usize,
    sizes: (usize, usize, usize),
    /// Solver nodes spent since the last `take_nodes`.
    nodes: u64,
}

impl Threats {
    /// Solvers of `vcf`, `vct` bytes and a leaf cache of about `cache` bytes.
    #[must_use]
    pub fn new(vcf: usize, vct: usize, cache: usize) -> Threats {
        let want = (cache / std::mem::size_of::<LeafEntry>()).max(256);
        let n = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        };
        Threats {
            vcf: VcfSolver::new(vcf),
            vct: VctSolver::new(vct),
            cache: vec![LeafEntry::default(); n],
            mask: n - 1,
            sizes: (vcf, vct, cache),
            nodes: 0,
        }
    }

    /// Re-create the tables if the sizes changed (keeps them otherwise).
    pub fn resize(&mut self, vcf: usize, vct: usize, cache: usize) {
        if self.sizes != (vcf, vct, cache) {
            *self = Threats::new(vcf, vct, cache);
        }
    }

    /// Bytes given to the solvers and the cache.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.sizes.0 + self.sizes.1 + self.sizes.2
    }

    /// Forget every stored result (new game, other parameters).
    pub fn clear(&mut self) {
        self.vcf.clear();
        self.vct.clear();
        self.cache.fill(LeafEntry::default());
    }

    /// Solver nodes spent since the last call (for the search's node count).
    pub fn take_nodes(&mut self) -> u64 {
        std::mem::take(&mut self.nodes)
    }

    /// Leaves: plies of a VCF of the side to move (within `max_plies`, found within
    /// `node_limit` nodes), cached by position key. `None`: no VCF found.
    #[inline]
    pub fn leaf_vcf(
        &mut self,
        board: &mut Board,
        max_plies: i32,
        node_limit: u64,
        stop: &AtomicBool,
    ) -> Option<i32> {
        let key = board.key();
        let slot = self.cache[key as usize & self.mask];
        if slot.key == key {
            return (slot.plies > 0).then_some(slot.plies);
        }
        let r = self
            .vcf
            .solve(board, board.side_to_move(), max_plies, node_limit, stop);
        self.nodes += self.vcf.stats().nodes;
        let plies = match r {
            ThreatResult::Win { plies, .. } => plies,
            _ => 0,
        };
        self.cache[key as usize & self.mask] = LeafEntry { key, plies };
        (plies > 0).then_some(plies)
    }

    /// The root phase (see the module docs). Node budgets: `vcf_nodes` and `vct_nodes`
    /// for the side to move's and the opponent's VCF / VCT questions, `def_vcf` per
    /// candidate check of a VCF defence, `def_vct` for the VCT defence search (0 turns a
    /// VCT question off). `stop` aborts every solver.
    pub fn root(
        &mut self,
        board: &mut Board,
        budgets: RootBudgets,
        stop: &AtomicBool,
    ) -> RootThreat {
        let me = board.side_to_move();
        let opp = me.opp();
        // 1. Our VCF.
        let r = self
            .vcf
            .solve(board, me, ROOT_VCF_PLIES, budgets.vcf_nodes, stop);
        self.nodes += self.vcf.stats().nodes;
        if let ThreatResult::Win { plies, .. } = r {
            return RootThreat::Win {
                line: self.vcf.principal_line().to_vec(),
                plies,
                vcf: true,
            };
        }
        // 2. Their VCF: only its refutations (the table makes the repeated first solve
        // inside `vcf_defences` a probe).
        let r = self
            .vcf
            .solve(board, opp, ROOT_VCF_PLIES, budgets.vcf_nodes, stop);
        self.nodes += self.vcf.stats().nodes;
        if r.is_win() {
            return match vcf_defences(
                board,
                opp,
                &mut self.vcf,
                ROOT_VCF_PLIES,
                budgets.def_vcf,
                stop,
            ) {
                Some(d) if !d.is_empty() => RootThreat::Defend(d),
                _ => RootThreat::Nothing,
            };
        }
        // 3. Our VCT.
        if budgets.vct_nodes > 0 {
            let r = self
                .vct
                .solve(board, me, ROOT_VCT_PLIES, budgets.vct_nodes, stop);
            self.nodes += self.vct.stats().nodes;
            if let ThreatResult::Win { plies, .. } = r {
                return RootThreat::Win {
                    line: self.vct.principal_line().to_vec(),
                    plies,
                    vcf: false,
                };
            }
        }
        // 4. Their VCT.
        if budgets.def_vct > 0 {
            if let Some(d) = vct_defences(
                board,
                opp,
                &mut self.vcf,
                &mut self.vct,
                ROOT_VCT_PLIES,
                budgets.def_vct,
                budgets.def_vct_max,
                stop,
            ) {
                if !d.is_empty() {
                    return RootThreat::Defend(d);
                }
            }
        }
        RootThreat::Nothing
    }
}

impl Threats {
    /// True when `attacker` (to move on `board`) is found to win by a VCF or a VCT
    /// within `nodes` solver nodes (the VCF question gets a quarter of them).
    pub fn has_forced_win(
        &mut self,
        board: &mut Board,
        attacker: Color,
        nodes: u64,
        stop: &AtomicBool,
    ) -> bool {
        let r = self
            .vcf
            .solve(board, attacker, ROOT_VCF_PLIES, nodes / 4, stop);
        self.nodes += self.vcf.stats().nodes;
        if r.is_win() {
            return true;
        }
        let r = self.vct.solve(board, attacker, ROOT_VCT_PLIES, nodes, stop);
        self.nodes += self.vct.stats().nodes;
        r.is_win()
    }
}

/// Node budgets of the root threat phase (see [`Threats::root`]) and the cap on the
/// length of a VCT defence list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootBudgets {
    /// Each side's VCF question.
    pub vcf_nodes: u64,
    /// The side to move's VCT question (0 = skip).
    pub vct_nodes: u64,
    /// Each candidate check of a VCF defence.
    pub def_vcf: u64,
    /// The opponent's VCT defence search (0 = skip).
    pub def_vct: u64,
    /// The VCT defences restrict the root only when at most this many survive.
    pub def_vct_max: usize,
}
