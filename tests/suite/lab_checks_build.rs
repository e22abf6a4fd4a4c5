//! Notebook 07's four exercises that build a tokenizer: `merge_ids`, `train_byte_bpe`,
//! `decode_ids`, `recover_merges`. A right answer, written here from the notebook's text,
//! passes; `todo!()` reads "not implemented"; each usual mistake fails with a small
//! counterexample. The references are compared with the byte-level oracle, and the recovered
//! merges of cl100k_base give tiktoken's ids on the stand-in dataset.

use bpe_lab::lab::check::{self, Status};
use std::collections::HashMap;

type IdMerge = ((u32, u32), u32);

fn merge_right(ids: &[u32], pair: (u32, u32), new_id: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        if i + 1 < ids.len() && (ids[i], ids[i + 1]) == pair {
            out.push(new_id);
            i += 2;
        } else {
            out.push(ids[i]);
            i += 1;
        }
    }
    out
}

/// Looks at each window: `[5, 5, 5]` with `(5, 5)` merges both overlapping pairs.
fn merge_overlapping(ids: &[u32], pair: (u32, u32), new_id: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for w in ids.windows(2) {
        if (w[0], w[1]) == pair {
            out.push(new_id);
        }
    }
    if out.is_empty() { ids.to_vec() } else { out }
}

/// Forgets the last id when the pair does not end the list.
fn merge_drops_last(ids: &[u32], pair: (u32, u32), new_id: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < ids.len() {
        if (ids[i], ids[i + 1]) == pair {
            out.push(new_id);
            i += 2;
        } else {
            out.push(ids[i]);
            i += 1;
        }
    }
    out
}

#[test]
fn merge_ids_checks() {
    let right = check::merge_ids(merge_right);
    assert_eq!(right.status, Status::Passed, "{}", right.message);
    for wrong in [merge_overlapping, merge_drops_last] {
        let c = check::merge_ids(wrong);
        assert_eq!(c.status, Status::Failed);
        let shown = c.counterexample.expect("a counterexample").input;
        assert!(shown.len() < 60, "not shrunk: {shown}");
    }
    assert_eq!(
        check::merge_ids(|_: &[u32], _: (u32, u32), _: u32| -> Vec<u32> { todo!() }).status,
        Status::NotImplemented
    );
}

/// minbpe's loop as the notebook asks for it; `first_id` and `across` plant the mistakes.
fn train_with(chunks: &[String], num_merges: usize, first_id: u32, across: bool) -> Vec<IdMerge> {
    let mut ids: Vec<Vec<u32>> = chunks
        .iter()
        .map(|c| c.bytes().map(u32::from).collect())
        .collect();
    if across {
        ids = vec![ids.concat()];
    }
    let mut merges = Vec::new();
    for step in 0..num_merges as u32 {
        let mut order: Vec<(u32, u32)> = Vec::new();
        let mut counts: HashMap<(u32, u32), usize> = HashMap::new();
        for chunk in &ids {
            for w in chunk.windows(2) {
                let n = counts.entry((w[0], w[1])).or_insert(0);
                if *n == 0 {
                    order.push((w[0], w[1]));
                }
                *n += 1;
            }
        }
        let mut best: Option<(u32, u32)> = None;
        for p in order {
            if best.is_none() || counts[&p] > counts[&best.unwrap()] {
                best = Some(p);
            }
        }
        let Some(pair) = best else { break };
        let id = first_id + step;
        ids = ids.iter().map(|c| merge_right(c, pair, id)).collect();
        merges.push((pair, id));
    }
    merges
}

/// Ties to the smallest pair instead of the one counted first.
fn train_smallest_tie(chunks: &[String], num_merges: usize) -> Vec<IdMerge> {
    let mut ids: Vec<Vec<u32>> = chunks
        .iter()
        .map(|c| c.bytes().map(u32::from).collect())
        .collect();
    let mut merges = Vec::new();
    for step in 0..num_merges as u32 {
        let mut counts: HashMap<(u32, u32), usize> = HashMap::new();
        for chunk in &ids {
            for w in chunk.windows(2) {
                *counts.entry((w[0], w[1])).or_insert(0) += 1;
            }
        }
        let Some((&pair, _)) = counts.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0))) else {
            break;
        };
        ids = ids
            .iter()
            .map(|c| merge_right(c, pair, 256 + step))
            .collect();
        merges.push((pair, 256 + step));
    }
    merges
}

#[test]
fn train_byte_bpe_checks() {
    let right = check::train_byte_bpe(|c: &[String], n: usize| train_with(c, n, 256, false));
    assert_eq!(right.status, Status::Passed, "{}", right.message);
    let from_zero = check::train_byte_bpe(|c: &[String], n: usize| train_with(c, n, 0, false));
    assert_eq!(from_zero.status, Status::Failed);
    let across = check::train_byte_bpe(|c: &[String], n: usize| train_with(c, n, 256, true));
    assert_eq!(across.status, Status::Failed);
    let shown = across.counterexample.expect("a counterexample").input;
    assert!(shown.len() < 80, "not shrunk: {shown}");
    assert_eq!(
        check::train_byte_bpe(train_smallest_tie).status,
        Status::Failed
    );
    // The merges the exercise's rule gives agree with minbpe's own loop (the oracle).
    let chunks = ["aaab", " aab", " Yorùbá", " Yorùbá", "ab", "ba"].map(String::from);
    let bytes: Vec<Vec<u8>> = chunks.iter().map(|c| c.as_bytes().to_vec()).collect();
    for n in [0, 1, 5, 40] {
        let (oracle, _) = bpe_lab::bpe::bytelevel::oracle::train_minbpe_ids(&bytes, n);
        assert_eq!(train_with(&chunks, n, 256, false), oracle);
    }
}

fn vocab(merges: &[IdMerge]) -> HashMap<u32, Vec<u8>> {
    let mut v: HashMap<u32, Vec<u8>> = (0..=255u8).map(|b| (b as u32, vec![b])).collect();
    for &((a, b), id) in merges {
        let joined = [v[&a].clone(), v[&b].clone()].concat();
        v.insert(id, joined);
    }
    v
}

fn decode_right(ids: &[u32], merges: &[IdMerge]) -> String {
    let v = vocab(merges);
    let bytes: Vec<u8> = ids.iter().flat_map(|id| v[id].clone()).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Each token read as text on its own: a character split over two ids becomes two `�`.
fn decode_per_token(ids: &[u32], merges: &[IdMerge]) -> String {
    let v = vocab(merges);
    ids.iter()
        .map(|id| String::from_utf8_lossy(&v[id]).into_owned())
        .collect()
}

#[test]
fn decode_ids_checks() {
    let right = check::decode_ids(decode_right);
    assert_eq!(right.status, Status::Passed, "{}", right.message);
    let wrong = check::decode_ids(decode_per_token);
    assert_eq!(wrong.status, Status::Failed);
    let c = wrong.counterexample.expect("a counterexample");
    assert!(c.input.contains("ids = ["), "{}", c.input);
    assert_eq!(
        check::decode_ids(|ids: &[u32], merges: &[IdMerge]| {
            bpe_lab::lab::bytes::decode_ids(ids, merges)
        })
        .status,
        Status::UsedReference
    );
}

/// tiktoken's split of a token with the tokens ranked below it; `assume_values` plants the
/// mistake of taking a single byte's rank to be its value.
fn recover_with(ranks: &HashMap<Vec<u8>, u32>, assume_values: bool) -> Vec<IdMerge> {
    let rank_of = |bytes: &[u8]| {
        if assume_values && bytes.len() == 1 {
            Some(bytes[0] as u32)
        } else {
            ranks.get(bytes).copied()
        }
    };
    let mut tokens: Vec<(&Vec<u8>, u32)> = ranks
        .iter()
        .filter(|(b, _)| b.len() > 1)
        .map(|(b, &r)| (b, r))
        .collect();
    tokens.sort_by_key(|t| t.1);
    let mut merges = Vec::new();
    for (token, rank) in tokens {
        let mut parts: Vec<Vec<u8>> = token.iter().map(|&b| vec![b]).collect();
        loop {
            let mut best: Option<(u32, usize)> = None;
            for i in 0..parts.len() - 1 {
                let joined = [parts[i].clone(), parts[i + 1].clone()].concat();
                if let Some(r) = ranks.get(&joined).copied().filter(|&r| r < rank)
                    && best.is_none_or(|(b, _)| r < b)
                {
                    best = Some((r, i));
                }
            }
            let Some((_, i)) = best else { break };
            let right = parts.remove(i + 1);
            parts[i].extend(right);
        }
        if parts.len() == 2 {
            merges.push((
                (rank_of(&parts[0]).unwrap(), rank_of(&parts[1]).unwrap()),
                rank,
            ));
        }
    }
    merges
}

/// Splits each token into its longest ranked prefix and the rest, ignoring merge order.
fn recover_longest_prefix(ranks: &HashMap<Vec<u8>, u32>) -> Vec<IdMerge> {
    let mut tokens: Vec<(&Vec<u8>, u32)> = ranks
        .iter()
        .filter(|(b, _)| b.len() > 1)
        .map(|(b, &r)| (b, r))
        .collect();
    tokens.sort_by_key(|t| t.1);
    tokens
        .into_iter()
        .filter_map(|(token, rank)| {
            (1..token.len()).find_map(|cut| {
                let cut = token.len() - cut;
                let (a, b) = (ranks.get(&token[..cut])?, ranks.get(&token[cut..])?);
                Some(((*a, *b), rank))
            })
        })
        .collect()
}

#[test]
fn recover_merges_checks() {
    let right = check::recover_merges(|r: &HashMap<Vec<u8>, u32>| recover_with(r, false));
    assert_eq!(right.status, Status::Passed, "{}", right.message);
    let values = check::recover_merges(|r: &HashMap<Vec<u8>, u32>| recover_with(r, true));
    assert_eq!(values.status, Status::Failed);
    assert_eq!(
        check::recover_merges(recover_longest_prefix).status,
        Status::Failed
    );
    // A merge whose part ranks above the token it makes breaks the property the recipe rests
    // on, and the check says so beside the answer.
    let above = check::recover_merges(|_: &HashMap<Vec<u8>, u32>| vec![((1000, 97), 256)]);
    assert_eq!(above.status, Status::Failed);
    let got = above.counterexample.expect("a counterexample").got;
    assert!(
        got.contains("((1000, 97), 256) is no merge BPE could have made: its part 1000 does not rank below the token 256"),
        "{got}"
    );
    let below = check::recover_merges(|_: &HashMap<Vec<u8>, u32>| vec![((97, 98), 256)]);
    let got = below.counterexample.expect("a counterexample").got;
    assert!(!got.contains("no merge BPE could have made"), "{got}");
}

/// The hardest exercise's promise, at the library level: cl100k_base's merges recovered from
/// its ranks, applied minbpe's way (lowest new id first, every occurrence), give tiktoken's
/// ids (tiktoken-rs, in process) on every paragraph of the stand-in.
#[test]
fn recovered_cl100k_merges_encode_as_tiktoken() {
    use bpe_lab::bpe::bytelevel::{SplitPattern, Splitter};
    use bpe_lab::tokenizer::OpenAiEncoding;
    let gpt4 = OpenAiEncoding::Cl100kBase.tokenizer().expect("cl100k_base");
    let ranks: HashMap<Vec<u8>, u32> = gpt4
        .tokens()
        .into_iter()
        .map(|(b, r)| (b.to_vec(), r))
        .collect();
    let merges = bpe_lab::lab::bytes::recover_merges(&ranks);
    assert_eq!(
        merges.len(),
        ranks.len() - 256,
        "every longer token has its pair"
    );
    let by_pair: HashMap<(u32, u32), u32> = merges.iter().copied().collect();
    let splitter = Splitter::new(SplitPattern::Cl100k).unwrap();
    let tiktoken = tiktoken_rs::cl100k_base().expect("tiktoken-rs's cl100k_base");
    let paragraphs: Vec<String> = serde_json_paragraphs();
    for paragraph in &paragraphs {
        let mut ids = Vec::new();
        for chunk in splitter.chunks(paragraph).unwrap() {
            let mut part: Vec<u32> = chunk.bytes().map(|b| ranks[&vec![b]]).collect();
            while let Some((pair, id)) = part
                .windows(2)
                .filter_map(|w| by_pair.get(&(w[0], w[1])).map(|&id| ((w[0], w[1]), id)))
                .min_by_key(|&(_, id)| id)
            {
                part = merge_right(&part, pair, id);
            }
            ids.extend(part);
        }
        assert_eq!(ids, tiktoken.encode_ordinary(paragraph), "{paragraph}");
    }
    // Why recovering works: each merge's two parts rank below the token they make and spell it.
    let bytes_of: HashMap<u32, &Vec<u8>> = ranks.iter().map(|(b, &r)| (r, b)).collect();
    for &((a, b), r) in &merges {
        assert!(a < r && b < r, "(({a}, {b}), {r})");
        assert_eq!(
            &[bytes_of[&a].as_slice(), bytes_of[&b]].concat(),
            bytes_of[&r]
        );
    }
    // The notebook's last comparison: single-byte ranks renamed to byte values for minbpe's
    // numbering, the crate's encode_ids and decode_ids, on the UDHR texts and a line of emoji,
    // CJK, digits and a special token's text.
    let byte_rank: Vec<u32> = (0..=255u8).map(|b| ranks[&vec![b]]).collect();
    assert!(byte_rank.iter().all(|&r| r < 256));
    let rank_byte: HashMap<u32, u32> = byte_rank
        .iter()
        .enumerate()
        .map(|(b, &r)| (r, b as u32))
        .collect();
    let to_values = |id: u32| if id < 256 { rank_byte[&id] } else { id };
    let to_ranks = |id: u32| if id < 256 { byte_rank[id as usize] } else { id };
    let minbpe: Vec<((u32, u32), u32)> = merges
        .iter()
        .map(|&((a, b), id)| ((to_values(a), to_values(b)), id))
        .collect();
    let mut texts: Vec<String> = bpe_lab::lab::parallel::udhr()
        .languages
        .iter()
        .map(|t| t.text())
        .collect();
    texts.push("🙂👩🏽‍🍳🇳🇬 東京と北京、ソウル 1234567 3.14159 <|endoftext|> ߒߞߏ ኢትዮጵያ".to_string());
    for text in &texts {
        let chunks: Vec<String> = splitter
            .chunks(text)
            .unwrap()
            .into_iter()
            .map(String::from)
            .collect();
        let ids: Vec<u32> = bpe_lab::lab::reference::encode_ids(&chunks, &minbpe)
            .into_iter()
            .map(to_ranks)
            .collect();
        let theirs = tiktoken.encode_ordinary(text);
        assert_eq!(ids, theirs, "{text}");
        let values: Vec<u32> = theirs.iter().map(|&id| to_values(id)).collect();
        assert_eq!(&bpe_lab::lab::reference::decode_ids(&values, &minbpe), text);
    }
}

/// A rank file no BPE training makes (`abc` ranked below `ab`, with no two lower tokens that
/// spell it): the recipe finds no pair for `abc`, as notebook 07 shows.
#[test]
fn a_token_no_merge_made_has_no_recovered_merge() {
    let ranks: HashMap<Vec<u8>, u32> = [
        (b"a".to_vec(), 0),
        (b"b".to_vec(), 1),
        (b"c".to_vec(), 2),
        (b"abc".to_vec(), 3),
        (b"ab".to_vec(), 4),
    ]
    .into_iter()
    .collect();
    assert_eq!(
        bpe_lab::lab::reference::recover_merges(&ranks),
        [((0, 1), 4)]
    );
}

fn serde_json_paragraphs() -> Vec<String> {
    let rows: Vec<HashMap<String, String>> =
        serde_json::from_str(bpe_lab::dataset::STAND_IN_JSON).expect("the stand-in is JSON");
    rows.into_iter().map(|r| r["description"].clone()).collect()
}

/// Every check cell of notebook 07 has its task box just before its solution cell, and the box
/// states the points the check gives; the seven exercises of 07 are the ones checked.
#[test]
fn notebook_07_task_boxes_state_each_checks_points() {
    use crate::support::notebooks::{cell_text, read_json, root};
    let nb = read_json(&root().join("instructor").join("07-bytes.ipynb"));
    let cells = nb["cells"].as_array().unwrap();
    let mut checked: Vec<String> = Vec::new();
    for (i, cell) in cells.iter().enumerate() {
        let Some(exercise) = cell["metadata"]["bpe_lab"]["exercise"].as_str() else {
            continue;
        };
        let points = cell["metadata"]["bpe_lab"]["points"].as_u64().unwrap();
        let unit = if points == 1 { "point" } else { "points" };
        let wanted = format!("### ✍️ Your task: `{exercise}` ({points} {unit})");
        let task = cells[..i]
            .iter()
            .rev()
            .map(|c| cell_text(&c["source"]))
            .find(|text| text.contains("### ✍️ Your task"))
            .unwrap_or_default();
        assert!(
            task.contains(&wanted),
            "{exercise}: no `{wanted}` in\n{task}"
        );
        checked.push(exercise.to_string());
    }
    assert_eq!(
        checked,
        [
            "byte_initialize",
            "count_pairs_in_chunks",
            "merge_ids",
            "train_byte_bpe",
            "encode_ids",
            "decode_ids",
            "recover_merges"
        ]
    );
}

/// Notebook 07 invites 5000 merges; the stand-in allows fewer, and training says it stopped
/// for want of pairs (the notebook's early-stop message), having learned every merge it could.
#[test]
fn the_stand_in_runs_out_of_pairs_before_5000_merges() {
    use bpe_lab::TieBreak;
    use bpe_lab::bpe::bytelevel::{ByteTrainer, ChunkCounts, SplitPattern, Splitter};
    use bpe_lab::bpe::train::StopReason;
    let text = serde_json_paragraphs().join("\n");
    let splitter = Splitter::new(SplitPattern::Cl100k).unwrap();
    let chunks = ChunkCounts::from_text(&text, &splitter, &[], 1).unwrap();
    let training = ByteTrainer::new(5000)
        .tie_break(TieBreak::FirstSeen)
        .train(&chunks);
    assert_eq!(training.stop, StopReason::NoPairs);
    assert!(training.merges.len() < 5000);
    // Every chunk is one token now: nothing was left to merge.
    let tokens: std::collections::HashSet<Vec<u8>> = training.tokens().into_iter().collect();
    assert!(
        chunks
            .iter()
            .all(|(c, _)| c.len() < 2 || tokens.contains(c))
    );
}
