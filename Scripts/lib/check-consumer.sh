# shellcheck shell=bash
# The README's "Using the libraries" section, run as a Swift developer would: its Package.swift
# and its main.swift (the two `swift` blocks of that section, as printed) become a package of
# their own in .build/consumer that depends on this checkout by path; it is built and run on a
# simulated tag, and must print the message it wrote. The path and the `package:` name are the
# only changes: a path dependency is named after its folder, which is this checkout's.

check_consumer() {
    local root name work
    root=$(pwd)
    name=$(basename "$root")
    work=.build/consumer
    rm -rf "$work"
    mkdir -p "$work/Sources/TagTool"
    if ! python3 - "$work" "$name" <<'PY'; then
import re, sys
work, name = sys.argv[1], sys.argv[2]
readme = open("README.md", encoding="utf-8").read()
section = re.search(r"^## Using the libraries\n(.*?)^## ", readme, re.S | re.M)
blocks = re.findall(r"```swift\n(.*?)```", section.group(1), re.S) if section else []
if len(blocks) < 2:
    sys.exit("README.md: 'Using the libraries' needs its Package.swift and main.swift blocks")
manifest, main = blocks[0], blocks[1]
if '.package(path: "../ndeftool")' not in manifest:
    sys.exit("README.md: the Package.swift block no longer depends on ../ndeftool by path")
manifest = manifest.replace('.package(path: "../ndeftool")', '.package(path: "../..")')
manifest = manifest.replace('package: "ndeftool"', 'package: "%s"' % name)
open(work + "/Package.swift", "w").write(manifest)
open(work + "/Sources/TagTool/main.swift", "w").write(main)
PY
        return 1
    fi
    if ! (cd "$work" && swift build "${swift_build_flags[@]}" >build.log 2>&1); then
        cat "$work/build.log" >&2
        echo "consumer: the README's package does not build" >&2
        return 1
    fi
    local output
    if ! output=$(cd "$work" && "$(swift build --show-bin-path)/TagTool" 2>&1); then
        echo "$output" >&2
        echo "consumer: the README's program failed" >&2
        return 1
    fi
    echo "$output"
    if ! grep -q 'NDEF message, 1 record' <<<"$output"; then
        echo "consumer: the README's program did not print the message it wrote" >&2
        return 1
    fi
}
