"""A pad's 8 buttons driving any prompt. A secret pick has a fixed layout: button n is the prompt's n-th pad
choice, whatever anyone holds. Any other prompt is a cursor: 1 previous, 2 next, 7 back, 8 OK; choices in
groups (a village, then a space) take two steps, and a prompt may give buttons 3–6 a group each to open at
once (`Prompt.keys`)."""
from engine.rules.protocol import refuse

PREV, NEXT, BACK, OK = 1, 2, 7, 8
SPARE = (3, 4, 5, 6)  # a prompt's `keys`, in order
# What each cursor key is called (message ids): the printed labels and the virtual box name them alike.
KEY_WORDS = {PREV: "key_prev", NEXT: "key_next", BACK: "key_back", OK: "key_ok"}


class Cursor:
    """Where one seat's cursor stands in its prompt. It starts afresh whenever the prompt changes."""

    def __init__(self):
        self.prompt = None
        self.group = None  # the group entered, in a two-step choice
        self.index = 0

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
        """Stand in `prompt`: afresh on its first choice when it is a new one."""
        if prompt != self.prompt:
            self.prompt, self.group, self.index = prompt, None, 0

    def label(self):
        item = self._items()[self.index]
        return item if isinstance(item, str) else item.label

    def press(self, prompt, seat, button):
        """The action the press makes (the caller applies it), or None when it only moved the cursor."""
        if prompt is None:
            raise refuse("nothing_to_do", player=seat + 1)
        if prompt.pad is not None:
            choice = prompt.pad[button - 1]
            if choice is None:
                raise refuse("button_unused", button=button)
            return choice.action
        self.follow(prompt)
        items = self._items()
        if button in (PREV, NEXT):
            self.index = (self.index + (1 if button == NEXT else -1)) % len(items)
        elif button == BACK:
            self.group, self.index = None, 0
        elif button in SPARE and SPARE.index(button) < len(prompt.keys) and prompt.keys[SPARE.index(button)]:
            key = prompt.keys[SPARE.index(button)]
            if key in items or any(c.group == key for c in prompt.choices):  # a group: open it
                self.group, self.index = key, 0
            else:  # a choice: made at once
                self.prompt = None
                return next(c for c in prompt.choices if c.label == key).action
        elif button == OK:
            item = items[self.index]
            if isinstance(item, str):
                self.group, self.index = item, 0
            else:
                self.prompt = None  # the next prompt starts afresh, even one equal to this (another pawn)
                return item.action
        else:
            raise refuse("button_cursor", button=button)
        return None
