//! No temporary file left behind by Ctrl-C: while [`super::write_atomically`] holds a temporary
//! file (`.NAME.PID.N.tmp`, renamed over the output when complete), its path is registered
//! here, and SIGINT, SIGTERM or SIGHUP remove every registered temporary before the process
//! ends of that signal as it would have anyway (the handler restores the default action and
//! raises the signal again, so the exit status still says which signal ended it).
//!
//! The handler is installed only for signals whose action is still the default (ending the
//! process): a host that handles the signal itself (a Jupyter kernel interrupted with SIGINT, a
//! Python caller) keeps its own handling, and a signal the parent set to be ignored (`nohup`)
//! stays ignored. What a signal handler may do is little: it only swaps pointers out of a fixed
//! table of atomics and calls `unlink`, `signal` and `raise`, all async-signal-safe; the
//! registering side allocates and frees outside it.

use std::ffi::{CString, c_char, c_int};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::ptr::null_mut;
use std::sync::Once;
use std::sync::atomic::{AtomicPtr, Ordering};

/// How many temporaries can be registered at once (one per output being written; more are
/// written as before, just not cleaned on a signal).
const SLOTS: usize = 64;

/// The registered paths, as C strings owned by whoever swaps them out (the registration when
/// it ends, or the handler, which never frees: the process is ending).
static TEMPS: [AtomicPtr<c_char>; SLOTS] = [const { AtomicPtr::new(null_mut()) }; SLOTS];

/// The signals that end a process by default and that a user sends to stop a command.
const SIGNALS: [c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// A temporary file's path, removed if the process is stopped by a signal while this lives.
pub(crate) struct Registered {
    slot: Option<usize>,
}

/// Registers `temp` until the returned value is dropped (after the rename or the removal).
pub(crate) fn register(temp: &Path) -> Registered {
    install_once();
    let Ok(path) = CString::new(temp.as_os_str().as_bytes()) else {
        return Registered { slot: None };
    };
    let ptr = path.into_raw();
    for (i, slot) in TEMPS.iter().enumerate() {
        if slot
            .compare_exchange(null_mut(), ptr, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            return Registered { slot: Some(i) };
        }
    }
    // SAFETY: `ptr` came from `into_raw` above and was stored nowhere.
    drop(unsafe { CString::from_raw(ptr) });
    Registered { slot: None }
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Some(i) = self.slot {
            let ptr = TEMPS[i].swap(null_mut(), Ordering::AcqRel);
            if !ptr.is_null() {
                // SAFETY: only `register` stores pointers, from `into_raw`; the swap made this
                // the only owner (a handler that took it first left null here).
                drop(unsafe { CString::from_raw(ptr) });
            }
        }
    }
}

fn install_once() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        for signal in SIGNALS {
            // SAFETY: plain sigaction calls on zeroed structs, as the C API expects.
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, std::ptr::null(), &mut old) != 0
                    || old.sa_sigaction != libc::SIG_DFL
                {
                    continue;
                }
                let mut new: libc::sigaction = std::mem::zeroed();
                new.sa_sigaction = on_signal as extern "C" fn(c_int) as libc::sighandler_t;
                libc::sigemptyset(&mut new.sa_mask);
                new.sa_flags = libc::SA_RESTART;
                libc::sigaction(signal, &new, std::ptr::null_mut());
            }
        }
    });
}

/// Removes every registered temporary, then ends the process of `signal` as the default
/// action would have.
extern "C" fn on_signal(signal: c_int) {
    for slot in &TEMPS {
        let ptr = slot.swap(null_mut(), Ordering::AcqRel);
        if !ptr.is_null() {
            // SAFETY: a NUL-terminated path from `register`, never freed once swapped out here.
            unsafe { libc::unlink(ptr) };
        }
    }
    // SAFETY: async-signal-safe calls; the raised signal is delivered once this returns.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}
