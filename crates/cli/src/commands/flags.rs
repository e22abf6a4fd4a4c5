//! Value parsers shared by several commands' flags: each maps command-line text to a library
//! value and says what was expected when it cannot.

use bpe_lab::TieBreak;
use bpe_lab::bpe::bytelevel::{SplitPattern, UnknownPatternName};
use bpe_lab::tokenizer::OpenAiEncoding;

/// `--min-frequency`: a count, 1 or more (1 keeps going while any pair is left).
pub(crate) fn at_least_one(value: &str) -> Result<u64, String> {
    match value.parse::<u64>() {
        Ok(0) => Err("must be at least 1 (1 keeps training while any pair is left)".to_owned()),
        Ok(k) => Ok(k),
        Err(e) => Err(e.to_string()),
    }
}

/// `--tie-break`: the library's [`TieBreak`] names, each with its summary as help; the names
/// are parsed by [`TieBreak`]'s own `FromStr`, the one reader of them.
pub(crate) fn tie_break_parser() -> impl clap::builder::TypedValueParser<Value = TieBreak> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let names = TieBreak::ALL.map(|p| PossibleValue::new(p.name()).help(p.summary()));
    PossibleValuesParser::new(names).map(|name| {
        name.parse::<TieBreak>()
            .expect("the parser only lets listed names through")
    })
}

/// A split pattern's name (`gpt2`, `gpt4`, `o200k`); an unknown name is refused with the list.
pub(crate) fn pattern_parser(value: &str) -> Result<SplitPattern, String> {
    value.parse().map_err(|e: UnknownPatternName| e.to_string())
}

/// `--pattern`'s help: the built-in patterns by name and encoding, from their table, and the
/// one `train --byte-level` uses when none is given.
pub(crate) fn pattern_help() -> String {
    format!(
        "With --byte-level: the split pattern by name: {} [default: {}]",
        bpe_lab::bpe::bytelevel::builtin_pattern_names_with_encodings(),
        crate::commands::bytelevel::DEFAULT_PATTERN
            .name()
            .expect("the default is a built-in pattern")
    )
}

/// `--threads`: 0 is one per core; more than the machine's cores is capped at them, said once
/// on stderr (more threads than cores only cost memory and switching).
pub(crate) fn threads(asked: usize) -> usize {
    let cores = bpe_lab::bpe::available_threads();
    match bpe_lab::bpe::threads_for(asked) {
        n if n > cores => {
            eprintln!(
                "note: --threads {n} is more than the {cores} core{} this machine has; using {cores}",
                if cores == 1 { "" } else { "s" }
            );
            cores
        }
        n => n,
    }
}

/// `--field` when not given: the paragraph field of Africa Galore's records.
pub(crate) const DEFAULT_FIELD: &str = "description";

/// `--field`: the value given, else [`DEFAULT_FIELD`]. The flag is an `Option` (its default
/// applied here, not by clap) so that a command can tell the user's `--field` from the default.
pub(crate) fn field(given: Option<&str>) -> &str {
    given.unwrap_or(DEFAULT_FIELD)
}

/// Says once on stderr that the `--field` the user gave is not used: `source` (every input) is
/// text, which has no fields. As `--threads` where it does not apply: a note, not a refusal
/// (the command's work is what was asked; only the flag is idle).
pub(crate) fn note_field_unused(given: Option<&str>, source: &str) {
    if let Some(field) = given {
        eprintln!(
            "note: --field {field} applies only to JSON, JSON Lines, CSV and Parquet inputs; \
             {source} is text, so it is not used"
        );
    }
}

/// Whether a corpus file is read as text (no fields), as `reader` would read it.
pub(crate) fn is_text(reader: &bpe_lab::dataset::CorpusReader, path: &std::path::Path) -> bool {
    matches!(reader.format_of(path), Ok(bpe_lab::dataset::Format::Text))
}

/// `--encoding` / `-m, --model`: one of OpenAI's encodings by tiktoken's name (`cl100k_base`),
/// or a model name tiktoken maps to one (`gpt-4o`, `gpt-4-0613`, as
/// `tiktoken.encoding_for_model`); anything else is refused with the list of encodings.
pub(crate) fn encoding_or_model(value: &str) -> Result<OpenAiEncoding, String> {
    value.parse::<OpenAiEncoding>().or_else(|e| {
        OpenAiEncoding::for_model(value).ok_or_else(|| {
            format!(
                "{e}; nor is it a model tiktoken maps to one (gpt-4o, gpt-4, \
                     gpt-3.5-turbo, o1, gpt-oss-20b, text-davinci-003, gpt2, and their dated \
                     versions)"
            )
        })
    })
}
