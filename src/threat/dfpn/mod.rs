//! Depth-first proof-number search (df-pn) over the threat space: the engine behind
//! [`super::vct::VctSolver::solve`].
//!
//! OR nodes (attacker to move) try, in order: a five; the forced block of a defender
//! five; a VCF (the inner VCF solver, a proof leaf); then every threat move (a four, a
//! three, a closed three, an open two; renju black: legal ones only). AND nodes
//! (defender to move) after an attacking move: a defender five disproves; attacker five
//! points force the block; otherwise the move is a threat only if the attacker has a VCF
//! were the defender to pass (else the node is disproven; a pass test that runs out of
//! its node budget leaves the node open and is asked again with a larger budget when the
//! node is next visited). The defences considered are
//! the squares that can touch that VCF line (within five cells along a line of any of its
//! stones), every defender four, and, where the line relies on the exact renju
//! forbidden-point rule, every empty square; a defence after which the line still works
//! (replayed move by move) or a new VCF exists is refuted at once and stored as proven.
//!
//! Simulation: an OR node met for the first time whose analog is proven by a move (the
//! same path without the last counter-four exchange, or with the defence that led here
//! replaced by the sibling defence proven last) first tries to follow the analog's proof
//! ([`Dfpn::simulate_or`]), checking every step on the real position.
//!
//! Proof and disproof numbers live in a fixed-size table (no allocation per node; the
//! children of the nodes on the current path sit in one reused stack). A proof records
//! its length in plies and is used only where that fits the remaining ply budget; a
//! disproof records the budget it was searched with. Positions only gain stones along a
//! line, so the graph has no cycles. Sums of proof and disproof numbers stop one below
//! "infinite": in this graph they overflow through transpositions long before a node is
//! disproven, and an overflowed root used to end the search as `Unknown` with budget left.
//!
//! Files: this one holds the tuning constants, the engine's state and its entry point;
//! `table` the proof-number table, `side` the side tables of AND and OR expansions,
//! `search` the most-proving-node loop, `or_node` and `and_node` the two expansions,
//! `simulate` the simulation of analog proofs and `line` the principal line. The tests'
//! self-checks ([`super::self_check`]) are compiled in with the `self-check` feature.

use super::class_count;
use super::self_check::{SelfCheckCounts, SelfChecks};
use super::vcf::VcfSolver;
use super::{SolveStats, ThreatResult};
use crate::board::Board;
use crate::pattern::Pattern4;
use crate::types::{Color, Pos, NUM_CELLS};
use std::sync::atomic::AtomicBool;

mod and_node;
mod line;
mod or_node;
mod search;
mod side;
mod simulate;
mod table;

use side::{AndCache, OrCache};
use table::Table;

/// Difference between a position's key and the key of its inner VCF question.
const VCF_KEY: u64 = 0x51A7_E5C0_FFEE_0001;
/// "Infinite" proof or disproof number.
const INF: u32 = 1 << 28;
/// Initial proof and disproof number of an unexpanded node of the common kind (smaller
/// values mark children that are likely easy).
const UNIT: u32 = 4;
/// An AND node's proof number is the largest of its open defences' plus this for each
/// other open defence (a weak proof number, after Ueda et al.) rather than their sum: the
/// sum counts the work below counter-four exchanges once per order in which they
/// transpose, and ranks threats with many cheap defences (counter-fours, whose block
/// usually leaves the threat standing) as hopeless. At `--vct-nodes 1000000`: quintet
/// proven 37 -> 43 of 50, gaofei_vct 118 -> 120 of 170, black_win_100 65 = 65 of 73
/// (the step 1, 2, 4 or 8 and the same rule for OR nodes' disproof numbers did worse).
const WEAK_PN_STEP: u32 = 3;
/// Added to the initial proof number of an OR node's threat per attacking move on the
/// path above it: df-pn's proof numbers barely grow along a line of threats (an AND node
/// with one real defence passes its child's on), so it would dive into long lines of
/// threes; this keeps shallower threats ahead (after Deep df-pn, Zhang et al.). With
/// `COUNTER_FOUR_PN`, at `--vct-nodes 1000000`: gaofei_vct 128 -> 132 of 170,
/// black_win_100 64 -> 66 of 73, quintet proven 43 = 43 of 50 (3 per move: 125, 67).
const DEPTH_PN: u32 = 2;
/// Added to the initial proof number of a threat per square where the defender can make
/// a four after it: each counter-four needs its own copy of the rest of the proof. At
/// `--vct-nodes 1000000`, alone: gaofei_vct 120 -> 128 of 170 (73.2 M -> 60.6 M nodes),
/// black_win_100 65 -> 63 of 73 (a whole unit per four: 128, 64).
const COUNTER_FOUR_PN: u32 = UNIT / 2;
/// Node budget of each inner VCF question at a node.
const INNER_VCF_NODES: u64 = 20_000;
/// First-visit budget of the OR node's VCF question, times four per revisit.
const OR_VCF_NODES: u64 = 200;
/// Revisits with a smaller budget before the full one.
const OR_VCF_LEVELS: u8 = 4;
/// Node budget of the look for a defender VCF at each AND node expanded afresh (before
/// the pass test): such a VCF refutes the attacker's move at once, where the search
/// otherwise found it through one AND node (pass test, candidate defences) per defender
/// four. In gaofei_vct_047 from its winning first move it refutes 13 k of 26 k threats
/// tested and cuts the counter-fours left as defences from 26 k to 6.5 k. With the
/// sibling hint (`sib_hint`), at `--vct-nodes 1000000`: gaofei_vct 132 -> 134 of 170,
/// black_win_100 66 -> 67 of 73 (10.1 M -> 8.6 M nodes); 50, 200 or 1000 alike.
const DEFENDER_VCF_NODES: u64 = 50;
/// Node budget of the quick VCF look after each defence (skipped when the line of one of
/// the last two VCFs that such looks found at the same AND node still replays after the
/// defence: at `--vct-nodes 1000000`, gaofei_vct 134 -> 133 of 170 with 56.1 M -> 55.3 M
/// nodes, black_win_100 67 -> 68 of 73 with 8.6 M -> 7.8 M, white_win_100 57 = 57 with
/// 0.68 M -> 0.66 M, quintet proven 41 -> 42 of 50) that does not leave the threat's
/// VCF line intact (measured on black_win_100 at 200k nodes a puzzle: 45 -> 51 of 73
/// solved with this at 50 and threes' initial proof number at 2 units instead of 3; the
/// full question is asked when the defence's node is expanded). 25 rather than 50 since
/// the budget that matters is 3 s a puzzle, ~3 M nodes here: gaofei_vct at 2/3/4 M nodes
/// 140/142/147 -> 142/145/147 (12: 140/143/145, 35: 140/144/147, 100: 140/143/146);
/// black_win_100 at 3 M 69 -> 70 of 73; timed 3 s, both binaries at once: 144 -> 146
/// and, cores swapped, 144 -> 145. At 1 M nodes it costs one puzzle in each set.
const DEFENCE_VCF_NODES: u64 = 25;
/// Node budget of the "would the defender's pass lose to a VCF?" test of a threat.
const PASS_VCF_NODES: u64 = 2_000;
/// Most budget increases of one pass test (the last try gets `PASS_VCF_NODES << 12`
/// nodes; beyond it the threat counts as none, and the root's `NoWin` as inexact).
const MAX_PASS_LVL: u8 = 6;
/// `best` of a node proven by the inner VCF solver.
const BEST_VCF: u16 = u16::MAX;
/// Node budget of a simulation: half the work of the analog's proof, within these.
const SIM_MIN_NODES: u64 = 2_000;
const SIM_MAX_NODES: u64 = 200_000;

/// Difference between a position's key and the key of its defender-VCF question (see
/// [`Dfpn::defender_vcf`]).
const DEFENDER_VCF_KEY: u64 = 0xDEFE_4DE2_5EC0_0002;

/// A child of a node on the current path.
#[derive(Clone, Copy)]
struct Child {
    pos: Pos,
    pn: u32,
    dn: u32,
    /// Proven: plies counted from the child's own move.
    plies: i16,
}

/// What one call of [`Dfpn::mid`] ended with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Value {
    pn: u32,
    dn: u32,
    plies: i16,
}

/// The df-pn engine with its table and reusable stacks.
///
/// Why it exists: the VCT solver's search, kept apart from the solver's public shell so
/// the older depth-first search stays available for comparison.
pub(crate) struct Dfpn {
    tt: Table,
    and_cache: AndCache,
    or_cache: OrCache,
    squares: Vec<Pos>,
    size: (usize, usize),
    key: u64,
    node_limit: u64,
    aborted: bool,
    /// An inner VCF question ran out of budget: a disproof may be incomplete.
    pub(crate) inexact: bool,
    pub(crate) stats: SolveStats,
    children: Vec<Child>,
    lines: Vec<Pos>,
    /// OR node's threats: `(rank << 40) | (square << 8) | defender fours after it`
    /// (`rank`: class rank × 16 + distance), sorted as one integer (the order of the
    /// rank and square, cheaper to sort).
    ranked: Vec<u64>,
    /// The threats of the OR node being expanded, packed as in [`side::OrSlot`].
    threats: Vec<u32>,
    /// OR node: the defender's four squares (see [`Dfpn::collect_defender_fours`]).
    dfours: Vec<Pos>,
    mark: Vec<u32>,
    /// `stamp` on the squares of the current AND node's VCF line (see
    /// [`Dfpn::line_survives`]).
    line_mark: Vec<u32>,
    /// `stamp` on the defender's replies of that line.
    reply_mark: Vec<u32>,
    stamp: u32,
    /// The principal line of the last win.
    pub(crate) line: Vec<Pos>,
    /// Attacking moves on the current path from the root.
    path: Vec<Pos>,
    /// Hash difference between the current position and its analog, 0 if none: the
    /// same path with the last counter-four exchange (defender four, attacker block)
    /// left out, or with the defence that led here replaced by the sibling defence
    /// proven last, whichever came later on the path. [`Dfpn::simulate_or`] tries to
    /// replay the analog's proof.
    delta: u64,
    /// Hash of the defender's counter-four that the current (forced) OR node answers.
    pending: u64,
    /// Node count at which the current simulation gives up.
    sim_end: u64,
    /// Set by the expansion of an AND node: the candidate defence the table knows as
    /// proven by a move (not by a VCF), with the most work below it, and that work. The
    /// node's first child searched takes it as its simulation analog: before, only a
    /// sibling proven during the same call of [`Dfpn::mid`] was one, and df-pn leaves
    /// an AND node many times before all its defences are proven.
    sib_hint: (Pos, u32),
    /// The self-checks this engine runs (only with the `self-check` feature).
    pub(crate) checks: SelfChecks,
    /// The verdicts they checked.
    pub(crate) checked: SelfCheckCounts,
}

impl Dfpn {
    /// An engine whose table uses about `tt_bytes` bytes.
    pub(crate) fn new(tt_bytes: usize) -> Dfpn {
        Dfpn {
            tt: Table::new(tt_bytes),
            // On top of the table: a sixteenth of its bytes.
            and_cache: AndCache::new(tt_bytes / 16),
            // And as much again.
            or_cache: OrCache::new(tt_bytes / 16),
            squares: Vec::new(),
            size: (0, 0),
            key: 0,
            node_limit: 0,
            aborted: false,
            inexact: false,
            stats: SolveStats::default(),
            children: Vec::with_capacity(1 << 14),
            lines: Vec::with_capacity(1 << 12),
            ranked: Vec::with_capacity(NUM_CELLS),
            threats: Vec::with_capacity(NUM_CELLS),
            dfours: Vec::with_capacity(NUM_CELLS),
            mark: vec![0; NUM_CELLS],
            line_mark: vec![0; NUM_CELLS],
            reply_mark: vec![0; NUM_CELLS],
            stamp: 0,
            line: Vec::with_capacity(256),
            path: Vec::with_capacity(1024),
            delta: 0,
            pending: 0,
            sim_end: 0,
            sib_hint: (Pos::NONE, 0),
            checks: SelfChecks::default(),
            checked: SelfCheckCounts::default(),
        }
    }

    /// Forget every stored result.
    pub(crate) fn clear(&mut self) {
        self.tt.clear();
        self.and_cache.clear();
        self.or_cache.clear();
    }

    /// Prove or disprove a win of `a` (moving now) within `max_plies` plies; `key`
    /// identifies the position. See [`super::vct::VctSolver::solve`].
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn solve(
        &mut self,
        board: &mut Board,
        a: Color,
        max_plies: i32,
        node_limit: u64,
        stop: &AtomicBool,
        key: u64,
        vcf: &mut VcfSolver,
    ) -> ThreatResult {
        if self.size != (board.width(), board.height()) || self.squares.is_empty() {
            self.squares = board.all_squares().collect();
            self.size = (board.width(), board.height());
        }
        self.key = key;
        self.node_limit = node_limit.max(1);
        self.aborted = false;
        self.inexact = false;
        self.stats = SolveStats::default();
        self.line.clear();
        self.children.clear();
        self.lines.clear();
        self.path.clear();
        self.delta = 0;
        self.pending = 0;
        let rem = max_plies.clamp(0, i32::from(i16::MAX) - 1);
        if rem < 1 {
            return ThreatResult::NoWin;
        }
        let v = self.mid(board, a, true, rem, INF, INF, stop, vcf);
        if self.aborted {
            return ThreatResult::Unknown;
        }
        if v.pn == 0 {
            self.extract_line(board, a, rem, stop, vcf);
            return match self.line.first() {
                Some(&first) => ThreatResult::Win {
                    first,
                    plies: i32::from(v.plies),
                },
                None => ThreatResult::Unknown,
            };
        }
        if v.dn == 0 && !self.inexact {
            ThreatResult::NoWin
        } else {
            ThreatResult::Unknown
        }
    }
}

/// Result of expanding a node.
enum Expanded {
    /// Solved by the table.
    Known(Value),
    /// Solved without children: value and best move.
    Done(Value, u16),
    /// Not solved, no children: the pass test ran out of budget (`u8`: tries so far).
    Retry(Value, u8),
    /// Children pushed; `worst`: the longest proof among defences refuted at once, by
    /// the defence `worst_pos`.
    Children {
        worst: i16,
        worst_pos: u16,
        vcf_rem: i16,
        /// To store as the entry's `pass_lvl`.
        lvl: u8,
    },
}

/// Squares where `c` makes a four or a five, by the class counts.
#[inline]
fn fours_or_fives(board: &Board, c: Color) -> u32 {
    class_count(board, c, Pattern4::Block4, Pattern4::Five)
}

/// A class that makes a four or five, or renju black's forbid class (a square an
/// attacking stone can turn into a four).
#[inline]
fn four_class(x: Pattern4) -> bool {
    x == Pattern4::Forbid || x >= Pattern4::Block4
}

#[cfg(test)]
mod tests {
    use super::side::AndSlot;
    use super::table::Entry;

    /// `Zeroable`'s contract for the tables' slots: a zeroed slot is the default one
    /// (the tables are created from zeroed memory and treat the default as empty).
    #[test]
    fn zeroed_table_slots_equal_the_default_slots() {
        let (v, off) = crate::mem::zeroed_table::<Entry>(8);
        let (z, d) = (v[off], Entry::default());
        let fields = |e: Entry| {
            (
                e.key, e.pn, e.dn, e.work, e.plies, e.rem, e.best, e.vcf_rem, e.pass_lvl, e.gen,
            )
        };
        assert_eq!(fields(z), fields(d));
        let (v, off) = crate::mem::zeroed_table::<AndSlot>(8);
        let (z, d) = (v[off], AndSlot::default());
        assert_eq!(
            (z.key, z.pass_plies, z.n, z.cands),
            (d.key, d.pass_plies, d.n, d.cands)
        );
        let (v, off) = crate::mem::zeroed_table::<crate::threat::tt::TtEntry>(8);
        let (z, d) = (v[off], crate::threat::tt::TtEntry::default());
        assert_eq!(
            (z.key, z.plies, z.depth, z.best, z.total),
            (d.key, d.plies, d.depth, d.best, d.total)
        );
    }
}
