//! The doctor's findings about grading: a sandbox that really starts, the kind of kernel
//! installed, and the tie rule the checks and the grader go by. Kept apart from the kernel's
//! findings ([`super::doctor`]) because an instructor's machine needs them and a student's
//! does not need to read them.

use super::doctor::Finding;
use super::process::sandbox::Sandbox;
use bpe_lab::TieBreak;
use bpe_lab::lab::parity::{TIE_BREAK_ENV, tie_break_setting};
use std::path::Path;
use std::process::Command;

/// Bubblewrap present and a sandbox started (the grader's own probe, the same that `lab grade`
/// runs first, so the doctor cannot say "ready" where grading would refuse to start).
pub(crate) fn sandbox_finding() -> Finding {
    let what = "sandbox for grading (bubblewrap)";
    match Sandbox::detect(false) {
        Ok(_) => Finding {
            what,
            ok: true,
            detail: "a sandbox started and ran a program".to_owned(),
            fix: None,
        },
        Err(e) => Finding {
            what,
            ok: false,
            detail: e.to_string(),
            fix: Some(
                "apt-get install bubblewrap   (as root; ./scripts/lab setup does it), then \
                 `bpe-lab lab doctor` again"
                    .to_owned(),
            ),
        },
    }
}

/// The tie rule in force, or the setting that names none.
pub(crate) fn tie_rule_finding() -> Finding {
    let what = "tie rule";
    match tie_break_setting() {
        Ok(rule) => Finding {
            what,
            ok: true,
            detail: format!(
                "{} ({}); students' kernels and the grader must be started with the same \
                 {TIE_BREAK_ENV}",
                rule.name(),
                match rule {
                    TieBreak::Lexicographic => "the smallest pair wins, this series' rule",
                    TieBreak::FirstSeen => "the pair seen first wins, as in the Python lab",
                }
            ),
            fix: None,
        },
        Err(wrong) => Finding {
            what,
            ok: false,
            detail: wrong.to_string(),
            fix: Some(format!(
                "export {TIE_BREAK_ENV}=first-seen   (or lexicographic, or unset it)"
            )),
        },
    }
}

/// Which kind of the lab's kernel is installed, as `scripts/lib/kernel.sh` tells it (the one
/// home of that rule): "full" (types of untyped `let`s inferred), "quick" (not yet: its
/// background build is still to come), or neither.
pub(crate) fn kernel_kind_finding(repository: &Path) -> Finding {
    let what = "kernel kind";
    let script = repository.join("scripts/lib/kernel.sh");
    if !script.is_file() {
        return Finding {
            what,
            ok: true,
            detail: format!(
                "not checked: {} not found (run the doctor from the repository)",
                script.display()
            ),
            fix: None,
        };
    }
    let kind = Command::new("bash")
        .arg("-c")
        .arg("source \"$1\" && kernel_installed_kind")
        .arg("bash")
        .arg(&script)
        .current_dir(repository)
        .output();
    let kind = match kind {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim().to_owned(),
        Ok(out) => format!("unknown ({})", String::from_utf8_lossy(&out.stderr).trim()),
        Err(e) => format!("unknown (bash: {e})"),
    };
    match kind.as_str() {
        "full" => Finding {
            what,
            ok: true,
            detail: "full (the lab's evcxr with its analyser)".to_owned(),
            fix: None,
        },
        "quick" => Finding {
            what,
            ok: true,
            detail: "quick (the lab's evcxr without its analyser: every notebook runs; a `let` \
                     without a type is not inferred until the full kind is installed)"
                .to_owned(),
            fix: None,
        },
        other => Finding {
            what,
            ok: false,
            detail: if other.is_empty() {
                "not the lab's evcxr (none, stock evcxr, or a build of other patches)".to_owned()
            } else {
                other.to_owned()
            },
            fix: Some("./scripts/lab setup".to_owned()),
        },
    }
}
