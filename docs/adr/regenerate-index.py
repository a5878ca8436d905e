#!/usr/bin/env python3
"""Rewrites the index table of docs/adr/README.md from the ADR files beside it.

Usage: python3 docs/adr/regenerate-index.py

Number, title and status come from each file's heading and "Status:" line. The "Amends" cell of a row already in the
index is kept as it is (it is written by hand); a new ADR's is guessed from the ADR numbers its status paragraph names
after "amends", "extends", "completes", "closes" or "supersedes", and printed so it can be checked. "Amended by" is
the inverse of "Amends", and the line on unused numbers is recomputed. AdrIndexTest (bootstrap) checks the result.
"""
import pathlib
import re
import sys

DIRECTORY = pathlib.Path(__file__).resolve().parent
INDEX = DIRECTORY / "README.md"
START = "<!-- index:start -->"
END = "<!-- index:end -->"
FILE = re.compile(r"^(\d{4})-.+\.md$")
LINK = re.compile(r"\[(\d+)\]\(")
RELATION = re.compile(r"\b(?:amends|extends|completes|closes|supersedes)\b([^;)]*)", re.IGNORECASE)


def status_paragraph(lines):
    start = next(i for i, line in enumerate(lines) if line.startswith("Status:"))
    end = start
    while end + 1 < len(lines) and lines[end + 1].strip():
        end += 1
    return " ".join(lines[start:end + 1])


def read_adrs():
    adrs = {}
    for path in sorted(DIRECTORY.iterdir()):
        match = FILE.match(path.name)
        if not match:
            continue
        number = int(match.group(1))
        lines = path.read_text(encoding="utf-8").splitlines()
        title = re.sub(r"^#\s*\d+\.\s*", "", lines[0]).strip()
        status = status_paragraph(lines)
        word = re.match(r"Status:\s*([A-Za-z]+)", status).group(1).lower()
        adrs[number] = {"file": path.name, "title": title, "status": word, "paragraph": status}
    return adrs


def kept_amends(text):
    kept = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 5 and LINK.match(cells[0]):
            kept[int(LINK.match(cells[0]).group(1))] = [int(n) for n in LINK.findall(cells[3])]
    return kept


def guessed_amends(paragraph, number):
    found = []
    for clause in RELATION.findall(paragraph):
        found += [int(n) for n in re.findall(r"ADR (\d+)", clause) if int(n) != number]
    return sorted(set(found))


def links(numbers, adrs):
    return ", ".join(f"[{n}]({adrs[n]['file']})" for n in sorted(numbers))


def ranges(numbers):
    parts, run = [], []
    for n in numbers:
        if run and n != run[-1] + 1:
            parts.append(run)
            run = []
        run.append(n)
    if run:
        parts.append(run)
    words = [f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in parts]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def main():
    adrs = read_adrs()
    text = INDEX.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    old, tail = rest.split(END, 1)
    kept = kept_amends(old)
    amends = {}
    for number, adr in adrs.items():
        if number in kept:
            amends[number] = [n for n in kept[number] if n in adrs]
        else:
            amends[number] = [n for n in guessed_amends(adr["paragraph"], number) if n in adrs]
            print(f"ADR {number}: amends guessed from its status line: {amends[number] or 'none'}; check it",
                  file=sys.stderr)
    amended_by = {number: [m for m in adrs if number in amends[m]] for number in adrs}
    rows = ["| ADR | Title | Status | Amends | Amended by |", "|---|---|---|---|---|"]
    for number, adr in adrs.items():
        rows.append(f"| [{number}]({adr['file']}) | {adr['title']} | {adr['status']} | "
                    f"{links(amends[number], adrs)} | {links(amended_by[number], adrs)} |")
    unused = [n for n in range(1, max(adrs) + 1) if n not in adrs]
    gaps = (f"Numbers {ranges(unused)} were never used: no ADR file with them exists in the history, and numbers are"
            " not reused." if unused else "Every number is used.")
    INDEX.write_text(head + START + "\n" + "\n".join(rows) + "\n\n" + gaps + "\n" + END + tail, encoding="utf-8")


if __name__ == "__main__":
    main()
