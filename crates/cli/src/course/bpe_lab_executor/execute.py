"""The kernel and the cells: start the kernel, run each code cell under its time limit and the
run's output cap, record what it did, and shut everything down whatever happens."""

import asyncio
import os
import queue
import resource
import shutil
import signal
import tempfile
import time

from . import evcxr_cache, outputs, summary, watchdog
from .cli import EXIT_KERNEL, log

INTERRUPT_GRACE_SECONDS = 10.0
IOPUB_DRAIN_SECONDS = 10.0
SHUTDOWN_GRACE_SECONDS = 10.0
LATE_OUTPUT_SECONDS = float(os.environ.get("RUN_NOTEBOOK_LATE_OUTPUT_SECONDS", "0.3"))
DEBUG = bool(os.environ.get("RUN_NOTEBOOK_DEBUG"))
# How often a cell's wait looks at the output cap, at most.
FLOOD_CHECK_SECONDS = 0.2


def check_kernel(name):
    """The kernelspec of `name`, or raise with a message saying which kernelspecs exist."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        return KernelSpecManager().get_kernel_spec(name)
    except NoSuchKernel:
        try:
            specs = KernelSpecManager().find_kernel_specs()
        except Exception:  # noqa: BLE001 - only used for a message
            specs = {}
        have = ", ".join(f"{k} ({v})" for k, v in sorted(specs.items())) or "none"
        hint = ' (`evcxr_jupyter --install` installs the "rust" kernel)' if name == "rust" else (
            ' (`evcxr_jupyter --install` installs "rust")'
        )
        raise RuntimeError(f"no such kernelspec: {name!r}{hint}; kernelspecs found: {have}") from None


class DeadKernel(Exception):
    pass


class NotReady(Exception):
    """The kernel started but did not answer kernel_info in time."""


class Runner:
    def __init__(self, args, nb, kernel_name, cwd):
        self.args = args
        self.nb = nb
        self.kernel_name = kernel_name
        self.cwd = cwd
        self.km = None
        self.kc = None
        self.pgid = None
        self.watchdog = None
        self.kernel_log = None
        self.kernel_tmp = None
        self.evcxr_cache = None
        self.client = None
        self.stopped = None
        self.kernel_start_seconds = None
        # Kernels killed and started again because they did not become ready.
        self.restarts = 0
        self.current = None
        self.started = time.monotonic()
        self.deadline = self.started + args.total_timeout
        # Bytes of output the cells produced so far, against args.output_limit.
        self.output_bytes = 0
        self.flooded = False
        self.code_cells = [
            (index, cell) for index, cell in enumerate(nb.cells) if cell.get("cell_type") == "code"
        ]
        self.results = summary.new_results(self.code_cells)
        for _, cell in self.code_cells:
            cell.outputs = []
            cell.execution_count = None

    # -- kernel ---------------------------------------------------------------------------

    async def start_kernel(self):
        """Start the kernel; one that does not answer kernel_info within --startup-timeout is
        killed and started again, up to --start-attempts times in all. Measured: about one
        evcxr start in 25 never became ready (JupyterLab showed "Rust | Unknown") and a restart
        was all it needed."""
        check_kernel(self.kernel_name)
        attempts = self.args.start_attempts
        for attempt in range(1, attempts + 1):
            try:
                # Each new attempt waits longer: a start that was only slow (a loaded machine)
                # gets its time the second time round.
                await self.start_once(self.args.startup_timeout * attempt)
                return
            except NotReady as e:
                self.show_kernel_log()
                await self.abandon_kernel()
                if attempt == attempts:
                    raise RuntimeError(
                        f"kernel {self.kernel_name!r} did not become ready ({attempts} starts): {e}"
                    ) from None
                log(f"kernel {self.kernel_name!r} did not become ready ({e}); "
                    f"killed it, starting it again ({attempt + 1} of {attempts})")
                self.restarts += 1

    async def start_once(self, ready_timeout):
        from jupyter_client.manager import AsyncKernelManager
        from nbclient import NotebookClient

        env = dict(os.environ)
        # The executor's own import path is not the kernel's business.
        env.pop("PYTHONPATH", None)
        # evcxr needs cargo's incremental builds: under CARGO_INCREMENTAL=0 (common in CI set-ups)
        # every cell after the first fails with "dlsym failed".
        env.pop("CARGO_INCREMENTAL", None)
        env.update(self.args.env)
        # evcxr builds in a folder under TMPDIR (about 900 MB with the crate) and leaves it
        # behind when its kernel is stopped: give it one of ours and remove it at shutdown.
        self.kernel_tmp = tempfile.mkdtemp(prefix="run_notebook-kernel-")
        env["TMPDIR"] = self.kernel_tmp
        evcxr_cache.write_kernel_cargo_config(self.kernel_tmp)
        self.evcxr_cache = evcxr_cache.evcxr_cache_dir(env)
        evcxr_cache.forget_old_build_folders(self.evcxr_cache)
        t0 = time.monotonic()
        self.km = AsyncKernelManager(kernel_name=self.kernel_name)
        # The kernel's own output (cargo's "Compiling ..." lines among it) goes to a log, not to
        # our stdout, which carries only the JSON summary.
        if self.kernel_log is not None:
            self.kernel_log.close()
        if self.args.kernel_log:
            # Appended to: a restarted kernel's log follows the first one's.
            self.kernel_log = open(self.args.kernel_log, "a+b" if self.restarts else "w+b")
        else:
            self.kernel_log = tempfile.TemporaryFile(prefix="run_notebook-kernel-")
        await self.km.start_kernel(
            cwd=self.cwd, env=env, preexec_fn=watchdog.set_limits(self.args.memory_mb),
            stdout=self.kernel_log.fileno(), stderr=self.kernel_log.fileno(),
        )
        self.pgid = getattr(self.km.provisioner, "pgid", None)
        if self.pgid and self.pgid != os.getpgrp():
            self.watchdog = watchdog.start_watchdog(self.pgid)
        self.kc = self.km.client()
        self.kc.start_channels()
        try:
            await self.kc.wait_for_ready(timeout=ready_timeout)
        except RuntimeError as e:
            raise NotReady(str(e)) from None
        self.kc.allow_stdin = False
        self.kernel_start_seconds = round(time.monotonic() - t0, 2)
        # nbclient turns IOPub messages into notebook outputs (streams, display data, errors,
        # clear_output, update_display_data) exactly as `jupyter nbconvert --execute` does.
        self.client = NotebookClient(self.nb, km=self.km, kernel_name=self.kernel_name)
        self.client.kc = self.kc
        log(f"kernel {self.kernel_name} started in {self.kernel_start_seconds:.1f} s "
            f"(pid {self.km.provisioner.pid}, cwd {self.cwd})")

    def show_kernel_log(self, lines=15):
        """The last lines the kernel printed, to stderr: why it died or did not start."""
        if self.kernel_log is None:
            return
        try:
            self.kernel_log.flush()
            self.kernel_log.seek(0)
            tail = self.kernel_log.read().decode("utf-8", "replace").splitlines()
        except (OSError, ValueError):
            return
        tail = [line for line in tail if not line.lstrip().startswith("Compiling ")][-lines:]
        if tail:
            log("the kernel's last output:\n  " + "\n  ".join(tail))

    async def kernel_alive(self):
        try:
            return bool(await self.km.is_alive())
        except Exception:  # noqa: BLE001
            return False

    async def exit_code(self):
        process = getattr(self.km.provisioner, "process", None) if self.km else None
        return process.poll() if process is not None else None

    async def shutdown(self):
        """Ask the kernel to shut down, then make sure it and its children are gone."""
        if self.kc is not None:
            try:
                self.kc.stop_channels()
            except Exception:  # noqa: BLE001
                pass
        if self.km is not None and self.km.has_kernel:
            try:
                await asyncio.wait_for(self.km.shutdown_kernel(now=False), SHUTDOWN_GRACE_SECONDS + 5)
            except BaseException:  # noqa: BLE001 - fall back to killing below
                pass
        self.kill_group()
        if self.kernel_tmp is not None:
            shutil.rmtree(self.kernel_tmp, ignore_errors=True)
            self.kernel_tmp = None
        if self.evcxr_cache is not None:
            # What this kernel added to the cache, fixed before the next kernel uses it.
            evcxr_cache.forget_old_build_folders(self.evcxr_cache)

    async def abandon_kernel(self):
        """Kill a kernel that never became ready (no polite shutdown: it does not answer) and
        remove its build folder, so that the next start begins clean."""
        if self.kc is not None:
            try:
                self.kc.stop_channels()
            except Exception:  # noqa: BLE001
                pass
        self.kill_group()
        if self.km is not None:
            try:
                await self.km.cleanup_resources()
            except Exception:  # noqa: BLE001
                pass
        if self.kernel_tmp is not None:
            shutil.rmtree(self.kernel_tmp, ignore_errors=True)
        self.km = self.kc = self.pgid = self.kernel_tmp = None

    def kill_group(self):
        """SIGKILL what is left of the kernel's process group (evcxr's subprocess, cargo, rustc)."""
        provisioner = getattr(self.km, "provisioner", None)
        process = getattr(provisioner, "process", None)
        # The kernel leads its own session and process group (jupyter_client starts it with
        # start_new_session), so its group id is its pid.
        pgid = self.pgid or getattr(provisioner, "pgid", None) or getattr(process, "pid", None)
        if process is not None and process.poll() is None:
            try:
                process.kill()
            except OSError:
                pass
        if pgid and pgid != os.getpgrp():
            try:
                os.killpg(pgid, signal.SIGKILL)
            except OSError:
                pass
        if process is not None:
            try:
                process.wait(timeout=5)
            except Exception:  # noqa: BLE001
                pass
        watchdog.stand_down(self.watchdog)
        self.watchdog = None

    # -- cells ----------------------------------------------------------------------------

    async def poll_iopub(self, msg_id, cell, index):
        """Turn the cell's IOPub messages into outputs until the kernel goes idle, then keep
        listening for LATE_OUTPUT_SECONDS: evcxr relays its subprocess's stdout and stderr from
        another thread, so a line printed just before the cell ended can arrive after idle (it
        would otherwise be sent with the next cell's header)."""
        from nbclient.exceptions import CellExecutionComplete

        idle_at = None
        while True:
            if idle_at is None:
                msg = await self.kc.iopub_channel.get_msg(timeout=None)
            else:
                remaining = idle_at + LATE_OUTPUT_SECONDS - time.monotonic()
                if remaining <= 0:
                    return
                try:
                    msg = await self.kc.iopub_channel.get_msg(timeout=remaining)
                except queue.Empty:
                    return
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if idle_at is not None and DEBUG:
                log(f"debug: late {msg['msg_type']} {time.monotonic() - idle_at:.3f} s after idle")
            # The message that passes the cap is kept (and cut to it later); those after it
            # are dropped while the cell is being stopped.
            if self.flooded and outputs.message_bytes(msg) > 0:
                continue
            self.count_output(msg)
            try:
                self.client.process_message(msg, cell, index)
            except CellExecutionComplete:
                idle_at = time.monotonic()

    def count_output(self, msg):
        """Adds the message's output to the run's total; past --output-limit, the run is
        flooded and the cell's wait ends at its next look (FLOOD_CHECK_SECONDS)."""
        if self.args.output_limit is None:
            return
        self.output_bytes += outputs.message_bytes(msg)
        if self.output_bytes > self.args.output_limit:
            self.flooded = True

    async def wait_reply(self, msg_id, until):
        """The execute_reply of msg_id; None at `until`; raises DeadKernel when the kernel dies."""
        while True:
            remaining = until - time.monotonic()
            if remaining <= 0:
                return None
            if self.flooded:
                return None
            try:
                msg = await self.kc.shell_channel.get_msg(timeout=min(FLOOD_CHECK_SECONDS, remaining))
            except queue.Empty:
                if not await self.kernel_alive():
                    raise DeadKernel() from None
                continue
            if msg["parent_header"].get("msg_id") == msg_id:
                return msg

    def limit_user_code(self):
        """--user-memory-mb: evcxr restarts its subprocess after a crash or an interrupt, so the
        limit is (re)applied to whatever subprocess is there before each cell."""
        if self.args.user_memory_mb is None:
            return
        limit = self.args.user_memory_mb * 1024 * 1024
        pids = watchdog.user_code_processes(self.km.provisioner.pid)
        for pid in pids:
            try:
                resource.prlimit(pid, resource.RLIMIT_AS, (limit, limit))
            except OSError as e:
                log(f"warning: cannot limit the memory of process {pid}: {e}")
        if not pids and DEBUG:
            log("debug: no user-code subprocess found to limit")

    async def run_cell(self, index, cell):
        result = self.results[index]
        if not cell.source.strip():
            result.update(status="ok", reason="empty cell, not sent to the kernel")
            return
        self.limit_user_code()
        cell.metadata["execution"] = {}
        self.client.clear_before_next_output = False
        t0 = time.monotonic()
        limit_by_total = t0 + self.args.cell_timeout > self.deadline
        until = min(t0 + self.args.cell_timeout, self.deadline)
        msg_id = self.kc.execute(cell.source, store_history=True, allow_stdin=False, stop_on_error=False)
        iopub = asyncio.ensure_future(self.poll_iopub(msg_id, cell, index))
        try:
            try:
                reply = await self.wait_reply(msg_id, until)
            except DeadKernel:
                from nbformat.v4 import new_output

                code = await self.exit_code()
                self.show_kernel_log()
                result.update(
                    status="error",
                    error=f"the kernel died while running this cell (exit code {code})",
                )
                cell.outputs.append(new_output(
                    "error", ename="KernelDied", evalue=result["error"], traceback=[]))
                self.stopped = f"the kernel died (exit code {code})"
                return
            if reply is None:
                await self.handle_timeout(index, cell, msg_id, limit_by_total, result)
                await self.drain(iopub, 2.0)
                return
            result["seconds"] = round(time.monotonic() - t0, 2)
            await self.drain(iopub, IOPUB_DRAIN_SECONDS + LATE_OUTPUT_SECONDS)
            self.record(cell, reply, result)
            if self.flooded:
                # It ended before its wait looked at the cap: cut it all the same.
                await self.handle_flood(cell, msg_id, result, running=False)
        finally:
            cell.outputs = outputs.coalesce_streams(cell.outputs)
            if not result["seconds"]:
                result["seconds"] = round(time.monotonic() - t0, 2)
            if not iopub.done():
                iopub.cancel()

    async def drain(self, iopub, seconds):
        try:
            await asyncio.wait_for(asyncio.shield(iopub), seconds)
        except asyncio.TimeoutError:
            pass
        except Exception as e:  # noqa: BLE001
            log(f"warning: reading the cell's outputs failed: {e!r}")

    async def handle_timeout(self, index, cell, msg_id, limit_by_total, result):
        from nbformat.v4 import new_output

        if self.flooded:
            await self.handle_flood(cell, msg_id, result, running=True)
            return
        if limit_by_total:
            why = f"total time limit ({self.args.total_timeout:g} s) reached while this cell ran"
        else:
            why = f"cell time limit ({self.args.cell_timeout:g} s) exceeded"
        result.update(status="timeout", reason=why)
        try:
            await self.km.interrupt_kernel()
        except Exception as e:  # noqa: BLE001
            log(f"warning: interrupting the kernel failed: {e!r}")
        try:
            reply = await self.wait_reply(msg_id, time.monotonic() + INTERRUPT_GRACE_SECONDS)
        except DeadKernel:
            reply = None
        cell.outputs.append(
            new_output("error", ename="Timeout", evalue=f"{why}; the notebook runner interrupted it",
                       traceback=[])
        )
        if limit_by_total:
            self.stopped = "total time limit"
        elif reply is None:
            self.stopped = "kernel stopped after a timeout"

    async def handle_flood(self, cell, msg_id, result, running):
        """The cells' outputs passed --output-limit: interrupt the cell at once (when it still
        `running`), keep its outputs up to what was left of the limit, and stop the run."""
        from nbformat.v4 import new_output

        limit = self.args.output_limit
        why = f"the cells' output passed the limit of {limit} bytes"
        result.update(status="error", error=why)
        if running:
            try:
                await self.km.interrupt_kernel()
            except Exception as e:  # noqa: BLE001
                log(f"warning: interrupting the kernel failed: {e!r}")
            try:
                await self.wait_reply_anyway(msg_id, time.monotonic() + INTERRUPT_GRACE_SECONDS)
            except DeadKernel:
                pass
        earlier = sum(outputs.output_size(o) for _, c in self.code_cells if c is not cell
                      for o in c.outputs)
        import nbformat

        trimmed = outputs.trim_outputs(
            outputs.coalesce_streams(cell.outputs), max(0, limit - earlier),
            f"\n[bpe-lab: output cut here: {why}; the run was stopped]\n",
        )
        cell.outputs = [nbformat.from_dict(o) for o in trimmed]
        cell.outputs.append(new_output("error", ename="OutputLimit", evalue=why, traceback=[]))
        self.stopped = "output limit"

    async def wait_reply_anyway(self, msg_id, until):
        """[`wait_reply`] that does not stop at the flood."""
        flooded, self.flooded = self.flooded, False
        try:
            return await self.wait_reply(msg_id, until)
        finally:
            self.flooded = flooded

    def record(self, cell, reply, result):
        content = reply.get("content", {})
        cell.outputs = outputs.coalesce_streams(cell.outputs)
        errors = [o for o in cell.outputs if o.get("output_type") == "error"]
        panic = outputs.find_panic(cell.outputs)
        if errors:
            e = errors[0]
            text = outputs.short_error(e.get("ename"), e.get("evalue"), e.get("traceback"))
            # "Subprocess terminated with status: signal: 6 (SIGABRT)" says little by itself:
            # add what the user code printed on its way down.
            hints = [h for h in (panic, outputs.find_oom(cell.outputs)) if h]
            result.update(status="error", error="\n".join([text] + hints))
        elif content.get("status") == "error":
            result.update(
                status="error",
                error=outputs.short_error(content.get("ename"), content.get("evalue"), content.get("traceback"))
                or "the kernel replied with status error",
            )
        elif panic:
            # evcxr catches a panic in user code (catch_unwind), prints the panic message and
            # backtrace on stderr and replies "ok": the panic is only visible in stderr.
            result.update(status="error", error=panic)
        elif content.get("status") == "aborted":
            result.update(status="error", error="the kernel aborted this cell")
        else:
            result["status"] = "ok"
        if "execution_count" in content and content["execution_count"] is not None:
            cell.execution_count = content["execution_count"]

    async def run(self):
        total = len(self.code_cells)
        for number, (index, cell) in enumerate(self.code_cells, 1):
            if self.stopped is None and time.monotonic() >= self.deadline:
                self.stopped = "total time limit"
            if self.stopped is not None:
                break
            self.current = index
            await self.run_cell(index, cell)
            log(summary.progress_line(number, total, self.results[index]))
            self.current = None
        self.mark_not_run()

    def mark_not_run(self):
        summary.mark_not_run(self.results, self.stopped)

    def summary(self, input_path, output_path):
        return summary.summary(
            notebook=input_path, output=output_path, kernel=self.kernel_name,
            seconds=time.monotonic() - self.started,
            kernel_start_seconds=self.kernel_start_seconds, stopped=self.stopped,
            results=self.results, order=[index for index, _ in self.code_cells],
        )


async def main_async(runner):
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    received = []

    def on_signal(signum):
        if not received:
            received.append(signum)
            task.cancel()

    handled = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
    for sig in handled:
        loop.add_signal_handler(sig, on_signal, sig)
    code = 0
    try:
        try:
            await runner.start_kernel()
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001
            runner.show_kernel_log()
            runner.stopped = "kernel could not be started"
            runner.mark_not_run()
            runner.stopped = f"kernel could not be started: {e}"
            log(f"{runner.args.input}: {runner.stopped}")
            return EXIT_KERNEL
        await runner.run()
    except asyncio.CancelledError:
        if not received:
            raise
        name = signal.Signals(received[0]).name
        runner.stopped = f"runner stopped by {name}"
        if runner.current is not None:
            runner.results[runner.current].update(status="not_run", reason=f"stopped by {name} while running")
        runner.mark_not_run()
        code = 128 + received[0]
    finally:
        # The kernel's process group is SIGKILLed at the end of shutdown() whatever happens.
        try:
            await runner.shutdown()
        except BaseException:  # noqa: BLE001
            runner.kill_group()
        for sig in handled:
            loop.remove_signal_handler(sig)
    return code


def run(runner):
    """Runs the notebook; never raises: on the executor's own error, the kernel is killed and
    the run marked stopped. Returns the exit code."""
    try:
        return asyncio.run(main_async(runner))
    except BaseException as e:  # noqa: BLE001 - report, kill, write what we have
        import traceback

        traceback.print_exc()
        runner.kill_group()
        runner.stopped = f"runner error: {e!r}"
        runner.mark_not_run()
        return 130 if isinstance(e, KeyboardInterrupt) else 1
