//! `--shard K/N`: a class graded on N machines, each taking a stable 1/N of the submissions.
//! A submission's shard comes from a hash of its student (the gradebook's first column), so
//! every notebook of one student lands in the same shard, whatever order the files are listed
//! in and however many submissions the other shards have. Each shard leaves a manifest in its
//! feedback folder ([`ShardManifest`]) saying which run it was part of; `lab grade-merge`
//! ([`super::merge`]) joins the shards from those.

use super::submission::Submission;
use serde::{Deserialize, Serialize};
use sha2::Digest;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// One shard of N: `index` counts from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Shard {
    pub(crate) index: usize,
    pub(crate) count: usize,
}

/// Why a `K/N` text is no shard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ShardError {
    /// Not two whole numbers around a `/`.
    NotKOverN { given: String },
    /// N is 0: there is no way to split into no shards.
    NoShards,
    /// K is not one of 1..=N.
    OutOfRange { index: usize, count: usize },
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardError::NotKOverN { given } => write!(
                f,
                "{given:?} is not K/N (two whole numbers, e.g. 2/3 for the second of three shards)"
            ),
            ShardError::NoShards => f.write_str("N must be at least 1 (K/N, e.g. 2/3)"),
            ShardError::OutOfRange { index, count } => write!(
                f,
                "shard {index} of {count} does not exist: K counts from 1 to N ({})",
                if *count == 1 {
                    "1/1".to_owned()
                } else {
                    format!("1/{count} … {count}/{count}")
                }
            ),
        }
    }
}

impl std::error::Error for ShardError {}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let not = || ShardError::NotKOverN {
            given: text.to_owned(),
        };
        let (k, n) = text.split_once('/').ok_or_else(not)?;
        let whole = |s: &str| {
            // Only digits: `+1` or ` 1` would parse, but nobody means them.
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(not());
            }
            s.parse::<usize>().map_err(|_| not())
        };
        let (index, count) = (whole(k)?, whole(n)?);
        if count == 0 {
            return Err(ShardError::NoShards);
        }
        if index == 0 || index > count {
            return Err(ShardError::OutOfRange { index, count });
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The shard (1-based, of `count`) that grades `student`: the first eight bytes of the
/// SHA-256 of the name, modulo `count`. A cryptographic hash because it is the same on every
/// machine and every build (Rust's own hasher is seeded per process) and spreads names evenly.
pub(crate) fn shard_of(student: &str, count: usize) -> usize {
    let hash = sha2::Sha256::digest(student.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&hash[..8]);
    (u64::from_be_bytes(first) % count.max(1) as u64) as usize + 1
}

impl Shard {
    /// Whether this shard grades `submission`. The first shard holds every roster student who
    /// handed nothing in: their rows survive the merge, from exactly one shard.
    pub(crate) fn holds(&self, submission: &Submission) -> bool {
        if submission.is_absent() {
            return self.index == 1;
        }
        shard_of(&submission.student, self.count) == self.index
    }
}

/// What a sharded run leaves in its feedback folder for the merge: which shard it was and
/// the run it was part of — every submission of the whole class in the unsharded order (so
/// the merge can check that the shards saw the same class and put the rows back in order),
/// the lab asked for and the labs graded against.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ShardManifest {
    pub(crate) shard: Shard,
    pub(crate) lab: Option<String>,
    pub(crate) labs: Vec<String>,
    pub(crate) submissions: Vec<Submission>,
}

/// The manifest's name in a shard's feedback folder (hidden, beside the student folders).
pub(crate) const MANIFEST: &str = ".bpe-lab-shard.json";

/// Where a shard's manifest is, given its feedback folder.
pub(crate) fn manifest_path(feedback_dir: &Path) -> PathBuf {
    feedback_dir.join(MANIFEST)
}

impl ShardManifest {
    /// The submissions this shard graded, in order.
    pub(crate) fn held(&self) -> impl Iterator<Item = (usize, &Submission)> {
        self.submissions
            .iter()
            .enumerate()
            .filter(|(_, s)| self.shard.holds(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_from_k_over_n_and_refuse_everything_else() {
        assert_eq!("2/3".parse(), Ok(Shard { index: 2, count: 3 }));
        assert_eq!("1/1".parse(), Ok(Shard { index: 1, count: 1 }));
        for bad in ["a/b", "1", "1/", "/3", "+1/3", "1/3/4", " 1/3", "-1/3", ""] {
            assert_eq!(
                bad.parse::<Shard>(),
                Err(ShardError::NotKOverN { given: bad.into() }),
                "{bad}"
            );
        }
        assert_eq!("1/0".parse::<Shard>(), Err(ShardError::NoShards));
        assert_eq!(
            "0/3".parse::<Shard>(),
            Err(ShardError::OutOfRange { index: 0, count: 3 })
        );
        assert_eq!(
            "4/3".parse::<Shard>(),
            Err(ShardError::OutOfRange { index: 4, count: 3 })
        );
        assert_eq!(Shard { index: 2, count: 3 }.to_string(), "2/3");
    }

    #[test]
    fn every_student_is_in_exactly_one_shard_and_it_never_moves() {
        // Fixed by the rule, computed outside Rust (Python's hashlib: the first eight bytes of
        // SHA-256 of the name, big-endian, mod N, plus one), so a change of hash shows.
        for (student, expected) in [
            ("ana", [1, 2, 4, 7]),
            ("bo", [2, 2, 3, 3]),
            ("carol", [1, 3, 3, 7]),
        ] {
            let got: Vec<usize> = [2, 3, 5, 7].iter().map(|&n| shard_of(student, n)).collect();
            assert_eq!(got, expected, "{student}");
        }
        for count in 1..=7 {
            for i in 0..200 {
                let student = format!("student-{i}");
                let holders: Vec<usize> = (1..=count)
                    .filter(|&index| {
                        Shard { index, count }.holds(&Submission {
                            student: student.clone(),
                            file: PathBuf::from("x.ipynb"),
                            ..Submission::default()
                        })
                    })
                    .collect();
                assert_eq!(holders, [shard_of(&student, count)]);
            }
        }
        // Who handed nothing in is the first shard's, whatever the name.
        for student in ["ana", "bo", "carol"] {
            let absent = Submission {
                student: student.into(),
                source: crate::course::grade::submission::Source::Absent,
                ..Submission::default()
            };
            let holders: Vec<usize> = (1..=3)
                .filter(|&index| Shard { index, count: 3 }.holds(&absent))
                .collect();
            assert_eq!(holders, [1], "{student}");
        }
        // Roughly even: no shard of three gets under a fifth of 300 names.
        let mut sizes = [0usize; 3];
        for i in 0..300 {
            sizes[shard_of(&format!("s{i}"), 3) - 1] += 1;
        }
        assert!(sizes.iter().all(|&n| n > 60), "{sizes:?}");
    }
}
