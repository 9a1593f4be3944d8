"""Errors worded in the catalogs: the message is a Message (engine/rules/protocol.py), worded in the language of
whoever reads it (`said`: a terminal's, engine/words.py); str() is the English, for logs. The box's own storage
errors (the journal, a backup, the files beside the journal) are `storage` messages of the shared catalog."""
from .rules.protocol import SHARED, Message, Param


def stored(key: str, /, **params: Param) -> Message:
    """A `storage` message of the shared catalog: what the box keeps on its disk, and what to do about it."""
    return Message(SHARED, key, params, context="storage")


class Worded(Exception):
    """An error whose words are `message`: a Message, or plain words where the code raising it has none in the
    catalogs (said as they are, in every language)."""

    def __init__(self, message: Message | str) -> None:
        super().__init__(message)
        self.message = message

    def said(self, language: str) -> str:
        if isinstance(self.message, str):
            return self.message
        from .words import render  # the catalogs are read when an error is first worded, not at import
        return render(language, self.message)

    def __str__(self) -> str:
        return self.said("en")
