//! A student's feedback on one graded submission, written twice from one outline: Markdown
//! (read in a terminal, a repository or an LMS that renders it) and a self-contained HTML
//! page (opened in a browser, with the failing cases in monospace and no renderer needed).
//! Building the outline once keeps the two from saying different things.

use super::gradebook::number;
use super::note::Whose;
use super::record::{ExerciseGrade, Grade, Outcome};
use super::submission::stem;
use crate::course::graded_exercise::GradedExercise;
use crate::course::judge::Details;
use bpe_lab::lab::display::escape;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Inline text: plain, code or emphasised.
enum Span {
    Text(String),
    Code(String),
    Strong(String),
}

/// One block of the outline.
enum Block {
    Title(Vec<Span>),
    Heading(Vec<Span>),
    Subheading(Vec<Span>),
    Paragraph(Vec<Span>),
    /// A header row, then rows of cells.
    Table(Vec<&'static str>, Vec<Vec<Vec<Span>>>),
    /// Monospace text kept as is (failing inputs, compiler messages, captured output).
    Preformatted(String),
    List(Vec<String>),
}

fn text(s: impl Into<String>) -> Span {
    Span::Text(s.into())
}

fn code(s: impl Into<String>) -> Span {
    Span::Code(s.into())
}

fn verdict_words(e: &ExerciseGrade) -> String {
    e.verdict.as_str().replace('_', " ")
}

/// What the student reads where the grader's own trouble left something not graded.
/// The page of a roster student who handed nothing in: `<feedback>/<student>/no-submission.md`.
pub(crate) const NO_SUBMISSION_PAGE: &str = "no-submission";

const GRADERS_TROUBLE: &str = "This is trouble on the grader's side, not a problem with your \
     work: it is not counted against you, and it will be graded again.";

/// The feedback in reading order: the score, what could not be graded, the results table,
/// each failure, what the code printed, the grader's notes.
fn outline(g: &Grade) -> Vec<Block> {
    let parts = g.not_graded_parts();
    // Exercises the grader's own trouble left not graded: said so, never blamed on the code.
    let troubled: Vec<GradedExercise> = parts
        .iter()
        .filter(|p| p.whose == Whose::Grader)
        .filter_map(|p| p.exercise.clone())
        .collect();
    let unfinished = parts.iter().any(|p| p.whose == Whose::Grader);
    let mut blocks = header(g, unfinished);
    blocks.extend(adjustments(g));
    blocks.extend(lateness(g));
    for p in parts
        .iter()
        .filter(|p| p.whose == Whose::Grader && p.exercise.is_none())
    {
        blocks.push(Block::Paragraph(vec![text(format!(
            "Not graded: {}. {GRADERS_TROUBLE}",
            p.reason
        ))]));
    }
    if !g.exercises.is_empty() {
        blocks.push(results_table(g, &troubled));
    }
    for e in g.exercises.iter().filter(|e| !e.verdict.passed()) {
        blocks.extend(failure(e, troubled.contains(&e.exercise)));
    }
    for e in g.exercises.iter().filter(|e| !e.printed.is_empty()) {
        blocks.push(Block::Subheading(vec![
            text("What your code printed while "),
            code(e.exercise.name()),
            text(" was checked"),
        ]));
        blocks.push(Block::Preformatted(e.printed.clone()));
    }
    if !g.notes.is_empty() {
        blocks.push(Block::Heading(vec![text("Notes from the grader")]));
        blocks.push(Block::List(g.notes.iter().map(|n| n.to_string()).collect()));
    }
    if let Some(setup) = &g.setup {
        blocks.push(Block::Paragraph(vec![text(format!(
            "Graded by bpe-lab {} with the tie rule {} ({}).",
            setup.grader,
            setup.tie_rule,
            tie_rule_words(&setup.tie_rule)
        ))]));
    }
    blocks
}

/// What a tie rule's name means, for students who did not choose it.
fn tie_rule_words(name: &str) -> &'static str {
    match name {
        "first-seen" => "of equally frequent pairs, the one seen first wins, as in the Python lab",
        _ => "of equally frequent pairs, the smallest wins",
    }
}

/// The instructor's adjustments, each with its reason, right under the score they changed.
fn adjustments(g: &Grade) -> Vec<Block> {
    if g.adjustments.is_empty() {
        return Vec::new();
    }
    vec![
        Block::Heading(vec![text("Adjusted by your instructor")]),
        Block::List(g.adjustments.iter().map(|a| a.to_string()).collect()),
    ]
}

/// How late the submission was and what the late policy took, under the score it changed; or
/// that its time was unknown and nothing was taken.
fn lateness(g: &Grade) -> Vec<Block> {
    match g.lateness.as_ref().and_then(|l| l.line(g.late_penalty)) {
        Some(line) => vec![Block::Paragraph(vec![text(format!("Late: {line}."))])],
        None => Vec::new(),
    }
}

/// The title and the score, which says when it is not final yet.
fn header(g: &Grade, unfinished: bool) -> Vec<Block> {
    if g.outcome() == Outcome::NoSubmission {
        return vec![
            Block::Title(vec![text(format!("Feedback: {}", g.student))]),
            Block::Paragraph(vec![Span::Strong(
                "No submission received: nothing of yours was among the files graded.".to_owned(),
            )]),
        ];
    }
    vec![
        Block::Title(vec![text(format!(
            "Feedback: {} — {}",
            g.lab.as_deref().unwrap_or("unknown lab"),
            g.student
        ))]),
        Block::Paragraph(vec![Span::Strong(format!(
            "Score: {} / {}{}",
            number(g.total),
            number(g.max),
            if unfinished {
                " (not final: not everything could be graded yet)"
            } else {
                ""
            }
        ))]),
    ]
}

/// One row per exercise: its name, the result and the points.
fn results_table(g: &Grade, troubled: &[GradedExercise]) -> Block {
    let rows = g
        .exercises
        .iter()
        .map(|e| {
            let result = if e.verdict.passed() {
                format!("✅ {}", verdict_words(e))
            } else if troubled.contains(&e.exercise) {
                "⚠️ not graded (the grader's trouble)".to_owned()
            } else {
                format!("❌ {}", verdict_words(e))
            };
            vec![
                vec![code(e.exercise.name())],
                vec![text(result)],
                vec![text(format!(
                    "{} / {}",
                    number(e.points),
                    number(e.max_points)
                ))],
            ]
        })
        .collect();
    Block::Table(vec!["exercise", "result", "points"], rows)
}

/// A failed exercise: what went wrong, with the compiler's messages or the smallest failing
/// input; or, when the grader's trouble is why, that it is not the student's.
fn failure(e: &ExerciseGrade, graders_trouble: bool) -> Vec<Block> {
    if graders_trouble {
        return vec![
            Block::Heading(vec![
                code(e.exercise.name()),
                text(": not graded (the grader's trouble, not your code)"),
            ]),
            Block::Paragraph(vec![text(&e.message)]),
            Block::Paragraph(vec![text(GRADERS_TROUBLE)]),
        ];
    }
    let mut blocks = vec![
        Block::Heading(vec![
            code(e.exercise.name()),
            text(format!(": {}", verdict_words(e))),
        ]),
        Block::Paragraph(vec![text(&e.message)]),
    ];
    match &e.details {
        Some(Details::CompilerMessages { messages }) => {
            blocks.push(Block::Preformatted(messages.clone()));
        }
        Some(Details::Counterexample {
            input,
            expected,
            got,
        }) => {
            for (label, value) in [
                ("Smallest failing input:", input),
                ("Expected:", expected),
                ("Got:", got),
            ] {
                blocks.push(Block::Paragraph(vec![text(label)]));
                blocks.push(Block::Preformatted(value.clone()));
            }
        }
        None => {}
    }
    blocks
}

fn spans_markdown(spans: &[Span]) -> String {
    spans
        .iter()
        .map(|s| match s {
            Span::Text(t) => t.clone(),
            Span::Code(t) => format!("`{t}`"),
            Span::Strong(t) => format!("**{t}**"),
        })
        .collect()
}

fn spans_html(spans: &[Span]) -> String {
    spans
        .iter()
        .map(|s| match s {
            Span::Text(t) => escape(t),
            Span::Code(t) => format!("<code>{}</code>", escape(t)),
            Span::Strong(t) => format!("<strong>{}</strong>", escape(t)),
        })
        .collect()
}

/// A fence longer than any run of backticks in `body`, so captured output cannot end it.
fn fence(body: &str) -> String {
    let longest = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}

/// The student's feedback as Markdown: score, a line per exercise, the failing cases, what
/// the code printed, and what the grader changed or noticed.
pub(crate) fn feedback_markdown(g: &Grade) -> String {
    let mut md = String::new();
    for block in outline(g) {
        match block {
            Block::Title(s) => {
                let _ = writeln!(md, "# {}", spans_markdown(&s));
            }
            Block::Heading(s) => {
                let _ = writeln!(md, "## {}", spans_markdown(&s));
            }
            Block::Subheading(s) => {
                let _ = writeln!(md, "### {}", spans_markdown(&s));
            }
            Block::Paragraph(s) => {
                let _ = writeln!(md, "{}", spans_markdown(&s));
            }
            Block::Table(header, rows) => {
                let _ = writeln!(md, "| {} |", header.join(" | "));
                let _ = writeln!(md, "|{}", "---|".repeat(header.len()));
                for row in rows {
                    let cells: Vec<String> = row
                        .iter()
                        .map(|c| spans_markdown(c).replace('|', "\\|"))
                        .collect();
                    let _ = writeln!(md, "| {} |", cells.join(" | "));
                }
            }
            Block::Preformatted(body) => {
                let f = fence(&body);
                let newline = if body.ends_with('\n') { "" } else { "\n" };
                let _ = writeln!(md, "{f}text\n{body}{newline}{f}");
            }
            Block::List(items) => {
                for item in items {
                    let _ = writeln!(md, "- {item}");
                }
            }
        }
        md.push('\n');
    }
    md.pop();
    md
}

/// The same feedback as one HTML page with its own small style sheet.
pub(crate) fn feedback_html(g: &Grade) -> String {
    let blocks = outline(g);
    let title = match blocks.first() {
        Some(Block::Title(s)) => spans_markdown(s),
        _ => String::from("Feedback"),
    };
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>\n\
         body {{ font-family: system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.45; }}\n\
         table {{ border-collapse: collapse; }} th, td {{ border: 1px solid #ccc; padding: .3rem .7rem; text-align: left; }}\n\
         pre {{ background: #f6f6f6; padding: .6rem; overflow-x: auto; white-space: pre-wrap; }}\n\
         </style>\n</head>\n<body>\n",
        escape(&title)
    );
    for block in blocks {
        match block {
            Block::Title(s) => {
                let _ = writeln!(html, "<h1>{}</h1>", spans_html(&s));
            }
            Block::Heading(s) => {
                let _ = writeln!(html, "<h2>{}</h2>", spans_html(&s));
            }
            Block::Subheading(s) => {
                let _ = writeln!(html, "<h3>{}</h3>", spans_html(&s));
            }
            Block::Paragraph(s) => {
                let _ = writeln!(html, "<p>{}</p>", spans_html(&s));
            }
            Block::Table(header, rows) => {
                html.push_str("<table>\n<tr>");
                for h in header {
                    let _ = write!(html, "<th>{}</th>", escape(h));
                }
                html.push_str("</tr>\n");
                for row in rows {
                    html.push_str("<tr>");
                    for cell in row {
                        let _ = write!(html, "<td>{}</td>", spans_html(&cell));
                    }
                    html.push_str("</tr>\n");
                }
                html.push_str("</table>\n");
            }
            Block::Preformatted(body) => {
                let _ = writeln!(html, "<pre>{}</pre>", escape(&body));
            }
            Block::List(items) => {
                html.push_str("<ul>\n");
                for item in items {
                    let _ = writeln!(html, "<li>{}</li>", escape(&item));
                }
                html.push_str("</ul>\n");
            }
        }
    }
    html.push_str("</body>\n</html>\n");
    html
}

/// Where a grade's Markdown feedback goes: `<feedback>/<student>/<lab>.md`; the HTML page
/// sits beside it with the extension `.html`.
pub(crate) fn feedback_path(g: &Grade, feedback_dir: &Path) -> PathBuf {
    let lab = match (&g.lab, g.file.as_os_str().is_empty()) {
        (Some(lab), _) => lab.clone(),
        // A roster student who handed nothing in has no file to name the page after.
        (None, true) => NO_SUBMISSION_PAGE.to_owned(),
        (None, false) => stem(&g.file),
    };
    feedback_dir.join(&g.student).join(format!("{lab}.md"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::grade::note::GradeNote;
    use crate::course::judge::Verdict;
    use crate::course::restore::Restoration;
    use bpe_lab::lab::check::{Exercise, Status};

    fn graded() -> Grade {
        let exercise = |exercise: Exercise, verdict: Verdict, points: f64| ExerciseGrade {
            exercise: exercise.into(),
            points,
            max_points: 2.0,
            verdict,
            message: "3 of 300 cases differ <here>".into(),
            details: Some(Details::Counterexample {
                input: "[[\"a\", \"b\"]]".into(),
                expected: "[\"ab\"]".into(),
                got: "```\n[]".into(),
            }),
            printed: String::new(),
        };
        let mut failed = exercise(
            Exercise::MergePairInWord,
            Verdict::Checked(Status::Failed),
            0.0,
        );
        failed.printed = "debug | line\n".into();
        Grade {
            student: "ana".into(),
            name: None,
            file: PathBuf::from("s/ana/03-merge.ipynb"),
            lab: Some("03-merge".into()),
            exercises: vec![
                exercise(
                    Exercise::MostFrequentPair,
                    Verdict::Checked(Status::Passed),
                    2.0,
                ),
                failed,
            ],
            total: 2.0,
            max: 4.0,
            notes: vec![GradeNote::Restored(Restoration::Reverted {
                cell: "<check>".into(),
            })],
            seconds: 0.5,
            digest: String::new(),
            executed: None,
            setup: None,
            setup_digest: String::new(),
            adjustments: Vec::new(),
            lateness: None,
            late_penalty: 0.0,
        }
    }

    #[test]
    fn the_feedback_shows_the_late_penalty_under_the_score() {
        let mut g = graded();
        g.lateness = Some(crate::course::grade::lateness::Lateness {
            submitted: crate::course::grade::lateness::Submitted {
                at: Some(3 * 86_400 + 3600),
                from: crate::course::grade::lateness::SubmittedFrom::FileName,
            },
            due: Some("1970-01-01T00:00:00Z".parse().unwrap()),
            policy: "penalty:25%/day".parse().unwrap(),
        });
        let applied = crate::course::grade::adjustments::Adjustments::default().apply(&g);
        // 3 d 1 h late: 4 started days at 25 % of 4 points is 4, capped at the 2 scored.
        assert_eq!((applied.late_penalty, applied.total), (2.0, 0.0));
        let md = feedback_markdown(&applied);
        assert!(md.contains("**Score: 0 / 4**"), "{md}");
        assert!(
            md.contains("Late: submitted 3d 1h 0m after the due date 1970-01-01T00:00:00Z (late policy penalty:25%/day): 2 points taken off."),
            "{md}"
        );
    }

    #[test]
    fn markdown_names_each_exercise_and_the_failing_case() {
        let md = feedback_markdown(&graded());
        assert!(md.starts_with("# Feedback: 03-merge — ana\n\n**Score: 2 / 4**\n"));
        assert!(md.contains("| `most_frequent_pair` | ✅ passed | 2 / 2 |"));
        assert!(md.contains("## `merge_pair_in_word`: failed"));
        assert!(md.contains("Smallest failing input:\n\n```text\n[[\"a\", \"b\"]]\n```"));
        // The captured text holds a fence of its own: the block around it is longer.
        assert!(md.contains("Got:\n\n````text\n```\n[]\n````"));
        assert!(md.contains("### What your code printed while `merge_pair_in_word` was checked"));
        assert!(md.contains("- undid the edits to the protected cell \"<check>\""));
        assert!(!md.contains("most_frequent_pair`: passed"));
    }

    #[test]
    fn the_graders_own_trouble_is_told_apart_from_the_students() {
        let mut g = graded();
        g.exercises[1].verdict = Verdict::NotGraded;
        g.exercises[1].details = None;
        g.exercises[1].message =
            "not graded (the grader's own trouble): the sandbox could not run the worker".into();
        let md = feedback_markdown(&g);
        assert!(md.contains("**Score: 2 / 4 (not final: not everything could be graded yet)**"));
        assert!(
            md.contains("| `merge_pair_in_word` | ⚠️ not graded (the grader's trouble) | 0 / 2 |")
        );
        assert!(md.contains(
            "## `merge_pair_in_word`: not graded (the grader's trouble, not your code)\n\n\
             not graded (the grader's own trouble): the sandbox could not run the worker\n\n\
             This is trouble on the grader's side, not a problem with your work: it is not \
             counted against you, and it will be graded again.\n"
        ));
        assert!(feedback_html(&g).contains("<td>⚠️ not graded (the grader&#39;s trouble)</td>"));

        // A whole submission the grader could not take.
        let mut whole = Grade::empty("bo", PathBuf::from("s/bo/03-merge.ipynb"));
        whole.not_graded(crate::course::grade::note::Ungradable::Unreadable {
            error: "the disk is full".into(),
        });
        let md = feedback_markdown(&whole);
        assert!(md.contains(
            "Not graded: could not be graded: the disk is full. This is trouble on the grader's side"
        ), "{md}");
        // The submission's own problem is not called the grader's.
        let mut own = Grade::empty("cy", PathBuf::from("s/cy/03-merge.ipynb"));
        own.not_graded(crate::course::grade::note::Ungradable::NoLab);
        let md = feedback_markdown(&own);
        assert!(
            !md.contains("grader's side") && !md.contains("not final"),
            "{md}"
        );
        assert!(md.contains("- could not be graded: this notebook is none of the labs"));
    }

    #[test]
    fn html_says_the_same_with_everything_escaped() {
        let html = feedback_html(&graded());
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.contains("<h1>Feedback: 03-merge — ana</h1>"));
        assert!(
            html.contains(
                "<td><code>most_frequent_pair</code></td><td>✅ passed</td><td>2 / 2</td>"
            )
        );
        assert!(html.contains("<h2><code>merge_pair_in_word</code>: failed</h2>"));
        assert!(html.contains("<p>3 of 300 cases differ &lt;here&gt;</p>"));
        assert!(html.contains("<pre>[[&quot;a&quot;, &quot;b&quot;]]</pre>"));
        assert!(
            html.contains(
                "<li>undid the edits to the protected cell &quot;&lt;check&gt;&quot;</li>"
            )
        );
        assert!(!html.contains("<here>") && !html.contains("<check>"));
    }
}
