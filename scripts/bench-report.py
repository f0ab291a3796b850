#!/usr/bin/env python3
"""bench-report.py LOG [REPO]: writes the benchmark report from one tooltip-bench run.

LOG is tooltip-bench's standard output (`make bench` and `make bench-gtk` keep it in
.build/bench.txt). Writes REPO/docs/benchmarks.md (every figure of the run) and replaces the
block between `<!-- bench:begin -->` and `<!-- bench:end -->` in REPO/README.md with the
comparison table: X11UI's sample scene beside the C floor and GTK 3, medians, with the run's
date, commit and machine. Both come from this one run, so the ratios are between figures
measured together. A figure the run did not measure is left blank.
"""

import datetime
import pathlib
import re
import subprocess
import sys

SUBJECTS = [("x11ui_sample", "X11UI"), ("floor", "C floor"), ("gtk3", "GTK 3")]
README_FIGURES = [
    "startup_mapped_median", "startup_painted_median", "startup_round_trips_before_map",
    "hover_show_overhead_median", "hide_on_leave_overhead_median", "hide_on_escape_median",
    "requests_per_show_median", "round_trips_per_show_max", "rss_after_start", "rss_with_tooltip",
]
CELL = re.compile(r"^(\S+) (\S+) (\S+)(?: \(([\d.]+)x)?")


def parse(lines):
    header, compare, figures = {}, {}, []
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("# tooltip-bench "):
            header["date"] = line.split(" ", 2)[2]
        elif line.startswith("# machine: "):
            header["machine"] = line[len("# machine: "):]
        elif line.startswith("compare."):
            name, rest = line[len("compare."):].split(": ", 1)
            cells, _, label = rest.partition("  # ")
            row = {"label": label.strip()}
            for cell in cells.split(" | "):
                match = CELL.match(cell.strip())
                if match:
                    row[match.group(1)] = (match.group(2), match.group(3), match.group(4))
            compare[name] = row
        elif not line.startswith("#"):
            match = re.match(r"^([\w.]+): (.+)$", line)
            if match:
                figures.append((match.group(1), match.group(2)))
    return header, compare, figures


def table(compare, names):
    # The subjects this run measured (GTK 3 only under `make bench-gtk`).
    subjects = [(key, title) for key, title in SUBJECTS
                if any(key in compare[name] for name in names if name in compare)]
    rows = ["| figure | " + " | ".join(title for _, title in subjects) + " | X11UI / floor |",
            "|---|" + "---|" * (len(subjects) + 1)]
    for name in names:
        row = compare.get(name)
        if not row:
            continue
        cells = []
        for subject, _ in subjects:
            value = row.get(subject)
            cells.append(f"{value[0]} {value[1]}" if value else "")
        ours = row.get("x11ui_sample")
        ratio = f"{float(ours[2]):.2f}×" if ours and ours[2] else ""
        rows.append(f"| {row['label']} | " + " | ".join(cells) + f" | {ratio} |")
    return "\n".join(rows)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: bench-report.py LOG [REPO]")
    log = pathlib.Path(sys.argv[1])
    repo = pathlib.Path(sys.argv[2] if len(sys.argv) == 3 else ".")
    header, compare, figures = parse(log.read_text(encoding="utf-8").splitlines())
    if not compare:
        sys.exit(f"bench-report: no comparison in {log}: was the floor measured?")
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    dirty = subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no",
                            "--", "Sources", "Package.swift"],
                           capture_output=True, text=True).stdout.strip()
    if dirty:
        commit += " with uncommitted changes to Sources"
    date = header.get("date", datetime.datetime.now(datetime.timezone.utc).isoformat())
    machine = header.get("machine", "unknown machine")
    about = f"`make bench` run of {date}, commit {commit}; {machine}; the installed build, medians."

    readme_block = "\n".join([
        about, "",
        table(compare, README_FIGURES), "",
        "Every figure of the run: [docs/benchmarks.md](docs/benchmarks.md).",
    ])
    readme = repo / "README.md"
    text = readme.read_text(encoding="utf-8")
    begin, end = "<!-- bench:begin -->\n", "<!-- bench:end -->"
    if begin not in text or end not in text:
        sys.exit("bench-report: README.md has no bench:begin / bench:end block")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    readme.write_text(head + begin + readme_block + "\n" + end + tail, encoding="utf-8")

    lines = [
        "# Benchmarks: the current figures", "",
        "<!-- Written by `make bench` (scripts/bench-report.py); edit the generator, not the figures. -->",
        "",
        "What each figure means and how it is measured: [performance.md](performance.md). Earlier",
        "runs are in this file's history in git.", "",
        about, "",
        "## Beside the floor and GTK", "",
        table(compare, list(compare)), "",
        "## Every figure", "",
        "| figure | value |", "|---|---|",
    ]
    lines += [f"| `{name}` | {value} |" for name, value in figures]
    (repo / "docs" / "benchmarks.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"bench-report: README.md and docs/benchmarks.md written from {log}")


if __name__ == "__main__":
    main()
