"""The buzzer: a tick for a press taken, a double buzz for one refused, a chord at a reveal."""
import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from device.sounds import SOUNDS, Sounds
from tests.conftest import virtual


@pytest.fixture
def pwm_factory():
    from gpiozero import Device
    factory = MockFactory(revision="a02082", pin_class=MockPWMPin)
    previous, Device.pin_factory = Device.pin_factory, factory
    yield factory
    factory.reset()
    Device.pin_factory = previous


def played(factory, kind, name):
    """(frequency, level, seconds) as the pin stands at each note, then the pin's level at the end."""
    pin, heard = factory.pin(27), []
    sounds = Sounds(27, kind, pin_factory=factory, sleep=lambda s: heard.append((pin.frequency, pin.state, s)))
    try:
        sounds.sound(name)
        return heard, pin.state
    finally:
        sounds.close()


def test_a_passive_buzzer_plays_each_note_and_falls_silent(pwm_factory):
    assert played(pwm_factory, "passive", "reveal") == ([(523, 0.5, 0.09), (659, 0.5, 0.09), (784, 0.5, 0.2)], 0)
    assert played(pwm_factory, "passive", "refused") == ([(220, 0.5, 0.12), (None, 0, 0.06), (220, 0.5, 0.12)], 0)


def test_an_active_buzzer_beeps_each_note_for_its_length(pin_factory):
    assert played(pin_factory, "active", "tick") == ([(None, 1, 0.025)], 0)
    assert played(pin_factory, "active", "refused") == ([(None, 1, 0.12), (None, 0, 0.06), (None, 1, 0.12)], 0)


def test_the_three_sounds_differ_so_a_player_can_tell_them_apart():
    shapes = {name: tuple(notes) for name, notes in SOUNDS.items()}
    assert len(set(shapes.values())) == 3
    assert sum(s for _, s in SOUNDS["tick"]) < 0.05  # a tick, not a beep: it must not hide the next one


def test_the_box_ticks_on_a_press_buzzes_on_a_refusal_and_plays_a_chord_at_a_reveal(make_box, pin_factory):
    box = make_box()  # the default pin map has an active buzzer on GPIO 27
    heard = []
    box.sounds.play = heard.append
    box.table.new_game("ponte", 3)
    virtual(box).press(seat=0, button=1)
    virtual(box).press(seat=1, button=2)
    assert heard == ["tick", "tick"]
    virtual(box).press(seat=5, button=1)  # no player 6 at this table
    assert heard[-1] == "refused"
    heard.clear()
    virtual(box).press(seat=2, button=3)  # the last pick: the cards are revealed
    assert heard[0] == "tick" and "reveal" in heard
    virtual(box).press(host="next")
    assert heard[-1] == "tick"


def test_a_press_ticks_as_its_key_is_read_before_the_table_takes_or_refuses_it(make_box):
    """The tick is the key's feedback, so it never tells what the press did. Defect: it was queued after the
    journal's sync for a taken press and at once for a refused one, a sync apart (about 30 ms on an SD card)."""
    box = make_box()
    heard = []
    box.sounds.play = heard.append
    box.table.new_game("ponte", 3)
    box.table.subscribe(lambda moment: heard.append(f"version {moment.version}"))
    virtual(box).press(seat=0, button=1)  # taken: the table moves after the tick
    assert heard == ["tick", f"version {box.table.version}"]
    heard.clear()
    virtual(box).press(host="next")
    assert heard == ["tick"]


def test_sounds_never_make_a_press_wait_and_a_backlog_is_dropped(pin_factory):
    import threading
    gate = threading.Event()
    sounds = Sounds(27, "active", pin_factory=pin_factory, sleep=lambda s: gate.wait(5))
    try:
        queued = [sounds.play("tick") for _ in range(10)]  # the first plays (held by the gate); three wait
        assert 3 <= sum(queued) <= 4 and queued[4:] == [False] * 6  # the rest are dropped, and say so
    finally:
        gate.set()
        sounds.close()


def test_closing_stops_the_sound_playing_and_drops_those_waiting(pin_factory):
    """Defect: closing the box (its power-off included) waited out every queued sound, a chord after a chord;
    each test's box took over half a second to close."""
    import threading
    sounds = Sounds(27, "active", pin_factory=pin_factory)
    started, playing, sound = [], threading.Event(), sounds.sound
    sounds.sound = lambda name: started.append(name) or playing.set() or sound(name)
    for _ in range(4):  # a chord plays; three wait
        sounds.play("reveal")
    assert playing.wait(5)
    sounds.close()
    assert started == ["reveal"] and "buzzer" not in {thread.name for thread in threading.enumerate()}
    assert pin_factory.pin(27).state == 0
