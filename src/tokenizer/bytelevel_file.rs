//! The byte-level tokenizer's files: its own JSON file (what `bpe-lab train --byte-level`
//! writes), and the export to tiktoken's rank file with the pattern and specials beside it.
//! A rank file without that sidecar (as tiktoken keeps its own) loads with the caller's
//! [`RankFileSettings`], as tiktoken's `Encoding` takes them beside the ranks; a file's
//! content read elsewhere (standard input) loads with [`ByteLevelTokenizer::from_bytes`].
//!
//! The JSON file:
//! ```json
//! {"format": "bpe-lab-byte-level", "version": 1, "name": "…",
//!  "pattern": "<regex>", "special_tokens": {"<|endoftext|>": 300},
//!  "tokens": ["AA==", "AQ==", …]}
//! ```
//! `tokens[i]` is the base64 of token `i`'s bytes: ids are dense, as training gives them. A
//! tokenizer with gaps in its ranks (a loaded rank file may have some) is written as tiktoken
//! files only.

use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};

use crate::bpe::bytelevel::{Coverage, SplitPattern};
use crate::files::write_atomically;
use crate::tokenizer::bytelevel::{ByteLevelError, ByteLevelTokenizer};
use crate::tokenizer::tiktoken::{
    TiktokenError, TiktokenSidecar, parse_tiktoken, read_tiktoken, write_tiktoken,
};

/// The `"format"` of the file.
pub const BYTE_LEVEL_FORMAT: &str = "bpe-lab-byte-level";
/// The file version this build writes and reads.
pub const BYTE_LEVEL_VERSION: u64 = 1;

#[derive(Serialize, Deserialize)]
struct FileBody {
    format: String,
    version: u64,
    name: String,
    pattern: String,
    special_tokens: BTreeMap<String, u32>,
    tokens: Vec<String>,
    /// [`Coverage`]'s field: `true` when the tokenizer drops text its pattern does not match,
    /// absent otherwise (files written before it read as `Whole`).
    #[serde(default, skip_serializing_if = "Coverage::is_whole")]
    drops_unmatched_text: Coverage,
}

/// A byte-level tokenizer file that cannot be read or written.
#[derive(Debug)]
pub struct ByteLevelFileError {
    pub path: PathBuf,
    pub problem: ByteLevelFileProblem,
}

/// What is wrong.
#[derive(Debug)]
pub enum ByteLevelFileProblem {
    Io(io::Error),
    /// Not JSON of the expected shape.
    Json(String),
    /// JSON, but another format or a newer version.
    NotByteLevel(String),
    /// Token `index` is not base64.
    Token {
        index: usize,
        message: String,
        line: usize,
    },
    /// The tokens do not make a tokenizer.
    Invalid(ByteLevelError),
    /// The ids have gaps, which this file cannot express.
    Gaps,
    /// The rank file beside it.
    Tiktoken(TiktokenError),
    /// A rank file without the pattern and specials file `export` writes beside it (this path;
    /// `None`: read from standard input, beside nothing) and without [`RankFileSettings`].
    NoSidecar(Option<PathBuf>),
    /// [`RankFileSettings`] were given for a tokenizer that carries its own pattern and
    /// special tokens: they would be ignored, or disagree.
    OwnSettings(Carrier),
    /// That file is not what `export` writes.
    Sidecar(PathBuf, String),
    /// A Hugging Face tokenizer.json that cannot be read with the same ids.
    Hf(crate::tokenizer::hf_bytelevel_import::HfImportError),
    /// The rank file has other counts than its sidecar declares: cut short or padded.
    Count {
        sidecar: PathBuf,
        declared_ranks: Option<u32>,
        declared_n_vocab: u32,
        ranks: u32,
        n_vocab: u32,
        /// The first line where the file and the sidecar disagree.
        line: usize,
    },
    /// Token `index` repeats the bytes of token `first` (JSON line `line`).
    DuplicateToken {
        index: usize,
        first: usize,
        line: usize,
    },
}

impl fmt::Display for ByteLevelFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", crate::files::source_name(&self.path))?;
        match &self.problem {
            ByteLevelFileProblem::Io(e) => write!(f, "{e}"),
            ByteLevelFileProblem::Json(e) => write!(f, "not a byte-level tokenizer file: {e}"),
            ByteLevelFileProblem::NotByteLevel(e) => write!(f, "{e}"),
            ByteLevelFileProblem::Token {
                index,
                message,
                line,
            } => {
                write!(
                    f,
                    "line {line}: field \"tokens\"[{index}]: not base64: {message}"
                )
            }
            ByteLevelFileProblem::Invalid(e) => write!(f, "{e}"),
            ByteLevelFileProblem::Gaps => write!(
                f,
                "the tokenizer's ids have gaps; write it as a tiktoken file instead"
            ),
            ByteLevelFileProblem::Tiktoken(e) => write!(f, "{e}"),
            ByteLevelFileProblem::NoSidecar(sidecar) => {
                write!(
                    f,
                    "a tiktoken rank file needs its split pattern and special tokens: give them \
                     with --pattern NAME or --regex REGEX (and --special-tokens 'NAME=ID,…'), "
                )?;
                match sidecar {
                    Some(sidecar) => write!(
                        f,
                        "or put the file '{}' beside it, as `bpe-lab export --format tiktoken` \
                         writes it ({{\"name\", \"pat_str\", \"special_tokens\", \"n_vocab\"}}); \
                         it was not found",
                        sidecar.display()
                    ),
                    None => write!(f, "as standard input has no file beside it"),
                }
            }
            ByteLevelFileProblem::OwnSettings(Carrier::CharLevelFile) => write!(
                f,
                "a character-level tokenizer, which has no split pattern; a pattern \
                 and special tokens apply only to a byte-level tiktoken rank file without its \
                 sidecar"
            ),
            ByteLevelFileProblem::OwnSettings(carrier) => write!(
                f,
                "{carrier} carries its own split pattern and special tokens; a pattern and \
                 special tokens apply only to a tiktoken rank file without its sidecar"
            ),
            ByteLevelFileProblem::Sidecar(sidecar, e) => write!(
                f,
                "its pattern and specials file '{}' is not what `bpe-lab export --format \
                 tiktoken` writes: {e}",
                sidecar.display()
            ),
            ByteLevelFileProblem::Hf(e) => write!(f, "{e}"),
            ByteLevelFileProblem::Count {
                sidecar,
                declared_ranks,
                declared_n_vocab,
                ranks,
                n_vocab,
                line,
            } => {
                write!(
                    f,
                    "line {line}: the file has {ranks} ranks (n_vocab {n_vocab}) but "
                )?;
                match declared_ranks {
                    Some(declared) => {
                        write!(f, "'{}' declares {declared} ranks", sidecar.display())?
                    }
                    None => write!(
                        f,
                        "'{}' declares n_vocab {declared_n_vocab}",
                        sidecar.display()
                    )?,
                }
                write!(f, "; the rank file was cut short or changed")
            }
            ByteLevelFileProblem::DuplicateToken { index, first, line } => write!(
                f,
                "line {line}: field \"tokens\"[{index}] repeats token {first}; one text would \
                 have two ids"
            ),
        }
    }
}

impl std::error::Error for ByteLevelFileError {}

/// What a bare tiktoken rank file lacks, given by the caller instead of the sidecar
/// ([`TiktokenSidecar`]) `export` writes beside it: tiktoken's `Encoding` takes the same two
/// beside its `mergeable_ranks`. Both empty is "nothing given"; then a rank file needs its
/// sidecar.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RankFileSettings {
    /// The split pattern (`pat_str`).
    pub pattern: Option<SplitPattern>,
    /// The special tokens and their ids (`special_tokens`).
    pub special_tokens: BTreeMap<String, u32>,
}

impl RankFileSettings {
    /// Whether anything was given.
    pub fn is_given(&self) -> bool {
        self.pattern.is_some() || !self.special_tokens.is_empty()
    }
}

/// A tokenizer that carries its own pattern and special tokens, so [`RankFileSettings`] given
/// for it are refused rather than ignored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Carrier {
    /// bpe-lab's byte-level JSON file.
    ByteLevelJson,
    /// A Hugging Face `tokenizer.json`.
    HfJson,
    /// A rank file whose sidecar (this path) says them.
    Sidecar(PathBuf),
    /// The lab's character-level tokenizer file (it has no split pattern at all).
    CharLevelFile,
}

impl fmt::Display for Carrier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Carrier::ByteLevelJson => f.write_str("this byte-level tokenizer file (bpe-lab's)"),
            Carrier::HfJson => f.write_str("this Hugging Face tokenizer.json"),
            Carrier::Sidecar(sidecar) => write!(
                f,
                "this rank file, with the file '{}' beside it,",
                sidecar.display()
            ),
            Carrier::CharLevelFile => f.write_str("this character-level tokenizer file"),
        }
    }
}

/// The line (from 1) of `"tokens"[index]` in a byte-level JSON text, for messages: the
/// tokens are base64, so every `"` after the key opens or closes one of them.
fn token_line(text: &str, index: usize) -> usize {
    let Some(key) = text.find("\"tokens\"") else {
        return 1;
    };
    let after = key + "\"tokens\"".len();
    let opening = text[after..]
        .match_indices('"')
        .step_by(2)
        .nth(index)
        .map_or(text.len(), |(at, _)| after + at);
    text[..opening].matches('\n').count() + 1
}

/// Whether a JSON text is a byte-level tokenizer file (so a reader of several kinds can pick
/// the right one).
pub(crate) fn is_byte_level_json(text: &str) -> bool {
    #[derive(Deserialize)]
    struct Probe {
        format: Option<String>,
    }
    serde_json::from_str::<Probe>(text)
        .is_ok_and(|p| p.format.as_deref() == Some(BYTE_LEVEL_FORMAT))
}

/// Whether a file's bytes are for [`ByteLevelTokenizer::open`] rather than the character-level
/// tokenizer's reader: bpe-lab's byte-level JSON, a Hugging Face `tokenizer.json` (a JSON
/// object with a `"model"`), or text that is no JSON (a rank file). JSON that does not parse is
/// left to the lab's reader, whose errors say where.
pub(crate) fn is_byte_level_file_content(bytes: &[u8]) -> bool {
    let start = bytes.trim_ascii_start();
    if start.is_empty() {
        return false;
    }
    if !start.starts_with(b"{") {
        return true;
    }
    serde_json::from_slice::<serde_json::Value>(bytes).is_ok_and(|doc| {
        doc.get("format").and_then(|f| f.as_str()) == Some(BYTE_LEVEL_FORMAT)
            || doc.get("model").is_some()
    })
}

/// The ranks of a rank file's bytes, its first bad line named.
fn rank_lines(bytes: &[u8]) -> Result<Vec<(Vec<u8>, u32)>, ByteLevelFileProblem> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        ByteLevelFileProblem::Tiktoken(TiktokenError::not_utf8(line))
    })?;
    parse_tiktoken(text).map_err(ByteLevelFileProblem::Tiktoken)
}

impl ByteLevelTokenizer {
    /// The JSON text of the file.
    pub fn to_json(&self) -> Result<String, ByteLevelFileProblem> {
        let tokens = self.tokens();
        if tokens.iter().zip(0u32..).any(|(&(_, r), i)| r != i) {
            return Err(ByteLevelFileProblem::Gaps);
        }
        let body = FileBody {
            format: BYTE_LEVEL_FORMAT.into(),
            version: BYTE_LEVEL_VERSION,
            name: self.name().into(),
            pattern: self.pattern().regex().into(),
            special_tokens: self.specials().clone(),
            tokens: tokens.iter().map(|(b, _)| STANDARD.encode(b)).collect(),
            drops_unmatched_text: self.coverage(),
        };
        Ok(serde_json::to_string_pretty(&body).expect("plain data serializes") + "\n")
    }

    /// The tokenizer of a JSON text written by [`ByteLevelTokenizer::to_json`].
    pub fn from_json(text: &str) -> Result<Self, ByteLevelFileProblem> {
        let body: FileBody =
            serde_json::from_str(text).map_err(|e| ByteLevelFileProblem::Json(e.to_string()))?;
        if body.format != BYTE_LEVEL_FORMAT {
            return Err(ByteLevelFileProblem::NotByteLevel(format!(
                "\"format\" is {:?}, expected {BYTE_LEVEL_FORMAT:?}",
                body.format
            )));
        }
        if body.version > BYTE_LEVEL_VERSION {
            return Err(ByteLevelFileProblem::NotByteLevel(format!(
                "written by a newer bpe-lab (version {}; this one reads {BYTE_LEVEL_VERSION})",
                body.version
            )));
        }
        let tokens = body
            .tokens
            .iter()
            .enumerate()
            .map(|(index, t)| {
                STANDARD.decode(t).map(|b| (b, index as u32)).map_err(|e| {
                    ByteLevelFileProblem::Token {
                        index,
                        message: e.to_string(),
                        line: token_line(text, index),
                    }
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        // A repeated token would silently lose one of its ids (and the export one line).
        let mut first: std::collections::HashMap<&[u8], usize> = Default::default();
        for (index, (bytes, _)) in tokens.iter().enumerate() {
            if let Some(&earlier) = first.get(&bytes[..]) {
                return Err(ByteLevelFileProblem::DuplicateToken {
                    index,
                    first: earlier,
                    line: token_line(text, index),
                });
            }
            first.insert(bytes, index);
        }
        drop(first);
        ByteLevelTokenizer::new(
            body.name,
            tokens,
            SplitPattern::from_regex(&body.pattern),
            body.special_tokens,
        )
        .map(|t| t.with_coverage(body.drops_unmatched_text))
        .map_err(ByteLevelFileProblem::Invalid)
    }

    /// Writes the JSON file atomically.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), ByteLevelFileError> {
        let path = path.as_ref();
        let fail = |problem| ByteLevelFileError {
            path: path.to_owned(),
            problem,
        };
        let json = self.to_json().map_err(fail)?;
        write_atomically(path, |out| out.write_all(json.as_bytes()))
            .map_err(|e| fail(ByteLevelFileProblem::Io(e)))
    }

    /// Reads a JSON file.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, ByteLevelFileError> {
        let path = path.as_ref();
        let fail = |problem| ByteLevelFileError {
            path: path.to_owned(),
            problem,
        };
        let text = std::fs::read_to_string(path).map_err(|e| fail(ByteLevelFileProblem::Io(e)))?;
        Self::from_json(&text).map_err(fail)
    }

    /// Reads any byte-level tokenizer file: bpe-lab's JSON, a Hugging Face `tokenizer.json`
    /// ([`ByteLevelTokenizer::from_hf_json`]: only where its ids can be given exactly), or a
    /// tiktoken rank file with the pattern and specials file beside it that
    /// [`ByteLevelTokenizer::export_tiktoken`] writes (`PATH.json`).
    pub fn open(path: impl AsRef<Path>) -> Result<Self, ByteLevelFileError> {
        Self::open_with(path, &RankFileSettings::default())
    }

    /// [`ByteLevelTokenizer::open`], where a rank file without its sidecar takes its pattern
    /// and special tokens from `settings`; settings given for any other file are refused
    /// ([`ByteLevelFileProblem::OwnSettings`]).
    pub fn open_with(
        path: impl AsRef<Path>,
        settings: &RankFileSettings,
    ) -> Result<Self, ByteLevelFileError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| ByteLevelFileError {
            path: path.to_owned(),
            problem: ByteLevelFileProblem::Io(e),
        })?;
        let mut sidecar = path.as_os_str().to_owned();
        sidecar.push(".json");
        Self::from_file_bytes(&bytes, path, Some(PathBuf::from(sidecar)), settings)
    }

    /// A byte-level tokenizer from a file's content read elsewhere (standard input): as
    /// [`ByteLevelTokenizer::open_with`], but a rank file has no sidecar to look for, so it
    /// needs `settings`. Errors carry `source` as their path (`-` is named "standard input").
    pub fn from_bytes(
        bytes: &[u8],
        source: &Path,
        settings: &RankFileSettings,
    ) -> Result<Self, ByteLevelFileError> {
        Self::from_file_bytes(bytes, source, None, settings)
    }

    fn from_file_bytes(
        bytes: &[u8],
        path: &Path,
        sidecar: Option<PathBuf>,
        settings: &RankFileSettings,
    ) -> Result<Self, ByteLevelFileError> {
        let fail = |problem| ByteLevelFileError {
            path: path.to_owned(),
            problem,
        };
        if bytes.trim_ascii_start().starts_with(b"{") {
            let text = std::str::from_utf8(bytes)
                .map_err(|e| fail(ByteLevelFileProblem::Json(e.to_string())))?;
            let byte_level = is_byte_level_json(text);
            if settings.is_given() {
                return Err(fail(ByteLevelFileProblem::OwnSettings(if byte_level {
                    Carrier::ByteLevelJson
                } else {
                    Carrier::HfJson
                })));
            }
            if byte_level {
                return Self::from_json(text).map_err(fail);
            }
            return Self::from_hf_json(text).map_err(|e| fail(ByteLevelFileProblem::Hf(e)));
        }
        let side_text = match &sidecar {
            None => None,
            Some(sidecar) => match std::fs::read_to_string(sidecar) {
                Ok(text) => Some(text),
                Err(e) if e.kind() == io::ErrorKind::NotFound => None,
                Err(e) => {
                    return Err(fail(ByteLevelFileProblem::Sidecar(
                        sidecar.clone(),
                        e.to_string(),
                    )));
                }
            },
        };
        let (Some(sidecar), Some(text)) = (&sidecar, side_text) else {
            // No sidecar: the caller's settings, or nothing to encode with.
            let Some(pattern) = settings.pattern.clone() else {
                return Err(fail(ByteLevelFileProblem::NoSidecar(sidecar)));
            };
            let name = match path.file_stem() {
                Some(stem) if path != Path::new("-") => stem.to_string_lossy().into_owned(),
                _ => "stdin".to_owned(),
            };
            return Self::from_tiktoken_bytes(
                bytes,
                name,
                pattern,
                settings.special_tokens.clone(),
            )
            .map_err(fail);
        };
        if settings.is_given() {
            return Err(fail(ByteLevelFileProblem::OwnSettings(Carrier::Sidecar(
                sidecar.clone(),
            ))));
        }
        let sidecar = sidecar.clone();
        let side: TiktokenSidecar = serde_json::from_str(&text).map_err(|e| {
            fail(ByteLevelFileProblem::Sidecar(
                sidecar.clone(),
                e.to_string(),
            ))
        })?;
        let tokens = rank_lines(bytes).map_err(fail)?;
        // A rank file cut after a whole line still has ranks 0..n: only the declared sizes
        // tell, and they are checked before the tokens are (a short file lacks bytes too).
        let ranks = tokens.len() as u32;
        let n_vocab = tokens
            .iter()
            .map(|&(_, r)| r)
            .chain(side.special_tokens.values().copied())
            .max()
            .map_or(0, |m| m + 1);
        if side.n_ranks.is_some_and(|n| n != ranks) || side.n_vocab != n_vocab {
            return Err(fail(ByteLevelFileProblem::Count {
                sidecar,
                declared_ranks: side.n_ranks,
                declared_n_vocab: side.n_vocab,
                ranks,
                n_vocab,
                line: side.n_ranks.unwrap_or(ranks).min(ranks) as usize + 1,
            }));
        }
        ByteLevelTokenizer::new(
            side.name,
            tokens,
            SplitPattern::from_regex(&side.pat_str),
            side.special_tokens,
        )
        .map_err(|e| fail(ByteLevelFileProblem::Invalid(e)))
    }

    /// A tokenizer from a rank file's bytes and what tiktoken's `Encoding` takes beside them:
    /// the split pattern and the special tokens with their ids. The ranks are validated as
    /// [`parse_tiktoken`] does (the bad line named); the specials as
    /// [`ByteLevelTokenizer::new`] does.
    pub fn from_tiktoken_bytes(
        ranks: &[u8],
        name: impl Into<String>,
        pattern: SplitPattern,
        specials: BTreeMap<String, u32>,
    ) -> Result<Self, ByteLevelFileProblem> {
        let tokens = rank_lines(ranks)?;
        ByteLevelTokenizer::new(name, tokens, pattern, specials)
            .map_err(ByteLevelFileProblem::Invalid)
    }

    /// What tiktoken's `Encoding` needs beside the rank file.
    pub fn tiktoken_sidecar(&self) -> TiktokenSidecar {
        TiktokenSidecar {
            name: self.name().into(),
            pat_str: self.pattern().regex().into(),
            special_tokens: self.specials().clone(),
            n_vocab: self.n_vocab(),
            n_ranks: Some(self.ranks().len() as u32),
        }
    }

    /// Writes the rank file to `path` and the sidecar ([`TiktokenSidecar`]) to
    /// `path` + `.json`, both atomically; returns the sidecar's path.
    pub fn export_tiktoken(&self, path: impl AsRef<Path>) -> Result<PathBuf, ByteLevelFileError> {
        let path = path.as_ref();
        let mut sidecar_path = path.as_os_str().to_owned();
        sidecar_path.push(".json");
        let sidecar_path = PathBuf::from(sidecar_path);
        write_atomically(path, |out| write_tiktoken(out, self.tokens())).map_err(|e| {
            ByteLevelFileError {
                path: path.to_owned(),
                problem: ByteLevelFileProblem::Io(e),
            }
        })?;
        let json =
            serde_json::to_string_pretty(&self.tiktoken_sidecar()).expect("plain data") + "\n";
        write_atomically(&sidecar_path, |out| out.write_all(json.as_bytes())).map_err(|e| {
            ByteLevelFileError {
                path: sidecar_path.clone(),
                problem: ByteLevelFileProblem::Io(e),
            }
        })?;
        Ok(sidecar_path)
    }

    /// A tokenizer from a rank file with its pattern and specials.
    pub fn from_tiktoken_file(
        path: impl AsRef<Path>,
        name: impl Into<String>,
        pattern: SplitPattern,
        specials: BTreeMap<String, u32>,
    ) -> Result<Self, ByteLevelFileError> {
        let path = path.as_ref();
        let fail = |problem| ByteLevelFileError {
            path: path.to_owned(),
            problem,
        };
        let tokens = read_tiktoken(path).map_err(|e| fail(ByteLevelFileProblem::Tiktoken(e)))?;
        ByteLevelTokenizer::new(name, tokens, pattern, specials)
            .map_err(|e| fail(ByteLevelFileProblem::Invalid(e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::{ByteLevelConfig, TrainingSettings};

    /// A trained tokenizer's rank file, bare: the ranks' bytes, its pattern and specials.
    fn trained() -> ByteLevelTokenizer {
        ByteLevelTokenizer::train_reporting(
            "low lower lowest newest widest",
            TrainingSettings::new(6).tie_break(crate::TieBreak::Lexicographic),
            &ByteLevelConfig::new(SplitPattern::Cl100k).special_tokens(["<|end|>"]),
        )
        .unwrap()
        .0
    }

    fn ranks_of(tokenizer: &ByteLevelTokenizer) -> Vec<u8> {
        let mut ranks = Vec::new();
        write_tiktoken(&mut ranks, tokenizer.tokens()).unwrap();
        ranks
    }

    /// Ranks' bytes with the pattern and specials beside them load to the tokenizer that wrote
    /// them (the same ids); from a path or from bytes, settings fill in the missing sidecar.
    #[test]
    fn a_bare_rank_file_loads_with_its_pattern_and_specials() {
        let original = trained();
        let ranks = ranks_of(&original);
        let specials = original.specials().clone();
        let text = "the lowest <|end|> newest";
        let allowed = crate::tokenizer::bytelevel::AllowedSpecial::All;
        let loaded = ByteLevelTokenizer::from_tiktoken_bytes(
            &ranks,
            "bare",
            SplitPattern::Cl100k,
            specials.clone(),
        )
        .unwrap();
        assert_eq!(
            loaded.encode(text, &allowed).unwrap(),
            original.encode(text, &allowed).unwrap()
        );

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bare.tiktoken");
        std::fs::write(&path, &ranks).unwrap();
        let err = ByteLevelTokenizer::open(&path).unwrap_err();
        assert!(matches!(
            err.problem,
            ByteLevelFileProblem::NoSidecar(Some(_))
        ));
        assert!(err.to_string().contains("--pattern"), "{err}");
        let settings = RankFileSettings {
            pattern: Some(SplitPattern::Cl100k),
            special_tokens: specials,
        };
        let opened = ByteLevelTokenizer::open_with(&path, &settings).unwrap();
        assert_eq!(opened.name(), "bare");
        assert_eq!(
            opened.encode(text, &allowed).unwrap(),
            original.encode(text, &allowed).unwrap()
        );
        let piped = ByteLevelTokenizer::from_bytes(&ranks, Path::new("-"), &settings).unwrap();
        assert_eq!(piped.n_vocab(), original.n_vocab());
    }

    /// Standard input has no sidecar beside it: the error says so, naming it in words; and
    /// settings given for a tokenizer that carries its own are refused, saying which.
    #[test]
    fn settings_are_needed_for_piped_ranks_and_refused_elsewhere() {
        let original = trained();
        let ranks = ranks_of(&original);
        let err =
            ByteLevelTokenizer::from_bytes(&ranks, Path::new("-"), &RankFileSettings::default())
                .unwrap_err();
        assert!(matches!(err.problem, ByteLevelFileProblem::NoSidecar(None)));
        let message = err.to_string();
        assert!(message.starts_with("standard input: "), "{message}");

        let settings = RankFileSettings {
            pattern: Some(SplitPattern::Gpt2),
            special_tokens: BTreeMap::new(),
        };
        let json = original.to_json().unwrap();
        let err = ByteLevelTokenizer::from_bytes(json.as_bytes(), Path::new("b.json"), &settings)
            .unwrap_err();
        assert!(matches!(
            err.problem,
            ByteLevelFileProblem::OwnSettings(Carrier::ByteLevelJson)
        ));

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.tiktoken");
        original.export_tiktoken(&path).unwrap();
        let err = ByteLevelTokenizer::open_with(&path, &settings).unwrap_err();
        assert!(matches!(
            err.problem,
            ByteLevelFileProblem::OwnSettings(Carrier::Sidecar(_))
        ));
        assert!(err.to_string().contains("r.tiktoken.json"), "{err}");
    }

    /// [`Coverage`] is one typed field: written as `"drops_unmatched_text": true` only when the
    /// tokenizer drops text, read back, and absent in older files (read as `Whole`).
    #[test]
    fn coverage_round_trips_as_the_files_boolean() {
        let (trained, _) = ByteLevelTokenizer::train_reporting(
            "hello   world hello",
            TrainingSettings::new(2).tie_break(crate::TieBreak::Lexicographic),
            &ByteLevelConfig::new(SplitPattern::from_regex(r"\S+")),
        )
        .unwrap();
        assert_eq!(trained.coverage(), Coverage::Whole);
        let whole = trained.to_json().unwrap();
        assert!(!whole.contains("drops_unmatched_text"), "{whole}");
        let drops = trained.with_coverage(Coverage::DropsUnmatched);
        let json = drops.to_json().unwrap();
        assert!(json.contains("\"drops_unmatched_text\": true"), "{json}");
        let back = ByteLevelTokenizer::from_json(&json).unwrap();
        assert_eq!(back.coverage(), Coverage::DropsUnmatched);
        assert_eq!(
            ByteLevelTokenizer::from_json(&whole).unwrap().coverage(),
            Coverage::Whole
        );
    }
}
