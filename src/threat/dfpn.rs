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

use super::replay::replay;
use super::vcf::VcfSolver;
use super::{all_fives, find_five, is_four_move, legal_for, reply_to_fives, threat_rank, Reply};
use super::{class_count, scan_counted};
use super::{SolveStats, ThreatResult, HASH};
use crate::board::Board;
use crate::mem::power_of_two_slots;
use crate::pattern::Pattern4;
use crate::types::{Cell, Color, Dir, Pos, Rule, NUM_CELLS};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Tests set this to check every [`Dfpn::line_survives`] verdict against a replay.
pub static VERIFY_SHORTCUT: AtomicBool = AtomicBool::new(false);
/// Verdicts checked while [`VERIFY_SHORTCUT`] was set.
pub static SHORTCUTS_VERIFIED: AtomicU64 = AtomicU64::new(0);

/// Tests set this to check every [`AndCache`] hit against the candidate defences
/// generated afresh (the pass test's VCF line and the squares that can spoil it).
pub static VERIFY_AND_CACHE: AtomicBool = AtomicBool::new(false);
/// Hits checked while [`VERIFY_AND_CACHE`] was set.
pub static AND_CACHE_VERIFIED: AtomicU64 = AtomicU64::new(0);

/// Difference between a position's key and the key of its defender-VCF question (see
/// [`Dfpn::defender_vcf`]).
const DEFENDER_VCF_KEY: u64 = 0xDEFE_4DE2_5EC0_0002;
/// Tests set this to check every defender VCF that refutes an AND node
/// ([`Dfpn::defender_vcf`]) by replaying its line, or a fresh solver's line.
pub static VERIFY_DEFENDER_VCF: AtomicBool = AtomicBool::new(false);
/// Refutations checked while [`VERIFY_DEFENDER_VCF`] was set.
pub static DEFENDER_VCFS_VERIFIED: AtomicU64 = AtomicU64::new(0);

/// Tests set this to check every candidate defence refuted by replaying the line of an
/// earlier candidate's quick look: a fresh VCF solver must find a win there.
pub static VERIFY_ALT_LINES: AtomicBool = AtomicBool::new(false);
/// Refutations checked while [`VERIFY_ALT_LINES`] was set.
pub static ALT_LINES_VERIFIED: AtomicU64 = AtomicU64::new(0);

/// Tests set this to check every [`OrCache`] hit against the threats generated afresh.
pub static VERIFY_OR_CACHE: AtomicBool = AtomicBool::new(false);
/// Hits checked while [`VERIFY_OR_CACHE`] was set.
pub static OR_CACHE_VERIFIED: AtomicU64 = AtomicU64::new(0);

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

/// One table slot of the df-pn search.
///
/// Why it exists: df-pn revisits nodes many times; the table keeps their proof and
/// disproof numbers, proofs (with their length) and disproofs (with their ply budget).
///
/// 32 bytes, aligned to them so that a bucket of four is exactly two cache lines.
#[derive(Clone, Copy, Default)]
#[repr(align(32))]
struct Entry {
    key: u64,
    pn: u32,
    dn: u32,
    /// Nodes spent below this node (replacement priority).
    work: u32,
    /// Proven: plies to the five counted from this node's move.
    plies: i16,
    /// Disproven: the ply budget it was disproven with.
    rem: i16,
    /// Proven OR node: the winning move (`BEST_VCF`: the inner VCF's line). Proven AND
    /// node: the most stubborn defence (0 if none is worth listing).
    best: u16,
    /// OR node: the ply budget within which the inner VCF found no win (0: not asked),
    /// so that revisits skip the question.
    vcf_rem: i16,
    /// AND node whose pass test ran out of budget: how often (the next test gets
    /// `PASS_VCF_NODES << (2 * pass_lvl)` nodes). OR node: bit 0 set once a simulation
    /// of an analog's proof was tried here; the bits above, how often its VCF question
    /// ran out of a reduced budget (see `OR_VCF_NODES`).
    pass_lvl: u8,
    /// The table's generation when stored: entries of other generations are empty.
    gen: u8,
}

/// Bucketed table of [`Entry`]; replaces the entry with the least work.
///
/// Why it exists: bounds the memory of the df-pn search to the bytes it was given.
///
/// [`Table::clear`] starts a new generation; an entry of another generation is treated
/// as empty by probes and stores alike, so the table behaves exactly as one filled with
/// empty entries, and only every 255th clear writes the table (32 MiB per solve-bench
/// position before).
struct Table {
    slots: Vec<Entry>,
    /// Index of the first slot in `slots` (on a huge page, see
    /// [`crate::mem::zeroed_table`]).
    off: usize,
    mask: usize,
    /// The current generation (never 0, the generation of a default entry).
    gen: u8,
}

// SAFETY: integers only; the derived default is all zeros.
unsafe impl crate::mem::Zeroable for Entry {}

const BUCKET: usize = 4;

impl Table {
    fn new(bytes: usize) -> Table {
        let n = power_of_two_slots(bytes, std::mem::size_of::<Entry>(), 1024);
        let (slots, off) = crate::mem::zeroed_table::<Entry>(n);
        Table {
            slots,
            off,
            mask: (n - 1) & !(BUCKET - 1),
            gen: 1,
        }
    }

    fn clear(&mut self) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.slots.fill(Entry::default());
            self.gen = 1;
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        self.off + (key as usize & self.mask)
    }

    /// Prefetch the bucket of `key` (both cache lines of its 128 bytes).
    #[inline]
    fn prefetch(&self, key: u64) {
        let b = self.bucket(key);
        crate::mem::prefetch(&self.slots[b]);
        crate::mem::prefetch(&self.slots[b + BUCKET - 1]);
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.slots[b..b + BUCKET]
            .iter()
            .find(|e| e.key == key && e.gen == self.gen)
            .copied()
    }

    #[inline]
    fn store(&mut self, mut e: Entry) {
        let b = self.bucket(e.key);
        let gen = self.gen;
        e.gen = gen;
        let bucket = &mut self.slots[b..b + BUCKET];
        let mut victim = 0;
        for (i, s) in bucket.iter().enumerate() {
            if s.gen != gen || s.key == e.key || s.key == 0 {
                victim = i;
                break;
            }
            if s.work < bucket[victim].work {
                victim = i;
            }
        }
        bucket[victim] = e;
    }
}

/// Most candidate defences an [`AndCache`] entry holds (nodes with more are not cached).
const AND_CACHE_MAX: usize = 60;

/// One [`AndCache`] slot: an AND node's pass-test length and its legal candidate
/// defences in generation order.
#[derive(Clone, Copy)]
struct AndSlot {
    key: u64,
    pass_plies: i16,
    n: u16,
    cands: [u16; AND_CACHE_MAX],
}

// SAFETY: integers and an integer array; the default below is all zeros.
unsafe impl crate::mem::Zeroable for AndSlot {}

impl Default for AndSlot {
    fn default() -> AndSlot {
        AndSlot {
            key: 0,
            pass_plies: 0,
            n: 0,
            cands: [0; AND_CACHE_MAX],
        }
    }
}

/// Direct-mapped side table of AND nodes' expansions (always replaced): a [`SideTable`].
///
/// Why it exists: a quarter of the AND visits are revisits, and each one redid the pass
/// test (a VCF table hit, but its line completed and replayed move by move) and the
/// generation of the candidate defences, which costs CPU time and no nodes. A hit is
/// used only when the VCF table still holds the same pass-test win and every candidate
/// still has a table entry, that is exactly when the regenerated expansion would give
/// the same children (checked by a test through [`VERIFY_AND_CACHE`]).
type AndCache = SideTable<AndSlot>;

impl SideSlot for AndSlot {
    fn key_mut(&mut self) -> &mut u64 {
        &mut self.key
    }
    fn key(&self) -> u64 {
        self.key
    }
}

impl AndCache {
    #[inline]
    fn store(&mut self, key: u64, pass_plies: i16, cands: &[u16]) {
        let s = self.claim(key);
        s.pass_plies = pass_plies;
        s.n = cands.len() as u16;
        s.cands[..cands.len()].copy_from_slice(cands);
    }
}

/// A slot of a [`SideTable`], which keeps its key salted.
trait SideSlot: Copy + crate::mem::Zeroable {
    fn key(&self) -> u64;
    fn key_mut(&mut self) -> &mut u64;
}

/// Direct-mapped, always-replace side table of one kind of node expansion.
///
/// Slots hold the key XOR `salt`; a clear draws a new salt (as [`super::tt::Tt`] does):
/// an old slot acts as an empty one.
struct SideTable<S> {
    slots: Vec<S>,
    /// Index of the first slot in `slots`.
    off: usize,
    mask: usize,
    salt: u64,
    clears: u64,
}

impl<S: SideSlot> SideTable<S> {
    fn new(bytes: usize) -> SideTable<S> {
        let n = power_of_two_slots(bytes, std::mem::size_of::<S>(), 256);
        let (slots, off) = crate::mem::zeroed_table::<S>(n);
        SideTable {
            slots,
            off,
            mask: n - 1,
            salt: 0,
            clears: 0,
        }
    }

    fn clear(&mut self) {
        self.clears += 1;
        self.salt = super::tt::salt_of(self.clears);
    }

    /// Prefetch the first cache line of the slot of `key` (where its key is).
    #[inline]
    fn prefetch(&self, key: u64) {
        crate::mem::prefetch(&self.slots[self.off + (key as usize & self.mask)]);
    }

    /// The slot of `key`, if it holds that key.
    #[inline]
    fn probe(&self, key: u64) -> Option<&S> {
        let s = &self.slots[self.off + (key as usize & self.mask)];
        (s.key() == key ^ self.salt && key != 0).then_some(s)
    }

    /// The slot of `key`, taken over for it (its key set; the caller fills the rest).
    #[inline]
    fn claim(&mut self, key: u64) -> &mut S {
        let salt = self.salt;
        let s = &mut self.slots[self.off + (key as usize & self.mask)];
        *s.key_mut() = key ^ salt;
        s
    }
}

/// Most threats an [`OrCache`] slot holds (OR nodes with more are not cached).
const OR_CACHE_MAX: usize = 95;

/// One [`OrCache`] slot: an OR node's threat moves, each packed as its square (bits
/// 0..16), class rank (16..24) and the number of squares where the defender can make a
/// four after it (24..32), in generation order.
#[derive(Clone, Copy)]
struct OrSlot {
    key: u64,
    n: u32,
    threats: [u32; OR_CACHE_MAX],
}

// SAFETY: integers and an integer array; the default below is all zeros.
unsafe impl crate::mem::Zeroable for OrSlot {}

impl Default for OrSlot {
    fn default() -> OrSlot {
        OrSlot {
            key: 0,
            n: 0,
            threats: [0; OR_CACHE_MAX],
        }
    }
}

/// Direct-mapped side table of OR nodes' threat moves (always replaced): a [`SideTable`].
///
/// Why it exists: seven in ten OR expansions are revisits, and each one scanned the
/// board for threats again and, for every threat, placed it to count the defender's
/// fours after it (a fifth of the solver's time). What a slot holds depends on the
/// position only (the ply count on the path too is the position's), so a hit gives
/// exactly the regenerated threats; the order by distance to the attacker's previous
/// move, which depends on the path, is recomputed (checked by a test through
/// [`VERIFY_OR_CACHE`]).
type OrCache = SideTable<OrSlot>;

impl SideSlot for OrSlot {
    fn key_mut(&mut self) -> &mut u64 {
        &mut self.key
    }
    fn key(&self) -> u64 {
        self.key
    }
}

impl OrCache {
    #[inline]
    fn store(&mut self, key: u64, threats: &[u32]) {
        let s = self.claim(key);
        s.n = threats.len() as u32;
        s.threats[..threats.len()].copy_from_slice(threats);
    }
}

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
    /// The threats of the OR node being expanded, packed as in [`OrSlot`].
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

    #[inline]
    fn place(&mut self, board: &mut Board, p: Pos, c: Color) {
        board.place(p, c);
        self.key ^= HASH.stone(c, p);
    }

    #[inline]
    fn lift(&mut self, board: &mut Board, p: Pos, c: Color) {
        board.lift(p);
        self.key ^= HASH.stone(c, p);
    }

    /// Ask the inner VCF solver about `a` on the current position, within `plies`.
    fn vcf(
        &mut self,
        board: &mut Board,
        a: Color,
        plies: i32,
        budget: u64,
        stop: &AtomicBool,
        vcf: &mut VcfSolver,
    ) -> ThreatResult {
        let r = self.vcf_look(board, a, plies, budget, VCF_KEY, stop, vcf);
        if r == ThreatResult::Unknown {
            self.inexact = true;
            if self.stats.nodes >= self.node_limit || stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        r
    }

    /// One question to the inner VCF solver: can `c` win by VCF within `plies`, in at
    /// most `budget` nodes (and what is left of the search's own limit), cached under
    /// the position's key XOR `salt`; the nodes it used count as the search's.
    #[allow(clippy::too_many_arguments)]
    fn vcf_look(
        &mut self,
        board: &mut Board,
        c: Color,
        plies: i32,
        budget: u64,
        salt: u64,
        stop: &AtomicBool,
        vcf: &mut VcfSolver,
    ) -> ThreatResult {
        let left = self
            .node_limit
            .saturating_sub(self.stats.nodes)
            .clamp(1, budget);
        let r = vcf.solve_keyed(board, c, plies, left, stop, self.key ^ salt);
        self.stats.nodes += vcf.stats().nodes;
        r
    }

    /// True if the defender `d`, to move, has a VCF: a win whatever the attacker does,
    /// so an exact disproof of the current AND node (no attacker five point on the
    /// board). A look that runs out of its budget says false and leaves the node to the
    /// usual expansion.
    fn defender_vcf(
        &mut self,
        board: &mut Board,
        d: Color,
        stop: &AtomicBool,
        vcf: &mut VcfSolver,
    ) -> bool {
        let plies = i32::from(i16::MAX) - 1;
        let r = self.vcf_look(
            board,
            d,
            plies,
            DEFENDER_VCF_NODES,
            DEFENDER_VCF_KEY,
            stop,
            vcf,
        );
        if self.stats.nodes >= self.node_limit || stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        if r.is_win() && VERIFY_DEFENDER_VCF.load(Ordering::Relaxed) {
            // A line completed from a table that lost an entry may not replay: then a
            // fresh solver must find one that does.
            let ok = replay(board, d, vcf.principal_line()).is_some()
                || fresh_vcf_line(board, d).is_some_and(|l| replay(board, d, &l).is_some());
            assert!(ok, "defender VCF does not hold\n{board}");
            DEFENDER_VCFS_VERIFIED.fetch_add(1, Ordering::Relaxed);
        }
        r.is_win()
    }

    /// Proven value with `plies`.
    fn proven(plies: i32) -> Value {
        Value {
            pn: 0,
            dn: INF,
            plies: plies as i16,
        }
    }

    const DISPROVEN: Value = Value {
        pn: INF,
        dn: 0,
        plies: 0,
    };

    /// The stored value of the current position for a node with `rem` plies left, if
    /// the table knows something that applies.
    #[inline]
    fn lookup(&self, rem: i32) -> Option<(Value, Entry)> {
        self.lookup_key(self.key, rem)
    }

    /// [`Dfpn::lookup`] for the position with hash `key`.
    #[inline]
    fn lookup_key(&self, key: u64, rem: i32) -> Option<(Value, Entry)> {
        let e = self.tt.probe(key)?;
        let v = if e.pn == 0 {
            if i32::from(e.plies) > rem {
                return None;
            }
            Self::proven(i32::from(e.plies))
        } else if e.dn == 0 {
            if i32::from(e.rem) < rem {
                return None;
            }
            Self::DISPROVEN
        } else {
            Value {
                pn: e.pn,
                dn: e.dn,
                plies: 0,
            }
        };
        Some((v, e))
    }

    fn store(&mut self, v: Value, rem: i32, best: u16, work: u64, vcf_rem: i16, pass_lvl: u8) {
        self.tt.store(Entry {
            vcf_rem,
            pass_lvl,
            key: self.key,
            pn: v.pn,
            dn: v.dn,
            work: work.min(u64::from(u32::MAX)) as u32,
            plies: v.plies,
            rem: rem as i16,
            best,
            // Set by the table.
            gen: 0,
        });
    }

    /// Search the current position (OR node if `or`: attacker `a` to move; else the
    /// defender to move) until its proof number reaches `th_pn` or its disproof number
    /// `th_dn`, or it is solved. `rem`: plies left, counting this node's move.
    #[allow(clippy::too_many_arguments)]
    fn mid(
        &mut self,
        board: &mut Board,
        a: Color,
        or: bool,
        rem: i32,
        th_pn: u32,
        th_dn: u32,
        stop: &AtomicBool,
        vcf: &mut VcfSolver,
    ) -> Value {
        self.stats.nodes += 1;
        if self.stats.nodes >= self.node_limit
            || (self.stats.nodes & 63 == 0 && stop.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
        if self.aborted {
            return Value {
                pn: 1,
                dn: 1,
                plies: 0,
            };
        }
        let start_nodes = self.stats.nodes;
        let base = self.children.len();
        let line_base = self.lines.len();
        self.sib_hint = (Pos::NONE, 0);
        let expanded = if or {
            self.expand_or(board, a, rem, stop, vcf)
        } else {
            self.expand_and(board, a, rem, stop, vcf)
        };
        let (mut worst, worst_pos, vcf_rem, lvl) = match expanded {
            Expanded::Known(v) => {
                self.children.truncate(base);
                self.lines.truncate(line_base);
                return v;
            }
            Expanded::Done(v, best) => {
                if !self.aborted {
                    let w = self.stats.nodes - start_nodes;
                    self.store(v, rem, best, w, 0, 0);
                }
                self.children.truncate(base);
                self.lines.truncate(line_base);
                return v;
            }
            Expanded::Retry(v, lvl) => {
                if !self.aborted {
                    let w = self.stats.nodes - start_nodes;
                    let prev = self.tt.probe(self.key).map_or(0, |e| u64::from(e.work));
                    self.store(v, rem, 0, w + prev, 0, lvl);
                }
                self.children.truncate(base);
                self.lines.truncate(line_base);
                return v;
            }
            Expanded::Children {
                worst,
                worst_pos,
                vcf_rem,
                lvl,
            } => (worst, worst_pos, vcf_rem, lvl),
        };
        if self.aborted {
            // A partial expansion proves nothing (the root answers Unknown).
            self.children.truncate(base);
            self.lines.truncate(line_base);
            return Value {
                pn: 1,
                dn: 1,
                plies: 0,
            };
        }
        let end = self.children.len();
        let c = a.opp();
        let mover = if or { a } else { c };
        // AND node: the last child proven, whose proof the next ones try to follow; at
        // first the one the expansion found proven by a move in the table.
        let mut sib = if or { Pos::NONE } else { self.sib_hint.0 };
        let result = loop {
            // Combine the children: OR takes the smallest proof number and sums the
            // disproof numbers; AND takes the smallest disproof number and the weak
            // proof number below.
            let (mut pn, mut dn) = if or { (INF, 0u32) } else { (0u32, INF) };
            let mut best = base;
            let mut second = INF;
            let mut proven_plies = -1i16;
            let mut stub = 0u16;
            // AND node: the largest proof number of an open child and their count.
            let (mut pn_max, mut open) = (0u32, 0u32);
            for i in base..end {
                let ch = self.children[i];
                if or {
                    if ch.pn < pn {
                        second = pn;
                        pn = ch.pn;
                        best = i;
                    } else if ch.pn < second {
                        second = ch.pn;
                    }
                    dn = (dn + ch.dn).min(INF - 1);
                } else {
                    if ch.dn < dn {
                        second = dn;
                        dn = ch.dn;
                        best = i;
                    } else if ch.dn < second {
                        second = ch.dn;
                    }
                    pn = (pn + ch.pn).min(INF - 1);
                    if ch.pn > 0 {
                        pn_max = pn_max.max(ch.pn);
                        open += 1;
                    }
                    if ch.pn == 0 && ch.plies > proven_plies {
                        proven_plies = ch.plies;
                        stub = ch.pos.0;
                    }
                }
            }
            if !or && open > 0 {
                // Weak proof number: the hardest open defence plus a little for each
                // other one, instead of the sum (see `WEAK_PN_STEP`).
                pn = pn_max
                    .saturating_add((open - 1) * WEAK_PN_STEP)
                    .min(INF - 1);
            }
            if or && pn == 0 {
                let ch = self.children[best];
                break (Self::proven(i32::from(ch.plies) + 1), ch.pos.0);
            }
            if !or && pn == 0 {
                // The most stubborn defence is kept for the principal line.
                let (plies, stub) = if proven_plies > worst {
                    (proven_plies, stub)
                } else {
                    (worst, worst_pos)
                };
                worst = plies;
                break (Self::proven(i32::from(worst) + 1), stub);
            }
            if dn == 0 {
                break (Self::DISPROVEN, 0);
            }
            if pn >= th_pn || dn >= th_dn || self.aborted {
                break (Value { pn, dn, plies: 0 }, 0);
            }
            let ch = self.children[best];
            let (cth_pn, cth_dn) = if or {
                let eps = second.saturating_add(second / 4).saturating_add(1);
                (
                    th_pn.min(eps).min(INF),
                    if th_dn >= INF {
                        INF
                    } else {
                        th_dn - dn + ch.dn
                    },
                )
            } else {
                let eps = second.saturating_add(second / 4).saturating_add(1);
                (
                    if th_pn >= INF {
                        INF
                    } else {
                        th_pn - pn + ch.pn
                    },
                    th_dn.min(eps).min(INF),
                )
            };
            // The child's first probes (its table entry, its side table slot and the VCF
            // questions it asks first) miss the cache one after the other: issued here,
            // the misses overlap each other and the move.
            let child = self.key ^ HASH.stone(mover, ch.pos);
            self.tt.prefetch(child);
            vcf.prefetch(child ^ VCF_KEY);
            if or {
                self.and_cache.prefetch(child);
                vcf.prefetch(child ^ DEFENDER_VCF_KEY);
            } else {
                self.or_cache.prefetch(child);
            }
            self.place(board, ch.pos, mover);
            let (delta, pending) = (self.delta, self.pending);
            if or {
                self.path.push(ch.pos);
                if pending != 0 {
                    self.delta = pending ^ HASH.stone(a, ch.pos);
                }
                self.pending = 0;
            } else {
                if sib.is_some() {
                    self.delta = HASH.stone(c, ch.pos) ^ HASH.stone(c, sib);
                }
                self.pending = if board.count(c, Pattern4::Five) > 0 {
                    HASH.stone(c, ch.pos)
                } else {
                    0
                };
            }
            let v = self.mid(board, a, !or, rem - 1, cth_pn, cth_dn, stop, vcf);
            (self.delta, self.pending) = (delta, pending);
            if or {
                self.path.pop();
            }
            self.lift(board, ch.pos, mover);
            if !or && v.pn == 0 {
                sib = ch.pos;
            }
            let slot = &mut self.children[best];
            slot.pn = v.pn;
            slot.dn = v.dn;
            slot.plies = v.plies;
            if self.aborted {
                break (Value { pn, dn, plies: 0 }, 0);
            }
        };
        let (v, best) = result;
        if !self.aborted {
            let w = self.stats.nodes - start_nodes;
            // Keep the work of earlier visits in the priority.
            let prev = self.tt.probe(self.key).map_or(0, |e| u64::from(e.work));
            self.store(v, rem, best, w + prev, vcf_rem, lvl);
        }
        self.children.truncate(base);
        self.lines.truncate(line_base);
        v
    }

    /// Push the child reached by a stone of `c` on `p` at the top of the child stack,
    /// reading the table for its value (`rem`: the child's ply budget).
    fn push_child(&mut self, p: Pos, c: Color, rem: i32, init_pn: u32) {
        let v = self.lookup_key(self.key ^ HASH.stone(c, p), rem).map_or(
            Value {
                pn: init_pn,
                dn: UNIT,
                plies: 0,
            },
            |(v, _)| v,
        );
        let ch = Child {
            pos: p,
            pn: v.pn,
            dn: v.dn,
            plies: v.plies,
        };
        self.children.push(ch);
    }

    /// Expand an OR node: a result, or its children pushed on the child stack.
    fn expand_or(
        &mut self,
        board: &mut Board,
        a: Color,
        rem: i32,
        stop: &AtomicBool,
        vcf: &mut VcfSolver,
    ) -> Expanded {
        let d = a.opp();
        if board.count(a, Pattern4::Five) > 0 {
            let p = find_five(board, &self.squares, a).map_or(0, |p| p.0);
            return Expanded::Done(Self::proven(1), p);
        }
        let mut vcf_known = false;
        let mut sim_tried = 0u8;
        let mut vcf_lvl = 0u8;
        if let Some((v, e)) = self.lookup(rem) {
            if v.pn == 0 || v.dn == 0 {
                return Expanded::Known(v);
            }
            vcf_known = i32::from(e.vcf_rem) >= rem;
            sim_tried = e.pass_lvl & 1;
            vcf_lvl = e.pass_lvl >> 1;
        }
        // A win needs at least a four, its block and the five.
        if rem < 3 {
            return Expanded::Done(Self::DISPROVEN, 0);
        }
        let nd = board.count(d, Pattern4::Five);
        if nd > 0 {
            let p = find_five(board, &self.squares, d).expect("counted five");
            if nd >= 2 || !legal_for(board, p, a) {
                return Expanded::Done(Self::DISPROVEN, 0);
            }
            self.push_child(p, a, rem - 1, UNIT);
            return Expanded::Children {
                worst: 0,
                worst_pos: 0,
                vcf_rem: 0,
                lvl: 0,
            };
        }
        let mut vcf_asked = true;
        if !vcf_known {
            // A small budget on the first visit, four times more on each revisit (the
            // question almost never wins); the full one where only a VCF can win.
            let full = rem < 5 || vcf_lvl >= OR_VCF_LEVELS;
            let budget = if full {
                INNER_VCF_NODES
            } else {
                (OR_VCF_NODES << (2 * u32::from(vcf_lvl))).min(INNER_VCF_NODES)
            };
            match self.vcf(board, a, rem, budget, stop, vcf) {
                ThreatResult::Win { plies, .. } => {
                    return Expanded::Done(Self::proven(plies), BEST_VCF);
                }
                ThreatResult::Unknown if !full => {
                    vcf_asked = false;
                    vcf_lvl += 1;
                }
                _ => {}
            }
        }
        // A three, its defence, a four, its block and the five: five plies at least.
        if rem < 5 || self.aborted {
            return Expanded::Done(Self::DISPROVEN, 0);
        }
        if sim_tried == 0 && self.delta != 0 {
            let analog = self.lookup_key(self.key ^ self.delta, rem);
            if let Some((v, e)) = analog {
                if v.pn == 0 && e.best != BEST_VCF && e.best != 0 {
                    sim_tried = 1;
                    let budget = (u64::from(e.work) / 2).clamp(SIM_MIN_NODES, SIM_MAX_NODES);
                    self.sim_end = self.stats.nodes + budget;
                    let delta = self.delta;
                    if let Some(plies) = self.simulate_or(board, a, rem, delta, stop, vcf) {
                        return Expanded::Known(Self::proven(i32::from(plies)));
                    }
                    if self.aborted {
                        return Expanded::Done(Self::DISPROVEN, 0);
                    }
                }
            }
        }
        // The threats: from the side table on a revisit, else from a scan of the board.
        self.threats.clear();
        let hit = match self.or_cache.probe(self.key) {
            Some(slot) => {
                self.threats
                    .extend_from_slice(&slot.threats[..slot.n as usize]);
                true
            }
            None => false,
        };
        if hit && VERIFY_OR_CACHE.load(Ordering::Relaxed) {
            let mut stored = std::mem::take(&mut self.threats);
            self.scan_threats(board, a);
            let mut fresh = self.threats.clone();
            fresh.sort_unstable();
            stored.sort_unstable();
            assert_eq!(fresh, stored, "OR cache: stored threats differ\n{board}");
            OR_CACHE_VERIFIED.fetch_add(1, Ordering::Relaxed);
        } else if !hit {
            self.scan_threats(board, a);
            if self.threats.len() <= OR_CACHE_MAX {
                self.or_cache.store(self.key, &self.threats);
            }
        }
        // Threats near the attacker's previous move come first (the board's last move
        // is the root's, not this node's); the square breaks ties.
        let last = self.path.last().copied().or(board.last_move());
        self.ranked.clear();
        for &t in &self.threats {
            let p = Pos(t as u16);
            let dist = last.map_or(0, |q| p.distance(q).min(15) as u8);
            let r = (t >> 16) as u8 * 16 + dist;
            self.ranked
                .push(u64::from(r) << 40 | u64::from(p.0) << 8 | u64::from(t >> 24));
        }
        self.ranked.sort_unstable();
        for &x in &self.ranked {
            let p = Pos((x >> 8) as u16);
            self.tt.prefetch(self.key ^ HASH.stone(a, p));
        }
        for i in 0..self.ranked.len() {
            let x = self.ranked[i];
            let (r, p, fours) = ((x >> 40) as u8, Pos((x >> 8) as u16), (x & 0xFF) as u32);
            // Expected number of defences: one for a four, a few for a three, more for
            // the weaker threats.
            let init = match r / 16 {
                0 | 4 | 5 => UNIT,
                1..=3 => 2 * UNIT,
                6 | 7 => 4 * UNIT,
                8 => 5 * UNIT,
                _ => 6 * UNIT,
            };
            // Deeper threats and threats that leave the defender counter-fours look
            // harder (see `DEPTH_PN` and `COUNTER_FOUR_PN`); a child the table knows
            // gets its stored value anyway.
            let init = init + DEPTH_PN * self.path.len() as u32;
            let init = if self.tt.probe(self.key ^ HASH.stone(a, p)).is_none() {
                init + COUNTER_FOUR_PN * fours
            } else {
                init
            };
            self.push_child(p, a, rem - 1, init);
        }
        if self.ranked.is_empty() {
            return Expanded::Done(Self::DISPROVEN, 0);
        }
        Expanded::Children {
            worst: 0,
            worst_pos: 0,
            vcf_rem: if vcf_asked { rem as i16 } else { 0 },
            lvl: sim_tried | (vcf_lvl << 1),
        }
    }

    /// The threat moves of the attacker `a` into `threats`, packed as in [`OrSlot`]: every
    /// square of a ranked class (renju black: a forbid-class square only if legal), with
    /// its rank and the number of squares where the defender can make a four after it.
    fn scan_threats(&mut self, board: &mut Board, a: Color) {
        // The class counts say how many squares hold a ranked class (or renju black's
        // forbid class): the scan stops after the last one.
        let total = class_count(board, a, Pattern4::Forbid, Pattern4::Block4Flex3);
        let threats = &mut self.threats;
        let in_range = |x: Pattern4| x >= Pattern4::Forbid && x <= Pattern4::Block4Flex3;
        scan_counted(board, &self.squares, a, total, in_range, |board, p, x| {
            let rank = match x {
                Pattern4::Forbid
                    if a == Color::Black
                        && board.rule() == Rule::Renju
                        && !board.is_forbidden(p) =>
                {
                    3
                }
                x => match threat_rank(x) {
                    Some(r) => r,
                    None => return,
                },
            };
            threats.push(u32::from(p.0) | u32::from(rank) << 16);
        });
        let d4_now = self.collect_defender_fours(board, a.opp());
        for i in 0..self.threats.len() {
            let t = self.threats[i];
            let n = self.defender_fours_after(board, Pos(t as u16), a, d4_now);
            self.threats[i] = t | n.min(255) << 24;
        }
    }

    /// The defender `d`'s four squares (and renju black's forbidden squares, which an
    /// attacking stone can turn into fours) into `dfours`; returns the number of squares
    /// where `d` can make a four or five now.
    fn collect_defender_fours(&mut self, board: &mut Board, d: Color) -> u32 {
        self.dfours.clear();
        let fours = fours_or_fives(board, d);
        let total = fours + board.count(d, Pattern4::Forbid);
        let dfours = &mut self.dfours;
        scan_counted(board, &self.squares, d, total, four_class, |_, p, _| {
            dfours.push(p);
        });
        fours
    }

    /// How many squares give the defender a four or five after the attacker `a` plays
    /// on `p` (`now`: the count before; `dfours` as [`Dfpn::collect_defender_fours`]
    /// left it). A stone changes the classes of the squares at most five cells away
    /// along its lines only, so the board is asked only when one of `dfours` is there.
    fn defender_fours_after(&self, board: &mut Board, p: Pos, a: Color, now: u32) -> u32 {
        let near = self.dfours.iter().any(|&q| {
            let (dx, dy) = (p.x().abs_diff(q.x()), p.y().abs_diff(q.y()));
            (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= 5
        });
        if !near {
            return now;
        }
        board.place(p, a);
        let n = fours_or_fives(board, a.opp());
        board.lift(p);
        n
    }

    /// Expand an AND node (defender `a.opp()` to move after an attacking move).
    fn expand_and(
        &mut self,
        board: &mut Board,
        a: Color,
        rem: i32,
        stop: &AtomicBool,
        vcf: &mut VcfSolver,
    ) -> Expanded {
        let d = a.opp();
        if board.count(d, Pattern4::Five) > 0 {
            return Expanded::Done(Self::DISPROVEN, 0);
        }
        let mut pass_lvl = 0u8;
        if let Some((v, e)) = self.lookup(rem) {
            if v.pn == 0 || v.dn == 0 {
                return Expanded::Known(v);
            }
            pass_lvl = e.pass_lvl;
        }
        let mut fives = [Pos::NONE; 8];
        let n5 = all_fives(board, &self.squares, a, &mut fives);
        match reply_to_fives(board, a, &fives[..n5]) {
            Reply::Lost => return Expanded::Done(Self::proven(2), 0),
            Reply::Forced(f) => {
                self.push_child(f, d, rem - 1, UNIT);
                return Expanded::Children {
                    worst: 0,
                    worst_pos: 0,
                    vcf_rem: 0,
                    lvl: 0,
                };
            }
            Reply::Free => {}
        }
        // A revisit whose expansion the side table holds skips the pass test's line and
        // the generation of the defences (one node, the VCF table hit it replaces).
        let cached = self.and_cache_valid(board, a, rem, vcf);
        let verify = VERIFY_AND_CACHE.load(Ordering::Relaxed);
        if let Some(slot) = &cached {
            if !verify {
                self.stats.nodes += 1;
                return self.expand_cached(slot, a, rem, stop);
            }
        }
        // A defender VCF refutes any move that leaves the attacker without a five point.
        if self.defender_vcf(board, d, stop, vcf) {
            return Expanded::Done(Self::DISPROVEN, 0);
        }
        // The attacker's move is a threat only if a pass by the defender loses to a VCF.
        // A test that runs out of its budget leaves the node open with a proof number
        // that grows with each try; the next visit asks again with four times the budget.
        let inexact = self.inexact;
        let budget = PASS_VCF_NODES << (2 * u32::from(pass_lvl.min(MAX_PASS_LVL)));
        let pass_plies = match self.vcf(board, a, rem - 1, budget, stop, vcf) {
            ThreatResult::Win { plies, .. } => plies,
            ThreatResult::NoWin => return Expanded::Done(Self::DISPROVEN, 0),
            ThreatResult::Unknown if self.aborted || pass_lvl >= MAX_PASS_LVL => {
                return Expanded::Done(Self::DISPROVEN, 0);
            }
            ThreatResult::Unknown => {
                self.inexact = inexact;
                let lvl = pass_lvl + 1;
                return Expanded::Retry(
                    Value {
                        pn: UNIT * (2 + 2 * u32::from(lvl)),
                        dn: UNIT,
                        plies: 0,
                    },
                    lvl,
                );
            }
        };
        let t0 = self.lines.len();
        self.lines.extend_from_slice(vcf.principal_line());
        let t1 = self.lines.len();
        // A line that does not replay here (a line completed from a table that lost an
        // entry) says nothing about where it can be spoiled: then every square is tried.
        let mut final_fives = ([Pos::NONE; 8], 0);
        let everywhere = t1 == t0
            || match replay(board, a, &self.lines[t0..t1]) {
                None => true,
                Some(f) => {
                    final_fives = (f.fives, f.n_fives);
                    board.rule() == Rule::Renju && f.relies_on_renju
                }
            };
        // Candidate defences, appended to `lines` after the threat.
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.fill(0);
            self.line_mark.fill(0);
            self.reply_mark.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        for i in t0..t1 {
            let q = self.lines[i];
            self.line_mark[q.idx()] = stamp;
            if (i - t0) % 2 == 1 {
                self.reply_mark[q.idx()] = stamp;
            }
            if board.is_empty(q) && self.mark[q.idx()] != stamp {
                self.mark[q.idx()] = stamp;
                self.lines.push(q);
            }
        }
        // Lines that the shortcut of `line_survives` covers: not caro (blocked ends
        // matter there), not relying on the renju forbidden-point rule.
        let shortcut = !everywhere && !matches!(board.rule(), Rule::Caro8 | Rule::Caro9);
        let (fives, n_fives) = final_fives;
        let black_renju = d == Color::Black && board.rule() == Rule::Renju;
        if everywhere {
            for i in 0..self.squares.len() {
                let p = self.squares[i];
                if board.is_empty(p) && self.mark[p.idx()] != stamp {
                    self.mark[p.idx()] = stamp;
                    self.lines.push(p);
                }
            }
        } else {
            // A defender stone can only spoil the line at its squares (taken above),
            // near the defender's replies (a reply that now makes a defender four or
            // five), near the last attacking move (its five points) or, under caro
            // rules, at the ends of any of its fives. Elsewhere it only takes away
            // from the attacker what the line does not use: renju black's forbidden
            // points never appear that way (a line that relies on them is handled
            // above), and a defender stone never turns a five into an overline.
            let caro = matches!(board.rule(), Rule::Caro8 | Rule::Caro9);
            let last = t0 + (t1 - t0 - 1) / 2 * 2;
            for i in t0..t1 {
                let q = self.lines[i];
                if !caro && (i - t0).is_multiple_of(2) && i != last {
                    continue;
                }
                for dir in Dir::ALL {
                    for k in -5..=5 {
                        let p = q.step(dir, k);
                        if board.is_empty(p) && self.mark[p.idx()] != stamp {
                            self.mark[p.idx()] = stamp;
                            self.lines.push(p);
                        }
                    }
                }
            }
            // The class counts say how many squares can be fours (the forbid class
            // included): the scan stops after the last one.
            let total = fours_or_fives(board, d) + board.count(d, Pattern4::Forbid);
            let (mark, lines) = (&mut self.mark, &mut self.lines);
            scan_counted(board, &self.squares, d, total, four_class, |board, p, _| {
                if mark[p.idx()] != stamp && is_four_move(board, p, d) {
                    mark[p.idx()] = stamp;
                    lines.push(p);
                }
            });
        }
        let t2 = self.lines.len();
        // The table probes below miss the cache; issued together, the misses overlap.
        for i in t1..t2 {
            let k = self.key ^ HASH.stone(d, self.lines[i]);
            self.tt.prefetch(k);
            vcf.prefetch(k ^ VCF_KEY);
        }
        let mut worst = pass_plies as i16;
        let mut worst_pos = 0u16;
        // The lines of the last two VCFs that quick looks found here (ranges of `lines`
        // and plies).
        let mut alt = [(0usize, 0usize, 0i32); 2];
        let mut n_alt = 0usize;
        // The legal candidates, for the side table.
        let mut legal = [0u16; AND_CACHE_MAX];
        let mut n_legal = 0usize;
        for i in t1..t2 {
            let c = self.lines[i];
            if !legal_for(board, c, d) {
                continue;
            }
            if n_legal < AND_CACHE_MAX {
                legal[n_legal] = c.0;
            }
            n_legal += 1;
            let known = self.lookup_key(self.key ^ HASH.stone(d, c), rem - 1);
            let v = match known {
                Some((v, e)) => {
                    self.note_sibling(c, v, &e);
                    v
                }
                None if shortcut && self.line_survives(board, c, a, &fives[..n_fives]) => {
                    debug_assert!({
                        self.place(board, c, d);
                        let ok = replay(board, a, &self.lines[t0..t1]).is_some();
                        self.lift(board, c, d);
                        ok
                    });
                    if VERIFY_SHORTCUT.load(Ordering::Relaxed) {
                        self.place(board, c, d);
                        let ok = replay(board, a, &self.lines[t0..t1]).is_some();
                        self.lift(board, c, d);
                        assert!(ok, "line_survives: the line fails after {c:?}");
                        SHORTCUTS_VERIFIED.fetch_add(1, Ordering::Relaxed);
                    }
                    let v = Self::proven(pass_plies);
                    let key = self.key;
                    self.key ^= HASH.stone(d, c);
                    self.store(v, rem - 1, BEST_VCF, 0, 0, 0);
                    self.key = key;
                    v
                }
                None => {
                    self.place(board, c, d);
                    let four = board.count(d, Pattern4::Five) > 0;
                    // A stone on the line's own squares spoils the replay, unless it
                    // is a renju black stone that makes one of black's replies
                    // forbidden (and the line wins earlier).
                    let on_line = self.line_mark[c.idx()] == stamp && !black_renju;
                    let refuted =
                        if !four && !on_line && replay(board, a, &self.lines[t0..t1]).is_some() {
                            Some(pass_plies)
                        } else if let Some(pl) = (!four)
                            .then(|| {
                                alt.iter().take(n_alt).find_map(|&(s, e, pl)| {
                                    replay(board, a, &self.lines[s..e]).map(|_| pl)
                                })
                            })
                            .flatten()
                        {
                            // Another VCF line that an earlier candidate's quick look
                            // found still works: no look needed.
                            if VERIFY_ALT_LINES.load(Ordering::Relaxed) {
                                assert!(
                                    fresh_vcf_line(board, a).is_some(),
                                    "alternative line: no VCF\n{board}"
                                );
                                ALT_LINES_VERIFIED.fetch_add(1, Ordering::Relaxed);
                            }
                            Some(pl)
                        } else {
                            // A cheap look for another VCF: the proof number of this node
                            // then counts fewer defences that are no real ones.
                            // Its "unknown" is no loss of exactness: the node asks again.
                            let inexact = self.inexact;
                            let r = self.vcf(board, a, rem - 1, DEFENCE_VCF_NODES, stop, vcf);
                            self.inexact = inexact;
                            match r {
                                ThreatResult::Win { plies, .. } => {
                                    let s = self.lines.len();
                                    self.lines.extend_from_slice(vcf.principal_line());
                                    alt[1] = alt[0];
                                    alt[0] = (s, self.lines.len(), plies);
                                    n_alt = (n_alt + 1).min(2);
                                    Some(plies)
                                }
                                _ => None,
                            }
                        };
                    let v = if let Some(pl) = refuted {
                        let v = Self::proven(pl);
                        self.store(v, rem - 1, BEST_VCF, 0, 0, 0);
                        v
                    } else {
                        // A real candidate: its own expansion asks for a new VCF first.
                        // A counter-four is usually answered and the threat stands.
                        // Stored, so that revisits of this node skip the quick look.
                        let v = Value {
                            pn: if four { 1 } else { UNIT },
                            dn: UNIT,
                            plies: 0,
                        };
                        self.store(v, rem - 1, 0, 0, 0, 0);
                        v
                    };
                    self.lift(board, c, d);
                    v
                }
            };
            if !self.add_defence(c, v, &mut worst, &mut worst_pos) {
                return Expanded::Done(Self::DISPROVEN, 0);
            }
            if self.aborted || stop.load(Ordering::Relaxed) {
                self.aborted = true;
                break;
            }
        }
        if !self.aborted && n_legal <= AND_CACHE_MAX {
            if let Some(slot) = &cached {
                assert!(
                    i32::from(slot.pass_plies) == pass_plies
                        && slot.cands[..usize::from(slot.n)] == legal[..n_legal],
                    "AND cache: stored expansion differs from the fresh one"
                );
                AND_CACHE_VERIFIED.fetch_add(1, Ordering::Relaxed);
            }
            self.and_cache
                .store(self.key, pass_plies as i16, &legal[..n_legal]);
        }
        Expanded::Children {
            worst,
            worst_pos,
            vcf_rem: 0,
            lvl: 0,
        }
    }

    /// The side table's expansion of the current AND node (no five on the board), if
    /// generating it afresh would give the same: the VCF table answers the pass test at
    /// once with the stored length, every candidate has a table value that applies (so
    /// none would get a replay or a quick look), and the pass test's one node would not
    /// hit the node limit.
    fn and_cache_valid(
        &self,
        board: &Board,
        a: Color,
        rem: i32,
        vcf: &VcfSolver,
    ) -> Option<AndSlot> {
        let slot = *self.and_cache.probe(self.key)?;
        let plies = vcf.table_win(board, a, rem - 1, self.key ^ VCF_KEY)?;
        if plies != i32::from(slot.pass_plies)
            || self.node_limit - self.stats.nodes.min(self.node_limit) <= 1
        {
            return None;
        }
        let d = a.opp();
        for &c in &slot.cands[..usize::from(slot.n)] {
            self.tt.prefetch(self.key ^ HASH.stone(d, Pos(c)));
        }
        slot.cands[..usize::from(slot.n)]
            .iter()
            .all(|&c| {
                self.lookup_key(self.key ^ HASH.stone(d, Pos(c)), rem - 1)
                    .is_some()
            })
            .then_some(slot)
    }

    /// Take the candidate defence `c`, with its table value `v` and entry `e`, as the
    /// expansion's `sib_hint` if it is proven by a move and has the most work so far.
    #[inline]
    fn note_sibling(&mut self, c: Pos, v: Value, e: &Entry) {
        if v.pn == 0 && e.best != BEST_VCF && e.best != 0 && e.work >= self.sib_hint.1 {
            self.sib_hint = (c, e.work);
        }
    }

    /// Account one candidate defence `c` of the current AND node with its value `v`: a
    /// proven one raises the longest proof (`worst`, at `worst_pos`), an open one becomes
    /// a child. Returns false when the defence is disproven, which refutes the node.
    fn add_defence(&mut self, c: Pos, v: Value, worst: &mut i16, worst_pos: &mut u16) -> bool {
        if v.dn == 0 {
            return false;
        }
        if v.pn == 0 {
            if v.plies > *worst {
                *worst = v.plies;
                *worst_pos = c.0;
            }
        } else {
            self.children.push(Child {
                pos: c,
                pn: v.pn,
                dn: v.dn,
                plies: 0,
            });
        }
        true
    }

    /// Expand the current AND node from a valid side-table entry: the candidate loop
    /// of [`Dfpn::expand_and`] where every candidate is known.
    fn expand_cached(&mut self, slot: &AndSlot, a: Color, rem: i32, stop: &AtomicBool) -> Expanded {
        let d = a.opp();
        let mut worst = slot.pass_plies;
        let mut worst_pos = 0u16;
        for &c in &slot.cands[..usize::from(slot.n)] {
            let c = Pos(c);
            let Some((v, e)) = self.lookup_key(self.key ^ HASH.stone(d, c), rem - 1) else {
                unreachable!("checked by and_cache_valid");
            };
            self.note_sibling(c, v, &e);
            if !self.add_defence(c, v, &mut worst, &mut worst_pos) {
                return Expanded::Done(Self::DISPROVEN, 0);
            }
            if self.aborted || stop.load(Ordering::Relaxed) {
                self.aborted = true;
                break;
            }
        }
        Expanded::Children {
            worst,
            worst_pos,
            vcf_rem: 0,
            lvl: 0,
        }
    }

    /// Prove the current OR node (attacker `a` to move, `rem` plies) by following the
    /// proof of its analog, the position whose hash differs by `delta` (a counter-four
    /// exchange the analog lacks): the analog's winning move, then every defence the
    /// real generator gives (each by its own analog), VCF leaves by the inner solver.
    /// Every step is checked on the real position, so a success is a proof like any
    /// other (stored in the table); `None` when a step fails or `sim_end` is reached.
    fn simulate_or(
        &mut self,
        board: &mut Board,
        a: Color,
        rem: i32,
        delta: u64,
        stop: &AtomicBool,
        vcf: &mut VcfSolver,
    ) -> Option<i16> {
        self.stats.nodes += 1;
        if self.stats.nodes >= self.node_limit || stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        if self.aborted || self.stats.nodes >= self.sim_end {
            return None;
        }
        if board.count(a, Pattern4::Five) > 0 {
            return Some(1);
        }
        if let Some((v, _)) = self.lookup(rem) {
            if v.pn == 0 {
                return Some(v.plies);
            }
            if v.dn == 0 {
                return None;
            }
        }
        if rem < 3 {
            return None;
        }
        let d = a.opp();
        let nd = board.count(d, Pattern4::Five);
        let m = if nd > 0 {
            let p = find_five(board, &self.squares, d)?;
            if nd >= 2 || !legal_for(board, p, a) {
                return None;
            }
            p
        } else {
            let (v, e) = self.lookup_key(self.key ^ delta, rem)?;
            if v.pn != 0 || e.best == 0 {
                return None;
            }
            if e.best == BEST_VCF {
                // An unfinished look here is no loss of exactness: the search asks again.
                let inexact = self.inexact;
                let r = self.vcf(board, a, rem, INNER_VCF_NODES, stop, vcf);
                self.inexact = inexact;
                if let ThreatResult::Win { plies, .. } = r {
                    let v = Self::proven(plies);
                    self.store(v, rem, BEST_VCF, 1, rem as i16, 1);
                    return Some(v.plies);
                }
                return None;
            }
            let m = Pos(e.best);
            if !board.is_empty(m) || !legal_for(board, m, a) {
                return None;
            }
            m
        };
        self.place(board, m, a);
        let r = self.simulate_and(board, a, rem - 1, delta, stop, vcf);
        self.lift(board, m, a);
        let plies = r? + 1;
        self.store(Self::proven(i32::from(plies)), rem, m.0, 1, 0, 1);
        Some(plies)
    }

    /// The AND-node half of [`Dfpn::simulate_or`] (defender to move after `a`'s move).
    fn simulate_and(
        &mut self,
        board: &mut Board,
        a: Color,
        rem: i32,
        delta: u64,
        stop: &AtomicBool,
        vcf: &mut VcfSolver,
    ) -> Option<i16> {
        self.stats.nodes += 1;
        let d = a.opp();
        let base = self.children.len();
        let line_base = self.lines.len();
        let expanded = self.expand_and(board, a, rem, stop, vcf);
        let (mut worst, mut stub) = match expanded {
            Expanded::Known(v) | Expanded::Done(v, _) => {
                self.children.truncate(base);
                self.lines.truncate(line_base);
                if v.pn == 0 {
                    if let Expanded::Done(v, best) = expanded {
                        self.store(v, rem, best, 1, 0, 0);
                    }
                    return Some(v.plies);
                }
                return None;
            }
            Expanded::Retry(..) => {
                self.children.truncate(base);
                self.lines.truncate(line_base);
                return None;
            }
            Expanded::Children {
                worst, worst_pos, ..
            } => (worst, worst_pos),
        };
        let end = self.children.len();
        let mut ok = !self.aborted;
        for i in base..end {
            if !ok {
                break;
            }
            let y = self.children[i].pos;
            self.place(board, y, d);
            let r = self.simulate_or(board, a, rem - 1, delta, stop, vcf);
            self.lift(board, y, d);
            match r {
                Some(p) if p > worst => {
                    worst = p;
                    stub = y.0;
                }
                Some(_) => {}
                None => ok = false,
            }
        }
        self.children.truncate(base);
        self.lines.truncate(line_base);
        if !ok {
            return None;
        }
        let plies = worst + 1;
        self.store(Self::proven(i32::from(plies)), rem, stub, 1, 0, 0);
        Some(plies)
    }

    /// True if a defender stone on the empty square `c` certainly leaves the current AND
    /// node's VCF line of attacker `a` working, so that [`replay`] would succeed: the
    /// exact shortcut that spares most replays (they were a fifth of the solver's time).
    ///
    /// Valid only for a line that replays on the position, without the renju
    /// forbidden-point rule (`relies_on_renju` false) and not under caro rules; its
    /// squares carry `line_mark` and its defender replies `reply_mark` (current stamp).
    /// Then the stone changes the replay only if it is on the line, takes a five point
    /// of the last attacking move (the only one with several), or gives the defender a
    /// five point at some step: every window of five through `c` holds an attacker
    /// stone or the wall, or at most three defender stones counting `c` and every reply
    /// of the line. (A defender stone never adds to the attacker's patterns, so the
    /// attacker's moves stay legal and its five points stay five points; a renju black
    /// defender stone can only make a reply forbidden, which ends the line as a win.)
    /// `final_fives`: the attacker's five points after the line (from the replay).
    fn line_survives(&self, board: &Board, c: Pos, a: Color, final_fives: &[Pos]) -> bool {
        let stamp = self.stamp;
        if self.line_mark[c.idx()] == stamp || final_fives.contains(&c) {
            return false;
        }
        let d = a.opp();
        let own = Cell::stone(d);
        for dir in Dir::ALL {
            // 1: the defender's (or c itself), 2: blocked, 0: empty.
            let mut st = [0u8; 9];
            for (k, s) in st.iter_mut().enumerate() {
                let q = c.step(dir, k as i32 - 4);
                *s = if k == 4 || self.reply_mark[q.idx()] == stamp {
                    1
                } else {
                    match board.cell(q) {
                        Cell::Empty => 0,
                        x if x == own => 1,
                        _ => 2,
                    }
                };
            }
            for w in st.windows(5) {
                if !w.contains(&2) && w.iter().filter(|&&x| x == 1).count() >= 4 {
                    return false;
                }
            }
        }
        true
    }

    /// Follow the table from the proven root: the first attacking move, the most
    /// stubborn defence, and so on; a VCF leaf appends the VCF line.
    fn extract_line(
        &mut self,
        board: &mut Board,
        a: Color,
        rem: i32,
        stop: &AtomicBool,
        vcf: &mut VcfSolver,
    ) {
        let d = a.opp();
        let root_key = self.key;
        let mut placed: Vec<(Pos, Color)> = Vec::new();
        let mut rem = rem;
        let mut or = true;
        let saved_limit = self.node_limit;
        self.node_limit = u64::MAX;
        while rem > 0 {
            if or {
                if let Some(p) = find_five(board, &self.squares, a) {
                    self.line.push(p);
                    break;
                }
            }
            let Some((v, e)) = self.lookup(rem) else {
                if or {
                    self.append_vcf(board, a, rem, stop, vcf);
                }
                break;
            };
            if v.pn != 0 {
                break;
            }
            if e.best == BEST_VCF {
                if or {
                    self.append_vcf(board, a, rem, stop, vcf);
                }
                break;
            }
            if e.best == 0 || !board.is_empty(Pos(e.best)) {
                break;
            }
            let m = Pos(e.best);
            let c = if or { a } else { d };
            self.line.push(m);
            self.place(board, m, c);
            placed.push((m, c));
            or = !or;
            rem -= 1;
        }
        for &(p, c) in placed.iter().rev() {
            self.lift(board, p, c);
        }
        self.node_limit = saved_limit;
        self.key = root_key;
    }

    fn append_vcf(
        &mut self,
        board: &mut Board,
        a: Color,
        rem: i32,
        stop: &AtomicBool,
        vcf: &mut VcfSolver,
    ) {
        if self.vcf(board, a, rem, INNER_VCF_NODES, stop, vcf).is_win() {
            self.line.extend_from_slice(vcf.principal_line());
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

/// Test checks only: the line of a VCF for `c` that a fresh solver (its own table, a
/// large budget, no stop) finds on `board`, if it finds one.
fn fresh_vcf_line(board: &mut Board, c: Color) -> Option<Vec<Pos>> {
    let mut fresh = VcfSolver::new(1 << 20);
    let never = AtomicBool::new(false);
    let win = fresh.solve(board, c, 199, 2_000_000, &never).is_win();
    win.then(|| fresh.principal_line().to_vec())
}

/// A class that makes a four or five, or renju black's forbid class (a square an
/// attacking stone can turn into a four).
#[inline]
fn four_class(x: Pattern4) -> bool {
    x == Pattern4::Forbid || x >= Pattern4::Block4
}

#[cfg(test)]
mod tests {
    use super::{fours_or_fives, AndCache, AndSlot, Dfpn, Entry, Table};
    use crate::board::Board;
    use crate::mem::power_of_two_slots;
    use crate::pattern::Pattern4;
    use crate::types::{Color, Pos, Rule};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

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

    #[test]
    fn defender_fours_after_a_threat_equal_a_recount_on_the_board() {
        let mut rng = StdRng::seed_from_u64(0xD4);
        let mut dfpn = Dfpn::new(1 << 16);
        let (mut checked, mut changed) = (0u32, 0u32);
        for game in 0..120 {
            let rule = [Rule::Freestyle, Rule::Renju, Rule::Standard][game % 3];
            let mut board = Board::new(15, 15, rule).unwrap();
            dfpn.squares = board.all_squares().collect();
            let mut cands = Vec::new();
            for _ in 0..rng.gen_range(10..60) {
                board.candidates(&mut cands);
                if cands.is_empty() {
                    break;
                }
                let p = cands[rng.gen_range(0..cands.len())];
                board.make(p);
                if board.count(Color::Black, Pattern4::Five) > 0
                    || board.count(Color::White, Pattern4::Five) > 0
                {
                    break;
                }
                for a in [Color::Black, Color::White] {
                    let d = a.opp();
                    let now = dfpn.collect_defender_fours(&mut board, d);
                    assert_eq!(now, fours_or_fives(&board, d));
                    for p in board.all_squares().collect::<Vec<Pos>>() {
                        if !board.is_empty(p) {
                            continue;
                        }
                        let fast = dfpn.defender_fours_after(&mut board, p, a, now);
                        board.place(p, a);
                        let slow = fours_or_fives(&board, d);
                        board.lift(p);
                        assert_eq!(fast, slow, "{rule:?} {a:?} plays {p:?}");
                        checked += 1;
                        changed += u32::from(slow != now);
                    }
                }
            }
        }
        // The positions must have exercised the case the shortcut skips.
        assert!(changed > 100, "{changed} of {checked}");
    }

    #[test]
    fn table_slot_counts_are_the_largest_power_of_two_that_fits() {
        for bytes in [
            0usize,
            1,
            1000,
            4096,
            4097,
            65_536,
            1 << 26,
            (1 << 26) + 123,
        ] {
            for slot in [16usize, 24, 32, 48] {
                let n = power_of_two_slots(bytes, slot, 256);
                assert!(n.is_power_of_two());
                assert!(n >= 256);
                // Either the minimum, or it fits and twice as many would not.
                if n > 256 {
                    assert!(
                        n * slot <= bytes && 2 * n * slot > bytes,
                        "{bytes} {slot} {n}"
                    );
                }
            }
        }
    }

    /// After a clear, entries of the old generation are not found and count as empty
    /// slots: a full bucket of old entries with much work takes four new entries of no
    /// work, and stays so across the 255-clear wrap of the generation.
    #[test]
    fn a_cleared_dfpn_table_treats_old_entries_as_empty() {
        let mut t = Table::new(3 << 20);
        let entry = |key: u64, work: u32| Entry {
            key,
            pn: 1,
            dn: 2,
            work,
            ..Entry::default()
        };
        // Four keys of one bucket (equal below the mask), none 0.
        let keys: Vec<u64> = (1..=4u64).map(|i| (i << 40) | 8).collect();
        for round in 0..600u32 {
            for &k in &keys {
                t.store(entry(k, 1_000_000));
            }
            assert!(keys.iter().all(|&k| t.probe(k).is_some()));
            t.clear();
            assert!(keys.iter().all(|&k| t.probe(k).is_none()), "round {round}");
            let fresh: Vec<u64> = keys.iter().map(|k| k ^ (1 << 50)).collect();
            for &k in &fresh {
                t.store(entry(k, 0));
            }
            assert!(fresh.iter().all(|&k| t.probe(k).is_some()), "round {round}");
            t.clear();
        }
        let mut c = AndCache::new(1 << 16);
        c.store(77, 3, &[5, 6]);
        assert_eq!(c.probe(77).map(|s| (s.pass_plies, s.n)), Some((3, 2)));
        c.clear();
        assert!(c.probe(77).is_none());
        c.store(77, 4, &[5]);
        assert_eq!(c.probe(77).map(|s| (s.pass_plies, s.n)), Some((4, 1)));
    }
}
