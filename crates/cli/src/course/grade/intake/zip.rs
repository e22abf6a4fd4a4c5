//! Zip archives read in memory, never unpacked to disk: nothing a hostile entry name says
//! (`../../x`, `/etc/x`) can place a file anywhere, since no file is written. Zip bombs meet
//! limits on the number of entries, the size one entry may unpack to (checked while reading,
//! not trusted from the header) and the total the archive declares.

use std::io::{Read, Seek};
use std::path::Path;
use zip::ZipArchive;

/// The most entries one archive may list (a class of thousands, with a few files each).
pub(crate) const MAX_ENTRIES: usize = 100_000;
/// The most one entry may unpack to when it is read: a notebook, or a student's own zip.
pub(crate) const MAX_ENTRY_BYTES: u64 = 64 << 20;
/// The most an archive may declare it unpacks to, all entries together.
pub(crate) const MAX_TOTAL_BYTES: u64 = 16 << 30;
/// How deep zips inside zips are opened (the download, a student's zip, a zip in that).
pub(crate) const MAX_DEPTH: usize = 3;

/// Why an archive, or an entry of one, could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ZipProblem {
    /// Not a zip archive, or a damaged one.
    NotAZip(String),
    /// More entries than [`MAX_ENTRIES`].
    TooManyEntries(usize),
    /// It declares more than [`MAX_TOTAL_BYTES`].
    TooLarge(u64),
    /// One entry unpacks to more than [`MAX_ENTRY_BYTES`].
    EntryTooLarge { entry: String },
    /// An entry named in an earlier look is not there.
    NoEntry { entry: String },
    /// Zips inside zips deeper than [`MAX_DEPTH`].
    TooDeep,
    /// The archive file itself could not be read.
    Io(String),
}

impl std::fmt::Display for ZipProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ZipProblem::NotAZip(e) => write!(f, "not a zip archive that can be read ({e})"),
            ZipProblem::TooManyEntries(n) => {
                write!(
                    f,
                    "it lists {n} entries, more than the {MAX_ENTRIES} allowed"
                )
            }
            ZipProblem::TooLarge(n) => write!(
                f,
                "it unpacks to {} MiB, more than the {} MiB allowed",
                n >> 20,
                MAX_TOTAL_BYTES >> 20
            ),
            ZipProblem::EntryTooLarge { entry } => write!(
                f,
                "{entry} unpacks to more than the {} MiB one file may be",
                MAX_ENTRY_BYTES >> 20
            ),
            ZipProblem::NoEntry { entry } => write!(f, "{entry} is no longer in it"),
            ZipProblem::TooDeep => write!(f, "zips inside zips more than {MAX_DEPTH} deep"),
            ZipProblem::Io(e) => f.write_str(e),
        }
    }
}

impl ZipProblem {
    /// Whether the archive's content is at fault (else: reading the file failed).
    pub(crate) fn is_content(&self) -> bool {
        !matches!(self, ZipProblem::Io(_))
    }
}

/// One entry as listed: its name (as stored, `/`-separated), whether it is a folder, and its
/// modification time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) name: String,
    pub(crate) folder: bool,
    /// Year, month, day, hour, minute, second, as the archive stores them (local time).
    pub(crate) modified: Option<[u64; 6]>,
}

/// An archive opened for listing and reading.
pub(crate) struct Archive<R: Read + Seek> {
    zip: ZipArchive<R>,
    /// The most one entry may unpack to ([`MAX_ENTRY_BYTES`]; less in tests).
    entry_limit: u64,
}

fn not_a_zip(e: zip::result::ZipError) -> ZipProblem {
    match e {
        zip::result::ZipError::Io(e) => ZipProblem::Io(bpe_lab::files::describe_io_error(&e)),
        e => ZipProblem::NotAZip(e.to_string()),
    }
}

impl Archive<std::io::BufReader<std::fs::File>> {
    /// The archive at `path`.
    pub(crate) fn open(path: &Path) -> Result<Self, ZipProblem> {
        let file = std::fs::File::open(path)
            .map_err(|e| ZipProblem::Io(bpe_lab::files::describe_io_error(&e)))?;
        Archive::new(std::io::BufReader::new(file))
    }
}

impl Archive<std::io::Cursor<Vec<u8>>> {
    /// An archive held in memory (a zip inside a zip).
    pub(crate) fn in_memory(bytes: Vec<u8>) -> Result<Self, ZipProblem> {
        Archive::new(std::io::Cursor::new(bytes))
    }
}

impl<R: Read + Seek> Archive<R> {
    fn new(reader: R) -> Result<Self, ZipProblem> {
        let zip = ZipArchive::new(reader).map_err(not_a_zip)?;
        if zip.len() > MAX_ENTRIES {
            return Err(ZipProblem::TooManyEntries(zip.len()));
        }
        Ok(Archive {
            zip,
            entry_limit: MAX_ENTRY_BYTES,
        })
    }

    /// Every entry, in the archive's order; refused when they declare too much in all.
    pub(crate) fn entries(&mut self) -> Result<Vec<Entry>, ZipProblem> {
        let mut entries = Vec::with_capacity(self.zip.len());
        let mut total: u64 = 0;
        for i in 0..self.zip.len() {
            let file = self.zip.by_index_raw(i).map_err(not_a_zip)?;
            total = total.saturating_add(file.size());
            if total > MAX_TOTAL_BYTES {
                return Err(ZipProblem::TooLarge(total));
            }
            let modified = file.last_modified().map(|t| {
                [
                    u64::from(t.year()),
                    u64::from(t.month()),
                    u64::from(t.day()),
                    u64::from(t.hour()),
                    u64::from(t.minute()),
                    u64::from(t.second()),
                ]
            });
            entries.push(Entry {
                // A name that is not valid in its declared encoding is still a name to show.
                name: file.name().map_or_else(
                    |_| String::from_utf8_lossy(file.name_raw()).into_owned(),
                    |n| n.into_owned(),
                ),
                folder: file.is_dir(),
                modified,
            });
        }
        Ok(entries)
    }

    /// The bytes of the entry named `name`, at most [`MAX_ENTRY_BYTES`] of them: the limit is
    /// checked on what comes out, since the size in the header is the archive's word only.
    pub(crate) fn read(&mut self, name: &str) -> Result<Vec<u8>, ZipProblem> {
        let file = match self.zip.by_name(name) {
            Ok(file) => file,
            Err(zip::result::ZipError::FileNotFound) => {
                return Err(ZipProblem::NoEntry {
                    entry: name.to_owned(),
                });
            }
            Err(e) => return Err(not_a_zip(e)),
        };
        let too_large = || ZipProblem::EntryTooLarge {
            entry: name.to_owned(),
        };
        let limit = self.entry_limit;
        if file.size() > limit {
            return Err(too_large());
        }
        let mut bytes = Vec::new();
        file.take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| ZipProblem::NotAZip(e.to_string()))?;
        if bytes.len() as u64 > limit {
            return Err(too_large());
        }
        Ok(bytes)
    }
}

/// The bytes at the end of `chain` inside the archive at `path`: each name but the last is a
/// zip inside the one before it, opened in memory.
pub(crate) fn read_chain(path: &Path, chain: &[String]) -> Result<Vec<u8>, ZipProblem> {
    let Some((first, rest)) = chain.split_first() else {
        return Err(ZipProblem::NoEntry {
            entry: String::new(),
        });
    };
    if chain.len() > MAX_DEPTH + 1 {
        return Err(ZipProblem::TooDeep);
    }
    let mut bytes = Archive::open(path)?.read(first)?;
    for name in rest {
        bytes = Archive::in_memory(bytes)?.read(name)?;
    }
    Ok(bytes)
}

/// Whether `bytes` begin like a zip archive.
pub(crate) fn looks_like_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut out = std::io::Cursor::new(Vec::new());
        let mut w = zip::ZipWriter::new(&mut out);
        for (name, bytes) in files {
            w.start_file(*name, zip::write::SimpleFileOptions::default())
                .unwrap();
            w.write_all(bytes).unwrap();
        }
        w.finish().unwrap();
        out.into_inner()
    }

    #[test]
    fn entries_are_listed_and_read_in_memory_whatever_their_names_say() {
        let inner = zip_of(&[("03-merge.ipynb", b"{}")]);
        let outer = zip_of(&[("../../evil.ipynb", b"x"), ("ana/work.zip", &inner)]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lms.zip");
        std::fs::write(&path, &outer).unwrap();
        let names: Vec<String> = Archive::open(&path)
            .unwrap()
            .entries()
            .unwrap()
            .into_iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(names, ["../../evil.ipynb", "ana/work.zip"]);
        assert_eq!(
            read_chain(&path, &["ana/work.zip".into(), "03-merge.ipynb".into()]).unwrap(),
            b"{}"
        );
        assert_eq!(
            read_chain(&path, &["../../evil.ipynb".into()]).unwrap(),
            b"x"
        );
        // Nothing was written beside the archive.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn an_entry_that_unpacks_past_the_limit_is_refused_while_reading() {
        let big = vec![0u8; 4097];
        let bytes = zip_of(&[("bomb.ipynb", &big)]);
        let mut archive = Archive::in_memory(bytes).unwrap();
        archive.entry_limit = 4096;
        let err = archive.read("bomb.ipynb");
        assert_eq!(
            err,
            Err(ZipProblem::EntryTooLarge {
                entry: "bomb.ipynb".into()
            })
        );
    }

    #[test]
    fn what_is_no_zip_says_so() {
        assert!(matches!(
            Archive::in_memory(b"%PDF-1.4".to_vec()),
            Err(ZipProblem::NotAZip(_))
        ));
        assert!(looks_like_zip(&zip_of(&[])));
        assert!(!looks_like_zip(b"{\"cells\": []}"));
    }
}
