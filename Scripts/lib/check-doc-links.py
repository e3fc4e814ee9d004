"""Checks the DocC links that docc cannot check one module at a time: ``Module/Type/member``
links from a module's documentation comments or catalog to another module of this package.

Usage: check-doc-links.py SYMBOL_GRAPH_DIR MODULE...
       check-doc-links.py --diagnostics DOCC_DIAGNOSTICS_JSON MODULE...

Each link's path after the module name must name a public symbol in that module's symbol graph
(symbols' pathComponents; a trailing DocC disambiguation such as -swift.enum or -1abcd is
ignored). Prints one line per broken link (file:line: link) and exits 1 if there is any.
"""

import json
import pathlib
import re
import sys

if sys.argv[1] == "--diagnostics":
    # docc's diagnostics of one module, less its complaints that another module of the package
    # "doesn't exist" (links across modules, which the other mode checks).
    modules = set(sys.argv[3:])
    shown = 0
    for diagnostic in json.loads(pathlib.Path(sys.argv[2]).read_text())["diagnostics"]:
        summary = diagnostic["summary"]
        cross = re.match(r"'([^']+)' doesn't exist at", summary)
        if diagnostic["severity"] not in ("warning", "error") or (cross and cross.group(1) in modules):
            continue
        source = diagnostic.get("source", "").replace("file://", "")
        line = diagnostic.get("range", {}).get("start", {}).get("line", 0)
        print(f"{source}:{line}: {summary}")
        shown += 1
    sys.exit(1 if shown else 0)

graph_dir = pathlib.Path(sys.argv[1])
modules = set(sys.argv[2:])
paths = {}
for module in modules:
    known = set()
    for graph in graph_dir.glob(f"{module}*.symbols.json"):
        if graph.name != f"{module}.symbols.json" and not graph.name.startswith(f"{module}@"):
            continue
        for symbol in json.loads(graph.read_text())["symbols"]:
            components = symbol["pathComponents"]
            for end in range(1, len(components) + 1):
                known.add(tuple(components[:end]))
    paths[module] = known

link = re.compile(r"``([A-Za-z][A-Za-z0-9_]*)/([^`]+)``")
disambiguation = re.compile(r"-(swift\.[a-z.]+|[0-9a-z]{4,6})$")
broken = []
for source in sorted(pathlib.Path("Sources").rglob("*")):
    if source.suffix not in (".swift", ".md"):
        continue
    own = source.parts[1]
    for number, line in enumerate(source.read_text(errors="replace").splitlines(), 1):
        for match in link.finditer(line):
            module, rest = match.group(1), match.group(2)
            if module not in modules or module == own:
                continue
            components = tuple(disambiguation.sub("", part) for part in rest.split("/"))
            # A module and a type may share a name (SimulatedReader): the link may start at the type.
            if components not in paths[module] and (module,) + components not in paths[module]:
                broken.append(f"{source}:{number}: ``{module}/{rest}``")
for line in broken:
    print(line)
sys.exit(1 if broken else 0)
