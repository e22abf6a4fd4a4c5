//! The engine against the semantics of the course's Python originals as Python itself runs them (`Counter.most_common`,
//! tuple comparison, `str.split(" ")`), so the Rust oracle's reading of them is checked
//! too. Needs `python3` on the PATH, which every machine this project runs on has; without it
//! the test fails rather than pretending to pass.

use crate::support;

use bpe_lab::{apply_merges, learn_bpe, train_bpe};
use serde_json::{Value, json};
use support::{Rng, python_script};

fn python(cases: &Value) -> Vec<Value> {
    serde_json::from_value(python_script("seed_semantics.py", cases)).expect("a JSON list")
}

fn to_pairs(merges: &[(String, String)]) -> Value {
    json!(merges.iter().map(|(a, b)| [a, b]).collect::<Vec<_>>())
}

#[test]
fn engine_matches_python_running_the_seeds() {
    let mut rng = Rng(2026);
    let symbols = ["a", "b", "c", "ab", "aa", "é", "日", "</w>"];
    let chars = ["a", "b", " ", " ", "é", "n", "日"];
    let mut cases = Vec::new();
    let mut ours = Vec::new();
    for _ in 0..400 {
        // the training problem on symbol lists
        let alphabet = &symbols[..2 + rng.below(symbols.len() - 1)];
        let mut corpus: Vec<Vec<String>> = (0..rng.below(8))
            .map(|_| {
                (0..rng.below(8))
                    .map(|_| rng.pick(alphabet).to_string())
                    .collect()
            })
            .collect();
        let n = rng.below(20);
        cases.push(json!({"kind": "train", "corpus": corpus.clone(), "n": n}));
        let merges = train_bpe(&mut corpus, n);
        ours.push(json!({"merges": to_pairs(&merges), "corpus": corpus}));

        // the lab's learn_bpe on paragraphs
        let dataset: Vec<String> = (0..1 + rng.below(5))
            .map(|_| (0..rng.below(14)).map(|_| rng.pick(&chars)).collect())
            .collect();
        let n = rng.below(20);
        cases.push(json!({"kind": "learn", "dataset": dataset, "n": n}));
        let (merges, _, corpus) = learn_bpe(&dataset, n);
        ours.push(json!({"merges": to_pairs(&merges), "corpus": corpus}));

        // the apply-merges problem with arbitrary merge lists
        let tokens: Vec<String> = (0..rng.below(30))
            .map(|_| rng.pick(&symbols[..4]).to_string())
            .collect();
        let merges: Vec<(String, String)> = (0..rng.below(10))
            .map(|_| {
                (
                    rng.pick(&symbols[..5]).to_string(),
                    rng.pick(&symbols[..5]).to_string(),
                )
            })
            .collect();
        cases.push(json!({"kind": "apply", "tokens": tokens, "merges": to_pairs(&merges)}));
        ours.push(json!({"tokens": apply_merges(&tokens, &merges)}));
    }
    let theirs = python(&json!(cases));
    assert_eq!(theirs.len(), ours.len());
    for ((case, ours), theirs) in cases.iter().zip(&ours).zip(&theirs) {
        assert_eq!(ours, theirs, "case {case}");
    }
}
