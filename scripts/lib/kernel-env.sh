# shellcheck shell=bash
# Sourced by scripts/lab (open) and binder/start: the environment under which Jupyter's kernels
# reuse what the warm-up compiled.
#
#   source scripts/lib/kernel-env.sh
#   kernel_env PYTHON      # from the repository root; exports TMPDIR
#
# evcxr builds each kernel's code in a folder under TMPDIR; cargo looks for settings from there
# upwards. kernel_env points TMPDIR at target/lab/kernel-tmp/ and writes there the settings that
# let evcxr's cache keep bpe-lab (src/instructor/bpe_lab_executor/evcxr_cache.py), so a new
# kernel takes bpe-lab from the cache instead of compiling it again. Kernels started from any
# other Jupyter still work, only slower.

kernel_env() {
    local python=$1 dir
    dir="$(pwd)/target/lab/kernel-tmp"
    mkdir -p "$dir"
    "$python" src/instructor/bpe_lab_executor --prepare-kernel-tmp "$dir" || return 1
    export TMPDIR="$dir"
}
