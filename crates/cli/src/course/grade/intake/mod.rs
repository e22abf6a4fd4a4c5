//! From what the instructor gives `lab grade` — folders, notebooks, an LMS's zip download as
//! it comes — to the submissions to grade, one per student and lab, in order:
//!
//! 1. the files of each path given, through zips inside zips, junk set aside ([`tree`],
//!    [`zip`], [`junk`]);
//! 2. whose each file is, from the LMS's names, `--name-pattern` or the folder layout
//!    ([`patterns`]);
//! 3. several files of one student for one lab: the latest ([`latest`]), the others named;
//! 4. `--roster` ([`roster`]): every student listed gets a row, "no submission" if need be, and
//!    a submission of someone not listed is flagged.
//!
//! An instructor's mistake (a path that does not exist, a folder with no notebook, the feedback
//! inside the submissions, a roster or pattern that cannot be read) stops the run before
//! anything is written ([`error`]). What a student got wrong stays that student's note, read
//! when the file is graded ([`text`], [`sniff`]).

pub(crate) mod error;
pub(crate) mod junk;
pub(crate) mod latest;
pub(crate) mod note;
pub(crate) mod patterns;
pub(crate) mod roster;
pub(crate) mod sniff;
pub(crate) mod text;
pub(crate) mod tree;
pub(crate) mod zip;

use super::clock::UtcOffset;
use super::lateness::{Submitted, SubmittedFrom};
use super::submission::{Source, Submission};
use error::IntakeError;
use latest::{Candidate, TimeFrom, latest};
use note::IntakeNote;
use patterns::{Format, NamePattern, Owner, owner, stem};
use roster::{CanvasIds, Roster, read_roster};
use std::path::{Path, PathBuf};
use tree::{Item, Skipped, Tree};

pub(crate) use junk::Skip;

/// What the intake needs to know.
#[derive(Debug, Clone, Copy)]
pub(crate) struct IntakeOptions<'a> {
    pub(crate) paths: &'a [PathBuf],
    pub(crate) name_pattern: Option<&'a str>,
    pub(crate) roster: Option<&'a Path>,
    pub(crate) feedback: &'a Path,
    /// Every submission is this lab (else the lab a file's name names, from `labs`).
    pub(crate) lab: Option<&'a str>,
    pub(crate) labs: &'a [String],
    /// The offset from UTC of times the download writes without one.
    pub(crate) zone: UtcOffset,
}

/// How the roster was used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RosterUse {
    pub(crate) path: PathBuf,
    pub(crate) key_column: String,
    pub(crate) students: usize,
    pub(crate) absent: usize,
    pub(crate) not_on_roster: usize,
    /// Canvas's columns of each student who has them (by the gradebook's `student`), for
    /// `--canvas-csv`.
    pub(crate) canvas: Vec<(String, CanvasIds)>,
}

/// What the intake found.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Intake {
    /// One per student and lab (and one "no submission" per absent roster student).
    pub(crate) submissions: Vec<Submission>,
    /// What was set aside, in the order found.
    pub(crate) skipped: Vec<Skipped>,
    pub(crate) roster: Option<RosterUse>,
    /// The LMSs whose names were recognized.
    pub(crate) formats: Vec<String>,
}

/// One file taken as a student's.
struct Found {
    item: Item,
    owner: Owner,
    timestamp: Option<(latest::Moment, TimeFrom)>,
}

/// The submissions under `options.paths`.
pub(crate) fn collect(options: &IntakeOptions) -> Result<Intake, IntakeError> {
    let pattern = options
        .name_pattern
        .map(str::parse::<NamePattern>)
        .transpose()
        .map_err(IntakeError::NamePattern)?;
    let roster = options
        .roster
        .map(read_roster)
        .transpose()
        .map_err(IntakeError::Roster)?;
    for path in options.paths {
        check_feedback(options.feedback, path)?;
    }
    let mut intake = Intake::default();
    let mut found: Vec<Found> = Vec::new();
    for path in options.paths {
        let tree = Tree::of(path)?;
        let whole_tree = path.is_dir() || tree::is_zip_name(path);
        let mut items: Vec<(Item, Option<latest::Moment>)> = tree
            .items
            .iter()
            .map(|i| (i.clone(), tree.stamp_of(&i.parts).cloned()))
            .collect();
        if !path.is_dir() {
            strip_wrapper(&mut items);
        }
        let notebooks = items.iter().filter(|(i, _)| i.is_notebook()).count();
        let skipped_here: usize = tree.skipped.values().map(|(_, n)| n).sum();
        if whole_tree && notebooks == 0 {
            return Err(IntakeError::NoNotebooks {
                path: path.clone(),
                other_files: items.len(),
                skipped: skipped_here,
            });
        }
        for (shown, (why, files)) in tree.skipped {
            intake.skipped.push(Skipped { shown, why, files });
        }
        for (item, stamp) in items {
            match owner(&item.parts, pattern.as_ref()) {
                Err(why) => intake.skipped.push(Skipped {
                    shown: item.shown,
                    why,
                    files: 1,
                }),
                Ok(o)
                    if whole_tree
                        && o.format == Format::Layout
                        && item.parts.len() == 1
                        && !item.is_notebook() =>
                {
                    intake.skipped.push(Skipped {
                        shown: item.shown,
                        why: Skip::Loose,
                        files: 1,
                    })
                }
                Ok(o) => {
                    if let Format::Lms(lms) = o.format {
                        let lms = lms.to_string();
                        if !intake.formats.contains(&lms) {
                            intake.formats.push(lms);
                        }
                    }
                    let timestamp = match (&o.timestamp, stamp) {
                        (Some(t), _) => Some((t.clone(), TimeFrom::Name)),
                        (None, Some(s)) => Some((s, TimeFrom::TimestampFile)),
                        (None, None) => None,
                    };
                    found.push(Found {
                        item,
                        owner: o,
                        timestamp,
                    });
                }
            }
        }
    }
    intake.submissions = choose(found, options);
    if let Some(roster) = roster {
        intake.roster = Some(apply_roster(&roster, &mut intake.submissions, options.zone));
    }
    Ok(intake)
}

/// A zip of the folder that holds the download (`submissions/…`): that folder is no student.
/// It is dropped when everything is under it and what is under it is several students' or
/// names an LMS's pattern.
fn strip_wrapper(items: &mut [(Item, Option<latest::Moment>)]) {
    let Some((first, _)) = items.first() else {
        return;
    };
    let top = first.parts[0].clone();
    let all_under = items
        .iter()
        .all(|(i, _)| i.parts.len() >= 2 && i.parts[0] == top && !top.archive);
    if !all_under {
        return;
    }
    let mut seconds: Vec<&str> = items
        .iter()
        .map(|(i, _)| i.parts[1].name.as_str())
        .collect();
    seconds.dedup();
    let several = items.iter().all(|(i, _)| i.parts.len() >= 3) && seconds.len() > 1;
    let lms = owner(&first.parts[1..], None).is_ok_and(|o| matches!(o.format, Format::Lms(_)));
    if several || lms {
        for (item, _) in items.iter_mut() {
            item.parts.remove(0);
        }
    }
}

/// Refuses a feedback folder that is, or is inside, the submissions folder `path`.
fn check_feedback(feedback: &Path, path: &Path) -> Result<(), IntakeError> {
    if !path.is_dir() {
        return Ok(());
    }
    let (Some(feedback_abs), Ok(path_abs)) = (absolute(feedback), std::fs::canonicalize(path))
    else {
        return Ok(());
    };
    if feedback_abs.starts_with(&path_abs) {
        return Err(IntakeError::FeedbackInSubmissions {
            feedback: feedback.to_owned(),
            submissions: path.to_owned(),
        });
    }
    Ok(())
}

/// `path` made absolute through its nearest existing folder (it need not exist yet).
fn absolute(path: &Path) -> Option<PathBuf> {
    let mut rest = Vec::new();
    let mut at = if path.is_absolute() {
        path.to_owned()
    } else {
        std::env::current_dir().ok()?.join(path)
    };
    loop {
        if let Ok(real) = std::fs::canonicalize(&at) {
            return Some(rest.into_iter().rev().fold(real, |p, n| p.join(n)));
        }
        rest.push(at.file_name()?.to_owned());
        at = at.parent()?.to_owned();
    }
}

/// The lab a file is by its name: the lab asked for, else a lab named like the file.
fn lab_of(found: &Found, options: &IntakeOptions) -> Option<String> {
    if let Some(lab) = options.lab {
        return Some(lab.to_owned());
    }
    let last = &found.item.parts[found.item.parts.len() - 1].name;
    [stem(&found.owner.original), stem(last)]
        .into_iter()
        .find(|s| options.labs.iter().any(|l| l == s))
        .map(str::to_owned)
}

/// One submission per student and lab, students in the order first found.
fn choose(found: Vec<Found>, options: &IntakeOptions) -> Vec<Submission> {
    let mut students: Vec<(String, Vec<Found>)> = Vec::new();
    for f in found {
        match students.iter_mut().find(|(s, _)| *s == f.owner.student) {
            Some((_, files)) => files.push(f),
            None => students.push((f.owner.student.clone(), vec![f])),
        }
    }
    let mut submissions = Vec::new();
    for (_, files) in students {
        let (notebooks, others): (Vec<Found>, Vec<Found>) =
            files.into_iter().partition(|f| f.item.is_notebook());
        let first = submissions.len();
        if notebooks.is_empty() {
            // Only files that are no notebook: the latest is graded, and says what it is.
            submissions.push(latest_of(others, options.zone));
            continue;
        }
        let mut labs: Vec<(Option<String>, Vec<Found>)> = Vec::new();
        for f in notebooks {
            let lab = lab_of(&f, options);
            match labs.iter_mut().find(|(l, _)| *l == lab) {
                Some((_, files)) => files.push(f),
                None => labs.push((lab, vec![f])),
            }
        }
        for (_, files) in labs {
            submissions.push(latest_of(files, options.zone));
        }
        if !others.is_empty() {
            let files = others.iter().map(|f| file_name(&f.item)).collect();
            submissions[first]
                .notes
                .push(IntakeNote::AlsoHandedIn { files });
        }
    }
    submissions
}

fn file_name(item: &Item) -> String {
    item.parts
        .last()
        .map(|p| p.name.clone())
        .unwrap_or_default()
}

/// The latest of one student's `files` for one lab, as a submission that names the others.
fn latest_of(mut files: Vec<Found>, zone: UtcOffset) -> Submission {
    let candidates: Vec<Candidate> = files
        .iter()
        .map(|f| Candidate {
            shown: f.item.shown.clone(),
            timestamp: f.timestamp.clone(),
            version: f.owner.version,
            modified: f.item.modified.clone(),
        })
        .collect();
    let (index, decided_by) = latest(&candidates);
    let chosen = files.swap_remove(index);
    let mut notes = Vec::new();
    if let Some(decided_by) = decided_by {
        let mut others: Vec<&Found> = files.iter().collect();
        others.sort_by(|a, b| a.item.shown.cmp(&b.item.shown));
        notes.push(IntakeNote::Latest {
            others: others.iter().map(|f| file_name(&f.item)).collect(),
            decided_by,
        });
    }
    if let Some(lms) = chosen.owner.late {
        notes.push(IntakeNote::Late { lms });
    }
    let submitted = submitted(&chosen, zone);
    Submission {
        student: chosen.owner.student,
        file: chosen.item.shown,
        name: chosen.owner.name,
        aliases: chosen.owner.aliases,
        source: chosen.item.source,
        notes,
        submitted,
    }
}

/// When `found` was handed in: its timestamp (never its modification time: that says when it
/// was unpacked), else the LMS's late marker, else unknown.
fn submitted(found: &Found, zone: UtcOffset) -> Submitted {
    let stamped = found.timestamp.as_ref().and_then(|(moment, from)| {
        Some(Submitted {
            at: Some(moment.unix_seconds(zone)?),
            from: match from {
                TimeFrom::Name => SubmittedFrom::FileName,
                TimeFrom::TimestampFile => SubmittedFrom::TimestampFile,
            },
        })
    });
    stamped.unwrap_or(Submitted {
        at: None,
        from: found
            .owner
            .late
            .map_or(SubmittedFrom::Unknown, |lms| SubmittedFrom::LateMarker {
                lms,
            }),
    })
}

/// Puts the roster's keys and names on the submissions of its students, flags the others, and
/// adds a "no submission" for each student listed with none, in roster order. A submission
/// whose download told no time takes the roster's (Moodle's worksheet has it), read in `zone`.
fn apply_roster(roster: &Roster, submissions: &mut Vec<Submission>, zone: UtcOffset) -> RosterUse {
    let mut on_roster: Vec<(usize, Submission)> = Vec::new();
    let mut not_on_roster = Vec::new();
    for mut s in submissions.drain(..) {
        let mut ids = vec![s.student.clone()];
        ids.extend(s.aliases.iter().cloned());
        match roster.find(&ids, s.name.as_deref()) {
            Some(i) => {
                let listed = &roster.students[i];
                s.student = listed.key.clone();
                if s.name.is_none() {
                    s.name = listed.name.clone();
                }
                if s.submitted.at.is_none()
                    && let Some(at) = listed.submitted.as_ref().and_then(|m| m.unix_seconds(zone))
                {
                    s.submitted = Submitted {
                        at: Some(at),
                        from: SubmittedFrom::Roster,
                    };
                }
                on_roster.push((i, s));
            }
            None => {
                s.notes.push(IntakeNote::NotOnRoster);
                not_on_roster.push(s);
            }
        }
    }
    // Roster order, each student's submissions in the order found.
    on_roster.sort_by_key(|(i, _)| *i);
    let mut absent = 0;
    for (i, listed) in roster.students.iter().enumerate() {
        let mut theirs: Vec<Submission> = Vec::new();
        while on_roster.first().is_some_and(|(j, _)| *j == i) {
            theirs.push(on_roster.remove(0).1);
        }
        if theirs.is_empty() {
            absent += 1;
            submissions.push(Submission {
                student: listed.key.clone(),
                file: PathBuf::new(),
                name: listed.name.clone(),
                source: Source::Absent,
                ..Submission::default()
            });
        }
        submissions.extend(theirs);
    }
    let flagged = not_on_roster.len();
    submissions.extend(not_on_roster);
    RosterUse {
        path: roster.path.clone(),
        key_column: roster.key_column.clone(),
        students: roster.students.len(),
        absent,
        not_on_roster: flagged,
        canvas: roster
            .students
            .iter()
            .filter(|s| !s.canvas.is_empty())
            .map(|s| (s.key.clone(), s.canvas.clone()))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options<'a>(paths: &'a [PathBuf], feedback: &'a Path) -> IntakeOptions<'a> {
        IntakeOptions {
            paths,
            name_pattern: None,
            roster: None,
            feedback,
            lab: None,
            labs: &[],
            zone: UtcOffset::UTC,
        }
    }

    /// The submission time is the download's: nbgrader's `timestamp.txt` beside the notebook
    /// (never the file's modification time, which says when it was unpacked); a Canvas name
    /// marked `_LATE` with no time in it says "late, time unknown"; a plain file says nothing.
    #[test]
    fn submission_times_come_from_timestamp_txt_and_canvas_late_marks() {
        use crate::course::grade::intake::patterns::Lms;
        let dir = tempfile::tempdir().unwrap();
        let nbgrader = dir.path().join("nbgrader");
        std::fs::create_dir_all(nbgrader.join("ana/03-merge")).unwrap();
        std::fs::create_dir_all(nbgrader.join("bo/03-merge")).unwrap();
        std::fs::write(nbgrader.join("ana/03-merge/03-merge.ipynb"), "{}").unwrap();
        std::fs::write(
            nbgrader.join("ana/03-merge/timestamp.txt"),
            "2026-11-20 14:03:22.123456 UTC\n",
        )
        .unwrap();
        std::fs::write(nbgrader.join("bo/03-merge/03-merge.ipynb"), "{}").unwrap();
        let feedback = dir.path().join("feedback");
        let paths = [nbgrader];
        let intake = collect(&options(&paths, &feedback)).unwrap();
        let time_of = |student: &str| {
            intake
                .submissions
                .iter()
                .find(|s| s.student == student)
                .unwrap_or_else(|| panic!("{student} found"))
                .submitted
        };
        // 2026-11-20T14:03:22Z (date -u -d '2026-11-20 14:03:22' +%s).
        assert_eq!(
            time_of("ana"),
            Submitted {
                at: Some(1_795_183_402),
                from: SubmittedFrom::TimestampFile
            }
        );
        assert_eq!(time_of("bo"), Submitted::default());

        let canvas = dir.path().join("canvas");
        std::fs::create_dir_all(&canvas).unwrap();
        std::fs::write(
            canvas.join("anamaria_LATE_12345_67890_03-merge.ipynb"),
            "{}",
        )
        .unwrap();
        std::fs::write(canvas.join("carlos_23456_78901_03-merge.ipynb"), "{}").unwrap();
        let paths = [canvas];
        let intake = collect(&options(&paths, &feedback)).unwrap();
        let time_of = |student: &str| {
            intake
                .submissions
                .iter()
                .find(|s| s.student == student)
                .unwrap_or_else(|| panic!("{student} found among {:?}", intake.submissions))
                .submitted
        };
        assert_eq!(
            time_of("anamaria"),
            Submitted {
                at: None,
                from: SubmittedFrom::LateMarker { lms: Lms::Canvas }
            }
        );
        assert_eq!(time_of("carlos"), Submitted::default());
    }

    #[test]
    fn students_come_from_folders_and_file_names_and_checkpoints_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("ana/.ipynb_checkpoints")).unwrap();
        std::fs::write(dir.path().join("ana/01-x.ipynb"), "{}").unwrap();
        std::fs::write(dir.path().join("ana/.ipynb_checkpoints/01-x.ipynb"), "{}").unwrap();
        std::fs::write(dir.path().join("bo.ipynb"), "{}").unwrap();
        std::fs::write(dir.path().join("README.md"), "hi").unwrap();
        let paths = [dir.path().to_owned()];
        let feedback = dir.path().parent().unwrap().join("feedback-elsewhere");
        let intake = collect(&options(&paths, &feedback)).unwrap();
        let students: Vec<&str> = intake
            .submissions
            .iter()
            .map(|s| s.student.as_str())
            .collect();
        assert_eq!(students, ["ana", "bo"]);
        let skipped: Vec<(&Skip, usize)> =
            intake.skipped.iter().map(|s| (&s.why, s.files)).collect();
        assert_eq!(skipped, [(&Skip::Checkpoints, 1), (&Skip::Loose, 1)]);
    }

    #[test]
    fn instructor_mistakes_are_errors_before_anything_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let nowhere = [dir.path().join("nosuch")];
        assert_eq!(
            collect(&options(&nowhere, dir.path())),
            Err(IntakeError::NoSuchPath {
                path: dir.path().join("nosuch")
            })
        );
        let empty = [dir.path().join("empty")];
        std::fs::create_dir_all(&empty[0]).unwrap();
        assert!(matches!(
            collect(&options(&empty, &dir.path().join("fb"))),
            Err(IntakeError::NoNotebooks { .. })
        ));
        std::fs::write(empty[0].join("a.ipynb"), "{}").unwrap();
        assert!(matches!(
            collect(&options(&empty, &empty[0].join("feedback"))),
            Err(IntakeError::FeedbackInSubmissions { .. })
        ));
        assert!(matches!(
            collect(&options(&empty, &empty[0])),
            Err(IntakeError::FeedbackInSubmissions { .. })
        ));
    }
}
