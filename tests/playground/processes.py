"""Processes as Linux's /proc shows them, for the clean-stop tests: a process's
descendants, and whether one still runs (by pid and start time, so a pid used again by
another process is not taken for it)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Proc:
    """A process as /proc shows it; its start time tells it from a later one with its pid."""

    pid: int
    started: int
    cmdline: str

    @classmethod
    def read(cls, pid: int) -> Proc | None:
        fields = stat_fields(pid)
        if fields is None:
            return None
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            return None
        return cls(pid, int(fields[19]), cmdline)

    def running(self) -> bool:
        """Alive: not gone, not a zombie (a process that ended, not yet reaped), not reused."""
        fields = stat_fields(self.pid)
        return fields is not None and fields[0] != "Z" and int(fields[19]) == self.started

    @property
    def worker(self) -> bool:
        return "multiprocessing.spawn" in self.cmdline


def stat_fields(pid: int) -> list[str] | None:
    """/proc/PID/stat after the command name: state, ppid, … (starttime is [19])."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()


def descendants(pid: int) -> list[Proc]:
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := stat_fields(int(entry.name))) is not None:
            parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], list(parents.get(pid, []))
    while todo:
        child = todo.pop()
        todo.extend(parents.get(child, []))
        if (proc := Proc.read(child)) is not None:
            found.append(proc)
    return found
