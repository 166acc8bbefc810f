#!/usr/bin/env python3
"""Count the hand-written word-list lines of crates/redact and crates/encoder.

Usage: python3 scripts/hand_lists.py [--files]   (from the repository root)

A hand-list line is one of:

1. a line of a `.txt` file under the crate's `src/` or in its `word-lists/` that is not blank and
   not a `# ` comment (the word lists loaded with `include_str!`, and those the model file
   carries);
2. a Rust line made only of string literals joined by `,` or `|` (a leading `|`, a trailing
   `,` or `|`, and a trailing `=> …` allowed): array elements that are string literals and
   match arms whose patterns are only string literals;
3. a non-blank line inside a string literal that spans lines and is the value of a `const` or
   `static` (whitespace-joined word strings);
4. a one-line `const`/`static` string of three or more words joined by spaces or `|` and
   nothing else (pipe-joined regex alternations, short word strings).

Test code is not counted: files named `tests.rs`, files under a `tests` folder, files of a
module declared `#[cfg(test)] mod name;`, and everything from a file's first
`#[cfg(test)] mod name {` on (tests come last in this code base).
A `//` comment at the end of a line is ignored. Prints a total per crate and, with
`--files`, per file (files with no hand-list line are left out).
"""

import re
import sys
from pathlib import Path

CRATES = ["crates/redact", "crates/encoder"]

STR = r'(?:r#*"[^"]*"#*|"(?:[^"\\]|\\.)*")'
ONLY_STRINGS = re.compile(
    rf"^\s*\|?\s*{STR}(?:\s*[,|]\s*{STR})*\s*[,|]?\s*(?:=>.*)?$"
)
TEST_BLOCK = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{")
TEST_MODULE = re.compile(r"#\[cfg\(test\)\]\s*\n\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;")
ITEM = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const|static)\b")
WORD = r"[\w.'’#\-/]+"
ONE_LINE_WORDS = re.compile(rf'=\s*r?#*"({WORD}(?:[ |]{WORD}){{2,}})"#*;\s*$')


def strip_comment(line: str) -> str:
    """The line without a trailing `//` comment outside string literals."""
    in_str = False
    i = 0
    while i < len(line):
        c = line[i]
        if in_str:
            if c == "\\":
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif line.startswith("//", i):
            return line[:i]
        i += 1
    return line


def string_state(lines):
    """For each line: whether it starts inside a string literal, and the line that opened it."""
    states = []
    in_str, raw_hashes, opened = False, None, None
    for n, line in enumerate(lines):
        states.append((in_str, opened))
        i = 0
        while i < len(line):
            c = line[i]
            if in_str:
                if raw_hashes is None and c == "\\":
                    i += 2
                    continue
                if c == '"' and line.startswith("#" * (raw_hashes or 0), i + 1):
                    i += 1 + (raw_hashes or 0)
                    in_str = False
                    continue
            elif line.startswith("//", i):
                break
            elif c == "'":
                # A char literal ('a', '\n', '"'), not a lifetime.
                m = re.match(r"'(?:\\.[^']*|[^\\'])'", line[i:])
                if m:
                    i += len(m.group(0))
                    continue
            elif c == "r" and re.match(r'r#*"', line[i:]) and not line[i - 1 : i].isalnum():
                m = re.match(r'r(#*)"', line[i:])
                in_str, raw_hashes, opened = True, len(m.group(1)), n
                i += len(m.group(0))
                continue
            elif c == '"':
                in_str, raw_hashes, opened = True, None, n
            i += 1
    return states


def rust_lines(text: str):
    lines = text.split("\n")
    states = string_state(lines)
    count = 0
    for n, raw in enumerate(lines):
        following = lines[n + 1] if n + 1 < len(lines) else ""
        if raw.strip() == "#[cfg(test)]" and TEST_BLOCK.match(following):
            break
        in_str, opened = states[n]
        if in_str:
            content = raw.split('"')[0] if '"' in raw else raw
            if content.strip() and opened is not None and ITEM.match(lines[opened]):
                count += 1
            continue
        line = strip_comment(raw)
        if ONLY_STRINGS.match(line) or (ITEM.match(line) and ONE_LINE_WORDS.search(line)):
            count += 1
    return count


def txt_lines(text: str):
    return sum(1 for l in text.splitlines() if l.strip() and not l.lstrip().startswith("# "))


def test_modules(src: Path):
    """The files of modules declared `#[cfg(test)] mod name;`."""
    files = set()
    for path in src.rglob("*.rs"):
        parent = path.parent if path.name in ("mod.rs", "lib.rs") else path.with_suffix("")
        for name in TEST_MODULE.findall(path.read_text()):
            files |= {parent / f"{name}.rs", parent / name / "mod.rs"}
    return files


def is_test_file(path: Path, src: Path, test_files) -> bool:
    return path.name == "tests.rs" or "tests" in path.relative_to(src).parts or path in test_files


def main():
    root = Path(__file__).resolve().parent.parent
    per_file = "--files" in sys.argv
    grand = 0
    for crate in CRATES:
        total = 0
        rows = []
        test_files = test_modules(root / crate / "src")
        # The lists that ship in the model file (`word-lists/`) count as the ones in `src/` do.
        paths = [*(root / crate / "src").rglob("*"), *(root / crate / "word-lists").glob("*.txt")]
        for path in sorted(paths):
            rel = path.relative_to(root)
            if path.suffix == ".txt":
                n = txt_lines(path.read_text())
            elif path.suffix == ".rs" and not is_test_file(path, root / crate / "src", test_files):
                n = rust_lines(path.read_text())
            else:
                continue
            if n:
                rows.append((n, str(rel)))
                total += n
        print(f"{crate}: {total}")
        if per_file:
            for n, rel in rows:
                print(f"  {n:5}  {rel}")
        grand += total
    print(f"total: {grand}")


if __name__ == "__main__":
    main()
