//! Gradebooks in the formats learning-management systems import, one format per file. Each
//! is written from the same adjusted grades as the main gradebook ([`super::write`]).

pub(crate) mod canvas;
pub(crate) mod gradescope;
pub(crate) mod gradescope_bundle;
pub(crate) mod moodle;
