"""Execute a Jupyter notebook headless with its real kernel and report what each code cell did.

Usage:
    python bpe_lab_executor --input IN.ipynb --output OUT.ipynb [--kernel NAME] [--cwd DIR]
        [--cell-timeout S] [--total-timeout S] [--startup-timeout S] [--start-attempts N] [--memory-mb MB]
        [--user-memory-mb MB] [--output-limit BYTES] [--kernel-log PATH] [--env KEY=VALUE]...
    python bpe_lab_executor --prepare-kernel-tmp DIR

The second form only prepares DIR as the TMPDIR of kernels someone else starts (JupyterLab):
the cargo settings of evcxr_cache.py, and evcxr's cache fixed up.

The code cells of IN run in order in one kernel (NAME, else the notebook's
metadata.kernelspec.name, else "rust") started in DIR (default: IN's directory), so relative
paths such as `:dep bpe-lab = { path = ".." }` resolve against it. A kernel that does not answer
kernel_info within --startup-timeout is killed and started again (--start-attempts starts in
all). A cell that fails does not
stop the run. A cell that runs past --cell-timeout is interrupted (evcxr kills its user-code
subprocess and the kernel carries on); if the kernel does not answer the interrupt within
10 s, the run stops there. Past --total-timeout, when the cells' outputs pass --output-limit
bytes (the cell is interrupted at once and its outputs cut), or when the kernel dies, the
remaining cells are not run. OUT is written atomically with every output collected so far,
whatever happened.

How evcxr's failures show: a compile error is an "error" output (ename "Error", evalue the
message) and an error reply; std::process::exit(n), an abort (out of memory) or the executor's
interrupt kill evcxr's user-code subprocess: an "error" output "Subprocess terminated with
status: ..." (variables are lost, later cells run in a new subprocess). A panic is caught by
evcxr, which prints it on stderr and replies "ok": the executor finds "thread '...' panicked at"
in the cell's stderr and reports the cell as an error ("panic: MESSAGE ...").

--memory-mb limits the kernel and all it starts (rust-analyzer inside the kernel, cargo, rustc),
so it must leave room for them; --user-memory-mb limits only the code of the cells.

stdout gets exactly one JSON object, at the end (summary.py). Progress goes to stderr.

Exit codes: 0 the notebook ran (whatever its cells did); 2 bad usage, or IN unreadable or not a
notebook; 3 the kernel could not be started (the JSON object is still printed, every cell
not_run); 130 / 143 stopped by SIGINT / SIGTERM (OUT and the JSON object are still written).
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import warnings

from . import evcxr_cache, summary

EXIT_USAGE = 2
EXIT_KERNEL = 3


class Usage(Exception):
    """Bad arguments or an unreadable notebook: exit 2 with this message."""


def log(message):
    print(message, file=sys.stderr, flush=True)


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="bpe_lab_executor",
        description="Execute a notebook with its kernel; print a JSON summary of its cells.",
    )
    parser.add_argument("--input", required=True, help="the notebook to run")
    parser.add_argument("--output", required=True, help="where to write the executed notebook")
    parser.add_argument("--kernel", help='kernel name (default: the notebook\'s, else "rust")')
    parser.add_argument("--cwd", help="the kernel's working directory (default: IN's directory)")
    parser.add_argument("--cell-timeout", type=float, default=300.0, metavar="SECONDS")
    parser.add_argument("--total-timeout", type=float, default=3600.0, metavar="SECONDS")
    parser.add_argument(
        "--startup-timeout", type=float, default=60.0, metavar="SECONDS",
        help="how long a kernel may take to answer kernel_info before it is killed and started "
        "again (default 60; twice that for the second start, and so on; a start takes 1-15 s)",
    )
    parser.add_argument(
        "--start-attempts", type=int, default=3, metavar="N",
        help="kernel starts to try before giving up with exit code 3 (default 3)",
    )
    parser.add_argument(
        "--memory-mb", type=int, metavar="MB",
        help="address-space limit (RLIMIT_AS) of the kernel and everything it starts",
    )
    parser.add_argument(
        "--user-memory-mb", type=int, metavar="MB",
        help="address-space limit (RLIMIT_AS) of evcxr's user-code subprocess only, set with "
        "prlimit before each cell (Linux); the kernel, cargo and rustc stay unlimited",
    )
    parser.add_argument(
        "--output-limit", type=int, metavar="BYTES",
        help="stop the run as soon as the cells' outputs pass this many bytes in all",
    )
    parser.add_argument(
        "--kernel-log", metavar="PATH",
        help="keep the kernel's own stdout and stderr (cargo's progress, evcxr's messages) in "
        "PATH; by default they are dropped, but their last lines are shown if the kernel dies",
    )
    parser.add_argument(
        "--env", action="append", default=[], metavar="KEY=VALUE",
        help="add to the kernel's environment (repeatable)",
    )
    args = parser.parse_args(argv)
    for name in ("cell_timeout", "total_timeout", "startup_timeout"):
        if not getattr(args, name) > 0:
            parser.error(f"--{name.replace('_', '-')} must be a positive number of seconds")
    for name in ("memory_mb", "user_memory_mb", "output_limit", "start_attempts"):
        value = getattr(args, name)
        if value is not None and value <= 0:
            parser.error(f"--{name.replace('_', '-')} must be a positive number")
    if args.user_memory_mb is not None and not hasattr(__import__("resource"), "prlimit"):
        parser.error("--user-memory-mb needs Linux (resource.prlimit)")
    env = {}
    for item in args.env:
        key, sep, value = item.partition("=")
        if not sep or not key:
            parser.error(f"--env expects KEY=VALUE, got {item!r}")
        env[key] = value
    args.env = env
    if args.cwd is not None and not os.path.isdir(args.cwd):
        parser.error(f"--cwd {args.cwd}: not a directory")
    return args


def load_notebook(path):
    import nbformat

    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise Usage(f"{path}: cannot read: {e.strerror or e}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Usage(f"{path}: not UTF-8 text: {e}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise Usage(f"{path}: not JSON: {e}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise Usage(f"{path}: not a notebook (no 'cells' list)")
    if data.get("nbformat") != 4:
        raise Usage(f"{path}: not a version 4 notebook (nbformat is {data.get('nbformat')!r})")
    try:
        with warnings.catch_warnings():
            # Cells without ids (nbformat < 4.5) are fine here; report them with "id": null.
            warnings.simplefilter("ignore")
            # reads() also joins sources and outputs stored as lists of lines, as on disk.
            nb = nbformat.reads(text, as_version=4)
            nbformat.validate(nb)
    except nbformat.ValidationError as e:
        first = str(e.message if hasattr(e, "message") else e).splitlines()[0]
        where = "/".join(str(p) for p in getattr(e, "absolute_path", []) or [])
        raise Usage(f"{path}: not a valid notebook: {first}" + (f" (at {where})" if where else "")) from None
    return nb


def write_atomically(nb, path):
    import nbformat

    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    text = nbformat.writes(nb)
    fd, tmp = tempfile.mkstemp(prefix=".bpe_lab_executor-", suffix=".ipynb.tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            if not text.endswith("\n"):
                f.write("\n")
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def prepare_kernel_tmp(tmpdir):
    """For kernels started by someone else (JupyterLab from `scripts/lab open`, Binder): the
    same build set-up as ours, in the TMPDIR they will be given."""
    evcxr_cache.write_kernel_cargo_config(tmpdir)
    fixed = evcxr_cache.forget_old_build_folders(evcxr_cache.evcxr_cache_dir(os.environ))
    log(f"{tmpdir}: kernel build settings written; {fixed} cached dependency lists fixed")
    return 0


def main(argv):
    if len(argv) == 2 and argv[0] == "--prepare-kernel-tmp":
        return prepare_kernel_tmp(argv[1])
    try:
        args = parse_args(argv)
        nb = load_notebook(args.input)
    except Usage as e:
        log(str(e))
        return EXIT_USAGE
    from .execute import Runner, run

    kernel_name = args.kernel or (nb.metadata.get("kernelspec") or {}).get("name") or "rust"
    cwd = os.path.abspath(args.cwd) if args.cwd else os.path.dirname(os.path.abspath(args.input))
    runner = Runner(args, nb, kernel_name, cwd)
    code = run(runner)
    if runner.kernel_tmp is not None:
        shutil.rmtree(runner.kernel_tmp, ignore_errors=True)
    if code != EXIT_KERNEL:
        try:
            write_atomically(nb, args.output)
        except Exception as e:  # noqa: BLE001 - the summary is printed whatever happened
            log(f"{args.output}: cannot write: {e}")
            runner.stopped = (runner.stopped + "; " if runner.stopped else "") + f"output not written: {e}"
    print(summary.dumps(runner.summary(args.input, args.output)), flush=True)
    return code
