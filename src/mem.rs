//! Large fixed tables on transparent huge pages.
//!
//! The search's table and the threat solvers' tables are tens of MiB probed at random;
//! with 4 KiB pages nearly every probe also misses the TLB. Linux backs a range with
//! 2 MiB pages when asked (`madvise(MADV_HUGEPAGE)`, which the machine's default THP mode
//! `madvise` requires), if the range is aligned and the pages are not yet faulted in.
//! Both helpers here allocate a little more than asked, give back the index of the first
//! element on a huge-page boundary and advise the aligned part before it is touched.

/// Bytes of a transparent huge page (x86-64 Linux).
pub(crate) const HUGE_PAGE: usize = 2 << 20;

/// A zeroed, lazily mapped allocation for a table of `n` words, and the index of the
/// table's first word in it. A table of at least one huge page starts on a huge-page
/// boundary and is advised as huge pages; its pages are faulted in on first write (the
/// search's table faults them in while the engine waits, see [`crate::tt::Tt::prefault`]).
pub(crate) fn zeroed_words(n: usize) -> (Vec<u64>, usize) {
    if n * 8 < HUGE_PAGE {
        return (vec![0; n], 0);
    }
    let words = vec![0u64; n + HUGE_PAGE / 8];
    let addr = words.as_ptr() as usize;
    let off = (addr.next_multiple_of(HUGE_PAGE) - addr) / 8;
    advise_huge_pages(addr + off * 8, (n * 8) / HUGE_PAGE * HUGE_PAGE);
    (words, off)
}

/// `n` copies of `fill` from index `off` on in the returned vector, the pair `(vector,
/// off)`. A table of at least one huge page starts at the first element boundary at or
/// after a huge-page boundary (exactly on it when the element size divides the
/// allocation's alignment, e.g. 16 bytes, or a type aligned to its own size), and that
/// range is advised as huge pages before the fill writes (faults in) every element.
pub(crate) fn filled_table<T: Clone>(n: usize, fill: T) -> (Vec<T>, usize) {
    let size = std::mem::size_of::<T>().max(1);
    if n.saturating_mul(size) < HUGE_PAGE {
        return (vec![fill; n], 0);
    }
    let pad = HUGE_PAGE.div_ceil(size);
    // Reserved, not yet touched: the advice comes before the first write.
    let mut v: Vec<T> = Vec::with_capacity(n + pad);
    let addr = v.as_ptr() as usize;
    let off = (addr.next_multiple_of(HUGE_PAGE) - addr).div_ceil(size);
    let start = addr + off * size;
    let aligned = start.next_multiple_of(HUGE_PAGE);
    let len = (start + n * size).saturating_sub(aligned) / HUGE_PAGE * HUGE_PAGE;
    advise_huge_pages(aligned, len);
    v.resize(n + pad, fill);
    (v, off)
}

/// `madvise(addr, len, MADV_HUGEPAGE)` where available; the result is ignored (without
/// huge pages a table works the same, only slower).
#[allow(unused_variables)]
fn advise_huge_pages(addr: usize, len: usize) {
    if len == 0 {
        return;
    }
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    // SAFETY: madvise with MADV_HUGEPAGE only changes how the kernel backs this range of
    // our own allocation; it reads or writes no memory and cannot fail harmfully. The
    // syscall clobbers rcx and r11 (declared) and returns in rax (discarded).
    unsafe {
        const SYS_MADVISE: usize = 28;
        const MADV_HUGEPAGE: usize = 14;
        std::arch::asm!(
            "syscall",
            inlateout("rax") SYS_MADVISE => _,
            in("rdi") addr,
            in("rsi") len,
            in("rdx") MADV_HUGEPAGE,
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A filled table of several huge pages starts on a huge-page boundary (16-byte and
    /// 32-byte-aligned elements exactly on it), holds `n` copies of the fill from `off`
    /// on, and a small one is a plain vector.
    #[test]
    fn a_filled_huge_table_starts_on_a_huge_page_and_holds_n_fills() {
        let n = 3 * HUGE_PAGE / 16 + 5;
        let (v, off) = filled_table(n, (7u64, 9u64));
        assert_eq!((v.as_ptr() as usize + off * 16) % HUGE_PAGE, 0);
        assert!(v.len() >= off + n);
        assert!(v[off..off + n].iter().all(|&x| x == (7, 9)));
        #[derive(Clone, Copy, PartialEq, Debug)]
        #[repr(align(32))]
        struct Wide([u8; 32]);
        let (w, off) = filled_table(HUGE_PAGE / 16, Wide([3; 32]));
        assert_eq!((w.as_ptr() as usize + off * 32) % HUGE_PAGE, 0);
        assert!(w[off..off + HUGE_PAGE / 16]
            .iter()
            .all(|&x| x == Wide([3; 32])));
        // An odd element size still starts at or after the boundary, within the vector.
        let (o, off) = filled_table(HUGE_PAGE / 24 * 2, [1u8; 24]);
        let start = o.as_ptr() as usize + off * 24;
        assert!(start % HUGE_PAGE < 24 && off + HUGE_PAGE / 24 * 2 <= o.len());
        let (s, off) = filled_table(100, 5u32);
        assert_eq!((s.len(), off), (100, 0));
    }

    #[test]
    fn zeroed_words_start_on_a_huge_page_and_are_zero() {
        let n = 2 * HUGE_PAGE / 8 + 3;
        let (v, off) = zeroed_words(n);
        assert_eq!((v.as_ptr() as usize + off * 8) % HUGE_PAGE, 0);
        assert!(v.len() >= off + n && v[off..off + n].iter().all(|&w| w == 0));
    }
}
