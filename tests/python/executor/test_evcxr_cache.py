"""The repair of evcxr's compile cache, on a fake cache folder."""

import json
import os

from bpe_lab_executor import evcxr_cache

OLD = "/tmp/run_notebook-kernel-abc/.tmpXYZ/target/"
REGISTRY = "/home/s/.cargo/registry/src/index/serde_core-1.0.229/src"


def cache_entry(root, name, dep_info, artifact=None):
    folder = root / name
    folder.mkdir()
    artifact = artifact or f"{OLD}x86_64-unknown-linux-gnu/debug/deps/serde_core-1.d"
    lines = [
        json.dumps({"artifact": artifact, "emit": "dep-info"}),
        json.dumps({"artifact": f"{OLD}debug/deps/libserde_core-1.rmeta", "emit": "metadata"}),
        "not json at all",
        json.dumps(["a list", "not an object"]),
    ]
    (folder / "stderr").write_text("\n".join(lines) + "\n")
    path = folder / os.path.basename(artifact)
    path.write_text(dep_info)
    return path


def test_files_of_the_dead_kernels_build_folder_are_forgotten(tmp_path):
    generated = f"{OLD}x86_64-unknown-linux-gnu/debug/build/serde_core-f/out/private.rs"
    dep_info = (
        f"{OLD}deps/serde_core-1.d: {REGISTRY}/lib.rs {generated}\n\n"
        f"{REGISTRY}/lib.rs:\n{generated}:\n\n"
        "# env-dep:CARGO_PKG_NAME=serde_core\n"
    )
    path = cache_entry(tmp_path, "1413", dep_info)
    mode = 0o640
    os.chmod(path, mode)
    assert evcxr_cache.forget_old_build_folders(str(tmp_path)) == 1
    assert path.read_text() == (
        f"{OLD}deps/serde_core-1.d: {REGISTRY}/lib.rs\n\n"
        f"{REGISTRY}/lib.rs:\n\n"
        "# env-dep:CARGO_PKG_NAME=serde_core\n"
    )
    assert os.stat(path).st_mode & 0o777 == mode
    # Fixed once: a second pass changes nothing.
    assert evcxr_cache.forget_old_build_folders(str(tmp_path)) == 0
    assert not [p for p in os.listdir(path.parent) if p.startswith(".bpe-lab-")]


def test_paths_with_escaped_spaces_are_left_alone(tmp_path):
    dep_info = f"{OLD}deps/x.d: /my\\ dir/lib.rs {OLD}gen.rs\n"
    path = cache_entry(tmp_path, "7", dep_info)
    assert evcxr_cache.forget_old_build_folders(str(tmp_path)) == 0
    assert path.read_text() == dep_info


def test_a_missing_or_odd_cache_is_no_error(tmp_path):
    assert evcxr_cache.forget_old_build_folders(str(tmp_path / "none")) == 0
    (tmp_path / "no-stderr").mkdir()
    (tmp_path / "a-file").write_text("x")
    assert evcxr_cache.forget_old_build_folders(str(tmp_path)) == 0


def test_the_cache_is_where_evcxr_looks():
    env = {"HOME": "/home/s", "XDG_CACHE_HOME": "/c"}
    assert evcxr_cache.evcxr_cache_dir(env, platform="linux") == "/c/evcxr"
    assert evcxr_cache.evcxr_cache_dir({"HOME": "/home/s"}, platform="linux") == "/home/s/.cache/evcxr"
    assert evcxr_cache.evcxr_cache_dir(env, platform="darwin") == "/home/s/Library/Caches/evcxr"


def test_the_kernels_cargo_settings_turn_incremental_off_for_the_crate(tmp_path):
    evcxr_cache.write_kernel_cargo_config(str(tmp_path))
    text = (tmp_path / ".cargo" / "config.toml").read_text()
    assert "[profile.dev.package.bpe-lab]\nincremental = false" in text
    assert 'BPE_LAB_KERNEL_CACHE = "1"' in text
