//! A correct notebook gets full marks whichever Jupyter saved it: the sample class's right
//! answer (`docs/samples/submissions/amara`), reshaped as JupyterLab, Notebook 6, nbformat's
//! upgrade, VS Code and Colab save a notebook (and with its cell metadata stripped), is graded
//! by the real judge in the sandbox like the file it came from. And a re-release that fixes a
//! typo in a protected cell accuses no student of undoing it. The reshaping helpers below are
//! what each Jupyter is known to do to a file; the grader's own code is not used to make them.
//! Needs rustc and bubblewrap (gated like the other sandbox tests); about a second a test.

use crate::support;

use serde_json::{Value, json};
use std::fs;
use std::path::Path;
use support::cli::{assert_success, bpe_lab, path_str, stderr};
use support::notebooks::{read_json, root};
use support::sandbox_available;

const LAB: &str = "03-merge";

/// The sample class's right answer, as JupyterLab 4 saved it.
fn correct() -> Value {
    read_json(
        &root()
            .join("docs/samples/submissions/amara")
            .join(format!("{LAB}.ipynb")),
    )
}

fn cells(nb: &mut Value) -> &mut Vec<Value> {
    nb["cells"].as_array_mut().unwrap()
}

/// A fresh id the way Jupyter makes them (random hex), different for every cell and run.
fn random_id(n: usize, length: usize) -> String {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as usize;
    let mut x = (seed ^ (n.wrapping_mul(0x9e37_79b9))).wrapping_mul(0x2545_f491) | 1;
    (0..length)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            char::from_digit((x % 16) as u32, 16).unwrap()
        })
        .collect()
}

/// Notebook 6 (nbformat 4.4): no cell ids at all.
pub(crate) fn notebook6(mut nb: Value) -> Value {
    nb["nbformat_minor"] = json!(4);
    for cell in cells(&mut nb) {
        cell.as_object_mut().unwrap().remove("id");
    }
    nb
}

/// nbformat's upgrade of a 4.4 file to 4.5: every cell gets a new random id.
pub(crate) fn upgraded(nb: Value) -> Value {
    let mut nb = notebook6(nb);
    nb["nbformat_minor"] = json!(5);
    for (i, cell) in cells(&mut nb).iter_mut().enumerate() {
        cell["id"] = json!(random_id(i, 8));
    }
    nb
}

/// VS Code: new ids, its own cell and notebook metadata beside the rest.
pub(crate) fn vscode(mut nb: Value) -> Value {
    for (i, cell) in cells(&mut nb).iter_mut().enumerate() {
        cell["id"] = json!(random_id(i, 32));
        cell["metadata"]["vscode"] = json!({"languageId": "rust"});
    }
    nb["metadata"]["vscode"] = json!({"interpreter": {"hash": random_id(99, 64)}});
    nb
}

/// Colab: the notebook's metadata replaced by its own (the lab's gone), nbformat 4.0 with the
/// cell ids moved into each cell's metadata, and a `colab` entry on every cell.
pub(crate) fn colab(mut nb: Value) -> Value {
    nb["metadata"] = json!({
        "colab": {"provenance": [], "name": format!("Copy of {LAB}.ipynb")},
        "kernelspec": {"name": "rust", "display_name": "Rust"},
        "accelerator": "GPU"
    });
    nb["nbformat_minor"] = json!(0);
    for (i, cell) in cells(&mut nb).iter_mut().enumerate() {
        cell.as_object_mut().unwrap().remove("id");
        cell["metadata"]["id"] = json!(random_id(i, 12));
        cell["metadata"]["colab"] = json!({"base_uri": "https://localhost:8080/"});
    }
    nb
}

/// A tool that strips all metadata (and makes new ids): only the cells' content is left.
fn stripped(mut nb: Value) -> Value {
    nb["metadata"] = json!({});
    for (i, cell) in cells(&mut nb).iter_mut().enumerate() {
        cell["metadata"] = json!({});
        cell["id"] = json!(random_id(i, 8));
    }
    nb
}

/// A graded run: the gradebook row (student, file, lab, best, merge, total, max, notes) and
/// the student's feedback.
struct Graded {
    row: Vec<String>,
    feedback: String,
}

/// Grades `nb`, saved as `submissions/<student>/<file>`, against the lab in `sources` (the
/// repository's instructor/ when `None`), with `--lab` when `lab` says.
fn grade(nb: &Value, file: &str, lab: Option<&str>, sources: Option<&Path>) -> Graded {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("submissions");
    fs::create_dir_all(subs.join("kim")).unwrap();
    fs::write(
        subs.join("kim").join(file),
        serde_json::to_string_pretty(nb).unwrap(),
    )
    .unwrap();
    let (grades, feedback) = (dir.path().join("grades.csv"), dir.path().join("feedback"));
    let sources = sources.map_or_else(|| root().join("instructor"), Path::to_owned);
    let mut args = vec![
        "lab",
        "grade",
        path_str(&subs),
        "--sources",
        path_str(&sources),
        "--output",
        path_str(&grades),
        "--feedback",
        path_str(&feedback),
    ];
    if let Some(lab) = lab {
        args.extend(["--lab", lab]);
    }
    let run = bpe_lab(&args);
    assert_success(&run);
    let csv = fs::read_to_string(&grades).unwrap();
    let line = csv
        .lines()
        .find(|l| l.starts_with("kim,"))
        .unwrap_or_else(|| panic!("no row for kim:\n{csv}\n{}", stderr(&run)));
    let row: Vec<String> = line.splitn(8, ',').map(str::to_owned).collect();
    let feedback = fs::read_to_string(feedback.join("kim").join(format!("{LAB}.md")))
        .unwrap_or_else(|e| panic!("no feedback ({e}); row {row:?}"));
    Graded { row, feedback }
}

/// Full marks, the lab found, and no restoring note of any kind.
fn assert_full_marks(graded: &Graded) {
    let r = &graded.row;
    assert_eq!(
        (&r[2][..], &r[3][..], &r[4][..], &r[5][..], &r[6][..]),
        (LAB, "1", "2", "3", "3"),
        "{r:?}\n{}",
        graded.feedback
    );
    for word in ["re-inserted", "undid", "put back", "none of the labs"] {
        assert!(
            !graded.feedback.contains(word),
            "{word}:\n{}",
            graded.feedback
        );
    }
}

#[test]
fn as_jupyterlab_saved_it_a_correct_notebook_gets_full_marks() {
    if !sandbox_available() {
        return;
    }
    let graded = grade(&correct(), &format!("{LAB}.ipynb"), None, None);
    assert_full_marks(&graded);
    assert!(!graded.feedback.contains("recognised by their content"));
}

#[test]
fn saved_by_notebook_6_without_cell_ids_it_gets_full_marks() {
    if !sandbox_available() {
        return;
    }
    let nb = notebook6(correct());
    assert!(nb["cells"][0].get("id").is_none());
    assert_full_marks(&grade(&nb, &format!("{LAB}.ipynb"), Some(LAB), None));
}

#[test]
fn with_ids_made_anew_by_nbformats_upgrade_it_gets_full_marks() {
    if !sandbox_available() {
        return;
    }
    let nb = upgraded(correct());
    assert_ne!(nb["cells"][0]["id"], correct()["cells"][0]["id"]);
    assert_full_marks(&grade(&nb, &format!("{LAB}.ipynb"), Some(LAB), None));
}

#[test]
fn saved_by_vs_code_it_gets_full_marks() {
    if !sandbox_available() {
        return;
    }
    assert_full_marks(&grade(
        &vscode(correct()),
        &format!("{LAB}.ipynb"),
        Some(LAB),
        None,
    ));
}

#[test]
fn saved_by_colab_it_gets_full_marks_with_lab_and_named_as_colab_names_it() {
    if !sandbox_available() {
        return;
    }
    let nb = colab(correct());
    assert!(nb["metadata"].get("bpe_lab").is_none());
    assert_full_marks(&grade(&nb, &format!("{LAB}.ipynb"), Some(LAB), None));
    // Colab's download is "Copy of 03-merge.ipynb": the cells say which lab it is.
    assert_full_marks(&grade(&nb, &format!("Copy of {LAB}.ipynb"), None, None));
}

#[test]
fn with_its_metadata_stripped_it_gets_full_marks_and_the_feedback_says_how() {
    if !sandbox_available() {
        return;
    }
    let graded = grade(
        &stripped(correct()),
        &format!("Copy of {LAB}.ipynb"),
        None,
        None,
    );
    assert_full_marks(&graded);
    assert!(
        graded.feedback.contains("recognised by their content"),
        "{}",
        graded.feedback
    );
}

/// Releases the repository's lab 03 from a copy of its source in `sources` (with `title` as
/// its first cell), into `out`.
fn release_lab03(sources: &Path, out: &Path, title: Option<&str>) {
    let mut source = read_json(&root().join("instructor").join(format!("{LAB}.ipynb")));
    if let Some(title) = title {
        cells(&mut source)[0]["source"] = json!(title);
    }
    fs::create_dir_all(sources).unwrap();
    fs::write(
        sources.join(format!("{LAB}.ipynb")),
        serde_json::to_string_pretty(&source).unwrap(),
    )
    .unwrap();
    let run = bpe_lab(&[
        "lab",
        "release",
        "--sources",
        path_str(sources),
        "--output",
        path_str(out),
    ]);
    assert_success(&run);
}

/// The released notebook in `out` answered with the sample's right answers.
fn answered(out: &Path) -> Value {
    let mut nb = read_json(&out.join(format!("{LAB}.ipynb")));
    let right = correct();
    let answers: Vec<Value> = right["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["metadata"]["nbgrader"]["solution"] == true)
        .cloned()
        .collect();
    let mut answers = answers.into_iter();
    for cell in cells(&mut nb) {
        if cell["metadata"]["nbgrader"]["solution"] == true {
            cell["source"] = answers.next().unwrap()["source"].clone();
        }
    }
    nb
}

/// The instructor fixes a typo in the title after the class got the notebook and releases
/// again: a student of the first release who left the title alone is accused of nothing (also
/// when Colab dropped the release's name from the notebook); one who edited it still is.
#[test]
fn after_a_re_release_fixing_a_typo_an_untouched_submission_is_accused_of_nothing() {
    if !sandbox_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (sources, out) = (dir.path().join("instructor"), dir.path().join("notebooks"));
    release_lab03(&sources, &out, Some("# 03 · Chosing and merging a pair\n"));
    let first = answered(&out);
    release_lab03(&sources, &out, Some("# 03 · Choosing and merging a pair\n"));
    // Both releases are kept beside the sources, and the student versions name theirs.
    let kept = fs::read_dir(sources.join("releases").join(LAB))
        .unwrap()
        .count();
    assert_eq!(kept, 2, "one record per release");
    let second = read_json(&out.join(format!("{LAB}.ipynb")));
    assert_ne!(
        first["metadata"]["bpe_lab"]["release"],
        second["metadata"]["bpe_lab"]["release"]
    );

    let file = format!("{LAB}.ipynb");
    let graded = grade(&first, &file, None, Some(&sources));
    assert_full_marks(&graded);
    assert_full_marks(&grade(
        &colab(first.clone()),
        &file,
        Some(LAB),
        Some(&sources),
    ));

    let mut edited = first.clone();
    cells(&mut edited)[0]["source"] = json!("# 03 · my own title\n");
    let graded = grade(&edited, &file, None, Some(&sources));
    assert!(
        graded.feedback.contains(&format!(
            "undid the edits to the protected cell \"{}\"",
            "03-title"
        )),
        "{}",
        graded.feedback
    );
    assert_eq!(graded.row[5], "3", "the edit is undone, not punished");
}
