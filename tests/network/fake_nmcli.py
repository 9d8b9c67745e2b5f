"""A stand-in for NetworkManager's ``nmcli`` (no NetworkManager here), answering as nmcli 1.42 does.

Put on ``PATH`` as ``nmcli`` by :func:`tests.network.fakes.install`. Each call is appended to
``$FAKE_NMCLI_DIR/calls.jsonl``; the devices, profiles and active connections live in
``$FAKE_NMCLI_DIR/state.json``. ``state["fail"]`` maps a command ("connection up") to the exit status
and message nmcli gives when NetworkManager refuses it; ``state["running"] = false`` answers as nmcli does when
NetworkManager is stopped (exit 8).
"""

from __future__ import annotations

import json
import os
import sys
import uuid
from pathlib import Path

folder = Path(os.environ["FAKE_NMCLI_DIR"])
args = sys.argv[1:]
with (folder / "calls.jsonl").open("a", encoding="utf-8") as calls:
    calls.write(json.dumps(args) + "\n")
state = json.loads((folder / "state.json").read_text(encoding="utf-8"))


def done(status: int = 0, out: str = "", err: str = "") -> None:
    scratch = folder / f"state.{os.getpid()}.json"
    scratch.write_text(json.dumps(state), encoding="utf-8")
    os.replace(scratch, folder / "state.json")  # whole: a test may read it meanwhile
    sys.stdout.write(out)
    sys.stderr.write(err)
    sys.exit(status)


if not state.get("running", True):
    done(8, err="Error: NetworkManager is not running.\n")
words = [a for a in args if not a.startswith("-")]
fields = args[args.index("-f") + 1] if "-f" in args else ""
words = [w for w in words if w != fields]
command = " ".join(words[:2])
if command in state.get("fail", {}):
    status, message = state["fail"][command]
    done(status, err=message + "\n")
if words == ["device"]:
    done(out="".join(f"{name}:{kind}\n" for name, kind in state["devices"]))
if words == ["general"]:
    done(out=state["state"] + "\n")
if words == ["connection", "show"]:
    names = state["active"] if "--active" in args else state["connections"]
    done(out="".join(n.replace(":", "\\:") + "\n" for n in names))
if command == "connection add":
    name = args[args.index("con-name") + 1]
    state["connections"].append(name)
    state.setdefault("profiles", {})[name] = args
    done(out=f"Connection '{name}' ({uuid.uuid4()}) successfully added.\n")
if command == "connection delete":
    state["connections"].remove(words[2])
    done(out=f"Connection '{words[2]}' successfully deleted.\n")
if command == "connection up":
    if words[2] not in state["connections"]:
        done(10, err=f"Error: unknown connection '{words[2]}'.\n")
    state["active"].append(words[2])
    done(out="Connection successfully activated (D-Bus active path: /org/freedesktop/NetworkManager/1)\n")
if command == "connection down":
    state["active"].remove(words[2])
    done(out=f"Connection '{words[2]}' successfully deactivated.\n")
done(2, err=f"Error: the fake nmcli does not know {' '.join(args)!r}.\n")
