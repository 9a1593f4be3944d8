"""The box's memory over a night of games (bench/soak.py measures it): the C allocator's knobs where it is glibc's
(Raspberry Pi OS, a Linux laptop; the glibc calls do nothing elsewhere) and the garbage collector's.

The RSS grew game after game with the Python heap flat: glibc gives threads arenas of their own (up to 8 per
core), each keeping what is freed in it, scattered between what is still in use, for its own next allocations,
and the web server's dozens of threads each held some; Python frees a game's reference cycles only now and then.
`limit_arenas` has the threads share a few arenas; `release`, as a new game starts, collects the last one's
cycles and hands the freed pages back; `settle` keeps that collection short. (Each thread also keeps a few
freed blocks of each small size for itself, its tcache, which no call empties: the service turns it off with
GLIBC_TUNABLES, which glibc reads only as a process starts.)"""
import ctypes
import ctypes.util
import gc

M_ARENA_MAX = -8  # mallopt's parameter (glibc's malloc.h)
ARENAS = 2  # the threads hold the GIL most of the time: they seldom wait for an arena's lock


def _glibc():
    """The C library when it is glibc (it names its version), else None."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.gnu_get_libc_version  # only glibc has it
    except (OSError, AttributeError):
        return None
    return libc


_LIBC = _glibc()


def limit_arenas(count=ARENAS):
    """Threads share `count` malloc arenas from now on: call it before any thread starts. Whether it could."""
    return bool(_LIBC and _LIBC.mallopt(M_ARENA_MAX, count))


def trim():
    """Hand the memory malloc keeps freed back to the system, from every arena. Whether it could."""
    if _LIBC is None:
        return False
    _LIBC.malloc_trim(0)
    return True


def release():
    """What is no longer used goes back to the system: the reference cycles collected, then malloc trimmed."""
    gc.collect()
    trim()


def settle():
    """Once the box has started: what the start made (modules, the web app, the table) is kept for good, so the
    garbage collector no longer walks it (gc.freeze): a full collection then takes a millisecond or two on a busy
    box rather than some 40 ms (about 10× both on a Zero), at each new game and whenever Python runs one."""
    gc.collect()  # no garbage kept for good
    gc.freeze()
