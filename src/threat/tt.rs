//! Transposition table of proven and disproven attacker positions, shared by the
//! threat solvers.
//!
//! Keys are the solvers' own position hashes (see [`super::StoneHash`]): the stones on
//! the board plus the attacker, so that a result found in one call is reused by the next
//! call on a related position (the search calls the VCF solver at many leaves).

/// One table slot.
///
/// Why it exists: a solver revisits the same position through different move orders;
/// storing "won in n plies with this move" or "no win with `depth` attacks left" cuts
/// those repeats.
#[derive(Clone, Copy, Default)]
pub struct TtEntry {
    /// Full position hash (0 = empty slot).
    pub key: u64,
    /// Proven: plies to the five (> 0). Disproven: 0.
    pub plies: i16,
    /// Disproven: attacker moves that were searched without a win.
    pub depth: i16,
    /// Proven: the winning move (as `Pos.0`).
    pub best: u16,
    /// Disproven (VCT): the total attacking moves allowed when it was searched.
    pub total: i16,
}

impl TtEntry {
    /// True for a proven win.
    #[must_use]
    pub fn is_win(&self) -> bool {
        self.plies > 0
    }
}

/// A fixed-size, always-replace-unless-deeper table, allocated once (on huge pages, see
/// [`crate::mem::zeroed_table`]).
///
/// Slots hold the key XOR the table's current `salt`; [`Tt::clear`] only draws a new
/// salt, after which every old slot holds a key no probe asks for. Since a store replaces
/// any slot that does not hold its own key, such a slot acts exactly as an empty one
/// (up to a 2^-64 coincidence per probe, like any hash collision), and clearing costs
/// nothing instead of a write of the whole table per solve-bench position.
pub struct Tt {
    slots: Vec<TtEntry>,
    /// Index of the first slot in `slots`.
    off: usize,
    mask: usize,
    /// XOR-ed into every stored key (0 for a fresh table).
    salt: u64,
    /// Clears so far (the salt is a hash of it).
    clears: u64,
}

// SAFETY: integers only; the derived default is all zeros.
unsafe impl crate::mem::Zeroable for TtEntry {}

impl Tt {
    /// A table using about `bytes` bytes (at least 1024 entries, a power of two).
    #[must_use]
    pub fn new(bytes: usize) -> Tt {
        let n = crate::mem::power_of_two_slots(bytes, std::mem::size_of::<TtEntry>(), 1024);
        let (slots, off) = crate::mem::zeroed_table::<TtEntry>(n);
        Tt {
            slots,
            off,
            mask: n - 1,
            salt: 0,
            clears: 0,
        }
    }

    /// Forget everything (a new salt, see [`Tt`]).
    pub fn clear(&mut self) {
        self.clears += 1;
        self.salt = salt_of(self.clears);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        self.off + (key as usize & self.mask)
    }

    /// Ask the memory system for the slot of `key` ahead of a [`Tt::probe`] (a hint
    /// only: the caller probes several positions and their cache misses overlap).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::mem::prefetch(&self.slots[self.index(key)]);
    }

    /// The entry for `key`, if stored.
    #[inline]
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let mut e = self.slots[self.index(key)];
        e.key ^= self.salt;
        (e.key == key).then_some(e)
    }

    /// Store a proven win.
    #[inline]
    pub fn store_win(&mut self, key: u64, plies: i32, best: u16) {
        let salt = self.salt;
        let i = self.index(key);
        let slot = &mut self.slots[i];
        *slot = TtEntry {
            key: key ^ salt,
            plies: plies.clamp(1, i16::MAX as i32) as i16,
            depth: i16::MAX,
            best,
            total: i16::MAX,
        };
    }

    /// Store "no win with `depth` attacker moves" unless the slot holds a proof or a
    /// deeper disproof of the same position.
    #[inline]
    pub fn store_loss(&mut self, key: u64, depth: i32) {
        self.store_loss_total(key, depth, i32::from(i16::MAX));
    }

    /// Store "no win with `depth` threats and `total` attacking moves in all" unless the
    /// slot holds a proof or a disproof of the same position at least as deep in both.
    #[inline]
    pub fn store_loss_total(&mut self, key: u64, depth: i32, total: i32) {
        let salt = self.salt;
        let i = self.index(key);
        let slot = &mut self.slots[i];
        if slot.key == key ^ salt
            && (slot.is_win() || (i32::from(slot.depth) >= depth && i32::from(slot.total) >= total))
        {
            return;
        }
        *slot = TtEntry {
            key: key ^ salt,
            plies: 0,
            depth: depth.clamp(0, i16::MAX as i32) as i16,
            best: 0,
            total: total.clamp(0, i16::MAX as i32) as i16,
        };
    }
}

/// The salt of a table cleared `clears` times: a 64-bit mix of the count (splitmix64's
/// finaliser), distinct for every count and never 0 after the first clear.
pub(crate) fn salt_of(clears: u64) -> u64 {
    let mut z = clears.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_keeps_wins_over_shallower_losses() {
        let mut t = Tt::new(1 << 16);
        t.store_loss(42, 3);
        assert_eq!(t.probe(42).map(|e| e.depth), Some(3));
        t.store_loss(42, 2);
        assert_eq!(t.probe(42).map(|e| e.depth), Some(3));
        t.store_win(42, 7, 99);
        let e = t.probe(42).unwrap();
        assert!(e.is_win() && e.plies == 7 && e.best == 99);
        t.store_loss(42, 9);
        assert!(t.probe(42).unwrap().is_win());
        assert!(t.probe(43).is_none());
        t.clear();
        assert!(t.probe(42).is_none());
        // After a clear a stored key is found again, and an old slot is replaced as an
        // empty one would be (a shallower loss is stored over it).
        t.store_loss(42, 1);
        assert_eq!(t.probe(42).map(|e| e.depth), Some(1));
    }

    /// Many clears: nothing stored before a clear is found after it, in a table of
    /// several huge pages (every slot of which was written before).
    #[test]
    fn a_cleared_table_finds_nothing_stored_before() {
        let mut t = Tt::new(5 << 20);
        let keys: Vec<u64> = (1..2000u64)
            .map(|i| i.wrapping_mul(0x2545_f491_4f6c_dd1d))
            .collect();
        for round in 0..50 {
            for (j, &k) in keys.iter().enumerate() {
                if (j + round) % 3 == 0 {
                    t.store_win(k, 5, 1);
                } else {
                    t.store_loss(k, 2);
                }
            }
            assert!(keys.iter().all(|&k| t.probe(k).is_some()));
            t.clear();
            assert!(keys.iter().all(|&k| t.probe(k).is_none()));
        }
        let salts: std::collections::HashSet<u64> = (0..10_000).map(salt_of).collect();
        assert_eq!(salts.len(), 10_000);
    }
}
