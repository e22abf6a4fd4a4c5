# shellcheck shell=bash
# Sourced by scripts/test and scripts/lab: the project's Python venv (.venv/, gitignored) with
# the packages of scripts/python-requirements.txt.
#
#   source scripts/lib/venv.sh
#   ensure_venv            # from the repository root; sets VENV_PYTHON; 0 on success
#
# Idempotent: pip runs only when .venv/.requirements.sha256 does not record the hash of the
# requirements file (and the Python the venv was made with), so a second run costs a hash.
# Needs python3 with the venv module (Debian/Ubuntu: apt-get install python3-venv).

VENV_DIR=${VENV_DIR:-.venv}
VENV_REQUIREMENTS=${VENV_REQUIREMENTS:-scripts/python-requirements.txt}

_venv_hash() {
    # The requirements' text and the interpreter version: a new Python means a new venv's worth
    # of wheels.
    {
        cat "$VENV_REQUIREMENTS"
        "$VENV_DIR/bin/python" -c 'import sys; print(sys.version)'
    } | if command -v sha256sum >/dev/null; then sha256sum; else shasum -a 256; fi | cut -d' ' -f1
}

# ensure_venv: create .venv if missing (or broken), pip install the requirements unless the
# stamp says they are in. Prints one line saying what it did. Sets VENV_PYTHON (absolute).
ensure_venv() {
    local stamp="$VENV_DIR/.requirements.sha256" want have=""
    if [ ! -f "$VENV_REQUIREMENTS" ]; then
        echo "error: $VENV_REQUIREMENTS not found (run from the repository root)" >&2
        return 1
    fi
    # A venv without pip is one whose creation was cut short: made again.
    if ! "$VENV_DIR/bin/python" -c 'import pip' 2>/dev/null; then
        command -v python3 >/dev/null || {
            echo "error: python3 not found; install Python 3.9 or newer (with its venv module)" >&2
            return 1
        }
        echo "creating $VENV_DIR with $(python3 --version 2>&1)"
        rm -rf "$VENV_DIR"
        python3 -m venv "$VENV_DIR" || {
            echo "error: python3 -m venv failed; on Debian/Ubuntu: apt-get install python3-venv" >&2
            return 1
        }
    fi
    # shellcheck disable=SC2034 # for the scripts that source this file
    VENV_PYTHON="$(cd "$VENV_DIR" && pwd)/bin/python"
    want=$(_venv_hash)
    [ -f "$stamp" ] && have=$(cat "$stamp")
    if [ "$want" = "$have" ]; then
        echo "skipped: already present ($VENV_DIR has the packages of $VENV_REQUIREMENTS)"
        return 0
    fi
    echo "installing the packages of $VENV_REQUIREMENTS into $VENV_DIR (pip; a minute the first time)"
    "$VENV_DIR/bin/python" -m pip install --quiet --disable-pip-version-check \
        -r "$VENV_REQUIREMENTS" || {
        echo "error: pip install -r $VENV_REQUIREMENTS failed (see above)" >&2
        return 1
    }
    echo "$want" > "$stamp"
}
