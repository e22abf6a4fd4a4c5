//! The grading setup a grade was decided under: the grader's (and so its checks') version, the
//! lab's points per exercise, the tie rule in force and the limits student code ran with. A
//! saved grade records it and its digest; `--resume` keeps a grade only while the digest is the
//! one the run would grade under ([`super::resume`]), so changing the points, the tie rule or a
//! limit regrades what it could change. The feedback and the gradebooks show the tie rule and
//! the version, so a grade says what it was decided under.

use super::digest::digest;
use super::graded_notebook::GradedNotebook;
use super::lateness::{LatePolicy, LateRule};
use serde::{Deserialize, Serialize};

/// What decides a grade besides the submitted file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct GradingSetup {
    /// `bpe-lab`'s version: the checks' cases, comparison and shrinking ship with it.
    pub(crate) grader: String,
    /// The tie rule the checks compared with ([`bpe_lab::lab::parity::TIE_BREAK_ENV`]).
    pub(crate) tie_rule: String,
    /// Address space of each process running student code, MiB.
    pub(crate) memory_mb: u64,
    /// Seconds one exercise's check may take.
    pub(crate) check_seconds: f64,
    /// Seconds compiling one worker may take.
    pub(crate) compile_seconds: f64,
    /// The lab graded against, with its exercises' points in order (none when the submission
    /// matched no lab).
    pub(crate) lab: Option<String>,
    pub(crate) points: Vec<(String, f64)>,
    /// `--due` as given (left out when none, so grades saved before it keep their digest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) due: Option<String>,
    /// `--late-policy` unless `none` (left out then, for the same reason).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) late_policy: Option<String>,
    /// `--time-zone` when given (left out otherwise, for the same reason): it moves the
    /// submission times written without a zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) time_zone: Option<String>,
}

/// The run-wide part of a setup: what every lab's grades share.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RunSetup {
    pub(crate) memory_mb: u64,
    pub(crate) check_seconds: f64,
    pub(crate) compile_seconds: f64,
    pub(crate) late: LateRule,
}

impl RunSetup {
    /// The setup of a grade against `lab` (or none), under the tie rule in force now: the
    /// grader's checks read it from the environment each time, so this is what they used.
    pub(crate) fn for_lab(&self, lab: Option<&GradedNotebook>) -> GradingSetup {
        GradingSetup {
            grader: bpe_lab::VERSION.to_owned(),
            tie_rule: bpe_lab::lab::parity::tie_break().name().to_owned(),
            memory_mb: self.memory_mb,
            check_seconds: self.check_seconds,
            compile_seconds: self.compile_seconds,
            lab: lab.map(|l| l.name.clone()),
            points: lab
                .map(|l| {
                    l.exercises
                        .iter()
                        .map(|e| (e.exercise.name().to_owned(), e.points))
                        .collect()
                })
                .unwrap_or_default(),
            due: self.late.due.as_ref().map(|d| d.text.clone()),
            late_policy: (self.late.policy != LatePolicy::None)
                .then(|| self.late.policy.to_string()),
            time_zone: self.late.zone.map(|z| z.to_string()),
        }
    }

    /// The setup of a grade against the lab named `lab` among `labs`.
    pub(crate) fn for_named(&self, lab: Option<&str>, labs: &[GradedNotebook]) -> GradingSetup {
        self.for_lab(lab.and_then(|name| labs.iter().find(|l| l.name == name)))
    }
}

impl GradingSetup {
    /// SHA-256 of the setup as JSON (fields in declaration order, so the same setup always
    /// gives the same digest).
    pub(crate) fn digest(&self) -> String {
        digest(
            serde_json::to_string(self)
                .expect("setups serialize")
                .as_bytes(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> GradingSetup {
        RunSetup {
            memory_mb: 1024,
            check_seconds: 20.0,
            compile_seconds: 120.0,
            late: LateRule::default(),
        }
        .for_lab(None)
    }

    #[test]
    fn every_part_of_the_setup_changes_the_digest() {
        let base = setup();
        assert_eq!(base.digest(), setup().digest());
        assert_eq!(base.digest().len(), 64);
        let changed = [
            GradingSetup {
                grader: "9.9.9".into(),
                ..base.clone()
            },
            GradingSetup {
                tie_rule: "first-seen".into(),
                ..base.clone()
            },
            GradingSetup {
                memory_mb: 512,
                ..base.clone()
            },
            GradingSetup {
                check_seconds: 10.0,
                ..base.clone()
            },
            GradingSetup {
                compile_seconds: 60.0,
                ..base.clone()
            },
            GradingSetup {
                lab: Some("03-merge".into()),
                ..base.clone()
            },
            GradingSetup {
                points: vec![("decode".into(), 2.0)],
                ..base.clone()
            },
            GradingSetup {
                due: Some("2026-11-20T23:59:00Z".into()),
                ..base.clone()
            },
            GradingSetup {
                late_policy: Some("zero".into()),
                ..base.clone()
            },
            GradingSetup {
                time_zone: Some("+01:00".into()),
                ..base.clone()
            },
        ];
        for other in &changed {
            assert_ne!(other.digest(), base.digest(), "{other:?}");
        }
    }
}
