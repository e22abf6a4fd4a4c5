//! Checks under nbgrader: with NBGRADER_EXECUTION=autograde or validate, a check that did not
//! pass shows its result and then ends the process with an error (what nbgrader scores as 0 in
//! an evcxr kernel); a passing one, or any check outside nbgrader, returns normally. Each case
//! runs this test binary again as a child process, as the kernel's code process would be.

use bpe_lab::lab::check;
use std::process::Command;

const CHILD: &str = "BPE_LAB_NBGRADER_CHILD";

fn right(word: &[String], pair: &(String, String)) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < word.len() {
        if i + 1 < word.len() && word[i] == pair.0 && word[i + 1] == pair.1 {
            out.push(format!("{}{}", pair.0, pair.1));
            i += 2;
        } else {
            out.push(word[i].clone());
            i += 1;
        }
    }
    out
}

fn unchanged(word: &[String], _: &(String, String)) -> Vec<String> {
    word.to_vec()
}

/// Runs the check named by the child variable, then prints that the cell went on.
fn child(which: &str) {
    let result = match which {
        "right" => check::merge_pair_in_word(right),
        _ => check::merge_pair_in_word(unchanged),
    };
    println!("cell went on after {}", result.status.as_str());
}

fn run(which: &str, nbgrader: Option<&str>) -> (Option<i32>, String) {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args([
            "--exact",
            &crate::support::alone::test_name(
                module_path!(),
                "checks_end_the_cell_only_under_nbgrader",
            ),
            "--nocapture",
        ])
        .env(CHILD, which)
        .env_remove(check::nbgrader::EXECUTION_ENV);
    if let Some(mode) = nbgrader {
        command.env(check::nbgrader::EXECUTION_ENV, mode);
    }
    let out = command.output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn checks_end_the_cell_only_under_nbgrader() {
    if let Ok(which) = std::env::var(CHILD) {
        child(&which);
        return;
    }
    for mode in ["autograde", "validate"] {
        let (code, out) = run("wrong", Some(mode));
        assert_eq!(code, Some(check::nbgrader::FAILED_EXIT), "{mode}: {out}");
        // The result was shown before the cell ended, and nothing after it ran.
        assert!(out.contains("❌ merge_pair_in_word"), "{mode}: {out}");
        assert!(!out.contains("cell went on"), "{mode}: {out}");

        let (code, out) = run("right", Some(mode));
        assert_eq!(code, Some(0), "{mode}: {out}");
        assert!(out.contains("cell went on after passed"), "{mode}: {out}");
    }
    // Outside nbgrader (and for values nbgrader does not use) a failing check is only shown.
    for mode in [None, Some("1")] {
        let (code, out) = run("wrong", mode);
        assert_eq!(code, Some(0), "{mode:?}: {out}");
        assert!(out.contains("cell went on after failed"), "{mode:?}: {out}");
    }
}
