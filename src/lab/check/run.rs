//! Running the student's function: panics caught and kept quiet, a time limit, and failing
//! cases shrunk to the smallest one that still fails.

use super::shrink::Shrink;
use super::{Check, Counterexample, SECONDS_ENV, Status};
use std::cell::Cell;
use std::panic::{self, UnwindSafe};
use std::sync::{Arc, Mutex, Once, mpsc};
use std::time::{Duration, Instant};

/// Calls after the first failure spent looking for a smaller failing case.
const SHRINK_BUDGET: usize = 2_000;
const DEFAULT_SECONDS: u64 = 20;

thread_local! {
    /// Set while student code runs under [`quietly`], so its panics are reported, not printed.
    static QUIET: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Keeps the default panic output for everything else: only panics inside [`quietly`] are
/// captured. Installed once per process.
fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) {
                let payload = info.payload();
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic without a message".to_owned());
                LAST_PANIC.with(|p| *p.borrow_mut() = Some(message));
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs `f`, turning a panic into `Err(message)` without printing it.
pub(crate) fn quietly<T>(f: impl FnOnce() -> T + UnwindSafe) -> Result<T, String> {
    install_hook();
    let was_quiet = QUIET.with(|q| q.replace(true));
    let result = panic::catch_unwind(f);
    QUIET.with(|q| q.set(was_quiet));
    result.map_err(|_| {
        LAST_PANIC
            .with(|p| p.borrow_mut().take())
            .unwrap_or_else(|| "a panic without a message".to_owned())
    })
}

/// What a check needs to know about an exercise.
pub(super) struct Spec<I, O> {
    pub exercise: &'static str,
    pub hint: &'static str,
    /// The seeds' examples first, then generated cases.
    pub cases: Vec<I>,
    pub reference: fn(&I) -> O,
    pub show_input: fn(&I) -> String,
    pub show_output: fn(&O) -> String,
}

#[derive(Debug, Clone, PartialEq)]
enum Outcome<O> {
    Right,
    Wrong(O),
    Panicked(String),
}

impl<O> Outcome<O> {
    fn same_kind(&self, other: &Outcome<O>) -> bool {
        matches!(
            (self, other),
            (Outcome::Wrong(_), Outcome::Wrong(_)) | (Outcome::Panicked(_), Outcome::Panicked(_))
        )
    }
}

fn is_todo(message: &str) -> bool {
    message.starts_with("not yet implemented") || message.starts_with("not implemented")
}

fn attempt<I, O: PartialEq>(
    student: &(impl Fn(&I) -> O + ?Sized),
    reference: fn(&I) -> O,
    input: &I,
) -> Outcome<O> {
    let got = match quietly(panic::AssertUnwindSafe(|| student(input))) {
        Ok(got) => got,
        Err(message) => return Outcome::Panicked(message),
    };
    if got == reference(input) {
        Outcome::Right
    } else {
        Outcome::Wrong(got)
    }
}

/// Runs the check; the student's function runs on its own thread so a loop that never ends
/// cannot hold the notebook beyond the time limit.
pub(super) fn run<I, O, F>(spec: Spec<I, O>, student: F) -> Check
where
    I: Shrink + Clone + Send + 'static,
    O: PartialEq + Send + 'static,
    F: Fn(&I) -> O + Send + 'static,
{
    let limit = std::env::var(SECONDS_ENV)
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(DEFAULT_SECONDS);
    let exercise = spec.exercise;
    let hint = spec.hint;
    let total = spec.cases.len();
    let current: Arc<Mutex<Option<String>>> = Arc::new(Mutex::new(None));
    let (sender, receiver) = mpsc::channel();
    let watched = Arc::clone(&current);
    std::thread::Builder::new()
        .name(format!("check {exercise}"))
        .spawn(move || {
            let check = evaluate(spec, &student, &watched);
            let _ = sender.send(check);
        })
        .expect("a thread for the check");
    match receiver.recv_timeout(Duration::from_secs(limit)) {
        Ok(check) => check,
        Err(_) => {
            let input = current
                .lock()
                .map(|c| c.clone())
                .unwrap_or(None)
                .unwrap_or_default();
            Check {
                exercise: exercise.to_owned(),
                status: Status::Failed,
                message: format!(
                    "your function did not return within {limit} s — is there a loop that never \
                     ends? It is still running in the background: interrupt the kernel (■) to stop it."
                ),
                counterexample: Some(Counterexample {
                    input,
                    expected: "a result".to_owned(),
                    got: format!("still running after {limit} s"),
                }),
                cases: total,
                hint: hint.to_owned(),
            }
        }
    }
}

fn evaluate<I, O, F>(spec: Spec<I, O>, student: &F, current: &Mutex<Option<String>>) -> Check
where
    I: Shrink + Clone,
    O: PartialEq,
    F: Fn(&I) -> O,
{
    let check = |status: Status, message: String, counterexample: Option<Counterexample>| Check {
        exercise: spec.exercise.to_owned(),
        status,
        message,
        counterexample,
        cases: spec.cases.len(),
        hint: spec.hint.to_owned(),
    };
    for (index, case) in spec.cases.iter().enumerate() {
        if let Ok(mut c) = current.lock() {
            *c = Some((spec.show_input)(case));
        }
        let outcome = attempt(student, spec.reference, case);
        if outcome == Outcome::Right {
            continue;
        }
        if let Outcome::Panicked(message) = &outcome
            && is_todo(message)
        {
            return check(
                Status::NotImplemented,
                "not implemented yet — replace `todo!()` with your code, then run this cell again"
                    .to_owned(),
                None,
            );
        }
        let started = Instant::now();
        let (smallest, outcome) = shrink(case.clone(), outcome, |input| {
            if started.elapsed() > Duration::from_secs(5) {
                return None;
            }
            Some(attempt(student, spec.reference, input))
        });
        let expected = (spec.show_output)(&(spec.reference)(&smallest));
        let input = (spec.show_input)(&smallest);
        return match outcome {
            Outcome::Panicked(message) => check(
                Status::Panicked,
                format!("your code panicked: {message}"),
                Some(Counterexample {
                    input,
                    expected,
                    got: message,
                }),
            ),
            Outcome::Wrong(got) => check(
                Status::Failed,
                format!(
                    "wrong result (case {} of {}; shown shrunk to the smallest input that still fails)",
                    index + 1,
                    spec.cases.len()
                ),
                Some(Counterexample {
                    input,
                    expected,
                    got: (spec.show_output)(&got),
                }),
            ),
            Outcome::Right => unreachable!("only failing cases are shrunk"),
        };
    }
    check(
        Status::Passed,
        format!("all {} cases passed", spec.cases.len()),
        None,
    )
}

/// Greedy shrinking: take the first smaller candidate that fails the same way, repeat until
/// none does or the budget is spent. `try_case` returns `None` when time is up.
fn shrink<I: Shrink, O>(
    mut input: I,
    mut outcome: Outcome<O>,
    mut try_case: impl FnMut(&I) -> Option<Outcome<O>>,
) -> (I, Outcome<O>) {
    let mut calls = 0;
    'smaller: loop {
        for candidate in input.shrink() {
            calls += 1;
            if calls > SHRINK_BUDGET {
                break 'smaller;
            }
            let Some(result) = try_case(&candidate) else {
                break 'smaller;
            };
            if result.same_kind(&outcome) {
                input = candidate;
                outcome = result;
                continue 'smaller;
            }
        }
        break;
    }
    (input, outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quietly_returns_the_panic_message() {
        assert_eq!(
            quietly(|| -> u8 { panic!("boom {}", 7) }),
            Err("boom 7".into())
        );
        assert_eq!(quietly(|| 3), Ok(3));
    }

    #[test]
    fn shrinking_finds_a_minimal_failing_input() {
        // Fails whenever the list holds a "b": the smallest failing input is ["b"].
        use crate::lab::check::shrink::Text;
        let start: Vec<Text> = ["ab", "cab", "x"].map(|s| Text(s.into())).to_vec();
        let fails = |v: &Vec<Text>| v.iter().any(|s| s.0.contains('b'));
        let (smallest, _) = shrink(start, Outcome::<()>::Wrong(()), |v| {
            Some(if fails(v) {
                Outcome::Wrong(())
            } else {
                Outcome::Right
            })
        });
        assert_eq!(smallest, vec![Text("b".into())]);
    }
}
