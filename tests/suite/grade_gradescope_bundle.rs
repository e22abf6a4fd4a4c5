//! `lab gradescope-bundle` writes the zip Gradescope's autograder takes, and its
//! `run_autograder` grades a submission as Gradescope would run it: the zip unpacked as
//! `<root>/source` (Gradescope's `/autograder/source`), the script at `<root>/run_autograder`,
//! the student's notebook in `<root>/submission/`, `BPE_LAB_AUTOGRADER_ROOT=<root>` in place
//! of `/autograder`, and the built `bpe-lab` first on the PATH (what `setup.sh` installs).
//! The submission is the sample class's hostile one (`docs/samples/submissions/dele`): it
//! crashes in `most_frequent_pair` and merges right, so `results.json` must give it the merge's
//! points only, a failed and a passed test, each visible with its output. Needs rustc and
//! bubblewrap (gated like the other sandbox tests); a few seconds.

use crate::support;

use serde_json::Value;
use std::fs;
use std::io::Read;
use std::path::Path;
use std::process::Command;
use support::cli::{assert_failure, assert_success, bpe_lab, path_str};
use support::notebooks::{read_json, root};
use support::sandbox_available;

const LAB: &str = "03-merge";

fn bundle(out: &Path) -> std::process::Output {
    bpe_lab(&[
        "lab",
        "gradescope-bundle",
        "--lab",
        LAB,
        "--sources",
        path_str(&root().join("instructor")),
        "--output",
        path_str(out),
    ])
}

/// Unpacks `zip` into `dir`, keeping each entry's Unix mode.
fn unpack(zip: &Path, dir: &Path) {
    let mut archive = zip::ZipArchive::new(fs::File::open(zip).unwrap()).unwrap();
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).unwrap();
        let path = dir.join(entry.enclosed_name().expect("names inside the bundle"));
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).unwrap();
        fs::write(&path, bytes).unwrap();
        if let Some(mode) = entry.unix_mode() {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&path, fs::Permissions::from_mode(mode & 0o777)).unwrap();
        }
    }
}

#[test]
fn an_unknown_lab_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("autograder.zip");
    let output = bpe_lab(&[
        "lab",
        "gradescope-bundle",
        "--lab",
        "99-nothing",
        "--sources",
        path_str(&root().join("instructor")),
        "--output",
        path_str(&out),
    ]);
    assert_failure(&output, 2, &["--lab", "99-nothing", LAB]);
    assert!(!out.exists());
}

#[test]
fn run_autograder_grades_a_submission_into_gradescopes_results() {
    if !sandbox_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("autograder.zip");
    assert_success(&bundle(&zip));

    // As Gradescope lays it out.
    let autograder = dir.path().join("autograder");
    let source = autograder.join("source");
    unpack(&zip, &source);
    for script in ["setup.sh", "run_autograder"] {
        assert!(
            source.join(script).is_file(),
            "{script} at the bundle's top"
        );
    }
    fs::copy(
        source.join("run_autograder"),
        autograder.join("run_autograder"),
    )
    .unwrap();
    let submission = autograder.join("submission");
    fs::create_dir_all(&submission).unwrap();
    fs::copy(
        root()
            .join("docs/samples/submissions/dele")
            .join(format!("{LAB}.ipynb")),
        submission.join(format!("{LAB}.ipynb")),
    )
    .unwrap();

    let binary = Path::new(env!("CARGO_BIN_EXE_bpe-lab"));
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![binary.parent().unwrap().to_owned()];
    dirs.extend(std::env::split_paths(&path));
    let output = Command::new(autograder.join("run_autograder"))
        .env("BPE_LAB_AUTOGRADER_ROOT", &autograder)
        .env("PATH", std::env::join_paths(dirs).unwrap())
        .output()
        .unwrap();
    assert_success(&output);

    // The lab's points, from the released notebook's check cells.
    let released = read_json(&root().join("notebooks").join(format!("{LAB}.ipynb")));
    let points = |exercise: &str| -> f64 {
        released["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["metadata"]["bpe_lab"]["exercise"] == exercise)
            .and_then(|c| c["metadata"]["bpe_lab"]["points"].as_f64())
            .unwrap()
    };
    let results: Value =
        serde_json::from_str(&fs::read_to_string(autograder.join("results/results.json")).unwrap())
            .unwrap();
    let merge = points("merge_pair_in_word");
    assert_eq!(results["score"].as_f64(), Some(merge), "{results:#}");
    let tests = results["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 2, "a test per exercise: {results:#}");
    let test = |name: &str| tests.iter().find(|t| t["name"] == name).unwrap();
    let best = test("most_frequent_pair");
    assert_eq!(best["score"].as_f64(), Some(0.0));
    assert_eq!(
        best["max_score"].as_f64(),
        Some(points("most_frequent_pair"))
    );
    assert_eq!(best["status"], "failed");
    assert!(
        best["output"].as_str().unwrap().starts_with("crashed"),
        "{best:#}"
    );
    let merged = test("merge_pair_in_word");
    assert_eq!(merged["score"].as_f64(), Some(merge));
    assert_eq!(merged["max_score"].as_f64(), Some(merge));
    assert_eq!(merged["status"], "passed");
    for t in tests {
        assert_eq!(t["visibility"], "visible");
    }
}
