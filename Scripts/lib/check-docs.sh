# Checks the DocC catalogs of the library products: every ``symbol`` link in them and in the
# documentation comments of their public API must resolve. Sourced by Scripts/test.
#
# check_docs: dumps the symbol graphs of the built modules (swift package dump-symbol-graph, on
# the existing build), then runs the toolchain's docc over each Sources/<Module>/Documentation.docc
# with that module's graphs: any warning (a symbol that does not exist, an ambiguous link, an
# undocumented parameter) fails the check. docc sees one module at a time, so links to another
# module of the package (``NFCSession/NFCReaderError``) are checked apart, against that module's
# symbol graph, by check-doc-links.py. Without docc in the toolchain the check says so and passes.

check_docs() {
    if ! command -v docc >/dev/null 2>&1; then
        echo "docs: the toolchain has no docc; DocC catalogs not checked" >&2
        return 0
    fi
    local log=.build/docs-check
    rm -rf "$log"
    mkdir -p "$log"
    if ! swift package dump-symbol-graph --minimum-access-level public >"$log/dump.log" 2>&1; then
        cat "$log/dump.log" >&2
        echo "docs: swift package dump-symbol-graph failed" >&2
        return 1
    fi
    local graphs
    graphs=$(sed -n 's/^Files written to //p' "$log/dump.log" | tail -n 1)
    if [[ -z "$graphs" || ! -d "$graphs" ]]; then
        echo "docs: no symbol graphs were written (see $log/dump.log)" >&2
        return 1
    fi
    local failed=0 catalog module modules
    modules=$(find Sources -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | grep -v '^C[A-Z]' | sort)
    for catalog in Sources/*/Documentation.docc; do
        module=$(basename "$(dirname "$catalog")")
        mkdir -p "$log/$module/graphs"
        cp "$graphs/$module.symbols.json" "$log/$module/graphs/"
        cp "$graphs/$module"@*.symbols.json "$log/$module/graphs/" 2>/dev/null || true
        docc convert "$catalog" --additional-symbol-graph-dir "$log/$module/graphs" \
            --output-path "$log/$module/archive" --fallback-display-name "$module" \
            --fallback-bundle-identifier "org.ndeftool.$module" \
            --diagnostics-file "$log/$module/diagnostics.json" >"$log/$module/docc.log" 2>&1 || failed=1
        # shellcheck disable=SC2086
        if ! python3 "$(dirname "${BASH_SOURCE[0]}")/check-doc-links.py" --diagnostics \
            "$log/$module/diagnostics.json" $modules; then
            echo "docs: docc found the problems above in $module" >&2
            failed=1
        fi
    done
    # shellcheck disable=SC2086
    if ! python3 "$(dirname "${BASH_SOURCE[0]}")/check-doc-links.py" "$graphs" $modules; then
        echo "docs: the links above name no public symbol of their module" >&2
        failed=1
    fi
    return "$failed"
}
