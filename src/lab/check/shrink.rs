//! Smaller versions of a failing input, so a check can show the smallest case that still
//! fails rather than the first random one.

/// Candidates smaller than `self`, biggest cuts first. Each candidate is strictly smaller (in
/// length, or in characters moved towards `'a'`, or in value), so shrinking always ends.
pub trait Shrink: Sized {
    fn shrink(&self) -> Vec<Self>;
}

/// A symbol (`"a"`, `"ab"`, `"</w>"`) is shrunk only by leaving it out of its list: cutting
/// it into pieces would show the student symbols no corpus has, like `""` or `"/w>"`.
impl Shrink for String {
    fn shrink(&self) -> Vec<String> {
        Vec::new()
    }
}

/// Text (a paragraph, a sentence to encode): shrunk character by character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text(pub String);

impl Shrink for Text {
    fn shrink(&self) -> Vec<Text> {
        let chars: Vec<char> = self.0.chars().collect();
        let mut out = Vec::new();
        if chars.len() > 1 {
            let half = chars.len() / 2;
            out.push(chars[..half].iter().collect());
            out.push(chars[half..].iter().collect());
        }
        for i in 0..chars.len() {
            out.push(chars[..i].iter().chain(&chars[i + 1..]).collect());
        }
        for i in 0..chars.len() {
            if chars[i] != 'a' {
                let mut simpler = chars.clone();
                simpler[i] = 'a';
                out.push(simpler.into_iter().collect());
            }
        }
        out.into_iter().map(Text).collect()
    }
}

impl Shrink for usize {
    fn shrink(&self) -> Vec<usize> {
        let n = *self;
        let mut out: Vec<usize> = [0, n / 2, n.saturating_sub(1)]
            .into_iter()
            .filter(|&m| m < n)
            .collect();
        out.dedup();
        out
    }
}

impl Shrink for u32 {
    fn shrink(&self) -> Vec<u32> {
        (*self as usize)
            .shrink()
            .into_iter()
            .map(|m| m as u32)
            .collect()
    }
}

impl<T: Shrink + Clone> Shrink for Vec<T> {
    fn shrink(&self) -> Vec<Vec<T>> {
        let mut out = Vec::new();
        if self.len() > 1 {
            let half = self.len() / 2;
            out.push(self[..half].to_vec());
            out.push(self[half..].to_vec());
        }
        for i in 0..self.len() {
            let mut fewer = self.clone();
            fewer.remove(i);
            out.push(fewer);
        }
        for i in 0..self.len() {
            for smaller in self[i].shrink() {
                let mut v = self.clone();
                v[i] = smaller;
                out.push(v);
            }
        }
        out
    }
}

impl<A: Shrink + Clone, B: Shrink + Clone> Shrink for (A, B) {
    fn shrink(&self) -> Vec<(A, B)> {
        let mut out: Vec<(A, B)> = self
            .0
            .shrink()
            .into_iter()
            .map(|a| (a, self.1.clone()))
            .collect();
        out.extend(self.1.shrink().into_iter().map(|b| (self.0.clone(), b)));
        out
    }
}

impl<A: Shrink + Clone, B: Shrink + Clone, C: Shrink + Clone> Shrink for (A, B, C) {
    fn shrink(&self) -> Vec<(A, B, C)> {
        let mut out: Vec<(A, B, C)> = self
            .0
            .shrink()
            .into_iter()
            .map(|a| (a, self.1.clone(), self.2.clone()))
            .collect();
        out.extend(
            self.1
                .shrink()
                .into_iter()
                .map(|b| (self.0.clone(), b, self.2.clone())),
        );
        out.extend(
            self.2
                .shrink()
                .into_iter()
                .map(|c| (self.0.clone(), self.1.clone(), c)),
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_are_smaller() {
        for s in ["", "a", "ab", "héllo", "日本"] {
            let s = s.to_string();
            for Text(c) in Text(s.clone()).shrink() {
                let moved = c.chars().filter(|&x| x != 'a').count()
                    < s.chars().filter(|&x| x != 'a').count();
                assert!(
                    c.chars().count() < s.chars().count() || moved,
                    "{c:?} from {s:?}"
                );
            }
        }
        assert!(0usize.shrink().is_empty());
        assert_eq!(5usize.shrink(), [0, 2, 4]);
        assert!(Vec::<String>::new().shrink().is_empty());
        assert!("</w>".to_string().shrink().is_empty());
    }
}
