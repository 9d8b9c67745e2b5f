"""``companion demo``: the simulated table, in a terminal (``interactive``, with ``keys``) or headless on a button
script (``headless``, its frames and cues kept by ``recorders``)."""
