# shellcheck shell=bash
# Sourced by scripts/lab (open) and binder/start: the environment under which Jupyter's kernels
# reuse what the warm-up compiled.
#
#   source scripts/lib/kernel-env.sh
#   kernel_env PYTHON      # from the repository root; exports TMPDIR
#   lab_kernel_spec        # scripts/lab open: the "rust" kernel through scripts/lib/rust-kernel;
#                          # exports JUPYTER_PATH
#
# evcxr builds each kernel's code in a folder under TMPDIR; cargo looks for settings from there
# upwards. kernel_env points TMPDIR at target/lab/kernel-tmp/ and writes there the settings that
# let evcxr's cache keep bpe-lab (crates/cli/src/course/bpe_lab_executor/evcxr_cache.py), so a new
# kernel takes bpe-lab from the cache instead of compiling it again, and keep cargo quiet. Kernels
# started from any other Jupyter still work, only slower.

# evcxr names each kernel's build folder .tmpXXXXXX (the tempfile crate) and removes it when the
# kernel exits; a kernel killed mid-compile leaves it behind (~470 MB measured). kernel_env
# removes those at start, under a lock held for as long as this shell (and what it execs, the
# Jupyter server) lives, so that a second JupyterLab on the same checkout does not delete the
# folders of the first one's running kernels.
_clean_kernel_tmp() {
    local dir=$1 left=() mb
    command -v flock >/dev/null 2>&1 || {
        echo "$dir: flock not found, build folders of stopped kernels are left in place"
        return 0
    }
    exec {BPE_LAB_KERNEL_TMP_LOCK}>"$dir/.lock"
    if ! flock -n "$BPE_LAB_KERNEL_TMP_LOCK"; then
        echo "$dir: another JupyterLab of this checkout is running; its kernels' folders are left alone"
        return 0
    fi
    shopt -s nullglob dotglob
    left=("$dir"/.tmp*/)
    shopt -u nullglob dotglob
    if [ ${#left[@]} -eq 0 ]; then
        echo "$dir: no build folders left by stopped kernels"
        return 0
    fi
    mb=$(du -smc "${left[@]}" 2>/dev/null | tail -1 | cut -f1)
    rm -rf "${left[@]}"
    echo "$dir: removed ${#left[@]} build folder(s) left by kernels stopped mid-compile (${mb:-?} MB)"
}

kernel_env() {
    local python=$1 dir
    dir="$(pwd)/target/lab/kernel-tmp"
    mkdir -p "$dir"
    _clean_kernel_tmp "$dir"
    "$python" crates/cli/src/course/bpe_lab_executor --prepare-kernel-tmp "$dir" || return 1
    export TMPDIR="$dir"
}

# The "rust" kernel spec JupyterLab finds first (JUPYTER_PATH comes before the user's kernel
# specs): the same name, display name and language as evcxr_jupyter --install writes, so the
# notebooks' metadata matches, but started through scripts/lib/rust-kernel, which says in one
# line whether bpe-lab comes from the cache and lets a notebook outside the checkout find it.
lab_kernel_spec() {
    local root spec evcxr
    root=$(pwd)
    spec="$root/target/lab/jupyter/kernels/rust"
    evcxr=$(command -v evcxr_jupyter) || {
        echo "error: evcxr_jupyter not on PATH" >&2
        return 1
    }
    mkdir -p "$spec"
    "${VENV_PYTHON:-python3}" - "$spec/kernel.json" "$root/scripts/lib/rust-kernel" "$evcxr" <<'PYEOF' || return 1
import json, sys
path, launcher, evcxr = sys.argv[1:]
spec = {
    "argv": [launcher, "{connection_file}"],
    "display_name": "Rust",
    "language": "rust",
    "interrupt_mode": "message",
    "env": {"BPE_LAB_EVCXR": evcxr},
}
with open(path, "w", encoding="utf-8") as f:
    json.dump(spec, f, indent=1)
    f.write("\n")
PYEOF
    export JUPYTER_PATH="$root/target/lab/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
    echo "kernel spec \"rust\" for this JupyterLab: $spec (scripts/lib/rust-kernel, then $evcxr)"
}
