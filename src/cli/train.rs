//! `bpe-lab train`: corpus file in, merges JSON out.

use std::path::Path;
use std::time::Instant;

use bpe_lab::{StopReason, TieBreak, Trainer, Training};

use crate::cli::error::CliError;
use crate::cli::merges_file::MergesFile;
use crate::cli::{TrainArgs, input, output, progress};

pub fn run(args: &TrainArgs) -> Result<(), CliError> {
    let started = Instant::now();
    check_not_same_file(&args.input, &args.output)?;
    // Before the long part, so a typo in the output path costs nothing.
    output::check_writable(&args.output)?;

    let spinner = progress::spinner(format!("reading {}", args.input.display()));
    let words = input::read_corpus(&args.input, &args.field);
    spinner.finish_and_clear();
    let words = words?;
    if words.is_empty() {
        return Err(CliError::runtime(format!(
            "'{}' contains no words: it is empty or has only blank lines (expected UTF-8 text, \
             one paragraph per line, or a JSON array of objects with a \"{}\" field)",
            args.input.display(),
            args.field
        )));
    }
    let (distinct, total) = (words.len(), words.total());

    let tie_break = TieBreak::from(args.tie_break);
    let bar = progress::merges_bar(args.merges);
    let training = Trainer::new(args.merges)
        .tie_break(tie_break)
        .min_frequency(args.min_frequency)
        .on_progress(|p| progress::show_merge(&bar, p))
        .train(words);
    bar.finish_and_clear();

    let file = MergesFile::new(&training, tie_break, args.min_frequency, args.merges);
    output::write_atomically(&args.output, |out| file.write_json(out))?;

    eprintln!(
        "{} from {distinct} distinct words ({total} in all) in {:.2?}; wrote {}",
        learned(&training, args),
        started.elapsed(),
        args.output.display()
    );
    Ok(())
}

/// The first half of the summary line: how many merges, and why fewer if so.
fn learned(training: &Training, args: &TrainArgs) -> String {
    let n = training.merges.len();
    let plural = if n == 1 { "" } else { "s" };
    match training.stop {
        StopReason::MergesDone => format!("learned {n} merge{plural}"),
        StopReason::NoPairs => format!(
            "learned {n} of {} merges (stopped early: every word is a single symbol)",
            args.merges
        ),
        StopReason::BelowMinFrequency => format!(
            "learned {n} of {} merges (stopped early: the next pair occurs fewer than {} times)",
            args.merges, args.min_frequency
        ),
    }
}

/// Refuses to overwrite the corpus with its own merges.
fn check_not_same_file(input: &Path, output: &Path) -> Result<(), CliError> {
    if let (Ok(a), Ok(b)) = (input.canonicalize(), output.canonicalize())
        && a == b
    {
        return Err(CliError::usage(format!(
            "--output '{}' is the input file; writing there would replace the corpus",
            output.display()
        )));
    }
    Ok(())
}
