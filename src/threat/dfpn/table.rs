//! The df-pn search's table: proof and disproof numbers, proofs with their length and
//! disproofs with their ply budget, in buckets of four that keep the most work.

use crate::mem::power_of_two_slots;

/// One table slot of the df-pn search.
///
/// Why it exists: df-pn revisits nodes many times; the table keeps their proof and
/// disproof numbers, proofs (with their length) and disproofs (with their ply budget).
///
/// 32 bytes, aligned to them so that a bucket of four is exactly two cache lines.
#[derive(Clone, Copy, Default)]
#[repr(align(32))]
pub(super) struct Entry {
    pub(super) key: u64,
    pub(super) pn: u32,
    pub(super) dn: u32,
    /// Nodes spent below this node (replacement priority).
    pub(super) work: u32,
    /// Proven: plies to the five counted from this node's move.
    pub(super) plies: i16,
    /// Disproven: the ply budget it was disproven with.
    pub(super) rem: i16,
    /// Proven OR node: the winning move (`BEST_VCF`: the inner VCF's line). Proven AND
    /// node: the most stubborn defence (0 if none is worth listing).
    pub(super) best: u16,
    /// OR node: the ply budget within which the inner VCF found no win (0: not asked),
    /// so that revisits skip the question.
    pub(super) vcf_rem: i16,
    /// AND node whose pass test ran out of budget: how often (the next test gets
    /// `PASS_VCF_NODES << (2 * pass_lvl)` nodes). OR node: bit 0 set once a simulation
    /// of an analog's proof was tried here; the bits above, how often its VCF question
    /// ran out of a reduced budget (see `OR_VCF_NODES`).
    pub(super) pass_lvl: u8,
    /// The table's generation when stored: entries of other generations are empty.
    pub(super) gen: u8,
}

/// Bucketed table of [`Entry`]; replaces the entry with the least work.
///
/// Why it exists: bounds the memory of the df-pn search to the bytes it was given.
///
/// [`Table::clear`] starts a new generation; an entry of another generation is treated
/// as empty by probes and stores alike, so the table behaves exactly as one filled with
/// empty entries, and only every 255th clear writes the table (32 MiB per solve-bench
/// position before).
pub(super) struct Table {
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

pub(super) const BUCKET: usize = 4;

impl Table {
    pub(super) fn new(bytes: usize) -> Table {
        let n = power_of_two_slots(bytes, std::mem::size_of::<Entry>(), 1024);
        let (slots, off) = crate::mem::zeroed_table::<Entry>(n);
        Table {
            slots,
            off,
            mask: (n - 1) & !(BUCKET - 1),
            gen: 1,
        }
    }

    pub(super) fn clear(&mut self) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.slots.fill(Entry::default());
            self.gen = 1;
        }
    }

    #[inline]
    pub(super) fn bucket(&self, key: u64) -> usize {
        self.off + (key as usize & self.mask)
    }

    /// Prefetch the bucket of `key` (both cache lines of its 128 bytes).
    #[inline]
    pub(super) fn prefetch(&self, key: u64) {
        let b = self.bucket(key);
        crate::mem::prefetch(&self.slots[b]);
        crate::mem::prefetch(&self.slots[b + BUCKET - 1]);
    }

    #[inline]
    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.slots[b..b + BUCKET]
            .iter()
            .find(|e| e.key == key && e.gen == self.gen)
            .copied()
    }

    #[inline]
    pub(super) fn store(&mut self, mut e: Entry) {
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

#[cfg(test)]
mod tests {
    use super::{Entry, Table};
    use crate::mem::power_of_two_slots;

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
    }
}
