"""A pad's 8 buttons driving any prompt. A secret pick has a fixed layout: button n is the prompt's n-th pad
choice, whatever anyone holds. Any other prompt is a cursor: 1 previous, 2 next, 7 back, 8 OK; choices in
groups (a village, then a space) take two steps, and a prompt may give buttons 3–6 a group each to open at
once (`Prompt.keys`). A cursor is a value: a press gives the next one, the box's face keeps it."""
from dataclasses import dataclass, replace

from engine.rules.protocol import refuse

PREV, NEXT, BACK, OK = 1, 2, 7, 8
SPARE = (3, 4, 5, 6)  # a prompt's `keys`, in order
# What each cursor key is called (message ids): the printed labels and the virtual box name them alike.
KEY_WORDS = {PREV: "key_prev", NEXT: "key_next", BACK: "key_back", OK: "key_ok"}


@dataclass(frozen=True)
class Cursor:
    """Where one seat's cursor stands in its prompt. It starts afresh whenever the prompt changes."""
    prompt: object = None
    group: str | None = None  # the group entered, in a two-step choice
    index: int = 0

    def _items(self):
        """What the cursor moves over now: the choices without a group and the groups, in the order they
        come; or the choices of the group entered."""
        if self.group is not None:
            return [c for c in self.prompt.choices if c.group == self.group]
        items = []
        for choice in self.prompt.choices:
            if choice.group is None or choice.group not in items:
                items.append(choice.group or choice)
        return items

    def follow(self, prompt):
        """The cursor standing in `prompt`: afresh on its first choice when it is a new one."""
        return self if prompt == self.prompt else Cursor(prompt)

    def label(self):
        item = self._items()[self.index]
        return item if isinstance(item, str) else item.label

    def press(self, prompt, seat, button):
        """(the cursor after the press, the action it makes or None when it only moved); Rejected when the
        button does nothing now. The caller applies the action."""
        if prompt is None:
            raise refuse("nothing_to_do", player=seat + 1)
        if prompt.pad is not None:
            choice = prompt.pad[button - 1]
            if choice is None:
                raise refuse("button_unused", button=button)
            return self, choice.action
        moved = self.follow(prompt)
        items = moved._items()
        if button in (PREV, NEXT):
            return replace(moved, index=(moved.index + (1 if button == NEXT else -1)) % len(items)), None
        if button == BACK:
            return replace(moved, group=None, index=0), None
        if button in SPARE and SPARE.index(button) < len(prompt.keys) and prompt.keys[SPARE.index(button)]:
            key = prompt.keys[SPARE.index(button)]
            if key in items or any(c.group == key for c in prompt.choices):  # a group: open it
                return replace(moved, group=key, index=0), None
            # a choice, made at once; the next prompt starts afresh, even one equal to this (another pawn)
            return Cursor(), next(c for c in prompt.choices if c.label == key).action
        if button == OK:
            item = items[moved.index]
            if isinstance(item, str):
                return replace(moved, group=item, index=0), None
            return Cursor(), item.action  # afresh, as above
        raise refuse("button_cursor", button=button)
