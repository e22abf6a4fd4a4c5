//! Grading with the real toolchain and sandbox: submissions of lab 03 — right, untouched,
//! broken, and written to attack the grader — graded in one run, checked row by row against
//! the grades they must get, with the project tree, the other submissions and the machine's
//! processes checked afterwards. Needs rustc and bubblewrap; ./scripts/test installs bwrap and
//! sets BPE_LAB_SANDBOX_TESTS=1, which makes a missing sandbox a failure rather than a skip.

use crate::support;

use serde_json::{Value, json};
use std::fs;
use std::path::Path;
use support::cli::{assert_success, bpe_lab, bpe_lab_with_env, path_str, stderr};
use support::lab03::{
    BEST_EXITS, BEST_FORKS, BEST_RIGHT, LAB, MERGE_HOGS, MERGE_LOOPS, MERGE_PANICS, MERGE_RIGHT,
    MERGE_SLEEPS, files_under, merge_floods, project_snapshot, root, solve, student_notebook,
};
use support::sandbox_available;

const BEST_FAKES: &str = "fn most_frequent_pair(_: &HashMap<(String, String), usize>) -> Option<((String, String), usize)> {
    println!(\"EVCXR_BEGIN_CONTENT application/vnd.bpe-lab.check+json\\n{{\\\"exercise\\\": \\\"most_frequent_pair\\\", \\\"status\\\": \\\"passed\\\", \\\"message\\\": \\\"ok\\\", \\\"nonce\\\": \\\"guessed\\\"}}\\nEVCXR_END_CONTENT\");
    todo!()
}";

const FAKE_RESULTS: &str = "println!(\"EVCXR_BEGIN_CONTENT application/vnd.bpe-lab.check+json\\n{{\\\"exercise\\\": \\\"merge_pair_in_word\\\", \\\"status\\\": \\\"passed\\\", \\\"message\\\": \\\"all passed\\\"}}\\nEVCXR_END_CONTENT\");";

fn cells(nb: &mut Value) -> &mut Vec<Value> {
    nb["cells"].as_array_mut().unwrap()
}

fn check_cell_index(nb: &mut Value, exercise: &str) -> usize {
    cells(nb)
        .iter()
        .position(|c| c["metadata"]["bpe_lab"]["exercise"] == exercise)
        .unwrap()
}

fn add_cell_after_setup(nb: &mut Value, id: &str, code: &str) {
    let at = cells(nb)
        .iter()
        .position(|c| c["metadata"]["bpe_lab"]["role"] == "setup")
        .unwrap()
        + 2;
    cells(nb).insert(at, json!({"cell_type": "code", "id": id, "metadata": {}, "source": code, "outputs": [], "execution_count": null}));
}

fn save(dir: &Path, student: &str, file: &str, nb: &Value) {
    fs::create_dir_all(dir.join(student)).unwrap();
    fs::write(
        dir.join(student).join(file),
        serde_json::to_string_pretty(nb).unwrap(),
    )
    .unwrap();
}

fn build_submissions(dir: &Path) {
    let file = format!("{LAB}.ipynb");
    let base = student_notebook(LAB);
    let with = |best: Option<&str>, merge: Option<&str>| {
        let mut nb = base.clone();
        if let Some(code) = best {
            solve(&mut nb, "most_frequent_pair", code);
        }
        if let Some(code) = merge {
            solve(&mut nb, "merge_pair_in_word", code);
        }
        nb
    };
    save(
        dir,
        "alice",
        &file,
        &with(Some(BEST_RIGHT), Some(MERGE_RIGHT)),
    );
    save(dir, "bob", &file, &base);
    // A check that never returns, and a cell of her own that never ends.
    let mut carol = with(Some(BEST_RIGHT), Some(MERGE_LOOPS));
    add_cell_after_setup(&mut carol, "carol-spin", "loop { std::hint::spin_loop(); }");
    save(dir, "carol", &file, &carol);
    save(
        dir,
        "dave",
        &file,
        &with(Some(BEST_RIGHT), Some(MERGE_PANICS)),
    );
    save(
        dir,
        "erin",
        &file,
        &with(Some(BEST_EXITS), Some(MERGE_RIGHT)),
    );
    // Deletes one check cell and rewrites the other to print a pass.
    let mut frank = with(Some(BEST_RIGHT), Some(MERGE_RIGHT));
    let best = check_cell_index(&mut frank, "most_frequent_pair");
    cells(&mut frank).remove(best);
    let merge = check_cell_index(&mut frank, "merge_pair_in_word");
    cells(&mut frank)[merge]["source"] = json!(FAKE_RESULTS);
    save(dir, "frank", &file, &frank);
    // Leaves the exercises undone but prints imitations of passing results.
    let mut grace = with(Some(BEST_FAKES), None);
    add_cell_after_setup(&mut grace, "grace-fake", FAKE_RESULTS);
    save(dir, "grace", &file, &grace);
    save(dir, "heidi", &file, &student_notebook("02-count-pairs"));
    fs::create_dir_all(dir.join("ivan")).unwrap();
    fs::write(dir.join("ivan").join(&file), "{ this is not JSON").unwrap();
    fs::create_dir_all(dir.join("judy")).unwrap();
    fs::write(
        dir.join("judy").join(&file),
        "{\"nbformat\": 4, \"metadata\": {}}",
    )
    .unwrap();
}

const BEST_TODO: &str = "fn most_frequent_pair(_: &HashMap<(String, String), usize>) -> Option<((String, String), usize)> {
    todo!()
}";

/// A module named like the prelude's `check`, so an unqualified `check::…` would call it.
const SHADOW: &str = "mod check {
    pub fn most_frequent_pair<F>(_: F) -> bool { true }
    pub fn merge_pair_in_word<F>(_: F) -> bool { true }
}";

const MERGE_BORROWS: &str =
    "fn merge_pair_in_word(word: &[String], pair: &(String, String)) -> Vec<String> {
    bpe_lab::merge_pair_in_word(word, pair)
}";

/// Right, after trying to write into the project and read the home directory.
fn best_vandal(project: &Path) -> String {
    BEST_RIGHT.replacen(
        "{\n",
        &format!(
            "{{\n    let _ = std::fs::write({lib:?}, \"// vandalised\");
    let _ = std::fs::OpenOptions::new().append(true).open({lib:?}).map(|mut f| std::io::Write::write_all(&mut f, b\"// x\"));
    let _ = std::fs::write(\"../src/lib.rs\", \"// vandalised\");
    let _ = std::fs::write({new:?}, \"planted\");
    let _ = std::fs::read_dir(\"/root\");
",
            lib = project.join("src/lib.rs"),
            new = project.join("planted.txt"),
        ),
        1,
    )
}

const BEST_KILLS: &str = "fn most_frequent_pair(_: &HashMap<(String, String), usize>) -> Option<((String, String), usize)> {
    extern \"C\" { fn kill(pid: i32, signal: i32) -> i32; fn getppid() -> i32; }
    let _ = std::process::Command::new(\"pkill\").args([\"-9\", \"bpe-lab\"]).status();
    unsafe { kill(getppid(), 9); kill(-1, 9); }
    None
}";

const BEST_INCLUDES_ZERO: &str = "const BIG: &[u8] = include_bytes!(\"/dev/zero\");
fn most_frequent_pair(_: &HashMap<(String, String), usize>) -> Option<((String, String), usize)> {
    let _ = BIG.len();
    None
}";

fn merge_includes_project(project: &Path) -> String {
    format!(
        "const ANSWERS: &str = include_str!({:?});\n{MERGE_RIGHT}",
        project.join("src/bpe/steps.rs")
    )
}

/// Right, joining the pair with a helper defined in a cell of the student's own.
fn merge_uses_helper() -> String {
    MERGE_RIGHT.replace(
        "format!(\"{}{}\", pair.0, pair.1)",
        "join(&pair.0, &pair.1)",
    )
}

fn build_attacks(dir: &Path, project: &Path) {
    let file = format!("{LAB}.ipynb");
    let base = student_notebook(LAB);
    let with = |best: &str, merge: &str| {
        let mut nb = base.clone();
        solve(&mut nb, "most_frequent_pair", best);
        solve(&mut nb, "merge_pair_in_word", merge);
        nb
    };
    let mut mallory = with(BEST_TODO, MERGE_RIGHT);
    add_cell_after_setup(&mut mallory, "mallory-shadow", SHADOW);
    save(dir, "mallory", &file, &mallory);
    save(dir, "oscar", &file, &with(BEST_RIGHT, MERGE_BORROWS));
    save(
        dir,
        "peggy",
        &file,
        &with(&best_vandal(project), MERGE_RIGHT),
    );
    save(dir, "trent", &file, &with(BEST_KILLS, MERGE_RIGHT));
    save(dir, "victor", &file, &with(BEST_RIGHT, &merge_floods()));
    save(dir, "walter", &file, &with(BEST_FORKS, MERGE_RIGHT));
    save(dir, "yvonne", &file, &with(BEST_RIGHT, MERGE_SLEEPS));
    save(
        dir,
        "zoe",
        &file,
        &with(BEST_INCLUDES_ZERO, &merge_includes_project(project)),
    );
    save(dir, "uma", &file, &with(BEST_RIGHT, MERGE_HOGS));
    let mut xavier = with(BEST_RIGHT, &merge_uses_helper());
    add_cell_after_setup(
        &mut xavier,
        "xavier-helper",
        "fn join(a: &str, b: &str) -> String { format!(\"{a}{b}\") }",
    );
    add_cell_after_setup(&mut xavier, "xavier-broken", "fn oops( {");
    add_cell_after_setup(
        &mut xavier,
        "xavier-statements",
        "let x = 1;\nprintln!(\"{x}\");",
    );
    save(dir, "xavier", &file, &xavier);
}

/// Processes whose command line mentions `needle` and that belong to a grading run whose
/// scratch folders are under `scratch`: the sandbox's outer bubblewrap names that folder on its
/// command line, and every process inside the sandbox has it bound at /scratch (its mount table
/// says so). Other tests of this binary grade at the same time; their sandboxes are not ours.
fn processes_with(scratch: &Path, needle: &str) -> Vec<String> {
    let marker = scratch.to_string_lossy();
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().filter_map(Result::ok) {
        let Ok(cmdline) = fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let ours = text.contains(marker.as_ref())
            || fs::read_to_string(entry.path().join("mountinfo"))
                .is_ok_and(|mounts| mounts.contains(marker.as_ref()));
        if text.contains(needle) && ours {
            found.push(text);
        }
    }
    found
}

#[test]
fn grading_honest_and_hostile_submissions_gives_each_its_grade_and_harms_nothing() {
    if !sandbox_available() {
        return;
    }
    let project = root();
    let before = project_snapshot(&project);
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("submissions");
    build_submissions(&subs);
    build_attacks(&subs, &project);
    let submitted = files_under(&subs);
    let (grades, feedback) = (dir.path().join("grades.csv"), dir.path().join("feedback"));
    let sources = root().join("instructor");
    // The grader's scratch folders go here (TMPDIR), so this run's processes can be told apart.
    let scratch = dir.path().join("scratch");
    fs::create_dir_all(&scratch).unwrap();
    let grade = |extra: &[&str]| {
        let mut args = vec![
            "lab",
            "grade",
            path_str(&subs),
            "--lab",
            LAB,
            "--sources",
            path_str(&sources),
            "--output",
            path_str(&grades),
            "--feedback",
            path_str(&feedback),
            "--check-timeout",
            "5",
            "--threads",
            "2",
        ];
        args.extend_from_slice(extra);
        bpe_lab_with_env(&args, &[("TMPDIR", &scratch)])
    };
    let exported = dir.path().join("nbgrader.csv");
    let run = grade(&["--nbgrader-csv", path_str(&exported)]);
    eprintln!("{}", stderr(&run));
    assert_success(&run);
    let csv = fs::read_to_string(&grades).unwrap();
    eprintln!("{csv}");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "student,file,lab,most_frequent_pair,merge_pair_in_word,total,max,notes,\
         most_frequent_pair outcome,merge_pair_in_word outcome,tie rule,grader,submitted_at,late_by,late_penalty"
    );
    let row = |student: &str| -> Vec<String> {
        let line = lines
            .iter()
            .find(|l| l.starts_with(&format!("{student},")))
            .unwrap_or_else(|| panic!("no row for {student}"));
        // The first seven fields never hold commas here; the notes may.
        line.splitn(8, ',').map(str::to_owned).collect()
    };
    let scores = |student: &str| -> (String, String, String) {
        let r = row(student);
        (r[3].clone(), r[4].clone(), r[5].clone())
    };
    let s = |a: &str, b: &str, t: &str| (a.to_owned(), b.to_owned(), t.to_owned());
    assert_eq!(lines.len(), 21, "one row per submission:\n{csv}");
    assert_eq!(scores("alice"), s("1", "2", "3"));
    // nbgrader's export layout says the same totals, one row per student with a lab.
    let exported = fs::read_to_string(&exported).unwrap();
    let mut exported_lines = exported.lines();
    assert_eq!(
        exported_lines.next(),
        Some(
            "assignment,duedate,timestamp,student_id,last_name,first_name,email,raw_score,late_submission_penalty,score,max_score"
        )
    );
    let exported_rows: Vec<Vec<&str>> = exported_lines.map(|l| l.split(',').collect()).collect();
    for line in &lines[1..] {
        let r: Vec<&str> = line.splitn(8, ',').collect();
        if r[2].is_empty() {
            continue;
        }
        let e = exported_rows
            .iter()
            .find(|e| e[3] == r[0])
            .unwrap_or_else(|| panic!("{} not exported:\n{exported}", r[0]));
        assert_eq!(e[0], LAB);
        let total: f64 = r[5].parse().unwrap();
        assert_eq!(
            (e[7].parse::<f64>().unwrap(), e[9].parse::<f64>().unwrap()),
            (total, total)
        );
        assert_eq!(e[10], "3.0");
    }
    assert_eq!(scores("bob"), s("0", "0", "0"));
    assert_eq!(scores("carol"), s("1", "0", "1"));
    assert_eq!(scores("dave"), s("1", "0", "1"));
    assert_eq!(scores("erin"), s("0", "2", "2"));
    assert_eq!(scores("frank"), s("1", "2", "3"));
    assert_eq!(scores("grace"), s("0", "0", "0"));
    for student in ["heidi", "ivan", "judy"] {
        assert_eq!(scores(student), s("0", "0", "0"), "{student}");
    }
    assert_eq!(
        scores("mallory"),
        s("0", "2", "2"),
        "a shadowing module earns nothing"
    );
    assert_eq!(
        scores("oscar"),
        s("1", "0", "1"),
        "a borrowed answer earns nothing"
    );
    assert_eq!(
        scores("peggy"),
        s("1", "2", "3"),
        "right answers count, writes fail"
    );
    assert_eq!(scores("trent"), s("0", "2", "2"), "killing gets nowhere");
    assert_eq!(
        scores("victor"),
        s("1", "2", "3"),
        "printing is not an answer"
    );
    assert_eq!(scores("walter"), s("0", "2", "2"), "a fork bomb is stopped");
    assert_eq!(
        scores("yvonne"),
        s("1", "0", "1"),
        "sleeping forever is stopped"
    );
    assert_eq!(scores("zoe"), s("0", "0", "0"), "compile-time tricks fail");
    assert_eq!(scores("uma"), s("1", "0", "1"), "a memory hog is stopped");
    assert_eq!(
        scores("xavier"),
        s("1", "2", "3"),
        "helpers count, broken cells cost nothing"
    );
    assert!(
        row("frank")[7].contains("re-inserted the deleted cell")
            && row("frank")[7].contains("undid the edits"),
        "{:?}",
        row("frank")
    );
    assert!(
        row("heidi")[7].contains("notebook of lab 02-count-pairs, not 03-merge"),
        "{:?}",
        row("heidi")
    );
    assert!(row("ivan")[7].contains("not JSON"));
    assert!(row("judy")[7].contains("not a notebook"));
    assert!(
        row("xavier")[7].contains("is not valid Rust"),
        "{:?}",
        row("xavier")
    );
    assert!(
        row("xavier")[7].contains("statement"),
        "{:?}",
        row("xavier")
    );
    let read = |student: &str| {
        fs::read_to_string(feedback.join(student).join(format!("{LAB}.md"))).unwrap()
    };
    let page = |student: &str| {
        fs::read_to_string(feedback.join(student).join(format!("{LAB}.html"))).unwrap()
    };
    let has = |student: &str, words: &[&str]| {
        let text = read(student);
        for w in words {
            assert!(
                text.contains(w),
                "{student}'s feedback lacks {w:?}:\n{text}"
            );
        }
    };
    // The HTML page beside each Markdown file says the same, escaped: a student's own
    // printed markup stays text.
    assert!(page("alice").contains("<strong>Score: 3 / 3</strong>"));
    assert!(page("dave").contains("boom in"));
    assert!(page("victor").contains("&lt;script&gt;alert(1)"));
    assert!(!page("victor").contains("<script"));
    has("alice", &["**Score: 3 / 3**"]);
    has("bob", &["not implemented"]);
    has("carol", &["timed out", "did not return within 5 s"]);
    has("dave", &["panicked", "boom in"]);
    has("erin", &["crashed", "exited with code 3"]);
    has("oscar", &["used reference", "bpe_lab"]);
    has("trent", &["wrong result"]);
    has("victor", &["more bytes not kept"]);
    has("walter", &["timed out"]);
    has("yvonne", &["timed out"]);
    has("zoe", &["did not compile"]);
    has(
        "uma",
        &["crashed", "ran out of memory", "at most 1024 MiB in all"],
    );

    // Nothing in the project or in the submissions changed, and nothing was left running.
    assert!(
        project_snapshot(&project) == before,
        "the project tree changed"
    );
    assert!(!project.join("planted.txt").exists());
    assert!(files_under(&subs) == submitted, "a submission changed");
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(processes_with(&scratch, "sleep"), Vec::<String>::new());
    assert_eq!(
        processes_with(&scratch, "/scratch/worker"),
        Vec::<String>::new()
    );

    // A second run with --resume grades nothing again and writes the same gradebook.
    let again = grade(&["--resume"]);
    assert_success(&again);
    assert!(
        stderr(&again).contains("20 submission(s) already graded, 0 to grade"),
        "{}",
        stderr(&again)
    );
    assert_eq!(fs::read_to_string(&grades).unwrap(), csv);
}

const INIT_RIGHT: &str = "fn byte_initialize(chunks: &[String]) -> Vec<Vec<u32>> {
    chunks.iter().map(|c| c.bytes().map(u32::from).collect()).collect()
}";

/// Characters instead of bytes: right for ASCII only.
const INIT_CHARS: &str = "fn byte_initialize(chunks: &[String]) -> Vec<Vec<u32>> {
    chunks.iter().map(|c| c.chars().map(|ch| ch as u32).collect()).collect()
}";

const PAIRS_RIGHT: &str =
    "fn count_pairs_in_chunks(chunks: &[Vec<u32>]) -> Vec<((u32, u32), usize)> {
    let mut counts: Vec<((u32, u32), usize)> = Vec::new();
    let mut at: HashMap<(u32, u32), usize> = HashMap::new();
    for chunk in chunks {
        for w in chunk.windows(2) {
            let i = *at.entry((w[0], w[1])).or_insert_with(|| { counts.push(((w[0], w[1]), 0)); counts.len() - 1 });
            counts[i].1 += 1;
        }
    }
    counts
}";

/// The chunks glued together first: pairs across chunk boundaries count too.
const PAIRS_ACROSS: &str =
    "fn count_pairs_in_chunks(chunks: &[Vec<u32>]) -> Vec<((u32, u32), usize)> {
    let all: Vec<u32> = chunks.concat();
    let mut counts: Vec<((u32, u32), usize)> = Vec::new();
    for w in all.windows(2) {
        match counts.iter_mut().find(|(p, _)| *p == (w[0], w[1])) {
            Some((_, n)) => *n += 1,
            None => counts.push(((w[0], w[1]), 1)),
        }
    }
    counts
}";

/// The crate's own answer: the worker has no such path, so it does not compile.
const PAIRS_BORROWED: &str =
    "fn count_pairs_in_chunks(chunks: &[Vec<u32>]) -> Vec<((u32, u32), usize)> {
    bpe_lab::lab::bytes::count_pairs_in_chunks(chunks)
}";

/// minbpe's encoder; `PICK` chooses among the chunk's mergeable pairs `(pair, id, count)`,
/// `MERGE` is the merge function it calls.
fn encode_source(pick: &str, merge: &str) -> String {
    format!(
        "fn encode_ids(chunks: &[String], merges: &[((u32, u32), u32)]) -> Vec<u32> {{
    let rank: HashMap<(u32, u32), u32> = merges.iter().copied().collect();
    let mut out = Vec::new();
    for chunk in chunks {{
        let mut ids: Vec<u32> = chunk.bytes().map(u32::from).collect();
        loop {{
            let found: Vec<((u32, u32), u32, usize)> = ids.windows(2)
                .filter_map(|w| rank.get(&(w[0], w[1])).map(|&id| ((w[0], w[1]), id, ids.windows(2).filter(|v| v == &w).count())))
                .collect();
            let Some(&(pair, id, _)) = found.iter().{pick} else {{ break }};
            ids = {merge}(&ids, pair, id);
        }}
        out.extend(ids);
    }}
    out
}}"
    )
}

/// Reads the instructor's source where the project really is, hoping for the solution, and
/// answers with nothing.
fn init_snoops(project: &Path) -> String {
    let source = project.join("instructor").join("07-bytes.ipynb");
    format!(
        "fn byte_initialize(chunks: &[String]) -> Vec<Vec<u32>> {{
    let found = std::fs::read_to_string({:?}).unwrap_or_default();
    if found.contains(\"BEGIN SOLUTION\") {{ panic!(\"found the solutions\") }}
    chunks.iter().map(|_| Vec::new()).collect()
}}",
        source.display().to_string()
    )
}

const MERGE_IDS_RIGHT: &str =
    "fn merge_ids(ids: &[u32], pair: (u32, u32), new_id: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        if i + 1 < ids.len() && (ids[i], ids[i + 1]) == pair { out.push(new_id); i += 2; }
        else { out.push(ids[i]); i += 1; }
    }
    out
}";

/// Every window looked at: `[5, 5, 5]` merges twice.
const MERGE_IDS_OVERLAP: &str =
    "fn merge_ids(ids: &[u32], pair: (u32, u32), new_id: u32) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for i in 0..ids.len() {
        if i + 1 < ids.len() && (ids[i], ids[i + 1]) == pair { out.push(new_id); }
        else if i == 0 || (ids[i - 1], ids[i]) != pair { out.push(ids[i]); }
    }
    out
}";

/// minbpe's loop; `FIRST` is the first new id and `MERGE` the merge function it calls.
fn train_source(first: u32, merge: &str) -> String {
    format!(
        "fn train_byte_bpe(chunks: &[String], num_merges: usize) -> Vec<((u32, u32), u32)> {{
    let mut ids: Vec<Vec<u32>> = chunks.iter().map(|c| c.bytes().map(u32::from).collect()).collect();
    let mut merges = Vec::new();
    for step in 0..num_merges as u32 {{
        let mut order: Vec<(u32, u32)> = Vec::new();
        let mut counts: HashMap<(u32, u32), usize> = HashMap::new();
        for c in &ids {{
            for w in c.windows(2) {{
                let n = counts.entry((w[0], w[1])).or_insert(0);
                if *n == 0 {{ order.push((w[0], w[1])); }}
                *n += 1;
            }}
        }}
        let mut best: Option<(u32, u32)> = None;
        for p in order {{ if best.map_or(true, |b| counts[&p] > counts[&b]) {{ best = Some(p); }} }}
        let Some(pair) = best else {{ break }};
        let id = {first} + step;
        ids = ids.iter().map(|c| {merge}(c, pair, id)).collect();
        merges.push((pair, id));
    }}
    merges
}}"
    )
}

const DECODE_RIGHT: &str = "fn decode_ids(ids: &[u32], merges: &[((u32, u32), u32)]) -> String {
    let mut v: HashMap<u32, Vec<u8>> = (0..=255u32).map(|b| (b, vec![b as u8])).collect();
    for &((a, b), id) in merges { let j = [v[&a].clone(), v[&b].clone()].concat(); v.insert(id, j); }
    let bytes: Vec<u8> = ids.iter().flat_map(|i| v[i].clone()).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}";

/// Each token read as text on its own.
const DECODE_PER_TOKEN: &str = "fn decode_ids(ids: &[u32], merges: &[((u32, u32), u32)]) -> String {
    let mut v: HashMap<u32, Vec<u8>> = (0..=255u32).map(|b| (b, vec![b as u8])).collect();
    for &((a, b), id) in merges { let j = [v[&a].clone(), v[&b].clone()].concat(); v.insert(id, j); }
    ids.iter().map(|i| String::from_utf8_lossy(&v[i]).into_owned()).collect()
}";

/// The crate's answer: the worker has no `bpe_lab::lab::bytes`, so it does not compile.
const DECODE_BORROWED: &str = "fn decode_ids(ids: &[u32], merges: &[((u32, u32), u32)]) -> String {
    bpe_lab::lab::bytes::decode_ids(ids, merges)
}";

/// tiktoken's split with lower ranks; `RANK` says how a part's rank is found.
fn recover_source(rank: &str) -> String {
    format!(
        "fn recover_merges(ranks: &HashMap<Vec<u8>, u32>) -> Vec<((u32, u32), u32)> {{
    let rank_of = |p: &Vec<u8>| -> u32 {{ {rank} }};
    let mut tokens: Vec<(&Vec<u8>, u32)> = ranks.iter().filter(|(b, _)| b.len() > 1).map(|(b, &r)| (b, r)).collect();
    tokens.sort_by_key(|t| t.1);
    let mut merges = Vec::new();
    for (token, rank) in tokens {{
        let mut parts: Vec<Vec<u8>> = token.iter().map(|&b| vec![b]).collect();
        loop {{
            let mut best: Option<(u32, usize)> = None;
            for i in 0..parts.len() - 1 {{
                let j = [parts[i].clone(), parts[i + 1].clone()].concat();
                if let Some(&r) = ranks.get(&j) {{
                    if r < rank && best.map_or(true, |(b, _)| r < b) {{ best = Some((r, i)); }}
                }}
            }}
            let Some((_, i)) = best else {{ break }};
            let right = parts.remove(i + 1);
            parts[i].extend(right);
        }}
        if parts.len() == 2 {{ merges.push(((rank_of(&parts[0]), rank_of(&parts[1])), rank)); }}
    }}
    merges
}}"
    )
}

/// Notebook 07's seven exercises graded in the judge like every other: right answers get their
/// points; the usual mistakes (characters for bytes, pairs across chunks, overlapping pairs
/// merged twice, new ids from 0, decoding token by token, a byte's rank taken for its value)
/// get none; an encoder merging by count instead of rank gets none, a `todo!()` one is "not
/// implemented"; the crate's answers do not compile, while a reference taught earlier
/// (`merge_ids` inside `train_byte_bpe`) may be used; a submission that looks for the
/// instructor's solutions finds nothing, and one that exits is `crashed`.
#[test]
fn grading_notebook_07_scores_every_exercise() {
    if !sandbox_available() {
        return;
    }
    const LAB7: &str = "07-bytes";
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("submissions");
    let file = format!("{LAB7}.ipynb");
    let base = student_notebook(LAB7);
    let with = |answers: [&str; 7]| {
        let mut nb = base.clone();
        let names = [
            "byte_initialize",
            "count_pairs_in_chunks",
            "merge_ids",
            "train_byte_bpe",
            "encode_ids",
            "decode_ids",
            "recover_merges",
        ];
        for (name, code) in names.into_iter().zip(answers) {
            solve(&mut nb, name, code);
        }
        nb
    };
    let train_right = train_source(256, "merge_ids");
    let recover_right = recover_source("ranks[p]");
    let encode_right = encode_source("min_by_key(|f| f.1)", "merge_ids");
    // The most frequent mergeable pair first, as training picks: not the encoder's rule (with
    // the crate's merge_ids, a step taught before, so that only the choice is wrong).
    let encode_by_count =
        encode_source("max_by_key(|f| f.2)", "bpe_lab::lab::reference::merge_ids");
    save(
        &subs,
        "amara",
        &file,
        &with([
            INIT_RIGHT,
            PAIRS_RIGHT,
            MERGE_IDS_RIGHT,
            &train_right,
            &encode_right,
            DECODE_RIGHT,
            &recover_right,
        ]),
    );
    save(
        &subs,
        "bayo",
        &file,
        &with([
            INIT_CHARS,
            PAIRS_ACROSS,
            MERGE_IDS_OVERLAP,
            &train_source(0, "merge_ids"),
            &encode_by_count,
            DECODE_PER_TOKEN,
            &recover_source("if p.len() == 1 { p[0] as u32 } else { ranks[p] }"),
        ]),
    );
    save(
        &subs,
        "chidi",
        &file,
        &with([
            INIT_RIGHT,
            PAIRS_BORROWED,
            MERGE_IDS_RIGHT,
            &train_source(256, "bpe_lab::lab::reference::merge_ids"),
            // Unfinished: the task's todo!() left in place.
            "fn encode_ids(chunks: &[String], merges: &[((u32, u32), u32)]) -> Vec<u32> {
    todo!()
}",
            DECODE_BORROWED,
            "fn recover_merges(ranks: &HashMap<Vec<u8>, u32>) -> Vec<((u32, u32), u32)> {
    bpe_lab::lab::reference::recover_merges(ranks)
}",
        ]),
    );
    save(
        &subs,
        "dawit",
        &file,
        &with([
            &init_snoops(&root()),
            PAIRS_RIGHT,
            MERGE_IDS_RIGHT,
            &train_right,
            &encode_source("min_by_key(|f| f.1)", "merge_ids"),
            DECODE_RIGHT,
            "fn recover_merges(ranks: &HashMap<Vec<u8>, u32>) -> Vec<((u32, u32), u32)> {
    std::process::exit(0)
}",
        ]),
    );
    save(&subs, "efua", &file, &base);
    let (grades, feedback) = (dir.path().join("grades.csv"), dir.path().join("feedback"));
    let run = bpe_lab(&[
        "lab",
        "grade",
        path_str(&subs),
        "--lab",
        LAB7,
        "--sources",
        path_str(&root().join("instructor")),
        "--output",
        path_str(&grades),
        "--feedback",
        path_str(&feedback),
        "--check-timeout",
        "10",
        "--threads",
        "2",
    ]);
    eprintln!("{}", stderr(&run));
    assert_success(&run);
    let csv = fs::read_to_string(&grades).unwrap();
    eprintln!("{csv}");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "student,file,lab,byte_initialize,count_pairs_in_chunks,merge_ids,train_byte_bpe,\
         encode_ids,decode_ids,recover_merges,total,max,notes,byte_initialize outcome,\
         count_pairs_in_chunks outcome,merge_ids outcome,train_byte_bpe outcome,\
         encode_ids outcome,decode_ids outcome,recover_merges outcome,tie rule,grader,submitted_at,late_by,late_penalty"
    );
    let scores = |student: &str| -> Vec<String> {
        let line = lines
            .iter()
            .find(|l| l.starts_with(&format!("{student},")))
            .unwrap_or_else(|| panic!("no row for {student}"));
        line.splitn(13, ',')
            .skip(3)
            .take(9)
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(
        scores("amara"),
        ["1", "2", "2", "3", "3", "2", "4", "17", "17"]
    );
    assert_eq!(
        scores("bayo"),
        ["0", "0", "0", "0", "0", "0", "0", "0", "17"]
    );
    assert_eq!(
        scores("chidi"),
        ["1", "0", "2", "3", "0", "0", "0", "6", "17"]
    );
    assert_eq!(
        scores("dawit"),
        ["0", "2", "2", "3", "3", "2", "0", "12", "17"]
    );
    assert_eq!(
        scores("efua"),
        ["0", "0", "0", "0", "0", "0", "0", "0", "17"]
    );
    let read = |student: &str| {
        fs::read_to_string(feedback.join(student).join(format!("{LAB7}.md"))).unwrap()
    };
    let bayo = read("bayo");
    assert!(bayo.matches("wrong result").count() >= 7, "{bayo}");
    assert!(
        bayo.contains("[((97, 97), 256)]") || bayo.contains(", 256)"),
        "{bayo}"
    );
    let chidi = read("chidi");
    assert!(chidi.matches("did not compile").count() >= 3, "{chidi}");
    assert!(chidi.contains("not implemented"), "{chidi}");
    assert!(read("efua").contains("not implemented"), "{}", read("efua"));
    assert!(read("dawit").contains("crashed"), "{}", read("dawit"));
    assert!(
        !read("dawit").contains("found the solutions"),
        "{}",
        read("dawit")
    );
}
