# shellcheck shell=bash
# Sourced by scripts/test: the Python package (python/, module bpe_lab) built as an abi3 wheel,
# installed into .venv-python/ and tested there with pytest (differential tests against
# tiktoken, bad input, training).
#
#   ensure_python_package_venv     the venv with python/tests/requirements.txt (maturin, pytest,
#                                  tiktoken, tqdm); beside cargo, with the other installs
#   python_package_tests           builds the wheel (maturin, the dev profile: the library at
#                                  opt-level 1, its dependencies at 0; 1.9 CPU-minutes from
#                                  cold, half of opt-level 1 throughout), installs it, runs
#                                  python/tests, then tiktoken's own test suite against it
#   tiktoken_suite                 tiktoken's tests (from its source distribution on PyPI, the
#                                  version installed in the venv) with `import tiktoken`
#                                  answered by bpe_lab (python/tests/tiktoken_suite/)
#
# The crate python/ is a workspace of its own with its own Cargo.lock and target folder
# (python/target), so this build never touches the root's lock file or target/.

ensure_python_package_venv() {
    VENV_DIR=.venv-python VENV_REQUIREMENTS=python/tests/requirements.txt ensure_venv
}

python_package_tests() {
    local wheels=target/test/wheels
    rm -rf "$wheels"
    echo "building the abi3 wheel (maturin build --profile dev --locked)"
    .venv-python/bin/maturin build --quiet --profile dev --locked \
        --manifest-path python/Cargo.toml --out "$wheels" --interpreter .venv-python/bin/python ||
        return
    .venv-python/bin/python -m pip install --quiet --disable-pip-version-check --force-reinstall \
        --no-deps "$wheels"/*.whl || return
    # From the repository root, so that `import bpe_lab` is the installed wheel, not python/'s
    # sources. Without tiktoken's rank files the differential tests fail here, never skip.
    BPE_LAB_REQUIRE_TIKTOKEN=1 .venv-python/bin/python -m pytest -q -p no:cacheprovider python/tests || return
    tiktoken_suite
}

tiktoken_suite() {
    local version dir=target/test/tiktoken-suite root
    root=$(pwd)
    version=$(.venv-python/bin/python -c 'import importlib.metadata as m; print(m.version("tiktoken"))') ||
        return
    if [ ! -d "$dir/tiktoken-$version/tests" ]; then
        rm -rf "$dir"
        mkdir -p "$dir"
        echo "tiktoken's test suite: downloading tiktoken $version's source distribution (PyPI)"
        .venv-python/bin/python -m pip download --quiet --disable-pip-version-check --no-deps \
            --no-binary :all: --dest "$dir" "tiktoken==$version" || return
        tar -xzf "$dir/tiktoken-$version.tar.gz" -C "$dir" "tiktoken-$version/tests" || return
    fi
    echo "tiktoken $version's own tests, with bpe_lab imported as tiktoken"
    (cd "$dir/tiktoken-$version" &&
        PYTHONPATH="$root/python/tests/tiktoken_suite" "$root/.venv-python/bin/python" -m pytest \
            -q -p no:cacheprovider tests)
}
