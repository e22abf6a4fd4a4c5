//! `bpe-lab lab …`: what instructors run — release student versions, verify every notebook
//! with the real kernel, grade submissions, and check the machine.

use super::error::CliError;
use super::progress;
use crate::course::doctor::diagnose;
use crate::course::grade::clock::UtcOffset;
use crate::course::grade::export::gradescope_bundle::{
    BundleError, BundleOptions, gradescope_bundle,
};
use crate::course::grade::export::moodle::MoodleOutputs;
use crate::course::grade::intake::{Intake, error::IntakeError};
use crate::course::grade::lateness::{Due, LatePolicy, LateRule};
use crate::course::grade::{
    Event, GradeError, MergeError, MergeOptions, Output, SessionOptions, Shard, Summary, Tally,
    Whose, grade_all, merge_shards,
};
use crate::course::handout::{DEFAULT_OUTPUT, HandoutError, HandoutOptions, write_handout};
use crate::course::nbgrader_course::{CourseError, find_crate, write_course_from};
use crate::course::release::{Edition, edition_of, release_edition, stale_edition};
use crate::course::run_local::{RunOptions, find_python};
use crate::course::verify::{NotebookOutcome, VerifyError, VerifyOptions, verify};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub(crate) const LONG_ABOUT: &str = "\
Instructor tools for the lab notebooks.

The instructor sources (instructor/*.ipynb) hold the solutions between `// BEGIN SOLUTION` and
`// END SOLUTION`; check cells carry metadata {\"bpe_lab\": {\"exercise\": NAME, \"points\": N}}.
`release` writes the student versions (notebooks/), `verify` runs every notebook with the real
evcxr kernel, `grade` scores submitted notebooks, `doctor` says what is missing to run them,
`handout` writes the folder students receive (no solutions in it).";

#[derive(Debug, Args)]
pub(crate) struct LabArgs {
    #[command(subcommand)]
    pub(crate) command: LabCommand,
}

// Parsed once per process: the size of its largest flags (lab grade's) costs nothing,
// and boxing them would only make every match on the command harder to read.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub(crate) enum LabCommand {
    /// Write the student notebooks from the instructor sources
    Release(ReleaseArgs),
    /// Run every notebook with the real kernel: sources must pass every check, student
    /// versions must say "not implemented" and fail nowhere else
    Verify(VerifyArgs),
    /// Grade submitted notebooks into a gradebook (CSV) and one feedback file per student
    Grade(GradeArgs),
    /// Join the shards of `lab grade --shard K/N` into the gradebook, nbgrader CSV and
    /// feedback folder one unsharded run writes
    GradeMerge(GradeMergeArgs),
    /// Check that Jupyter, the Rust kernel and the crate build are present
    Doctor(DoctorArgs),
    /// Write an nbgrader course (nbgrader_config.py, source/<lab>/<lab>.ipynb) from the sources
    NbgraderCourse(NbgraderCourseArgs),
    /// Write the student handout: the folder students receive (the graded notebooks, the crate,
    /// data, scripts/lab, deploy files, their guide), without instructor/, sample solutions or
    /// the self-study edition. Build images and the students' repository from it
    Handout(HandoutArgs),
    /// Write a Gradescope autograder for one lab: a zip with setup.sh (Rust, bubblewrap, this
    /// command), run_autograder (grades /autograder/submission into results.json, a test per
    /// exercise) and the repository it builds from. It holds the solutions: upload it to
    /// Gradescope only, never to students
    GradescopeBundle(GradescopeBundleArgs),
    /// Write a new instructor notebook NN-name.ipynb: the setup cell, a solution cell and a
    /// test cell of your own tests (one hidden) to fill in
    New(NewArgs),
}

#[derive(Debug, Args)]
pub(crate) struct GradescopeBundleArgs {
    /// The lab the autograder grades (a notebook of --sources, e.g. 03-merge)
    #[arg(long, value_name = "NAME")]
    pub(crate) lab: String,
    /// The zip to write (Gradescope's "Configure Autograder" takes it)
    #[arg(long = "output", value_name = "FILE", default_value = "autograder.zip")]
    pub(crate) out: PathBuf,
    /// Instructor sources; the repository is the folder above them
    #[arg(long, value_name = "DIR", default_value = "instructor")]
    pub(crate) sources: PathBuf,
    /// Seconds one exercise's check may take when Gradescope grades
    #[arg(long, value_name = "SECONDS", default_value_t = 20)]
    pub(crate) check_timeout: u64,
}

#[derive(Debug, Args)]
pub(crate) struct NewArgs {
    /// The lab's name: two digits, a dash and lowercase words (08-count-tokens)
    #[arg(value_name = "NN-name")]
    pub(crate) name: String,
    /// Instructor sources, where the notebook is written
    #[arg(long, value_name = "DIR", default_value = "instructor")]
    pub(crate) sources: PathBuf,
}

#[derive(Debug, Args)]
pub(crate) struct HandoutArgs {
    /// The folder to write: new or empty, outside what the handout is made from
    #[arg(long = "output", value_name = "DIR", default_value = DEFAULT_OUTPUT)]
    pub(crate) out: PathBuf,
    /// Instructor sources; the repository is the folder above them
    #[arg(long, value_name = "DIR", default_value = "instructor")]
    pub(crate) sources: PathBuf,
}

#[derive(Debug, Args)]
pub(crate) struct NbgraderCourseArgs {
    /// The course directory to write (created if missing; existing files are replaced)
    #[arg(value_name = "DIR")]
    pub(crate) course: PathBuf,
    /// Instructor sources
    #[arg(long, value_name = "DIR", default_value = "instructor")]
    pub(crate) sources: PathBuf,
    /// The bpe-lab crate the notebooks depend on (default: the sources' parent folder)
    #[arg(long = "crate", value_name = "DIR")]
    pub(crate) crate_dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct ReleaseArgs {
    /// Instructor sources
    #[arg(long, value_name = "DIR", default_value = "instructor")]
    pub(crate) sources: PathBuf,
    /// Where the student versions go [default: notebooks; with --self-study,
    /// notebooks-self-study]
    #[arg(long = "output", value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// Write nothing; exit 1 if any student version is missing or out of date
    #[arg(long)]
    pub(crate) check: bool,
    /// The self-study edition: a folded solution after each exercise's check, for students to
    /// open after trying. Never for a graded course: it is refused over graded notebooks
    #[arg(long)]
    pub(crate) self_study: bool,
}

#[derive(Debug, Args)]
pub(crate) struct KernelArgs {
    /// Python with nbclient (default: $BPE_LAB_PYTHON, else .venv/bin/python, else python3)
    #[arg(long, value_name = "PATH")]
    pub(crate) python: Option<PathBuf>,
    /// Seconds one cell may run
    #[arg(long, value_name = "SECONDS", default_value_t = 600)]
    pub(crate) cell_timeout: u64,
    /// Seconds one notebook may run
    #[arg(long, value_name = "SECONDS", default_value_t = 1800)]
    pub(crate) timeout: u64,
}

impl KernelArgs {
    fn options(&self, cwd: &Path) -> RunOptions {
        let python = self
            .python
            .clone()
            .unwrap_or_else(|| find_python(&std::env::current_dir().unwrap_or_default()));
        let mut options = RunOptions::new(python, cwd.to_owned());
        options.cell_timeout = Duration::from_secs(self.cell_timeout);
        options.total_timeout = Duration::from_secs(self.timeout);
        options
    }
}

#[derive(Debug, Args)]
pub(crate) struct VerifyArgs {
    #[arg(long, value_name = "DIR", default_value = "instructor")]
    pub(crate) sources: PathBuf,
    #[arg(long, value_name = "DIR", default_value = "notebooks")]
    pub(crate) students: PathBuf,
    /// Executed notebooks are kept here (source/ and student/)
    #[arg(long, value_name = "DIR", default_value = "target/lab/verify")]
    pub(crate) work_dir: PathBuf,
    /// Only notebooks whose file name contains this
    #[arg(long, value_name = "TEXT")]
    pub(crate) only: Option<String>,
    /// Run the instructor sources only
    #[arg(long)]
    pub(crate) sources_only: bool,
    /// The student versions are the self-study edition (`lab release --self-study`)
    #[arg(long)]
    pub(crate) self_study: bool,
    /// Also render each executed notebook to HTML (next to it) with nbconvert
    #[arg(long)]
    pub(crate) html: bool,
    /// Notebooks run at once, each in a kernel of its own (default: the number of cores)
    #[arg(long = "threads", value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub(crate) jobs: Option<u16>,
    #[command(flatten)]
    pub(crate) kernel: KernelArgs,
}

#[derive(Debug, Args)]
pub(crate) struct GradeArgs {
    /// Submitted notebooks, folders of them (one sub-folder per student), or an LMS's zip
    /// download as it comes (Moodle, Canvas, Blackboard, nbgrader names are read)
    #[arg(required = true, value_name = "SUBMISSION")]
    pub(crate) submissions: Vec<PathBuf>,
    /// The gradebook to write (rewritten, atomically, as each submission finishes)
    #[arg(long = "output", value_name = "FILE")]
    pub(crate) out: PathBuf,
    /// Also write the grades in the layout of `nbgrader export`'s CSV (assignment, student_id,
    /// raw_score, score, max_score, …), rewritten as each submission finishes
    #[arg(long, value_name = "FILE")]
    pub(crate) nbgrader_csv: Option<PathBuf>,
    /// Also write Canvas's gradebook import CSV (Student, ID, SIS User ID, SIS Login ID,
    /// Section, a column per lab with the adjusted total; the student's folder name as SIS
    /// Login ID), rewritten as the gradebook is
    #[arg(long, value_name = "FILE")]
    pub(crate) canvas_csv: Option<PathBuf>,
    /// With --canvas-csv and one lab: the assignment's column as Canvas names it, `Name (id)`
    /// (the id from the assignment's address), so the import fills that assignment
    #[arg(long, value_name = "NAME (ID)", requires = "canvas_csv")]
    pub(crate) canvas_assignment: Option<String>,
    /// Also write Gradescope's autograder results (results.json: the score and a test per
    /// exercise), e.g. /autograder/results/results.json in an autograder's run_autograder
    #[arg(long, value_name = "FILE")]
    pub(crate) gradescope_results: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) moodle: MoodleArgs,
    /// Feedback files (Markdown and HTML), one folder per student
    #[arg(long, value_name = "DIR")]
    pub(crate) feedback: PathBuf,
    #[arg(long, value_name = "DIR", default_value = "instructor")]
    pub(crate) sources: PathBuf,
    /// Grade every submission as this lab (default: the lab its file name or content names)
    #[arg(long, value_name = "NAME")]
    pub(crate) lab: Option<String>,
    /// Address-space limit of each process running student code, in MiB
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub(crate) memory_mb: u64,
    /// Seconds one exercise's check may take (all its calls), as in the notebook
    #[arg(long, value_name = "SECONDS", default_value_t = 20)]
    pub(crate) check_timeout: u64,
    /// Seconds compiling one exercise's worker may take
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    pub(crate) compile_timeout: u64,
    /// Submissions graded at once (default: the number of cores)
    #[arg(long = "threads", value_name = "N")]
    pub(crate) jobs: Option<usize>,
    /// Keep the grades of submissions already graded by an earlier run (unchanged files
    /// graded under the same setup: grader version, points, tie rule, limits); what the
    /// grader's own trouble left not graded is graded again
    #[arg(long)]
    pub(crate) resume: bool,
    /// Grade only shard K of N (1-based, e.g. 2/3): a stable slice of the students, the same
    /// whatever the order of the files. Give each shard its own --output and --feedback, then
    /// join them with `lab grade-merge`
    #[arg(long, value_name = "K/N")]
    pub(crate) shard: Option<Shard>,
    /// Also execute each restored notebook with the real kernel, in the sandbox, and put it in
    /// the feedback folder as <lab>.executed.ipynb (the grade still comes from the judge).
    /// Needs scripts/lab setup; one to three minutes per notebook. The notebook's code gets
    /// at least 4096 MiB of address space (it loads polars)
    #[arg(long)]
    pub(crate) execute: bool,
    /// With --execute: seconds one notebook's whole run may take
    #[arg(long, value_name = "SECONDS", default_value_t = 600)]
    pub(crate) execute_timeout: u64,
    /// Run student code without a sandbox when bubblewrap is missing or cannot work here.
    /// Student code can then read and write whatever your account can: trusted code only
    #[arg(long)]
    pub(crate) no_sandbox: bool,
    /// Regrade only this student's submissions (found among the SUBMISSIONs given): their rows
    /// and feedback are updated, every other row of the gradebook is kept as it was. Grading
    /// notebook files only (no folder) with the class's --output does the same for them
    #[arg(long, value_name = "NAME", conflicts_with = "shard")]
    pub(crate) student: Option<String>,
    /// The instructor's adjustments, a CSV file with the columns student, exercise (or
    /// `total`), points (added; negative to take off), reason, and optionally lab; applied to
    /// the gradebooks and shown in the feedback, never lost by a regrade (default:
    /// <gradebook stem>.adjustments.csv beside --output, when it exists)
    #[arg(long, value_name = "FILE")]
    pub(crate) adjustments: Option<PathBuf>,
    /// The class list, a CSV file with a header (columns such as ID/Username, Name, Email):
    /// every student on it gets a row, "no submission" when nothing came; submissions of
    /// students not on it are graded and flagged
    #[arg(long, value_name = "FILE")]
    pub(crate) roster: Option<PathBuf>,
    /// Whose each file is, when the LMS's names are not read: a regular expression matched
    /// against each file's path under the SUBMISSION given, with a named group `student` and
    /// optionally `timestamp` (as nbgrader's zip_collect), e.g.
    /// '^(?P<student>[^_]+)_(?P<timestamp>[0-9-]+)_'
    #[arg(long, value_name = "REGEX")]
    pub(crate) name_pattern: Option<String>,
    /// The due date, an RFC 3339 time (e.g. 2026-11-20T23:59:00Z or
    /// 2026-11-20T23:59:00+01:00): each submission's time (from its file name or nbgrader's
    /// timestamp.txt or the roster, never the file's modification time) gives how late it is; a submission
    /// whose time is unknown is not penalised, and its note says so
    #[arg(long, value_name = "TIME")]
    pub(crate) due: Option<Due>,
    /// What a late submission loses (with --due): none (lateness recorded, no penalty), zero,
    /// penalty:<P>%/day (P % of the maximum per started day late, never more than the total)
    /// or cap:<P>% (at most P % of the maximum)
    #[arg(long, value_name = "POLICY", default_value = "none")]
    pub(crate) late_policy: LatePolicy,
    /// The offset from UTC of submission times written without one (Blackboard's and
    /// --name-pattern's times in file names, Moodle's worksheet): e.g. +01:00, -05:00, UTC
    /// [default: --due's offset, else UTC]
    #[arg(long, value_name = "OFFSET")]
    pub(crate) time_zone: Option<UtcOffset>,
}

/// Moodle's ways back in for the grades (`lab grade` and `lab grade-merge`).
#[derive(Debug, Args)]
pub(crate) struct MoodleArgs {
    /// Also fill Moodle's offline grading worksheet: give the worksheet downloaded from the
    /// assignment ("Download grading worksheet"), which is filled in place (its Identifier
    /// and every other column kept; Grade and Feedback comments filled), or a new file to
    /// have one written with Moodle's columns; rewritten as the gradebook is
    #[arg(long, value_name = "FILE")]
    pub(crate) moodle_worksheet: Option<PathBuf>,
    /// Also write the feedback files as a zip Moodle takes back ("Upload multiple feedback
    /// files in a zip"): a folder per participant, `Full Name_<id>_assignsubmission_file_`,
    /// holding their feedback page
    #[arg(long, value_name = "FILE")]
    pub(crate) moodle_feedback_zip: Option<PathBuf>,
}

impl MoodleArgs {
    fn outputs(&self) -> MoodleOutputs {
        MoodleOutputs {
            worksheet: self.moodle_worksheet.clone(),
            feedback_zip: self.moodle_feedback_zip.clone(),
        }
    }
}

#[derive(Debug, Args)]
pub(crate) struct GradeMergeArgs {
    /// Each shard's feedback folder (as `lab grade --shard K/N --feedback DIR` wrote it)
    #[arg(required = true, value_name = "SHARD_FEEDBACK")]
    pub(crate) shards: Vec<PathBuf>,
    /// The merged gradebook to write
    #[arg(long = "output", value_name = "FILE")]
    pub(crate) out: PathBuf,
    /// Also write the merged grades in the layout of `nbgrader export`'s CSV
    #[arg(long, value_name = "FILE")]
    pub(crate) nbgrader_csv: Option<PathBuf>,
    /// Also write Canvas's gradebook import CSV (Student, ID, SIS User ID, SIS Login ID,
    /// Section, a column per lab with the adjusted total; the student's folder name as SIS
    /// Login ID), rewritten as the gradebook is
    #[arg(long, value_name = "FILE")]
    pub(crate) canvas_csv: Option<PathBuf>,
    /// With --canvas-csv and one lab: the assignment's column as Canvas names it, `Name (id)`
    /// (the id from the assignment's address), so the import fills that assignment
    #[arg(long, value_name = "NAME (ID)", requires = "canvas_csv")]
    pub(crate) canvas_assignment: Option<String>,
    /// Also write Gradescope's autograder results (results.json: the score and a test per
    /// exercise), e.g. /autograder/results/results.json in an autograder's run_autograder
    #[arg(long, value_name = "FILE")]
    pub(crate) gradescope_results: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) moodle: MoodleArgs,
    /// The merged feedback folder
    #[arg(long, value_name = "DIR")]
    pub(crate) feedback: PathBuf,
    /// The instructor sources the shards graded against
    #[arg(long, value_name = "DIR", default_value = "instructor")]
    pub(crate) sources: PathBuf,
    /// The instructor's adjustments, as for `lab grade` (default:
    /// <gradebook stem>.adjustments.csv beside --output, when it exists)
    #[arg(long, value_name = "FILE")]
    pub(crate) adjustments: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct DoctorArgs {
    /// Skip starting a kernel to build the crate
    #[arg(long)]
    pub(crate) quick: bool,
    /// Where kernels start (the student notebooks' folder)
    #[arg(long, value_name = "DIR", default_value = "notebooks")]
    pub(crate) kernel_dir: PathBuf,
    #[arg(long, value_name = "PATH")]
    pub(crate) python: Option<PathBuf>,
}

pub(crate) fn run(args: &LabArgs) -> Result<(), CliError> {
    match &args.command {
        LabCommand::Release(a) => run_release(a),
        LabCommand::Verify(a) => {
            announce_tie_rule()?;
            run_verify(a)
        }
        LabCommand::Grade(a) => {
            announce_tie_rule()?;
            run_grade(a)
        }
        LabCommand::GradeMerge(a) => run_grade_merge(a),
        LabCommand::Doctor(a) => run_doctor(a),
        LabCommand::NbgraderCourse(a) => run_nbgrader_course(a),
        LabCommand::Handout(a) => run_handout(a),
        LabCommand::GradescopeBundle(a) => run_gradescope_bundle(a),
        LabCommand::New(a) => run_new(a),
    }
}

fn run_gradescope_bundle(args: &GradescopeBundleArgs) -> Result<(), CliError> {
    let sources = || format!("--sources {}", args.sources.display());
    if !args.sources.is_dir() {
        return Err(CliError::usage(format!(
            "{}: no such folder; run from the bpe-lab checkout or name the instructor sources",
            sources()
        )));
    }
    let known: Vec<String> = crate::course::grade::graded_notebook::graded_notebooks(&args.sources)
        .map_err(|e| CliError::runtime(format!("{}: {e}", sources())))?
        .into_iter()
        .map(|l| l.name)
        .collect();
    let options = BundleOptions {
        sources: args.sources.clone(),
        lab: args.lab.clone(),
        check_timeout: args.check_timeout,
    };
    let bytes = gradescope_bundle(&options, &known).map_err(|e| match &e {
        BundleError::NotARepository { .. } => CliError::usage(format!("{}: {e}", sources())),
        BundleError::UnknownLab { .. } => CliError::usage(format!("--lab {e}")),
        BundleError::Read { .. } => CliError::runtime(e.to_string()),
    })?;
    bpe_lab::files::write_atomically(&args.out, |w| w.write_all(&bytes)).map_err(|e| {
        CliError::runtime(format!(
            "--output {}: {}",
            args.out.display(),
            bpe_lab::files::describe_io_error(&e)
        ))
    })?;
    eprintln!(
        "wrote {} ({} KiB): the autograder for {}; upload it in Gradescope's Configure \
         Autograder (it holds the solutions: never give it to students)",
        args.out.display(),
        bytes.len() / 1024,
        args.lab
    );
    Ok(())
}

/// Says which tie rule a verify or grade run goes by, or refuses a setting that names none:
/// the rule decides `train_bpe`'s, `encode`'s and `decode`'s expected answers, so a misspelt
/// one taken as the default would grade a class by the rule the instructor did not choose.
fn announce_tie_rule() -> Result<(), CliError> {
    bpe_lab::lab::parity::tie_break_setting().map_err(|e| CliError::usage(e.to_string()))?;
    eprintln!("{}", bpe_lab::lab::parity::tie_break_line());
    Ok(())
}

fn run_new(args: &NewArgs) -> Result<(), CliError> {
    use crate::course::own_tests::new_lab::{NewLabError, new_lab};
    let path = new_lab(&args.sources, &args.name).map_err(|e| match e {
        NewLabError::BadName { .. } => CliError::usage(format!("NN-name: {e}")),
        NewLabError::Exists { .. } => CliError::runtime(e.to_string()),
        NewLabError::Write(_) => CliError::runtime(format!("--sources: {e}")),
    })?;
    eprintln!(
        "wrote     {} (fill it in, then `bpe-lab lab release`)",
        path.display()
    );
    Ok(())
}

fn run_handout(args: &HandoutArgs) -> Result<(), CliError> {
    let options = HandoutOptions {
        sources: args.sources.clone(),
        output: args.out.clone(),
    };
    let handout = write_handout(&options).map_err(|e| {
        let flag = match &e {
            HandoutError::InsideSources { .. }
            | HandoutError::NotAFolder { .. }
            | HandoutError::NotEmpty { .. } => Some("--output"),
            HandoutError::NoSources { .. }
            | HandoutError::NotARepository { .. }
            | HandoutError::Stale { .. } => Some("--sources"),
            // The machine's trouble: the message names the file.
            _ => None,
        };
        let message = flag.map_or_else(|| e.to_string(), |flag| format!("{flag}: {e}"));
        if e.is_instructors() {
            CliError::usage(message)
        } else {
            CliError::runtime(message)
        }
    })?;
    eprintln!(
        "wrote the student handout {}: {} files, notebooks {}",
        handout.output.display(),
        handout.files,
        handout.notebooks.join(", ")
    );
    eprintln!(
        "next: make it the students' repository (git init, commit, push) for Binder and \
         Codespaces, or `docker build {}` for the image (docs/instructors.md, step 3)",
        handout.output.display()
    );
    Ok(())
}

fn run_nbgrader_course(args: &NbgraderCourseArgs) -> Result<(), CliError> {
    let course_error = |e: CourseError| match e {
        CourseError::NoCrate { .. } | CourseError::NotACrate { .. } if args.crate_dir.is_some() => {
            CliError::usage(format!("--crate: {e}"))
        }
        // Without --crate the crate is the sources' parent folder.
        CourseError::NotACrate { .. } => {
            CliError::usage(format!("{e}; name the bpe-lab crate with --crate"))
        }
        e => CliError::runtime(format!("--sources {}: {e}", args.sources.display())),
    };
    let crate_dir = find_crate(&args.sources, args.crate_dir.as_deref()).map_err(course_error)?;
    let labs = write_course_from(&args.sources, &crate_dir, &args.course).map_err(course_error)?;
    println!(
        "wrote {} with {} assignment(s): {}",
        args.course.join("nbgrader_config.py").display(),
        labs.len(),
        labs.join(", ")
    );
    println!(
        "next: cd {} && nbgrader generate_assignment <lab>  (then release, collect, autograde as usual)",
        args.course.display()
    );
    Ok(())
}

fn run_release(args: &ReleaseArgs) -> Result<(), CliError> {
    let (edition, default_out) = if args.self_study {
        (Edition::SelfStudy, "notebooks-self-study")
    } else {
        (Edition::Graded, "notebooks")
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(default_out));
    if args.check {
        let stale = stale_edition(&args.sources, &out, edition)
            .map_err(|e| CliError::runtime(e.to_string()))?;
        if stale.is_empty() {
            eprintln!("student versions in {} are up to date", out.display());
            return Ok(());
        }
        let list: Vec<String> = stale.iter().map(|s| format!("  {s}")).collect();
        return Err(CliError::runtime(format!(
            "student versions are stale; run `bpe-lab lab release`:\n{}",
            list.join("\n")
        )));
    }
    let released = release_edition(&args.sources, &out, edition).map_err(|e| {
        if edition == Edition::SelfStudy && edition_of(&e.path) == Some(Edition::Graded) {
            CliError::runtime(format!("{e}; choose that folder with --output DIR"))
        } else {
            CliError::runtime(e.to_string())
        }
    })?;
    for r in &released {
        eprintln!(
            "{} {} -> {}",
            if r.changed { "wrote    " } else { "unchanged" },
            r.source.display(),
            r.student.display()
        );
        if let Some(record) = &r.kept {
            eprintln!(
                "kept      release {} (commit it with the sources)",
                record.display()
            );
        }
    }
    Ok(())
}

fn run_verify(args: &VerifyArgs) -> Result<(), CliError> {
    let options = VerifyOptions {
        sources: args.sources.clone(),
        students: args.students.clone(),
        work_dir: args.work_dir.clone(),
        run: args.kernel.options(&args.sources),
        students_too: !args.sources_only,
        edition: if args.self_study {
            Edition::SelfStudy
        } else {
            Edition::Graded
        },
        only: args.only.clone(),
        html: args.html,
        jobs: args.jobs.map_or_else(
            || std::thread::available_parallelism().map_or(1, usize::from),
            usize::from,
        ),
    };
    let started = Instant::now();
    let outcomes = verify(&options, |o| eprintln!("{}", outcome_line(o))).map_err(|e| match e {
        VerifyError::Stale { .. } => CliError::runtime(format!("--students: {e}")),
        e => CliError::runtime(format!("--sources: {e}")),
    })?;
    let failed = outcomes.iter().filter(|o| !o.ok()).count();
    eprintln!(
        "{} notebooks, {} failed, {:.0} s; executed copies in {}",
        outcomes.len(),
        failed,
        started.elapsed().as_secs_f64(),
        args.work_dir.display()
    );
    let not_rendered: Vec<String> = outcomes
        .iter()
        .filter(|o| o.html == Some(false))
        .map(|o| o.executed.display().to_string())
        .collect();
    if !not_rendered.is_empty() {
        return Err(CliError::runtime(format!(
            "--html: could not render to HTML: {}",
            not_rendered.join(", ")
        )));
    }
    if failed > 0 {
        return Err(CliError::runtime(format!(
            "{failed} notebook(s) failed verification"
        )));
    }
    Ok(())
}

/// One notebook's verification as a line (and its problems below it).
fn outcome_line(o: &NotebookOutcome) -> String {
    let checks: Vec<String> = o
        .exercises
        .iter()
        .map(|e| {
            format!(
                "{} {} ({:.1} s)",
                e.exercise,
                e.status.map_or("no result", |s| s.as_str()),
                e.seconds
            )
        })
        .collect();
    format!(
        "{} {:<7} {} — {:.0} s{}{}",
        if o.ok() { "ok  " } else { "FAIL" },
        o.version.name(),
        o.notebook.display(),
        o.seconds,
        if checks.is_empty() {
            String::new()
        } else {
            format!(": {}", checks.join(", "))
        },
        if o.ok() {
            String::new()
        } else {
            let problems: Vec<String> = o.problems.iter().map(|p| p.to_string()).collect();
            format!("\n      {}", problems.join("\n      "))
        }
    )
}

fn run_grade(args: &GradeArgs) -> Result<(), CliError> {
    let options = SessionOptions {
        submissions: args.submissions.clone(),
        sources: args.sources.clone(),
        lab: args.lab.clone(),
        gradebook: args.out.clone(),
        nbgrader_csv: args.nbgrader_csv.clone(),
        canvas_csv: args.canvas_csv.clone(),
        canvas_assignment: args.canvas_assignment.clone(),
        gradescope_results: args.gradescope_results.clone(),
        moodle: args.moodle.outputs(),
        feedback: args.feedback.clone(),
        memory_mb: args.memory_mb,
        check_limit: Duration::from_secs(args.check_timeout),
        compile_limit: Duration::from_secs(args.compile_timeout),
        jobs: args.jobs,
        resume: args.resume,
        shard: args.shard,
        execute: args
            .execute
            .then(|| Duration::from_secs(args.execute_timeout)),
        allow_unconfined: args.no_sandbox,
        student: args.student.clone(),
        adjustments: args.adjustments.clone(),
        roster: args.roster.clone(),
        name_pattern: args.name_pattern.clone(),
        late: LateRule {
            due: args.due.clone(),
            policy: args.late_policy,
            zone: args.time_zone,
        },
    };
    let mut bar = None;
    let summary =
        grade_all(&options, |event| show(event, &mut bar)).map_err(|e| grade_error(e, args))?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    show_summary(&summary, args);
    eprint!("{}", summary.class.table());
    Ok(())
}

/// Prints a grading session's progress (a bar on a terminal, lines otherwise).
fn show(event: Event, bar: &mut Option<indicatif::ProgressBar>) {
    match event {
        Event::Unconfined => eprintln!(
            "warning: --no-sandbox: student code runs unconfined, with your account's rights"
        ),
        Event::Collected(intake) => show_intake(intake),
        Event::Resuming {
            kept,
            to_grade,
            not_graded_before,
            setup_changed,
        } => eprintln!(
            "resuming: {kept} submission(s) already graded, {to_grade} to grade ({not_graded_before} \
             of them left not graded by the grader's own trouble{})",
            if setup_changed > 0 {
                format!(
                    ", {setup_changed} graded under another setup: the points, the tie rule, a \
                     limit or the grader's version changed"
                )
            } else {
                String::new()
            }
        ),
        Event::Regrading { graded, class } => eprintln!(
            "regrading {graded} of the class's {class} submission(s); the other rows are kept as \
             they were"
        ),
        Event::Sharded { shard, holds, of } => {
            eprintln!("shard {shard}: grading {holds} of the {of} submission(s)")
        }
        Event::Started { to_grade } => *bar = progress::bar(to_grade as u64, "grading"),
        Event::Graded { done, of, grade } => {
            let notes = grade.notes_line();
            let line = format!(
                "[{done}/{of}] {}{} {}: {} / {} ({:.1} s){}",
                grade.student,
                grade
                    .name
                    .as_ref()
                    .map_or_else(String::new, |n| format!(" ({n})")),
                grade.file.display(),
                grade.total,
                grade.max,
                grade.seconds,
                if notes.is_empty() {
                    String::new()
                } else {
                    format!(" — {notes}")
                }
            );
            match bar {
                Some(bar) => {
                    bar.println(line);
                    bar.inc(1);
                }
                None => eprintln!("{line}"),
            }
        }
    }
}

fn show_summary(summary: &Summary, args: &GradeArgs) {
    eprintln!(
        "graded {} submission(s) in {:.0} s with {} job(s); gradebook {}, feedback in {}",
        summary.graded,
        summary.seconds,
        summary.jobs,
        args.out.display(),
        args.feedback.display()
    );
    if summary.submissions == 0 {
        eprintln!("note: no submissions were found, so the gradebook has no rows");
    }
    show_not_graded(&summary.tally);
}

/// What the intake found: the LMSs recognized, what was set aside, how the roster was used.
fn show_intake(intake: &Intake) {
    if !intake.formats.is_empty() {
        eprintln!("read the file names of: {}", intake.formats.join(", "));
    }
    if !intake.skipped.is_empty() {
        let files: usize = intake.skipped.iter().map(|s| s.files).sum();
        eprintln!("skipped {files} file(s) that are no student's submission:");
        for s in &intake.skipped {
            let count = if s.files > 1 {
                format!(" ({} files)", s.files)
            } else {
                String::new()
            };
            eprintln!("  {}{count}: {}", s.shown.display(), s.why);
        }
    }
    if let Some(r) = &intake.roster {
        eprintln!(
            "roster {}: {} student(s), keyed by its column {:?}; {} handed nothing in, {}              submission(s) from students not on it",
            r.path.display(),
            r.students,
            r.key_column,
            r.absent,
            r.not_on_roster
        );
    }
}

/// What the gradebook holds that is not graded, split by whose doing it was: a grading run and
/// a merge end with the same table.
fn show_not_graded(tally: &Tally) {
    eprintln!("rows: {}", tally.outcomes_line());
    let count = |whose| tally.parts(whose).count();
    let parts = |whose| {
        for p in tally.parts(whose) {
            let what = p
                .exercise
                .as_ref()
                .map_or_else(String::new, |e| format!(", {}", e.name()));
            eprintln!("  {} {}{what}: {}", p.student, p.file.display(), p.reason);
        }
    };
    if count(Whose::Grader) > 0 {
        eprintln!(
            "not graded because of the grader's own trouble (not the students'): {} part(s) of {} \
             submission(s) — run the same command with --resume to grade exactly those again:",
            count(Whose::Grader),
            tally.submissions(Whose::Grader)
        );
        parts(Whose::Grader);
    } else {
        eprintln!("not graded because of the grader's own trouble: none");
    }
    if count(Whose::Submission) > 0 {
        eprintln!(
            "could not be graded because of the submitted file itself: {} submission(s):",
            tally.submissions(Whose::Submission)
        );
        parts(Whose::Submission);
    }
}

fn run_grade_merge(args: &GradeMergeArgs) -> Result<(), CliError> {
    let options = MergeOptions {
        shards: args.shards.clone(),
        sources: args.sources.clone(),
        gradebook: args.out.clone(),
        nbgrader_csv: args.nbgrader_csv.clone(),
        canvas_csv: args.canvas_csv.clone(),
        canvas_assignment: args.canvas_assignment.clone(),
        gradescope_results: args.gradescope_results.clone(),
        moodle: args.moodle.outputs(),
        feedback: args.feedback.clone(),
        adjustments: args.adjustments.clone(),
    };
    let merged = merge_shards(&options).map_err(|e| match e {
        MergeError::Adjustments(_) => CliError::usage(adjustments_message(&e)),
        MergeError::MoodleWorksheet(_) => {
            CliError::usage(format!("--moodle-worksheet {e} (nothing was written)"))
        }
        MergeError::GradedNotebook(_) => {
            CliError::runtime(format!("--sources {}: {e}", args.sources.display()))
        }
        MergeError::Sources { .. } => CliError::runtime(format!("--sources: {e}")),
        MergeError::Write(GradeError::Write { output, .. }) => {
            CliError::runtime(format!("{}: {e}", output_flag(output)))
        }
        e => CliError::runtime(e.to_string()),
    })?;
    eprintln!(
        "merged {} shard(s): {} submission(s); gradebook {}, feedback in {}",
        merged.shards,
        merged.submissions,
        args.out.display(),
        args.feedback.display()
    );
    show_not_graded(&merged.tally);
    eprint!("{}", merged.class.table());
    Ok(())
}

/// The flag that names an output file.
fn output_flag(output: Output) -> &'static str {
    match output {
        Output::Feedback => "--feedback",
        Output::Gradebook => "--output",
        Output::NbgraderCsv => "--nbgrader-csv",
        Output::CanvasCsv => "--canvas-csv",
        Output::GradescopeResults => "--gradescope-results",
        Output::MoodleWorksheet => "--moodle-worksheet",
        Output::MoodleFeedbackZip => "--moodle-feedback-zip",
    }
}

/// A session's error, named by the flag that set what failed.
fn grade_error(e: GradeError, args: &GradeArgs) -> CliError {
    match &e {
        GradeError::GradedNotebook(_) => {
            CliError::runtime(format!("--sources {}: {e}", args.sources.display()))
        }
        GradeError::NoLabs { .. } => CliError::usage(format!(
            "--sources {}: {e}; name the instructor sources (the notebooks with solutions) \
             with --sources DIR",
            args.sources.display()
        )),
        GradeError::NoSources { .. } => CliError::usage(format!("--sources {e}")),
        GradeError::Intake(intake) => intake_error(intake),
        GradeError::UnknownLab { name, known } => CliError::usage(format!(
            "--lab {name}: no such lab (known: {})",
            known.join(", ")
        )),
        // The sandbox's own words name --no-sandbox where it would help.
        GradeError::Sandbox { .. } => CliError::runtime(e.to_string()),
        GradeError::ExecuteUnconfined => CliError::usage(
            "--execute runs whole notebooks and needs the sandbox: it cannot be combined with --no-sandbox",
        ),
        GradeError::Execute { .. } => CliError::runtime(format!("--execute: {e}")),
        GradeError::Scratch { .. } => CliError::runtime(e.to_string()),
        GradeError::Write { output, .. } => {
            CliError::runtime(format!("{}: {e}", output_flag(*output)))
        }
        GradeError::Adjustments(_) => CliError::usage(adjustments_message(&e)),
        GradeError::MoodleWorksheet(_) => {
            CliError::usage(format!("--moodle-worksheet {e} (nothing was written)"))
        }
        GradeError::UnknownStudent { name, .. } => {
            CliError::usage(format!("--student {name}: {e}"))
        }
    }
}

/// A bad adjustments file, said with the flag that names it (nothing was written).
fn adjustments_message(e: &dyn std::fmt::Display) -> String {
    format!("--adjustments: {e} (nothing was written)")
}

/// What was given to grade cannot be taken: named by the flag or argument at fault. Each is
/// the instructor's to fix (exit 2), except a file the machine cannot read (exit 1).
fn intake_error(e: &IntakeError) -> CliError {
    let message = match e {
        IntakeError::NamePattern(_) => format!("--name-pattern {e}"),
        IntakeError::Roster(_) => format!("--roster {e}"),
        IntakeError::FeedbackInSubmissions { .. } => format!("--feedback {e}"),
        _ => format!("SUBMISSION {e}"),
    };
    if e.is_io() {
        CliError::runtime(message)
    } else {
        CliError::usage(message)
    }
}

fn run_doctor(args: &DoctorArgs) -> Result<(), CliError> {
    let python = args
        .python
        .clone()
        .unwrap_or_else(|| find_python(&std::env::current_dir().unwrap_or_default()));
    if !args.quick {
        eprintln!(
            "starting a kernel to build bpe-lab (seconds when warm, minutes the first time)…"
        );
    }
    let findings = diagnose(&python, &args.kernel_dir, args.quick);
    let mut missing = 0;
    for f in &findings {
        println!("{} {}: {}", if f.ok { "✔" } else { "✘" }, f.what, f.detail);
        if let Some(fix) = &f.fix {
            missing += 1;
            println!("    run: {fix}");
        }
    }
    if missing > 0 {
        return Err(CliError::runtime(format!(
            "{missing} problem(s) found; run the commands above"
        )));
    }
    println!("ready: open the lab with scripts/lab");
    Ok(())
}
