//! Grading that stays right when the machine is not: the honest and hostile submissions of
//! [`support::lab03::class`] graded on a quiet machine and again with more jobs than cores while CPU
//! and memory hogs run beside the grader give the same grades, row for row; a submission that
//! fills its scratch space fails its own exercise and harms nothing; a grader whose own disk is
//! full says "not graded", never a student's failure. Needs rustc and bubblewrap (gated like
//! the other sandbox tests); about 2 minutes on 2 cores (see each test).

use crate::support;

use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use support::cli::{assert_success, path_str, stderr};
use support::lab03::{LAB, Submission, class, project_snapshot, root, sources, write_class};
use support::sandbox_available;

/// `bpe-lab lab grade` of `subs` into `out`, with `jobs` jobs and `env` set.
fn grade(subs: &Path, out: &Path, jobs: usize, env: &[(&str, &Path)]) -> Output {
    let sources = sources();
    let mut command = Command::new(env!("CARGO_BIN_EXE_bpe-lab"));
    command
        .args(["lab", "grade", path_str(subs), "--lab", LAB, "--sources"])
        .arg(&sources)
        .arg("--output")
        .arg(out.join("grades.csv"))
        .arg("--feedback")
        .arg(out.join("feedback"))
        .args(["--check-timeout", "5", "--threads", &jobs.to_string()])
        .stdin(Stdio::null());
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("bpe-lab runs")
}

/// One exercise's saved grade: (exercise, verdict, points, message).
type Verdict = (String, String, f64, String);

/// Each student's exercises, from the saved grades.
fn verdicts(out: &Path, students: &[Submission]) -> Vec<(String, Vec<Verdict>)> {
    students
        .iter()
        .map(|s| {
            let path = out
                .join("feedback")
                .join(s.student)
                .join(format!(".{LAB}.grade.json"));
            let grade: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
            let exercises = grade["exercises"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| {
                    (
                        e["exercise"].as_str().unwrap().to_owned(),
                        e["verdict"].as_str().unwrap().to_owned(),
                        e["points"].as_f64().unwrap(),
                        e["message"].as_str().unwrap().to_owned(),
                    )
                })
                .collect();
            (s.student.to_owned(), exercises)
        })
        .collect()
}

/// The gradebook's rows, without the header, sorted by student.
fn rows(out: &Path) -> Vec<String> {
    let csv = fs::read_to_string(out.join("grades.csv")).unwrap();
    let mut rows: Vec<String> = csv.lines().skip(1).map(str::to_owned).collect();
    rows.sort();
    rows
}

/// Programs running beside the grader for as long as this lives: one busy loop per core plus
/// one, and a process holding 1 GiB of memory it has touched.
struct Hogs(Vec<Child>);

impl Hogs {
    fn start() -> Hogs {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let mut children: Vec<Child> = (0..=cores)
            .map(|_| {
                Command::new("/bin/sh")
                    .args(["-c", "while :; do :; done"])
                    .spawn()
                    .expect("a CPU hog starts")
            })
            .collect();
        children.push(
            Command::new("python3")
                .args([
                    "-c",
                    "import time\nb = bytearray(1 << 30)\nfor i in range(0, len(b), 4096): b[i] = 1\ntime.sleep(3600)",
                ])
                .spawn()
                .expect("python3 (the memory hog) starts"),
        );
        Hogs(children)
    }
}

impl Drop for Hogs {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The same class graded quietly with 2 jobs, then with 4 jobs on a machine kept busy by
/// CPU hogs and a 1 GiB memory hog: the same gradebook rows and the same verdicts and
/// messages, each the one expected; the project tree unchanged. Costs about 100 s on 2
/// cores: 9 submissions (18 compilations and 4 exercises that run into the 5 s time limit)
/// graded twice (measured: 27 s quiet, 24 s loaded, 52 s for the file with the next test).
#[test]
fn grades_under_load_are_the_grades_of_a_quiet_machine() {
    if !sandbox_available() {
        return;
    }
    let project = root();
    let before = project_snapshot(&project);
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("submissions");
    let students = class();
    write_class(&subs, &students);
    let (quiet, loaded) = (dir.path().join("quiet"), dir.path().join("loaded"));

    let started = std::time::Instant::now();
    let run = grade(&subs, &quiet, 2, &[]);
    assert_success(&run);
    eprintln!("quiet, 2 jobs: {:.1} s", started.elapsed().as_secs_f64());
    let started = std::time::Instant::now();
    let run = {
        let _hogs = Hogs::start();
        grade(&subs, &loaded, 4, &[])
    };
    eprintln!("{}", stderr(&run));
    assert_success(&run);
    eprintln!("loaded, 4 jobs: {:.1} s", started.elapsed().as_secs_f64());

    let quiet_verdicts = verdicts(&quiet, &students);
    for ((student, exercises), s) in quiet_verdicts.iter().zip(&students) {
        let points: Vec<f64> = exercises.iter().map(|e| e.2).collect();
        assert_eq!(
            points,
            vec![s.points.0 as f64, s.points.1 as f64],
            "{student}: {exercises:?}"
        );
    }
    for (q, l) in quiet_verdicts.iter().zip(&verdicts(&loaded, &students)) {
        assert_eq!(q, l, "{} was graded differently under load", q.0);
    }
    assert_eq!(rows(&loaded), rows(&quiet), "the gradebooks differ");
    // Filling the disk is the student's own doing, stopped at the scratch space's total.
    // Running out of memory is named as such (see MERGE_HOGS), the same quiet or loaded.
    let uma = &quiet_verdicts.iter().find(|(s, _)| s == "uma").unwrap().1[1];
    assert_eq!(uma.1, "crashed", "{uma:?}");
    assert!(uma.3.contains("ran out of memory"), "{uma:?}");
    let wendy = &quiet_verdicts.iter().find(|(s, _)| s == "wendy").unwrap().1[0];
    assert_eq!(wendy.1, "panicked", "{wendy:?}");
    assert!(
        wendy.3.contains("wrote 64 MiB")
            && wendy.3.contains("No space left on device")
            && wendy.3.contains("at most 64 MiB in all"),
        "{wendy:?}"
    );
    assert!(
        project_snapshot(&project) == before,
        "the project tree changed"
    );
}

/// Two graders on one machine at once, as an instructor's run beside another course's (or
/// this suite's own sandboxed tests beside each other): each claims its own block of sandbox
/// user ids, so a fork bomb graded by one cannot use up the process limit the other's
/// correct submission needs. Both give every submission its expected points. About 15 s on
/// 2 cores (3 submissions, 6 compilations per grader).
#[test]
fn two_graders_at_once_each_grade_the_class_right() {
    if !sandbox_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("submissions");
    let students: Vec<Submission> = class()
        .into_iter()
        .filter(|s| ["alice", "walter", "erin"].contains(&s.student))
        .collect();
    write_class(&subs, &students);
    let outs = [dir.path().join("one"), dir.path().join("two")];
    let children: Vec<Child> = outs
        .iter()
        .map(|out| {
            Command::new(env!("CARGO_BIN_EXE_bpe-lab"))
                .args(["lab", "grade", path_str(&subs), "--lab", LAB, "--sources"])
                .arg(sources())
                .arg("--output")
                .arg(out.join("grades.csv"))
                .arg("--feedback")
                .arg(out.join("feedback"))
                .args(["--check-timeout", "5", "--threads", "2"])
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("bpe-lab starts")
        })
        .collect();
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert_success(&output);
    }
    for out in &outs {
        for ((student, exercises), s) in verdicts(out, &students).iter().zip(&students) {
            let points: Vec<f64> = exercises.iter().map(|e| e.2).collect();
            assert_eq!(
                points,
                vec![s.points.0 as f64, s.points.1 as f64],
                "{student} in {}: {exercises:?}",
                out.display()
            );
        }
    }
    assert_eq!(rows(&outs[0]), rows(&outs[1]), "the two graders disagree");
}

/// Runs `command`; panics with its output when it fails.
fn run(command: &mut Command) {
    let output = command.output().expect("the command runs");
    assert!(output.status.success(), "{command:?}: {output:?}");
}

/// A file system of `bytes` mounted at a new folder (in a temporary folder kept as long as
/// it), unmounted when dropped.
struct Small(PathBuf, #[allow(dead_code)] tempfile::TempDir);

impl Small {
    fn mount(bytes: u64) -> Small {
        let dir = tempfile::tempdir().unwrap();
        let at = dir.path().join("small");
        fs::create_dir(&at).unwrap();
        run(Command::new("mount")
            .args(["-t", "tmpfs", "-o"])
            .arg(format!("size={bytes}"))
            .arg("tmpfs")
            .arg(&at));
        Small(at, dir)
    }
}

impl Drop for Small {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// The grader's own disk full (its scratch directories on a 2 MiB file system: the source
/// fits, the compiled worker does not): every exercise is `not_graded` with the reason, never
/// `did_not_compile` or `crashed`, and the run itself finishes with its gradebook. As root
/// only (it mounts a file system); about 10 s.
#[test]
fn a_full_disk_on_the_graders_side_is_not_graded_never_a_students_failure() {
    if !sandbox_available() {
        return;
    }
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: mounting a small file system needs root");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("submissions");
    let students: Vec<Submission> = class()
        .into_iter()
        .filter(|s| s.student == "alice")
        .collect();
    write_class(&subs, &students);
    let small = Small::mount(2 << 20);
    let out = dir.path().join("out");
    let run = grade(&subs, &out, 1, &[("TMPDIR", &small.0)]);
    eprintln!("{}", stderr(&run));
    assert_success(&run);
    for (exercise, verdict, points, message) in &verdicts(&out, &students)[0].1 {
        assert_eq!(verdict, "not_graded", "{exercise}: {message}");
        assert_eq!(*points, 0.0);
        assert!(
            message.contains("the grader's own trouble")
                && message.contains("No space left on device"),
            "{exercise}: {message}"
        );
    }
    // Nothing of the run is left on the small file system.
    assert_eq!(fs::read_dir(&small.0).unwrap().count(), 0);
}
