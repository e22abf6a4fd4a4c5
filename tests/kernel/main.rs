//! The tests that start real Jupyter kernels (evcxr) — the doctor, `lab grade --execute`,
//! nbgrader's autograde — in one test binary of their own: ./scripts/test runs it after
//! `scripts/lab setup` with BPE_LAB_KERNEL_TESTS=1 (and nbgrader's Python); without those each
//! test says it was skipped and does nothing.

#[path = "../support/mod.rs"]
mod support;

mod grade_execute;
mod kernel_behaviour;
mod lab_kernel;
mod nbgrader_course;
mod own_exercise_verify;
