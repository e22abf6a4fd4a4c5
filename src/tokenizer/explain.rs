//! Training explained round by round, as the training problem's table does it: the pair counts of each
//! round, the winning pair and why it won (more frequent, or a tie settled by the tie-break
//! policy), and the corpus after the merge.
//!
//! Every number comes from the literal oracle in [`crate::bpe::oracle`] ([`ranked_pairs`],
//! whose order is the oracle's [`Rank`](crate::bpe::oracle::Rank), and [`merge_pair_in_word`]),
//! not the fast engine:
//! this is for looking at small corpora, and it shows exactly what the textbook loop does.
//!
//! ```
//! use bpe_lab::TieBreak;
//! use bpe_lab::tokenizer::explain::explain;
//! // The training problem, example 1: corpus [["a","b","c","a","b"]], three merges.
//! let corpus = vec!["abcab".chars().map(String::from).collect()];
//! let table = explain(corpus, 3, TieBreak::Lexicographic);
//! let text = table.to_string();
//! assert!(text.contains(r#"| 2 | (ab,c)=1, (c,ab)=1 | (ab,c) → "abc": tie at 1 with (c,ab), lexicographic: "ab" < "c" | [["abc","ab"]] |"#));
//! ```

use std::fmt;

use serde_json::{Value, json};

use crate::bpe::oracle::{PairCount, merge_pair_in_word, ranked_pairs};
use crate::bpe::{EOW, TieBreak};
use crate::tokenizer::split::Split;

/// Corpora larger than this are refused by [`too_large`]: the table would be unreadable.
pub const MAX_WORDS: usize = 64;
/// The most base symbols (all words together) a corpus may have for [`too_large`].
pub const MAX_SYMBOLS: usize = 1_000;
/// The most rounds [`too_large`] accepts.
pub const MAX_ROUNDS: usize = 100;
/// How many pairs a round lists before "… and N more".
const LISTED_PAIRS: usize = 8;

type Pair = (String, String);

/// What happened in training, round by round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    pub tie_break: TieBreak,
    /// The corpus before the first round.
    pub initial: Vec<Vec<String>>,
    pub rounds: Vec<Round>,
    /// Whether training stopped because no adjacent pair was left (before the rounds asked).
    pub ran_out_of_pairs: bool,
}

/// One round of training.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    /// 1-based.
    pub number: usize,
    /// Every adjacent pair with its count, most frequent first; equally frequent pairs in the
    /// tie-break policy's order, so the first one is the winner.
    pub pair_counts: Vec<(Pair, usize)>,
    pub winner: Pair,
    pub count: usize,
    pub reason: Reason,
    pub corpus_after: Vec<Vec<String>>,
}

/// Why the winner won.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// It is more frequent than every other pair; `runner_up` is the next count, if any.
    MostFrequent { runner_up: Option<usize> },
    /// Several pairs share the highest count; the policy chose. `others` are the other tied
    /// pairs in policy order.
    Tie {
        policy: TieBreak,
        others: Vec<Pair>,
        /// First-seen: where (1-based word and symbol) the winner and the next tied pair first
        /// occur.
        first_seen: Option<((usize, usize), (usize, usize))>,
    },
}

/// The lab's initialization of `paragraphs` as `explain` shows it: each paragraph cut at every
/// single space ([`Split::Space`]), each word its characters followed by `</w>` when
/// `end_of_word` (the training problem's examples leave it out).
pub fn initial_corpus(paragraphs: &[impl AsRef<str>], end_of_word: bool) -> Vec<Vec<String>> {
    paragraphs
        .iter()
        .flat_map(|p| Split::Space.words(p.as_ref()))
        .map(|word| {
            let mut symbols: Vec<String> = word.chars().map(String::from).collect();
            if end_of_word {
                symbols.push(EOW.to_owned());
            }
            symbols
        })
        .collect()
}

/// Why `corpus` with `num_merges` rounds is too large to explain usefully, if it is.
pub fn too_large(corpus: &[Vec<String>], num_merges: usize) -> Option<String> {
    let symbols: usize = corpus.iter().map(Vec::len).sum();
    if corpus.len() > MAX_WORDS {
        Some(format!(
            "the corpus has {} words; the table is meant for small examples of at most \
             {MAX_WORDS} words (use `bpe-lab train` for real corpora)",
            corpus.len()
        ))
    } else if symbols > MAX_SYMBOLS {
        Some(format!(
            "the corpus has {symbols} symbols; the table is meant for small examples of at most \
             {MAX_SYMBOLS} (use `bpe-lab train` for real corpora)"
        ))
    } else if num_merges > MAX_ROUNDS {
        Some(format!(
            "{num_merges} rounds would make a table nobody reads; ask for at most {MAX_ROUNDS}"
        ))
    } else {
        None
    }
}

/// Trains on `corpus` (words as lists of symbols) for up to `num_merges` rounds with the
/// literal oracle, recording each round.
pub fn explain(corpus: Vec<Vec<String>>, num_merges: usize, tie_break: TieBreak) -> Explanation {
    let initial = corpus.clone();
    let mut corpus = corpus;
    let mut rounds = Vec::new();
    let mut ran_out_of_pairs = false;
    for number in 1..=num_merges {
        let ranked = ranked_pairs(&corpus, tie_break);
        let Some(best) = ranked.first() else {
            ran_out_of_pairs = true;
            break;
        };
        let (winner, count) = (owned(best), best.count);
        let tied: Vec<&PairCount> = ranked[1..]
            .iter()
            .take_while(|p| p.count == count)
            .collect();
        let reason = if tied.is_empty() {
            Reason::MostFrequent {
                runner_up: ranked.get(1).map(|p| p.count),
            }
        } else {
            // 1-based, as the table shows them.
            let position = |p: &PairCount| (p.first.0 + 1, p.first.1 + 1);
            Reason::Tie {
                policy: tie_break,
                others: tied.iter().map(|p| owned(p)).collect(),
                first_seen: (tie_break == TieBreak::FirstSeen)
                    .then(|| (position(best), position(tied[0]))),
            }
        };
        let pair_counts = ranked.iter().map(|p| (owned(p), p.count)).collect();
        for word in &mut corpus {
            *word = merge_pair_in_word(word, &winner);
        }
        rounds.push(Round {
            number,
            pair_counts,
            winner,
            count,
            reason,
            corpus_after: corpus.clone(),
        });
    }
    Explanation {
        tie_break,
        initial,
        rounds,
        ran_out_of_pairs,
    }
}

fn owned(p: &PairCount) -> Pair {
    (p.pair.0.to_owned(), p.pair.1.to_owned())
}

/// A symbol as written in the table: bare when unambiguous, else as a JSON string.
fn symbol(s: &str) -> String {
    let plain = !s.is_empty()
        && !s
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || ",()=\"|\\".contains(c));
    if plain {
        s.to_owned()
    } else {
        serde_json::to_string(s).expect("a string serializes")
    }
}

fn pair(p: &Pair) -> String {
    format!("({},{})", symbol(&p.0), symbol(&p.1))
}

fn corpus_json(corpus: &[Vec<String>]) -> String {
    serde_json::to_string(corpus).expect("strings serialize")
}

/// A table cell: `|` would end it.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

impl Round {
    /// The "pair counts" cell: the first few pairs, then how many more.
    pub fn counts_text(&self) -> String {
        let mut parts: Vec<String> = self
            .pair_counts
            .iter()
            .take(LISTED_PAIRS)
            .map(|(p, c)| format!("{}={c}", pair(p)))
            .collect();
        if self.pair_counts.len() > LISTED_PAIRS {
            parts.push(format!("… {} more", self.pair_counts.len() - LISTED_PAIRS));
        }
        parts.join(", ")
    }

    /// The "winner" cell: the pair, the new symbol, and why.
    pub fn winner_text(&self) -> String {
        let merged = format!("{}{}", self.winner.0, self.winner.1);
        let why = match &self.reason {
            Reason::MostFrequent { runner_up: None } => {
                format!("the only pair ({})", self.count)
            }
            Reason::MostFrequent {
                runner_up: Some(next),
            } => format!("most frequent ({} > {next})", self.count),
            Reason::Tie {
                policy,
                others,
                first_seen,
            } => {
                let mut with: Vec<String> = others.iter().take(3).map(pair).collect();
                if others.len() > 3 {
                    with.push(format!("{} more", others.len() - 3));
                }
                let rule = match (policy, first_seen) {
                    (TieBreak::Lexicographic, _) => {
                        let other = &others[0];
                        if self.winner.0 != other.0 {
                            format!("{policy}: {:?} < {:?}", self.winner.0, other.0)
                        } else {
                            format!("{policy}: same left, {:?} < {:?}", self.winner.1, other.1)
                        }
                    }
                    (TieBreak::FirstSeen, Some(((w, s), (w2, s2)))) => {
                        format!("{policy}: word {w} symbol {s} comes before word {w2} symbol {s2}")
                    }
                    (TieBreak::FirstSeen, None) => policy.to_string(),
                };
                format!("tie at {} with {}, {rule}", self.count, with.join(", "))
            }
        };
        format!(
            "{} → {}: {why}",
            pair(&self.winner),
            serde_json::to_string(&merged).expect("a string serializes")
        )
    }
}

impl Explanation {
    /// The explanation as JSON: `tie_break`, `initial`, `rounds` (each with `round`,
    /// `pair_counts` as `[[left, right], count]`, `winner`, `merged`, `count`, `reason`,
    /// `corpus_after`), `stopped_early`.
    pub fn to_json(&self) -> Value {
        let rounds: Vec<Value> = self
            .rounds
            .iter()
            .map(|r| {
                let reason = match &r.reason {
                    Reason::MostFrequent { runner_up } => {
                        json!({"kind": "most_frequent", "runner_up_count": runner_up})
                    }
                    Reason::Tie {
                        policy, others, ..
                    } => json!({
                        "kind": "tie",
                        "tie_break": policy.name(),
                        "tied_with": others.iter().map(|(a, b)| [a, b]).collect::<Vec<_>>(),
                    }),
                };
                json!({
                    "round": r.number,
                    "pair_counts": r.pair_counts.iter().map(|((a, b), c)| json!([[a, b], c])).collect::<Vec<_>>(),
                    "winner": [&r.winner.0, &r.winner.1],
                    "merged": format!("{}{}", r.winner.0, r.winner.1),
                    "count": r.count,
                    "reason": reason,
                    "corpus_after": r.corpus_after,
                })
            })
            .collect();
        json!({
            "tie_break": self.tie_break.name(),
            "initial": self.initial,
            "rounds": rounds,
            "stopped_early": self.ran_out_of_pairs,
        })
    }
}

/// A Markdown table like the training problem's: round, pair counts, winner (and why), corpus after.
impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "corpus: {}", cell(&corpus_json(&self.initial)))?;
        writeln!(f, "tie-break: {}", self.tie_break.name())?;
        writeln!(f)?;
        writeln!(f, "| round | pair counts | winner | corpus after |")?;
        writeln!(f, "|---|---|---|---|")?;
        for round in &self.rounds {
            writeln!(
                f,
                "| {} | {} | {} | {} |",
                round.number,
                cell(&round.counts_text()),
                cell(&round.winner_text()),
                cell(&corpus_json(&round.corpus_after))
            )?;
        }
        if self.ran_out_of_pairs {
            writeln!(
                f,
                "\nstopped after {} round{}: no adjacent pair is left (every word is one symbol)",
                self.rounds.len(),
                if self.rounds.len() == 1 { "" } else { "s" }
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bpe::oracle::train_bpe_naive;

    fn words(items: &[&str]) -> Vec<Vec<String>> {
        items
            .iter()
            .map(|w| w.chars().map(String::from).collect())
            .collect()
    }

    /// The training problem's three examples, with the winners and reasons its text gives.
    #[test]
    fn seed_000_examples() {
        let e = explain(words(&["abcab"]), 3, TieBreak::Lexicographic);
        let winners: Vec<String> = e.rounds.iter().map(|r| pair(&r.winner)).collect();
        assert_eq!(winners, ["(a,b)", "(ab,c)", "(abc,ab)"]);
        assert_eq!(e.rounds[0].counts_text(), "(a,b)=2, (b,c)=1, (c,a)=1");
        assert_eq!(e.rounds[0].corpus_after, [["ab", "c", "ab"]]);
        assert!(matches!(e.rounds[1].reason, Reason::Tie { .. }));
        assert_eq!(e.rounds[2].corpus_after, [["abcab"]]);
        assert!(!e.ran_out_of_pairs);

        let e = explain(words(&["ab", "ac"]), 1, TieBreak::Lexicographic);
        assert!(
            e.rounds[0]
                .winner_text()
                .ends_with(r#"lexicographic: same left, "b" < "c""#)
        );

        let e = explain(words(&["ab", "xyxyxy"]), 1, TieBreak::Lexicographic);
        assert!(
            e.rounds[0]
                .winner_text()
                .starts_with("(x,y) → \"xy\": most frequent (3 > 2)")
        );
    }

    #[test]
    fn stops_when_no_pair_is_left() {
        let e = explain(words(&["ab", "c"]), 5, TieBreak::FirstSeen);
        assert_eq!(e.rounds.len(), 1);
        assert!(e.ran_out_of_pairs);
        assert!(e.to_string().contains("stopped after 1 round:"));
    }

    /// The winners are the naive trainer's merges, under both policies, on corpora with
    /// many ties.
    #[test]
    fn winners_are_the_oracle_merges() {
        let corpus = words(&["abab", "baba", "aab", "bba", "ab", "ba"]);
        for policy in [TieBreak::Lexicographic, TieBreak::FirstSeen] {
            let e = explain(corpus.clone(), 20, policy);
            let merges = train_bpe_naive(&mut corpus.clone(), 20, policy);
            let winners: Vec<Pair> = e.rounds.iter().map(|r| r.winner.clone()).collect();
            assert_eq!(winners, merges);
        }
    }

    #[test]
    fn first_seen_names_the_positions() {
        let e = explain(words(&["cd", "ab"]), 1, TieBreak::FirstSeen);
        assert_eq!(
            e.rounds[0].winner_text(),
            "(c,d) → \"cd\": tie at 1 with (a,b), first-seen: word 1 symbol 1 comes before word 2 symbol 1"
        );
    }

    #[test]
    fn odd_symbols_are_quoted_and_pipes_escaped() {
        assert_eq!(symbol("a b"), "\"a b\"");
        assert_eq!(symbol(","), "\",\"");
        assert_eq!(symbol("</w>"), "</w>");
        let e = explain(words(&["|a|a"]), 1, TieBreak::Lexicographic);
        assert!(e.to_string().contains("(\"\\|\",a)=2"), "{e}");
    }

    #[test]
    fn size_limits() {
        assert!(too_large(&words(&["ab"; 64]), 100).is_none());
        assert!(
            too_large(&words(&["ab"; 65]), 1)
                .unwrap()
                .contains("65 words")
        );
        assert!(too_large(&words(&["ab"]), 101).is_some());
        let long = "x".repeat(MAX_SYMBOLS + 1);
        assert!(too_large(&words(&[&long]), 1).unwrap().contains("symbols"));
    }
}
