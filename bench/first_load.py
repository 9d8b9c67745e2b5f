"""The phone page's first load: what a phone downloads on its first visit, on the wire, and how many requests.

Serves the page as the Pi does (the project's cheroot server, on loopback) over a fresh journal holding one game, and
lets a phone with nothing cached load the page (``tests/web/first_load.py``: every answer's headers and body as
sent, gzip'd as the server gzips it, over one keep-alive connection), for each profile: a phone not joined yet (the
figure measured before the modules), a seated player's phone, the host's phone. Prints each answer and the sums by
kind, and beside them the like-for-like figure: the same page with every script it can load (those its views
import later too) concatenated into one file, gzip'd at the server's level, with one static answer's head, and what
the modules cost or save against it. Deterministic: no timing (the host's figure varies by a few bytes: its join QR code holds the server's port).

Usage::

    .venv/bin/python bench/first_load.py [--ruleset classic] [--profile player] [--verbose] [--json]
    # another checkout's server (e.g. the commit before the page became modules), with a Python that has its
    # dependencies; the measuring client is this checkout's:
    git archive 42fcb15 | tar -x -C /tmp/old && /tmp/old-venv/bin/python bench/first_load.py --tree /tmp/old

The profiles' requests at start are today's page's (a test checks them against Chromium): another commit's page may
ask for others (42fcb15's host asked for the classic board twice, its state's and its set-up's).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.first_load import PROFILES, Load, Profile, first_load  # noqa: E402  (imports nothing of companion)

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
KINDS = ("page", "style", "script", "api")
CODES = {"host_pin": "111111", "join_code": "222222"}
NAMES = {"viewer": PROFILES[0], "player": PROFILES[1], "host": PROFILES[2]}


def measure(ruleset: str, folder: Path, profiles: tuple[Profile, ...] = PROFILES) -> dict[Profile, Load]:
    """A first load of each profile's page from this interpreter's ``companion`` (a new game of ``ruleset``, seed 1),
    each by a phone of its own."""
    from companion.journal import Journal
    from companion.table import Table
    from companion.web import Access, create_app, make_server

    with Journal(folder / "bench.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": ruleset, "players": PLAYERS, "seed": 1})
        app = create_app(table, access=Access(**CODES), phone_dice="manual", secret_key="bench-secret")
        server = make_server(app, "127.0.0.1", 0).start()
        try:
            return {profile: first_load("127.0.0.1", server.port, profile, CODES) for profile in profiles}
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
    head, body = load.one_file()
    one = load.bytes() - load.bytes("script") + head + body
    lines.append(f"one file: its {load.requests('script') + len(load.later)} scripts as one gzip'd file: head {head} B + "
                 f"body {body} B = {head + body} B (the modules: {load.bytes('script')} B); the load so: {one} B, "
                 f"the modules' {load.bytes() - one:+} B")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, help="measure the companion package of this checkout instead")
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--profile", choices=sorted(NAMES), action="append",
                        help="whose phone (again for more than one; default: all three)")
    parser.add_argument("--verbose", action="store_true", help="every answer, not only the sums")
    parser.add_argument("--json", action="store_true", help="the sums as JSON")
    args = parser.parse_args(argv)
    if args.tree:
        sys.path.insert(0, str(args.tree.resolve()))
    profiles = tuple(NAMES[name] for name in args.profile) if args.profile else PROFILES
    with tempfile.TemporaryDirectory() as folder:
        loads = measure(args.ruleset, Path(folder), profiles)
    if args.json:
        print(json.dumps({name: {kind or "all": {"requests": load.requests(kind), "heads": load.heads(kind),
                                                 "bodies": load.bodies(kind), "bytes": load.bytes(kind)}
                                 for kind in (*KINDS, None)} | {"one file": dict(zip(("head", "body"), load.one_file()))}
                          for name, load in ((n, loads[p]) for n, p in NAMES.items() if p in loads)}, indent=1))
    else:
        import companion

        print(f"first load ({args.ruleset}, {len(PLAYERS)} players), companion from "
              f"{Path(companion.__file__).parent.parent}")
        for profile, load in loads.items():
            print(f"\n{profile.name} ({profile.path}):")
            print(report(load, args.verbose))
    return 0


if __name__ == "__main__":
    sys.exit(main())
