"""Words the phone page says that come from the game's data (a prompt's options, the bank's counts, the pools): the
page says them through its catalogue (``t(option)`` in static/*.js); listed here so that ``pybabel extract`` puts
them in the ``page`` catalogue (babel-page.cfg), and nothing of them is sent to an English phone."""

from __future__ import annotations

from companion.words import N_

DATA_WORDS = (N_("yes"), N_("no"), N_("flat"), N_("percent"), N_("stay"), N_("draw"), N_("move"), N_("rent"),
              N_("buy"), N_("done"), N_("forward"), N_("backward"), N_("bankrupt"), N_("out"), N_("houses"),
              N_("hotels"), N_("house"), N_("hotel"), N_("free parking"), N_("pool"), N_("cat"))
#: The colour groups of the bundled boards (and addon's cities), as the deeds panel heads them (state.js groupName).
GROUP_WORDS = (N_("purple"), N_("light-blue"), N_("pink"), N_("orange"), N_("red"), N_("yellow"), N_("green"),
               N_("dark-blue"), N_("boston"), N_("chicago"), N_("new-orleans"), N_("san-francisco"), N_("railroad"),
               N_("utility"))
#: The kinds of space a deed card names when nothing is printed on it (state.js kindName): the bundled boards'.
KIND_WORDS = (N_("chance"), N_("chest"), N_("door"), N_("double-trouble"), N_("elevator"), N_("franchise"),
              N_("free"), N_("go"), N_("go-to-jail"), N_("jail"), N_("land"), N_("legacy"), N_("lot"), N_("luxury"),
              N_("mother-earth"), N_("move-backwards"), N_("necessity"), N_("no-trespassing"), N_("park"),
              N_("pass"), N_("poorhouse"), N_("real-estate-office"), N_("snare"), N_("start"), N_("step"),
              N_("street"), N_("subway"), N_("tax"), N_("tax-refund"), N_("triple-play"), N_("wages"))
