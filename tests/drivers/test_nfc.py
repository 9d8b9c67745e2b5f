"""The PN532 driver against the user manual's frames, and the reader against a virtual PN532 on I2C."""

from __future__ import annotations

from typing import Any

import pytest

from companion.drivers.clock import SimClock
from companion.drivers.nfc import MISSING, STOPPED, NfcReader, ReaderTimeout, Tap
from companion.drivers.pn532 import ACK, ERROR_FRAME, NACK, PN532, PN532Error, frame, parse_frame, parse_targets
from companion.drivers.virtual_nfc import VirtualPN532, demo_uid

# UM0701-02's own examples (§7.2.2 GetFirmwareVersion; §7.3.5 InListPassiveTarget at 106 kbps type A)
GET_FIRMWARE = bytes.fromhex("0000ff02fed4022a00")
FIRMWARE_ANSWER = bytes.fromhex("0000ff06fad50332010607e800")
LIST_ONE_TYPE_A = bytes.fromhex("0000ff04fcd44a0100e100")


def test_command_frames_are_the_manuals():
    assert frame(b"\x02") == GET_FIRMWARE
    assert frame(b"\x4a\x01\x00") == LIST_ONE_TYPE_A


def test_a_response_frame_is_checked_and_opened():
    assert parse_frame(FIRMWARE_ANSWER) == bytes.fromhex("0332010607")
    assert parse_frame(b"\x00\x00" + FIRMWARE_ANSWER) == bytes.fromhex("0332010607")  # more preamble bytes


@pytest.mark.parametrize("raw, says", [
    (FIRMWARE_ANSWER[:11] + b"\xe9\x00", "data checksum"),
    (FIRMWARE_ANSWER[:4] + b"\xfb" + FIRMWARE_ANSWER[5:], "length checksum"),
    (ACK, "ACK"),
    (NACK, "NACK"),
    (ERROR_FRAME, "error frame"),
    (GET_FIRMWARE, "frame identifier"),  # the host's own frame (TFI D4) read back
    (FIRMWARE_ANSWER[:8], "cut short"),
    (b"\x00" * 8, "no start code"),
])
def test_a_broken_frame_is_refused(raw, says):
    with pytest.raises(PN532Error, match=says):
        parse_frame(raw)


def test_targets_of_four_seven_and_ats_cards():
    mifare = bytes.fromhex("01 01 0004 08 04 a1b2c3d4")
    ntag = bytes.fromhex("01 01 0044 00 07 04112233445566")
    desfire = bytes.fromhex("01 01 0344 20 07 04aabbccddeeff 06 75 77 81 02 80")
    assert [t.uid.hex() for t in parse_targets(mifare)] == ["a1b2c3d4"]
    assert parse_targets(ntag)[0].sens_res == 0x0044
    assert parse_targets(desfire)[0].uid.hex() == "04aabbccddeeff"
    assert parse_targets(b"\x00") == []
    with pytest.raises(PN532Error):
        parse_targets(bytes.fromhex("01 01 0044 00 07 0411"))


class Wire:
    """Every transfer between the driver and the virtual chip, as (direction, bytes)."""

    def __init__(self, chip: VirtualPN532) -> None:
        self.chip, self.log = chip, []

    def i2c_rdwr(self, *messages: Any) -> None:
        self.chip.i2c_rdwr(*messages)
        for message in messages:
            self.log.append(("read" if message.flags & 1 else "write", bytes(message)))


def reader(**kwargs: Any) -> tuple[NfcReader, VirtualPN532, SimClock, list[Tap], list[Any], Wire]:
    clock = SimClock()
    chip = VirtualPN532(clock)
    wire = Wire(chip)
    taps: list[Tap] = []
    faults: list[Any] = []
    nfc = NfcReader(PN532(wire), taps.append, clock=clock, on_fault=faults.append,
                    on_notice=lambda text: faults.append(("notice", text)), **kwargs)
    return nfc, chip, clock, taps, faults, wire


def run(nfc: NfcReader, clock: SimClock, seconds: float, tick: float = 0.01) -> None:
    for _ in range(round(seconds / tick)):
        nfc.poll()
        clock.advance(tick)


def test_the_reader_wakes_the_chip_then_searches_and_a_card_is_one_tap():
    nfc, chip, clock, taps, faults, wire = reader()
    run(nfc, clock, 0.5)
    assert chip.commands[:3] == [0x02, 0x14, 0x32] and set(chip.commands[3:]) == {0x4A}
    assert nfc.firmware == bytes.fromhex("32010607") and taps == []
    assert wire.log[0] == ("write", GET_FIRMWARE)
    assert ("write", LIST_ONE_TYPE_A) in wire.log
    assert wire.log[1] == ("read", b"\x01" + ACK)  # the status byte, then the frame
    # A search without a card: the chip is not ready until its activation attempts are spent.
    assert ("read", b"\x00" * 56) in wire.log
    chip.place(demo_uid("Ann"))
    run(nfc, clock, 1.0)  # left on the reader: still one tap
    assert [t.uid for t in taps] == [demo_uid("Ann")]
    chip.remove()
    run(nfc, clock, 1.0)
    chip.place(demo_uid("Ann"))
    run(nfc, clock, 0.3)
    assert len(taps) == 2 and faults == []


def test_a_quick_tap_is_seen():
    nfc, chip, clock, taps, _, _ = reader()
    run(nfc, clock, 0.3)
    chip.place(demo_uid("boardwalk"))
    run(nfc, clock, 0.15)  # a card brushed past the antenna
    chip.remove()
    run(nfc, clock, 0.3)
    assert [t.uid for t in taps] == [demo_uid("boardwalk")]


def test_a_frame_with_a_bad_checksum_gets_no_ack_and_times_out():
    clock = SimClock()
    chip = VirtualPN532(clock)
    pn = PN532(chip)
    bad = bytearray(frame(b"\x02"))
    bad[-2] ^= 1
    chip.i2c_rdwr(__import__("smbus2").i2c_msg.write(0x24, bytes(bad)))
    pn.command = 0x02
    clock.advance(0.01)
    assert not pn.ack()  # the chip ignored it


def test_a_chip_that_never_answers_is_said_once_and_the_table_plays_on():
    nfc, chip, clock, taps, faults, _ = reader(look_again=2.0)
    chip.mute = True
    run(nfc, clock, 6.0)
    assert faults == [("notice", MISSING)]
    assert not nfc.answered and nfc.failures >= 3
    chip.mute = False  # plugged in later: found at the next look
    chip.place(demo_uid("Bob"))
    run(nfc, clock, 2.5)
    assert [t.uid for t in taps] == [demo_uid("Bob")]


def test_a_reader_that_stops_answering_stands_as_a_fault_until_it_answers_again():
    nfc, chip, clock, taps, faults, _ = reader()
    run(nfc, clock, 0.5)
    chip.plugged = False  # its cable pulled: EREMOTEIO
    run(nfc, clock, 3.0)
    assert faults == [STOPPED] and nfc.stopped
    chip.plugged = True
    chip.place(demo_uid("Ann"))
    run(nfc, clock, 3.0)
    assert faults == [STOPPED, None]
    assert [t.uid for t in taps] == [demo_uid("Ann")]


def test_a_search_that_does_not_end_is_aborted_with_an_ack():
    nfc, chip, clock, _, faults, wire = reader(response_timeout=0.02)  # shorter than two activation attempts
    run(nfc, clock, 0.5)
    assert ("write", ACK) in wire.log
    assert chip._pending is None or chip._pending.command == 0x4A  # nothing left of the aborted search


def test_a_corrupted_answer_is_a_fault_not_a_tap():
    nfc, chip, clock, taps, faults, wire = reader()
    run(nfc, clock, 0.3)
    chip.place(demo_uid("Ann"))
    original = chip._response

    def corrupt(code: int, data: bytes) -> bytes:
        raw = bytearray(original(code, data))
        raw[-2] ^= 0x55  # DCS
        return bytes(raw)

    chip._response = corrupt  # type: ignore[method-assign]
    run(nfc, clock, 3.0)
    assert taps == [] and faults == [STOPPED]
    chip._response = original  # type: ignore[method-assign]
    run(nfc, clock, 2.0)
    assert [t.uid for t in taps] == [demo_uid("Ann")] and faults == [STOPPED, None]


def test_an_unknown_command_gets_the_error_frame():
    clock = SimClock()
    pn = PN532(VirtualPN532(clock))
    pn.send(0x4A, b"\x01\x04")  # 106 kbps Innovision Jewel: not what this chip is asked for here
    clock.advance(0.01)
    assert pn.ack()
    with pytest.raises(PN532Error, match="error frame"):
        pn.response()


def test_timeouts_are_pn532_errors_and_os_errors():
    assert issubclass(ReaderTimeout, PN532Error) and issubclass(PN532Error, OSError)


def test_a_tap_whose_handling_fails_does_not_stop_the_tick():
    clock = SimClock()
    chip = VirtualPN532(clock)

    def broken(tap: Tap) -> None:
        raise RuntimeError("a bug in what a tap does")

    nfc = NfcReader(PN532(chip), broken, clock=clock)
    run(nfc, clock, 0.3)
    chip.place(demo_uid("Ann"))
    run(nfc, clock, 0.5)  # no exception out of poll(): the reader starts over
    assert nfc.failures >= 1


def test_a_card_put_back_half_a_second_later_taps_again():
    """Taking a deed back from an offer is the same sticker tapped twice: 0.4 s away was one tap (the reader forgot
    a card only 0.3 s after its last sighting, and searches without a card come every 150 ms)."""
    nfc, chip, clock, taps, _, _ = reader()
    run(nfc, clock, 0.3)
    for _ in range(2):
        chip.place(demo_uid("boardwalk"))
        run(nfc, clock, 0.3)
        chip.remove()
        run(nfc, clock, 0.4)
    assert len(taps) == 2
