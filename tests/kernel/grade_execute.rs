//! `lab grade --execute` with the real kernel in the sandbox: a submission whose cells try to
//! change the project, read the solutions and poison evcxr's compile cache, and one that
//! kills every process it can see. Both keep the judge's grade, the first gets its executed
//! notebook showing each attempt failed (or landing in its private copy), and the project,
//! the instructor's evcxr cache (nothing in it written by a sandbox) and the machine's
//! processes are as before. Needs the kernel
//! (./scripts/test sets BPE_LAB_KERNEL_TESTS=1 after scripts/lab setup) and bubblewrap.

use crate::support;

use serde_json::{Value, json};
use std::fs;
use std::path::{Path, PathBuf};
use support::cli::{assert_success, bpe_lab, path_str};
use support::notebooks::{instructor_cell, read_json, root};

const LAB: &str = "03-merge";

/// The student notebook with the instructor's solutions in its solution cells and `extra`
/// as a cell of its own right after the setup cell.
fn submission(extra: &str) -> Value {
    let mut nb = read_json(&root().join("notebooks").join(format!("{LAB}.ipynb")));
    let cells = nb["cells"].as_array_mut().unwrap();
    for cell in cells.iter_mut() {
        if cell["metadata"]["nbgrader"]["solution"] == true {
            cell["source"] = json!(instructor_cell(LAB, cell["id"].as_str().unwrap()));
        }
    }
    let setup = cells
        .iter()
        .position(|c| c["metadata"]["bpe_lab"]["role"] == "setup")
        .unwrap();
    cells.insert(
        setup + 1,
        json!({"cell_type": "code", "id": "added", "metadata": {}, "source": extra,
               "outputs": [], "execution_count": null}),
    );
    nb
}

/// Every file under `dir` written by a sandbox's own user (2,000,000,000 and up).
fn written_by_sandboxes(dir: &Path) -> Vec<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let meta = entry.metadata().unwrap();
            if meta.uid() >= 2_000_000_000 {
                out.push(entry.path());
            }
            if meta.is_dir() {
                stack.push(entry.path());
            }
        }
    }
    out.sort();
    out
}

/// Processes of the sandboxes' own users (2,000,000,000 and up, when grading as root).
fn sandbox_processes() -> Vec<String> {
    let ps = std::process::Command::new("ps")
        .args(["-e", "-o", "uid=,pid=,args="])
        .output()
        .unwrap();
    String::from_utf8_lossy(&ps.stdout)
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .and_then(|u| u.parse::<u64>().ok())
                .is_some_and(|u| u >= 2_000_000_000)
        })
        .map(str::to_owned)
        .collect()
}

#[test]
fn executed_notebooks_run_in_the_sandbox_and_harm_nothing() {
    if std::env::var_os("BPE_LAB_KERNEL_TESTS").is_none() {
        eprintln!(
            "skipped: set BPE_LAB_KERNEL_TESTS=1 (./scripts/test does) to start real kernels"
        );
        return;
    }
    let cache = PathBuf::from(std::env::var("HOME").unwrap()).join(".cache/evcxr");
    let watched = [
        root().join("src/lib.rs"),
        root().join("instructor").join(format!("{LAB}.ipynb")),
    ];
    let before: Vec<Vec<u8>> = watched.iter().map(|p| fs::read(p).unwrap()).collect();

    let dir = tempfile::tempdir().unwrap();
    let submissions = dir.path().join("submissions");
    let peggy = "let project = std::fs::write(\"../src/lib.rs\", \"// changed\").is_ok();
let solutions = std::fs::read_to_string(\"../instructor/03-merge.ipynb\").is_ok();
let cache = std::fs::write(format!(\"{}/evcxr/poison\", std::env::var(\"XDG_CACHE_HOME\").unwrap()), \"x\").is_ok();
let seen = std::path::Path::new(\"ROOT/instructor\").exists();
println!(\"project written: {project}; solutions read: {solutions}; cache written: {cache}; project seen: {seen}\");";
    let peggy = peggy.replace("ROOT", path_str(&root()));
    let trent = "let _ = std::process::Command::new(\"kill\").args([\"-9\", \"-1\"]).status();";
    for (student, extra) in [("peggy", peggy.as_str()), ("trent", trent)] {
        let folder = submissions.join(student);
        fs::create_dir_all(&folder).unwrap();
        fs::write(
            folder.join(format!("{LAB}.ipynb")),
            serde_json::to_string(&submission(extra)).unwrap(),
        )
        .unwrap();
    }
    let gradebook = dir.path().join("grades.csv");
    let feedback = dir.path().join("feedback");
    let run = bpe_lab(&[
        "lab",
        "grade",
        path_str(&submissions),
        "--lab",
        LAB,
        "--output",
        path_str(&gradebook),
        "--feedback",
        path_str(&feedback),
        "--sources",
        path_str(&root().join("instructor")),
        "--execute",
        "--threads",
        "2",
    ]);
    assert_success(&run);

    let csv = fs::read_to_string(&gradebook).unwrap();
    let row = |student: &str| {
        csv.lines()
            .find(|l| l.starts_with(&format!("{student},")))
            .unwrap_or_else(|| panic!("no row for {student}:\n{csv}"))
            .to_owned()
    };
    // The judge's grades, whatever the executed notebooks did.
    assert!(
        row("peggy").contains(",03-merge,1,2,3,3,"),
        "{}",
        row("peggy")
    );
    assert!(
        row("trent").contains(",03-merge,1,2,3,3,"),
        "{}",
        row("trent")
    );

    let executed = fs::read_to_string(feedback.join("peggy").join(format!("{LAB}.executed.ipynb")))
        .expect("peggy's executed notebook");
    assert!(
        executed.contains(
            "project written: false; solutions read: false; cache written: true; project seen: false"
        ),
        "{}",
        &executed[..executed.len().min(4000)]
    );
    // The check cells ran the instructor's solutions to ✅ in the sandbox too.
    assert!(executed.contains("application/vnd.bpe-lab.check+json"));
    assert!(!executed.contains("\\\"status\\\": \\\"failed\\\""));
    assert!(
        row("peggy").contains("executed notebook: "),
        "{}",
        row("peggy")
    );
    assert!(
        row("trent").contains("not executed") || row("trent").contains("stopped"),
        "{}",
        row("trent")
    );

    let after: Vec<Vec<u8>> = watched.iter().map(|p| fs::read(p).unwrap()).collect();
    assert!(before == after, "a project file changed");
    assert!(!cache.join("poison").exists());
    // Other kernels may use the instructor's cache meanwhile; none of the sandboxes did.
    assert_eq!(written_by_sandboxes(&cache), Vec::<PathBuf>::new());
    assert_eq!(sandbox_processes(), Vec::<String>::new());
}
