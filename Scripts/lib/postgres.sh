# A private PostgreSQL server for the tests of batch jobs on a database (Debian's postgresql-15).
# Source it after common.sh:
#   run_with_private_postgres CMD...
#       runs CMD next to a PostgreSQL server of its own: initdb into a new folder under /tmp, the
#       server started as the user postgres when run as root (the server refuses root), listening
#       on a Unix socket in that folder and on 127.0.0.1 at a free port, fsync off (a test server),
#       stopped and removed when CMD ends. CMD sees NDEFTOOL_TEST_DATABASE_URL (a libpq keyword
#       string for the database postgres, as the superuser ndeftool, trusted) and
#       NDEFTOOL_TEST_POSTGRES_BIN (the server's programs, for tests that start servers of their
#       own). Without the server's programs (they cannot be installed), it says so LOUDLY, sets
#       NDEFTOOL_POSTGRES_SKIPPED with the reason, and runs CMD: those tests then report
#       themselves as skipped. Returns CMD's status.

postgres_packages=(postgresql-15 libpq-dev)
postgres_bin=""
postgres_dir=""
postgres_as=()

# postgres_find_bin: the newest /usr/lib/postgresql/N/bin with initdb and pg_ctl (postgres_bin).
postgres_find_bin() {
    local dir
    postgres_bin=""
    for dir in /usr/lib/postgresql/*/bin; do
        if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then postgres_bin=$dir; fi
    done
    [ -n "$postgres_bin" ]
}

# postgres_free_port: a TCP port nothing listens on now.
postgres_free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# start_private_postgres: initdb and start; exports the variables above.
start_private_postgres() {
    postgres_dir=$(mktemp -d /tmp/ndpg.XXXXXX)
    chmod 755 "$postgres_dir"
    postgres_as=()
    if [ "$(id -u)" -eq 0 ]; then
        postgres_as=(runuser -u postgres --)
        chown postgres:postgres "$postgres_dir"
    fi
    if ! "${postgres_as[@]}" "$postgres_bin/initdb" -D "$postgres_dir/data" -U ndeftool --auth=trust -E UTF8 \
        --locale=C.UTF-8 --no-sync >"$postgres_dir/initdb.log" 2>&1; then
        cat "$postgres_dir/initdb.log" >&2
        echo "error: initdb failed" >&2
        return 1
    fi
    local port
    port=$(postgres_free_port)
    # -l always: without a log file pg_ctl's output keeps a pipe open and a $(...) never returns.
    if ! "${postgres_as[@]}" "$postgres_bin/pg_ctl" -D "$postgres_dir/data" -l "$postgres_dir/server.log" -w -t 60 \
        start -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$postgres_dir -c fsync=off -c max_connections=300" \
        >/dev/null; then
        cat "$postgres_dir/server.log" >&2
        echo "error: the PostgreSQL server did not start" >&2
        return 1
    fi
    export NDEFTOOL_TEST_DATABASE_URL="host=$postgres_dir port=$port user=ndeftool dbname=postgres"
    export NDEFTOOL_TEST_POSTGRES_BIN=$postgres_bin
    unset NDEFTOOL_POSTGRES_SKIPPED
}

# stop_private_postgres: fast shutdown, then the folder goes.
stop_private_postgres() {
    [ -n "$postgres_dir" ] || return 0
    if [ -f "$postgres_dir/data/postmaster.pid" ]; then
        "${postgres_as[@]}" "$postgres_bin/pg_ctl" -D "$postgres_dir/data" -m fast -w -t 60 stop >/dev/null 2>&1 || true
    fi
    rm -rf "$postgres_dir"
    postgres_dir=""
}

run_with_private_postgres() {
    if ! postgres_find_bin; then
        ensure_packages "${postgres_packages[@]}" >/dev/null 2>&1 || true
    fi
    if ! postgres_find_bin; then
        export NDEFTOOL_POSTGRES_SKIPPED="the PostgreSQL server's programs (${postgres_packages[*]}) could not be installed"
        echo "" >&2
        echo "******************************************************************************" >&2
        echo "SKIPPED: the tests of batch jobs on PostgreSQL: $NDEFTOOL_POSTGRES_SKIPPED" >&2
        echo "******************************************************************************" >&2
        "$@"
        return
    fi
    start_private_postgres || return 1
    local status=0
    "$@" || status=$?
    stop_private_postgres
    return $status
}
