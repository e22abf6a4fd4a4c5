//! Why a user's split pattern does not compile, in words a user can act on. fancy-regex hands
//! a pattern it cannot run itself to the `regex` crate, and shows that crate's failure only as
//! "error parsing pattern 0"; the reason ("Unicode property not found") and the part of the
//! pattern it is about are inside it. [`regex_problem`] digs them out.

/// What is wrong with `regex`, or `None` when it compiles.
///
/// ```
/// use bpe_lab::bpe::bytelevel::regex_problem;
/// let why = regex_problem(r"\p{Bogus}+").unwrap();
/// assert!(why.contains("Unicode property not found"), "{why}");
/// assert!(!why.contains("pattern 0"), "{why}");
/// assert_eq!(regex_problem(r"\w+"), None);
/// ```
pub fn regex_problem(regex: &str) -> Option<String> {
    let error = fancy_regex::Regex::new(regex).err()?;
    if let fancy_regex::Error::CompileError(compile) = &error
        && let fancy_regex::CompileError::InnerError(build) = compile.as_ref()
        && let Some(syntax) = build.syntax_error()
    {
        let (pattern, reason) = match syntax {
            regex_syntax::Error::Parse(e) => (e.pattern(), (e.kind().to_string(), *e.span())),
            regex_syntax::Error::Translate(e) => (e.pattern(), (e.kind().to_string(), *e.span())),
            _ => return Some(syntax.to_string()),
        };
        let (kind, span) = reason;
        // The part it is about, where the user wrote it so (fancy-regex may hand on a
        // rewritten pattern: `\p{Bogus}` becomes `\p{bogus}`).
        let part = pattern
            .get(span.start.offset..span.end.offset)
            .unwrap_or("");
        return Some(if part.is_empty() || !regex.contains(part) {
            kind
        } else {
            format!("{kind} (at `{part}`)")
        });
    }
    Some(error.to_string())
}
