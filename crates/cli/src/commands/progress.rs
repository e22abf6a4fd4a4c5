//! Progress display on stderr: drawn only when stderr is a terminal, so logs and pipes get
//! no control characters, and cleared when done so only the summary line stays.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

fn draw_target() -> ProgressDrawTarget {
    if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    }
}

/// A spinner with `message` for work of unknown length (reading and counting the corpus).
pub(crate) fn spinner(message: impl Into<String>) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, draw_target())
        .with_style(
            ProgressStyle::with_template("{spinner} {msg} {elapsed}").expect("valid template"),
        )
        .with_message(message.into());
    if !bar.is_hidden() {
        bar.enable_steady_tick(Duration::from_millis(100));
    }
    bar
}

/// A bar over `total` bytes of input (`what` is e.g. "counting"), with the rate and the time
/// left.
#[cfg(feature = "columnar")]
pub(crate) fn bytes_bar(total: u64, what: &str) -> ProgressBar {
    let style = ProgressStyle::with_template(&format!(
        "{what} [{{wide_bar}}] {{bytes}}/{{total_bytes}}, {{bytes_per_sec}}, eta {{eta}}"
    ))
    .expect("valid template")
    .progress_chars("=> ");
    ProgressBar::with_draw_target(Some(total), draw_target()).with_style(style)
}

/// A bar counting merges up to `merges_wanted`, as wide as the terminal allows; the message
/// shows the last merged pair's count.
pub(crate) fn merges_bar(merges_wanted: usize) -> ProgressBar {
    let style =
        ProgressStyle::with_template("training [{wide_bar}] {pos}/{len} merges, eta {eta}{msg}")
            .expect("valid template")
            .progress_chars("=> ");
    ProgressBar::with_draw_target(Some(merges_wanted as u64), draw_target()).with_style(style)
}

/// Reports training progress on `bar`; cheap enough to call after every merge.
pub(crate) fn show_merge(bar: &ProgressBar, progress: bpe_lab::Progress) {
    bar.set_position(progress.merges_done as u64);
    // Formatting a message allocates; a few updates per hundred merges are plenty to read.
    if progress.merges_done % 64 == 1 {
        bar.set_message(format!(", last pair seen {}x", progress.last_count));
    }
}

/// A bar counting `total` items of `what` (graded submissions); `None` off a terminal, where
/// a line per item is printed instead.
pub(crate) fn bar(total: u64, what: &str) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let style = ProgressStyle::with_template(&format!(
        "{what} [{{wide_bar}}] {{pos}}/{{len}}, eta {{eta}}"
    ))
    .expect("valid template")
    .progress_chars("=> ");
    Some(ProgressBar::with_draw_target(Some(total), draw_target()).with_style(style))
}
