//! Reading a small CSV file an instructor wrote by hand or saved from a spreadsheet: fields
//! separated by commas, quoted with `"` when they hold a comma, a quote (doubled) or a line
//! break; a byte-order mark (as spreadsheets save it) and `\r\n` endings are accepted. Each
//! record keeps the line it starts on, so errors can name it.

/// One record: the line it starts on (counting from 1) and its fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Record {
    pub(crate) line: usize,
    pub(crate) fields: Vec<String>,
}

impl Record {
    /// Whether the record holds nothing (a blank line).
    pub(crate) fn is_blank(&self) -> bool {
        self.fields.iter().all(|f| f.trim().is_empty())
    }
}

/// Why the text is not CSV: a quoted field left open, or text right after a closing quote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CsvProblem {
    pub(crate) line: usize,
    pub(crate) problem: &'static str,
}

/// The records of `text`, in order.
pub(crate) fn records(text: &str) -> Result<Vec<Record>, CsvProblem> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    let mut line = 1;
    let mut chars = text.chars().peekable();
    while chars.peek().is_some() {
        let start = line;
        let mut fields = Vec::new();
        let mut field = String::new();
        loop {
            match chars.next() {
                None => {
                    fields.push(std::mem::take(&mut field));
                    break;
                }
                Some('"') if field.is_empty() => {
                    let opened = line;
                    loop {
                        match chars.next() {
                            None => {
                                return Err(CsvProblem {
                                    line: opened,
                                    problem: "a quoted field is never closed (a `\"` is missing)",
                                });
                            }
                            Some('"') if chars.peek() == Some(&'"') => {
                                chars.next();
                                field.push('"');
                            }
                            Some('"') => break,
                            Some(c) => {
                                if c == '\n' {
                                    line += 1;
                                }
                                field.push(c);
                            }
                        }
                    }
                    match chars.peek() {
                        None | Some(',') | Some('\n') | Some('\r') => {}
                        Some(_) => {
                            return Err(CsvProblem {
                                line,
                                problem: "text after a closing quote (write a quote inside a quoted field as `\"\"`)",
                            });
                        }
                    }
                }
                Some(',') => fields.push(std::mem::take(&mut field)),
                Some('\r') if chars.peek() == Some(&'\n') => {}
                Some('\n') => {
                    line += 1;
                    fields.push(std::mem::take(&mut field));
                    break;
                }
                Some(c) => field.push(c),
            }
        }
        out.push(Record {
            line: start,
            fields,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(text: &str) -> Vec<(usize, Vec<String>)> {
        records(text)
            .unwrap()
            .into_iter()
            .map(|r| (r.line, r.fields))
            .collect()
    }

    fn owned(line: usize, fields: &[&str]) -> (usize, Vec<String>) {
        (line, fields.iter().map(|f| f.to_string()).collect())
    }

    #[test]
    fn records_know_their_lines_and_quotes() {
        assert_eq!(
            fields("\u{feff}a,b\r\n\"x, \"\"y\"\"\",\"two\nlines\"\n\nlast,\n"),
            [
                owned(1, &["a", "b"]),
                owned(2, &["x, \"y\"", "two\nlines"]),
                owned(4, &[""]),
                owned(5, &["last", ""]),
            ]
        );
        assert_eq!(fields("no newline"), [owned(1, &["no newline"])]);
        assert_eq!(
            records("a\n\"open,\nb").unwrap_err(),
            CsvProblem {
                line: 2,
                problem: "a quoted field is never closed (a `\"` is missing)"
            }
        );
        assert_eq!(records("\"a\"b").unwrap_err().line, 1);
    }
}
