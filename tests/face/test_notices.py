"""Notices fade (a long one after its pages), end with the question when asked to, and give way to warnings."""

from __future__ import annotations

from companion.drivers.clock import SimClock
from companion.face.notices import Notices
from companion.face.screens import notice_pages


def test_a_notice_fades_after_its_time_and_a_long_one_after_its_pages() -> None:
    clock = SimClock()
    notices = Notices(clock, notice_time=4.0, scroll_time=1.5)
    notices.say("Nobody is rolling now", scroll=0)
    clock.advance(3.9)
    notices.tick(clock())
    assert notices.shown(0) == ("Nobody is rolling now", 0)
    clock.advance(0.2)
    notices.tick(clock())
    assert notices.shown(0) == (None, 0)
    long = "Cat has $136 and Lot 16 costs $160: borrow first, or rent it (answer no) " * 2
    pages = notice_pages(long)
    notices.say(long, scroll=7)
    assert pages > 2 and notices.shown(9) == (long, 2)  # its pages turn from where it appeared
    clock.advance(pages * 1.5)
    notices.tick(clock())
    assert notices.shown(0)[0] == long  # still there until every page has been read
    clock.advance(2.1)
    notices.tick(clock())
    assert notices.shown(0)[0] is None


def test_notices_that_wait_for_the_question_end_with_it() -> None:
    notices = Notices(SimClock())
    notices.say("Rolling...", 0, until_prompt=True)
    notices.prompt_changed()
    assert notices.notice is None
    notices.say("Roller does not answer: check cable, ROLL again", 0, sticky=True)
    notices.tick(10_000.0)
    assert notices.notice is not None  # sticky: no time limit
    notices.prompt_changed()
    assert notices.notice is None
    notices.say("A refusal", 0)
    notices.prompt_changed()
    assert notices.notice == "A refusal"  # an ordinary notice fades by time only


def test_warnings_stand_under_notices_until_their_cause_is_over() -> None:
    notices = Notices(SimClock())
    notices.warn("disk", "Disk almost full (12 MB): free some space")
    notices.warn("button:NEXT", "NEXT button stuck down: ignored")
    assert notices.shown(3) == ("NEXT button stuck down: ignored", 3)  # the newest
    notices.say("Nobody is rolling now", 3)
    assert notices.shown(3)[0] == "Nobody is rolling now"
    notices.clear()
    notices.settle("button:NEXT")
    assert notices.shown(0)[0].startswith("Disk almost full")
    notices.settle("disk", only="DISK FULL: not saved; free some space")
    assert notices.shown(0)[0].startswith("Disk almost full")  # not that warning: it stays
    notices.settle("disk")
    assert notices.shown(0) == (None, 0)
