#!/usr/bin/env python
"""boardgame.io and Caravanserai side by side, interleaved in one run.

    cp -r <the boardgame.io anchor folder> /tmp/bgio     # server.js, client.js, setup.sh of the anchor
    python bench/side_by_side.py --bgio-dir /tmp/bgio [--games 10,100,500,2000] [--reps 2] [--moves 200]

For each G and each repetition, in this order: a fresh boardgame.io server (``node server.js``, in
memory, as the anchor ships it) loaded by the anchor's Node client, then a fresh Caravanserai
server on a new Postgres database loaded by our Node client (``bench/node/client.js`` through
``node_load.py``, via ``run.py``'s ``one_run``).  Both clients are Node with the same WebSocket/JSON
stack, follow LOAD_SHAPE.md and run on this machine beside the server.  Interleaving puts both
systems under the same background load.

Writes ``results/<date>-<machine>-side-by-side[-tag].jsonl`` (one line per run, ``system`` =
``boardgame.io`` or ``caravanserai``) and a ``.md`` with every run and the ratios per G (medians
over the repetitions): throughput and p99 (ours / theirs), server + Postgres CPU per move against
their server CPU per move, peak RSS, and the spread of our repetitions' p99 (largest / smallest).
:data:`TARGETS` are printed beside each ratio, marked met or not.  With matplotlib installed
(``pip install matplotlib``), also a ``.png`` beside them: throughput and p99 against G for both
systems, each run a point and the median of its repetitions a line (:func:`plot`), linked from the
``.md``.  ``--plot RESULTS.jsonl`` draws it from the lines of an earlier run, running nothing.

A run that fails (a server that does not start, a client that dies or prints nothing, a time-out of
the whole run) is kept as a line with ``failed`` (the reason) and the others go on: at G = 2,000
boardgame.io may not finish, and where it fails is itself the figure (its failure point).  A run
of one system that timed out or failed gives no ratio.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import run as caravanserai_run

BENCH = Path(__file__).resolve().parent

TARGETS = {
    "throughput": {100: 1.3, 500: 1.5, 2000: 1.5},  # ours / theirs, at least
    "p99": 0.8,  # ours / theirs, at most, at every G
    "p99_spread": 1.5,  # our repetitions' largest p99 / smallest, at most
    "cpu": 0.8,  # our server + Postgres backends' CPU per move / their server's, at most, at G >= 100
    "rss": {500: 0.4},  # our peak RSS / theirs, at most
}
"""The side-by-side targets: where a G has no entry, the ratio is shown without a target."""


def bgio_run(bgio_dir: Path, games: int, moves: int, timeout: float) -> dict:
    """One boardgame.io run: a fresh ``server.js`` and the anchor's client; its JSON line, normalised."""
    if not (bgio_dir / "node_modules" / "boardgame.io").is_dir():
        subprocess.run(["bash", "setup.sh"], cwd=bgio_dir, check=True, stdout=sys.stderr)
    port = caravanserai_run.free_port()
    log = tempfile.NamedTemporaryFile(prefix="bgio-server-", suffix=".log", delete=False)
    server = subprocess.Popen(["node", "server.js"], cwd=bgio_dir, stdout=log, stderr=subprocess.STDOUT,
                              env={**os.environ, "NODE_ENV": "production", "PORT": str(port)})
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("the boardgame.io server did not start: " + Path(log.name).read_text()[-500:])
                time.sleep(0.1)
        done = subprocess.run(["node", "client.js", "--games", str(games), "--moves", str(moves), "--port", str(port),
                               "--server-pid", str(server.pid), "--timeout", str(int(timeout))],
                              cwd=bgio_dir, capture_output=True, text=True, timeout=timeout + 600,
                              env={**os.environ, "CLK_TCK": str(os.sysconf("SC_CLK_TCK")), "SERVER_LOG": log.name})
        lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
        if not lines:
            alive = server.poll() is None
            raise RuntimeError(f"the boardgame.io client printed nothing (exit {done.returncode}; server "
                               f"{'alive' if alive else f'exited {server.returncode}'}): {done.stderr[-400:]} "
                               f"| server log: {Path(log.name).read_text(errors='replace')[-300:]}")
        raw = json.loads(lines[-1])
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(10)
        os.unlink(log.name)
    return {"system": "boardgame.io", "impl": raw.get("impl"), "games": games, "moves_per_game": moves,
            "acked": raw["moves"], "timed_out": raw["timed_out"], "throughput_mps": raw["moves_per_s"],
            "latency_ms": raw["lat_ms"], "server_cpu_s": raw["server_cpu_s"],
            "server_cpu_per_move_ms": round(raw["server_cpu_s"] / raw["moves"] * 1000, 3) if raw["moves"] else None,
            "server_peak_rss_mib": raw["server_rss_peak_mb"], "server_idle_rss_mib": raw["server_rss_idle_mb"],
            "client_cpu_s": raw["client_cpu_s"], "errors": raw["errors"], "raw": raw}


def ours_run(args: argparse.Namespace, games: int, rep: int, scratch: Path) -> dict:
    """One Caravanserai run through ``run.py``'s ``one_run`` with the Node client on Postgres."""
    options = SimpleNamespace(
        moves=args.moves, timeout=args.timeout, compression="none", legal_form=args.legal_form, client="node",
        workers=args.workers,
        server_env=[], pg_admin_url=args.pg_admin_url, machine=args.machine, quiet_wait=0, quiet_threshold=0.25,
        profile_dir=None, profile_format="raw", profile_gil=False, keep_db=False, keep_logs=False,
        out_dir=str(Path(args.out_dir)))
    result = caravanserai_run.one_run(options, "postgres", games, rep, scratch)
    result["system"] = "caravanserai"
    cpu, backends, acked = result.get("server_cpu_s"), result.get("pg_backend_cpu_s"), result.get("acked")
    if cpu is not None and backends is not None and acked:
        result["server_and_pg_cpu_per_move_ms"] = round((cpu + backends) / acked * 1000, 3)
    return result


def cpu_per_move(result: dict) -> float | None:
    return result.get("server_and_pg_cpu_per_move_ms", result.get("server_cpu_per_move_ms"))


def usable(result: dict) -> bool:
    """A run that finished every move: the only kind a ratio is taken from."""
    return not result.get("failed") and not result.get("setup_error") and not result.get("timed_out")


def _judged(value: float | None, target: float | None, at_least: bool) -> str:
    if value is None:
        return "-"
    if target is None:
        return f"{value:.2f}"
    met = value >= target if at_least else value <= target
    return f"{value:.2f} ({'met' if met else 'not met'}: {'>=' if at_least else '<='} {target})"


def summary(results: list[dict]) -> str:
    """Every run, then the ratios per G (medians of the finished repetitions) against :data:`TARGETS`."""
    lines = ["| system | G | run | moves/s | p50 ms | p99 ms | server (+PG) CPU ms/move | client CPU s | peak RSS MiB | errors | timed out / failed |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for result in results:
        latency = result.get("latency_ms") or {}
        failed = result.get("failed") or result.get("setup_error")
        state = f"failed: {failed[:120]}" if failed else "timed out" if result.get("timed_out") else "no"
        lines.append(f"| {result['system']} | {result['games']} | {result.get('rep', '-')} | {result.get('throughput_mps')} | "
                     f"{latency.get('p50')} | {latency.get('p99')} | {cpu_per_move(result)} | {result.get('client_cpu_s')} | "
                     f"{result.get('server_peak_rss_mib')} | {result.get('errors')} | {state} |")
    lines += ["", "| G | throughput ours/theirs | p99 ours/theirs | our p99 spread (largest/smallest run) | "
                  "CPU per move ours (server+PG) / theirs (server) | peak RSS ours/theirs |",
              "|---:|---:|---:|---:|---:|---:|"]
    for games in sorted({result["games"] for result in results}):
        def values(system: str, pick) -> list[float]:
            return [pick(r) for r in results if r["games"] == games and r["system"] == system and usable(r)
                    and pick(r) is not None]

        def ratio(pick) -> float | None:
            ours, theirs = values("caravanserai", pick), values("boardgame.io", pick)
            return statistics.median(ours) / statistics.median(theirs) if ours and theirs and statistics.median(theirs) else None

        def p99(r: dict) -> float | None:
            return (r.get("latency_ms") or {}).get("p99")

        ours_p99 = values("caravanserai", p99)
        spread = max(ours_p99) / min(ours_p99) if len(ours_p99) > 1 and min(ours_p99) else None
        lines.append(f"| {games} | {_judged(ratio(lambda r: r.get('throughput_mps')), TARGETS['throughput'].get(games), True)} | "
                     f"{_judged(ratio(p99), TARGETS['p99'], False)} | {_judged(spread, TARGETS['p99_spread'], False)} | "
                     f"{_judged(ratio(cpu_per_move), TARGETS['cpu'] if games >= 100 else None, False)} | "
                     f"{_judged(ratio(lambda r: r.get('server_peak_rss_mib')), TARGETS['rss'].get(games), False)} |")
    theirs_failed = sorted({r["games"] for r in results if r["system"] == "boardgame.io" and not usable(r)})
    if theirs_failed:
        lines += ["", f"boardgame.io did not finish every run at G = {', '.join(map(str, theirs_failed))} (see the runs "
                      "above): the ratios there use only its finished runs, and none where no run finished."]
    return "\n".join(lines) + "\n"


def plot(results: list[dict], png: Path) -> bool:
    """Draw throughput (moves/s) and p99 (ms) against G for both systems into ``png``: two panels,
    logarithmic G (and p99) axes, each finished run a point and each system's medians a line.
    Returns False (and draws nothing) when matplotlib is not installed; failed runs are left out."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no screen on a server
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        return False
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for system, colour in (("caravanserai", "tab:blue"), ("boardgame.io", "tab:orange")):
        runs = [r for r in results if r.get("system") == system and usable(r)]
        for axis, pick in ((left, lambda r: r.get("throughput_mps")), (right, lambda r: (r.get("latency_ms") or {}).get("p99"))):
            points = [(r["games"], pick(r)) for r in runs if pick(r) is not None]
            if not points:
                continue
            axis.scatter(*zip(*points), color=colour, alpha=0.45, s=18)
            sizes = sorted({games for games, _ in points})
            medians = [statistics.median(value for games, value in points if games == size) for size in sizes]
            axis.plot(sizes, medians, marker="o", color=colour, label=system)
    failed = sorted({r["games"] for r in results if r.get("system") == "boardgame.io" and not usable(r)})
    sizes = sorted({r["games"] for r in results if "games" in r})
    plain = matplotlib.ticker.FuncFormatter(lambda value, _: f"{value:g}")  # 20, not 2 x 10^1
    for axis, title, unit in ((left, "throughput", "moves/s (higher is better)"), (right, "p99 latency", "ms (lower is better)")):
        axis.set_xscale("log")
        axis.set_xticks(sizes, [str(games) for games in sizes])
        axis.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
        axis.set_xlabel("G, concurrent games")
        axis.set_ylabel(unit)
        axis.set_title(title)
        axis.grid(True, which="both", alpha=0.3)
        axis.legend()
        for games in failed:
            axis.axvline(games, color="tab:orange", linestyle=":", alpha=0.7)
    right.set_yscale("log")
    right.yaxis.set_major_formatter(plain)
    right.yaxis.set_minor_formatter(plain)
    if failed:
        figure.text(0.5, 0.01, f"dotted: G where a boardgame.io run did not finish ({', '.join(map(str, failed))})",
                    ha="center", fontsize=8)
    figure.tight_layout()
    figure.savefig(png, dpi=110)
    plt.close(figure)
    return True


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plot", type=Path, metavar="RESULTS.jsonl",
                        help="only draw the plot of an earlier run's lines (a .png beside them), then stop")
    parser.add_argument("--bgio-dir", type=Path,
                        help="a writable copy of the boardgame.io anchor (server.js, client.js, setup.sh)")
    parser.add_argument("--games", default="10,100,500,2000")
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--workers", type=int, default=1, help="Caravanserai's uvicorn workers")
    parser.add_argument("--legal-form", choices=("grouped", "moves"), default="grouped",
                        help="how Caravanserai writes legal for our Node client (hello's legal_form; default grouped)")
    parser.add_argument("--pg-admin-url", default=os.environ.get("BENCH_PG_ADMIN_URL",
                                                                 "postgresql://postgres@127.0.0.1:5432/postgres"))
    parser.add_argument("--out-dir", default=str(BENCH / "results"))
    parser.add_argument("--machine", help="machine name for the file names (default: hostname)")
    parser.add_argument("--tag", help="suffix for the result file names")
    return parser.parse_args(argv)


def write_report(results: list[dict], markdown: Path, heading: str) -> None:
    """The ``.md`` of the run (every line and the ratios) and, where matplotlib is installed, the
    ``.png`` plot beside it, linked from the ``.md``."""
    png = markdown.with_suffix(".png")
    drawn = plot(results, png)
    link = f"![throughput and p99 against G]({png.name})\n\n" if drawn else ""
    markdown.write_text(heading + link + summary(results))


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.plot is not None:  # the .md of an earlier run may hold notes written since: left alone
        results = [json.loads(line) for line in args.plot.read_text().splitlines() if line.strip()]
        png = args.plot.with_suffix(".png")
        if not plot(results, png):
            sys.exit("matplotlib is not installed: pip install matplotlib")
        print(f"drawn: {png}", file=sys.stderr)
        return
    if args.bgio_dir is None or not (args.bgio_dir / "client.js").is_file():
        sys.exit(f"{args.bgio_dir} holds no client.js: copy the boardgame.io anchor folder there first")
    import node_load

    node_load.ensure_installed()
    machine = args.machine or socket.gethostname()
    jsonl, markdown = caravanserai_run.result_files(args.out_dir, machine, "side-by-side", args.tag)
    scratch = Path(tempfile.mkdtemp(prefix="caravanserai-side-by-side-"))
    results: list[dict] = []
    for games in [int(value) for value in args.games.split(",")]:
        for rep in range(1, args.reps + 1):
            for system, one in (("boardgame.io", lambda: bgio_run(args.bgio_dir, games, args.moves, args.timeout)),
                                ("caravanserai", lambda: ours_run(args, games, rep, scratch))):
                try:
                    outcome = one()
                except Exception as exc:  # noqa: BLE001 - a failure point is a figure: record it and go on
                    outcome = {"system": system, "games": games, "moves_per_game": args.moves,
                               "failed": f"{type(exc).__name__}: {exc}"}
                    print(f"{system} G={games} run {rep} failed: {outcome['failed'][:500]}", file=sys.stderr)
                result = {**outcome, "rep": rep, "machine": machine}
                results.append(result)
                with jsonl.open("a") as handle:
                    handle.write(json.dumps(result) + "\n")
                print(json.dumps({key: result.get(key) for key in ("system", "games", "rep", "throughput_mps", "latency_ms",
                                                                   "errors", "timed_out", "failed")}), flush=True)
                write_report(results, markdown, f"# Side by side, {datetime.date.today().isoformat()} on {machine}\n\n"
                                                f"M = {args.moves}; command: `python bench/side_by_side.py --games {args.games} "
                                                f"--reps {args.reps}`\n\n")
    print(f"results: {jsonl} and {markdown}", file=sys.stderr)
    print(summary(results))


if __name__ == "__main__":
    main()
