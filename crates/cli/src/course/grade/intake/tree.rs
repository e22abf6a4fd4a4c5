//! The files under one path given to `lab grade`, as one tree whether they are in a folder,
//! in a zip, or in zips inside either (a student's own zip in a Moodle or Blackboard download):
//! each file with its path under the path given, where its bytes are, and when it was last
//! changed. Junk is set aside here, by name, and nbgrader's `timestamp.txt` files are read.

use super::error::IntakeError;
use super::junk::Skip;
use super::latest::Moment;
use super::patterns::Part;
use super::zip::{Archive, MAX_DEPTH, MAX_ENTRY_BYTES, ZipProblem};
use crate::course::grade::submission::Source;
use std::collections::BTreeMap;
use std::io::{Read, Seek};
use std::path::{Path, PathBuf};

/// How many bytes of zips inside zips one intake unpacks in memory to look inside, at most.
const UNPACK_BUDGET: u64 = 4 * MAX_ENTRY_BYTES * 16;

/// One file of the tree.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Item {
    /// Where it is, as the instructor reads it: the path given, then the path inside.
    pub(crate) shown: PathBuf,
    /// Its path under the path given, zips inside included.
    pub(crate) parts: Vec<Part>,
    pub(crate) source: Source,
    pub(crate) modified: Option<Moment>,
}

impl Item {
    /// Whether its name says notebook.
    pub(crate) fn is_notebook(&self) -> bool {
        self.parts
            .last()
            .is_some_and(|p| p.name.to_ascii_lowercase().ends_with(".ipynb"))
    }
}

/// What was set aside, as shown: a junk folder once, with how many files it held.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Skipped {
    pub(crate) shown: PathBuf,
    pub(crate) why: Skip,
    pub(crate) files: usize,
}

/// The files under one path given.
#[derive(Debug, Default)]
pub(crate) struct Tree {
    pub(crate) items: Vec<Item>,
    pub(crate) skipped: BTreeMap<PathBuf, (Skip, usize)>,
    /// nbgrader's submission times, by the folder (names under the path given) they date.
    pub(crate) stamps: BTreeMap<Vec<String>, Moment>,
    unpacked: u64,
}

impl Tree {
    /// The tree under `arg`: a folder, a zip (the download), or one file.
    pub(crate) fn of(arg: &Path) -> Result<Tree, IntakeError> {
        let mut tree = Tree::default();
        let meta = std::fs::metadata(arg).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                IntakeError::NoSuchPath {
                    path: arg.to_owned(),
                }
            } else {
                IntakeError::Unreadable {
                    path: arg.to_owned(),
                    problem: bpe_lab::files::describe_io_error(&e),
                }
            }
        })?;
        if meta.is_dir() {
            tree.folder(arg, &[], 0)?;
        } else if is_zip_name(arg) {
            let mut archive = Archive::open(arg).map_err(|problem| IntakeError::Archive {
                path: arg.to_owned(),
                problem,
            })?;
            tree.archive(&mut archive, arg, &[], arg, &[], 0)
                .map_err(|problem| IntakeError::Archive {
                    path: arg.to_owned(),
                    problem,
                })?;
        } else {
            let name = arg.file_name().map_or_else(
                || arg.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            tree.items.push(Item {
                shown: arg.to_owned(),
                parts: vec![Part {
                    name,
                    archive: false,
                }],
                source: Source::Disk,
                modified: meta.modified().ok().map(Moment::of_system_time),
            });
        }
        Ok(tree)
    }

    fn skip(&mut self, shown: PathBuf, why: Skip) {
        self.skipped.entry(shown).or_insert((why, 0)).1 += 1;
    }

    /// Files of the folder `dir` (at `parts` under the path given), sorted by name.
    fn folder(&mut self, dir: &Path, parts: &[Part], depth: usize) -> Result<(), IntakeError> {
        let entries = std::fs::read_dir(dir).map_err(|e| IntakeError::Unreadable {
            path: dir.to_owned(),
            problem: bpe_lab::files::describe_io_error(&e),
        })?;
        let mut paths: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let mut here = parts.to_vec();
            here.push(Part {
                name: name.clone(),
                archive: false,
            });
            if path.is_dir() {
                match Skip::folder(&name) {
                    Some(why) => self.skip(path, why),
                    // Deep enough for nbgrader's course/submitted/student/lab/…; no further, so
                    // a symbolic link to a parent cannot loop.
                    None if depth < 8 => self.folder(&path, &here, depth + 1)?,
                    None => {}
                }
                continue;
            }
            if let Some(why) = Skip::file(&name) {
                if why == Skip::NbgraderTimestamp {
                    self.stamp(parts, std::fs::read(&path).ok());
                }
                self.skip(path, why);
                continue;
            }
            let modified = std::fs::metadata(&path)
                .and_then(|m| m.modified())
                .ok()
                .map(Moment::of_system_time);
            if is_zip_name(&path)
                && let Ok(mut archive) = Archive::open(&path)
            {
                here.last_mut().expect("just pushed").archive = true;
                let opened = self.archive(&mut archive, &path, &[], &path, &here, 1);
                if opened.is_ok() {
                    continue;
                }
                here.last_mut().expect("just pushed").archive = false;
            }
            self.items.push(Item {
                shown: path.clone(),
                parts: here,
                source: Source::Disk,
                modified,
            });
        }
        Ok(())
    }

    /// Files of `archive` (the zip file `root`, through the zips `chain` inside it), at
    /// `parts` under the path given; zips inside are opened in memory, `depth` deep.
    fn archive<R: Read + Seek>(
        &mut self,
        archive: &mut Archive<R>,
        shown: &Path,
        chain: &[String],
        root: &Path,
        parts: &[Part],
        depth: usize,
    ) -> Result<(), ZipProblem> {
        let mut entries = archive.entries()?;
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        'entries: for entry in entries.into_iter().filter(|e| !e.folder) {
            // Names are read, never used as paths: `..`, `.` and empty names are dropped.
            let names: Vec<&str> = entry
                .name
                .split(['/', '\\'])
                .filter(|n| !n.is_empty() && *n != "." && *n != "..")
                .collect();
            let Some((file, folders)) = names.split_last() else {
                continue;
            };
            let mut shown_here = shown.to_owned();
            for folder in folders {
                shown_here.push(folder);
                if let Some(why) = Skip::folder(folder) {
                    self.skip(shown_here, why);
                    continue 'entries;
                }
            }
            shown_here.push(file);
            let mut here = parts.to_vec();
            here.extend(names.iter().map(|n| Part {
                name: (*n).to_owned(),
                archive: false,
            }));
            if let Some(why) = Skip::file(file) {
                if why == Skip::NbgraderTimestamp {
                    let folder = &here[..here.len() - 1];
                    self.stamp(folder, archive.read(&entry.name).ok());
                }
                self.skip(shown_here, why);
                continue;
            }
            let mut inner_chain = chain.to_vec();
            inner_chain.push(entry.name.clone());
            if file.to_ascii_lowercase().ends_with(".zip")
                && depth < MAX_DEPTH
                && self.unpacked < UNPACK_BUDGET
                && let Ok(bytes) = archive.read(&entry.name)
            {
                self.unpacked += bytes.len() as u64;
                if let Ok(mut inner) = Archive::in_memory(bytes) {
                    here.last_mut().expect("names is not empty").archive = true;
                    let opened = self.archive(
                        &mut inner,
                        &shown_here,
                        &inner_chain,
                        root,
                        &here,
                        depth + 1,
                    );
                    if opened.is_ok() {
                        continue;
                    }
                    here.last_mut().expect("names is not empty").archive = false;
                }
            }
            self.items.push(Item {
                shown: shown_here,
                parts: here,
                source: Source::Archive {
                    archive: root.to_owned(),
                    entries: inner_chain,
                },
                modified: entry.modified.map(Moment::of_fields),
            });
        }
        Ok(())
    }

    /// Keeps the time in a `timestamp.txt` of the folder `parts`.
    fn stamp(&mut self, parts: &[Part], bytes: Option<Vec<u8>>) {
        let Some(bytes) = bytes else { return };
        let text = String::from_utf8_lossy(&bytes[..bytes.len().min(256)]).into_owned();
        if let Some(moment) = Moment::parse(&text) {
            let key = parts.iter().map(|p| p.name.clone()).collect();
            self.stamps.insert(key, moment);
        }
    }

    /// The nbgrader time of the folder holding `parts`, if it has one.
    pub(crate) fn stamp_of(&self, parts: &[Part]) -> Option<&Moment> {
        let folder: Vec<String> = parts[..parts.len().saturating_sub(1)]
            .iter()
            .map(|p| p.name.clone())
            .collect();
        self.stamps.get(&folder)
    }
}

/// Whether a file's name says zip.
pub(crate) fn is_zip_name(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.to_string_lossy().eq_ignore_ascii_case("zip"))
}
