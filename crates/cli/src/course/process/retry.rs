//! Trying again when the machine, not the program, was the trouble: a busy machine that had no
//! process slot or memory a moment ago often has one a moment later. Bounded, with back-off,
//! so a machine that stays full ends in "not graded", never in a student's failure.

use super::error::ProcessError;
use std::time::Duration;

/// Attempts in all, and the pause before each retry.
pub(crate) const PAUSES: [Duration; 3] = [
    Duration::from_millis(100),
    Duration::from_millis(400),
    Duration::from_millis(1600),
];

/// Runs `attempt` until it succeeds, fails for a reason that is not transient, or has been
/// retried after each of [`PAUSES`].
pub(crate) fn retrying<T>(
    mut attempt: impl FnMut() -> Result<T, ProcessError>,
) -> Result<T, ProcessError> {
    let mut pauses = PAUSES.iter();
    loop {
        match attempt() {
            Err(e) if e.is_transient() => match pauses.next() {
                Some(pause) => std::thread::sleep(*pause),
                None => return Err(e),
            },
            other => return other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transient_trouble_is_retried_a_bounded_number_of_times() {
        let mut tries = 0;
        let result: Result<(), _> = retrying(|| {
            tries += 1;
            Err(ProcessError::spawn(
                "w",
                std::io::Error::from_raw_os_error(libc::EAGAIN),
            ))
        });
        assert!(result.is_err());
        assert_eq!(tries, PAUSES.len() + 1);
        let mut tries = 0;
        let result: Result<(), _> = retrying(|| {
            tries += 1;
            Err(ProcessError::spawn(
                "w",
                std::io::Error::from_raw_os_error(libc::ENOENT),
            ))
        });
        assert!(result.is_err());
        assert_eq!(tries, 1);
        let mut tries = 0;
        let result = retrying(|| {
            tries += 1;
            if tries < 3 {
                Err(ProcessError::spawn(
                    "w",
                    std::io::Error::from_raw_os_error(libc::EAGAIN),
                ))
            } else {
                Ok(tries)
            }
        });
        assert_eq!(result.unwrap(), 3);
    }
}
