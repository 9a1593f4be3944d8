"""The box's memory (device/memory.py): on glibc the threads share a few arenas and freed memory goes back to the
system (without glibc nothing is done); the garbage collector frees reference cycles and, once the box has
started, no longer walks what the start made. A new game forgets the last one's pages and releases its memory.
The memory over a night of games is bench/soak.py's."""
import ctypes
import gc
import random
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

from device import memory, screens

ROOT = Path(__file__).resolve().parent.parent
glibc = pytest.mark.skipif(memory._LIBC is None, reason="the C library is not glibc")


def run(code):
    """`code` in a fresh interpreter (no thread has an arena yet): what it prints."""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


# A thread's first allocation, and whether it lies in the main arena (the program's break, [heap] in its map).
IN_MAIN_ARENA = """
import ctypes, sys, threading
from device import memory
libc = ctypes.CDLL("libc.so.6")
libc.malloc.restype = ctypes.c_void_p
{limit}
found = []
thread = threading.Thread(target=lambda: found.append(libc.malloc(64)))
thread.start()
thread.join()
heap = next(line.split()[0] for line in open("/proc/self/maps") if line.rstrip().endswith("[heap]"))
low, high = (int(part, 16) for part in heap.split("-"))
print(low <= found[0] < high)
"""


@glibc
def test_limited_to_one_arena_a_new_thread_allocates_from_the_main_one():
    assert run(IN_MAIN_ARENA.format(limit="assert memory.limit_arenas(1)")) == "True"
    assert run(IN_MAIN_ARENA.format(limit="")) == "False"  # glibc's own way: an arena for the new thread


# 40 MB in small blocks, all freed but the last (which keeps malloc from giving the top back by itself): the RSS
# in MB before and after a trim.
FREED = """
import ctypes
from device import memory
libc = ctypes.CDLL("libc.so.6")
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]
def rss():
    return next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmRSS:")) / 1024
blocks = [libc.malloc(1000) for _ in range(40_000)]
for block in blocks:
    ctypes.memset(block, 1, 1000)
for block in blocks[:-1]:
    libc.free(block)
before = rss()
assert memory.trim()
print(before, rss())
"""


@glibc
def test_trim_hands_freed_memory_back():
    before, after = map(float, run(FREED).split())
    assert before - after > 30, (before, after)


def test_without_glibc_nothing_is_done(monkeypatch):
    monkeypatch.setattr(memory, "_LIBC", None)
    assert memory.limit_arenas() is False
    assert memory.trim() is False
    memory.release()  # the garbage collected all the same


class Cycle:
    def __init__(self):
        self.me = self


def test_release_frees_reference_cycles():
    gc.disable()  # none of Python's own collections meanwhile
    try:
        left = weakref.ref(Cycle())
        assert left() is not None
        memory.release()
        assert left() is None
    finally:
        gc.enable()


# What the garbage collector walks in a full collection, before and after settling, and whether what was made
# after it is still collected.
SETTLED = """
import gc, weakref
from device import memory
class Cycle:
    def __init__(self):
        self.me = self
kept = [Cycle() for _ in range(1000)]
before = len(gc.get_objects())
memory.settle()
after = len(gc.get_objects())
gc.disable()
left = weakref.ref(Cycle())
gc.collect()
print(before - after >= 1000, left() is None)
"""


def test_once_settled_the_collector_skips_what_the_start_made_and_collects_what_came_after():
    assert run(SETTLED) == "True True"


@pytest.mark.parametrize("library", [OSError("no C library"), object()], ids=["missing", "not glibc"])
def test_a_c_library_other_than_glibc_is_not_used(monkeypatch, library):
    def load(name):
        if isinstance(library, Exception):
            raise library
        return library
    monkeypatch.setattr(ctypes, "CDLL", load)
    assert memory._glibc() is None


def test_a_new_game_forgets_the_last_games_pages_and_releases_its_memory(box, monkeypatch):
    """Defect: the pages remembered for each game's history (device/screens.py) stayed after it, thousands of
    them over a night, never shown again."""
    from games.ponte.oled import match_chapters

    rng, table = random.Random(2), box.table
    while not table.view()["over"]:
        table.act(rng.choice(table.legal_actions(rng.choice(list(table.actors())))))
    ended = table.view()
    screens.chapters(ended, "it")
    built = match_chapters.builds
    screens.chapters(ended, "it")
    assert match_chapters.builds == built  # remembered while the game is on the box
    released = []
    monkeypatch.setattr(memory, "release", lambda: released.append(True))
    box.new_game("ponte", 4)
    assert released == [True]
    screens.chapters(ended, "it")
    assert match_chapters.builds > built  # forgotten: built again
