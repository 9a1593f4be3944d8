"""The box's face: what the OLED shows and the buzzer sounds, and what the pads and the host panel ask of the
table, as one value and two pure functions — as a game's rules are:

- `BoxState`: the menu, an overlay, a notice, the pads' cursors, the result pages, the language, the game
  caught up with;
- `step(state, event, seen) -> (state, effects)`: an event (device/effects.py: a key pressed, the table moved,
  an answer to what the face asked) gives the next state and what the box must do (a sound, an action for the
  table, a code to open…);
- `screen(state, seen) -> Screen`: the OLED's screen.

`seen` (device/seen.py) is all the face knows of the table, and holds no secret: so no screen, sound or effect
can depend on one. device/box.py runs it on one thread and does its effects."""
from dataclasses import dataclass, field, replace

from engine.rules import Rejected
from engine.rules.protocol import refuse
from engine.words import render

from . import screens
from .cursor import Cursor
from .effects import (Act, Acted, Answered, CodeOpened, CodeOver, Failed, Held, HostAct, HostActed, HostDone,
                      Joined, LanguageChanged, OpenCode, PowerOff, PoweredOff, Pressed, Sound,
                      TableChanged, WaitHeld)
from .menu import Menu
from .presenter import Pages
from .seen import OnPhone
from .texts import text

ASKS = (HostAct, OpenCode, PowerOff)  # effects whose answer comes back as an event, and the key's outcome with it


@dataclass(frozen=True)
class Panel:
    """What the face is built with, never changed: the seats the pads wire, where phones join, a code's life."""
    wired_seats: int
    url: str | None = None
    window: float = 120.0


@dataclass(frozen=True)
class BoxState:
    panel: Panel
    lang: str
    menu: Menu
    pages: Pages = Pages()
    overlay: screens.Screen | None = None  # a seat's cursor, a phone that joined, a refusal: until the next input
    notice: str | None = None  # a refused press or an undo, in the title until the next input
    cursors: dict = field(default_factory=dict)  # seat -> its pad's Cursor
    game_id: int | None = None  # the game the pages have caught up with
    undo_told: int | None = None  # the version whose undo the title has told
    menu_presses: int = 0  # counts Menu presses, so a hold is told from two presses


def start(panel, lang):
    """The face as the box starts: the menu closed, nothing caught up with yet (the first TableChanged does)."""
    return BoxState(panel, lang, Menu.first())


def step(state, event, seen):
    """(the next state, the effects to do, in order) after `event`, `seen` being the table as the face knows it."""
    kind = type(event)
    if kind is Pressed:
        pressed = _seat_pressed if event.key[0] == "seat" else _host_pressed
        return pressed(state, event.key, seen)
    if kind is Acted:
        return _acted(state, event, seen)
    if kind is TableChanged:
        return _follow(state, seen)
    if kind is LanguageChanged:
        return replace(state, lang=event.language, pages=Pages().catch_up(seen.view, event.language)), []
    if kind is HostDone:
        menu = state.menu.done(event.kind, event.refusal, seen, state.lang)
        return replace(state, menu=menu, cursors={}), [_host_outcome(event.key, menu)]
    if kind is HostActed:
        return replace(state, menu=state.menu.closed(), cursors={}), []
    if kind is CodeOpened:
        menu = state.menu.opened(event.code)
        return replace(state, menu=menu), [_host_outcome(event.key, menu)]
    if kind is CodeOver:
        return replace(state, menu=state.menu.expired(event.code)), []
    if kind is Joined:
        joined = screens.Screen(text(state.lang, "phone_joined"), (screens.who(state.lang, event.target),))
        return replace(state, menu=state.menu.paired(event.target), notice=None, overlay=joined), [Sound("reveal")]
    if kind is PoweredOff:
        menu = state.menu.powered(event.why_not, state.lang)
        return replace(state, menu=menu), [_host_outcome(event.key, menu)]
    if kind is Held:
        if event.press != state.menu_presses:
            return state, []
        return replace(state, overlay=None, menu=state.menu.open("poweroff")), []
    if kind is Failed:
        return _failed(state, event, seen)
    raise TypeError(f"not an event of the box: {event!r}")


def _failed(state, event, seen):
    """A key's press could not be taken (the journal, or the box, failed). A secret pick's press fails silently
    on the public channels, as one the rules refuse does: a held card would fail where another is refused, so
    a buzz would tell which the seat holds. The fault's title says the rest."""
    key, told = event.key, {"status": "rejected", "error": event.reason}
    if key[0] == "seat":
        told = {"seat": key[1], "button": key[2], **told}
        if getattr(seen.pad(key[1]), "secret", False):
            return state, [Answered(key, {**told, "secret": True})]
    return replace(state, notice=text(state.lang, event.reason)), [Sound("refused"), Answered(key, told)]


def _input(state):
    """Any seat's input: the overlay goes, and so does the seal (any key goes on to the game)."""
    return replace(state, overlay=None, menu=state.menu.closed() if state.menu.mode == "seal" else state.menu)


def _seat_pressed(state, key, seen):
    _, seat, button = key
    state = _input(state)
    outcome = {"seat": seat, "button": button}
    if seat >= seen.seats:
        refusal = refuse("not_at_table", player=seat + 1, seats=seen.seats)
        return state, [Act(seat, refusal, key, seen.version)]
    prompt = seen.pad(seat)
    if isinstance(prompt, OnPhone):  # the table sees only that the seat is choosing
        shown = screens.secret_choice(state.lang, seat)
        told = {**outcome, "status": "phone", **({"secret": True} if prompt.secret else {})}
        return replace(state, overlay=shown, notice=None), [Answered(key, told)]
    try:
        cursor, action = state.cursors.get(seat, Cursor()).press(prompt, seat, button)
    except Rejected as refusal:  # the table says whether its reason may be known
        return state, [Act(seat, refusal, key, seen.version)]
    state = replace(state, cursors={**state.cursors, seat: cursor})
    if action is not None:
        return state, [Act(seat, action, key, seen.version)]
    shown = screens.cursor(state.lang, seen.game, seat, cursor.prompt, cursor.label(), cursor.group)
    return replace(state, overlay=shown, notice=None), [Answered(key, {**outcome, "status": "moved"})]


def outcome(seat, key, answer, lang):
    """What a seat's action did, as its pad's key (`key`) or its phone (None) is told: a refusal's words in
    `lang`, and `secret` when the table says it is the seat's alone."""
    told = {"seat": seat, **({"button": key[2]} if key else {}), "status": answer.status}
    if answer.secret:
        told["secret"] = True
    if answer.refusal is not None:
        refusal = answer.refusal
        told.update(code=refusal.code, error=render(lang, refusal.message), refusal=refusal)
    return told


def _acted(state, event, seen):
    """The table's answer to a seat's action, from its pad (`event.key`) or its phone."""
    answer, seat, key = event.answer, event.seat, event.key
    if key is None:
        state = _input(state)
    told = outcome(seat, key, answer, state.lang)
    effects = []
    if answer.refusal is None:
        state = replace(state, pages=state.pages.dismiss(event.since), notice=None)  # done with earlier results
    elif answer.secret:
        # The OLED and the buzzer are public: a refused secret press shows and sounds nothing (its reason, the
        # button, even that it was refused could tell what the seat holds); a pad's press of a seat that has
        # picked took its pick again (engine/table.py `answer`: the table moved), as a taken press does.
        stood = key is not None and seen.version > event.since
        state = replace(state, notice=None, pages=state.pages.dismiss(event.since) if stood else state.pages)
    else:
        state = replace(state, notice=f"{screens.seat(state.lang, seat)}: {text(state.lang, 'rejected')}",
                        overlay=screens.refused(told["error"]))
        if key:
            effects.append(Sound("refused"))
    if key:
        effects.append(Answered(key, told))
    return state, effects


def _host_pressed(state, key, seen):
    name = key[1]
    effects = []
    if name == "menu":  # held for the power-off hold, it asks to power the box off
        state = replace(state, menu_presses=state.menu_presses + 1)
        effects.append(WaitHeld(state.menu_presses))
    menu, asks, used = state.menu.press(name, key, seen, state.lang)
    pages = state.pages
    if not used:
        if name in ("ok", "next"):
            turned = pages.ok()
            if turned is not None:
                pages = turned
            elif name == "ok" and seen.over:
                menu = menu.after_the_end()
        elif name == "prev":
            pages = pages.back()
    state = replace(state, menu=menu, pages=pages, overlay=None, notice=None)
    effects += asks
    if not any(isinstance(ask, ASKS) for ask in asks):
        effects.append(_host_outcome(key, menu))
    return state, effects


def _host_outcome(key, menu):
    return Answered(key, {"host": key[1], "status": "done", "message": menu.message})


def _follow(state, seen):
    """Catch up with the table: a new or resumed game (nothing of it to read yet), result pages it adds (a reveal,
    with its sound), an undo (told in the title, from wherever it came)."""
    effects = []
    if seen.game_id != state.game_id:
        state = replace(state, pages=Pages().catch_up(seen.view, state.lang), game_id=seen.game_id, cursors={})
    else:
        pages = state.pages.update(seen.view, state.lang)
        if len(pages.pages) > len(state.pages.pages):
            effects.append(Sound("reveal"))
        state = replace(state, pages=pages)
    undone = seen.view.get("undone")
    if undone and state.undo_told != seen.version:
        who = screens.seat(state.lang, undone["seat"])
        state = replace(state, undo_told=seen.version, notice=text(state.lang, "undone_seat", who=who))
    return state, effects


def screen(state, seen):
    """What the OLED shows: the menu, else an overlay, else the game (its result pages, or the table as it stands
    with a pad's open cursor); a refusal or a fault has the title."""
    lang, panel = state.lang, state.panel
    if state.menu.is_open:
        shown = state.menu.screen(seen, lang, url=panel.url, wired_seats=panel.wired_seats, window=panel.window)
    elif state.overlay:
        shown = state.overlay
    elif seen.game is None:
        shown = screens.no_game(lang, panel.url)
    else:
        shown = (state.pages.is_live and not seen.over and _waiting_cursor(state, seen)
                 or state.pages.screen(seen.view, lang))
    title = state.notice or (text(lang, "storage_full" if seen.fault == "full" else "storage_failing")
                             if seen.fault else None)
    return replace(shown, title=title) if title else shown


def _waiting_cursor(state, seen):
    """The open choice a pad's cursor makes now, from the first frame: where the cursor stands and its keys (None
    when no wired seat chooses by cursor)."""
    for seat, prompt in enumerate(seen.pads):
        if prompt is not None and not isinstance(prompt, OnPhone) and prompt.pad is None:
            cursor = state.cursors.get(seat, Cursor()).follow(prompt)
            return screens.cursor(state.lang, seen.game, seat, prompt, cursor.label(), cursor.group)
    return None
