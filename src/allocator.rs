//! mimalloc as the binaries' allocator, with its settings (feature `fast-alloc`): the CLI and
//! `examples/phases.rs` both declare it with [`fast_allocator!`](crate::fast_allocator), so the
//! benchmark measures what `bpe-lab` runs. The library itself leaves the allocator to whoever
//! links it.
//!
//! The settings, and why (each was measured against the build without it: the figures are in
//! docs/benchmarks.md, "The allocator's settings"):
//! - **2 MB pages** (`allow_large_os_pages`, which mimalloc turns into `madvise(MADV_HUGEPAGE)`
//!   on the memory it maps): the merge loop reads words, pair slots and word lists scattered
//!   over a few hundred megabytes, and with 4 KB pages nearly every one of those reads also
//!   missed the TLB, which on a virtual machine costs a two-level page walk. Training got
//!   faster on both corpora for a little more peak memory. Turning huge pages off for the
//!   whole process, as an earlier build did because its system time swung from run to run,
//!   is not needed once mimalloc maps them itself and purges promptly. Asking for them only on
//!   the largest tables (word arena, pair slots, pair index) gained about half as much: the
//!   word lists are scattered too.
//! - **Purge delay 0**: freed memory goes back to the system at once instead of 10 ms later.
//!   Training frees the word lists of the pairs it merges while it allocates new ones; with the
//!   delay the freed pages still counted in the peak. Longer delays with 2 MB pages saved a
//!   little system time (fewer pages faulted in again) for a higher peak, and no difference in
//!   wall time showed through the machine's noise; 0 stays.
//!
//! - **Purge delay 100 ms while encoding** ([`purge_later`], which `bpe-lab encode`,
//!   `decode` and `count-tokens` call first): encoding grows its output buffers, its chunk
//!   cache and the cache's table while it frees the smaller ones they replace; with every freed
//!   2 MB page returned at once, the next growth faulted it back in and the kernel zeroed it
//!   again. The delay takes most of encoding's system time away for a slightly higher peak.
//!
//! Both must be in place before mimalloc's first mapping, which happens before `main` (the
//! runtime allocates while starting): hence a constructor that runs ahead of mimalloc's own.

#[doc(hidden)]
pub use mimalloc::MiMalloc;

/// Declares mimalloc as the global allocator of the binary it is expanded in, configured as the
/// module docs say before anything is allocated.
///
/// ```ignore
/// bpe_lab::fast_allocator!();
/// fn main() { /* ... */ }
/// ```
#[macro_export]
macro_rules! fast_allocator {
    () => {
        #[global_allocator]
        static ALLOCATOR: $crate::allocator::MiMalloc = $crate::allocator::MiMalloc;

        // Constructors in `.init_array.N` run in order of N, and before unnumbered ones;
        // mimalloc's own start-up is unnumbered (GCC) or 101 (Clang).
        #[cfg(target_os = "linux")]
        #[used]
        #[unsafe(link_section = ".init_array.00100")]
        static CONFIGURE_ALLOCATOR: extern "C" fn() = $crate::allocator::configure;
    };
}

// Indices in mimalloc.h's `mi_option_t` (the same in its v2 and v3, which the mimalloc crate
// bundles); the binding crate names only some of them.
const MI_OPTION_ALLOW_LARGE_OS_PAGES: std::ffi::c_int = 6;
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

/// Lets freed memory stay with the process for 100 ms before it goes back to the system (see
/// the module docs): for commands that grow buffers while freeing the ones they replace.
pub fn purge_later() {
    unsafe extern "C" {
        fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
    }
    // SAFETY: as in `configure`: stores one integer option of the linked mimalloc.
    unsafe {
        mi_option_set(MI_OPTION_PURGE_DELAY, 100);
    }
}

/// Applies the settings of the module docs. Called by [`fast_allocator!`] before `main`;
/// calling it later only affects memory mimalloc maps from then on.
#[doc(hidden)]
pub extern "C" fn configure() {
    unsafe extern "C" {
        fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
    }
    // SAFETY: sets two of mimalloc's integer options, which only stores the values (no
    // allocation, allowed before its initialization); the symbol comes from the mimalloc
    // library this feature links.
    unsafe {
        mi_option_set(MI_OPTION_ALLOW_LARGE_OS_PAGES, 1);
        mi_option_set(MI_OPTION_PURGE_DELAY, 0);
    }
}
