"""Connect and read timeouts.

A session accepts either a :class:`Timeout` or a plain number; see
:func:`coerce_timeout` for how a number is read.
"""

from __future__ import annotations

from dataclasses import dataclass

from .constants import DEFAULT_CONNECT_TIMEOUT, DEFAULT_READ_TIMEOUT
from .timeutil import ms_to_seconds


@dataclass(frozen=True)
class Timeout:
    """Per-phase timeouts, in seconds.

    Parameters
    ----------
    connect : float
        Seconds to wait for the connection to open.
    read : float
        Seconds to wait for each read from the socket.
    """

    connect: float = DEFAULT_CONNECT_TIMEOUT
    read: float = DEFAULT_READ_TIMEOUT

    @classmethod
    def from_ms(cls, read_ms: float, connect_ms: float | None = None) -> Timeout:
        """Build a timeout from millisecond values.

        Parameters
        ----------
        read_ms : float
            The read timeout in milliseconds.
        connect_ms : float, optional
            The connect timeout in milliseconds; the default connect timeout
            when omitted.

        Returns
        -------
        Timeout
        """
        connect = DEFAULT_CONNECT_TIMEOUT if connect_ms is None else ms_to_seconds(connect_ms)
        return cls(connect=connect, read=ms_to_seconds(read_ms))


def coerce_timeout(value: Timeout | float | None) -> Timeout:
    """Normalise a user-supplied timeout.

    Parameters
    ----------
    value : Timeout, float or None
        ``None`` gives the defaults; a number sets both phases to that many
        seconds.

    Returns
    -------
    Timeout
    """
    if value is None:
        return Timeout()
    if isinstance(value, Timeout):
        return value
    return Timeout(connect=float(value), read=float(value))
