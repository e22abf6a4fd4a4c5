//! What one exercise's row says (the function the student writes, where the crate's answer is,
//! the check on a function in another program, what a grader's worker offers), apart from the
//! rows themselves: each exercise's file under `exercises/` writes its row with these types,
//! and [`table`](super::table) gathers the rows. A file of its own so that the exercise files
//! and the table both use it without using each other.

use super::Check;
use super::run::{Reply, Spec, evaluate};
use super::shrink::Shrink;
use super::wire::{self, Wire};
use crate::exercise::Exercise;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A check run on a student's function that lives in another program: `call` gets one call's
/// arguments encoded with [`wire`] and a deadline, and returns the reply still encoded.
pub type Judge = fn(&mut dyn FnMut(Vec<u8>, Instant) -> Reply<Vec<u8>>, Duration) -> Check;

/// Where the crate's answer to an exercise is, under the exercise's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reference {
    /// `bpe_lab::lab::reference::<name>` only.
    Lab,
    /// The fixed API's function `bpe_lab::<name>`, and the lab's at
    /// `bpe_lab::lab::reference::<name>` (the one path the notebooks name every reference by).
    /// The two give the same answer, except that the lab's `train_bpe` follows the tie rule in
    /// force (`lab::parity::tie_break`), as the lab's checks do, where the fixed API's always
    /// takes the smallest pair.
    Root,
}

/// What a grader's worker has of an exercise. A worker does not link the crate: its function
/// is called through the exercise's call file (`exercises/<name>/call.rs`, its `call` and
/// `Args`), and a step taught before is offered from `bpe/steps.rs`'s function of that name, at
/// the reference's paths, or not at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Worker {
    /// Workers of later exercises offer this step (`bpe/steps.rs` has it).
    OffersStep,
    /// Workers of later exercises do not offer it (`bpe/steps.rs` has no such function).
    NoStep,
}

/// One exercise: see [`table`](super::table)'s documentation.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    pub exercise: Exercise,
    /// The function the student writes, as its exercise cell declares it (on one line; the
    /// notebooks break long ones as rustfmt does).
    pub signature: &'static str,
    pub reference: Reference,
    /// The exercise's check on a function in another program; `check::<name>` is the same
    /// check on a function in the kernel.
    pub judge: Judge,
    pub worker: Worker,
}

impl Row {
    /// The function's name, the exercise's.
    pub fn name(&self) -> &'static str {
        self.exercise.name()
    }

    /// Every path the crate's answer has, the crate root's first.
    pub fn reference_paths(&self) -> Vec<String> {
        let lab = format!("bpe_lab::lab::reference::{}", self.name());
        match self.reference {
            Reference::Lab => vec![lab],
            Reference::Root => vec![format!("bpe_lab::{}", self.name()), lab],
        }
    }
}

/// `spec`'s check on a function in another program: each call's arguments go out encoded with
/// [`wire`], each answer comes back encoded; the cases, comparison, shrinking and messages are
/// the notebook's. What an exercise's row's [`Judge`] calls.
pub(super) fn judge_spec<I: Shrink + Clone, A: Wire, O: Wire + PartialEq>(
    spec: &Spec<I, A, O>,
    call: &mut dyn FnMut(Vec<u8>, Instant) -> Reply<Vec<u8>>,
    limit: Duration,
) -> Check {
    let typed = |args: &A, deadline: Instant| match call(wire::encode(args), deadline) {
        Reply::Returned(bytes) => match wire::decode::<O>(&bytes) {
            Ok(value) => Reply::Returned(value),
            Err(e) => Reply::Crashed(format!("its answer could not be read ({e})")),
        },
        Reply::Panicked(m) => Reply::Panicked(m),
        Reply::UsedReference(n) => Reply::UsedReference(n),
        Reply::Crashed(why) => Reply::Crashed(why),
        Reply::TimedOut => Reply::TimedOut,
    };
    evaluate(spec, typed, &Mutex::new(None), limit)
}
