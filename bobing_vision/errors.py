"""The one root error of the package; bad input is also a ValueError."""


class BobingError(Exception):
    """Root of every error bobing_vision raises on purpose."""


class InvalidInput(BobingError, ValueError):
    """Input that cannot be used: the message says what was expected and what came."""


class JournalError(BobingError):
    """A game journal that cannot be read or replayed."""


class SourceError(BobingError):
    """A camera, stream, video or image folder that cannot be opened or read."""
