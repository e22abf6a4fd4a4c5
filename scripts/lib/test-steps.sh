# shellcheck shell=bash
# Sourced by scripts/test: its steps, timed; steps that run in the background; the table of
# times the run ends with (also when it fails: the step that failed is marked); the list of
# every test.
#
#   step TITLE SHARE              a step in the foreground; SHARE: its seconds of the budget
#   background NAME TITLE SHARE COMMAND...
#                                 COMMAND runs in the background, its output in
#                                 $LOGS/NAME.log (LOGS is set by the caller)
#   part NAME TITLE SHARE COMMAND...
#                                 inside background job NAME: one timed part of it (its own
#                                 row in the table); then marks $LOGS/NAME.TITLE-done
#   wait_part NAME TITLE          waits until that part of job NAME is done (or the job ended)
#   wait_background NAME          waits for it, prints its output, stops the run if it failed
#   finish MESSAGE                ends the last step; the table is printed on exit
#   list_tests                    every test the full run runs, one per line
#
# The shares add up to the budget of a run on two idle cores with evcxr installed (900 s); a
# step past its share is marked in every run, so a step that grows is seen when it grows. The
# table also shows how many cores the machine kept busy during each step (from /proc/stat, so
# other work on the machine counts too): a step well under 2 on an idle machine waits rather
# than computes, and is the one to run beside another.

BUDGET_SECONDS=900
_started=$(date +%s)
_rows=()          # "title|seconds|share|note|busy cores"
_step_title=""
_step_share=0
_step_started=0
_step_busy=0
_hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
declare -A _bg_pid _bg_title _bg_share _bg_started _bg_busy

# The machine's busy CPU time so far, in clock ticks (user, nice, system, irq, softirq, steal).
_busy_ticks() {
    local cpu user nice system idle iowait irq softirq steal rest
    read -r cpu user nice system idle iowait irq softirq steal rest </proc/stat 2>/dev/null || { echo 0; return; }
    echo $((user + nice + system + irq + softirq + steal))
}
_started_busy=$(_busy_ticks)

# Busy cores between two readings of _busy_ticks over SECONDS, as "1.7" ("-" when unknown).
_cores() {
    local ticks=$(($2 - $1)) seconds=$3
    if [ "$seconds" -gt 0 ] && [ "$1" -gt 0 ]; then
        printf '%d.%d' $((ticks / (seconds * _hz))) $((ticks * 10 / (seconds * _hz) % 10))
    else
        printf -- '-'
    fi
}

_end_step() {
    local note=${1:-} seconds
    [ -n "$_step_title" ] || return 0
    seconds=$(($(date +%s) - _step_started))
    _rows+=("$_step_title|$seconds|$_step_share|$note|$(_cores "$_step_busy" "$(_busy_ticks)" "$seconds")")
    _step_title=""
}

step() {
    _end_step
    _step_title=$1
    _step_share=$2
    _step_started=$(date +%s)
    _step_busy=$(_busy_ticks)
    printf '\n== %s ==\n' "$1"
}

background() {
    local name=$1 title=$2 share=$3
    shift 3
    _end_step
    _bg_title[$name]=$title
    _bg_share[$name]=$share
    _bg_started[$name]=$(date +%s)
    _bg_busy[$name]=$(_busy_ticks)
    printf '\n== %s: in the background (output: %s) ==\n' "$title" "$LOGS/$name.log"
    rm -f "$LOGS/$name.ended" "$LOGS/$name.rows" "$LOGS/$name".*-done
    # The job notes when it ended, so its own time is shown, not the time until it was waited for.
    ( ("$@"); status=$?; date +%s >"$LOGS/$name.ended"; exit $status ) >"$LOGS/$name.log" 2>&1 &
    _bg_pid[$name]=$!
}

wait_background() {
    local name=$1 status=0 waited ended
    _end_step
    waited=$(date +%s)
    printf '\n== %s: waiting for it ==\n' "${_bg_title[$name]}"
    wait "${_bg_pid[$name]}" || status=$?
    unset "_bg_pid[$name]"
    sed 's/^/    /' "$LOGS/$name.log"
    ended=$(cat "$LOGS/$name.ended" 2>/dev/null || date +%s)
    if [ -f "$LOGS/$name.rows" ]; then
        mapfile -t -O "${#_rows[@]}" _rows <"$LOGS/$name.rows"
    fi
    _rows+=("${_bg_title[$name]}|$((ended - _bg_started[$name]))|${_bg_share[$name]}|in the background; waited for $(($(date +%s) - waited)) s|-")
    if [ "$status" -ne 0 ]; then
        echo "error: ${_bg_title[$name]} failed (exit $status; its output is above and in $LOGS/$name.log)" >&2
        exit "$status"
    fi
}

part() {
    local name=$1 title=$2 share=$3 started busy seconds status=0
    shift 3
    started=$(date +%s)
    busy=$(_busy_ticks)
    printf '\n== %s ==\n' "$title"
    "$@" || status=$?
    seconds=$(($(date +%s) - started))
    printf '%s|%s|%s|in the background|%s\n' "$title" "$seconds" "$share" \
        "$(_cores "$busy" "$(_busy_ticks)" "$seconds")" >>"$LOGS/$name.rows"
    [ "$status" -eq 0 ] || return "$status"
    touch "$LOGS/$name.$(_slug "$title")-done"
}

wait_part() {
    local name=$1 title=$2
    _end_step
    # The job's end is its .ended note (a finished job stays a zombie, which kill -0 still finds).
    while [ ! -e "$LOGS/$name.$(_slug "$title")-done" ] && [ ! -e "$LOGS/$name.ended" ]; do
        sleep 1
    done
    # Failed before that part was done: its output and the reason stop the run.
    [ -e "$LOGS/$name.$(_slug "$title")-done" ] || wait_background "$name"
}

_slug() { printf '%s' "$1" | tr -c 'A-Za-z0-9' '-' | cut -c1-40; }

finish() {
    _end_step
    printf '\n== %s ==\n' "$1"
}

_kill_tree() {
    local child
    for child in $(pgrep -P "$1" 2>/dev/null); do
        _kill_tree "$child"
    done
    kill "$1" 2>/dev/null || true
}

# The table, on every exit. A background job still running is stopped (a failed run must not
# leave an install or a kernel behind).
_print_times() {
    local status=$? row title seconds share note cores total over wall
    _end_step "$([ "$status" -eq 0 ] || echo "FAILED (exit $status)")"
    for name in "${!_bg_pid[@]}"; do
        _kill_tree "${_bg_pid[$name]}"
        _rows+=("${_bg_title[$name]}|$(($(date +%s) - _bg_started[$name]))|${_bg_share[$name]}|stopped unfinished")
    done
    [ ${#_rows[@]} -gt 0 ] || return 0
    wall=$(($(date +%s) - _started))
    {
        printf '\nsteps and their times (share: the step'\''s part of the %d s budget; cores: how many the\n' "$BUDGET_SECONDS"
        printf 'machine kept busy meanwhile, of %s)\n' "$(nproc 2>/dev/null || echo '?')"
        printf '%7s %7s %5s  %-5s %s\n' seconds share cores "" step
        total=0
        for row in "${_rows[@]}"; do
            IFS='|' read -r title seconds share note cores <<<"$row"
            over=""
            [ "$share" -gt 0 ] && [ "$seconds" -gt "$share" ] && over="OVER"
            # A share of 0: a background job whose parts have rows of their own.
            [ "$share" -gt 0 ] || share="-"
            printf '%7d %7s %5s  %-5s %s%s\n' "$seconds" "$share" "${cores:--}" "$over" "$title" "${note:+ ($note)}"
        done
        printf '%7d %7d %5s  %-5s %s\n' "$wall" "$BUDGET_SECONDS" "$(_cores "$_started_busy" "$(_busy_ticks)" "$wall")" \
            "$([ "$wall" -gt "$BUDGET_SECONDS" ] && echo OVER)" "the whole run, wall clock"
    } | tee "$LOGS/times.txt"
    return "$status"
}
trap _print_times EXIT

# Every test of the full run: cargo's (named <binary or module>::<test>, as `cargo test -- --list`
# prints them), the notebooks lab verify runs, the browser test's notebook, pytest's tests.
list_tests() {
    local src exe prefix
    cargo test --all-targets --locked --no-run 2>&1 |
        sed -n 's/.*Executable \(unittests \)\{0,1\}\([^ ]*\) (\(.*\))$/\2 \3/p' |
        while read -r src exe; do
            case "$src" in
                tests/*/main.rs | ../../tests/*/main.rs) prefix="" ;;
                # Two packages have a src/lib.rs: the library's and crates/cli's.
                src/lib.rs) case "$exe" in */bpe_lab_cli-*) prefix="cli:" ;; *) prefix="lib:" ;; esac ;;
                src/main.rs) prefix="bin:" ;;
                benches/*) prefix="bench:$(basename "$src" .rs):" ;;
                *) prefix="example:$(basename "$src" .rs):" ;;
            esac
            "$exe" --list 2>/dev/null | sed -n "s/^\(.*\): \(test\|bench\)$/$prefix\1/p"
        done | LC_ALL=C sort
    cargo test --doc --locked -- --list 2>/dev/null | sed -n 's/^\(.*\): test$/doc:\1/p' | LC_ALL=C sort
    for nb in instructor/[0-9][0-9]-*.ipynb; do
        echo "verify:source:$(basename "$nb")"
        echo "verify:student:$(basename "$nb")"
    done
    echo "browser:notebooks/03-merge.ipynb"
    if [ -x .venv/bin/python ]; then
        .venv/bin/python -m pytest -q -p no:cacheprovider --collect-only tests/python/executor 2>/dev/null |
            sed -n 's/^\(tests\/.*::.*\)$/pytest:\1/p'
    fi
    if [ -x .venv-python/bin/python ]; then
        .venv-python/bin/python -m pytest -q -p no:cacheprovider --collect-only python/tests 2>/dev/null |
            sed -n 's/^\(python\/tests\/.*::.*\)$/pytest:\1/p'
    fi
}
