//! The one output rule of the `bpe-lab` command, run on the real binary for every command that
//! writes: a regular file is replaced atomically (through a symbolic link: the link stays, its
//! target is replaced); a device, FIFO or `-` (standard output) is written through, never
//! replaced; every write is checked (a full device is an error naming the output); a closed
//! pipe ends quietly; an output that is an input is refused; `--threads` is capped at the
//! machine's cores; no panic on a path that is not UTF-8.
//!
//! The full device is a private node made with `mknod` (as /dev/full: major 1, minor 7) where
//! that is allowed (root), so a regression that replaces devices replaces a node in a temporary
//! folder, never the machine's /dev/full; elsewhere /dev/full itself, which a user who is not
//! root cannot replace anyway.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

/// Text with repeats, so that a few merges are learned.
const CORPUS: &str = "the lowest lower low\nthe newest newer new\nlow low lower lowest\n";

/// Where every command of the table runs: a temporary folder (the working directory, so a
/// file wrongly named `-` lands there) holding the corpus, a lab and a byte-level tokenizer, and
/// ids made by each.
struct Fixture {
    dir: TempDir,
}

impl Fixture {
    fn new() -> Fixture {
        let fixture = Fixture {
            dir: tempfile::tempdir().unwrap(),
        };
        fs::write(fixture.path("corpus.txt"), CORPUS).unwrap();
        for args in [
            "train --input corpus.txt --merges 8 --output lab.json",
            "train --byte-level --input corpus.txt --vocab-size 270 --output bytes.json",
        ] {
            assert_ok(&fixture.run(&words(args), Stdio::piped()));
        }
        for (tokenizer, ids) in [("lab.json", "lab.ids"), ("bytes.json", "bytes.ids")] {
            let out = fixture.run(
                &words(&format!("encode -t {tokenizer} --input corpus.txt --ids")),
                Stdio::piped(),
            );
            assert_ok(&out);
            fs::write(fixture.path(ids), &out.stdout).unwrap();
        }
        fixture
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Runs `bpe-lab args` in the fixture's folder, standard output to `stdout`, no input.
    fn run(&self, args: &[OsString], stdout: Stdio) -> Output {
        self.command(args)
            .stdout(stdout)
            .output()
            .expect("the bpe-lab binary runs")
    }

    fn command(&self, args: &[OsString]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_bpe-lab"));
        command
            .args(args)
            .current_dir(self.dir.path())
            // `dataset` reads its cache from here: nothing outside the folder is touched.
            .env("BPE_LAB_CACHE_DIR", self.dir.path().join("cache"))
            .env("BPE_LAB_OFFLINE", "1")
            .stdin(Stdio::null())
            .stderr(Stdio::piped());
        command
    }

    /// A character device that answers every write with "no space left" (ENOSPC).
    fn full_device(&self) -> PathBuf {
        let node = self.path("full");
        let made = Command::new("mknod")
            .arg(&node)
            .args(["c", "1", "7"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if made && fs::OpenOptions::new().write(true).open(&node).is_ok() {
            node
        } else {
            let _ = fs::remove_file(&node);
            PathBuf::from("/dev/full")
        }
    }
}

/// A command of the table: its arguments without the output, and how it is told where to write.
struct Case {
    name: &'static str,
    args: &'static str,
    /// The output flag; `None` for commands that print on standard output only.
    flag: Option<&'static str>,
}

/// Every command that writes, lab and byte-level.
const CASES: &[Case] = &[
    Case {
        name: "train",
        args: "train --input corpus.txt --merges 5",
        flag: Some("--output"),
    },
    Case {
        name: "train --byte-level",
        args: "train --byte-level --input corpus.txt --vocab-size 262",
        flag: Some("--output"),
    },
    Case {
        name: "encode",
        args: "encode -t lab.json --input corpus.txt --ids",
        flag: Some("--output"),
    },
    Case {
        name: "encode (byte-level)",
        args: "encode -t bytes.json --input corpus.txt --ids",
        flag: Some("--output"),
    },
    Case {
        name: "decode",
        args: "decode -t lab.json --input lab.ids",
        flag: Some("--output"),
    },
    Case {
        name: "decode (byte-level)",
        args: "decode -t bytes.json --input bytes.ids",
        flag: Some("--output"),
    },
    Case {
        name: "export",
        args: "export -t lab.json --format hf",
        flag: Some("--output"),
    },
    Case {
        name: "export (byte-level)",
        args: "export -t bytes.json --format hf",
        flag: Some("--output"),
    },
    Case {
        name: "count-tokens",
        args: "count-tokens -t bytes.json corpus.txt",
        flag: None,
    },
    Case {
        name: "count-tokens --json",
        args: "count-tokens -t bytes.json --json corpus.txt",
        flag: None,
    },
    Case {
        name: "train --json",
        args: "train --input corpus.txt --merges 5 --output summary.json --json",
        flag: None,
    },
    Case {
        name: "explain",
        args: "explain --merges 3 low lower lowest",
        flag: None,
    },
    Case {
        name: "explain --json",
        args: "explain --merges 3 --json low lower lowest",
        flag: None,
    },
    Case {
        name: "dataset",
        args: "dataset --offline",
        flag: None,
    },
];

fn words(args: &str) -> Vec<OsString> {
    args.split(' ').map(OsString::from).collect()
}

/// The case's arguments writing to `output` (`-` for standard output).
fn args_to(case: &Case, output: &OsStr) -> Vec<OsString> {
    let mut args = words(case.args);
    if let Some(flag) = case.flag {
        args.push(flag.into());
        args.push(output.to_owned());
    }
    args
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn assert_ok(out: &Output) {
    assert!(
        out.status.success(),
        "exit {:?}, stderr: {}",
        out.status.code(),
        stderr(out)
    );
}

fn assert_no_panic(name: &str, out: &Output) {
    let err = stderr(out);
    assert!(!err.contains("panicked"), "{name}: a panic: {err}");
}

fn is_char_device(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_char_device())
}

/// What the case writes to standard output with `-` (or without a flag): the reference the
/// other destinations are compared with.
fn stdout_of(fixture: &Fixture, case: &Case) -> Vec<u8> {
    let out = fixture.run(&args_to(case, OsStr::new("-")), Stdio::piped());
    assert_ok(&out);
    out.stdout
}

#[test]
fn a_full_device_is_an_error_naming_the_output_and_stays_a_device() {
    let fixture = Fixture::new();
    let device = fixture.full_device();
    let open_device = || {
        let file = fs::OpenOptions::new().write(true).open(&device).unwrap();
        Stdio::from(file)
    };
    for case in CASES {
        let mut runs = vec![(
            "standard output",
            fixture.run(&args_to(case, OsStr::new("-")), open_device()),
        )];
        if case.flag.is_some() {
            let out = fixture.run(&args_to(case, device.as_os_str()), Stdio::piped());
            runs.push(("--output", out));
        }
        for (named, out) in runs {
            let err = stderr(&out);
            assert_eq!(
                out.status.code(),
                Some(1),
                "{}: writing a full device must fail with status 1: {err}",
                case.name
            );
            assert!(
                err.contains("no space left") && err.contains(named),
                "{}: the message names {named:?} and the reason: {err}",
                case.name
            );
            assert_no_panic(case.name, &out);
            assert!(
                is_char_device(&device),
                "{}: {} is no longer a device",
                case.name,
                device.display()
            );
        }
    }
}

#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let fixture = Fixture::new();
    for case in CASES {
        let mut child = fixture
            .command(&args_to(case, OsStr::new("-")))
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before the command has written anything.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = stderr(&out);
        let ended = out.status.success() || out.status.signal() == Some(13);
        assert!(ended, "{}: status {:?}: {err}", case.name, out.status);
        assert_no_panic(case.name, &out);
        assert!(!err.contains("error"), "{}: said {err}", case.name);
    }
}

#[test]
fn dash_is_standard_output_and_a_symlink_keeps_its_place_while_its_target_is_replaced() {
    let fixture = Fixture::new();
    for case in CASES.iter().filter(|c| c.flag.is_some()) {
        let expected = stdout_of(&fixture, case);
        assert!(!expected.is_empty(), "{}: wrote nothing", case.name);
        assert!(
            !fixture.path("-").exists(),
            "{}: wrote a file named '-'",
            case.name
        );

        let target = fixture.path("target.out");
        let link = fixture.path("link.out");
        fs::write(&target, "old").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
        let _ = fs::remove_file(&link);
        std::os::unix::fs::symlink("target.out", &link).unwrap();
        let out = fixture.run(&args_to(case, OsStr::new("link.out")), Stdio::piped());
        assert_ok(&out);
        let meta = fs::symlink_metadata(&link).unwrap();
        assert!(
            meta.file_type().is_symlink(),
            "{}: the link was replaced",
            case.name
        );
        assert_eq!(
            fs::read(&target).unwrap(),
            expected,
            "{}: the target",
            case.name
        );
        let mode = fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640, "{}: the target's permissions", case.name);
        let left: Vec<_> = fs::read_dir(fixture.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert!(
            left.is_empty(),
            "{}: temporary files left: {left:?}",
            case.name
        );
    }
}

#[test]
fn an_output_that_is_an_input_is_refused_before_anything_is_written() {
    let fixture = Fixture::new();
    // (case, the input flag, the input's file): the output is a symbolic link to the input,
    // or a hard link, so only the file's identity tells them apart.
    let cases = [
        (
            "train --merges 5 --input corpus.txt",
            "--input",
            "corpus.txt",
        ),
        (
            "train --byte-level --vocab-size 262 --input corpus.txt",
            "--input",
            "corpus.txt",
        ),
        (
            "encode -t lab.json --input corpus.txt",
            "--input",
            "corpus.txt",
        ),
        (
            "encode -t bytes.json --input corpus.txt",
            "--input",
            "corpus.txt",
        ),
        (
            "encode -t lab.json --input corpus.txt",
            "--tokenizer",
            "lab.json",
        ),
        ("decode -t lab.json --input lab.ids", "--input", "lab.ids"),
        (
            "decode -t bytes.json --input bytes.ids",
            "--input",
            "bytes.ids",
        ),
        ("export -t lab.json", "--tokenizer", "lab.json"),
        ("export -t bytes.json", "--tokenizer", "bytes.json"),
    ];
    for (args, flag, input) in cases {
        let before = fs::read(fixture.path(input)).unwrap();
        for alias in ["soft.alias", "hard.alias"] {
            let alias_path = fixture.path(alias);
            let _ = fs::remove_file(&alias_path);
            if alias == "soft.alias" {
                std::os::unix::fs::symlink(input, &alias_path).unwrap();
            } else {
                fs::hard_link(fixture.path(input), &alias_path).unwrap();
            }
            let mut argv = words(args);
            argv.extend(["--output".into(), alias.into()]);
            let out = fixture.run(&argv, Stdio::piped());
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{args} -> {alias}: {err}");
            assert!(
                err.contains("--output") && err.contains(flag),
                "{args} -> {alias}: the message names both flags: {err}"
            );
            assert_eq!(
                fs::read(fixture.path(input)).unwrap(),
                before,
                "{args} -> {alias}: the input changed"
            );
        }
    }
}

#[test]
fn a_fifo_is_written_through_not_replaced() {
    let fixture = Fixture::new();
    let fifo = fixture.path("fifo");
    for case in CASES.iter().filter(|c| c.flag.is_some()) {
        let expected = stdout_of(&fixture, case);
        let _ = fs::remove_file(&fifo);
        let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success(), "mkfifo");
        // The reader is a child, so a command that never opens the FIFO cannot hang the test.
        let mut reader = Command::new("cat")
            .arg(&fifo)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let out = fixture.run(&args_to(case, fifo.as_os_str()), Stdio::piped());
        let deadline = Instant::now() + Duration::from_secs(10);
        while reader.try_wait().unwrap().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        if reader.try_wait().unwrap().is_none() {
            let _ = reader.kill();
        }
        let mut read = Vec::new();
        reader
            .stdout
            .take()
            .unwrap()
            .read_to_end(&mut read)
            .unwrap();
        let _ = reader.wait();
        assert_ok(&out);
        let kind = fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo(), "{}: the FIFO was replaced", case.name);
        assert_eq!(read, expected, "{}: what the reader got", case.name);
    }
}

#[test]
fn more_threads_than_cores_run_on_the_cores_and_say_so_once() {
    let fixture = Fixture::new();
    for args in [
        "encode -t bytes.json --input corpus.txt --ids --threads 100000",
        "encode -t lab.json --input corpus.txt --ids --threads 100000",
        "count-tokens -t bytes.json --threads 100000 corpus.txt",
    ] {
        let out = fixture.run(&words(args), Stdio::piped());
        assert_ok(&out);
        let err = stderr(&out);
        assert_eq!(
            err.matches("--threads 100000").count(),
            1,
            "{args}: the cap is said once: {err}"
        );
        assert!(!out.stdout.is_empty(), "{args}: no output");
    }
}

#[test]
fn json_summaries_name_a_non_utf8_output_path_without_panicking() {
    let fixture = Fixture::new();
    let name = OsStr::from_bytes(b"out-\xff.json");
    for args in [
        "train --input corpus.txt --merges 5 --json --output",
        "train --byte-level --input corpus.txt --vocab-size 262 --json --output",
    ] {
        let mut argv = words(args);
        argv.push(name.to_owned());
        let out = fixture.run(&argv, Stdio::piped());
        assert_ok(&out);
        assert_no_panic(args, &out);
        let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(summary["output"], "out-\u{fffd}.json", "{args}");
        assert!(fixture.dir.path().join(name).is_file(), "{args}: no file");
    }
}

#[test]
fn dash_is_standard_input_for_train() {
    let fixture = Fixture::new();
    let from_file = fs::read(fixture.path("lab.json")).unwrap();
    let mut child = fixture
        .command(&words("train --input - --merges 8 --output -"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(CORPUS.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_ok(&out);
    let parse = |b: &[u8]| serde_json::from_slice::<serde_json::Value>(b).unwrap();
    assert_eq!(parse(&out.stdout)["merges"], parse(&from_file)["merges"]);
    assert!(!fixture.path("-").exists());
}
