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
#                                  python/tests
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
    BPE_LAB_REQUIRE_TIKTOKEN=1 .venv-python/bin/python -m pytest -q -p no:cacheprovider python/tests
}
