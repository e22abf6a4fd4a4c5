//! `bpe-lab dataset`: which copy of Africa Galore loads (the cache, a download or the bundled
//! stand-in), why, and how big it is. Thin over [`bpe_lab::dataset`].

use bpe_lab::dataset::{AfricaGalore, Dataset, DatasetError, Source, Summary};
use clap::Args;
use serde_json::json;

use crate::commands::error::CliError;
use crate::commands::output::{print, print_line};

const LONG_ABOUT: &str = "\
Load the Africa Galore dataset the way the notebooks do, and say which copy was used.

The dataset comes from, in order: a valid copy in the cache; a download from the lab's URL,
checked (a JSON array of objects with a string \"description\") before it is cached; the
stand-in bundled with bpe-lab, 40 original paragraphs in the same schema that are NOT the real
Africa Galore. A failed download is reported, never silently replaced.";

const AFTER_HELP: &str = "\
Environment:
  BPE_LAB_CACHE_DIR     cache directory (default: the user cache directory + bpe-lab,
                        e.g. ~/.cache/bpe-lab)
  BPE_LAB_DATASET_URL   download from this URL instead of the lab's
  BPE_LAB_OFFLINE=1     never use the network (like --offline)

Exit status: 0 on success, 1 when --refresh cannot download, 2 when the command line is wrong.";

#[derive(Debug, Args)]
#[command(long_about = LONG_ABOUT, after_help = AFTER_HELP)]
pub(crate) struct DatasetArgs {
    /// Ignore the cached copy and download again; fail if the download fails
    #[arg(long, conflicts_with = "offline")]
    pub(crate) refresh: bool,

    /// Never use the network: the cached copy, else the bundled stand-in
    #[arg(long)]
    pub(crate) offline: bool,

    /// Print one JSON object instead of lines of text
    #[arg(long)]
    pub(crate) json: bool,
}

pub(crate) fn run(args: &DatasetArgs) -> Result<(), CliError> {
    let mut loader = AfricaGalore::from_env().refresh(args.refresh);
    if args.offline {
        loader = loader.offline(true);
    }
    let data = loader.load().map_err(|e| load_error(&e, args.refresh))?;
    let summary = data.summary();
    if args.json {
        print_line(&report_json(&data, &summary).to_string())
    } else {
        print(&report_text(&data, &summary))
    }
}

fn load_error(err: &DatasetError, refresh: bool) -> CliError {
    let hint = if refresh {
        " (without --refresh the cached copy or the bundled stand-in is used)"
    } else {
        ""
    };
    CliError::runtime(format!("{err}{hint}"))
}

fn report_text(data: &Dataset, summary: &Summary) -> String {
    let mut out = format!("source: {}\n", data.provenance.source);
    for note in &data.provenance.notes {
        out += &format!("note: {note}\n");
    }
    out += &format!(
        "paragraphs: {}\nwords: {}\nunique words: {}\ncharacters: {}\n",
        summary.paragraphs, summary.words, summary.unique_words, summary.characters
    );
    out
}

fn report_json(data: &Dataset, summary: &Summary) -> serde_json::Value {
    let source = &data.provenance.source;
    let (kind, url, path) = match source {
        Source::Cache { path } => ("cache", None, Some(path)),
        Source::Download { url, path } => ("download", Some(url), path.as_ref()),
        Source::StandIn => ("stand_in", None, None),
    };
    json!({
        "source": kind,
        "description": source.to_string(),
        "url": url,
        "path": path.map(|p| p.display().to_string()),
        "notes": data.provenance.notes.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "paragraphs": summary.paragraphs,
        "words": summary.words,
        "unique_words": summary.unique_words,
        "characters": summary.characters,
    })
}
