//! The check engine: the student's function called on every case and compared with the
//! reference, failing cases shrunk to the smallest one that still fails, and the result put
//! into words. How the student's function is called is the caller's business — directly in the
//! kernel ([`run`]), or through a worker program when grading ([`judge`](super::judge)) — so a
//! ✅ in the notebook and a grade come from the same cases, comparison and messages.

use super::shrink::Shrink;
use super::{Check, Counterexample, Exercise, SECONDS_ENV, Status, guard};
use std::cell::Cell;
use std::panic::{self, UnwindSafe};
use std::sync::{Arc, Mutex, Once, mpsc};
use std::time::{Duration, Instant};

/// Calls after the first failure spent looking for a smaller failing case.
const SHRINK_BUDGET: usize = 2_000;
/// Time after the first failure spent looking for a smaller failing case.
const SHRINK_SECONDS: u64 = 5;
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

/// A panic caught by [`quietly`]: its message (`todo!()`'s included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Panicked {
    pub message: String,
}

impl std::fmt::Display for Panicked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Panicked {}

/// Runs `f`, turning a panic into [`Panicked`] without printing it.
pub(crate) fn quietly<T>(f: impl FnOnce() -> T + UnwindSafe) -> Result<T, Panicked> {
    install_hook();
    let was_quiet = QUIET.with(|q| q.replace(true));
    let result = panic::catch_unwind(f);
    QUIET.with(|q| q.set(was_quiet));
    result.map_err(|_| Panicked {
        message: LAST_PANIC
            .with(|p| p.borrow_mut().take())
            .unwrap_or_else(|| "a panic without a message".to_owned()),
    })
}

/// The seconds a check gives the student's function: `BPE_LAB_CHECK_SECONDS`, default 20.
pub fn time_limit() -> Duration {
    Duration::from_secs(
        std::env::var(SECONDS_ENV)
            .ok()
            .and_then(|s| s.parse::<u64>().ok())
            .unwrap_or(DEFAULT_SECONDS),
    )
}

/// What calling the student's function once gave.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply<O> {
    Returned(O),
    /// The panic message (`todo!()`'s included).
    Panicked(String),
    /// The crate's own answer was called (its name).
    UsedReference(&'static str),
    /// The program running the function died; why.
    Crashed(String),
    /// No answer before the deadline.
    TimedOut,
}

/// What a check needs to know about an exercise: the cases (`I`, shrinkable), what the
/// student's function is given for a case (`A`), and what is compared (`O`).
pub(super) struct Spec<I, A, O> {
    pub exercise: Exercise,
    pub hint: &'static str,
    /// The seeds' examples first, then generated cases.
    pub cases: Vec<I>,
    pub args: fn(&I) -> A,
    pub reference: fn(&I) -> O,
    pub show_input: fn(&I) -> String,
    pub show_output: fn(&O) -> String,
}

#[derive(Debug, Clone, PartialEq)]
enum Outcome<O> {
    Right,
    Wrong(O),
    Panicked(String),
    UsedReference(&'static str),
    Crashed(String),
    TimedOut,
}

impl<O> Outcome<O> {
    fn same_kind(&self, other: &Outcome<O>) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }
}

fn is_todo(message: &str) -> bool {
    message.starts_with("not yet implemented") || message.starts_with("not implemented")
}

/// Calls the student (`call` gets the arguments and a deadline) and compares.
fn attempt<I, A, O: PartialEq>(
    spec: &Spec<I, A, O>,
    call: &mut impl FnMut(&A, Instant) -> Reply<O>,
    input: &I,
    deadline: Instant,
) -> Outcome<O> {
    match call(&(spec.args)(input), deadline) {
        Reply::Returned(got) if got == (spec.reference)(input) => Outcome::Right,
        Reply::Returned(got) => Outcome::Wrong(got),
        Reply::Panicked(message) => Outcome::Panicked(message),
        Reply::UsedReference(name) => Outcome::UsedReference(name),
        Reply::Crashed(why) => Outcome::Crashed(why),
        Reply::TimedOut => Outcome::TimedOut,
    }
}

/// Calls the student's function directly, in this process: panics caught, the crate's answers
/// watched for.
fn call_in_process<A, O>(exercise: Exercise, student: &impl Fn(&A) -> O, args: &A) -> Reply<O> {
    let (result, borrowed) = guard::watching(exercise, || {
        quietly(panic::AssertUnwindSafe(|| student(args)))
    });
    match (result, borrowed) {
        (_, Some(name)) => Reply::UsedReference(name),
        (Ok(got), None) => Reply::Returned(got),
        (Err(panicked), None) => Reply::Panicked(panicked.message),
    }
}

/// Runs a check in the notebook's kernel; the student's function runs on its own thread so a
/// loop that never ends cannot hold the notebook beyond the time limit.
pub(super) fn run<I, A, O, F>(spec: Spec<I, A, O>, student: F) -> Check
where
    I: Shrink + Clone + Send + 'static,
    A: 'static,
    O: PartialEq + Send + 'static,
    F: Fn(&A) -> O + Send + 'static,
{
    let limit = time_limit();
    let exercise = spec.exercise;
    let hint = spec.hint;
    let total = spec.cases.len();
    let current: Arc<Mutex<Option<String>>> = Arc::new(Mutex::new(None));
    let (sender, receiver) = mpsc::channel();
    let watched = Arc::clone(&current);
    std::thread::Builder::new()
        .name(format!("check {exercise}"))
        .spawn(move || {
            // Calls in the kernel cannot be stopped one by one: the receiver below times
            // the whole check instead.
            let check = evaluate(
                &spec,
                |args: &A, _deadline| call_in_process(exercise, &student, args),
                &watched,
                limit,
            );
            let _ = sender.send(check);
        })
        .expect("a thread for the check");
    match receiver.recv_timeout(limit) {
        Ok(check) => check,
        Err(_) => {
            let input = current
                .lock()
                .map(|c| c.clone())
                .unwrap_or(None)
                .unwrap_or_default();
            let mut check = timed_out(exercise, hint, total, input, limit);
            check.message.push_str(
                " It is still running in the background: interrupt the kernel (■) to stop it.",
            );
            check
        }
    }
}

fn timed_out(
    exercise: Exercise,
    hint: &str,
    cases: usize,
    input: String,
    limit: Duration,
) -> Check {
    let seconds = limit.as_secs();
    Check {
        exercise: exercise.name().to_owned(),
        status: Status::TimedOut,
        message: format!(
            "your function did not return within {seconds} s — is there a loop that never ends?"
        ),
        counterexample: Some(Counterexample {
            input,
            expected: "a result".to_owned(),
            got: format!("still running after {seconds} s"),
        }),
        cases,
        hint: hint.to_owned(),
    }
}

/// Every case in order until the first that fails, which is then shrunk, all within `limit`.
/// `call` is given a deadline it must answer by (a worker enforces it; a call in the kernel
/// cannot, and the kernel's runner times the whole check instead).
pub(super) fn evaluate<I, A, O>(
    spec: &Spec<I, A, O>,
    mut call: impl FnMut(&A, Instant) -> Reply<O>,
    current: &Mutex<Option<String>>,
    limit: Duration,
) -> Check
where
    I: Shrink + Clone,
    O: PartialEq,
{
    let deadline = Instant::now() + limit;
    for (index, case) in spec.cases.iter().enumerate() {
        if let Ok(mut c) = current.lock() {
            *c = Some((spec.show_input)(case));
        }
        let outcome = attempt(spec, &mut call, case, deadline);
        if outcome == Outcome::Right {
            continue;
        }
        if let Some(check) = at_once(spec, &outcome, case, limit) {
            return check;
        }
        return shrunk(spec, &mut call, index, case, outcome, deadline);
    }
    verdict(
        spec,
        Status::Passed,
        format!("all {} cases passed", spec.cases.len()),
        None,
    )
}

/// The check's result from its parts; the exercise, case count and hint come from `spec`.
fn verdict<I, A, O>(
    spec: &Spec<I, A, O>,
    status: Status,
    message: String,
    counterexample: Option<Counterexample>,
) -> Check {
    Check {
        exercise: spec.exercise.name().to_owned(),
        status,
        message,
        counterexample,
        cases: spec.cases.len(),
        hint: spec.hint.to_owned(),
    }
}

/// The failures that are not shrunk: `todo!()`, a borrowed answer, a timeout.
fn at_once<I, A, O>(
    spec: &Spec<I, A, O>,
    outcome: &Outcome<O>,
    case: &I,
    limit: Duration,
) -> Option<Check> {
    Some(match outcome {
        Outcome::Panicked(message) if is_todo(message) => verdict(
            spec,
            Status::NotImplemented,
            "not implemented yet — replace `todo!()` with your code, then run this cell again"
                .to_owned(),
            None,
        ),
        Outcome::UsedReference(name) => verdict(
            spec,
            Status::UsedReference,
            format!(
                "your function calls `{name}`, the crate's own answer to this exercise — \
                 write the steps yourself (the crate's versions of the earlier steps are fine)"
            ),
            None,
        ),
        Outcome::TimedOut => timed_out(
            spec.exercise,
            spec.hint,
            spec.cases.len(),
            (spec.show_input)(case),
            limit,
        ),
        _ => return None,
    })
}

/// A wrong result, panic or crash on case `index`, shrunk to the smallest input that still
/// fails the same way and put into words.
fn shrunk<I, A, O>(
    spec: &Spec<I, A, O>,
    call: &mut impl FnMut(&A, Instant) -> Reply<O>,
    index: usize,
    case: &I,
    outcome: Outcome<O>,
    deadline: Instant,
) -> Check
where
    I: Shrink + Clone,
    O: PartialEq,
{
    let shrink_deadline = deadline.min(Instant::now() + Duration::from_secs(SHRINK_SECONDS));
    let (smallest, outcome) = shrink(case.clone(), outcome, |input| {
        if Instant::now() > shrink_deadline {
            return None;
        }
        match attempt(spec, call, input, shrink_deadline) {
            Outcome::TimedOut => None,
            other => Some(other),
        }
    });
    let counterexample = |got: String| {
        Some(Counterexample {
            input: (spec.show_input)(&smallest),
            expected: (spec.show_output)(&(spec.reference)(&smallest)),
            got,
        })
    };
    match outcome {
        Outcome::Panicked(message) => verdict(
            spec,
            Status::Panicked,
            format!("your code panicked: {message}"),
            counterexample(message),
        ),
        Outcome::Crashed(why) => verdict(
            spec,
            Status::Crashed,
            format!("the program running your code stopped: {why}"),
            counterexample(why),
        ),
        Outcome::Wrong(got) => verdict(
            spec,
            Status::Failed,
            format!(
                "wrong result (case {} of {}; shown shrunk to the smallest input that still fails)",
                index + 1,
                spec.cases.len()
            ),
            counterexample((spec.show_output)(&got)),
        ),
        _ => unreachable!("only wrong results, panics and crashes are shrunk"),
    }
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
            Err(Panicked {
                message: "boom 7".into()
            })
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
