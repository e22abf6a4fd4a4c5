# shellcheck shell=bash
# Debian packages the project's scripts install when they are missing. Sourced by
# scripts/lib/sandbox.sh and scripts/lab.
#
#   ensure_package COMMAND PACKAGE    # 0 when COMMAND is on PATH, or once PACKAGE installed it
#   ensure_deb PACKAGE                # the same for a package with no command (a font)
#
# Installs with apt-get when this account can (root, or sudo without a password); otherwise
# prints the package to ask for and returns 1.
ensure_package() {
    local command=$1 package=$2 sudo=""
    command -v "$command" >/dev/null 2>&1 && return 0
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            sudo="sudo -n"
        else
            echo "error: $command is missing and this account cannot install it;" >&2
            echo "       ask for the Debian/Ubuntu package '$package' (apt-get install $package)" >&2
            return 1
        fi
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "error: $command is missing and apt-get is not available; install $package with your package manager" >&2
        return 1
    fi
    echo "installing $package (apt-get install $package)"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$package" >/dev/null
    command -v "$command" >/dev/null 2>&1
}

# ensure_deb PACKAGE: for packages without a command to look for (fonts): 0 when dpkg has it,
# or once apt-get installed it; as ensure_package otherwise.
ensure_deb() {
    local package=$1 sudo=""
    dpkg -s "$package" >/dev/null 2>&1 && return 0
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            sudo="sudo -n"
        else
            echo "error: $package is missing and this account cannot install it (apt-get install $package)" >&2
            return 1
        fi
    fi
    command -v apt-get >/dev/null 2>&1 || {
        echo "error: $package is missing and apt-get is not available" >&2
        return 1
    }
    echo "installing $package (apt-get install $package)"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$package" >/dev/null
    dpkg -s "$package" >/dev/null 2>&1
}
