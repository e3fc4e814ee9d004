# The blocking-call check: test code never blocks a thread of Swift's cooperative pool.
# Swift Testing runs the tests on that pool (as many threads as cores: 2 on a small machine), so
# one test that blocks a thread stalls the others and the library code they drive.
# Source it after common.sh:  . "$(dirname "$0")/lib/check-blocking-calls.sh"
#
#   check_blocking_calls DIR...   prints FILE:LINE: the call, and why, for every blocking call in
#                                 the Swift files under DIR; returns 1 when it found one
#   check_blocking_calls_self_test
#                                 plants each forbidden call in a scratch file and checks that the
#                                 check reports it with its file and line (and passes clean code)
#
# Forbidden: Process.waitUntilExit() (it spins a run loop on the calling thread), Thread.sleep,
# sleep/usleep/nanosleep, DispatchSemaphore and DispatchGroup (their waits block), reads that wait
# for a pipe's end (readDataToEndOfFile, availableData), thread joins. Use ChildProcess,
# Task.sleep, eventually and watch from Tests/TestSupport, or SystemSupport's BlockingCall.run, instead. A line that must block
# on purpose (inside a BlockingCall.run closure, say) carries `// blocking-call-check: allowed (why)`.

blocking_call_patterns=(
    'waitUntilExit|Process.waitUntilExit() spins a run loop on the calling thread: use ChildProcess and await exit() or finish()'
    'Thread\.sleep|Thread.sleep blocks the thread: use try await Task.sleep(for:) or eventually'
    '(^|[^.A-Za-z_])(u|nano)?sleep[[:space:]]*\(|sleep() blocks the thread: use try await Task.sleep(for:) or eventually'
    'DispatchSemaphore|a DispatchSemaphore wait blocks the thread: use a serialized suite, an actor or a continuation'
    'DispatchGroup|a DispatchGroup wait blocks the thread: use a task group'
    'readDataToEndOfFile|reading to the end of a pipe blocks until the writer closes it: use ChildProcess output'
    '\.availableData|availableData blocks until data comes: use ChildProcess output or waitForOutput'
    'pthread_join|\.join[[:space:]]*\(\)|joining a thread blocks: use BlockingCall.run or await a continuation'
)

# check_blocking_calls DIR...
check_blocking_calls() {
    local found=0 entry pattern reason hits line
    for entry in "${blocking_call_patterns[@]}"; do
        pattern=${entry%%|*}
        # The pattern itself may hold '|': the reason is after the last one.
        pattern=${entry%|*}
        reason=${entry##*|}
        hits=$(grep -rnE --include='*.swift' "$pattern" "$@" 2>/dev/null |
            grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' |
            grep -vE 'func (u|nano)?sleep[[:space:]]*\(' |
            grep -v 'blocking-call-check: allowed' || true)
        [ -n "$hits" ] || continue
        while IFS= read -r line; do
            echo "${line%%:*}:$(echo "$line" | cut -d: -f2): error: blocking call in test code: $reason" >&2
            echo "    $(echo "$line" | cut -d: -f3- | sed 's/^[[:space:]]*//')" >&2
        done <<<"$hits"
        found=1
    done
    return $found
}

# check_blocking_calls_self_test
check_blocking_calls_self_test() {
    local dir planted output status=0 call
    dir=$(mktemp -d -t ndeftool-blocking-check.XXXXXX)
    local calls=(
        'process.waitUntilExit()'
        'Thread.sleep(forTimeInterval: 0.1)'
        'usleep(1000)'
        'sleep(1)'
        'let semaphore = DispatchSemaphore(value: 0)'
        'let group = DispatchGroup()'
        'let data = pipe.fileHandleForReading.readDataToEndOfFile()'
        'let data = handle.availableData'
        'thread.join()'
    )
    for call in "${calls[@]}"; do
        planted="$dir/Planted.swift"
        printf 'import Foundation\n\n@Test func planted() {\n    %s\n}\n' "$call" >"$planted"
        if output=$(check_blocking_calls "$dir" 2>&1); then
            echo "error: the blocking-call check missed a planted '$call'" >&2
            status=1
        elif ! grep -q "^$planted:4: error: blocking call" <<<"$output"; then
            echo "error: the blocking-call check did not name $planted:4 for '$call':" >&2
            echo "$output" >&2
            status=1
        fi
    done
    # Clean code passes: awaited waits, comments, a clock's own sleep, an allowed line.
    printf '%s\n' 'import Foundation' \
        '// process.waitUntilExit() is what ChildProcess replaces' \
        'func f() async throws { try await Task.sleep(for: .seconds(1)); _ = await child.exit() }' \
        'func sleep(until deadline: Instant, tolerance: Duration?) async throws {}' \
        'let read = recv(fd, &buffer, 1, 0)  // blocking-call-check: allowed (inside BlockingCall.run)' \
        >"$dir/Planted.swift"
    if ! output=$(check_blocking_calls "$dir" 2>&1); then
        echo "error: the blocking-call check refused clean code:" >&2
        echo "$output" >&2
        status=1
    fi
    rm -rf "$dir"
    return $status
}
