//! mimalloc as the binaries' allocator, with its settings (feature `fast-alloc`): the CLI and
//! `examples/phases.rs` both declare it with [`fast_allocator!`](crate::fast_allocator), so the
//! benchmark measures what `bpe-lab` runs. The library itself leaves the allocator to whoever
//! links it.
//!
//! The settings, and why:
//! - **2 MB pages** (`allow_large_os_pages`, which mimalloc turns into `madvise(MADV_HUGEPAGE)`
//!   on the memory it maps): the merge loop reads words, pair slots and word lists scattered
//!   over a few hundred megabytes, and with 4 KB pages nearly every one of those reads also
//!   missed the TLB — on a virtual machine a two-level page walk. Measured on 42.5 MB of Linux
//!   documentation, 30,000 merges, eight interleaved runs each: wall time 4.21 → 3.23 s
//!   (median), system time 0.68 → 0.39 s, peak RSS 260 → 277 MB; the same merges. (An earlier
//!   build had turned huge pages off for the whole process after seeing the system time swing
//!   between runs; with mimalloc mapping them at start-up, and purging promptly, it no longer
//!   does.) Asking for them only on the largest tables (word arena, pair slots, pair index)
//!   gained about half as much: the word lists are scattered too.
//! - **Purge delay 0**: freed memory goes back to the system at once instead of 10 ms later.
//!   Training frees the word lists of the pairs it merges while it allocates new ones; with the
//!   delay the freed pages still counted in the peak (285–305 MB → 260 MB on 4 KB pages).
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
