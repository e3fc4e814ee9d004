# Shared set-up for the scripts in Scripts/: repository root, toolchain on PATH, system packages.
# Source it: . "$(dirname "$0")/lib/common.sh"

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo_root"

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    PATH="/opt/swift/usr/bin:$PATH"
    export PATH
fi
if ! command -v swift >/dev/null 2>&1; then
    echo "error: the Swift toolchain (swift) is not on PATH and not in /opt/swift" >&2
    exit 69
fi

# ensure_packages PKG...: installs the Debian packages that are missing; silent when all are present.
ensure_packages() {
    local missing=()
    local pkg
    for pkg in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$pkg")
        fi
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    echo "Installing ${missing[*]} ..." >&2
    export DEBIAN_FRONTEND=noninteractive
    if ! "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
        "${sudo[@]}" apt-get update -qq >/dev/null 2>&1 || true
        "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
}

# What the Swift toolchain needs to build and link on Debian (swift.org's list for Debian 12).
# libssl-dev: libcrypto for the CCrypto system library (SHA-256 of lock confirmations).
# libnfc-dev, libusb-dev: libnfc for the CLibNFC system library (the libnfc reader backend);
# libnfc.pc requires libusb's pkg-config file.
# libpcsclite-dev: pcsc-lite's client library and headers for the CPCSC system library.
# libpq-dev: PostgreSQL's client library for the CLibPQ system library (batch jobs on a database).
# How Scripts/test and Scripts/explore build: a warning fails the build, and a module that imports
# one it does not list among its dependencies in Package.swift is an error, not a warning.
swift_build_flags=(-Xswiftc -warnings-as-errors --explicit-target-dependency-import-check error)

swift_build_packages=(binutils libc6-dev libgcc-12-dev libstdc++-12-dev libedit2 libsqlite3-0 libxml2-dev zlib1g-dev tzdata pkg-config libssl-dev libnfc-dev libusb-dev libpcsclite-dev libpq-dev)
# libnfc 1.8.0: nfc-list (libnfc-bin), nfc-mfultralight and nfc-poll (libnfc-examples), the
# library and its pkg-config file (libnfc-dev, which needs libusb-dev).
libnfc_packages=(libnfc-bin libnfc-examples libnfc-dev libusb-dev)
# libfreefare's MIFARE Classic tools, the independent implementation of AN1304/AN10787 the
# Classic cross-check runs against (mifare-classic-format, -write-ndef, -read-ndef).
libfreefare_packages=(libfreefare-bin)
