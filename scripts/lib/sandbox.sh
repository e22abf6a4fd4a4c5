# shellcheck shell=bash
# bubblewrap (bwrap), the sandbox `bpe-lab lab grade` runs student code in. Sourced by
# scripts/test and scripts/lab. Installs the Debian package when it is missing and this
# account can (root, or sudo without a password); otherwise says how.
ensure_bwrap() {
    if command -v bwrap >/dev/null 2>&1; then
        echo "bubblewrap present: $(bwrap --version)"
        return 0
    fi
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            sudo="sudo -n"
        else
            echo "error: bubblewrap (bwrap) is missing and this account cannot install it;" >&2
            echo "       ask for the Debian/Ubuntu package 'bubblewrap' (apt-get install bubblewrap)" >&2
            return 1
        fi
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "error: bubblewrap (bwrap) is missing and apt-get is not available; install it with your package manager" >&2
        return 1
    fi
    echo "installing bubblewrap (apt-get install bubblewrap)"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq bubblewrap >/dev/null
    echo "bubblewrap installed: $(bwrap --version)"
}
