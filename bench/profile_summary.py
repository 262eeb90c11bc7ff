#!/usr/bin/env python
"""Summarise a py-spy ``--format raw`` profile (collapsed stacks): where the server's time goes.

    python bench/profile_summary.py bench/results/profile-postgres-G100-r1.raw [--top 30] [--idle]

Prints the share of samples by *self* time (the innermost frame) and by *inclusive* time (any
frame on the stack), per function, and the share per top-level area (a frame whose file is in
``app/`` or in a library: sqlalchemy, asyncpg, pydantic, starlette, uvicorn, websockets ...).
Idle samples (the event loop waiting in ``select``/``epoll``) are left out unless ``--idle``.
"""

from __future__ import annotations

from pathlib import Path

import argparse
import re
from collections import Counter

IDLE = ("select (selectors.py", "_run_once (asyncio/base_events.py", "epoll", "run_forever (uvloop")
FRAME = re.compile(r"^(?P<func>.*?) \((?P<file>[^():]*?)(?::(?P<line>\d+))?\)$")


ROOT = Path(__file__).resolve().parent.parent  # the checkout: its paths read as app/...


def short(frame: str) -> str:
    """``func (path/to/lib/module.py:123)`` -> ``func (lib/module.py)``."""
    match = FRAME.match(frame.strip())
    if not match:
        return frame.strip()
    path = match["file"]
    for marker in ("site-packages/", "lib/python3.11/", f"{ROOT}/"):
        if marker in path:
            path = path.split(marker, 1)[1]
    return f"{match['func']} ({path})"


def area(frame: str) -> str:
    path = frame.split("(", 1)[-1]
    if path.startswith("app/") or path.startswith("bench_board"):
        return path.split("/")[0] + "/" + path.split("/")[1].split(".")[0] if "/" in path else path
    return path.split("/")[0].split(".")[0]


def load(path: str, idle: bool) -> tuple[list[tuple[list[str], int]], int, int]:
    stacks, total, idle_count = [], 0, 0
    with open(path) as handle:
        for line in handle:
            line = line.rstrip("\n")
            if not line:
                continue
            text, _, count = line.rpartition(" ")
            frames = [short(f) for f in text.split(";")[1:]]  # first entry: process / thread name
            n = int(count)
            leaf = frames[-1] if frames else ""
            if not idle and any(leaf.startswith(marker.split(" (")[0]) and marker.split(" (")[1].split(".")[0] in leaf
                                for marker in IDLE):
                idle_count += n
                continue
            stacks.append((frames, n))
            total += n
    return stacks, total, idle_count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("profile")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--idle", action="store_true", help="count idle event-loop samples too")
    args = parser.parse_args()
    stacks, total, idle_count = load(args.profile, args.idle)
    self_time, inclusive, areas, app_self = Counter(), Counter(), Counter(), Counter()
    for frames, n in stacks:
        if not frames:
            continue
        self_time[frames[-1]] += n
        for frame in set(frames):
            inclusive[frame] += n
        # attribute the sample to the innermost frame that is in app/ (who asked for this work)
        owner = next((f for f in reversed(frames) if "(app/" in f or "(bench_board" in f), None)
        app_self[owner or "(no app/ frame on the stack)"] += n
        areas[area(frames[-1])] += n
    print(f"{total} busy samples ({idle_count} idle samples left out)\n")
    print("## self time by function")
    for frame, n in self_time.most_common(args.top):
        print(f"{100 * n / total:6.1f}%  {frame}")
    print("\n## inclusive time by function")
    for frame, n in inclusive.most_common(args.top):
        print(f"{100 * n / total:6.1f}%  {frame}")
    print("\n## self time by library / module of the innermost frame")
    for name, n in areas.most_common(args.top):
        print(f"{100 * n / total:6.1f}%  {name}")
    print("\n## busy time charged to the innermost app/ frame (who caused the work)")
    for frame, n in app_self.most_common(args.top):
        print(f"{100 * n / total:6.1f}%  {frame}")


if __name__ == "__main__":
    main()
