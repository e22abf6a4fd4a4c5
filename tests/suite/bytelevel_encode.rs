//! The byte-level encoder's fast paths against the literal rule, on generated cases: long
//! chunks (merged with a heap) and repeated ones (from the cache) against tiktoken's rule
//! written out; one text cut into parts on several threads, and streamed in small blocks, one
//! line at a time or whole, against the text encoded the literal way (split by the regex
//! engine, each chunk by the literal rule, special tokens found one at a time).
//!
//! The texts are what breaks splitters and cuts: line feeds before letters (where cuts go)
//! next to every kind of whitespace, CRLF, emoji with joiners and flags, combining marks,
//! Ethiopic, N'Ko, capitals and title case, contractions, digit runs, and special tokens,
//! whole and cut in two.

use bpe_lab::tokenizer::{ByteLevelConfig, TrainingSettings};
use std::collections::BTreeMap;
use std::sync::OnceLock;

use bpe_lab::TieBreak;
use bpe_lab::bpe::bytelevel::oracle::encode_piece_naive;
use bpe_lab::bpe::bytelevel::{
    ByteTrainer, ChunkCounts, ChunkEncoder, Piece, RankTable, SplitPattern, Splitter, pieces,
};
use bpe_lab::tokenizer::{
    AllowedSpecial, ByteLevelError, ByteLevelTokenizer, DisallowedSpecial, EncodeOptions,
    EncodeOutput, EncodeUnit,
};
use proptest::prelude::*;

const SPECIALS: [&str; 2] = ["<|endoftext|>", "<|fim|>"];

/// Fragments of text, several of them a line feed before an ASCII letter.
const FRAGMENTS: &[&str] = &[
    "\nHello",
    "\nthe",
    "\nA",
    "\nx",
    " world",
    "Word",
    "WORD",
    "ǅemal",
    "'s",
    "'LL",
    "'ve",
    "don't",
    " 12345",
    "7",
    "٣",
    "½",
    "!!",
    " ...",
    "/",
    "\n",
    "\n\n",
    "\r\n",
    " \n",
    "\t",
    "  ",
    "   ",
    "\u{A0}",
    "\u{3000}",
    "\u{2028}",
    "\u{85}",
    "\x0B",
    "\x0C",
    "é",
    "e\u{301}",
    "\u{301}",
    "ọ̀",
    " Yorùbá",
    " Tiếng Việt",
    " ሰላም ልጆች",
    "ሰላም",
    " ߒߞߏ ߞߊ߲",
    "\u{7EB}",
    " 日本語",
    "😀",
    "👍🏽",
    "🇳🇬",
    "👨\u{200D}👩\u{200D}👧",
    "<|endoftext|>",
    "<|endof",
    "text|>",
    "<|fim|>",
    "aaaa",
    "    \nZ",
    "\n\nb",
    "\r\nC",
];

fn nasty_text() -> impl Strategy<Value = String> {
    let fragment = prop_oneof![
        8 => (0..FRAGMENTS.len()).prop_map(|i| FRAGMENTS[i].to_string()),
        1 => any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(fragment, 0..60).prop_map(|parts| parts.concat())
}

/// A small tokenizer per pattern, trained on generated text (its merges join letters of many
/// scripts, spaces and digits), the two specials after its tokens.
fn tokenizer(pattern: SplitPattern) -> &'static ByteLevelTokenizer {
    static TOKENIZERS: OnceLock<BTreeMap<String, ByteLevelTokenizer>> = OnceLock::new();
    let all = TOKENIZERS.get_or_init(|| {
        let mut training = String::new();
        for (i, f) in FRAGMENTS.iter().enumerate().cycle().take(4000) {
            training.push_str(f);
            if i % 7 == 0 {
                training.push_str(FRAGMENTS[(i * 13) % FRAGMENTS.len()]);
            }
        }
        [
            SplitPattern::Gpt2,
            SplitPattern::Cl100k,
            SplitPattern::O200k,
        ]
        .into_iter()
        .map(|p| {
            let t = ByteLevelTokenizer::train_with(
                &training,
                TrainingSettings::new(300).tie_break(TieBreak::FirstSeen),
                &ByteLevelConfig::new(p.clone()).special_tokens(SPECIALS.iter().copied()),
            )
            .unwrap();
            (p.to_string(), t)
        })
        .collect()
    });
    &all[&pattern.to_string()]
}

fn pattern() -> impl Strategy<Value = SplitPattern> {
    prop_oneof![
        Just(SplitPattern::Gpt2),
        Just(SplitPattern::Cl100k),
        Just(SplitPattern::O200k)
    ]
}

/// The literal encoding: specials found one at a time, each piece split by the regex engine,
/// each chunk by tiktoken's rule written out.
fn literal(
    tokenizer: &ByteLevelTokenizer,
    text: &str,
    allowed: bool,
    others: DisallowedSpecial,
) -> Result<Vec<u32>, String> {
    let specials: Vec<&str> = tokenizer.specials().keys().map(String::as_str).collect();
    if !allowed && others == DisallowedSpecial::Error {
        // The first special in the text (the longest where two start at one place).
        let first = specials
            .iter()
            .filter_map(|s| text.find(*s).map(|at| (at, std::cmp::Reverse(s.len()), *s)))
            .min();
        if let Some((_, _, s)) = first {
            return Err(s.to_string());
        }
    }
    let acting: Vec<&str> = if allowed { specials.clone() } else { vec![] };
    let splitter = Splitter::new(tokenizer.pattern().clone()).unwrap();
    let mut out = Vec::new();
    for piece in pieces(text, &acting) {
        match piece {
            Piece::Special(i) => out.push(tokenizer.specials()[acting[i]]),
            Piece::Text(t) => {
                let mut chunks = Vec::new();
                splitter
                    .for_each_chunk_regex(t, 0, t.len(), |c| chunks.push(c))
                    .unwrap();
                for c in chunks {
                    out.extend(
                        encode_piece_naive(c.as_bytes(), |b| tokenizer.ranks().get(b)).unwrap(),
                    );
                }
            }
        }
    }
    Ok(out)
}

fn options(allowed: bool, others: DisallowedSpecial) -> (AllowedSpecial, DisallowedSpecial) {
    let allowed = if allowed {
        AllowedSpecial::All
    } else {
        AllowedSpecial::None
    };
    (allowed, others)
}

fn others() -> impl Strategy<Value = DisallowedSpecial> {
    prop_oneof![
        Just(DisallowedSpecial::Error),
        Just(DisallowedSpecial::AsText)
    ]
}

/// A long chunk: up to 60 fragments of bytes, runs of one byte among them.
fn long_chunk() -> impl Strategy<Value = Vec<u8>> {
    const PARTS: &[&str] = &[
        "a",
        "aa",
        "aaaa",
        "ab",
        "b",
        " ",
        "ọ̀",
        "ሰላም",
        "ߒߞߏ",
        "👍🏽",
        "\u{301}",
        "n",
        "1",
        "0",
    ];
    prop::collection::vec(0..PARTS.len(), 20..80).prop_map(|picks| {
        picks
            .iter()
            .flat_map(|&i| PARTS[i].bytes())
            .collect::<Vec<u8>>()
    })
}

proptest! {
    #![proptest_config(crate::support::saved_cases::config(200))]

    /// Long chunks (past the length where merging switches to a heap) and chunks met twice
    /// (the second time from the cache) encode as tiktoken's rule written out.
    #[test]
    fn long_and_repeated_chunks_equal_the_literal_rule(
        chunks in prop::collection::vec(long_chunk(), 1..6),
        merges in 0usize..200,
        shuffle in any::<u64>(),
    ) {
        let training = ByteTrainer::new(merges).train(&ChunkCounts::from_chunks(&chunks));
        let mut tokens = training.tokens();
        if shuffle % 2 == 1 {
            let n = tokens.len();
            for i in 0..n {
                tokens.swap(i, (shuffle as usize).wrapping_mul(i + 3) % n);
            }
        }
        let table = RankTable::new(tokens.iter().cloned().zip(0u32..));
        let mut encoder = ChunkEncoder::new(&table);
        for chunk in chunks.iter().chain(&chunks) {
            let naive = encode_piece_naive(chunk, |b| table.get(b)).unwrap();
            let mut plain = Vec::new();
            prop_assert!(table.encode_piece(chunk, &mut plain));
            prop_assert_eq!(&plain, &naive);
            let mut cached = vec![7];
            prop_assert!(encoder.encode(chunk, &mut cached));
            prop_assert_eq!(&cached[1..], &naive[..]);
        }
    }

    /// One text cut into parts, on one to three threads, gives the literal encoding, or the
    /// same error at the same place.
    #[test]
    fn parts_on_threads_equal_the_literal_encoding(
        text in nasty_text(),
        pattern in pattern(),
        parts in 1usize..9,
        threads in 1usize..4,
        allowed in any::<bool>(),
        others in others(),
    ) {
        let tokenizer = tokenizer(pattern);
        let (allow, other) = options(allowed, others);
        let fast = tokenizer.encode_in_parts(&text, &allow, other, parts, threads);
        match literal(tokenizer, &text, allowed, others) {
            Ok(ids) => prop_assert_eq!(fast.unwrap(), ids),
            Err(token) => match fast {
                Err(ByteLevelError::DisallowedSpecial { token: t, offset }) => {
                    prop_assert_eq!(&t, &token);
                    prop_assert_eq!(Some(offset), text.find(&token));
                }
                other => prop_assert!(false, "expected an error for {token:?}, got {other:?}"),
            },
        }
    }

}

proptest! {
    // Each case streams twice and writes the literal encoding out: fewer cases, the same reach
    // (block sizes from 1 byte, both units, 1 and 2 threads).
    #![proptest_config(crate::support::saved_cases::config(60))]

    /// Streamed in small blocks, whole or by lines, as ids, tokens or JSON: the output is the
    /// text's (or each line's) literal encoding written out.
    #[test]
    fn streams_in_small_blocks_equal_the_literal_encoding(
        text in nasty_text(),
        pattern in pattern(),
        block in 1usize..64,
        threads in 1usize..3,
        lines in any::<bool>(),
        allowed in any::<bool>(),
    ) {
        let tokenizer = tokenizer(pattern);
        let others = DisallowedSpecial::AsText;
        let (allow, other) = options(allowed, others);
        let texts: Vec<&str> = if lines {
            text.split_inclusive('\n').map(|l| l.strip_suffix('\n').unwrap_or(l)).collect()
        } else {
            vec![&text]
        };
        let mut expected = String::new();
        let mut json = String::new();
        for t in &texts {
            let ids = literal(tokenizer, t, allowed, others).unwrap();
            let words: Vec<String> = ids.iter().map(u32::to_string).collect();
            expected.push_str(&words.join(" "));
            expected.push('\n');
            let tokens: Vec<String> = ids
                .iter()
                .map(|&id| String::from_utf8_lossy(tokenizer.token_bytes(id).unwrap()).into_owned())
                .collect();
            json.push_str(&serde_json::json!({"ids": ids, "tokens": tokens}).to_string());
            json.push('\n');
        }
        let unit = if lines { EncodeUnit::Lines } else { EncodeUnit::Text };
        for (output, want) in [(EncodeOutput::Ids, &expected), (EncodeOutput::Json, &json)] {
            let opts = EncodeOptions {
                allowed: allow.clone(),
                others: other,
                unit,
                output,
                threads,
                block_bytes: block,
                ..EncodeOptions::default()
            };
            let mut out = Vec::new();
            tokenizer.encode_stream(&mut text.as_bytes(), &mut out, &opts).unwrap();
            prop_assert_eq!(String::from_utf8(out).unwrap(), want.clone());
        }
    }
}

/// Input that is not UTF-8 is refused at its byte and line, whatever the block size.
#[test]
fn a_stream_that_is_not_utf8_is_refused_at_its_byte() {
    let tokenizer = tokenizer(SplitPattern::Cl100k);
    let mut input = b"Hello\nworld\nagain ".repeat(20);
    let at = input.len() - 3;
    input[at] = 0xFF;
    for block in [1, 7, 64, 0] {
        let opts = EncodeOptions {
            block_bytes: block,
            ..EncodeOptions::default()
        };
        let err = tokenizer
            .encode_stream(&mut &input[..], &mut Vec::new(), &opts)
            .unwrap_err();
        assert!(
            matches!(err, bpe_lab::tokenizer::StreamError::NotUtf8 { offset, line, .. }
                if offset == at as u64 && line == 1 + input[..at].iter().filter(|&&b| b == b'\n').count() as u64),
            "{err:?}"
        );
    }
}

/// A special token that is not allowed fails the stream at its byte, on one thread and two:
/// what was written before is the start of the text's ids (the blocks before it, whole), and
/// nothing of the block that holds it.
#[test]
fn a_disallowed_special_fails_the_stream_after_whole_blocks_only() {
    let tokenizer = tokenizer(SplitPattern::Cl100k);
    let head = "Hello world, again and again.\nNext line 123 ok\n".repeat(400);
    let input = format!("{head}<|endoftext|> and after\nmore text\n");
    let ids = literal(tokenizer, &head, false, DisallowedSpecial::Error).unwrap();
    let words: Vec<String> = ids.iter().map(u32::to_string).collect();
    let all = words.join(" ");
    for threads in [1, 2] {
        for block in [64, 1000, 0] {
            let opts = EncodeOptions {
                block_bytes: block,
                threads,
                ..EncodeOptions::default()
            };
            let mut out = Vec::new();
            let err = tokenizer
                .encode_stream(&mut input.as_bytes(), &mut out, &opts)
                .unwrap_err();
            assert!(
                matches!(
                    &err,
                    bpe_lab::tokenizer::StreamError::Encode(ByteLevelError::DisallowedSpecial {
                        offset, ..
                    }) if *offset == head.len()
                ),
                "{err:?}"
            );
            let out = String::from_utf8(out).unwrap();
            // Whole blocks: the output ends where an id ends.
            assert!(
                all.starts_with(&out) && (out.is_empty() || all[out.len()..].starts_with(' ')),
                "threads {threads}, block {block}: {} of {} bytes written",
                out.len(),
                all.len()
            );
            // In small blocks, most of the text before the special is written before it is met.
            if block == 64 {
                assert!(
                    out.len() > all.len() / 2,
                    "threads {threads}: little written"
                );
            }
        }
    }
}

/// OpenAI's encodings read from the rank files compiled in (where the build found them) are
/// the ones tiktoken-rs's encoder gives, token for token.
#[cfg(feature = "openai")]
#[test]
fn compiled_in_rank_files_equal_tiktoken_rs() {
    use bpe_lab::tokenizer::OpenAiEncoding;
    for encoding in OpenAiEncoding::ALL {
        let mut ours = encoding.ranks();
        let mut theirs = encoding.ranks_from_tiktoken_rs();
        ours.sort_by_key(|&(_, r)| r);
        theirs.sort_by_key(|&(_, r)| r);
        assert!(ours == theirs, "{encoding}: the ranks differ");
    }
}
