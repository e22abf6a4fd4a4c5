# shellcheck shell=bash
# bubblewrap (bwrap), the sandbox `bpe-lab lab grade` runs student code in. Sourced by
# scripts/test and scripts/lab. Installs the Debian package when it is missing and this
# account can (root, or sudo without a password); otherwise says how.
# shellcheck source=scripts/lib/packages.sh
source "$(dirname "${BASH_SOURCE[0]}")/packages.sh"

ensure_bwrap() {
    if command -v bwrap >/dev/null 2>&1; then
        echo "bubblewrap present: $(bwrap --version)"
        return 0
    fi
    ensure_package bwrap bubblewrap || return 1
    echo "bubblewrap installed: $(bwrap --version)"
}
