"""Start-up: the one place that wires the rooms together (the journal, the table, the parts, the face, the phone
page, the network) and runs them.

``station`` (:func:`~.station.build_station`: every part wired to one table), ``phone_page`` (its server, join
screens, captive portal, LAN address), ``parts`` (what opens each part on a Pi), ``pi`` (``companion run``),
``journal_trouble`` (one table per journal; a journal that cannot be opened, set aside from the OLED), ``mock`` (a
station on mock parts, for the demo and tests), ``demo/`` (``companion demo``: ``keys``, ``interactive``,
``headless``, ``recorders``).
"""
