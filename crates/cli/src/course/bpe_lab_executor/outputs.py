"""What a cell's outputs say — its error, a Rust panic or out-of-memory abort on its stderr —
and how large they are, for the output cap."""

import re

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
PANIC = re.compile(r"thread '([^']*)'(?: \(\d+\))? panicked at ([^\n]*?):?\n([^\n]*)")
OOM = re.compile(r"memory allocation of \d+ bytes failed")


def short_error(ename, evalue, traceback, limit_lines=6, limit_chars=1200):
    """The error's name and value and the first new lines of its traceback, without colours."""
    lines = []
    head = ": ".join(x for x in (ename, evalue) if x)
    if head:
        lines.extend(ANSI.sub("", head).splitlines()[:limit_lines])
    seen = {line.strip() for line in lines} | {ANSI.sub("", evalue or "").strip()}
    for entry in traceback or []:
        for line in ANSI.sub("", entry).splitlines():
            if line.strip() and line.strip() not in seen:
                seen.add(line.strip())
                lines.append(line)
            if len(lines) >= limit_lines:
                break
        if len(lines) >= limit_lines:
            break
    text = "\n".join(lines).strip()
    return text[:limit_chars] + ("..." if len(text) > limit_chars else "")


def stderr_text(outputs):
    return ANSI.sub("", "".join(o.get("text", "") for o in outputs
                                if o.get("output_type") == "stream" and o.get("name") == "stderr"))


def find_panic(outputs):
    """A short description of the first Rust panic reported on the cell's stderr, or None."""
    m = PANIC.search(stderr_text(outputs))
    if not m:
        return None
    return f"panic: {m.group(3).strip()}\n(thread '{m.group(1)}' panicked at {m.group(2)})"


def find_oom(outputs):
    """Rust's out-of-memory abort message on the cell's stderr, or None."""
    m = OOM.search(stderr_text(outputs))
    return m.group(0) + " (out of memory)" if m else None


def coalesce_streams(outputs):
    """Consecutive stream outputs of the same name merged: evcxr sends one message per line."""
    merged = []
    for output in outputs:
        if (output.get("output_type") == "stream" and merged
                and merged[-1].get("output_type") == "stream"
                and merged[-1].get("name") == output.get("name")):
            merged[-1]["text"] += output["text"]
        else:
            merged.append(output)
    return merged


def message_bytes(msg):
    """How much a kernel message adds to the notebook's outputs (text and data, roughly as
    stored): counted as messages arrive, so a flood is seen at once and never summed twice."""
    content = msg.get("content") or {}
    kind = msg.get("msg_type") or msg.get("header", {}).get("msg_type")
    if kind == "stream":
        return len(content.get("text", ""))
    if kind in ("display_data", "update_display_data", "execute_result"):
        return sum(len(str(v)) for v in (content.get("data") or {}).values())
    if kind == "error":
        return len(content.get("evalue", "")) + sum(len(t) for t in content.get("traceback") or [])
    return 0


def output_size(output):
    """The size of one stored output, as [`message_bytes`] counts its message."""
    kind = output.get("output_type")
    if kind == "stream":
        return len(output.get("text", ""))
    if kind in ("display_data", "execute_result"):
        return sum(len(str(v)) for v in (output.get("data") or {}).values())
    if kind == "error":
        return len(output.get("evalue", "")) + sum(len(t) for t in output.get("traceback") or [])
    return 0


def trim_outputs(outputs, budget, note):
    """The outputs cut to `budget` bytes: whole ones while they fit, then a stream's text cut
    short, then `note` (a stderr stream) saying what was dropped. Unchanged when they fit."""
    if sum(output_size(o) for o in outputs) <= budget:
        return outputs
    kept = []
    left = budget
    for output in outputs:
        size = output_size(output)
        if size <= left:
            kept.append(output)
            left -= size
            continue
        if output.get("output_type") == "stream" and left > 0:
            cut = dict(output)
            cut["text"] = output["text"][:left]
            kept.append(cut)
        break
    kept.append({"output_type": "stream", "name": "stderr", "text": note})
    return kept
