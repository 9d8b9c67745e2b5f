"""The drivers report faults as data (:class:`~companion.drivers.said.Said`) and the face says them in the table's
language: the roller's, the NFC reader's, and a part's behind :class:`~companion.drivers.faults.Kept`."""

from __future__ import annotations

from companion.drivers.clock import SimClock
from companion.drivers.faults import Kept
from companion.drivers.nfc import STOPPED
from companion.drivers.roller import judge
from companion.drivers.said import Said
from companion.drivers.speech import VoiceUnavailable
from companion.words import Words


def test_a_roller_fault_is_said_in_german_and_its_english_is_as_before() -> None:
    _, fault = judge((7, 1, 0), (7, 1, 0))
    assert fault is not None and str(fault) == "die A read 7, not a face: roll again"
    de = Words.for_language("de")
    assert de.t("Roller: {fault}", fault=de.told(fault)) == "Würfelmaschine: Würfel A zeigt 7, keine Seite: neu würfeln"
    assert Words.for_language("en").told(fault) == "die A read 7, not a face: roll again"


def test_a_part_that_fails_is_said_in_the_tables_language() -> None:
    notices: list[Said] = []
    clock = SimClock()

    def unplugged() -> object:
        raise OSError(5, "Input/output error")

    lights = Kept("Seat lights", unplugged, clock=clock, notify=notices.append)
    assert not lights.use(lambda device: None)
    assert [Words.for_language(lang).told(notices[0]) for lang in ("en", "de", "fr", "es")] == [
        "Seat lights: input/output error", "Platzlichter: Ein-/Ausgabefehler", "Lumières des places : erreur d'entrée/sortie",
        "Luces de los puestos: error de entrada/salida"]


def test_a_library_error_is_not_working_and_a_drivers_own_says_itself() -> None:
    notices: list[Said] = []

    def broken() -> object:
        raise RuntimeError("spi_open: bad bus")  # a library's English: the log's, not the OLED's

    Kept("Buzzer", broken, clock=SimClock(), notify=notices.append).use(lambda device: None)
    assert Words.for_language("es").told(notices[0]) == "Zumbador: no funciona"
    error = VoiceUnavailable(Said("{program} is not installed (apt-get install espeak-ng)", {"program": "espeak-ng"}))
    assert Words.for_language("de").told(Said("{device}: {reason}", {"device": Said("Voice"), "reason": error.said})) \
        == "Stimme: espeak-ng ist nicht installiert (apt-get install espeak-ng)"
    assert Words.for_language("fr").told(STOPPED) == "Lecteur NFC arrêté : vérifiez son câble"


def test_the_networks_notices_are_said_in_the_tables_language() -> None:
    from companion.network.country import hotspot_country
    from companion.network.nmcli import NetworkFault

    try:
        hotspot_country("", None)
    except NetworkFault as fault:
        assert str(fault) == "No Wi-Fi country set: put wifi_country in the config. No hotspot"
        assert Words.for_language("de").told(fault.said) == \
            "Kein WLAN-Land gesetzt: wifi_country in die Konfiguration schreiben. Kein Hotspot"
    else:
        raise AssertionError("no country, no hotspot")
