//! The df-pn search's two side tables: the expansions of AND nodes (pass-test length
//! and candidate defences) and of OR nodes (threats with their class and the
//! defender's fours after each), so that revisits skip regenerating them.

use crate::mem::power_of_two_slots;

/// Most candidate defences an [`AndCache`] entry holds (nodes with more are not cached).
pub(super) const AND_CACHE_MAX: usize = 60;

/// One [`AndCache`] slot: an AND node's pass-test length and its legal candidate
/// defences in generation order.
#[derive(Clone, Copy)]
pub(super) struct AndSlot {
    pub(super) key: u64,
    pub(super) pass_plies: i16,
    pub(super) n: u16,
    pub(super) cands: [u16; AND_CACHE_MAX],
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
/// the same children (checked by a test through
/// [`SelfChecks::and_cache`](crate::threat::self_check::SelfChecks::and_cache)).
pub(super) type AndCache = SideTable<AndSlot>;

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
    pub(super) fn store(&mut self, key: u64, pass_plies: i16, cands: &[u16]) {
        let s = self.claim(key);
        s.pass_plies = pass_plies;
        s.n = cands.len() as u16;
        s.cands[..cands.len()].copy_from_slice(cands);
    }
}

/// A slot of a [`SideTable`], which keeps its key salted.
pub(super) trait SideSlot: Copy + crate::mem::Zeroable {
    fn key(&self) -> u64;
    fn key_mut(&mut self) -> &mut u64;
}

/// Direct-mapped, always-replace side table of one kind of node expansion.
///
/// Slots hold the key XOR `salt`; a clear draws a new salt (as [`crate::threat::tt::Tt`] does):
/// an old slot acts as an empty one.
pub(super) struct SideTable<S> {
    slots: Vec<S>,
    /// Index of the first slot in `slots`.
    off: usize,
    mask: usize,
    salt: u64,
    clears: u64,
}

impl<S: SideSlot> SideTable<S> {
    pub(super) fn new(bytes: usize) -> SideTable<S> {
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

    pub(super) fn clear(&mut self) {
        self.clears += 1;
        self.salt = crate::threat::tt::salt_of(self.clears);
    }

    /// Prefetch the first cache line of the slot of `key` (where its key is).
    #[inline]
    pub(super) fn prefetch(&self, key: u64) {
        crate::mem::prefetch(&self.slots[self.off + (key as usize & self.mask)]);
    }

    /// The slot of `key`, if it holds that key.
    #[inline]
    pub(super) fn probe(&self, key: u64) -> Option<&S> {
        let s = &self.slots[self.off + (key as usize & self.mask)];
        (s.key() == key ^ self.salt && key != 0).then_some(s)
    }

    /// The slot of `key`, taken over for it (its key set; the caller fills the rest).
    #[inline]
    pub(super) fn claim(&mut self, key: u64) -> &mut S {
        let salt = self.salt;
        let s = &mut self.slots[self.off + (key as usize & self.mask)];
        *s.key_mut() = key ^ salt;
        s
    }
}

/// Most threats an [`OrCache`] slot holds (OR nodes with more are not cached).
pub(super) const OR_CACHE_MAX: usize = 95;

/// One [`OrCache`] slot: an OR node's threat moves, each packed as its square (bits
/// 0..16), class rank (16..24) and the number of squares where the defender can make a
/// four after it (24..32), in generation order.
#[derive(Clone, Copy)]
pub(super) struct OrSlot {
    pub(super) key: u64,
    pub(super) n: u32,
    pub(super) threats: [u32; OR_CACHE_MAX],
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
/// [`SelfChecks::or_cache`](crate::threat::self_check::SelfChecks::or_cache)).
pub(super) type OrCache = SideTable<OrSlot>;

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
    pub(super) fn store(&mut self, key: u64, threats: &[u32]) {
        let s = self.claim(key);
        s.n = threats.len() as u32;
        s.threats[..threats.len()].copy_from_slice(threats);
    }
}

#[cfg(test)]
mod tests {
    use super::AndCache;

    #[test]
    fn a_cleared_and_cache_treats_old_slots_as_empty() {
        let mut c = AndCache::new(1 << 16);
        c.store(77, 3, &[5, 6]);
        assert_eq!(c.probe(77).map(|s| (s.pass_plies, s.n)), Some((3, 2)));
        c.clear();
        assert!(c.probe(77).is_none());
        c.store(77, 4, &[5]);
        assert_eq!(c.probe(77).map(|s| (s.pass_plies, s.n)), Some((4, 1)));
    }
}
