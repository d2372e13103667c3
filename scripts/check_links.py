#!/usr/bin/env python3
"""Checks the relative links of markdown files: every [text](path#anchor) names a file of the
repository and, with an anchor, one of that file's headings (GitHub's anchors: lower case,
punctuation dropped, spaces as hyphens, -1, -2 ... for repeats). Web links are not followed;
links inside code (fenced blocks, indented blocks, `spans`) are not links.

usage: scripts/check_links.py [FILE.md ...]     # default: every *.md git tracks
Exit status 1 when a link does not resolve (each printed as FILE:LINE: target).
"""
import os
import re
import subprocess
import sys

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def prose_lines(path):
    """(line number, text) of the lines outside code blocks, with inline code removed."""
    fenced, previous_blank = False, True
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            indented = line.startswith("    ") and previous_blank
            previous_blank = line.strip() == "" or (indented and previous_blank)
            if fenced or indented:
                continue
            yield number, re.sub(r"`[^`]*`", "", line)


def heading_text_lines(path):
    """Heading lines with their inline code kept (anchors are made from the full text)."""
    fenced = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.lstrip().startswith("```"):
                fenced = not fenced
            elif not fenced and re.match(r"#{1,6}\s", line):
                yield line.rstrip("\n")


def file_anchors(path):
    seen, result = {}, set()
    for line in heading_text_lines(path):
        text = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line).group(1)
        slug = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        result.add(slug if n == 0 else f"{slug}-{n}")
    return result


def main(argv):
    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True,
                          text=True, check=True).stdout.strip()
    files = argv or subprocess.run(["git", "-C", root, "ls-files", "*.md"], capture_output=True,
                                   text=True, check=True).stdout.split()
    files = [f if os.path.isabs(f) or argv else os.path.join(root, f) for f in files]
    bad = 0
    for path in files:
        for number, line in prose_lines(path):
            for target in LINK.findall(line):
                if re.match(r"[a-z]+:", target):
                    continue
                name, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(path), name)) if name else path
                ok = os.path.exists(dest)
                if ok and anchor and dest.endswith(".md"):
                    ok = anchor in file_anchors(dest)
                if not ok:
                    print(f"{os.path.relpath(path)}:{number}: {target}")
                    bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
