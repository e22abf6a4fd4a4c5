"""The kernel's build: what makes a new evcxr kernel reuse the last one's work.

Cargo configuration for the kernel's builds is written to <kernel TMPDIR>/.cargo/config.toml
(cargo looks for it from evcxr's build folder upwards). evcxr's `:cache` keeps compiled crates
keyed by rustc's command line but skips incremental builds, and cargo builds every path
dependency incrementally: without this, bpe-lab was compiled again in every new kernel. With
incremental compilation off for bpe-lab, and BPE_LAB_KERNEL_CACHE telling bpe-lab's build.rs to
put a digest of its sources on that command line, the cache reuses bpe-lab exactly when its
sources are unchanged. `scripts/lab open` gives JupyterLab's kernels the same file. Cargo is kept
quiet there: scripts/lib/rust-kernel says in one line whether bpe-lab comes from the cache.
"""

import json
import os
import sys
import tempfile

KERNEL_CARGO_CONFIG = """\
# Written by bpe-lab (crates/cli/src/course/bpe_lab_executor/evcxr_cache.py) for the lab's evcxr kernels.
[profile.dev.package.bpe-lab]
incremental = false

[env]
BPE_LAB_KERNEL_CACHE = "1"

# evcxr copies cargo's "Compiling ..." lines to the kernel's stderr: ~117 of them at every
# kernel start, cache hit or not, in JupyterLab's terminal. Errors still show.
[term]
quiet = true
"""


def write_kernel_cargo_config(tmpdir):
    os.makedirs(os.path.join(tmpdir, ".cargo"), exist_ok=True)
    with open(os.path.join(tmpdir, ".cargo", "config.toml"), "w", encoding="utf-8") as f:
        f.write(KERNEL_CARGO_CONFIG)


def evcxr_cache_dir(env, platform=sys.platform):
    """Where evcxr keeps its `:cache` (Rust's dirs::cache_dir() + "evcxr")."""
    home = env.get("HOME") or os.path.expanduser("~")
    if platform == "darwin":
        return os.path.join(home, "Library", "Caches", "evcxr")
    base = env.get("XDG_CACHE_HOME") or os.path.join(home, ".cache")
    return os.path.join(base, "evcxr")


def forget_old_build_folders(cache_dir):
    """Drop, from the dependency lists evcxr cached, files in the build folder of the kernel that
    compiled them; returns how many lists changed.

    A crate that includes a file its build script generated (serde_core, rustversion) lists that
    file, under the compiling kernel's own temporary build folder, in its dep-info. On a cache
    hit evcxr hands cargo that list unchanged; the folder is gone, so cargo finds the crate stale
    at every later cell and rebuilds it and everything above it (polars, reqwest, bpe-lab): 2-3 s
    per one-line cell. Those generated files are rebuilt by every kernel from the same registry
    sources, so forgetting them loses nothing cargo needs. Safe to run while kernels use the
    cache: each file is replaced atomically, and a list that was already fixed is left alone.
    """
    changed = 0
    try:
        entries = os.listdir(cache_dir)
    except OSError:
        return 0
    for entry in entries:
        folder = os.path.join(cache_dir, entry)
        try:
            with open(os.path.join(folder, "stderr"), encoding="utf-8") as f:
                artifacts = f.read()
        except (OSError, UnicodeDecodeError):
            continue
        for line in artifacts.splitlines():
            try:
                artifact = json.loads(line)
            except ValueError:
                continue
            if not isinstance(artifact, dict):
                continue
            if artifact.get("emit") != "dep-info" or "/target/" not in artifact.get("artifact", ""):
                continue
            old_build = artifact["artifact"].split("/target/", 1)[0] + "/target/"
            path = os.path.join(folder, os.path.basename(artifact["artifact"]))
            changed += rewrite_dep_info(path, old_build)
    return changed


def without_old_build(text, old_build):
    """A make-style dep-info `text` without the dependencies under `old_build` (and the empty
    rules make needs for them); None when its paths cannot be split (escaped spaces)."""
    if "\\ " in text:
        return None
    lines = []
    for line in text.split("\n"):
        if line.startswith("#"):
            lines.append(line)
        elif line.endswith(":") and line[:-1].startswith(old_build):
            continue
        elif ": " in line:
            target, _, deps = line.partition(": ")
            kept = [d for d in deps.split(" ") if d and not d.startswith(old_build)]
            lines.append(target + ":" + "".join(" " + d for d in kept))
        else:
            lines.append(line)
    return "\n".join(lines)


def rewrite_dep_info(path, old_build):
    """Rewrites the dep-info file at `path` without `old_build`'s files, atomically; 1 when it
    changed, else 0."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError):
        return 0
    new = without_old_build(text, old_build)
    if new is None or new == text:
        return 0
    fd, tmp = tempfile.mkstemp(prefix=".bpe-lab-", dir=os.path.dirname(path))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(new)
        os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        os.replace(tmp, path)
    except OSError:
        os.unlink(tmp)
        return 0
    return 1
