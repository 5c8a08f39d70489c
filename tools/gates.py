"""Issue 27's two gates, and where they stand: the functions over
ruff's complexity limit (C901, `max-complexity` in pyproject.toml), mypy's errors (its
`[tool.mypy]` settings) and the `# type: ignore` comments mypy does not vouch for, each per
directory of bot/, games/, renderers/ and meeple_hall/.

    python tools/gates.py            # the figures, per directory and in total
    python tools/gates.py --list     # ... and every finding under them
    python tools/gates.py --enforce  # ... and fail on any finding (.ci/run)

mypy cannot follow setup.py's mapping of the top-level folders into the one package
`meeple_hall`, so it runs on a temporary folder where `meeple_hall/` links to them; its
findings are mapped back to the repository's paths. Without `--enforce` the exit code is 0
whatever the counts; with it, any function over the limit, mypy error, unused ignore or
ignore without a code fails the run. A `type: ignore` with its code that mypy finds used is
allowed (it is checked, and says why).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ("bot", "games", "renderers")
PACKAGE = "meeple_hall"
MYPY_LINE = re.compile(
    r"^(?P<path>[^:]+\.pyi?):(?P<line>\d+): error: (?P<text>.*?)(?:  \[(?P<code>[a-z-]+)\])?$"
)
IGNORE = re.compile(r"#\s*type:\s*ignore(?P<codes>\[[^\]]*\])?")
IGNORE_CODES = {"unused-ignore", "ignore-without-code"}


@dataclass(frozen=True)
class Finding:
    path: str  # relative to the repository, with forward slashes
    line: int
    text: str


def directory(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else "."


def source_files() -> list[Path]:
    folders = [ROOT / part for part in (*CHECKED, PACKAGE)]
    return sorted(
        p for folder in folders for p in folder.rglob("*.py") if "__pycache__" not in p.parts
    )


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def complex_functions() -> list[Finding]:
    """Every function over the limit, by ruff's C901 (not yet in the selected rules)."""
    command = [
        sys.executable,
        "-m",
        "ruff",
        "check",
        "--select",
        "C901",
        "--output-format",
        "json",
        "--exit-zero",
        *(part for part in (*CHECKED, PACKAGE)),
    ]
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [
        Finding(relative(Path(item["filename"])), item["location"]["row"], item["message"])
        for item in json.loads(out)
    ]


def package_tree(into: Path) -> Path:
    """A folder where `meeple_hall/` holds the installed package's layout, as links."""
    package = into / PACKAGE
    package.mkdir()
    for module in (ROOT / PACKAGE).glob("*.py"):
        (package / module.name).symlink_to(module)
    for part in (*CHECKED, "data"):
        (package / part).symlink_to(ROOT / part, target_is_directory=True)
    return into


def repository_path(mypy_path: str) -> str:
    """A path mypy printed, as the repository's: `/tmp/x/meeple_hall/games/a.py` (a tree of
    this run or, from its cache, of an earlier one) -> `games/a.py`."""
    path = Path(mypy_path)
    if path.is_absolute() and path.is_relative_to(ROOT):
        return path.relative_to(ROOT).as_posix()
    parts = path.parts
    if PACKAGE in parts:
        parts = parts[len(parts) - 1 - parts[::-1].index(PACKAGE) :]
    if len(parts) > 2 and parts[1] in (*CHECKED, "data"):
        parts = parts[1:]
    return Path(*parts).as_posix()


def mypy_findings() -> list[tuple[Finding, str]]:
    """mypy's errors over the package with pyproject.toml's settings, as (finding, code)."""
    cache = Path(tempfile.gettempdir()) / "meeple-hall-mypy-cache"
    with tempfile.TemporaryDirectory() as folder:
        tree = package_tree(Path(folder))
        command = [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(cache),
            "--no-error-summary",
            "--show-absolute-path",
            "-p",
            PACKAGE,
        ]
        env = {**os.environ, "MYPYPATH": str(tree)}
        run = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    if run.returncode not in (0, 1):
        raise SystemExit(f"mypy failed to run:\n{run.stdout}{run.stderr}")
    found = []
    for line in run.stdout.splitlines():
        match = MYPY_LINE.match(line)
        if match:
            finding = Finding(repository_path(match["path"]), int(match["line"]), match["text"])
            found.append((finding, match["code"] or ""))
    return found


def type_ignores() -> list[Finding]:
    found = []
    for path in source_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = IGNORE.search(line)
            if match:
                found.append(Finding(relative(path), number, match.group(0)))
    return found


def per_directory(findings: Iterable[Finding]) -> Counter[str]:
    return Counter(directory(finding.path) for finding in findings)


def table(columns: dict[str, list[Finding]]) -> str:
    counts = {name: per_directory(found) for name, found in columns.items()}
    folders = sorted(set().union(*counts.values()))
    parts = [f"{part}/ (all)" for part in (*CHECKED, PACKAGE)]
    width = max(map(len, ["directory", *folders, *parts]))
    head = f"{'directory':<{width}}  " + "  ".join(f"{name:>14}" for name in columns)
    rows = [head, "-" * len(head)]
    for folder in folders:
        cells = "  ".join(f"{counts[name][folder]:>14}" for name in columns)
        rows.append(f"{folder:<{width}}  {cells}")
    for part, label in zip((*CHECKED, PACKAGE), parts, strict=True):
        cells = "  ".join(
            f"{sum(n for f, n in counts[name].items() if f.split('/')[0] == part):>14}"
            for name in columns
        )
        rows.append(f"{label:<{width}}  {cells}")
    total = "  ".join(f"{len(found):>14}" for found in columns.values())
    rows.append(f"{'total':<{width}}  {total}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="print every finding too")
    parser.add_argument(
        "--enforce",
        action="store_true",
        help="exit 1 (listing them) if any function is over the limit, mypy finds an error, "
        "or a type: ignore is unused or has no code",
    )
    args = parser.parse_args(argv)
    complex_ = complex_functions()
    typed = mypy_findings()
    errors = [finding for finding, code in typed if code not in IGNORE_CODES]
    unneeded = [finding for finding, code in typed if code == "unused-ignore"]
    uncoded = [finding for finding, code in typed if code == "ignore-without-code"]
    ignores = type_ignores()
    columns = {
        "complexity>15": complex_,
        "mypy errors": errors,
        "type: ignore": ignores,
        "unused ignore": unneeded,
        "ignore no code": uncoded,
    }
    print(table(columns))
    print(
        "\ncomplexity>15: functions over ruff's C901 limit; mypy errors: all but the two "
        "about ignores;\ntype: ignore: every such comment; unused ignore: those mypy finds "
        "nothing to silence;\nignore no code: those that silence every error on their line"
    )
    failing = {name: found for name, found in columns.items() if name != "type: ignore" and found}
    shown = columns if args.list else failing if args.enforce else {}
    for name, found in shown.items():
        print(f"\n{name}:")
        for finding in sorted(found, key=lambda f: (f.path, f.line)):
            print(f"  {finding.path}:{finding.line}: {finding.text}")
    return 1 if args.enforce and failing else 0


if __name__ == "__main__":
    sys.exit(main())
