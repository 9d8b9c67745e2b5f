"""Words the phone page says that come from the game's data (a prompt's options, the bank's counts, the pools): the
page says them through its catalogue (``t(option)`` in static/*.js); listed here so that ``pybabel extract`` puts
them in the ``page`` catalogue (babel-page.cfg), and nothing of them is sent to an English phone."""

from __future__ import annotations

from companion.words import N_

DATA_WORDS = (N_("yes"), N_("no"), N_("flat"), N_("percent"), N_("stay"), N_("draw"), N_("move"), N_("rent"),
              N_("buy"), N_("done"), N_("forward"), N_("backward"), N_("bankrupt"), N_("out"), N_("houses"),
              N_("hotels"), N_("house"), N_("hotel"), N_("free parking"), N_("pool"), N_("cat"))
