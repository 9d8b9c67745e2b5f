"""The phone page's first load: what a phone downloads on its first visit, on the wire, and how many requests.

Serves the page as the Pi does (the project's cheroot server, on loopback) over a fresh journal holding one game, and
lets a fresh phone load ``/`` (``tests/web/first_load.py``: every answer's headers and body as sent, gzip'd as the
server gzips it, over one keep-alive connection). Prints each answer and the sums by kind. Deterministic: no timing.

Usage::

    .venv/bin/python bench/first_load.py [--ruleset classic] [--verbose] [--json]
    # another checkout's server (e.g. the commit before the page became modules), with a Python that has its
    # dependencies; the measuring client is this checkout's:
    git archive 42fcb15 | tar -x -C /tmp/old && /tmp/old-venv/bin/python bench/first_load.py --tree /tmp/old
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.first_load import Load, first_load  # noqa: E402  (imports nothing of companion)

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
KINDS = ("page", "style", "script", "api")


def measure(ruleset: str, folder: Path) -> Load:
    """A first load of ``/`` from this interpreter's ``companion`` (a new game of ``ruleset``, seed 1)."""
    from companion.journal import Journal
    from companion.table import Table
    from companion.web import Access, create_app, make_server

    with Journal(folder / "bench.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": ruleset, "players": PLAYERS, "seed": 1})
        app = create_app(table, access=Access(host_pin="111111", join_code="222222"), phone_dice="manual",
                         secret_key="bench-secret")
        server = make_server(app, "127.0.0.1", 0).start()
        try:
            return first_load("127.0.0.1", server.port)
        finally:
            server.stop()


def report(load: Load, verbose: bool) -> str:
    lines = []
    if verbose:
        for a in load.answers:
            lines.append(f"  {a.status} {a.path:<34} {a.kind:<6} head {a.head:>5}  body {a.body:>6}  "
                         f"{a.headers.get('content-encoding', '-'):<4}")
    for kind in KINDS:
        if load.requests(kind):
            lines.append(f"{kind:<7} {load.requests(kind):>3} requests  heads {load.heads(kind):>6} B  "
                         f"bodies {load.bodies(kind):>7} B  total {load.bytes(kind):>7} B")
    lines.append(f"{'all':<7} {load.requests():>3} requests  heads {load.heads():>6} B  bodies {load.bodies():>7} B"
                 f"  total {load.bytes():>7} B ({load.bytes() / 1024:.1f} KiB downloaded; "
                 f"{load.sent()} B of requests sent)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, help="measure the companion package of this checkout instead")
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--verbose", action="store_true", help="every answer, not only the sums")
    parser.add_argument("--json", action="store_true", help="the sums as JSON")
    args = parser.parse_args(argv)
    if args.tree:
        sys.path.insert(0, str(args.tree.resolve()))
    with tempfile.TemporaryDirectory() as folder:
        load = measure(args.ruleset, Path(folder))
    if args.json:
        print(json.dumps({kind: {"requests": load.requests(kind), "heads": load.heads(kind),
                                 "bodies": load.bodies(kind), "bytes": load.bytes(kind)}
                          for kind in (*KINDS, None)}, indent=1).replace('"null"', '"all"'))
    else:
        import companion

        print(f"first load of / ({args.ruleset}, {len(PLAYERS)} players), companion from "
              f"{Path(companion.__file__).parent.parent}")
        print(report(load, args.verbose))
    return 0


if __name__ == "__main__":
    sys.exit(main())
