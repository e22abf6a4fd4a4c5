//! Every integration test that needs no Jupyter kernel, in one test binary, so the crate and
//! polars are linked once instead of once per file. Each module is one topic and keeps the name
//! its file had when each was a binary of its own: `cargo test --test suite cli::` runs one.
//! Tests that change what the whole process shares run in a process of their own
//! (`support::alone`).

#[path = "../dataset_support/mod.rs"]
mod dataset_support;
#[path = "../support/mod.rs"]
mod support;

mod byte_level;
mod bytelevel_bad_input;
mod bytelevel_cli;
mod bytelevel_encode;
mod bytelevel_parity;
mod chunk_counts;
mod cli;
mod cli_outputs;
mod corpus_formats;
mod count_cli;
mod count_decode_inputs;
mod count_routes;
mod dataset_cli;
mod dataset_download;
mod dataset_formats;
mod differential;
mod docs_figures;
mod docs_walkthrough;
mod encode_features;
mod engineer_bad_input;
mod execute_sandbox;
mod executor_run;
mod fixed_api;
mod grade_gradescope_bundle;
mod grade_intake;
mod grade_judge;
mod grade_jupyters;
mod grade_late;
mod grade_regrade;
mod grade_resume;
mod grade_shard;
mod grade_stress;
mod grade_summary;
mod grade_tie_rule;
mod habits;
mod handout;
mod hf_import_parity;
mod hf_parity;
mod info_cli;
mod kernel_build;
mod kernel_kinds;
mod lab_check_time_limit;
mod lab_checks;
mod lab_checks_build;
mod lab_checks_bytes;
mod lab_cli;
mod lab_nbgrader;
mod lab_parity;
mod layers;
mod notebook_tables;
mod openai_encodings;
mod own_exercises;
mod package_boundary;
mod process_reaping;
mod process_supervisor;
mod public_paths;
mod python_parity;
mod rank_file_cli;
mod readme_cli;
mod real_text;
mod seeds;
mod signal_cleanup;
mod term_walkthrough;
mod tokenizer;
mod tokenizer_cli;
mod tokenizer_file;
mod tokenizer_files_bad;
