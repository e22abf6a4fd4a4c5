//! `bpe-lab lab …`: what instructors run — release student versions, verify every notebook
//! with the real kernel, grade submissions, and check the machine.

use super::CliError;
use bpe_lab::files::write_atomically;
use bpe_lab::instructor::doctor::diagnose;
use bpe_lab::instructor::execute::ExecuteOptions;
use bpe_lab::instructor::feedback::{feedback_html, feedback_markdown, feedback_path};
use bpe_lab::instructor::grade::{
    Grade, GradeOptions, Lab, Submission, find_submissions, grade_one, gradebook_csv, labs,
    nbgrader_csv, saved_grade, saved_grade_path,
};
use bpe_lab::instructor::judge::JudgeOptions;
use bpe_lab::instructor::judge::sandbox::Sandbox;
use bpe_lab::instructor::nbgrader_course::write_course;
use bpe_lab::instructor::release::{release, sources, stale};
use bpe_lab::instructor::runner::{RunOptions, find_python};
use bpe_lab::instructor::verify::{VerifyOptions, verify};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub const LONG_ABOUT: &str = "\
Instructor tools for the lab notebooks.

The instructor sources (instructor/*.ipynb) hold the solutions between `// BEGIN SOLUTION` and
`// END SOLUTION`; check cells carry metadata {\"bpe_lab\": {\"exercise\": NAME, \"points\": N}}.
`release` writes the student versions (notebooks/), `verify` runs every notebook with the real
evcxr kernel, `grade` scores submitted notebooks, `doctor` says what is missing to run them.";

#[derive(Debug, Args)]
pub struct LabArgs {
    #[command(subcommand)]
    pub command: LabCommand,
}

#[derive(Debug, Subcommand)]
pub enum LabCommand {
    /// Write the student notebooks from the instructor sources
    Release(ReleaseArgs),
    /// Run every notebook with the real kernel: sources must pass every check, student
    /// versions must say "not implemented" and fail nowhere else
    Verify(VerifyArgs),
    /// Grade submitted notebooks into a gradebook (CSV) and one feedback file per student
    Grade(GradeArgs),
    /// Check that Jupyter, the Rust kernel and the crate build are present
    Doctor(DoctorArgs),
    /// Write an nbgrader course (nbgrader_config.py, source/<lab>/<lab>.ipynb) from the sources
    NbgraderCourse(NbgraderCourseArgs),
}

#[derive(Debug, Args)]
pub struct NbgraderCourseArgs {
    /// The course directory to write (created if missing; existing files are replaced)
    #[arg(value_name = "DIR")]
    pub course: PathBuf,
    /// Instructor sources
    #[arg(long, value_name = "DIR", default_value = "instructor")]
    pub sources: PathBuf,
    /// The bpe-lab crate the notebooks depend on (default: the sources' parent folder)
    #[arg(long = "crate", value_name = "DIR")]
    pub crate_dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ReleaseArgs {
    /// Instructor sources
    #[arg(long, value_name = "DIR", default_value = "instructor")]
    pub sources: PathBuf,
    /// Where the student versions go
    #[arg(long, value_name = "DIR", default_value = "notebooks")]
    pub out: PathBuf,
    /// Write nothing; exit 1 if any student version is missing or out of date
    #[arg(long)]
    pub check: bool,
}

#[derive(Debug, Args)]
pub struct KernelArgs {
    /// Python with nbclient (default: $BPE_LAB_PYTHON, else .venv/bin/python, else python3)
    #[arg(long, value_name = "PATH")]
    pub python: Option<PathBuf>,
    /// Seconds one cell may run
    #[arg(long, value_name = "SECONDS", default_value_t = 600)]
    pub cell_timeout: u64,
    /// Seconds one notebook may run
    #[arg(long, value_name = "SECONDS", default_value_t = 1800)]
    pub timeout: u64,
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
pub struct VerifyArgs {
    #[arg(long, value_name = "DIR", default_value = "instructor")]
    pub sources: PathBuf,
    #[arg(long, value_name = "DIR", default_value = "notebooks")]
    pub students: PathBuf,
    /// Executed notebooks are kept here (source/ and student/)
    #[arg(long, value_name = "DIR", default_value = "target/lab/verify")]
    pub work_dir: PathBuf,
    /// Only notebooks whose file name contains this
    #[arg(long, value_name = "TEXT")]
    pub only: Option<String>,
    /// Run the instructor sources only
    #[arg(long)]
    pub sources_only: bool,
    /// Also render each executed notebook to HTML (next to it) with nbconvert
    #[arg(long)]
    pub html: bool,
    #[command(flatten)]
    pub kernel: KernelArgs,
}

#[derive(Debug, Args)]
pub struct GradeArgs {
    /// Submitted notebooks, or folders of them (one sub-folder per student)
    #[arg(required = true, value_name = "SUBMISSION")]
    pub submissions: Vec<PathBuf>,
    /// The gradebook to write (rewritten, atomically, as each submission finishes)
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Also write the grades in the layout of `nbgrader export`'s CSV (assignment, student_id,
    /// raw_score, score, max_score, …), rewritten as each submission finishes
    #[arg(long, value_name = "FILE")]
    pub nbgrader_csv: Option<PathBuf>,
    /// Feedback files (Markdown and HTML), one folder per student
    #[arg(long, value_name = "DIR")]
    pub feedback: PathBuf,
    #[arg(long, value_name = "DIR", default_value = "instructor")]
    pub sources: PathBuf,
    /// Grade every submission as this lab (default: the lab its file name or content names)
    #[arg(long, value_name = "NAME")]
    pub lab: Option<String>,
    /// Address-space limit of each process running student code, in MiB
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub memory_mb: u64,
    /// Seconds one exercise's check may take (all its calls), as in the notebook
    #[arg(long, value_name = "SECONDS", default_value_t = 20)]
    pub check_timeout: u64,
    /// Seconds compiling one exercise's worker may take
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    pub compile_timeout: u64,
    /// Submissions graded at once (default: the number of cores)
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Keep the grades of submissions already graded by an earlier run (unchanged files only)
    #[arg(long)]
    pub resume: bool,
    /// Also execute each restored notebook with the real kernel, in the sandbox, and put it in
    /// the feedback folder as <lab>.executed.ipynb (the grade still comes from the judge).
    /// Needs scripts/lab setup; one to three minutes per notebook. The notebook's code gets
    /// at least 4096 MiB of address space (it loads polars)
    #[arg(long)]
    pub execute: bool,
    /// With --execute: seconds one notebook's whole run may take
    #[arg(long, value_name = "SECONDS", default_value_t = 600)]
    pub execute_timeout: u64,
    /// Run student code without a sandbox when bubblewrap is missing or cannot work here.
    /// Student code can then read and write whatever your account can: trusted code only
    #[arg(long)]
    pub no_sandbox: bool,
}

/// The least address space, MiB, for the code of an executed notebook (`--execute`).
const EXECUTE_MEMORY_MB: u64 = 4096;

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Skip starting a kernel to build the crate
    #[arg(long)]
    pub quick: bool,
    /// Where kernels start (the student notebooks' folder)
    #[arg(long, value_name = "DIR", default_value = "notebooks")]
    pub kernel_dir: PathBuf,
    #[arg(long, value_name = "PATH")]
    pub python: Option<PathBuf>,
}

pub fn run(args: &LabArgs) -> Result<(), CliError> {
    match &args.command {
        LabCommand::Release(a) => run_release(a),
        LabCommand::Verify(a) => run_verify(a),
        LabCommand::Grade(a) => run_grade(a),
        LabCommand::Doctor(a) => run_doctor(a),
        LabCommand::NbgraderCourse(a) => run_nbgrader_course(a),
    }
}

fn run_nbgrader_course(args: &NbgraderCourseArgs) -> Result<(), CliError> {
    let crate_dir = match &args.crate_dir {
        Some(dir) => dir.clone(),
        None => args
            .sources
            .canonicalize()
            .map_err(|e| CliError::io("cannot read the sources", &args.sources, &e))?
            .parent()
            .map(Path::to_owned)
            .unwrap_or_default(),
    };
    let crate_dir = crate_dir
        .canonicalize()
        .map_err(|e| CliError::io("cannot find the crate", &crate_dir, &e))?;
    if !crate_dir.join("Cargo.toml").is_file() {
        return Err(CliError::usage(format!(
            "{} has no Cargo.toml: --crate must name the bpe-lab crate",
            crate_dir.display()
        )));
    }
    let paths = sources(&args.sources).map_err(|e| CliError::runtime(e.to_string()))?;
    if paths.is_empty() {
        return Err(CliError::runtime(format!(
            "{} holds no notebooks",
            args.sources.display()
        )));
    }
    let labs = write_course(&paths, &crate_dir, &args.course)
        .map_err(|e| CliError::runtime(e.to_string()))?;
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
    if args.check {
        let stale =
            stale(&args.sources, &args.out).map_err(|e| CliError::runtime(e.to_string()))?;
        if stale.is_empty() {
            eprintln!("student versions in {} are up to date", args.out.display());
            return Ok(());
        }
        let list: Vec<String> = stale
            .iter()
            .map(|(p, why)| format!("  {}: {why}", p.display()))
            .collect();
        return Err(CliError::runtime(format!(
            "student versions are stale; run `bpe-lab lab release`:\n{}",
            list.join("\n")
        )));
    }
    let released =
        release(&args.sources, &args.out).map_err(|e| CliError::runtime(e.to_string()))?;
    for r in &released {
        eprintln!(
            "{} {} -> {}",
            if r.changed { "wrote    " } else { "unchanged" },
            r.source.display(),
            r.student.display()
        );
    }
    Ok(())
}

fn run_verify(args: &VerifyArgs) -> Result<(), CliError> {
    if !args.sources_only {
        let stale =
            stale(&args.sources, &args.students).map_err(|e| CliError::runtime(e.to_string()))?;
        if !stale.is_empty() {
            return Err(CliError::runtime(format!(
                "student versions are stale ({}); run `bpe-lab lab release` first",
                stale
                    .iter()
                    .map(|(p, _)| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    }
    let options = VerifyOptions {
        sources: args.sources.clone(),
        students: args.students.clone(),
        work_dir: args.work_dir.clone(),
        run: args.kernel.options(&args.sources),
        students_too: !args.sources_only,
        only: args.only.clone(),
    };
    let started = Instant::now();
    let mut html_failures = Vec::new();
    let outcomes = verify(&options, |o| {
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
        eprintln!(
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
                format!("\n      {}", o.problems.join("\n      "))
            }
        );
        if args.html && o.executed.exists() {
            let status = std::process::Command::new(&options.run.python)
                .args(["-m", "nbconvert", "--to", "html", "--log-level", "ERROR"])
                .arg(&o.executed)
                .status();
            if !status.is_ok_and(|s| s.success()) {
                html_failures.push(o.executed.display().to_string());
            }
        }
    })
    .map_err(CliError::runtime)?;
    let failed = outcomes.iter().filter(|o| !o.ok()).count();
    eprintln!(
        "{} notebooks, {} failed, {:.0} s; executed copies in {}",
        outcomes.len(),
        failed,
        started.elapsed().as_secs_f64(),
        args.work_dir.display()
    );
    if !html_failures.is_empty() {
        return Err(CliError::runtime(format!(
            "could not render to HTML: {}",
            html_failures.join(", ")
        )));
    }
    if failed > 0 {
        return Err(CliError::runtime(format!(
            "{failed} notebook(s) failed verification"
        )));
    }
    Ok(())
}

fn run_grade(args: &GradeArgs) -> Result<(), CliError> {
    let labs = labs(&args.sources).map_err(CliError::runtime)?;
    if labs.is_empty() {
        return Err(CliError::runtime(format!(
            "{}: no lab notebooks to grade against",
            args.sources.display()
        )));
    }
    if let Some(name) = &args.lab
        && !labs.iter().any(|l| &l.name == name)
    {
        let known: Vec<&str> = labs.iter().map(|l| l.name.as_str()).collect();
        return Err(CliError::usage(format!(
            "--lab {name}: no such lab (known: {})",
            known.join(", ")
        )));
    }
    let sandbox = Sandbox::detect(args.no_sandbox).map_err(CliError::runtime)?;
    if !sandbox.confined() {
        eprintln!(
            "warning: --no-sandbox: student code runs unconfined, with your account's rights"
        );
    }
    let execute = if args.execute {
        if !sandbox.confined() {
            return Err(CliError::usage(
                "--execute runs whole notebooks and needs the sandbox: it cannot be combined with --no-sandbox",
            ));
        }
        let project = std::fs::canonicalize(&args.sources)
            .ok()
            .and_then(|s| s.parent().map(Path::to_owned))
            .unwrap_or_else(|| PathBuf::from("."));
        let mut found = ExecuteOptions::detect(&project)
            .map_err(|e| CliError::runtime(format!("--execute: {e}")))?;
        found.total_timeout = Duration::from_secs(args.execute_timeout);
        // A notebook's code loads polars (a large debug build): it needs gigabytes of
        // address space where a worker needs a few megabytes.
        found.memory_mb = args.memory_mb.max(EXECUTE_MEMORY_MB);
        Some(found)
    } else {
        None
    };
    let scratch_root = tempfile::Builder::new()
        .prefix("bpe-lab-grade-")
        .tempdir()
        .map_err(|e| CliError::runtime(format!("no temporary directory for grading: {e}")))?;
    sandbox
        .prepare_scratch(scratch_root.path(), 0)
        .map_err(CliError::runtime)?;
    // Each slot's sandbox user must reach its own scratch directory under this one.
    {
        use std::os::unix::fs::PermissionsExt;
        let _ =
            std::fs::set_permissions(scratch_root.path(), std::fs::Permissions::from_mode(0o711));
    }
    let options = GradeOptions {
        labs: labs.clone(),
        expected_lab: args.lab.clone(),
        judge: JudgeOptions {
            sandbox,
            memory_mb: args.memory_mb,
            check_limit: Duration::from_secs(args.check_timeout),
            compile_limit: Duration::from_secs(args.compile_timeout),
        },
        scratch_root: scratch_root.path().to_owned(),
        execute,
    };
    let (submissions, notes) = find_submissions(&args.submissions);
    for note in &notes {
        eprintln!("note: {note}");
    }
    let started = Instant::now();
    let mut grades: Vec<Option<Grade>> = vec![None; submissions.len()];
    let mut todo: Vec<usize> = Vec::new();
    for (i, submission) in submissions.iter().enumerate() {
        match args
            .resume
            .then(|| saved_grade(submission, &args.feedback))
            .flatten()
        {
            Some(grade) => grades[i] = Some(grade),
            None => todo.push(i),
        }
    }
    if args.resume {
        eprintln!(
            "resuming: {} submission(s) already graded, {} to grade",
            submissions.len() - todo.len(),
            todo.len()
        );
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 64);
    let bar = crate::cli::progress::bar(todo.len() as u64, "grading");
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (sender, receiver) = std::sync::mpsc::channel::<(usize, Grade)>();
    let mut failure: Option<CliError> = None;
    std::thread::scope(|scope| {
        for slot in 0..jobs.min(todo.len()) {
            let sender = sender.clone();
            let (next, todo, submissions, options) = (&next, &todo, &submissions, &options);
            scope.spawn(move || {
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Some(&i) = todo.get(k) else { break };
                    let grade = grade_one(&submissions[i], options, slot);
                    if sender.send((i, grade)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // Each grade is written the moment it is known: its feedback, its saved copy for
        // --resume, and the whole gradebook again.
        for (done, (i, grade)) in receiver.into_iter().enumerate() {
            if failure.is_none()
                && let Err(e) = write_grade(&grade, &submissions[i], &args.feedback)
            {
                failure = Some(e);
            }
            let line = format!(
                "[{}/{}] {} {}: {} / {} ({:.1} s){}",
                done + 1,
                todo.len(),
                grade.student,
                grade.file.display(),
                grade.total,
                grade.max,
                grade.seconds,
                if grade.notes.is_empty() {
                    String::new()
                } else {
                    format!(" — {}", grade.notes.join("; "))
                }
            );
            match &bar {
                Some(bar) => {
                    bar.println(line);
                    bar.inc(1);
                }
                None => eprintln!("{line}"),
            }
            grades[i] = Some(grade);
            if failure.is_none()
                && let Err(e) = write_gradebook(&grades, &labs, args)
            {
                failure = Some(e);
            }
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if let Some(e) = failure {
        return Err(e);
    }
    write_gradebook(&grades, &labs, args)?;
    eprintln!(
        "graded {} submission(s) in {:.0} s with {jobs} job(s); gradebook {}, feedback in {}",
        todo.len(),
        started.elapsed().as_secs_f64(),
        args.out.display(),
        args.feedback.display()
    );
    if submissions.is_empty() {
        eprintln!("note: no submissions were found, so the gradebook has no rows");
    }
    Ok(())
}

fn write_grade(grade: &Grade, submission: &Submission, feedback: &Path) -> Result<(), CliError> {
    let path = feedback_path(grade, feedback);
    let saved = saved_grade_path(submission, feedback);
    let html = path.with_extension("html");
    let executed = path.with_extension("executed.ipynb");
    let written = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|_| write_atomically(&path, |w| w.write_all(feedback_markdown(grade).as_bytes())))
        .and_then(|_| write_atomically(&html, |w| w.write_all(feedback_html(grade).as_bytes())))
        .and_then(|_| match &grade.executed {
            Some(notebook) => write_atomically(&executed, |w| w.write_all(notebook)),
            None => Ok(()),
        })
        .and_then(|_| {
            write_atomically(&saved, |w| {
                w.write_all(grade.to_json().to_string().as_bytes())
            })
        });
    written.map_err(|e| CliError::io("could not write the feedback", &path, &e))
}

/// The gradebook of the grades known so far, in submission order.
fn write_gradebook(
    grades: &[Option<Grade>],
    labs: &[Lab],
    args: &GradeArgs,
) -> Result<(), CliError> {
    let known: Vec<Grade> = grades.iter().flatten().cloned().collect();
    // Columns for the lab asked for, else for the labs the submissions turned out to be.
    let graded: Vec<Lab> = labs
        .iter()
        .filter(|l| match &args.lab {
            Some(name) => &l.name == name,
            None => known
                .iter()
                .any(|g| g.lab.as_deref() == Some(l.name.as_str())),
        })
        .cloned()
        .collect();
    let csv = gradebook_csv(&known, if graded.is_empty() { labs } else { &graded });
    write_atomically(&args.out, |w| w.write_all(csv.as_bytes()))
        .map_err(|e| CliError::io("could not write the gradebook", &args.out, &e))?;
    if let Some(path) = &args.nbgrader_csv {
        write_atomically(path, |w| w.write_all(nbgrader_csv(&known).as_bytes()))
            .map_err(|e| CliError::io("could not write the nbgrader gradebook", path, &e))?;
    }
    Ok(())
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
