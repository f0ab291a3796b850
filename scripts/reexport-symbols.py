#!/usr/bin/env python3
"""Folds a re-exported module's symbol graphs into the module that re-exports it.

X11UI re-exports X11UICore (`@_exported import`): for a program, Point or ToolTipPlacement are
X11UI's. The compiler writes each module's symbol graph apart, so DocC would not find them in
X11UI's; this moves the symbols and relationships of `<from>.symbols.json` and of its
extension graphs (`<from>@Swift.symbols.json`) into `<into>`'s graphs, and removes the
re-exported module's files. Usage: reexport-symbols.py DIR INTO FROM
"""
import json
import os
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def main():
    directory, into, source = sys.argv[1:4]
    for name in sorted(os.listdir(directory)):
        if not (name == f"{source}.symbols.json" or name.startswith(f"{source}@")):
            continue
        path = os.path.join(directory, name)
        graph = load(path)
        target_path = os.path.join(directory, into + name[len(source):])
        if os.path.exists(target_path):
            target = load(target_path)
        else:
            target = dict(graph, module=dict(graph["module"], name=into), symbols=[], relationships=[])
        for symbol in graph["symbols"]:
            comment = symbol.get("docComment")
            if comment and comment.get("module") == source:
                comment["module"] = into
            target["symbols"].append(symbol)
        target["relationships"].extend(graph["relationships"])
        with open(target_path, "w", encoding="utf-8") as f:
            json.dump(target, f)
        os.remove(path)


if __name__ == "__main__":
    main()
