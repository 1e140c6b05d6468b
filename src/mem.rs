//! Large fixed tables on transparent huge pages.
//!
//! The search's table and the threat solvers' tables are tens of MiB probed at random;
//! with 4 KiB pages nearly every probe also misses the TLB. Linux backs a range with
//! 2 MiB pages when asked (`madvise(MADV_HUGEPAGE)`, which the machine's default THP mode
//! `madvise` requires), if the range is aligned and the pages are not yet faulted in.
//! [`zeroed_table`] allocates a little more than asked, gives back the index of the first
//! element on a huge-page boundary and advises the aligned part before it is touched.

/// Bytes of a transparent huge page (x86-64 Linux).
pub(crate) const HUGE_PAGE: usize = 2 << 20;

/// The largest power of two of `slot`-byte slots that fits in `bytes`, at least `min`
/// (`min` a power of two).
pub(crate) fn power_of_two_slots(bytes: usize, slot: usize, min: usize) -> usize {
    let want = (bytes / slot.max(1)).max(min);
    if want.is_power_of_two() {
        want
    } else {
        want.next_power_of_two() / 2
    }
}

/// Types whose all-zero bit pattern is a valid value, equal to their `Default`.
///
/// # Safety
/// Implement it only for types made of plain integers (and arrays of them) or integer
/// atomics, whose `Default` is all zeros: [`zeroed_table`] creates values of them from
/// zeroed memory.
pub(crate) unsafe trait Zeroable: Default {}

// SAFETY: an integer; its default is 0.
unsafe impl Zeroable for u64 {}

// SAFETY: an atomic integer has the size and bit validity of its integer (std docs);
// its default is 0. The search's table shares its words between threads.
unsafe impl Zeroable for std::sync::atomic::AtomicU64 {}

/// A table of `n` default (all-zero) elements, lazily mapped, and the index of its first
/// element in the returned vector. A table of at least one huge page starts at the first
/// element boundary at or after a huge-page boundary (exactly on it for an element size
/// that divides it, e.g. 16 or 32 bytes), and that range is advised as huge pages.
///
/// Zeroed memory from the allocator (fresh pages from the kernel for a large block) is
/// not written here, so the pages are faulted in on first use, not all at once: the
/// tables allocated for the default memory budget at `START`, before a smaller `INFO
/// max_memory` replaces them, do not raise the peak resident memory (the search's table
/// faults its pages in while the engine waits, see [`crate::tt::Tt::prefault`]).
pub(crate) fn zeroed_table<T: Zeroable>(n: usize) -> (Vec<T>, usize) {
    let size = std::mem::size_of::<T>().max(1);
    let huge = n.saturating_mul(size) >= HUGE_PAGE;
    let total = if huge {
        n + HUGE_PAGE.div_ceil(size)
    } else {
        n
    };
    if total == 0 || std::mem::size_of::<T>() == 0 {
        return ((0..n).map(|_| T::default()).collect(), 0);
    }
    let layout = std::alloc::Layout::array::<T>(total).expect("table size overflows");
    // SAFETY: `layout` has a non-zero size (checked above). The block comes from the
    // global allocator with exactly the layout a `Vec<T>` of capacity `total` frees it
    // with, and zeroed memory holds `total` valid values of `T` by `Zeroable`'s contract.
    let v = unsafe {
        let ptr = std::alloc::alloc_zeroed(layout);
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Vec::from_raw_parts(ptr.cast::<T>(), total, total)
    };
    if !huge {
        return (v, 0);
    }
    let addr = v.as_ptr() as usize;
    let off = (addr.next_multiple_of(HUGE_PAGE) - addr).div_ceil(size);
    let start = addr + off * size;
    let aligned = start.next_multiple_of(HUGE_PAGE);
    let len = (start + n * size).saturating_sub(aligned) / HUGE_PAGE * HUGE_PAGE;
    advise_huge_pages(aligned, len);
    (v, off)
}

/// `madvise(addr, len, MADV_HUGEPAGE)` on Linux; the result is ignored (without huge
/// pages a table works the same, only slower).
#[allow(unused_variables)]
fn advise_huge_pages(addr: usize, len: usize) {
    if len == 0 {
        return;
    }
    #[cfg(target_os = "linux")]
    // SAFETY: madvise with MADV_HUGEPAGE only changes how the kernel backs this range of
    // our own allocation (`addr` is on a huge-page boundary); it reads or writes no
    // memory and cannot fail harmfully.
    unsafe {
        libc::madvise(addr as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
}

/// Hint the CPU to load the cache line holding `x` into every cache level (no effect
/// on other targets than x86_64). The one prefetch of the crate: the search's table,
/// the threat solvers' tables and their side caches all go through it.
#[inline]
pub(crate) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch is only a hint: it never faults and has no effect on
        // memory; SSE is part of every x86_64 target.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(x).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Default, PartialEq, Debug)]
    struct Pair(u64, u64);
    // SAFETY: two integers; the default is zero.
    unsafe impl Zeroable for Pair {}

    #[derive(Clone, Copy, Default, PartialEq, Debug)]
    #[repr(align(32))]
    struct Wide([u8; 32]);
    // SAFETY: bytes; the default is zero.
    unsafe impl Zeroable for Wide {}

    #[derive(Clone, Copy, Default, PartialEq, Debug)]
    struct Odd([u8; 24]);
    // SAFETY: bytes; the default is zero.
    unsafe impl Zeroable for Odd {}

    /// A zeroed table of several huge pages starts on a huge-page boundary (16-byte and
    /// 32-byte-aligned elements exactly on it), holds `n` defaults from `off` on, and
    /// a small one is a plain vector of `n` defaults.
    #[test]
    fn a_zeroed_huge_table_starts_on_a_huge_page_and_holds_n_defaults() {
        let n = 3 * HUGE_PAGE / 16 + 5;
        let (v, off) = zeroed_table::<Pair>(n);
        assert_eq!((v.as_ptr() as usize + off * 16) % HUGE_PAGE, 0);
        assert!(v.len() >= off + n);
        assert!(v[off..off + n].iter().all(|&x| x == Pair::default()));
        let (w, off) = zeroed_table::<Wide>(HUGE_PAGE / 16);
        assert_eq!((w.as_ptr() as usize + off * 32) % HUGE_PAGE, 0);
        assert!(w[off..off + HUGE_PAGE / 16]
            .iter()
            .all(|&x| x == Wide::default()));
        // An odd element size still starts at or after the boundary, within the vector.
        let (o, off) = zeroed_table::<Odd>(HUGE_PAGE / 24 * 2);
        let start = o.as_ptr() as usize + off * 24;
        assert!(start % HUGE_PAGE < 24 && off + HUGE_PAGE / 24 * 2 <= o.len());
        let (s, off) = zeroed_table::<Pair>(100);
        assert_eq!((s.len(), off), (100, 0));
        assert!(s.iter().all(|&x| x == Pair::default()));
        let (e, off) = zeroed_table::<Pair>(0);
        assert_eq!((e.len(), off), (0, 0));
    }

    #[test]
    fn a_zeroed_u64_table_starts_on_a_huge_page_and_is_zero() {
        let n = 2 * HUGE_PAGE / 8 + 3;
        let (v, off) = zeroed_table::<u64>(n);
        assert_eq!((v.as_ptr() as usize + off * 8) % HUGE_PAGE, 0);
        assert!(v.len() >= off + n && v[off..off + n].iter().all(|&w| w == 0));
    }
}
