"""``python -m companion.boards``: the bundled boards' parsed JSON written again from their TOML (after a change)."""

from companion.boards import write_parsed

for written in write_parsed():
    print(written)
