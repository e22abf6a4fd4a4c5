//! The `bpe-lab` command: parse the arguments, hand them to [`commands`], turn the outcome into an
//! exit status. Everything else lives in the package's library (`commands`, `course`), over
//! the `bpe-lab` library.
//!
//! Exit status: 0 on success, 1 when the work failed (a file is missing, unreadable or not
//! UTF-8, the corpus is empty, the output cannot be written), 2 when the command line is wrong
//! (clap reports those itself, `--help` and `--version` exit 0).

use std::process::ExitCode;

use bpe_lab_cli::commands;
use clap::Parser;

// mimalloc: training grows and frees many word lists (feature `fast-alloc` in Cargo.toml).
#[cfg(feature = "fast-alloc")]
bpe_lab::fast_allocator!();

fn main() -> ExitCode {
    let args = commands::Cli::parse();
    match commands::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            err.exit_code()
        }
    }
}
