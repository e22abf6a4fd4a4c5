"""A student's path, in a real browser: `scripts/lab open` starts JupyterLab, Debian's headless
Chromium (driven by Playwright) opens notebooks/03-merge.ipynb, runs every cell through the
menus, and the test asserts what a student sees; then a solution typed into an exercise cell
turns its check green. Last, a copy of notebook 00 outside the checkout runs its setup cell
through the lab's kernel spec (scripts/lib/rust-kernel).

    .venv-browser/bin/python tests/browser/lab_open.py [--keep-going]

Run by scripts/test after `scripts/lab setup` (evcxr, the kernel spec, the warm cache). Needs
/usr/bin/chromium (scripts/test installs the Debian package). Screenshots, JupyterLab's log and
a JSON summary with the times go to target/lab/browser/; the times include, for notebook 03 as
run here, the waits of README's "What a student waits for" (seconds.cells: the setup cell, the
first cell with a `let`, the median one-line cell; a benchmark's figures, not checks). Exit 0 when every check passed; each
failed check is printed, and the run goes on where it can so one run shows them all.

JupyterLab runs with settings of its own (a fresh folder): autosave off, so nothing the test
types reaches notebooks/ (the test also compares the file's bytes before and after), every
cell rendered (no windowing), and no news pop-up.
"""

import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "target" / "lab" / "browser"
NOTEBOOK = "03-merge.ipynb"
CHROMIUM = os.environ.get("BPE_LAB_CHROMIUM", "/usr/bin/chromium")
# The flags this machine needs (root, no network): no sandbox (root), no GPU, and nothing that
# reaches for the network on its own.
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SERVER_TIMEOUT = 1800  # scripts/lab open sets up first: a cold warm-up takes minutes
KERNEL_TIMEOUT = 180
RUN_ALL_TIMEOUT = 600

failures = []
times = {}
screenshots = []


def log(message):
    print(f"[browser {time.strftime('%H:%M:%S')}] {message}", flush=True)


def check(condition, what):
    log(("ok:   " if condition else "FAIL: ") + what)
    if not condition:
        failures.append(what)
    return condition


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def write_settings(settings_dir):
    """JupyterLab user settings for the test's server only."""
    settings = {
        "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
        "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
        "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
            "fetchNews": "false", "checkForUpdates": False},
    }
    for name, value in settings.items():
        path = settings_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value), encoding="utf-8")


def start_lab(port, token, scratch):
    env = dict(os.environ)
    env.update(
        JUPYTERLAB_SETTINGS_DIR=str(scratch / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(scratch / "workspaces"),
        JUPYTER_RUNTIME_DIR=str(scratch / "runtime"),
    )
    write_settings(scratch / "settings")
    log_file = open(OUT / "lab-open.log", "wb")
    cmd = [str(ROOT / "scripts" / "lab"), "open", "--port", str(port), "--token", token, "--no-browser"]
    log("starting: " + " ".join(cmd[:-3]) + " --token … --no-browser (log: target/lab/browser/lab-open.log)")
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT,
                            start_new_session=True)
    t0 = time.monotonic()
    url = f"http://127.0.0.1:{port}/api/status?token={token}"
    while time.monotonic() - t0 < SERVER_TIMEOUT:
        if proc.poll() is not None:
            raise RuntimeError(f"scripts/lab open exited with {proc.returncode} before JupyterLab answered")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    times["lab_open_to_server_ready"] = round(time.monotonic() - t0, 1)
                    log(f"JupyterLab answers after {times['lab_open_to_server_ready']} s")
                    return proc
        except OSError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"JupyterLab did not answer within {SERVER_TIMEOUT} s")


def stop_lab(proc):
    """SIGTERM: the Jupyter server shuts its kernels down, then exits."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def shot(page_or_locator, name):
    path = OUT / f"{name}.png"
    page_or_locator.screenshot(path=str(path))
    screenshots.append(str(path.relative_to(ROOT)))
    return path


def cells(page):
    return page.locator(".jp-Notebook .jp-Cell")


def prompts(page):
    """Each code cell's prompt text ("[ ]:", "[*]:", "[7]:")."""
    return page.eval_on_selector_all(
        ".jp-Notebook .jp-CodeCell .jp-InputArea-prompt", "els => els.map(e => e.textContent.trim())")


def wait_kernel_idle(page, timeout):
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        status = page.locator(".jp-StatusBar-Widget").all_inner_texts()
        if any(re.search(r"Rust \| Idle", s) for s in status):
            return time.monotonic() - t0
        time.sleep(0.25)
    raise RuntimeError(f"the kernel did not become idle within {timeout} s (status bar: {status})")


def wait_all_run(page, timeout, done_at=None):
    """Seconds until every code cell shows its execution count. With `done_at` (a dict), also
    when each code cell's count appeared (by its index among the code cells): the cells run one
    after the other, so the gaps between those times are the cells' own waits."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        p = prompts(page)
        now = time.monotonic() - t0
        if done_at is not None:
            for i, x in enumerate(p):
                if i not in done_at and re.fullmatch(r"\[\d+\]:", x):
                    done_at[i] = now
        if p and all(re.fullmatch(r"\[\d+\]:", x) for x in p):
            return now
        time.sleep(0.1 if done_at is not None else 0.5)
    raise RuntimeError(f"cells still not run after {timeout} s: prompts {prompts(page)}")


def cell_waits(sources, done_at):
    """The waits README's table names, for the code cells `sources` (in order) from the times
    their counts appeared: the setup cell, the first cell with a `let`, the median one-line
    cell (one line of code besides comments)."""
    waits, last = [], 0.0
    for i in range(len(sources)):
        at = done_at.get(i, last)
        waits.append(round(at - last, 2))
        last = at
    code_lines = [[line for line in src.splitlines() if line.strip() and not line.strip().startswith("//")]
                  for src in sources]
    first_let = next((i for i, lines in enumerate(code_lines)
                      if any(line.startswith("let ") for line in lines)), None)
    one_line = sorted(w for w, lines in zip(waits, code_lines) if len(lines) == 1)
    return {
        "setup_cell": waits[0] if waits else None,
        "first_let_cell": waits[first_let] if first_let is not None else None,
        "one_line_cell_median": (one_line[len(one_line) // 2] if len(one_line) % 2 else
                                 round((one_line[len(one_line) // 2 - 1] + one_line[len(one_line) // 2]) / 2, 2))
        if one_line else None,
        "one_line_cells": len(one_line),
        "every_code_cell": waits,
    }


def cell_text(page, index):
    return cells(page).nth(index).locator(".jp-OutputArea").inner_text()


def box_line(text):
    """The check box's first line (the output area's text starts with its prompt)."""
    lines = [line for line in text.splitlines() if line.strip() and not re.fullmatch(r"\[\d*\]:", line.strip())]
    return lines[0] if lines else "(nothing)"


def notebook_cells(path):
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    return nb["cells"]


def solution_text(source):
    """What a student would type: the instructor's cell without its solution markers."""
    return "\n".join(line for line in source.splitlines()
                     if line.strip() not in ("// BEGIN SOLUTION", "// END SOLUTION"))


def menu(page, top, item):
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{top}$")).first.click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(item)}$")).first.click()


def browser_part(port, token, scratch):
    from playwright.sync_api import sync_playwright

    student = ROOT / "notebooks" / NOTEBOOK
    before = sha256(student)
    student_cells = notebook_cells(student)
    index = {c.get("id"): i for i, c in enumerate(student_cells)}
    instructor = {c.get("id"): c for c in notebook_cells(ROOT / "instructor" / NOTEBOOK)}
    code_cells = sum(1 for c in student_cells if c["cell_type"] == "code")

    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(scratch / "chromium-profile"), executable_path=CHROMIUM, headless=True,
            args=CHROMIUM_FLAGS, viewport={"width": 1400, "height": 1000},
        )
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(60_000)
        t0 = time.monotonic()
        page.goto(f"http://127.0.0.1:{port}/lab/tree/{NOTEBOOK}?token={token}")
        page.locator(".jp-Notebook .jp-Cell").first.wait_for()
        times["page_to_notebook_shown"] = round(time.monotonic() - t0, 1)
        times["kernel_idle_after_shown"] = round(wait_kernel_idle(page, KERNEL_TIMEOUT), 1)
        # The kernel's kernel_info reply (language_info) reaches the notebook's metadata as it
        # starts; give JupyterLab a moment to have marked the notebook changed, if it would.
        time.sleep(3)
        shot(page, "01-opened")
        tab = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab", has_text=NOTEBOOK)
        check(tab.count() == 1, f"one tab shows {NOTEBOOK}")
        check("jp-mod-dirty" not in (tab.first.get_attribute("class") or ""),
              "opening the notebook does not mark it changed (no dirty mark on its tab)")
        check(cells(page).count() == len(student_cells),
              f"all {len(student_cells)} cells are rendered ({cells(page).count()} found)")

        t0 = time.monotonic()
        menu(page, "Run", "Run All Cells")
        done_at = {}
        times["run_all_cells"] = round(wait_all_run(page, RUN_ALL_TIMEOUT, done_at), 1)
        log(f"all {code_cells} code cells ran in {times['run_all_cells']} s")
        # README's "What a student waits for", for this notebook as a student runs it.
        times["cells"] = cell_waits(
            ["".join(c["source"]) for c in student_cells if c["cell_type"] == "code"], done_at)
        log("setup cell {setup_cell} s, first let {first_let_cell} s, one-line cells (median of "
            "{one_line_cells}) {one_line_cell_median} s".format(**times["cells"]))
        time.sleep(1)
        shot(page, "02-ran-all")

        # What a student sees.
        errors = page.locator(
            '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"],'
            '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"]')
        check(errors.count() == 0, f"no error or stderr output in any cell ({errors.count()} found)")
        if errors.count():
            errors.first.scroll_into_view_if_needed()
            shot(page, "02-error")
            log("first error output: " + errors.first.inner_text()[:500])
        all_text = page.locator(".jp-Notebook").inner_text()
        check("panicked at" not in all_text and "error[E" not in all_text,
              "no panic or compile error text anywhere")

        compare = cells(page).nth(index["03-compare"])
        compare.scroll_into_view_if_needed()
        rows = compare.locator('.jp-OutputArea-output span[title][style*="background"]')
        check(rows.count() > 100, f"the coloured token rows are shown ({rows.count()} token boxes)")
        colours = set(compare.locator('.jp-OutputArea-output span[title]').evaluate_all(
            "els => els.slice(0, 200).map(e => getComputedStyle(e).backgroundColor)"))
        check(len(colours) >= 3, f"tokens are coloured ({len(colours)} distinct backgrounds)")
        shot(compare, "03-token-rows")
        svgs = page.locator(".jp-OutputArea-output svg")
        times["svg_plots"] = svgs.count()
        if any("plot" in "".join(c["source"]) for c in student_cells if c["cell_type"] == "code"):
            check(svgs.count() > 0, f"the SVG plot is shown ({svgs.count()} svg)")
        else:
            log(f"{NOTEBOOK} draws no plot: no SVG to look for ({svgs.count()} found)")

        for check_id in ("03-best-check", "03-merge-check"):
            box = cells(page).nth(index[check_id])
            text = box.locator(".jp-OutputArea").inner_text()
            check("✏️" in text and "not implemented yet" in text,
                  f"{check_id} shows the ✏️ 'not implemented yet' box: {box_line(text)}")
        box = cells(page).nth(index["03-best-check"])
        box.scroll_into_view_if_needed()
        shot(box, "04-check-not-implemented")

        # A student types the solution into the exercise cell, runs it and its check.
        exercise = cells(page).nth(index["03-best-solution"])
        typed = solution_text("".join(instructor["03-best-solution"]["source"]))
        exercise.locator(".cm-content").click()
        page.keyboard.press("Control+a")
        # insert_text, not type(): the editor's auto-indent and bracket closing would change
        # keystrokes, and a paste is what students do with longer code anyway.
        page.keyboard.insert_text(typed)
        page.keyboard.press("Escape")
        shown = exercise.locator(".cm-content").inner_text()
        check(" ".join(shown.split()) == " ".join(typed.split()),
              "the editor holds the typed solution")
        t0 = time.monotonic()
        page.keyboard.press("Shift+Enter")  # runs the exercise cell, selects the next one
        checkcell = cells(page).nth(index["03-best-check"])
        checkcell.locator(".jp-InputArea-prompt").click()
        page.keyboard.press("Shift+Enter")
        deadline = time.monotonic() + 120
        text = ""
        while time.monotonic() < deadline:
            text = checkcell.locator(".jp-OutputArea").inner_text()
            prompt = checkcell.locator(".jp-InputArea-prompt").inner_text().strip()
            if "✅" in text and re.fullmatch(r"\[\d+\]:", prompt):
                break
            time.sleep(0.5)
        times["solution_and_check"] = round(time.monotonic() - t0, 1)
        check("✅" in text, f"after the solution is typed, its check shows ✅: {box_line(text)}")
        checkcell.scroll_into_view_if_needed()
        shot(checkcell, "05-check-passed")
        shot(page, "06-after-solution")
        check(sha256(student) == before, f"notebooks/{NOTEBOOK} on disk is unchanged (nothing saved)")
        context.close()


def outside_part():
    """A copy of notebook 00's first cells in a folder outside the checkout, run through the
    lab's kernel spec: its setup cell's path = ".." must still find bpe-lab."""
    python = ROOT / ".venv" / "bin" / "python"
    away = Path(tempfile.mkdtemp(prefix="bpe-lab-away-"))
    try:
        nb = json.loads((ROOT / "notebooks" / "00-welcome.ipynb").read_text(encoding="utf-8"))
        code = [c for c in nb["cells"] if c["cell_type"] == "code"][:2]
        nb["cells"] = code
        (away / "copy.ipynb").write_text(json.dumps(nb), encoding="utf-8")
        env = dict(os.environ, JUPYTER_PATH=str(ROOT / "target" / "lab" / "jupyter"))
        t0 = time.monotonic()
        kernel_log = OUT / "outside-kernel.log"
        run = subprocess.run(
            [str(python), str(ROOT / "crates" / "cli" / "src" / "course" / "bpe_lab_executor"), "--input",
             str(away / "copy.ipynb"), "--output", str(away / "out.ipynb"), "--kernel-log", str(kernel_log)],
            cwd=away, env=env, capture_output=True, text=True, timeout=900)
        times["outside_checkout_two_cells"] = round(time.monotonic() - t0, 1)
        try:
            summary = json.loads(run.stdout)
        except ValueError:
            summary = {"cells": []}
            log("executor output: " + run.stdout[-500:] + run.stderr[-1500:])
        statuses = [c["status"] for c in summary["cells"]]
        check(run.returncode == 0 and statuses and all(s == "ok" for s in statuses),
              f"a notebook copied to {away} runs its setup cell and the next one ({statuses})")
        said = kernel_log.read_text(encoding="utf-8", errors="replace") if kernel_log.exists() else ""
        check("outside the checkout" in said, "the kernel says it runs in the checkout's notebooks/")
        compiling = [line for line in said.splitlines() if line.strip().startswith("Compiling ")]
        check(not compiling, f"the kernel's terminal output has no 'Compiling' lines ({len(compiling)})")
    finally:
        shutil.rmtree(away, ignore_errors=True)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.png"):
        old.unlink()
    if not os.access(CHROMIUM, os.X_OK):
        print(f"error: {CHROMIUM} not found (Debian: apt-get install chromium)", file=sys.stderr)
        return 2
    started = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix="bpe-lab-browser-"))
    port, token = free_port(), secrets.token_hex(16)
    kernel_tmp = ROOT / "target" / "lab" / "kernel-tmp"
    # JupyterLab writes a checkpoint copy of what it opens (git ignores the folder); one the
    # test made is removed again.
    checkpoints = ROOT / "notebooks" / ".ipynb_checkpoints"
    had_checkpoints = checkpoints.exists()
    proc = None
    try:
        proc = start_lab(port, token, scratch)
        try:
            browser_part(port, token, scratch)
        except Exception as e:  # noqa: BLE001 - report and go on to the rest
            check(False, f"the browser part ran to the end ({type(e).__name__}: {str(e)[:300]})")
    finally:
        if proc is not None:
            stop_lab(proc)
        shutil.rmtree(scratch, ignore_errors=True)
        if not had_checkpoints:
            shutil.rmtree(checkpoints, ignore_errors=True)
    said = (OUT / "lab-open.log").read_text(encoding="utf-8", errors="replace")
    compiling = [line for line in said.splitlines() if line.strip().startswith("Compiling ")]
    check(not compiling, f"JupyterLab's terminal shows no 'Compiling' lines ({len(compiling)} found)")
    check("[bpe-lab kernel" in said, "JupyterLab's terminal says what the kernel's setup cell will do")
    # The kernel's folder is renamed as it exits and removed by a process of its own.
    deadline = time.monotonic() + 60
    while True:
        left = [p.name for p in kernel_tmp.glob(".tmp*")] if kernel_tmp.is_dir() else []
        if not left or time.monotonic() > deadline:
            break
        time.sleep(1)
    check(not left, f"no kernel build folder left in target/lab/kernel-tmp/ after the server stopped ({left})")
    try:
        outside_part()
    except Exception as e:  # noqa: BLE001
        check(False, f"the outside-the-checkout part ran ({type(e).__name__}: {str(e)[:300]})")
    times["total"] = round(time.monotonic() - started, 1)
    summary = {"passed": not failures, "failures": failures, "seconds": times, "screenshots": screenshots}
    (OUT / "summary.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    log(f"times (s): {json.dumps(times)}")
    log(f"screenshots: {', '.join(screenshots)}")
    if failures:
        log(f"{len(failures)} check(s) failed")
        return 1
    log("all browser checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
