//! The search: iterative deepening around an MTD(f) driver (default) or a PVS
//! aspiration-window driver, both over the same zero-window/PVS negamax
//! ([`alphabeta`]), transposition table and evaluation.
//!
//! Time: the hard limit (`SearchLimits::maximum`), the node limit and the stop flag are
//! polled every `check_interval` nodes; the soft limit (`optimum`) is checked between
//! iterations, stretched when the best move changed or the value dropped. With depth or
//! node limits and no time pressure a one-thread search is deterministic.
//!
//! Threads (Lazy SMP, [`Searcher::set_threads`]): the main thread runs the search as
//! with one thread (root threat phase, root moves, iterative deepening with the time
//! rules). Helper threads, each with its own frames, history, killers and threat
//! solvers, start with the iterative deepening on the same root moves and share only
//! the transposition table; helper `i` skips some depths ([`helper_skips`]) so that the
//! threads spread over two or more depths instead of searching one tree in step. When
//! the main thread stops, it stops the helpers and plays the move of the deepest
//! completed iteration that also has a better value than its own ([`pick_result`]).

pub mod alphabeta;
pub mod params;
pub mod stack;
pub mod threats;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::board::Board;
use crate::eval::evaluate;
use crate::movegen::{generate, BBox, OrderInfo, ScoredMove, Stage, TT_MOVE_SCORE};
use crate::pattern::Pattern4;
use crate::time::SearchLimits;
use crate::tt::{Bound, Tt};
use crate::types::{
    is_mate, Pos, SearchInfo, Value, NUM_CELLS, VALUE_INFINITE, VALUE_MATE, VALUE_NONE,
};
use params::{Driver, SearchParams};
use stack::{new_stack, Frame, MAX_PLY};
use threats::{split_tables, RootBudgets, RootThreat, Threats};

/// Deepest nominal iteration.
pub const MAX_DEPTH: i32 = (MAX_PLY as i32) - 8;

pub use crate::types::ONE_PLY;

/// The whole plies of a depth in [`ONE_PLY`] units, rounded to the nearest and at least
/// one: the index of the depth-keyed tables and margins at a node of `depth` > 0.
#[must_use]
pub fn whole_plies(depth: i32) -> i32 {
    ((depth + ONE_PLY / 2) / ONE_PLY).max(1)
}

/// Solver speed assumed when fitting the root threat phase's node budgets into its time
/// share (nodes per millisecond; about half what one loaded core does).
const SOLVER_NODES_PER_MS: u64 = 500;

/// Depths and move indices of the reduction table (larger ones use the last entry).
pub const LMR_TABLE: usize = 64;

/// The late-move reduction of a quiet move at move index `i` with `depth` plies left.
#[must_use]
pub fn reduction(p: &SearchParams, depth: usize, i: usize) -> i32 {
    if !p.lmr || i < p.lmr_min_index || (depth as i32) < p.lmr_min_depth {
        return 0;
    }
    if p.lmr_k == 0 {
        return 1 + i32::from(i >= 2 * p.lmr_min_index && depth as i32 >= 2 * p.lmr_min_depth);
    }
    let l = (depth as f64).ln() * (i as f64).ln();
    ((f64::from(p.lmr_c) + f64::from(p.lmr_k) * l) / 1000.0).max(0.0) as i32
}

/// The most moves searched at an unforced node with `depth` plies left (`mcp`;
/// `u16::MAX` when off).
#[must_use]
pub fn move_count(p: &SearchParams, depth: usize) -> u16 {
    if p.mcp == 0 {
        return u16::MAX;
    }
    let curve = (depth as f64).powf(f64::from(p.mcp_pow) / 1000.0);
    (p.mcp as f64 + curve).min(f64::from(u16::MAX)) as u16
}

/// Default transposition table size when nothing else is known (bytes).
pub const DEFAULT_TT_BYTES: usize = 128 << 20;

/// Stack size of a helper search thread (reserved address space; only the part the
/// search touches, a few hundred KiB, becomes resident). The same as the main thread's
/// usual 8 MiB, so that a helper recurses as deep as the main thread can.
pub const HELPER_STACK_BYTES: usize = 8 << 20;

/// Stockfish's skip tables (before 2019): helper `i` uses entry `(i - 1) % 20`.
const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// True if helper thread `id` (1, 2, …; the main thread is 0 and skips nothing) skips
/// the iteration of `depth`: helper 1 searches the even depths, helper 2 the odd ones,
/// helpers 3–6 two depths of every four, and so on, so that at any time the threads
/// are spread over several depths.
#[must_use]
pub fn helper_skips(id: usize, depth: i32) -> bool {
    if id == 0 {
        return false;
    }
    let i = (id - 1) % SKIP_SIZE.len();
    ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 != 0
}

/// What a search returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play (`Pos::NONE` only if no square is empty).
    pub best: Pos,
    /// Its value for the side to move (from the last completed iteration).
    pub value: Value,
    /// Depth of the last completed iteration (0: none completed).
    pub depth: i32,
    /// Nodes searched (one per move made).
    pub nodes: u64,
    /// Principal variation of the last completed iteration.
    pub pv: Vec<Pos>,
}

// Everything the recursive search touches, split from the frames so that the search
// can borrow both mutably.
/// Search state shared by all plies.
pub struct Core {
    /// Parameters.
    pub params: SearchParams,
    /// Transposition table, shared with the helper threads during a search (between
    /// searches the main thread's reference is the only one, see [`Core::tt_mut`]).
    pub tt: Arc<Tt>,
    history: Box<[[i32; NUM_CELLS]; 2]>,
    /// Late-move reductions by [depth][move index], from the parameters.
    reductions: Box<[[i8; LMR_TABLE]; LMR_TABLE]>,
    /// Move-count pruning: the most moves at an unforced node by depth (`mcp`).
    move_counts: [u16; LMR_TABLE],
    nodes: u64,
    /// Depth of the current root search (bounds the plies of singular extensions).
    root_depth: i32,
    /// The threat extension of the game's rule (`three_ext` or `three_ext_renju`), in
    /// quarter plies.
    three_ext: i32,
    /// Reverse futility's depth and margin of the game's rule (`rfp`, `rfp_margin`, or
    /// their renju keys).
    rfp: (i32, Value),
    /// Razoring's depth in the game's rule (`razor`, or `razor_renju`).
    razor: i32,
    /// Singular extension in this search (`se`, or `se_large` on a large board).
    singular: bool,
    /// The learned move ordering in use (`order_learned` and a table for the rule).
    order: Option<&'static crate::order::OrderTable>,
    next_check: u64,
    seldepth: i32,
    stopped: bool,
    stop: Option<Arc<AtomicBool>>,
    hard_deadline: Option<Instant>,
    max_nodes: u64,
    /// Threat solvers (root phase and leaf VCF).
    pub threats: Threats,
    /// Stop flag handed to the leaf solver when the search has none.
    never: AtomicBool,
    /// With helper threads: the nodes of every thread, each adding its own at its polls
    /// (the node limit counts them all).
    counter: Option<Arc<AtomicU64>>,
    /// This thread's nodes already added to `counter`.
    reported: u64,
    /// A helper's second stop flag: the main thread's outside one (`stop` is the flag
    /// the main thread raises when it is done).
    outside: Option<Arc<AtomicBool>>,
}

impl Core {
    /// A core with a share of `tt` and solver tables of (`vcf`, `vct`, `cache`) bytes.
    fn new(params: SearchParams, tt: Arc<Tt>, solvers: (usize, usize, usize)) -> Core {
        Core {
            params,
            tt,
            history: Box::new([[0; NUM_CELLS]; 2]),
            reductions: Box::new([[0; LMR_TABLE]; LMR_TABLE]),
            move_counts: [u16::MAX; LMR_TABLE],
            nodes: 0,
            root_depth: 0,
            three_ext: 0,
            rfp: (0, 0),
            razor: 0,
            singular: false,
            order: None,
            next_check: 0,
            seldepth: 0,
            stopped: false,
            stop: None,
            hard_deadline: None,
            max_nodes: u64::MAX,
            threats: Threats::new(solvers.0, solvers.1, solvers.2),
            never: AtomicBool::new(false),
            counter: None,
            reported: 0,
            outside: None,
        }
    }

    /// The table, to change it between searches, when no helper holds a reference.
    fn tt_mut(&mut self) -> Option<&mut Tt> {
        let t = Arc::get_mut(&mut self.tt);
        debug_assert!(t.is_some(), "the table is shared only during a search");
        t
    }

    /// Check the stop flag, the node limit and the hard deadline.
    fn poll(&mut self) {
        self.next_check = self.nodes + self.params.check_interval;
        let nodes = match &self.counter {
            None => self.nodes,
            Some(c) => {
                let add = self.nodes - self.reported;
                self.reported = self.nodes;
                c.fetch_add(add, Ordering::Relaxed) + add
            }
        };
        let raised =
            |f: &Option<Arc<AtomicBool>>| f.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
        if raised(&self.stop)
            || raised(&self.outside)
            || nodes >= self.max_nodes
            || self.hard_deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.stopped = true;
        }
    }

    /// Nodes of this search so far, every thread's (as far as they have reported).
    fn total_nodes(&self) -> u64 {
        match &self.counter {
            None => self.nodes,
            Some(c) => c.load(Ordering::Relaxed) + (self.nodes - self.reported),
        }
    }
}

/// A helper thread's own search state.
struct Worker {
    core: Core,
    stack: Vec<Frame>,
}

// One searcher per engine: owns the TT and the preallocated per-ply frames so that
// nothing is allocated inside the search.
/// A reusable searcher.
pub struct Searcher {
    core: Core,
    stack: Vec<Frame>,
    /// Helper threads' state (threads − 1 of them).
    helpers: Vec<Worker>,
    /// The byte budget of every table together.
    table_bytes: usize,
}

impl Searcher {
    /// A one-thread searcher using about `tt_bytes` bytes of tables in all: the
    /// transposition table and the threat solvers' tables share them (see
    /// [`threats::split_bytes`]).
    #[must_use]
    pub fn new(tt_bytes: usize, params: SearchParams) -> Searcher {
        Searcher::with_threads(tt_bytes, params, 1)
    }

    /// A searcher of `threads` threads (at least 1) using about `tt_bytes` bytes of
    /// tables in all, the helpers' solver tables included (see [`threats::split_tables`]).
    #[must_use]
    pub fn with_threads(tt_bytes: usize, params: SearchParams, threads: usize) -> Searcher {
        let split = split_tables(tt_bytes, threads);
        let helpers = (1..threads.max(1))
            .map(|_| Worker {
                core: Core::new(params.clone(), idle_tt(), split.helper),
                stack: new_stack(),
            })
            .collect();
        Searcher {
            core: Core::new(params, Arc::new(Tt::new(split.tt)), split.main),
            stack: new_stack(),
            helpers,
            table_bytes: tt_bytes,
        }
    }

    /// Number of search threads.
    #[must_use]
    pub fn threads(&self) -> usize {
        1 + self.helpers.len()
    }

    /// Use `threads` threads (at least 1). The tables are split anew, so a change
    /// empties them.
    pub fn set_threads(&mut self, threads: usize) {
        if threads.max(1) != self.threads() {
            let params = self.core.params.clone();
            let bytes = self.table_bytes;
            // Free the old tables before the new ones are made (peak memory).
            *self = Searcher::new(0, params.clone());
            *self = Searcher::with_threads(bytes, params, threads);
        }
    }

    /// The parameters.
    #[must_use]
    pub fn params(&self) -> &SearchParams {
        &self.core.params
    }

    /// Replace the parameters (the leaf cache depends on them: it is cleared).
    pub fn set_params(&mut self, params: SearchParams) {
        let helpers = self.helpers.iter_mut().map(|w| &mut w.core);
        for core in std::iter::once(&mut self.core).chain(helpers) {
            if params != core.params {
                core.threats.clear();
            }
            core.params = params.clone();
        }
    }

    /// Resize the tables to a total of `bytes` (split as in [`Searcher::with_threads`];
    /// no-op if the size is unchanged).
    pub fn resize_tt(&mut self, bytes: usize) {
        let split = split_tables(bytes, self.threads());
        if let Some(tt) = self.core.tt_mut() {
            tt.resize(split.tt);
        }
        let (vcf, vct, cache) = split.main;
        self.core.threats.resize(vcf, vct, cache);
        let (vcf, vct, cache) = split.helper;
        for w in &mut self.helpers {
            w.core.threats.resize(vcf, vct, cache);
        }
        self.table_bytes = bytes;
    }

    /// Only the root threat phase of a search of `board` within `limits` (for
    /// benchmarks: its defence searches are not all counted as nodes).
    pub fn threat_phase(&mut self, board: &mut Board, limits: &SearchLimits) -> RootThreat {
        crate::eval::prepare(board, &self.core.params.eval);
        self.core.reset_for_search(limits, None);
        self.core.root_threats(board, limits)
    }

    /// Bytes of the transposition table plus every thread's threat solver tables.
    #[must_use]
    pub fn tt_bytes(&self) -> usize {
        self.core.tt.bytes()
            + self.core.threats.bytes()
            + self
                .helpers
                .iter()
                .map(|w| w.core.threats.bytes())
                .sum::<usize>()
    }

    /// Fault in up to `max_bytes` more of the tables (see [`Tt::prefault`]); true while
    /// part of them is still cold. The engine calls it while it waits for input.
    pub fn prefault(&mut self, max_bytes: usize) -> bool {
        self.core.tt_mut().is_some_and(|t| t.prefault(max_bytes))
    }

    /// Forget the transposition table, killers and history (new game).
    pub fn clear(&mut self) {
        if let Some(tt) = self.core.tt_mut() {
            tt.clear();
        }
        let main = (&mut self.core, &mut self.stack);
        let helpers = self.helpers.iter_mut().map(|w| (&mut w.core, &mut w.stack));
        for (core, stack) in std::iter::once(main).chain(helpers) {
            core.threats.clear();
            core.history.iter_mut().for_each(|h| h.fill(0));
            for f in stack.iter_mut() {
                f.killers = [Pos::NONE; 2];
            }
        }
    }

    /// Search `board` (left unchanged on return) within `limits`, polling `stop`, and
    /// report each completed iteration of the main thread through `on_info`.
    pub fn go(
        &mut self,
        board: &mut Board,
        limits: &SearchLimits,
        stop: Option<Arc<AtomicBool>>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        crate::eval::prepare(board, &self.core.params.eval);
        let mut stack = std::mem::take(&mut self.stack);
        let r = self
            .core
            .run(board, &mut stack, limits, stop, on_info, &mut self.helpers);
        self.stack = stack;
        r
    }
}

/// The one-bucket table a helper holds between searches, so that the main thread's
/// reference to the real one is the only one then.
fn idle_tt() -> Arc<Tt> {
    Arc::new(Tt::new(0))
}

impl Core {
    fn reset_for_search(&mut self, limits: &SearchLimits, stop: Option<Arc<AtomicBool>>) {
        self.nodes = 0;
        self.next_check = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.stop = stop;
        self.hard_deadline = limits.start.checked_add(limits.maximum);
        self.max_nodes = limits.max_nodes.unwrap_or(u64::MAX);
        self.counter = None;
        self.reported = 0;
        self.outside = None;
        // The main thread's (helpers share the table: the main thread has done this).
        if let Some(tt) = Arc::get_mut(&mut self.tt) {
            tt.new_search();
            tt.two_bounds = self.params.tt_two_bounds;
        }
        for (d, row) in self.reductions.iter_mut().enumerate() {
            for (i, r) in row.iter_mut().enumerate() {
                *r = reduction(&self.params, d, i).clamp(0, 100) as i8;
            }
        }
        for (d, n) in self.move_counts.iter_mut().enumerate() {
            *n = move_count(&self.params, d);
        }
        for h in self.history.iter_mut() {
            for v in h.iter_mut() {
                *v /= 2;
            }
        }
    }

    fn run(
        &mut self,
        board: &mut Board,
        stack: &mut [Frame],
        limits: &SearchLimits,
        stop: Option<Arc<AtomicBool>>,
        on_info: &mut dyn FnMut(&SearchInfo),
        helpers: &mut [Worker],
    ) -> SearchResult {
        debug_assert!(
            Arc::get_mut(&mut self.tt).is_some(),
            "no helper holds the table"
        );
        self.reset_for_search(limits, stop);
        let elapsed_ms = |l: &SearchLimits| u64::try_from(l.elapsed().as_millis()).unwrap_or(0);
        let mut result = SearchResult {
            best: Pos::NONE,
            value: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
        if board.empty_count() == 0 {
            return result;
        }
        // Step 1. Immediate win.
        let me = board.side_to_move();
        if let Some(p) = board.winning_move(me) {
            result.best = p;
            result.value = crate::types::mate_in(1);
            result.depth = 1;
            result.pv = vec![p];
            on_info(&info_of(&result, 1, elapsed_ms(limits)));
            return result;
        }
        // Step 2. Threat solvers: a forced win is played at once; a forced win of the
        // opponent restricts the root to its refutations.
        let threat = if self.params.threats {
            self.root_threats(board, limits)
        } else {
            RootThreat::Nothing
        };
        if let RootThreat::Win { line, plies, .. } = &threat {
            result.best = line[0];
            result.value = crate::types::mate_in(*plies);
            result.depth = 1;
            result.pv.clone_from(line);
            result.nodes = self.nodes;
            on_info(&info_of_search(&result, *plies, elapsed_ms(limits)));
            return result;
        }
        // Step 3. Root moves.
        stack[0].bbox = BBox::of_board(board);
        let tt_move = self.tt.probe(board.key(), 0).map_or(Pos::NONE, |h| h.best);
        let stage = {
            let (cur, _) = stack.split_first_mut().expect("frames");
            let info = OrderInfo {
                tt_move,
                killers: [Pos::NONE; 2],
                history: &self.history[me.idx()],
                own: &self.params.order_own,
                opp: &self.params.order_opp,
                killer: self.params.killer_score,
                learned: self.order_table(board.rule()),
                near: crate::order::near_moves(board),
                far: self.params.far(),
                // The root's threat phase answers the opponent's threats.
                four_three: false,
            };
            generate(
                board,
                &cur.bbox,
                &mut cur.moves,
                &info,
                self.params.root_top_n,
            )
        };
        let defend = match &threat {
            RootThreat::Defend(d) if stage != Stage::BlockFive => Some(d.as_slice()),
            _ => None,
        };
        let keep = if stage == Stage::All && defend.is_none() {
            self.params.root_top_n
        } else {
            usize::MAX
        };
        stack[0].moves.sort_and_truncate(keep);
        let mut root: Vec<ScoredMove> = stack[0].moves.as_slice().to_vec();
        // `root_net`: the root list in the order of the leaf search's value after each
        // move (the TT move stays first).
        if self.params.root_net && stage == Stage::All && defend.is_none() && root.len() > 1 {
            let (cur, rest) = stack.split_first_mut().expect("frames");
            for m in root.iter_mut().filter(|m| m.score < TT_MOVE_SCORE) {
                m.score = self.value_after(board, &cur.bbox, rest, m.pos, 0);
            }
            let key = |m: &ScoredMove| (std::cmp::Reverse(m.score), m.pos);
            root.sort_by_key(key);
        }
        if let Some(d) = defend {
            let limit = if stage == Stage::All {
                2 * self.params.root_top_n
            } else {
                usize::MAX
            };
            let r = restrict_to_defences(board, &root, d, stage == Stage::All, limit);
            if !r.is_empty() {
                root = r;
            }
        }
        if root.is_empty() {
            // Lost (the only defences are forbidden) or nothing near: any legal move.
            result.best = crate::fallback::fallback_move(board);
            return result;
        }
        result.best = root[0].pos;
        if root.len() == 1 {
            result.depth = 1;
            // The counts decide some (two fives to block: lost), else the evaluation.
            result.value = crate::eval::quick_result(board, 0, self.params.quick_win5)
                .unwrap_or_else(|| evaluate(board, &self.params.eval));
            result.pv = vec![root[0].pos];
            on_info(&info_of(&result, 1, elapsed_ms(limits)));
            return result;
        }

        // Step 4. Iterative deepening, with helper threads if there are any.
        let no_defence = defend.is_none();
        self.iterate_smp(
            board,
            stack,
            &mut root,
            stage,
            no_defence,
            limits,
            on_info,
            &mut result,
            helpers,
        );
        result
    }

    /// The main thread's iterative deepening over `root` (step 4 of [`Core::run`]):
    /// `result` holds the last completed iteration's move, value and PV, or a move that
    /// failed high in the unfinished one.
    #[allow(clippy::too_many_arguments)]
    fn iterate(
        &mut self,
        board: &mut Board,
        stack: &mut [Frame],
        root: &mut Vec<ScoredMove>,
        stage: Stage,
        no_defence: bool,
        limits: &SearchLimits,
        on_info: &mut dyn FnMut(&SearchInfo),
        result: &mut SearchResult,
    ) {
        let elapsed_ms = |l: &SearchLimits| u64::try_from(l.elapsed().as_millis()).unwrap_or(0);
        let max_depth = limits.max_depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut prev_value = evaluate(board, &self.params.eval);
        let mut prev_iteration = Duration::ZERO;
        // Root moves verified against the opponent's forced wins (at most
        // `verify_moves`), and whether a refutation has just dropped the best move.
        let mut verified: Vec<Pos> = Vec::new();
        let verify = self.params.threats
            && self.params.verify_nodes > 0
            && no_defence
            && stage == Stage::All;
        let me = board.side_to_move();
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let prev_best = result.best;
            let iteration_start = limits.elapsed();
            let (value, best, complete) = match self.params.driver {
                Driver::Mtdf => self.mtdf(board, stack, root, depth, prev_value),
                Driver::Pvs => self.aspiration(board, stack, root, depth, prev_value),
            };
            if !complete {
                // A move that already proved at least the previous value is kept.
                if let Some(b) = best {
                    if depth > 1 && value >= prev_value {
                        result.best = b;
                    }
                }
                break;
            }
            let best = best.unwrap_or(result.best);
            result.best = best;
            result.value = value;
            result.depth = depth;
            result.pv = self.principal_variation(board, best, depth);
            result.nodes = self.total_nodes();
            on_info(&info_of_search(result, self.seldepth, elapsed_ms(limits)));

            // Step 4b. Root move verification: a best move after which the opponent has
            // a VCF or VCT is dropped, and the search goes on without it (the next
            // iteration at least: a refutation lifts the soft stop once).
            let mut refuted = false;
            if verify
                && depth >= self.params.verify_depth
                && !is_mate(value)
                && root.len() > 1
                && !verified.contains(&best)
                && verified.len() < self.params.verify_moves
            {
                verified.push(best);
                board.make(best);
                let stop = self.stop.clone();
                let flag = stop.as_deref().unwrap_or(&self.never);
                let lost =
                    self.threats
                        .has_forced_win(board, me.opp(), self.params.verify_nodes, flag);
                board.unmake();
                self.nodes += self.threats.take_nodes();
                if lost && !self.stopped {
                    root.retain(|m| m.pos != best);
                    result.best = root[0].pos;
                    result.pv = vec![root[0].pos];
                    refuted = true;
                }
            }

            // Step 5. Stop conditions.
            if is_mate(value) && VALUE_MATE - value.abs() <= depth {
                break;
            }
            if refuted {
                prev_iteration = Duration::ZERO;
                prev_value = value;
                continue;
            }
            let elapsed = limits.elapsed();
            // The soft limit: more when the best move changed or the value dropped,
            // less when the root move was forced.
            let mut soft = limits.optimum.as_secs_f64();
            if best != prev_best && depth > 1 {
                soft *= 1.5;
            }
            if value < prev_value - 40 {
                soft *= 1.3;
            }
            if stage != Stage::All {
                soft *= 0.5;
            }
            let soft = Duration::from_secs_f64(
                soft * f64::from(self.params.next_iteration_permille) / 1000.0,
            )
            .min(limits.maximum);
            // With nothing to save for later moves (a per-move limit only) and
            // `partial_iterations`, the whole budget is used: no soft stop.
            let nothing_to_save = limits.optimum >= limits.maximum;
            let use_all = self.params.partial_iterations && nothing_to_save;
            if elapsed >= soft && !use_all {
                break;
            }
            // Do not start an iteration the hard limit would cut: it would mostly be
            // lost and the reply would come at the hard limit. Its length is predicted
            // from the growth of the last two iterations. (`partial_iterations`: unless
            // the time would be unused anyway.)
            let this_iteration = elapsed.saturating_sub(iteration_start);
            let growth = if prev_iteration >= Duration::from_millis(2) {
                (this_iteration.as_secs_f64() / prev_iteration.as_secs_f64()).clamp(1.5, 4.0)
            } else {
                2.0
            };
            if elapsed + this_iteration.mul_f64(growth) > limits.maximum && !use_all {
                break;
            }
            prev_iteration = this_iteration;
            prev_value = value;
        }
        result.nodes = self.total_nodes();
    }

    /// Step 4 with helper threads (Lazy SMP): each helper searches its own copy of the
    /// board and of `root` on its depths ([`helper_skips`]) until the main thread's
    /// iterative deepening ([`Core::iterate`]) ends, which then stops them, and the
    /// result is the main thread's unless a helper did better ([`pick_result`]).
    /// Without helpers it is [`Core::iterate`] alone.
    #[allow(clippy::too_many_arguments)]
    fn iterate_smp(
        &mut self,
        board: &mut Board,
        stack: &mut [Frame],
        root: &mut Vec<ScoredMove>,
        stage: Stage,
        no_defence: bool,
        limits: &SearchLimits,
        on_info: &mut dyn FnMut(&SearchInfo),
        result: &mut SearchResult,
        helpers: &mut [Worker],
    ) {
        if helpers.is_empty() {
            self.iterate(
                board, stack, root, stage, no_defence, limits, on_info, result,
            );
            return;
        }
        // Raised when the main thread is done. The helpers also poll the outside stop
        // flag (and the clock), so that a stop reaches them as soon as the main thread.
        let done = Arc::new(AtomicBool::new(false));
        let counter = Arc::new(AtomicU64::new(0));
        self.counter = Some(Arc::clone(&counter));
        self.reported = 0;
        // Lend the table to the helpers; their idle one-bucket tables come back after.
        let idle: Vec<Arc<Tt>> = helpers
            .iter_mut()
            .map(|w| std::mem::replace(&mut w.core.tt, Arc::clone(&self.tt)))
            .collect();
        let outcomes: Vec<Option<SearchResult>> = std::thread::scope(|s| {
            let mut running = Vec::with_capacity(helpers.len());
            for (i, w) in helpers.iter_mut().enumerate() {
                let mut b = board.duplicate();
                let mut r = root.to_vec();
                let (done, counter) = (Arc::clone(&done), Arc::clone(&counter));
                let outside = self.stop.clone();
                let spawned = std::thread::Builder::new()
                    .name(format!("search-helper-{}", i + 1))
                    .stack_size(HELPER_STACK_BYTES)
                    .spawn_scoped(s, move || {
                        let core = &mut w.core;
                        core.reset_for_search(limits, Some(done));
                        core.counter = Some(counter);
                        core.outside = outside;
                        core.helper_iterate(&mut b, &mut w.stack, &mut r, i + 1, limits)
                    });
                // A helper that cannot be started is only missing.
                running.push(spawned.ok());
            }
            self.iterate(
                board, stack, root, stage, no_defence, limits, on_info, result,
            );
            done.store(true, Ordering::Relaxed);
            running
                .into_iter()
                .map(|h| h.and_then(|h| h.join().ok()))
                .collect()
        });
        for (w, t) in helpers.iter_mut().zip(idle) {
            w.core.tt = t;
        }
        self.counter = None;
        let nodes = self.nodes + outcomes.iter().flatten().map(|r| r.nodes).sum::<u64>();
        if let Some(h) = pick_result(result, &outcomes, root) {
            result.best = h.best;
            result.value = h.value;
            result.depth = h.depth;
            result.pv = self.principal_variation(board, h.best, h.depth);
            result.nodes = nodes;
            let ms = u64::try_from(limits.elapsed().as_millis()).unwrap_or(0);
            on_info(&info_of_search(result, h.depth, ms));
        }
        result.nodes = nodes;
    }

    /// A helper thread's iterative deepening over its copy of the root moves, on the
    /// depths [`helper_skips`] leaves to helper `id`, until the stop flag or a limit
    /// stops it. Returns its last completed iteration (depth 0: none) and its nodes.
    fn helper_iterate(
        &mut self,
        board: &mut Board,
        stack: &mut [Frame],
        root: &mut [ScoredMove],
        id: usize,
        limits: &SearchLimits,
    ) -> SearchResult {
        stack[0].bbox = BBox::of_board(board);
        let max_depth = limits.max_depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut result = SearchResult {
            best: root.first().map_or(Pos::NONE, |m| m.pos),
            value: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
        let mut prev_value = evaluate(board, &self.params.eval);
        for depth in 1..=max_depth {
            if helper_skips(id, depth) {
                continue;
            }
            self.seldepth = 0;
            let (value, best, complete) = match self.params.driver {
                Driver::Mtdf => self.mtdf(board, stack, root, depth, prev_value),
                Driver::Pvs => self.aspiration(board, stack, root, depth, prev_value),
            };
            if !complete {
                break;
            }
            result.best = best.unwrap_or(result.best);
            result.value = value;
            result.depth = depth;
            prev_value = value;
            if is_mate(value) && VALUE_MATE - value.abs() <= depth {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// The root threat phase under a watchdog thread that raises the solvers' stop flag
    /// after its time share or when the search's own stop flag is raised, with the node
    /// budgets of [`root_threat_budgets`]; the solver nodes count as search nodes.
    fn root_threats(&mut self, board: &mut Board, limits: &SearchLimits) -> RootThreat {
        let (budgets, allowed) = root_threat_budgets(&self.params, limits);
        let deadline = limits.start.checked_add(allowed);
        let outside = self.stop.clone();
        let flag = AtomicBool::new(false);
        let done = AtomicBool::new(false);
        let threats = &mut self.threats;
        let r = std::thread::scope(|s| {
            let watchdog = s.spawn(|| loop {
                if done.load(Ordering::Relaxed) {
                    break;
                }
                let now = Instant::now();
                if outside.as_ref().is_some_and(|o| o.load(Ordering::Relaxed))
                    || deadline.is_some_and(|d| now >= d)
                {
                    flag.store(true, Ordering::Relaxed);
                    break;
                }
                let wait = deadline.map_or(Duration::from_millis(2), |d| {
                    d.saturating_duration_since(now)
                        .min(Duration::from_millis(2))
                });
                std::thread::park_timeout(wait);
            });
            let r = threats.root(board, budgets, &flag);
            done.store(true, Ordering::Relaxed);
            watchdog.thread().unpark();
            r
        });
        self.nodes += self.threats.take_nodes();
        r
    }

    /// The learned move-ordering table for `rule`, when the parameters ask for it and
    /// one is shipped.
    fn order_table(&self, rule: crate::types::Rule) -> Option<&'static crate::order::OrderTable> {
        if self.params.order_learned {
            match self.params.order_file {
                Some(t) => Some(t.0),
                None => crate::order::shipped(rule),
            }
        } else {
            None
        }
    }

    /// Search every root move within (`alpha`, `beta`) (fail-soft). Returns the best
    /// value, the move that reached it, and moves that move to the front of `root`.
    #[allow(clippy::too_many_arguments)]
    fn root_search(
        &mut self,
        board: &mut Board,
        stack: &mut [Frame],
        root: &mut [ScoredMove],
        mut alpha: Value,
        beta: Value,
        depth: i32,
        pvs: bool,
    ) -> (Value, Pos) {
        let (w, h) = (board.width(), board.height());
        self.root_depth = depth;
        let p = &self.params;
        (self.three_ext, self.rfp, self.razor) = if board.rule() == crate::types::Rule::Renju {
            (
                p.three_ext_renju,
                (p.rfp_depth_renju, p.rfp_margin_renju),
                p.razor_depth_renju,
            )
        } else {
            (p.three_ext, (p.rfp_depth, p.rfp_margin), p.razor_depth)
        };
        self.singular = self.params.singular || (self.params.se_large && w.max(h) > 15);
        self.order = self.order_table(board.rule());
        let orig_alpha = alpha;
        let mut best = -VALUE_INFINITE;
        let mut best_i = usize::MAX;
        let (cur, rest) = stack.split_first_mut().expect("frames");
        for i in 0..root.len() {
            let m = root[i].pos;
            rest[0].bbox = cur.bbox.with(m, w, h);
            rest[0].evals = [VALUE_NONE; 2];
            let me = board.side_to_move();
            let quiet = board.pattern4(m, me) < Pattern4::Flex3
                && board.pattern4(m, me.opp()) < Pattern4::Flex3;
            let r = if self.params.root_lmr && quiet && i > 0 {
                let last = LMR_TABLE - 1;
                i32::from(self.reductions[(depth as usize).min(last)][i.min(last)])
                    .clamp(0, depth - 1)
            } else {
                0
            };
            // The children's depth in ONE_PLY units.
            let child = (depth - 1) * ONE_PLY;
            board.make(m);
            self.nodes += 1;
            // The root's zero-window passes are cut nodes: its children searched at full
            // depth are all nodes, a reduced search's child a cut node (`lmr_cut`).
            let v = if r > 0 {
                let reduced = child - r * ONE_PLY;
                rest[0].cut = true;
                let mut v = -self.search(board, rest, -alpha - 1, -alpha, reduced, 1, false);
                if v > alpha {
                    rest[0].cut = false;
                    v = -self.search(board, rest, -beta, -alpha, child, 1, beta - alpha > 1);
                }
                v
            } else if i == 0 || !pvs {
                rest[0].cut = false;
                -self.search(board, rest, -beta, -alpha, child, 1, beta - alpha > 1)
            } else {
                rest[0].cut = true;
                let mut v = -self.search(board, rest, -alpha - 1, -alpha, child, 1, false);
                if v > alpha && v < beta {
                    rest[0].cut = false;
                    v = -self.search(board, rest, -beta, -alpha, child, 1, true);
                }
                v
            };
            board.unmake();
            if self.stopped {
                break;
            }
            root[i].score = v;
            if v > best {
                best = v;
                best_i = i;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if best_i == usize::MAX {
            return (best, Pos::NONE);
        }
        let best_move = root[best_i].pos;
        root[..=best_i].rotate_right(1);
        if !self.stopped {
            let bound = Bound::of(best, orig_alpha, beta);
            self.tt
                .store(board.key(), 0, best, best_move, depth * ONE_PLY, bound);
        }
        (best, best_move)
    }

    /// MTD(f): zero-window searches around the guess until the bounds meet, or until a
    /// move has failed high and the bounds are at most `mtd_tol` apart (the value is
    /// then the proven lower bound). Returns (value, best move, completed).
    ///
    /// Classic MTD(f) tests the last value returned; with this evaluation's fine grain
    /// the fail-soft values rarely pass the window, so each pass moved a bound by one
    /// (23 passes for one iteration of the `bench-depth` position). With `mtd_step`,
    /// consecutive passes failing the same way double their step away from the last
    /// value (bisecting between known bounds instead tested far-off values and cost
    /// 7 % more bench nodes).
    fn mtdf(
        &mut self,
        board: &mut Board,
        stack: &mut [Frame],
        root: &mut [ScoredMove],
        depth: i32,
        guess: Value,
    ) -> (Value, Option<Pos>, bool) {
        let mut g = guess.clamp(-VALUE_INFINITE + 1, VALUE_INFINITE - 1);
        let mut lower = -VALUE_INFINITE;
        let mut upper = VALUE_INFINITE;
        let mut high_move = None;
        let mut last_move = None;
        let stepped = self.params.mtd_step;
        let tol = self.params.mtd_tol;
        let mut beta = g;
        // Positive: that many fail-highs in a row; negative: fail-lows.
        let mut run: i32 = 0;
        while lower < upper {
            let (v, m) = self.root_search(board, stack, root, beta - 1, beta, depth, false);
            if self.stopped {
                return (lower, high_move, false);
            }
            g = v;
            if m.is_some() {
                last_move = Some(m);
            }
            if v < beta {
                upper = v;
                run = run.min(0) - 1;
            } else {
                lower = v;
                high_move = Some(m);
                run = run.max(0) + 1;
            }
            // The next test, always inside (lower, upper] so that every pass narrows it.
            let step = if stepped {
                1 << (run.unsigned_abs() - 1).min(16)
            } else {
                1
            };
            beta = if v < beta { v - (step - 1) } else { v + step };
            if lower < upper {
                beta = beta.clamp(lower + 1, upper);
            }
            // Close enough: the move that failed high is kept with its proven bound.
            if tol > 0
                && high_move.is_some()
                && upper - lower <= tol
                && !is_mate(lower)
                && !is_mate(upper)
            {
                return (lower, high_move, true);
            }
        }
        (g, high_move.or(last_move), true)
    }

    /// PVS inside an aspiration window around the previous value, widened on failure.
    /// Returns (value, best move, completed).
    fn aspiration(
        &mut self,
        board: &mut Board,
        stack: &mut [Frame],
        root: &mut [ScoredMove],
        depth: i32,
        prev: Value,
    ) -> (Value, Option<Pos>, bool) {
        let mut delta = self.params.aspiration_delta;
        let (mut alpha, mut beta) = if depth >= 3 && !is_mate(prev) {
            (
                (prev - delta).max(-VALUE_INFINITE),
                (prev + delta).min(VALUE_INFINITE),
            )
        } else {
            (-VALUE_INFINITE, VALUE_INFINITE)
        };
        let mut high_move = None;
        loop {
            let (v, m) = self.root_search(board, stack, root, alpha, beta, depth, true);
            if self.stopped {
                return (alpha, high_move, false);
            }
            if v <= alpha && alpha > -VALUE_INFINITE {
                alpha = (v - delta).max(-VALUE_INFINITE);
                if is_mate(v) {
                    alpha = -VALUE_INFINITE;
                }
            } else if v >= beta && beta < VALUE_INFINITE {
                high_move = Some(m);
                beta = (v + delta).min(VALUE_INFINITE);
                if is_mate(v) {
                    beta = VALUE_INFINITE;
                }
            } else {
                return (v, Some(m).filter(|p| p.is_some()).or(high_move), true);
            }
            delta = delta.saturating_mul(2);
        }
    }

    /// The principal variation: `first`, then best moves from the transposition table,
    /// ending at a five.
    fn principal_variation(&self, board: &mut Board, first: Pos, depth: i32) -> Vec<Pos> {
        let mut pv = vec![first];
        let mut made = 0;
        let mut m = first;
        loop {
            let five = board.pattern4(m, board.side_to_move()) == Pattern4::Five;
            board.make(m);
            made += 1;
            if five || made >= depth.max(1) as usize + 4 {
                break;
            }
            let Some(h) = self.tt.probe(board.key(), 0) else {
                break;
            };
            m = h.best;
            if !m.is_some() || !board.in_board(m) || !board.is_empty(m) {
                break;
            }
            pv.push(m);
        }
        for _ in 0..made {
            board.unmake();
        }
        pv
    }
}

/// The node budgets of the root threat phase of a search within `limits`, and its time
/// share: `threat_time_permille` of the soft limit (at most half the hard limit). The
/// budgets of the parameters are cut to what fits that share at a pessimistic solver
/// speed (the defence searches make many solver calls, each of which notices the stop
/// flag only every few hundred nodes) and to the same share of a node limit.
#[must_use]
pub fn root_threat_budgets(p: &SearchParams, limits: &SearchLimits) -> (RootBudgets, Duration) {
    let allowed = limits
        .optimum
        .mul_f64(f64::from(p.threat_time_permille) / 1000.0)
        .min(limits.maximum / 2);
    let nodes_in_time = u64::try_from(allowed.as_millis())
        .unwrap_or(u64::MAX)
        .saturating_mul(SOLVER_NODES_PER_MS);
    let nodes_in_limit = limits.max_nodes.map_or(u64::MAX, |m| {
        m.saturating_mul(u64::from(p.threat_time_permille)) / 1000
    });
    let share = |n: u64, div: u64| n.min(nodes_in_time / div).min(nodes_in_limit / div);
    let budgets = RootBudgets {
        vcf_nodes: share(p.root_vcf_nodes, 4),
        vct_nodes: share(p.root_vct_nodes, 4),
        def_vcf: share(p.defence_vcf_nodes, 64),
        def_vct: share(p.defence_vct_nodes, 32),
        def_vct_max: p.defence_vct_max,
    };
    (budgets, allowed)
}

/// The helper result to play instead of the main thread's `main`, if any: the
/// deepest completed iteration that is deeper than the main thread's and has a better
/// value (Stockfish 8's rule; a deeper one with a worse value is more often a worse
/// move than a better-informed one). Any completed helper iteration beats a main thread
/// that completed none. Only moves of `root` qualify.
fn pick_result<'a>(
    main: &SearchResult,
    helpers: &'a [Option<SearchResult>],
    root: &[ScoredMove],
) -> Option<&'a SearchResult> {
    let (mut depth, mut value) = (main.depth, main.value);
    let mut pick = None;
    for h in helpers.iter().flatten() {
        let better = h.depth > depth && (depth == 0 || h.value > value);
        if better && root.iter().any(|m| m.pos == h.best) {
            (depth, value) = (h.depth, h.value);
            pick = Some(h);
        }
    }
    pick
}

/// The root moves that may stop the opponent's threat: the generated moves (best first)
/// that are in `defences` or make a four of our own, then (`add_missing`) the defences
/// the generator did not list; at most `limit` moves.
fn restrict_to_defences(
    board: &Board,
    generated: &[ScoredMove],
    defences: &[Pos],
    add_missing: bool,
    limit: usize,
) -> Vec<ScoredMove> {
    let me = board.side_to_move();
    let mut out: Vec<ScoredMove> = generated
        .iter()
        .copied()
        .filter(|m| defences.contains(&m.pos) || board.pattern4(m.pos, me) >= Pattern4::Block4)
        .collect();
    if add_missing {
        for &p in defences {
            if !generated.iter().any(|m| m.pos == p) {
                out.push(ScoredMove { pos: p, score: 0 });
            }
        }
    }
    out.truncate(limit);
    out
}

fn info_of(r: &SearchResult, nodes: u64, time_ms: u64) -> SearchInfo {
    SearchInfo {
        depth: r.depth,
        seldepth: r.depth,
        value: r.value,
        nodes,
        time_ms,
        pv: r.pv.clone(),
    }
}

fn info_of_search(r: &SearchResult, seldepth: i32, time_ms: u64) -> SearchInfo {
    SearchInfo {
        depth: r.depth,
        seldepth,
        value: r.value,
        nodes: r.nodes,
        time_ms,
        pv: r.pv.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fractional_depth_counts_as_the_nearest_whole_ply_and_at_least_one() {
        for plies in 1..=MAX_DEPTH {
            assert_eq!(whole_plies(plies * ONE_PLY), plies);
        }
        assert_eq!(whole_plies(1), 1, "a quarter ply still searches one ply");
        assert_eq!(whole_plies(ONE_PLY + ONE_PLY / 4), 1);
        assert_eq!(whole_plies(ONE_PLY + ONE_PLY / 2), 2);
        assert_eq!(whole_plies(2 * ONE_PLY - 1), 2);
    }

    fn result(best: Pos, value: Value, depth: i32) -> SearchResult {
        SearchResult {
            best,
            value,
            depth,
            nodes: 0,
            pv: Vec::new(),
        }
    }

    #[test]
    fn helpers_spread_over_the_depths_and_the_main_thread_skips_none() {
        for d in 1..40 {
            assert!(!helper_skips(0, d));
            // Helpers 1 and 2 split the depths between them.
            assert_ne!(helper_skips(1, d), helper_skips(2, d), "depth {d}");
        }
        assert!(!helper_skips(1, 2) && helper_skips(1, 3));
        // Each of the first 20 helpers searches some depths and skips others.
        for id in 1..=20 {
            let searched = (1..30).filter(|&d| !helper_skips(id, d)).count();
            assert!(searched > 5 && searched < 25, "helper {id}: {searched}");
        }
    }

    /// A helper's result replaces the main thread's only when it is deeper and better
    /// (or the main thread completed nothing), and only with a root move.
    #[test]
    fn a_helper_result_is_played_only_when_deeper_and_better() {
        let (a, b, c) = (Pos::new(7, 7), Pos::new(8, 8), Pos::new(9, 9));
        let root = [
            ScoredMove { pos: a, score: 0 },
            ScoredMove { pos: b, score: 0 },
        ];
        let main = result(a, 50, 10);
        let pick = |hs: &[Option<SearchResult>]| pick_result(&main, hs, &root).map(|r| r.best);
        assert_eq!(pick(&[Some(result(b, 60, 11))]), Some(b));
        assert_eq!(pick(&[Some(result(b, 40, 12))]), None, "deeper, worse");
        assert_eq!(pick(&[Some(result(b, 90, 10))]), None, "better, not deeper");
        assert_eq!(pick(&[Some(result(c, 90, 12))]), None, "not a root move");
        assert_eq!(pick(&[None, Some(result(b, 60, 11))]), Some(b));
        // The deepest of several qualifying results.
        let hs = [Some(result(b, 60, 11)), Some(result(a, 70, 12))];
        assert_eq!(pick(&hs), Some(a));
        let hs = [Some(result(b, 80, 12)), Some(result(a, 70, 11))];
        assert_eq!(pick(&hs), Some(b));
        // A main thread without a completed iteration takes any completed one.
        let none = result(a, 0, 0);
        let hs = [Some(result(b, -300, 2))];
        assert_eq!(pick_result(&none, &hs, &root).map(|r| r.best), Some(b));
        assert!(pick_result(&none, &[Some(result(b, 5, 0))], &root).is_none());
    }
}
