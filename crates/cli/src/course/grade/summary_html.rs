//! A lab's class summary as one self-contained HTML page: the figures in words and tables,
//! two plots drawn here as inline SVG (the score histogram, the pass rate of each exercise),
//! and the failing cases that recur. No script, no network, a few lines of plain CSS, so it
//! opens from the feedback folder in any browser. Messages and inputs come from student code:
//! every piece of text goes through [`escape`].

use super::gradebook::number;
use super::summary::{LabSummary, Outcome, decimal, percent};
use bpe_lab::lab::display::escape;
use std::fmt::Write as _;

/// Failing cases listed on the page.
const CASES_ON_PAGE: usize = 20;
/// Students named beside a failing case.
const STUDENTS_NAMED: usize = 12;

/// The page for one lab.
pub(crate) fn summary_html(lab: &LabSummary) -> String {
    let title = format!("Class summary: lab {}", lab.lab);
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>\n\
         body {{ font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.45; }}\n\
         table {{ border-collapse: collapse; margin: .5rem 0 1rem; }} th, td {{ border: 1px solid #ccc; padding: .3rem .6rem; text-align: left; vertical-align: top; }}\n\
         td.n {{ text-align: right; white-space: nowrap; }}\n\
         pre {{ margin: 0; white-space: pre-wrap; word-break: break-all; }}\n\
         </style>\n</head>\n<body>\n<h1>{}</h1>\n",
        escape(&title),
        escape(&title)
    );
    scores_section(lab, &mut html);
    exercises_section(lab, &mut html);
    failing_section(lab, &mut html);
    legend(&mut html);
    html.push_str("</body>\n</html>\n");
    html
}

fn scores_section(lab: &LabSummary, html: &mut String) {
    let s = &lab.scores;
    let _ = write!(
        html,
        "<p>{} submission(s) graded against this lab. ",
        lab.submissions
    );
    match (s.mean(), s.median(), s.totals.first(), s.totals.last()) {
        (Some(mean), Some(median), Some(low), Some(high)) => {
            let _ = write!(
                html,
                "Of {} points, the {} final score(s) have a mean of {}, a median of {}, \
                 the lowest is {} and the highest {}.",
                number(s.max),
                s.totals.len(),
                decimal(mean),
                decimal(median),
                number(*low),
                number(*high)
            );
        }
        _ => html.push_str("No score is final yet."),
    }
    if s.not_final > 0 {
        let _ = write!(
            html,
            " {} submission(s) are left out of the scores: the grader's own trouble kept part \
             of them from being graded, so their score is not final (run the same command with \
             <code>--resume</code> to grade them again).",
            s.not_final
        );
    }
    html.push_str("</p>\n<h2>Scores</h2>\n");
    html.push_str(&histogram_svg(lab));
    html.push('\n');
}

fn exercises_section(lab: &LabSummary, html: &mut String) {
    html.push_str(
        "<h2>Exercises</h2>\n<p>The pass rate is the share of the submissions in which the \
         exercise was graded that passed it; what was not graded is counted beside it, not \
         against it.</p>\n",
    );
    html.push_str(&pass_rate_svg(lab));
    html.push_str("\n<table>\n<tr><th>exercise</th><th>points</th><th>pass rate</th>");
    for o in Outcome::ALL {
        let _ = write!(html, "<th>{}</th>", escape(o.words()));
    }
    html.push_str("</tr>\n");
    let mut row = |name: &str, points: String, counts: &super::summary::Counts| {
        let rate = match counts.pass_rate() {
            Some(r) => format!(
                "{} ({} of {})",
                percent(r),
                counts.get(Outcome::Passed),
                counts.graded()
            ),
            None => "none graded".to_owned(),
        };
        let _ = write!(
            html,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>",
            name,
            escape(&points),
            escape(&rate)
        );
        for o in Outcome::ALL {
            let _ = write!(html, "<td class=\"n\">{}</td>", counts.get(o));
        }
        html.push_str("</tr>\n");
    };
    for e in &lab.exercises {
        row(
            &format!("<code>{}</code>", escape(e.exercise.name())),
            number(e.max_points),
            &e.counts,
        );
    }
    row("all exercises", number(lab.scores.max), &lab.counts());
    html.push_str("</table>\n");
}

fn failing_section(lab: &LabSummary, html: &mut String) {
    html.push_str("<h2>Most common failing cases</h2>\n");
    if lab.failing.is_empty() {
        html.push_str("<p>No exercise failed.</p>\n");
        return;
    }
    let _ = writeln!(
        html,
        "<p>Failures grouped across students: the same exercise ending the same way on the same \
         smallest failing input (or, where there is no input, with the same message). {} group(s), \
         most students first{}.</p>",
        lab.failing.len(),
        if lab.failing.len() > CASES_ON_PAGE {
            format!("; the first {CASES_ON_PAGE} are shown")
        } else {
            String::new()
        }
    );
    html.push_str(
        "<table>\n<tr><th>students</th><th>exercise</th><th>outcome</th>\
         <th>smallest failing input</th><th>expected</th><th>message</th></tr>\n",
    );
    for case in lab.failing.iter().take(CASES_ON_PAGE) {
        let pre = |t: &Option<String>| {
            t.as_ref()
                .map_or_else(String::new, |t| format!("<pre>{}</pre>", escape(t)))
        };
        let named: Vec<&str> = case
            .students
            .iter()
            .take(STUDENTS_NAMED)
            .map(String::as_str)
            .collect();
        let more = case.students.len() - named.len();
        let _ = writeln!(
            html,
            "<tr><td class=\"n\" title=\"{}\">{}</td><td><code>{}</code></td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}</td></tr>",
            escape(&format!(
                "{}{}",
                named.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            )),
            case.students.len(),
            escape(case.exercise.name()),
            escape(case.outcome.words()),
            pre(&case.input),
            pre(&case.expected),
            escape(&case.message)
        );
    }
    html.push_str("</table>\n<p>Hover over a count to see who.</p>\n");
}

fn legend(html: &mut String) {
    html.push_str("<h2>What the outcomes mean</h2>\n<ul>\n");
    for o in Outcome::ALL {
        let _ = writeln!(
            html,
            "<li><strong>{}</strong>: {}</li>",
            escape(o.words()),
            escape(o.meaning())
        );
    }
    html.push_str("</ul>\n");
}

const WIDTH: f64 = 640.0;
const BAR_COLOUR: &str = "#1f77b4";

/// The score histogram: one bar per score (or range), its count above it.
fn histogram_svg(lab: &LabSummary) -> String {
    let bins = &lab.scores.bins;
    let (left, right, top, bottom, height) = (50.0, 15.0, 36.0, 45.0, 266.0);
    let plot_w = WIDTH - left - right;
    let plot_h = height - top - bottom;
    let most = bins.iter().map(|b| b.count).max().unwrap_or(0).max(1) as f64;
    let slot = plot_w / bins.len().max(1) as f64;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"{WIDTH}\" height=\"{height}\" \
         viewBox=\"0 0 {WIDTH} {height}\" font-family=\"sans-serif\" font-size=\"12\">\
         <title>Score histogram of lab {}</title>\
         <text x=\"{}\" y=\"18\" text-anchor=\"middle\" font-size=\"14\">Submissions by score (of {})</text>\
         <line x1=\"{left}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#333\"/>\
         <text transform=\"translate(16 {:.1}) rotate(-90)\" text-anchor=\"middle\">submissions</text>",
        escape(&lab.lab),
        WIDTH / 2.0,
        number(lab.scores.max),
        top + plot_h,
        left + plot_w,
        top + plot_h,
        top + plot_h / 2.0,
    );
    for (i, bin) in bins.iter().enumerate() {
        // The tallest bar leaves room above it for its count.
        let bar_h = bin.count as f64 / most * plot_h * 0.9;
        let x = left + i as f64 * slot;
        let _ = write!(
            svg,
            "<rect class=\"bin\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{bar_h:.1}\" fill=\"{BAR_COLOUR}\">\
             <title>score {}: {} submission(s)</title></rect>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            x + slot * 0.1,
            top + plot_h - bar_h,
            slot * 0.8,
            escape(&bin.label()),
            bin.count,
            x + slot / 2.0,
            top + plot_h - bar_h - 4.0,
            bin.count,
            x + slot / 2.0,
            top + plot_h + 16.0,
            escape(&bin.label()),
        );
    }
    let _ = write!(
        svg,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">score</text></svg>",
        left + plot_w / 2.0,
        height - 8.0
    );
    svg
}

/// The pass rate of each exercise as a horizontal bar (names on the left stay readable however
/// many exercises the lab has).
fn pass_rate_svg(lab: &LabSummary) -> String {
    let (left, right, top, row) = (190.0, 70.0, 30.0, 26.0);
    let plot_w = WIDTH - left - right;
    let height = top + row * lab.exercises.len().max(1) as f64 + 30.0;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"{WIDTH}\" height=\"{height}\" \
         viewBox=\"0 0 {WIDTH} {height}\" font-family=\"sans-serif\" font-size=\"12\">\
         <title>Pass rate per exercise of lab {}</title>\
         <text x=\"{}\" y=\"18\" text-anchor=\"middle\" font-size=\"14\">Pass rate per exercise</text>",
        escape(&lab.lab),
        WIDTH / 2.0,
    );
    for (i, e) in lab.exercises.iter().enumerate() {
        let y = top + i as f64 * row;
        let rate = e.counts.pass_rate();
        let bar_w = rate.unwrap_or(0.0) * plot_w;
        let said = match rate {
            Some(r) => percent(r),
            None => "none graded".to_owned(),
        };
        let _ = write!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\
             <rect x=\"{left}\" y=\"{:.1}\" width=\"{plot_w:.1}\" height=\"{:.1}\" fill=\"#eee\"/>\
             <rect class=\"rate\" x=\"{left}\" y=\"{:.1}\" width=\"{bar_w:.1}\" height=\"{:.1}\" fill=\"{BAR_COLOUR}\">\
             <title>{}: {}</title></rect>\
             <text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            left - 8.0,
            y + row * 0.55,
            escape(e.exercise.name()),
            y + 3.0,
            row - 6.0,
            y + 3.0,
            row - 6.0,
            escape(e.exercise.name()),
            escape(&said),
            left + plot_w + 6.0,
            y + row * 0.55,
            escape(&said),
        );
    }
    let base = top + row * lab.exercises.len().max(1) as f64;
    for tick in [0.0, 0.5, 1.0] {
        let x = left + tick * plot_w;
        let _ = write!(
            svg,
            "<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#999\"/>\
             <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            top,
            base + 2.0,
            base + 16.0,
            percent(tick)
        );
    }
    svg.push_str("</svg>");
    svg
}
