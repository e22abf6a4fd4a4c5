# shellcheck shell=bash
# Sourced by scripts/test: clippy lints the project while cargo compiles it, instead of in a
# step of its own.
#
# `cargo clippy` is `cargo check` with clippy-driver as the compiler of the workspace's own
# crates. A separate clippy step checked every dependency (polars included) a second time, in
# check mode, which cargo cannot share with the test build: about 130 s of a 15-minute budget.
# Here the test build itself runs clippy-driver on the workspace's crates (it lints, then
# compiles as rustc does), with warnings denied as `cargo clippy -- -D warnings` denies them.
# Dependencies are compiled by plain rustc, as before.
#
# Every cargo command of scripts/test goes through the function below, so that the wrapper is
# part of every build's fingerprint (a build without it would recompile the workspace). The
# test binaries run without these variables (cargo's runner drops them): the kernel tests start
# evcxr, whose own cargo must not compile notebook cells with clippy and -D warnings.
# Afterwards, a plain `cargo test` recompiles the workspace's crates once (about a minute).

CLIPPY_DRIVER="$(rustc --print sysroot)/bin/clippy-driver"
if [ ! -x "$CLIPPY_DRIVER" ]; then
    echo "error: clippy-driver not found at $CLIPPY_DRIVER; install it with: rustup component add clippy" >&2
    exit 1
fi
HOST_TRIPLE="$(rustc -vV | sed -n 's/^host: //p')"
RUNNER_VAR="CARGO_TARGET_$(echo "$HOST_TRIPLE" | tr 'a-z-' 'A-Z_')_RUNNER"

# BPE_LAB_TEST_INCREMENTAL (.ci/run sets 0): CARGO_INCREMENTAL for the project's own builds
# only; the test binaries, and the kernels they start, never see it.
cargo() {
    local incremental=()
    [ -n "${BPE_LAB_TEST_INCREMENTAL:-}" ] && incremental=("CARGO_INCREMENTAL=$BPE_LAB_TEST_INCREMENTAL")
    # CLIPPY_ARGS is how cargo-clippy hands its arguments to clippy-driver.
    env RUSTC_WORKSPACE_WRAPPER="$CLIPPY_DRIVER" \
        CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__" \
        "$RUNNER_VAR=env -u RUSTC_WORKSPACE_WRAPPER -u CLIPPY_ARGS -u CARGO_INCREMENTAL -u $RUNNER_VAR" \
        "${incremental[@]}" cargo "$@"
}
