//! Why a worker died, in the student's words: from its exit status and the last thing it
//! printed. Rust's own hints ("note: run with `RUST_BACKTRACE=1`…") are not the last thing a
//! student needs to read, and running out of memory is named as such rather than left as
//! "killed by signal 6" — the abort Rust ends with when an allocation is refused.

use std::fmt::Write as _;

/// What Rust prints on stderr when the allocator refuses a request, before it aborts.
const REFUSED: (&str, &str) = ("memory allocation of ", " bytes failed");

/// How a worker ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    /// It exited with `code`, or was killed by `signal`.
    Exited {
        code: Option<i32>,
        signal: Option<i32>,
    },
    /// It stopped answering and was stopped.
    StoppedAnswering,
}

/// The words for a worker that ended as `ending`, having printed `stderr`, under an
/// address-space limit of `memory_mb`.
pub(crate) fn why(ending: Ending, stderr: &str, memory_mb: u64) -> String {
    let last = last_words(stderr);
    if let Some(bytes) = last.and_then(refused_bytes) {
        return format!(
            "it ran out of memory: asking for {} more was refused (a check may use at most \
             {memory_mb} MiB in all)",
            amount(bytes)
        );
    }
    let mut why = match ending {
        Ending::Exited {
            code: Some(code), ..
        } if code > 128 => format!("it was killed by signal {}", code - 128),
        Ending::Exited {
            code: Some(code), ..
        } => format!("it exited with code {code} (std::process::exit?)"),
        Ending::Exited {
            signal: Some(signal),
            ..
        } => format!("it was killed by signal {signal}"),
        Ending::Exited { .. } => "it ended".to_owned(),
        Ending::StoppedAnswering => "it stopped answering".to_owned(),
    };
    if let Some(last) = last {
        let _ = write!(why, "; its last message: {last}");
    }
    why
}

/// The last line of `stderr` that is neither blank nor one of Rust's `note:` hints.
fn last_words(stderr: &str) -> Option<&str> {
    stderr
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("note: "))
}

/// The size of a refused allocation, when `line` reports one.
fn refused_bytes(line: &str) -> Option<u64> {
    line.strip_prefix(REFUSED.0)?
        .strip_suffix(REFUSED.1)?
        .parse()
        .ok()
}

/// `bytes` in the largest unit that keeps it whole-ish: "256 MiB", "1.5 KiB", "17 bytes".
fn amount(bytes: u64) -> String {
    let units = [("GiB", 1u64 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    match units.iter().find(|(_, size)| bytes >= *size) {
        Some((unit, size)) if bytes.is_multiple_of(*size) => format!("{} {unit}", bytes / size),
        Some((unit, size)) => format!("{:.1} {unit}", bytes as f64 / *size as f64),
        None => format!("{bytes} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exited(code: Option<i32>, signal: Option<i32>) -> Ending {
        Ending::Exited { code, signal }
    }

    const OOM: &str = "memory allocation of 268435456 bytes failed\n\
                       note: run with `RUST_BACKTRACE=1` environment variable to display a \
                       backtrace\n";

    #[test]
    fn a_refused_allocation_is_named_running_out_of_memory() {
        assert_eq!(
            why(exited(None, Some(6)), OOM, 1024),
            "it ran out of memory: asking for 256 MiB more was refused (a check may use at \
             most 1024 MiB in all)"
        );
    }

    #[test]
    fn rusts_hints_are_not_the_last_message() {
        let stderr = "thread 'main' panicked at src/main.rs:3:5:\nboom\n\
                      note: run with `RUST_BACKTRACE=1` environment variable to display a \
                      backtrace\n\n";
        assert_eq!(
            why(exited(None, Some(6)), stderr, 1024),
            "it was killed by signal 6; its last message: boom"
        );
    }

    #[test]
    fn exit_codes_and_signals_are_told_apart() {
        assert_eq!(
            why(exited(Some(3), None), "", 1024),
            "it exited with code 3 (std::process::exit?)"
        );
        assert_eq!(
            why(exited(Some(137), None), "", 1024),
            "it was killed by signal 9"
        );
        assert_eq!(why(exited(None, None), "", 1024), "it ended");
        assert_eq!(
            why(Ending::StoppedAnswering, "looping\n", 1024),
            "it stopped answering; its last message: looping"
        );
    }

    #[test]
    fn a_line_like_a_refusal_that_is_not_one_stays_a_message() {
        let stderr = "memory allocation of many bytes failed\n";
        assert_eq!(
            why(exited(None, Some(6)), stderr, 1024),
            "it was killed by signal 6; its last message: memory allocation of many bytes failed"
        );
    }

    #[test]
    fn amounts_read_as_people_write_them() {
        assert_eq!(amount(17), "17 bytes");
        assert_eq!(amount(1536), "1.5 KiB");
        assert_eq!(amount(256 << 20), "256 MiB");
        assert_eq!(amount(3 << 30), "3 GiB");
    }
}
