# A private pcscd with vsmartcard's vpcd virtual readers, for the tests that go through the real
# PC/SC stack. Its reader configuration (pcscd -c, written to a temporary folder) has two vpcd
# entries of two slots each, so that the test suites of one test process never share a reader:
#   "Virtual PCD 00 00"        127.0.0.1:35963   SimulatorBridgesTests (as Debian's stock vpcd entry)
#   "Virtual PCD 00 01"        127.0.0.1:35964   NDEFCommandLineTests (ndeftool sim serve)
#   "Virtual PCD Tests 00 00"  127.0.0.1:35965   PCSCReaderTests, cards
#   "Virtual PCD Tests 00 01"  127.0.0.1:35966   PCSCReaderTests, always empty
# pcscd loads a driver file once: the second entry points at its own copy of libifdvpcd.so.
# Source it after common.sh:  . "$(dirname "$0")/lib/pcscd.sh"
#
#   start_pcscd [LOG]       starts /usr/sbin/pcscd -f -i -c CONF in the background, waits until it
#                           is ready, sets pcscd_pid; a trap stops it when the shell exits
#   stop_pcscd              stops it (TERM, then KILL after 5 s) and waits for it
#   run_with_private_pcscd CMD...
#                           runs CMD with NDEFTOOL_PCSCD=1 next to a pcscd of its own: in private
#                           network and mount namespaces when unshare works (so that neither the
#                           daemon's socket /run/pcscd nor the vpcd ports clash with another
#                           pcscd on the machine), else in this namespace when no pcscd runs yet.
#                           Returns CMD's status; without root or pcscd, runs CMD alone and says so.
# pcscd needs root. Environment: NDEFTOOL_PCSCD_LOG, the daemon's log file (default: a temporary file).

pcscd_packages=(pcscd vsmartcard-vpcd libpcsclite-dev pcsc-tools libpcsc-perl)
pcscd_pid=""
pcscd_config_dir=""
pcscd_vpcd_ports=(35963 35964 35965 35966)
pcscd_vpcd_driver=/usr/lib/pcsc/drivers/serial/libifdvpcd.so

# pcscd_write_config: the reader configuration above, in a new temporary folder (pcscd_config_dir).
pcscd_write_config() {
    pcscd_config_dir=$(mktemp -d -t ndeftool-pcscd-conf.XXXXXX)
    mkdir "$pcscd_config_dir/reader.conf.d"
    cp "$pcscd_vpcd_driver" "$pcscd_config_dir/libifdvpcd-tests.so"
    cat >"$pcscd_config_dir/reader.conf.d/vpcd" <<EOF
FRIENDLYNAME "Virtual PCD"
DEVICENAME   /dev/null:35963
LIBPATH      $pcscd_vpcd_driver
CHANNELID    35963

FRIENDLYNAME "Virtual PCD Tests"
DEVICENAME   /dev/null:35965
LIBPATH      $pcscd_config_dir/libifdvpcd-tests.so
CHANNELID    35965
EOF
}

# start_pcscd [LOG]
start_pcscd() {
    local log=${1:-/dev/null}
    ensure_packages "${pcscd_packages[@]}"
    if [ -n "$pcscd_pid" ]; then
        echo "error: start_pcscd: pcscd already started (pid $pcscd_pid)" >&2
        return 1
    fi
    if [ -S /run/pcscd/pcscd.comm ] && pgrep -x pcscd >/dev/null 2>&1; then
        echo "error: start_pcscd: another pcscd runs in this namespace (/run/pcscd/pcscd.comm)" >&2
        return 1
    fi
    pcscd_write_config
    /usr/sbin/pcscd -f -i -c "$pcscd_config_dir/reader.conf.d" >"$log" 2>&1 &
    pcscd_pid=$!
    trap stop_pcscd EXIT
    local waited=0
    # Ready: the daemon's socket exists and every vpcd port listens (pcscd creates the readers
    # before it opens its socket; -f keeps it in the foreground, so $! is the daemon itself).
    while [ $waited -lt 100 ]; do
        if ! kill -0 "$pcscd_pid" 2>/dev/null; then
            echo "error: pcscd exited during start-up (log: $log)" >&2
            pcscd_pid=""
            return 1
        fi
        if [ -S /run/pcscd/pcscd.comm ] && pcscd_ports_listen; then
            return 0
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    echo "error: pcscd did not become ready within 10 s (log: $log)" >&2
    stop_pcscd
    return 1
}

# pcscd_port_listens PORT: whether something listens on TCP PORT (from /proc/net/tcp, no tools needed).
pcscd_port_listens() {
    local hex
    hex=$(printf '%04X' "$1")
    grep -q ":$hex 00000000:0000 0A" /proc/net/tcp 2>/dev/null
}

# pcscd_ports_listen: whether every vpcd port listens.
pcscd_ports_listen() {
    local port
    for port in "${pcscd_vpcd_ports[@]}"; do
        pcscd_port_listens "$port" || return 1
    done
}

# stop_pcscd: TERM, up to 5 s, then KILL; always waits, so no daemon is left behind.
stop_pcscd() {
    [ -n "$pcscd_pid" ] || return 0
    local pid=$pcscd_pid
    pcscd_pid=""
    kill -TERM "$pid" 2>/dev/null || true
    local waited=0
    while kill -0 "$pid" 2>/dev/null && [ $waited -lt 50 ]; do
        sleep 0.1
        waited=$((waited + 1))
    done
    if kill -0 "$pid" 2>/dev/null; then
        echo "warning: pcscd (pid $pid) did not stop on TERM; killing it" >&2
        kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
    [ -z "$pcscd_config_dir" ] || rm -rf "$pcscd_config_dir"
    pcscd_config_dir=""
}

# run_with_private_pcscd CMD...
run_with_private_pcscd() {
    if [ "$(id -u)" -ne 0 ]; then
        echo "warning: not root: no pcscd for the PC/SC tests; they are skipped (NDEFTOOL_PCSCD unset)" >&2
        "$@"
        return
    fi
    ensure_packages "${pcscd_packages[@]}"
    if unshare -n -m --propagation private true 2>/dev/null; then
        unshare -n -m --propagation private bash -c '
            set -euo pipefail
            . "$1/Scripts/lib/common.sh"
            . "$1/Scripts/lib/pcscd.sh"
            shift
            pcscd_enter_private_namespace
            pcscd_run_here "$@"
        ' bash "$repo_root" "$@"
        return
    fi
    echo "warning: unshare is not available: pcscd runs in this namespace" >&2
    pcscd_run_here "$@"
}

# Inside fresh namespaces: loopback up, an empty /run/pcscd of our own.
pcscd_enter_private_namespace() {
    ip link set lo up
    mkdir -p /run/pcscd
    mount -t tmpfs -o mode=0755 tmpfs /run/pcscd
}

# pcscd_run_here CMD...: pcscd around CMD, stopped on every exit path.
pcscd_run_here() {
    local log=${NDEFTOOL_PCSCD_LOG:-} own_log=""
    if [ -z "$log" ]; then
        log=$(mktemp -t ndeftool-pcscd.XXXXXX)
        own_log=$log
    fi
    if ! start_pcscd "$log"; then
        echo "warning: pcscd could not be started: the PC/SC tests are skipped" >&2
        [ -z "$own_log" ] || { cat "$own_log" >&2; rm -f "$own_log"; }
        "$@"
        return
    fi
    trap 'stop_pcscd; [ -z "$own_log" ] || rm -f "$own_log"; exit 130' INT TERM
    echo "pcscd running (pid $pcscd_pid, log $log); PC/SC tests enabled (NDEFTOOL_PCSCD=1)" >&2
    local status=0
    NDEFTOOL_PCSCD=1 "$@" || status=$?
    stop_pcscd
    trap - INT TERM EXIT
    # A log of our own goes with the run; when the run failed, its end is shown first.
    if [ -n "$own_log" ]; then
        if [ $status -ne 0 ] && [ -s "$own_log" ]; then
            echo "== the end of pcscd's log ($own_log)" >&2
            tail -n 40 "$own_log" >&2
        fi
        rm -f "$own_log"
    fi
    return $status
}
