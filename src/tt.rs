//! The transposition table: a fixed array of 4-entry buckets, allocated once per size
//! change, that remembers search results by Zobrist key.
//!
//! Each entry is two `u64` words: the full key XOR the data word, and packed data (value,
//! best move, depth, bound, generation). The search threads share one table without
//! locks: every word is an `AtomicU64` read and written with `Relaxed` ordering (plain
//! loads and stores on x86-64), so threads never race in Rust's sense, but another
//! thread may replace an entry between the two loads of a probe or the two stores of a
//! store. Such a torn entry pairs one entry's data with another's check word, and the
//! XOR no longer gives the probed key: it reads as a miss, as an empty slot would (the
//! idea of Hyatt and Mann's lockless hashing). The table is a flat vector allocated
//! zeroed, so the operating
//! system maps pages lazily and creating a large table costs almost nothing until the
//! search touches it. Touching is what costs: a first write to a page is a page fault
//! (measured here: 128 MiB take 0.2–0.3 s to fault in, against ~15 ms to `memset` once
//! mapped). So the engine allocates the table when its size becomes known and faults it
//! in with [`Tt::prefault`] in small steps while it waits for input; a search on a cold
//! table is only slower, never late (it polls the clock). [`Tt::clear`] keeps a warm table
//! mapped. A table of 2 MiB or more starts on a huge-page boundary and asks Linux for
//! transparent huge pages (`madvise`), which spares most probes a TLB miss. Mate scores
//! are stored relative to the node (distance from the node, not from the root) and
//! converted back on probe.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::mem::zeroed_table;
use crate::types::{Pos, Value, ONE_PLY, VALUE_INFINITE, VALUE_MATE_IN_MAX};

/// Entries per bucket (one 64-byte cache line).
const BUCKET: usize = 4;
/// `u64` words per bucket.
const WORDS: usize = 2 * BUCKET;
/// Bytes per bucket.
pub const BUCKET_BYTES: usize = WORDS * 8;

/// What a stored value says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Bound {
    /// No information (empty slot).
    None = 0,
    /// The true value is at most the stored value (fail-low).
    Upper = 1,
    /// The true value is at least the stored value (fail-high).
    Lower = 2,
    /// The stored value is exact.
    Exact = 3,
}

impl Bound {
    /// What a fail-soft search's `value` within the window (`alpha`, `beta`) says about
    /// the true value: at least it (`value >= beta`), exactly it (inside the window), or
    /// at most it.
    #[must_use]
    pub fn of(value: Value, alpha: Value, beta: Value) -> Bound {
        if value >= beta {
            Bound::Lower
        } else if value > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    fn from_bits(b: u64) -> Bound {
        match b & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

/// One probe result, with the value already converted to the probing node's ply.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TtHit {
    /// Stored value (mate scores adjusted to the probing ply).
    pub value: Value,
    /// Best move found, or `Pos::NONE`.
    pub best: Pos,
    /// Remaining depth the value was searched to.
    pub depth: i32,
    /// Kind of the last bound stored.
    pub bound: Bound,
    /// The true value is at least this (`-VALUE_INFINITE` when unknown).
    pub lower: Value,
    /// The true value is at most this (`VALUE_INFINITE` when unknown).
    pub upper: Value,
}

/// Convert a value from "distance from the root" to "distance from this node" for storage.
#[inline]
#[must_use]
pub fn value_to_tt(v: Value, ply: i32) -> Value {
    if v >= VALUE_MATE_IN_MAX {
        v + ply
    } else if v <= -VALUE_MATE_IN_MAX {
        v - ply
    } else {
        v
    }
}

/// Convert a stored value back to "distance from the root" at `ply`.
#[inline]
#[must_use]
pub fn value_from_tt(v: Value, ply: i32) -> Value {
    if v >= VALUE_MATE_IN_MAX {
        v - ply
    } else if v <= -VALUE_MATE_IN_MAX {
        v + ply
    } else {
        v
    }
}

// Data word layout: lower bound i16 (bits 0..16, `NO_LOWER` = none), upper bound i16
// (16..32, `NO_UPPER` = none), move u16 (32..48), depth u8 (48..56: `ONE_PLY` units
// clamped to 0..=255, up to 63.75 plies; the search stores only positive depths), kind
// of the last bound stored (56..58), generation (58..64, modulo 64).
const NO_LOWER: i16 = i16::MIN;
const NO_UPPER: i16 = i16::MAX;
/// Generations are stored modulo this.
const GEN_MASK: u8 = 63;

/// The unpacked data word of an entry (values as stored, relative to the node).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Data {
    lower: i16,
    upper: i16,
    best: Pos,
    depth: i32,
    bound: Bound,
    generation: u8,
}

impl Data {
    /// One bound of `value` (mate values already made node-relative).
    fn single(value: Value, best: Pos, depth: i32, bound: Bound, generation: u8) -> Data {
        let v = value.clamp(-32_000, 32_000) as i16;
        let (lower, upper) = match bound {
            Bound::Lower => (v, NO_UPPER),
            Bound::Upper => (NO_LOWER, v),
            Bound::Exact => (v, v),
            Bound::None => (NO_LOWER, NO_UPPER),
        };
        Data {
            lower,
            upper,
            best,
            depth,
            bound,
            generation,
        }
    }

    fn pack(self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.best.0) << 32
            | u64::from(self.depth.clamp(0, 255) as u8) << 48
            | (self.bound as u64) << 56
            | u64::from(self.generation & GEN_MASK) << 58
    }

    fn unpack(w: u64) -> Data {
        Data {
            lower: w as u16 as i16,
            upper: (w >> 16) as u16 as i16,
            best: Pos((w >> 32) as u16),
            depth: i32::from((w >> 48) as u8),
            bound: Bound::from_bits(w >> 56),
            generation: ((w >> 58) as u8) & GEN_MASK,
        }
    }

    /// This entry with another bound of the same depth merged in: the tighter of two
    /// lower (upper) bounds is kept; a bound that contradicts the new one is dropped.
    fn merge(mut self, new: Data) -> Data {
        match new.bound {
            Bound::Lower => {
                self.lower = if self.lower == NO_LOWER {
                    new.lower
                } else {
                    self.lower.max(new.lower)
                };
                if self.upper != NO_UPPER && self.upper < self.lower {
                    self.upper = NO_UPPER;
                }
            }
            Bound::Upper => {
                self.upper = if self.upper == NO_UPPER {
                    new.upper
                } else {
                    self.upper.min(new.upper)
                };
                if self.lower != NO_LOWER && self.lower > self.upper {
                    self.lower = NO_LOWER;
                }
            }
            Bound::Exact | Bound::None => {
                self.lower = new.lower;
                self.upper = new.upper;
            }
        }
        if new.best.is_some() {
            self.best = new.best;
        }
        self.bound = new.bound;
        self
    }
}

// The search's memory of positions; one per engine, reused across moves of a game.
/// The transposition table.
pub struct Tt {
    /// Keep a lower and an upper bound per entry (merged when both come from searches
    /// of the same depth in this search), as MTD(f) needs; otherwise each store
    /// replaces the entry's bound.
    pub two_bounds: bool,
    /// The buckets, from word `off` on: per entry the check word (key XOR data), then
    /// the data word.
    words: Vec<AtomicU64>,
    /// Index of the first bucket's first word in `words`.
    off: usize,
    buckets: usize,
    /// Buckets in use: keys are spread over the first `active` buckets only. It grows
    /// (at [`Tt::new_search`]) with the part faulted in, from [`MIN_ACTIVE_BYTES`] up to
    /// `buckets`, so that a search on a cold table never waits for page faults all over
    /// a table it cannot fill anyway (a fresh process's first move: measured 0.25 s of
    /// faults in a 0.45 s move, see `pbrain-sente bench-firstmove`).
    active: usize,
    generation: u8,
    /// The table's words below this index (from `off`) have been faulted in by
    /// [`Tt::prefault`].
    warm_words: usize,
}

/// The smallest part of a large table a search uses (faulted in at the search's start,
/// a few ms): enough for about half a million nodes.
pub const MIN_ACTIVE_BYTES: usize = 4 << 20;

/// `u64` words per 4 KiB page (one write per page faults it in).
const PAGE_WORDS: usize = 4096 / 8;

impl Tt {
    /// A table of at most `bytes` bytes (at least one bucket), all slots empty.
    #[must_use]
    pub fn new(bytes: usize) -> Tt {
        let buckets = (bytes / BUCKET_BYTES).max(1);
        let (words, off) = zeroed_table::<AtomicU64>(buckets * WORDS);
        let mut t = Tt {
            two_bounds: false,
            words,
            off,
            buckets,
            active: buckets,
            generation: 0,
            warm_words: 0,
        };
        t.activate();
        t
    }

    /// Spread keys over the part of the table faulted in, at least the first
    /// [`MIN_ACTIVE_BYTES`] (faulted in here when cold), at most the whole table.
    fn activate(&mut self) {
        let min = MIN_ACTIVE_BYTES / BUCKET_BYTES;
        if self.buckets <= min {
            self.active = self.buckets;
            return;
        }
        if self.warm_words < min * WORDS {
            self.prefault(MIN_ACTIVE_BYTES - self.warm_words * 8);
        }
        self.active = (self.warm_words / WORDS).clamp(min, self.buckets);
    }

    /// Buckets keys are spread over now (see [`Tt::new_search`]).
    #[must_use]
    pub fn active_bytes(&self) -> usize {
        self.active * BUCKET_BYTES
    }

    /// Fault in up to `max_bytes` more of the table (one write per page, in order).
    /// Returns true while part of the table is still cold. Call it while idle: it
    /// costs a page fault per 4 KiB the first time and nothing afterwards.
    pub fn prefault(&mut self, max_bytes: usize) -> bool {
        let len = self.buckets * WORDS;
        let end = self.warm_words.saturating_add(max_bytes / 8).min(len);
        let mut i = self.warm_words;
        while i < end {
            // The word is written back unchanged; `black_box` keeps the write (the
            // page fault) from being optimised away.
            let w = self.words[self.off + i].get_mut();
            *w = std::hint::black_box(*w);
            i += PAGE_WORDS;
        }
        self.warm_words = end;
        self.warm_words < len
    }

    /// Bytes of the table already faulted in by [`Tt::prefault`].
    #[must_use]
    pub fn warm_bytes(&self) -> usize {
        self.warm_words * 8
    }

    /// Size in bytes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.buckets * BUCKET_BYTES
    }

    /// Reallocate to `bytes` (empty) if the size differs; keep the contents otherwise.
    pub fn resize(&mut self, bytes: usize) {
        let buckets = (bytes / BUCKET_BYTES).max(1);
        if buckets != self.buckets {
            let two_bounds = self.two_bounds;
            *self = Tt::new(bytes);
            self.two_bounds = two_bounds;
        }
    }

    /// Forget everything. A table that is fully faulted in is zeroed in place (a
    /// `memset` of mapped memory, ~15 ms for 128 MiB) so it stays warm; otherwise it is
    /// replaced by a fresh lazily mapped allocation (zeroing the cold part in place would
    /// fault it all in at once).
    pub fn clear(&mut self) {
        if self.warm_words >= self.buckets * WORDS {
            for w in &mut self.words {
                *w.get_mut() = 0;
            }
        } else {
            self.words = Vec::new();
            (self.words, self.off) = zeroed_table::<AtomicU64>(self.buckets * WORDS);
            self.warm_words = 0;
        }
        self.activate();
        self.generation = 0;
    }

    /// Start a new search: entries of older searches become preferred victims, and the
    /// keys spread over the whole part of the table faulted in so far (entries stored
    /// while it was smaller stay valid; most are no longer found).
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        self.activate();
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        self.off + ((u128::from(key) * self.active as u128) >> 64) as usize * WORDS
    }

    /// Hint the CPU to load the bucket of `key` into the cache (issued right after a
    /// move is made, so the miss overlaps the child's first steps before its probe).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        if let Some(w) = self.words.get(self.bucket(key)) {
            crate::mem::prefetch(w);
        }
    }

    /// The entry stored for `key`, with mate values converted for a node at `ply`.
    #[inline]
    #[must_use]
    pub fn probe(&self, key: u64, ply: i32) -> Option<TtHit> {
        let b = self.bucket(key);
        let stored_key = key | 1; // never 0, so an all-zero slot never matches
        for i in 0..BUCKET {
            let data = self.words[b + 2 * i + 1].load(Relaxed);
            if self.words[b + 2 * i].load(Relaxed) ^ data == stored_key {
                let d = Data::unpack(data);
                if d.bound == Bound::None {
                    return None;
                }
                let lower = if d.lower == NO_LOWER {
                    -VALUE_INFINITE
                } else {
                    value_from_tt(Value::from(d.lower), ply)
                };
                let upper = if d.upper == NO_UPPER {
                    VALUE_INFINITE
                } else {
                    value_from_tt(Value::from(d.upper), ply)
                };
                let value = if d.bound == Bound::Upper {
                    upper
                } else {
                    lower
                };
                return Some(TtHit {
                    value,
                    best: d.best,
                    depth: d.depth,
                    bound: d.bound,
                    lower,
                    upper,
                });
            }
        }
        None
    }

    /// Store a result for `key` found at `ply` (mate values are made ply-independent).
    /// Replaces the same key, else an empty slot, else the shallowest entry of an older
    /// search, else the shallowest entry. Keeps the old best move when `best` is none.
    /// With [`Tt::two_bounds`], a bound from a search of the same depth in this search is
    /// merged with the one stored.
    #[inline]
    pub fn store(&self, key: u64, ply: i32, value: Value, best: Pos, depth: i32, bound: Bound) {
        let b = self.bucket(key);
        let stored_key = key | 1;
        let generation = self.generation & GEN_MASK;
        let new = Data::single(value_to_tt(value, ply), best, depth, bound, generation);
        let mut victim = 0;
        let mut victim_score = i32::MAX;
        for i in 0..BUCKET {
            let w = self.words[b + 2 * i + 1].load(Relaxed);
            let k = self.words[b + 2 * i].load(Relaxed) ^ w;
            let old = Data::unpack(w);
            if k == stored_key {
                let this_search = old.generation == generation;
                // Same position: keep a deeper exact result of this search unless this
                // one is at least as deep or exact.
                if this_search
                    && old.depth > depth + 2 * ONE_PLY
                    && old.bound == Bound::Exact
                    && bound != Bound::Exact
                {
                    return;
                }
                let data = if self.two_bounds
                    && this_search
                    && old.depth == depth
                    && old.bound != Bound::None
                {
                    old.merge(new)
                } else {
                    let best = if best.is_some() { best } else { old.best };
                    Data { best, ..new }
                };
                self.write(b + 2 * i, stored_key, data.pack());
                return;
            }
            let score = if old.bound == Bound::None {
                i32::MIN
            } else {
                old.depth - if old.generation == generation { 0 } else { 256 }
            };
            if score < victim_score {
                victim_score = score;
                victim = i;
            }
        }
        self.write(b + 2 * victim, stored_key, new.pack());
    }

    /// Write the entry at word `i`: the data, then the check word (see the module docs
    /// for what a reader sees between the two).
    #[inline]
    fn write(&self, i: usize, stored_key: u64, data: u64) {
        self.words[i + 1].store(data, Relaxed);
        self.words[i].store(stored_key ^ data, Relaxed);
    }

    /// Per-mille of the first 1000 buckets' slots used by the current search.
    #[must_use]
    pub fn hashfull(&self) -> usize {
        let n = self.active.min(1000);
        let mut used = 0;
        for b in 0..n {
            for i in 0..BUCKET {
                let d = Data::unpack(self.words[self.off + b * WORDS + 2 * i + 1].load(Relaxed));
                if d.bound != Bound::None && d.generation == self.generation & GEN_MASK {
                    used += 1;
                }
            }
        }
        used * 1000 / (n * BUCKET)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mem::HUGE_PAGE;
    use crate::types::{mate_in, mated_in};

    #[test]
    fn pack_round_trips_extremes() {
        for &(v, d, b) in &[
            (0, 0, Bound::Exact),
            (-30_000, 255, Bound::Upper),
            (30_000, 120, Bound::Lower),
        ] {
            let data = Data::single(v, Pos::new(31, 31), d, b, 61);
            assert_eq!(Data::unpack(data.pack()), data);
        }
        // A depth below zero (never stored by the search) comes back as zero, which
        // cuts nothing: every probe asks for a positive depth.
        let data = Data::single(5, Pos::new(1, 1), -5, Bound::Upper, 3);
        assert_eq!(Data::unpack(data.pack()).depth, 0);
    }

    #[test]
    fn a_fail_soft_value_is_a_lower_bound_at_beta_exact_inside_and_upper_at_alpha() {
        assert_eq!(Bound::of(50, 10, 50), Bound::Lower);
        assert_eq!(Bound::of(70, 10, 50), Bound::Lower);
        assert_eq!(Bound::of(11, 10, 50), Bound::Exact);
        assert_eq!(Bound::of(10, 10, 50), Bound::Upper);
        assert_eq!(Bound::of(-30, 10, 50), Bound::Upper);
    }

    #[test]
    fn two_bounds_of_one_depth_are_merged_and_others_replace() {
        let mut t = Tt::new(1 << 16);
        t.two_bounds = true;
        let key = 0xfeed_beef_1234_5678;
        t.store(key, 0, 40, Pos::new(2, 2), 6, Bound::Lower);
        t.store(key, 0, 90, Pos::NONE, 6, Bound::Upper);
        let h = t.probe(key, 0).unwrap();
        assert_eq!((h.lower, h.upper, h.best), (40, 90, Pos::new(2, 2)));
        // A tighter lower bound narrows; one above the upper bound drops it.
        t.store(key, 0, 60, Pos::NONE, 6, Bound::Lower);
        assert_eq!(t.probe(key, 0).map(|h| (h.lower, h.upper)), Some((60, 90)));
        t.store(key, 0, 120, Pos::new(3, 3), 6, Bound::Lower);
        let h = t.probe(key, 0).unwrap();
        assert_eq!(
            (h.lower, h.upper, h.best),
            (120, VALUE_INFINITE, Pos::new(3, 3))
        );
        // Another depth replaces both.
        t.store(key, 0, 10, Pos::NONE, 7, Bound::Upper);
        let h = t.probe(key, 0).unwrap();
        assert_eq!((h.lower, h.upper, h.depth), (-VALUE_INFINITE, 10, 7));
        // Without two bounds, a store of the same depth replaces the bound.
        t.two_bounds = false;
        t.store(key, 0, 5, Pos::NONE, 7, Bound::Lower);
        let h = t.probe(key, 0).unwrap();
        assert_eq!((h.lower, h.upper, h.value), (5, VALUE_INFINITE, 5));
    }

    #[test]
    fn depths_in_quarter_plies_up_to_63_plies_are_kept_exactly() {
        let t = Tt::new(1 << 16);
        for (i, depth) in [1, 4, 127, 128, 200, 255].into_iter().enumerate() {
            let key = 0x9e37_79b9_7f4a_7c15_u64.wrapping_mul(i as u64 + 1);
            t.store(key, 0, 5, Pos::new(1, 2), depth, Bound::Lower);
            assert_eq!(t.probe(key, 0).map(|h| h.depth), Some(depth), "{depth}");
        }
        // Deeper than the field holds: stored as the deepest it holds (it only cuts less).
        t.store(42 << 20, 0, 5, Pos::new(1, 2), 300, Bound::Lower);
        assert_eq!(t.probe(42 << 20, 0).map(|h| h.depth), Some(255));
    }

    #[test]
    fn prefault_keeps_entries_and_reports_progress() {
        let mut t = Tt::new(3 * 4096 + 64);
        t.store(
            0x1234_5678_9abc_def0,
            0,
            77,
            Pos::new(3, 4),
            5,
            Bound::Exact,
        );
        assert!(t.prefault(4096));
        assert_eq!(t.warm_bytes(), 4096);
        while t.prefault(4096) {}
        assert_eq!(t.warm_bytes(), t.bytes());
        let hit = t.probe(0x1234_5678_9abc_def0, 0).unwrap();
        assert_eq!((hit.value, hit.best, hit.depth), (77, Pos::new(3, 4), 5));
        t.clear();
        assert_eq!(t.warm_bytes(), t.bytes(), "a warm table stays warm");
        assert!(t.probe(0x1234_5678_9abc_def0, 0).is_none());
    }

    /// A table of several huge pages starts on a huge-page boundary inside its
    /// allocation, and every bucket (the first, the last, the ones between) keeps
    /// what is stored in it.
    #[test]
    fn a_huge_page_table_is_aligned_and_keeps_entries_in_every_bucket() {
        let mut t = Tt::new(3 * HUGE_PAGE + 4096);
        let start = t.words.as_ptr() as usize + t.off * 8;
        assert_eq!(start % HUGE_PAGE, 0);
        assert!(t.off * 8 + t.bytes() <= t.words.len() * 8);
        while t.prefault(1 << 20) {}
        assert_eq!(t.warm_bytes(), t.bytes());
        t.new_search();
        assert_eq!(t.active_bytes(), t.bytes());
        // Keys spread over the whole bucket range, including both ends.
        let keys = [0u64, u64::MAX - 7, 1 << 63, 0x9e37_79b9_7f4a_7c15];
        for (i, &k) in keys.iter().enumerate() {
            t.store(k, 0, i as Value, Pos::new(i, 1), 3, Bound::Exact);
        }
        for (i, &k) in keys.iter().enumerate() {
            let hit = t.probe(k, 0).expect("stored");
            assert_eq!((hit.value, hit.best), (i as Value, Pos::new(i, 1)));
        }
        t.clear();
        assert!(keys.iter().all(|&k| t.probe(k, 0).is_none()));
    }

    #[test]
    fn resize_to_another_size_starts_empty_and_cold() {
        let mut t = Tt::new(1 << 16);
        t.store(42, 0, 1, Pos::new(1, 1), 1, Bound::Lower);
        while t.prefault(1 << 12) {}
        t.resize(1 << 16);
        assert!(t.probe(42, 0).is_some(), "same size keeps the contents");
        t.resize(1 << 17);
        assert_eq!((t.bytes(), t.warm_bytes()), (1 << 17, 0));
        assert!(t.probe(42, 0).is_none());
    }

    /// A cold large table spreads keys over its first `MIN_ACTIVE_BYTES` (faulted in at
    /// once), grows at a new search to the part faulted in since, and entries stored
    /// meanwhile keep their values wherever they are found.
    #[test]
    fn a_cold_table_uses_only_its_warm_part_and_grows_between_searches() {
        let mut t = Tt::new(4 * MIN_ACTIVE_BYTES);
        assert_eq!(t.active_bytes(), MIN_ACTIVE_BYTES);
        assert_eq!(t.warm_bytes(), MIN_ACTIVE_BYTES);
        let keys: Vec<u64> = (0..200u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            t.store(k, 0, i as Value, Pos::new(i % 15, 1), 3, Bound::Exact);
            let b = t.bucket(k) - t.off;
            assert!(b < MIN_ACTIVE_BYTES / 8, "bucket {b} outside the warm part");
        }
        t.prefault(MIN_ACTIVE_BYTES);
        assert_eq!(
            t.active_bytes(),
            MIN_ACTIVE_BYTES,
            "grows only at a new search"
        );
        t.new_search();
        assert_eq!(t.active_bytes(), 2 * MIN_ACTIVE_BYTES);
        while t.prefault(1 << 20) {}
        t.new_search();
        assert_eq!(t.active_bytes(), t.bytes());
        for (i, &k) in keys.iter().enumerate() {
            if let Some(h) = t.probe(k, 0) {
                assert_eq!(h.value, i as Value);
            }
        }
        // A table no larger than the minimum is used whole from the start.
        let small = Tt::new(1 << 16);
        assert_eq!(small.active_bytes(), small.bytes());
    }

    /// An entry whose data word was replaced without its check word (a store of
    /// another thread seen halfway) reads as a miss, and so does one whose check word
    /// was replaced alone; a complete store is found again.
    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let t = Tt::new(1 << 16);
        let key = 0x0123_4567_89ab_cdef;
        t.store(key, 0, 55, Pos::new(4, 4), 9, Bound::Exact);
        let b = t.bucket(key);
        let slot = (0..BUCKET)
            .find(|&i| t.words[b + 2 * i].load(Relaxed) != 0)
            .expect("stored");
        let (check, data) = (&t.words[b + 2 * slot], &t.words[b + 2 * slot + 1]);
        let good = (check.load(Relaxed), data.load(Relaxed));
        let other = Data::single(-70, Pos::new(1, 2), 3, Bound::Lower, 0).pack();
        data.store(other, Relaxed);
        assert!(t.probe(key, 0).is_none(), "new data, old check word");
        data.store(good.1, Relaxed);
        check.store(0x1111 ^ other, Relaxed);
        assert!(t.probe(key, 0).is_none(), "old data, new check word");
        check.store(good.0, Relaxed);
        assert_eq!(t.probe(key, 0).map(|h| h.value), Some(55));
    }

    /// Four threads store and probe the same 63 keys in two buckets at once, each entry's
    /// value and move derived from its key: every hit must carry its own key's data,
    /// whatever the interleaving. (On x86-64 a torn pair is rare here even without the
    /// check word, since both words of an entry share a cache line and the two stores
    /// leave the store buffer together; `a_torn_entry_reads_as_a_miss` builds one.)
    #[test]
    fn concurrent_stores_never_hand_out_another_keys_data() {
        let t = Tt::new(2 * BUCKET_BYTES); // two buckets: constant replacement
        let keys: Vec<u64> = (1..64u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        let value_of = |k: u64| (k >> 40) as Value % 20_000 - 10_000;
        let move_of = |k: u64| Pos::new((k >> 8) as usize % 15, (k >> 16) as usize % 15);
        let hits = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|s| {
            for id in 0..4u64 {
                let (t, keys, hits) = (&t, &keys, &hits);
                s.spawn(move || {
                    for round in 0..20_000u64 {
                        for (j, &k) in keys.iter().enumerate() {
                            if (j as u64 + round + id).is_multiple_of(3) {
                                let depth = ((round + id) % 30) as i32;
                                t.store(k, 0, value_of(k), move_of(k), depth, Bound::Exact);
                            } else if let Some(h) = t.probe(k, 0) {
                                assert_eq!((h.value, h.best), (value_of(k), move_of(k)));
                                hits.fetch_add(1, Relaxed);
                            }
                        }
                    }
                });
            }
        });
        assert!(hits.load(Relaxed) > 0);
    }

    #[test]
    fn mate_distance_is_stored_relative_to_the_node() {
        let stored = value_to_tt(mate_in(9), 4);
        assert_eq!(value_from_tt(stored, 2), mate_in(7));
        let stored = value_to_tt(mated_in(6), 3);
        assert_eq!(value_from_tt(stored, 5), mated_in(8));
        assert_eq!(value_from_tt(value_to_tt(123, 7), 1), 123);
    }
}
