"""What a cell's outputs say, and their size against the output cap."""

from bpe_lab_executor import outputs


def stream(name, text):
    return {"output_type": "stream", "name": name, "text": text}


def test_a_panic_on_stderr_is_found_and_told_briefly():
    cell = [
        stream("stdout", "hello\n"),
        stream("stderr", "\x1b[31mthread 'main' (7) panicked at src/lib.rs:3:5:\nnot yet implemented\nnote: run with RUST_BACKTRACE\n"),
    ]
    assert outputs.find_panic(cell) == (
        "panic: not yet implemented\n(thread 'main' panicked at src/lib.rs:3:5)"
    )
    assert outputs.find_panic([stream("stdout", "thread 'main' panicked at x:\ny\n")]) is None


def test_out_of_memory_is_found():
    cell = [stream("stderr", "memory allocation of 1048576 bytes failed\n")]
    assert outputs.find_oom(cell) == "memory allocation of 1048576 bytes failed (out of memory)"
    assert outputs.find_oom([stream("stderr", "fine")]) is None


def test_an_error_is_shortened_without_colours_or_repeats():
    text = outputs.short_error("Error", "\x1b[1mexpected `;`\x1b[0m", ["expected `;`", "at line 3", "", "at line 3"])
    assert text == "Error: expected `;`\nat line 3"
    long = outputs.short_error("E", "x" * 5000, [])
    assert len(long) == 1203 and long.endswith("...")


def test_consecutive_streams_of_one_name_are_merged():
    merged = outputs.coalesce_streams([
        stream("stdout", "a\n"), stream("stdout", "b\n"), stream("stderr", "c\n"),
        {"output_type": "display_data", "data": {"text/plain": "d"}}, stream("stderr", "e\n"),
    ])
    assert [o.get("text") for o in merged] == ["a\nb\n", "c\n", None, "e\n"]


def test_messages_are_counted_as_they_would_be_stored():
    assert outputs.message_bytes({"msg_type": "stream", "content": {"text": "abc"}}) == 3
    assert outputs.message_bytes({"header": {"msg_type": "display_data"},
                                  "content": {"data": {"text/plain": "ab", "text/html": "<b>"}}}) == 5
    assert outputs.message_bytes({"msg_type": "error", "content": {"evalue": "ab", "traceback": ["c", "de"]}}) == 5
    assert outputs.message_bytes({"msg_type": "status", "content": {"execution_state": "idle"}}) == 0
    assert outputs.output_size(stream("stdout", "abc")) == 3


def test_outputs_past_the_budget_are_cut_with_a_note():
    outs = [stream("stdout", "a" * 10), {"output_type": "display_data", "data": {"text/plain": "b" * 10}},
            stream("stdout", "c" * 100), stream("stdout", "d")]
    kept = outputs.trim_outputs(outs, 25, "[cut]")
    assert [outputs.output_size(o) for o in kept] == [10, 10, 5, 5]
    assert kept[2]["text"] == "ccccc" and kept[3]["text"] == "[cut]"
    assert outs[2]["text"] == "c" * 100, "the input is not changed"
    assert outputs.trim_outputs(outs, 1000, "[cut]") is outs
