//! The queue: submissions graded `jobs` at a time, each job on its own thread with its own
//! grading slot, each grade handed back the moment it is known.

use super::job::{GradeOptions, grade_one};
use super::record::Grade;
use super::submission::Submission;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Jobs to run when not told: one per core, at most 64.
pub(crate) fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Grades `todo` with `jobs` threads; `done` gets each grade (with its index in `todo`) on
/// the calling thread, in the order they finish.
pub(crate) fn grade_queue(
    todo: &[&Submission],
    options: &GradeOptions,
    jobs: usize,
    mut done: impl FnMut(usize, Grade),
) {
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    std::thread::scope(|scope| {
        for slot in 0..jobs.clamp(1, 64).min(todo.len()) {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || {
                loop {
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    let Some(submission) = todo.get(k) else { break };
                    if sender
                        .send((k, grade_one(submission, options, slot)))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (k, grade) in receiver {
            done(k, grade);
        }
    });
}
