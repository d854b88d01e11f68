"""The one error hierarchy of the judge. The CLI turns these into messages and exit codes."""
import errno


class JudgeError(Exception):
    """Anything the judge refuses, with a message meant for a person."""

    exit_code = 1
    # A refused batch of orders (Game.submit): the index of the line refused, and the orders
    # accepted before it (judged, not applied). None and () for any other refusal.
    index: int | None = None
    before: tuple = ()

    def at_line(self, index: int, before) -> "JudgeError":
        """This refusal, as a new error of the same kind and text, for line `index` of a batch
        whose lines `before` it were accepted."""
        error = self.__class__.__new__(self.__class__)
        error.__dict__.update(self.__dict__)
        error.args = self.args
        error.index, error.before = index, tuple(before)
        return error


class UsageError(JudgeError):
    """Unknown ruleset or option, wrong number of players, a bad setup file."""

    exit_code = 2


class GameFileError(JudgeError):
    """A game file that is missing, already exists, is malformed or inconsistent."""

    exit_code = 3


class GameFileFull(GameFileError):
    """A change refused because the game file it makes would be larger than the judge loads
    (judge/store/gamefile.py MAX_FILE): the game stays as it was, and still loads."""


class OrderError(JudgeError):
    """An order refused. `line` is the text as the player wrote it."""

    exit_code = 4
    kind = "refused"

    def __init__(self, reason: str, line: str = ""):
        self.reason = reason
        self.line = line
        super().__init__(self.message())

    def quoting(self, line: str) -> "OrderError":
        """This refusal as a new error of the same kind and reason, quoting `line` (the whole
        line the player wrote, where the ruleset saw only the order in it)."""
        error = self.__class__.__new__(self.__class__)
        error.__dict__.update(self.__dict__)
        error.line = line
        error.args = (error.message(),)
        return error

    def message(self) -> str:
        if not self.line:
            return f"{self.kind}: {self.reason}"
        return f'{self.kind} "{self.line}": {self.reason}'


class OrderSyntaxError(OrderError):
    kind = "syntax error"


class NotAnOrder(OrderSyntaxError):
    """A line that is no order of the game at all ("Thanks for the game!")."""

    kind = "not an order"


class IllegalOrder(OrderError):
    kind = "illegal order"


class AmbiguousOrder(OrderError):
    kind = "ambiguous order"


class NotYourTurn(OrderError):
    kind = "not your turn"


class GameOver(OrderError):
    kind = "game over"


class StaleOrder(OrderError):
    kind = "stale order"


class EarlyOrder(StaleOrder):
    """A move number that has not come yet (`#99` at move 4): no stale order, a wrong number."""

    kind = "too early"


class UnknownPlayer(OrderError):
    kind = "unknown player"


class HostError(JudgeError):
    """A problem of the judge's host, not of the message or the command: an unreadable
    configuration, a game file or directory the judge's user cannot read or write. Temporary:
    an MTA piping to `judge mail` keeps the message and tries again once it is fixed."""

    exit_code = 75


class MailError(JudgeError):
    """Outgoing mail could not be handed on now; it waits in the outbox (judge/mail/outbox.py)."""

    exit_code = 75  # EX_TEMPFAIL: an MTA piping to `judge mail` keeps the message and retries


class ArchiveError(JudgeError):
    """The public record could not be committed to the git archive (judge/record/archive.py);
    after a change only a warning: the next change commits it."""


class LogEndsEarly(GameFileError):
    """A log that ends where standing orders carry on: in a game file a broken log; for a log
    cut short on purpose (a rollback, a report at an earlier move) the sign that the move asked
    for was played by a standing order the moment it began."""


class VerifyError(JudgeError):
    """Replaying the log does not give the saved state."""

    exit_code = 5


class LinkRefused(UsageError, OSError):
    """A symbolic link where the judge writes (judge/engine/writes.py): nothing is written
    through one. An OSError too (ELOOP, as the system says it), so that where the judge meets
    a file it cannot write it meets this one alike: for `judge mail` a host problem (exit 75:
    the MTA keeps the message, the game master is told), after a change a warning."""

    def __init__(self, message: str):
        OSError.__init__(self, errno.ELOOP, message)

    def __str__(self) -> str:
        return self.strerror
