//! The worker's side of the grader's protocol, compiled into every worker next to the
//! student's code (plain `std` Rust; the crate compiles it too, to test it). Requests arrive on
//! file descriptor 3 and replies leave on 4, so whatever the student prints on stdout or
//! stderr never mixes with them.
//!
//! A request is a length (8 bytes, little-endian) and the call's encoded arguments. A reply is
//! one byte — 0: returned, 1: panicked — then a length and the encoded result or the panic
//! message.

use std::cell::RefCell;
use std::io::{Read, Write};
use std::panic;

thread_local! {
    static PANIC_MESSAGE: RefCell<Option<String>> = const { RefCell::new(None) };
}

fn message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned())
}

/// Answers requests from `requests` on `replies` with `call` until `requests` ends.
pub fn serve_on(
    mut requests: impl Read,
    mut replies: impl Write,
    mut call: impl FnMut(&[u8]) -> Vec<u8>,
) -> std::io::Result<()> {
    // Panics are answers, not noise: keep the message, print nothing.
    panic::set_hook(Box::new(|info| {
        let text = message(info.payload());
        PANIC_MESSAGE.with(|m| *m.borrow_mut() = Some(text));
    }));
    loop {
        let mut length = [0u8; 8];
        match requests.read_exact(&mut length) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(()),
            Err(e) => return Err(e),
        }
        let mut request = vec![0u8; u64::from_le_bytes(length) as usize];
        requests.read_exact(&mut request)?;
        let (kind, body) = match panic::catch_unwind(panic::AssertUnwindSafe(|| call(&request))) {
            Ok(result) => (0u8, result),
            Err(payload) => {
                let text = PANIC_MESSAGE
                    .with(|m| m.borrow_mut().take())
                    .unwrap_or_else(|| message(payload.as_ref()));
                (1u8, text.into_bytes())
            }
        };
        replies.write_all(&[kind])?;
        replies.write_all(&(body.len() as u64).to_le_bytes())?;
        replies.write_all(&body)?;
        replies.flush()?;
    }
}

/// [`serve_on`] over file descriptors 3 and 4, as the grader starts workers. Public for the
/// worker's `main`; this crate's tests drive [`serve_on`] instead.
#[cfg_attr(test, allow(dead_code))]
pub fn serve(call: impl FnMut(&[u8]) -> Vec<u8>) {
    use std::os::fd::FromRawFd;
    // SAFETY: the grader opens 3 and 4 for every worker, and nothing else in the worker owns
    // them; a student who closes them only cuts their own worker off.
    let (requests, replies) =
        unsafe { (std::fs::File::from_raw_fd(3), std::fs::File::from_raw_fd(4)) };
    let _ = serve_on(requests, std::io::BufWriter::new(replies), call);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_and_panics_are_framed() {
        let mut input = Vec::new();
        for request in [&b"ok"[..], b"boom"] {
            input.extend_from_slice(&(request.len() as u64).to_le_bytes());
            input.extend_from_slice(request);
        }
        let mut output = Vec::new();
        serve_on(&input[..], &mut output, |request| {
            if request == b"boom" {
                panic!("asked to fail");
            }
            request.to_vec()
        })
        .unwrap();
        let _ = panic::take_hook();
        let mut expected = vec![0u8];
        expected.extend_from_slice(&2u64.to_le_bytes());
        expected.extend_from_slice(b"ok");
        expected.push(1);
        expected.extend_from_slice(&13u64.to_le_bytes());
        expected.extend_from_slice(b"asked to fail");
        assert_eq!(output, expected);
    }
}
