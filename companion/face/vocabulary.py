"""The words the OLED says that come from the game's data, not from a sentence of the face: the prompts' options
("Stay", "Percent"), the acts ("Pay fine"), the set-up's option names and values ("free parking", "fees and seed"),
the dice sources and the dice. They are said through ``Words.t`` where they are shown (:func:`.screens.label`,
:meth:`.setup.OptionSetting.label`, the host menu); listed here so that ``pybabel extract`` puts them in the table's
catalogue (a new option of a ruleset goes here too: ``tests/words/test_catalogues.py`` finds every one the bots
meet)."""

from __future__ import annotations

from companion.words import N_

#: Prompt options as :func:`.screens.label` says them (a space's own name aside).
OPTIONS = (N_("Backward"), N_("Bankrupt"), N_("Buy"), N_("Done"), N_("Draw"), N_("Flat"), N_("Forward"), N_("Move"),
           N_("No"), N_("Out"), N_("Percent"), N_("Rent"), N_("Stay"), N_("Yes"), N_("Auction"), N_("Keep"),
           N_("Play"), N_("Pay"), N_("Roll"))
#: The acts, as the press's cue says them ("Mortgage...").
ACTS = (N_("Accept"), N_("Bid"), N_("Borrow"), N_("Build"), N_("Buy idle"), N_("Improve"), N_("Loan"),
        N_("Mortgage"), N_("Move bridge"), N_("Pass"), N_("Pay fine"), N_("Reject"), N_("Repay"), N_("Sell"),
        N_("Sell idle"), N_("Sign"), N_("Trade"), N_("Travel"), N_("Unmortgage"), N_("Use card"))
#: The set-up's options and their values (:func:`.setup.words`).
SETUP = (N_("Official short game"), N_("all"), N_("auctions"), N_("backwards"), N_("bridge moves"),
         N_("buy after first lap"), N_("double trouble"), N_("doubles"), N_("even build"), N_("even step"),
         N_("even total"), N_("fees"), N_("fees and seed"), N_("free parking"), N_("go landing bonus"),
         N_("no lot tickets"), N_("nothing"), N_("off"), N_("on"), N_("one card each"), N_("pool"),
         N_("rent in jail"), N_("reverse"), N_("rotate"), N_("table"), N_("taxes"), N_("transition"),
         N_("travel with dice"), N_("unlimited board"))
#: What the start-up says on the OLED of a part it did not find (companion.drivers.nfc.MISSING).
PARTS = (N_("No NFC reader: buttons only"),)
#: The dice sources (the host menu's "Dice: software") and the dice a roll asks for.
DICE = (N_("software"), N_("manual"), N_("roller"), N_("Die 1"), N_("Die 2"), N_("Die 3"), N_("Cube"))
