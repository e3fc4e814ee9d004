"""Checks the README's module table against Package.swift.

Usage: swift package dump-package | check-module-map.py README.md

Every library product must have one row in the table under `## Modules`, and the row's
"Depends on" column must name exactly the dependencies of the product's target; the table may
name no product Package.swift does not have. Prints what differs and exits 1 if anything does.
"""

import json
import re
import sys

package = json.load(sys.stdin)
targets = {target["name"]: target for target in package["targets"]}
expected = {}
for product in package["products"]:
    if "library" not in product["type"]:
        continue
    names = []
    for dependency in targets[product["targets"][0]].get("dependencies", []):
        for value in dependency.values():
            names.append(value[0])
    expected[product["name"]] = set(names)

readme = open(sys.argv[1], encoding="utf-8").read()
section = re.search(r"^## Modules\n(.*?)^## ", readme, re.S | re.M)
problems = []
rows = {}
if not section:
    problems.append("README.md has no '## Modules' section")
else:
    for line in section.group(1).splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        name = cells[0].strip("`")
        rows[name] = set(re.findall(r"`([^`]+)`", cells[2]))
for name, dependencies in expected.items():
    if name not in rows:
        problems.append(f"the product {name} has no row in README.md's module table")
    elif rows[name] != dependencies:
        problems.append(
            f"{name}: README.md says it depends on {sorted(rows[name])}, Package.swift on {sorted(dependencies)}")
for name in rows:
    if name not in expected:
        problems.append(f"README.md's module table names {name}, which is no library product")
for problem in problems:
    print(problem)
sys.exit(1 if problems else 0)
