# shellcheck shell=bash
# Sourced by scripts/lab (and scripts/bench/waits.sh): the lab's evcxr_jupyter, built from its
# crates.io source with the patches in kernel/ (kernel/README.md says what each one changes).
#
#   source scripts/lib/kernel.sh      # from the repository root
#   kernel_installed                  # true when cargo's record names this build, whole (below)
#   kernel_installed_kind             # "full", "quick" or nothing (below)
#   kernel_prepare                    # download, check, unpack and patch the sources (quiet)
#   kernel_install KIND [ROOT]        # cargo install of the prepared sources (into ROOT)
#
# Two kinds of the same sources (the `analyser` feature, kernel/README.md): "full", evcxr as it
# ships, and "quick", evcxr without rust-analyzer, built in about a third of the time. Every
# notebook runs with either; only the full kind learns the type of a `let` written without one,
# and completes names on Tab. On a fresh machine scripts/lab installs the quick kind first and
# the full kind after it, in the background.
#
# The two crates are pinned by version and by the sha256 the crates.io index records for them;
# a download that does not match stops the set-up. The patched sources are unpacked into a
# folder whose name carries a digest of the patches, and cargo installs from that folder, so
# `cargo install --list` shows it: "evcxr_jupyter v0.22.0 (<folder>):". An install from
# crates.io (stock evcxr, no folder) or from another set of patches names another folder, so
# scripts/lab replaces it.

KERNEL_EVCXR_VERSION=0.22.0
# From https://index.crates.io/ev/cx/evcxr and .../evcxr_jupyter ("cksum" of version 0.22.0).
KERNEL_EVCXR_SHA256=ee69caeeefc311959b85962458e370d8eccb165123edbc5270134aaee6d7ed80
KERNEL_EVCXR_JUPYTER_SHA256=3ce0d7b3058f68a9673df4f1266b641942fea0ec131881d095306e509a382764

_kernel_sha256() { if command -v sha256sum >/dev/null; then sha256sum; else shasum -a 256; fi | cut -d' ' -f1; }

# Where the patched sources go: one folder per set of patches (and pinned version).
kernel_source_dir() {
    local digest
    digest=$({
        echo "$KERNEL_EVCXR_VERSION $KERNEL_EVCXR_SHA256 $KERNEL_EVCXR_JUPYTER_SHA256"
        cat kernel/*.patch
    } | _kernel_sha256 | cut -c1-12)
    echo "${XDG_CACHE_HOME:-$HOME/.cache}/bpe-lab/kernel/evcxr-$KERNEL_EVCXR_VERSION-$digest"
}

# The folder cargo installed evcxr_jupyter from ("" for a crates.io install or none).
kernel_installed_from() {
    cargo install --list 2>/dev/null |
        sed -n 's/^evcxr_jupyter v[^ ]* (\(.*\)):$/\1/p'
}

# Which kind of this build is installed: "full", "quick", or nothing (none, stock evcxr, or a
# build of other patches). cargo records the features of an install in .crates2.json.
kernel_installed_kind() {
    local from
    from=$(kernel_installed_from)
    [ "$from" = "$(kernel_source_dir)/evcxr_jupyter-$KERNEL_EVCXR_VERSION" ] &&
        command -v evcxr_jupyter >/dev/null || return 0
    python3 - "${CARGO_HOME:-$HOME/.cargo}/.crates2.json" "$from" <<'PYEOF'
import json, sys
try:
    installs = json.load(open(sys.argv[1]))["installs"]
except (OSError, ValueError, KeyError):
    sys.exit(0)
for key, record in installs.items():
    if key.startswith("evcxr_jupyter ") and key.endswith(f"(path+file://{sys.argv[2]})"):
        print("quick" if record.get("no_default_features") else "full")
PYEOF
}

kernel_installed() {
    [ "$(kernel_installed_kind)" = full ]
}

# What is installed now, in words, for scripts/lab's messages.
kernel_describe_installed() {
    local from version
    version=$(cargo install --list 2>/dev/null | sed -n 's/^evcxr_jupyter v\([^ :]*\).*:$/\1/p')
    from=$(kernel_installed_from)
    if [ -z "$version" ]; then
        echo "none"
    elif [ -z "$from" ]; then
        echo "v$version from crates.io, unpatched"
    else
        echo "v$version from $from"
    fi
}

_kernel_download() { # URL FILE SHA256
    local url=$1 file=$2 want=$3 got
    if [ ! -f "$file" ] || [ "$(_kernel_sha256 <"$file")" != "$want" ]; then
        if command -v curl >/dev/null; then
            curl -sSfL --retry 3 -o "$file.part" "$url" || return 1
        else
            python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' \
                "$url" "$file.part" || return 1
        fi
        mv "$file.part" "$file"
    fi
    got=$(_kernel_sha256 <"$file")
    if [ "$got" != "$want" ]; then
        echo "error: $file: sha256 $got, expected $want (crates.io's index); not used" >&2
        rm -f "$file"
        return 1
    fi
}

kernel_prepare() {
    local dir v=$KERNEL_EVCXR_VERSION crate patch
    dir=$(kernel_source_dir)
    if [ -f "$dir/.prepared" ]; then
        return 0
    fi
    rm -rf "$dir"
    mkdir -p "$dir"
    for crate in evcxr evcxr_jupyter; do
        local sum=$KERNEL_EVCXR_SHA256
        [ "$crate" = evcxr_jupyter ] && sum=$KERNEL_EVCXR_JUPYTER_SHA256
        _kernel_download "https://static.crates.io/crates/$crate/$crate-$v.crate" \
            "$dir/$crate-$v.crate" "$sum" || return 1
        tar -xzf "$dir/$crate-$v.crate" -C "$dir" || return 1
    done
    # Debian's `patch` (a minimal system may lack it; packages.sh installs it when it can).
    # shellcheck source=scripts/lib/packages.sh
    command -v patch >/dev/null || { source scripts/lib/packages.sh && ensure_package patch patch; } || return 1
    # A patch's name says which crate it changes: evcxr_jupyter-*.patch evcxr_jupyter, the
    # others evcxr. They apply in the order of their names.
    for patch in kernel/*.patch; do
        crate=evcxr
        case ${patch##*/} in evcxr_jupyter-*) crate=evcxr_jupyter ;; esac
        patch -s -p1 -d "$dir/$crate-$v" <"$patch" || {
            echo "error: $patch does not apply to $crate $v" >&2
            return 1
        }
    done
    # evcxr_jupyter builds against the patched evcxr: a [patch] in its manifest, and its lock
    # file's entry for evcxr turned into the one of a path dependency (no source, no checksum),
    # so that `cargo install --locked` keeps every other crate at the version evcxr shipped with.
    printf '\n[patch.crates-io]\nevcxr = { path = "../evcxr-%s" }\n' "$v" \
        >>"$dir/evcxr_jupyter-$v/Cargo.toml"
    awk '
        /^\[\[package\]\]/ { in_evcxr = 0 }
        /^name = "evcxr"$/ { in_evcxr = 1 }
        in_evcxr && (/^source = / || /^checksum = /) { next }
        { print }
    ' "$dir/evcxr_jupyter-$v/Cargo.lock" >"$dir/evcxr_jupyter-$v/Cargo.lock.new" &&
        mv "$dir/evcxr_jupyter-$v/Cargo.lock.new" "$dir/evcxr_jupyter-$v/Cargo.lock" || return 1
    touch "$dir/.prepared"
}

# cargo install of the prepared sources, KIND "full" or "quick". Its build folder is the
# sources' target/ unless CARGO_TARGET_DIR says otherwise, kept after the quick kind (the full
# kind then compiles only rust-analyzer's crates and the two evcxr crates) and removed after the
# full one, as `cargo install` does with its own.
kernel_install() {
    local kind=${1:-} dir root=${2:-} args=()
    dir=$(kernel_source_dir)/evcxr_jupyter-$KERNEL_EVCXR_VERSION
    case "$kind" in
        full) ;;
        quick) args+=(--no-default-features --features mimalloc) ;;
        *) echo "kernel_install: KIND is full or quick, not '$kind'" >&2; return 2 ;;
    esac
    [ -n "$root" ] && args+=(--root "$root")
    cargo install --path "$dir" --locked --force "${args[@]}" || return 1
    [ "$kind" = quick ] || [ -n "${CARGO_TARGET_DIR:-}" ] || rm -rf "$dir/target"
}
