//! `bpe-lab completions SHELL`: the shell's completion script for every command and flag,
//! generated from the same clap definitions the command parses with (clap_complete), so it
//! cannot drift from them.

use clap::{Args, CommandFactory, ValueEnum};
use clap_complete::Shell;

use crate::commands::Cli;
use crate::commands::error::CliError;
use crate::commands::output::OutputFlag;

pub(crate) const AFTER_HELP: &str = "\
Examples:
  bpe-lab completions bash > ~/.local/share/bash-completion/completions/bpe-lab
  bpe-lab completions zsh > ~/.zfunc/_bpe-lab      (with fpath+=~/.zfunc before compinit)
  bpe-lab completions fish > ~/.config/fish/completions/bpe-lab.fish

Exit status: 0 on success, 1 when the script cannot be written, 2 when the command line is
wrong.";

#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell to complete in
    #[arg(value_enum, value_name = "SHELL")]
    pub(crate) shell: ShellArg,
}

/// The shells a script is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ShellArg {
    Bash,
    Zsh,
    Fish,
    Elvish,
    Powershell,
}

impl From<ShellArg> for Shell {
    fn from(shell: ShellArg) -> Shell {
        match shell {
            ShellArg::Bash => Shell::Bash,
            ShellArg::Zsh => Shell::Zsh,
            ShellArg::Fish => Shell::Fish,
            ShellArg::Elvish => Shell::Elvish,
            ShellArg::Powershell => Shell::PowerShell,
        }
    }
}

pub(crate) fn run(args: &CompletionsArgs) -> Result<(), CliError> {
    let mut script = Vec::new();
    clap_complete::generate(
        Shell::from(args.shell),
        &mut Cli::command(),
        "bpe-lab",
        &mut script,
    );
    OutputFlag::stdout().write_bytes(&script)
}
