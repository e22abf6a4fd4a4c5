"""The executor's record of each code cell and the JSON summary it prints on stdout, the one
thing there (bpe-lab reads it with `executor::Run::parse`):

    {"notebook", "output", "kernel", "seconds", "kernel_start_seconds", "stopped": null | reason,
     "cells": [{"index", "id", "status": "ok" | "error" | "timeout" | "not_run", "seconds",
                "error"?, "reason"?}]}
"""

import json

STATUSES = ("ok", "error", "timeout", "not_run")


def new_results(code_cells):
    """One record per code cell, by notebook index: not run yet."""
    return {
        index: {"index": index, "id": cell.get("id"), "status": "not_run", "seconds": 0.0}
        for index, cell in code_cells
    }


def mark_not_run(results, stopped):
    """Gives the cells the run did not reach the reason it stopped."""
    if stopped is None:
        return
    for result in results.values():
        if result["status"] == "not_run" and "reason" not in result:
            result["reason"] = stopped


def summary(*, notebook, output, kernel, seconds, kernel_start_seconds, stopped, results, order):
    """The summary object; `order` lists the code cells' indices in notebook order."""
    for index in order:
        assert results[index]["status"] in STATUSES, results[index]
    return {
        "notebook": notebook,
        "output": output,
        "kernel": kernel,
        "seconds": round(seconds, 2),
        "kernel_start_seconds": kernel_start_seconds,
        "stopped": stopped,
        "cells": [results[index] for index in order],
    }


def dumps(value):
    return json.dumps(value, indent=1)


def progress_line(number, total, result):
    """The line logged on stderr after a cell ran."""
    detail = ""
    if result.get("error"):
        detail = ": " + result["error"].splitlines()[0][:160]
    elif result.get("reason") and result["status"] != "ok":
        detail = ": " + result["reason"]
    return f"cell {number}/{total} {result['status']} {result['seconds']:.1f} s{detail}"
