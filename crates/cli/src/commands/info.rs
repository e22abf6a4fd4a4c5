//! `bpe-lab info`: what a tokenizer is (kind, vocabulary size, special tokens, split pattern,
//! whether it drops text its pattern does not match: the tokenizer's
//! [`Coverage`], and whether its pattern is a user's), and id ↔ token lookups. Tokens print
//! without loss ([`token_text`]): a byte-level token that is not whole UTF-8 shows its bytes as
//! `\xNN`, never `�`.

use std::path::PathBuf;

use bpe_lab::bpe::bytelevel::{Coverage, SplitPattern};
use bpe_lab::tokenizer::token_text::{parse_token_text, token_text};
use bpe_lab::tokenizer::{OpenAiEncoding, Split, Tokenizer};
use clap::Args;
use serde::Serialize;

use crate::commands::error::CliError;
use crate::commands::output::print_line;

pub(crate) const LONG_ABOUT: &str = "\
Show what a tokenizer is: its kind (lab or byte-level), vocabulary size, special tokens and
their ids, its split pattern (name and regular expression) and whether it drops text the
pattern does not match; or look up ids and tokens.

Tokens print without loss: characters as themselves, `\\`, line feed, carriage return and tab
as \\\\, \\n, \\r, \\t, and the bytes of a byte-level token that are not a whole UTF-8 character
as \\xNN (🫠's two halves in cl100k_base are \\xF0\\x9F and \\xAB\\xA0). --token takes the
same escapes.";

pub(crate) const AFTER_HELP: &str = "\
Examples:
  bpe-lab info --encoding cl100k_base
  bpe-lab info -m gpt-4o --id 24912 --token ' hello'
  bpe-lab info -t bytes.json --json

Exit status: 0 on success, 1 when the tokenizer cannot be read or an --id or --token is not
in it, 2 when the command line is wrong.";

#[derive(Debug, Args)]
pub(crate) struct InfoArgs {
    /// The tokenizer: any file `encode -t` takes (lab or byte-level; `-`: read from standard
    /// input)
    #[arg(short, long, value_name = "FILE", required_unless_present = "encoding")]
    pub(crate) tokenizer: Option<PathBuf>,

    /// One of OpenAI's encodings (gpt2, r50k_base, p50k_base, p50k_edit, cl100k_base,
    /// o200k_base, o200k_harmony) or a model's (-m gpt-4o)
    #[arg(long, short = 'm', visible_alias = "model", value_name = "NAME",
          conflicts_with = "tokenizer", value_parser = crate::commands::flags::encoding_or_model)]
    pub(crate) encoding: Option<OpenAiEncoding>,

    /// Show the token of this id (may be repeated)
    #[arg(long = "id", value_name = "ID")]
    pub(crate) ids: Vec<u32>,

    /// Show the id of this token, written as `info` prints tokens (may be repeated)
    #[arg(long = "token", value_name = "TOKEN")]
    pub(crate) tokens: Vec<String>,

    /// Print JSON instead of text
    #[arg(long)]
    pub(crate) json: bool,

    #[command(flatten)]
    pub(crate) rank_file: crate::commands::tokenizer_file::RankFileArgs,
}

/// What `info` says of a tokenizer (its `--json`).
#[derive(Debug, Serialize)]
struct Summary {
    /// The file or the encoding's name.
    name: String,
    kind: Kind,
    /// One more than the largest id.
    vocab_size: u32,
    /// Ordinary tokens (byte-level: ranks; lab: all but the special tokens).
    tokens: u32,
    special_tokens: Vec<Special>,
    pattern: Pattern,
    /// Whether text the pattern does not match is dropped when encoding (tiktoken's rule).
    drops_unmatched_text: Dropping,
}

#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "kebab-case")]
enum Kind {
    #[serde(rename = "character-level")]
    CharLevel,
    ByteLevel,
}

#[derive(Debug, Serialize)]
struct Special {
    token: String,
    id: u32,
}

/// The split pattern: a built-in one's name and regular expression, or the lab's word rule.
#[derive(Debug, Serialize)]
struct Pattern {
    name: Option<String>,
    regex: Option<String>,
}

/// Whether encoding can drop text.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "kebab-case")]
enum Dropping {
    /// The pattern matches every character (the built-in ones; character-level tokenizers keep
    /// every character, unknown ones as the unknown token).
    Never,
    /// The tokenizer says so ([`Coverage::DropsUnmatched`], `train --allow-uncovered`): text
    /// between its pattern's matches is dropped, as tiktoken drops it.
    Unmatched,
    /// A user's pattern, not recorded as dropping text: it covered its training text (training
    /// checks), but other text it does not match would be dropped.
    Unchecked,
}

/// One lookup's answer.
#[derive(Debug, Serialize)]
struct Lookup {
    id: u32,
    /// The token as `info` prints it (lossless).
    token: String,
    /// Its bytes.
    bytes: Vec<u8>,
    special: bool,
}

/// `bpe-lab info`: describes the tokenizer, or looks up ids and tokens in it.
pub(crate) fn run(args: &InfoArgs) -> Result<(), CliError> {
    let loaded = crate::commands::tokenizer_file::load_any(
        args.encoding,
        args.tokenizer.as_deref(),
        &args.rank_file,
    )?;
    let name = match (args.encoding, args.tokenizer.as_deref()) {
        (Some(encoding), _) => encoding.name().to_owned(),
        (None, Some(path)) if path == std::path::Path::new("-") => "standard input".to_owned(),
        (None, path) => path.map(|p| p.display().to_string()).unwrap_or_default(),
    };
    if !args.ids.is_empty() || !args.tokens.is_empty() {
        return lookups(args, &name, &loaded);
    }
    let summary = summarize(name, &loaded);
    if args.json {
        return print_line(&serde_json::to_string(&summary).expect("a summary serializes"));
    }
    print_line(&summary_text(&summary))
}

fn summarize(name: String, loaded: &Tokenizer) -> Summary {
    match loaded {
        Tokenizer::ByteLevel(t) => Summary {
            name,
            kind: Kind::ByteLevel,
            vocab_size: t.n_vocab(),
            tokens: t.ranks().len() as u32,
            special_tokens: specials_by_id(t.specials().iter().map(|(s, &id)| (s.clone(), id))),
            pattern: Pattern {
                name: t.pattern().name().map(str::to_owned),
                regex: Some(t.pattern().regex().to_owned()),
            },
            drops_unmatched_text: match (t.coverage(), t.pattern()) {
                (Coverage::DropsUnmatched, _) => Dropping::Unmatched,
                (Coverage::Whole, SplitPattern::Custom(_)) => Dropping::Unchecked,
                (Coverage::Whole, _) => Dropping::Never,
            },
        },
        Tokenizer::CharLevel(t) => {
            let vocab = t.vocab();
            let specials: Vec<(String, u32)> = vocab
                .special_tokens()
                .iter()
                .filter_map(|s| vocab.id(s).map(|id| (s.clone(), id)))
                .collect();
            Summary {
                name,
                kind: Kind::CharLevel,
                vocab_size: vocab.len() as u32,
                tokens: (vocab.len() - specials.len()) as u32,
                special_tokens: specials_by_id(specials.into_iter()),
                pattern: Pattern {
                    name: Some(
                        match t.split() {
                            Split::Space => "every single space (Python's text.split(\" \"))",
                            Split::Whitespace => "runs of whitespace (Python's text.split())",
                        }
                        .to_owned(),
                    ),
                    regex: None,
                },
                drops_unmatched_text: Dropping::Never,
            }
        }
    }
}

fn specials_by_id(specials: impl Iterator<Item = (String, u32)>) -> Vec<Special> {
    let mut list: Vec<Special> = specials.map(|(token, id)| Special { token, id }).collect();
    list.sort_by(|a, b| (a.id, &a.token).cmp(&(b.id, &b.token)));
    list
}

/// How many special tokens the text form lists before it says how many more there are.
const SPECIALS_SHOWN: usize = 20;

fn summary_text(s: &Summary) -> String {
    let mut out = String::new();
    let kind = match s.kind {
        Kind::CharLevel => "character-level (characters and </w>, one word at a time)",
        Kind::ByteLevel => "byte-level",
    };
    out.push_str(&format!("tokenizer: {}\nkind: {kind}\n", s.name));
    out.push_str(&format!(
        "vocabulary: {} ids ({} tokens, {} special)\n",
        s.vocab_size,
        s.tokens,
        s.special_tokens.len()
    ));
    if s.special_tokens.is_empty() {
        out.push_str("special tokens: none\n");
    } else {
        out.push_str("special tokens:\n");
        for special in s.special_tokens.iter().take(SPECIALS_SHOWN) {
            out.push_str(&format!(
                "  {}\t'{}'\n",
                special.id,
                token_text(&special.token)
            ));
        }
        if s.special_tokens.len() > SPECIALS_SHOWN {
            out.push_str(&format!(
                "  … and {} more (--json lists them all)\n",
                s.special_tokens.len() - SPECIALS_SHOWN
            ));
        }
    }
    match (s.kind, &s.pattern.name, &s.pattern.regex) {
        (Kind::CharLevel, Some(rule), _) => out.push_str(&format!("words: split at {rule}\n")),
        (_, Some(name), Some(regex)) => out.push_str(&format!("pattern: {name}: {regex}\n")),
        (_, None, Some(regex)) => out.push_str(&format!("pattern: custom: {regex}\n")),
        _ => {}
    }
    out.push_str(match s.drops_unmatched_text {
        Dropping::Never => "text: every character is encoded",
        Dropping::Unmatched => {
            "text: drops text not matched by its pattern (as tiktoken does); such text does not \
             come back from decoding"
        }
        Dropping::Unchecked => {
            "text: a custom pattern, not recorded as dropping text; text it does not match would \
             be dropped (as tiktoken does)"
        }
    });
    out
}

/// Answers `--id` and `--token`, in the order of the flags' kinds (ids, then tokens).
fn lookups(args: &InfoArgs, name: &str, loaded: &Tokenizer) -> Result<(), CliError> {
    let mut answers = Vec::new();
    for &id in &args.ids {
        let found = match loaded {
            Tokenizer::ByteLevel(t) => t
                .token_bytes(id)
                .map(|b| (b.to_vec(), t.specials().values().any(|&s| s == id))),
            Tokenizer::CharLevel(t) => t
                .vocab()
                .token(id)
                .map(|s| (s.as_bytes().to_vec(), t.vocab().is_special(id))),
        };
        let (bytes, special) = found.ok_or_else(|| {
            let top = match loaded {
                Tokenizer::ByteLevel(t) => t.n_vocab(),
                Tokenizer::CharLevel(t) => t.vocab().len() as u32,
            };
            CliError::runtime(format!(
                "--id {id}: no token of {name} has this id (its ids go up to {})",
                top.saturating_sub(1)
            ))
        })?;
        answers.push(Lookup {
            id,
            token: token_text(&bytes),
            bytes,
            special,
        });
    }
    for given in &args.tokens {
        let bytes =
            parse_token_text(given).map_err(|e| CliError::usage(format!("--token: {e}")))?;
        let found = match loaded {
            Tokenizer::ByteLevel(t) => {
                let special = std::str::from_utf8(&bytes)
                    .ok()
                    .and_then(|s| t.specials().get(s).copied());
                match special {
                    Some(id) => Some((id, true)),
                    None => t.ranks().get(&bytes).map(|id| (id, false)),
                }
            }
            Tokenizer::CharLevel(t) => std::str::from_utf8(&bytes)
                .ok()
                .and_then(|s| t.vocab().id(s))
                .map(|id| (id, t.vocab().is_special(id))),
        };
        let (id, special) = found.ok_or_else(|| {
            CliError::runtime(format!(
                "--token '{given}': not a token of {name} (it may encode to several; try \
                 `bpe-lab encode`)"
            ))
        })?;
        answers.push(Lookup {
            id,
            token: token_text(&bytes),
            bytes,
            special,
        });
    }
    if args.json {
        return print_line(&serde_json::to_string(&answers).expect("lookups serialize"));
    }
    let lines: Vec<String> = answers
        .iter()
        .map(|a| {
            format!(
                "{}\t'{}'{}",
                a.id,
                a.token,
                if a.special { "\tspecial" } else { "" }
            )
        })
        .collect();
    print_line(&lines.join("\n"))
}
