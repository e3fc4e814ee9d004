# nfcpy 1.0.4 from PyPI in a virtual environment under .build, for the cross-checks with an
# implementation that is not ours (Scripts/lib/nfcpy-tag.py drives it against the simulated PN532).
# Source it after common.sh:  . "$(dirname "$0")/lib/nfcpy.sh"
#
#   ensure_nfcpy    creates .build/nfcpy-venv with nfcpy 1.0.4 and its dependencies at pinned
#                   versions when it is not there yet, and exports NDEFTOOL_NFCPY_PYTHON (the
#                   venv's python). When PyPI cannot be reached it says so LOUDLY, exports
#                   NDEFTOOL_NFCPY_SKIPPED with the reason, and returns 0: the nfcpy checks then
#                   report themselves as skipped, never as passed.

nfcpy_venv="$repo_root/.build/nfcpy-venv"
# nfcpy 1.0.4 and the versions of its dependencies it was checked with on Python 3.11.
nfcpy_requirements=(nfcpy==1.0.4 ndeflib==0.3.3 pyserial==3.5 libusb1==3.4.0 pydes==2.0.1)

ensure_nfcpy() {
    unset NDEFTOOL_NFCPY_SKIPPED
    local python="$nfcpy_venv/bin/python"
    if [ -x "$python" ] && "$python" -c 'import nfc, sys; sys.exit(nfc.__version__ != "1.0.4")' 2>/dev/null; then
        export NDEFTOOL_NFCPY_PYTHON="$python"
        return 0
    fi
    ensure_packages python3 python3-venv
    local log="$repo_root/.build/nfcpy-install.log"
    mkdir -p "$repo_root/.build"
    rm -rf "$nfcpy_venv"
    if python3 -m venv "$nfcpy_venv" >"$log" 2>&1 &&
        "$nfcpy_venv/bin/pip" install --quiet --disable-pip-version-check --timeout 30 \
            "${nfcpy_requirements[@]}" >>"$log" 2>&1 &&
        "$python" -c 'import nfc' >>"$log" 2>&1; then
        export NDEFTOOL_NFCPY_PYTHON="$python"
        return 0
    fi
    local reason
    reason=$(grep -E 'ERROR|Error|error|Could not' "$log" | head -n 1 || true)
    export NDEFTOOL_NFCPY_SKIPPED="nfcpy 1.0.4 could not be installed from PyPI (${reason:-see $log})"
    unset NDEFTOOL_NFCPY_PYTHON
    echo "" >&2
    echo "******************************************************************************" >&2
    echo "WARNING: $NDEFTOOL_NFCPY_SKIPPED" >&2
    echo "WARNING: the nfcpy cross-checks are SKIPPED in this run (not passed)." >&2
    echo "******************************************************************************" >&2
    echo "" >&2
    return 0
}
