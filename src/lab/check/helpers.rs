//! What every exercise's check is built from, written once so that the check files hold only
//! their cases, comparison and hint: the seeded stream of generated cases, the plain strings
//! behind shrinkable texts, and showing a result as the cell's output.

use super::Check;
use super::cases::Rng;
use super::shrink::Text;

/// `count` cases made by `make` from the seed: the same cases for every student.
pub(super) fn generated<I>(
    count: usize,
    seed: u64,
    make: impl Fn(&mut Rng) -> I,
) -> impl Iterator<Item = I> {
    let mut rng = Rng::new(seed);
    (0..count).map(move |_| make(&mut rng))
}

/// The strings behind shrinkable texts, as the student's function takes them.
pub(super) fn plain(items: &[Text]) -> Vec<String> {
    items.iter().map(|t| t.0.clone()).collect()
}

/// Shows a result as the cell's output and hands it back.
pub(super) fn show(check: Check) -> Check {
    check.show();
    check
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_is_seeded_and_counted() {
        let a: Vec<usize> = generated(5, 7, |rng| rng.below(1000)).collect();
        let b: Vec<usize> = generated(5, 7, |rng| rng.below(1000)).collect();
        let c: Vec<usize> = generated(5, 8, |rng| rng.below(1000)).collect();
        assert_eq!(a.len(), 5);
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn plain_keeps_order_and_text() {
        let items = vec![Text("é".into()), Text(String::new()), Text("ab".into())];
        assert_eq!(
            plain(&items),
            vec!["é".to_string(), String::new(), "ab".into()]
        );
    }
}
