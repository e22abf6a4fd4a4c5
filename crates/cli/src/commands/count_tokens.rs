//! `bpe-lab count-tokens`: how many tokens files hold, per file and in all, for one or more
//! encodings or tokenizer files at once (as `ttok` or a line of tiktoken are used for). The
//! counting is [`ByteLevelTokenizer::encode_stream`] with nothing written.

use std::path::{Path, PathBuf};

use bpe_lab::tokenizer::{
    AllowedSpecial, ByteLevelTokenizer, DisallowedSpecial, EncodeOptions, EncodeOutput, EncodeUnit,
    OpenAiEncoding, StreamError,
};
use clap::Args;

use crate::commands::error::CliError;
use crate::commands::output::{print, print_line};
use crate::commands::tokenizer_file::TextInput;

pub(crate) const LONG_ABOUT: &str = "\
Count the tokens of text files with byte-level tokenizers: one row per file and a total, one
column per encoding (--encoding, several allowed, comma-separated) or tokenizer file (-t, a
file `encode -t` takes; several allowed).

Each file is one text, encoded as tiktoken's encode_ordinary does: a special token in the text
(such as <|endoftext|>) counts as the ordinary text it is, unless --allow-special counts it as
one token.

A directory is read recursively: each file below it is one row, sorted by path (hidden files
and folders such as .git left out). A glob pattern the shell did not expand ('*.txt',
'docs/**/*.md') is expanded here, sorted. Standard input (`-`) can be read once: naming it
twice is refused (wc would count it once and show a second, empty row). Each tokenizer is one
column: the same encoding or file given twice is counted once (said on stderr), and two
different tokenizers with the same name get columns `NAME` and `NAME#2`.";

pub(crate) const AFTER_HELP: &str = "\
Examples:
  bpe-lab count-tokens README.md docs/*.md
  bpe-lab count-tokens --encoding cl100k_base,o200k_base --json notes.txt
  cat notes.txt | bpe-lab count-tokens -t bytes.json

Exit status: 0 on success, 1 when the work fails (a file is missing or not UTF-8: the message
names it), 2 when the command line is wrong.";

#[derive(Debug, Args)]
pub(crate) struct CountTokensArgs {
    /// Text files, directories (read recursively) or glob patterns (`-` or none: standard
    /// input)
    #[arg(value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,

    /// OpenAI encodings to count with (gpt2, r50k_base, p50k_base, p50k_edit, cl100k_base,
    /// o200k_base, o200k_harmony) or models' (-m gpt-4o), comma-separated
    /// [default: cl100k_base, unless -t is given]
    #[arg(long, short = 'm', visible_alias = "model", value_name = "NAMES", value_delimiter = ',',
          value_parser = crate::commands::bytelevel::encoding_parser)]
    pub(crate) encoding: Vec<OpenAiEncoding>,

    /// Byte-level tokenizer files to count with (as `encode -t` takes them; `-`: read from
    /// standard input); may be repeated
    #[arg(short, long, value_name = "FILE")]
    pub(crate) tokenizer: Vec<PathBuf>,

    /// Count each special token in the text as one token (not as its text)
    #[arg(long)]
    pub(crate) allow_special: bool,

    /// Threads to encode on (0: one per core; at most one per core)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) threads: usize,

    /// Print one JSON object instead of the table
    #[arg(long)]
    pub(crate) json: bool,

    #[command(flatten)]
    pub(crate) rank_file: crate::commands::tokenizer_file::RankFileArgs,
}

/// One column of the result: a tokenizer and the unique name it is shown under.
struct Column {
    name: String,
    tokenizer: ByteLevelTokenizer,
}

/// Adds a column unless the same tokenizer (`same`: the same encoding or file) is already one,
/// then said on stderr; a name already taken by another tokenizer gets `#2`, `#3`, … .
fn add_column(
    columns: &mut Vec<(Column, String)>,
    name: String,
    same: String,
    flag: &str,
    load: impl FnOnce() -> Result<ByteLevelTokenizer, CliError>,
) -> Result<(), CliError> {
    if columns.iter().any(|(_, key)| *key == same) {
        eprintln!("note: {flag} {name} is given more than once; it is counted once");
        return Ok(());
    }
    let mut unique = name.clone();
    for k in 2.. {
        if !columns.iter().any(|(c, _)| c.name == unique) {
            break;
        }
        unique = format!("{name}#{k}");
    }
    columns.push((
        Column {
            name: unique,
            tokenizer: load()?,
        },
        same,
    ));
    Ok(())
}

/// The files the arguments name: directories and unexpanded glob patterns expanded, `-` kept;
/// standard input named twice is refused (it can be read once).
fn input_files(files: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    #[cfg(feature = "columnar")]
    let files = bpe_lab::dataset::expand_text_inputs(files)
        .map_err(|e| CliError::runtime(e.to_string()))?;
    #[cfg(not(feature = "columnar"))]
    let files = files.to_vec();
    let stdin: Vec<usize> = (1..=files.len())
        .filter(|&k| files[k - 1] == Path::new("-"))
        .collect();
    if let [first, second, ..] = stdin[..] {
        return Err(CliError::usage(format!(
            "FILE: standard input ('-') is named twice (files {first} and {second}); it can be \
             read once, so name it once"
        )));
    }
    Ok(files)
}

pub(crate) fn run(args: &CountTokensArgs) -> Result<(), CliError> {
    let stdin_tokenizer = args.tokenizer.iter().any(|t| t == Path::new("-"));
    crate::commands::tokenizer_file::stdin_once(
        stdin_tokenizer.then_some(Path::new("-")),
        args.files.is_empty() || args.files.iter().any(|f| f == Path::new("-")),
        "FILE (none given, or -)",
    )?;
    if args.tokenizer.is_empty()
        && let Some(flag) = args.rank_file.given()
    {
        return Err(CliError::usage(format!(
            "{flag} applies to a tiktoken rank file without its sidecar (-t FILE); the \
             encodings carry their own pattern and special tokens"
        )));
    }
    let files = input_files(&args.files)?;
    let mut columns: Vec<(Column, String)> = Vec::new();
    let encodings = if args.encoding.is_empty() && args.tokenizer.is_empty() {
        vec![OpenAiEncoding::Cl100kBase]
    } else {
        args.encoding.clone()
    };
    for encoding in encodings {
        let name = encoding.name().to_owned();
        add_column(
            &mut columns,
            name.clone(),
            format!("encoding {name}"),
            "--encoding",
            || {
                encoding
                    .tokenizer()
                    .map_err(|e| CliError::runtime(format!("--encoding {encoding}: {e}")))
            },
        )?;
    }
    for path in &args.tokenizer {
        // The same file by another path (`./t.json`, a link) is the same tokenizer.
        let same = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        add_column(
            &mut columns,
            path.display().to_string(),
            format!("file {}", same.display()),
            "--tokenizer",
            || crate::commands::tokenizer_file::load_byte_level(path, &args.rank_file),
        )?;
    }
    let tokenizers: Vec<(String, ByteLevelTokenizer)> = columns
        .into_iter()
        .map(|(c, _)| (c.name, c.tokenizer))
        .collect();
    let threads = crate::commands::flags::threads(args.threads);
    let options = EncodeOptions {
        allowed: if args.allow_special {
            AllowedSpecial::All
        } else {
            AllowedSpecial::None
        },
        others: DisallowedSpecial::AsText,
        unit: EncodeUnit::Text,
        output: EncodeOutput::Count,
        threads,
        ..EncodeOptions::default()
    };
    let files: Vec<Option<&Path>> = if files.is_empty() {
        vec![None]
    } else {
        files.iter().map(|p| Some(p.as_path())).collect()
    };
    // Standard input can be read once: it is kept for the second tokenizer on.
    let mut stdin_text: Option<Vec<u8>> = None;
    let mut rows: Vec<(String, Vec<u64>)> = Vec::new();
    for file in &files {
        let source = TextInput::new(*file);
        let name = match file {
            Some(p) if *p != Path::new("-") => p.display().to_string(),
            _ => "-".to_owned(),
        };
        let mut counts = Vec::new();
        for (_, tokenizer) in &tokenizers {
            let counted = match source {
                TextInput::Stdin => {
                    if stdin_text.is_none() {
                        let mut bytes = Vec::new();
                        std::io::Read::read_to_end(&mut source.open()?, &mut bytes)
                            .map_err(|e| source.read_error(&e))?;
                        stdin_text = Some(bytes);
                    }
                    let mut input = stdin_text.as_deref().unwrap_or_default();
                    tokenizer.encode_stream(&mut input, &mut std::io::sink(), &options)
                }
                TextInput::File(_) => {
                    let mut input = source.open()?;
                    tokenizer.encode_stream(&mut input, &mut std::io::sink(), &options)
                }
            };
            let counted = counted.map_err(|e| match e {
                StreamError::Read(e) => source.read_error(&e),
                StreamError::NotUtf8 { offset, .. } => CliError::runtime(format!(
                    "{source} is not UTF-8 at byte {offset}; tokens are counted in text"
                )),
                e => CliError::runtime(format!("cannot count {source}: {e}")),
            })?;
            counts.push(counted.ids);
        }
        rows.push((name, counts));
    }
    let totals: Vec<u64> = (0..tokenizers.len())
        .map(|k| rows.iter().map(|(_, c)| c[k]).sum())
        .collect();
    if args.json {
        let names: Vec<&str> = tokenizers.iter().map(|(n, _)| n.as_str()).collect();
        let per = |counts: &[u64]| -> serde_json::Map<String, serde_json::Value> {
            names
                .iter()
                .zip(counts)
                .map(|(n, c)| (n.to_string(), (*c).into()))
                .collect()
        };
        let files: Vec<serde_json::Value> = rows
            .iter()
            .map(|(f, c)| serde_json::json!({"file": f, "tokens": per(c)}))
            .collect();
        return print_line(&serde_json::json!({"files": files, "total": per(&totals)}).to_string());
    }
    let width = rows
        .iter()
        .map(|(f, _)| f.chars().count())
        .chain([5])
        .max()
        .unwrap_or(5);
    let mut header = format!("{:width$}", "file");
    for (name, _) in &tokenizers {
        header.push_str(&format!("  {name:>12}"));
    }
    let mut table = format!("{}\n", header.trim_end());
    let mut show = |label: &str, counts: &[u64]| {
        table.push_str(&format!("{label:width$}"));
        for (c, (name, _)) in counts.iter().zip(&tokenizers) {
            let w = name.chars().count().max(12);
            table.push_str(&format!("  {c:>w$}"));
        }
        table.push('\n');
    };
    for (file, counts) in &rows {
        show(file, counts);
    }
    if rows.len() > 1 {
        show("total", &totals);
    }
    print(&table)
}
