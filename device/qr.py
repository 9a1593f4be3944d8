"""QR codes of version 2 (25×25 modules), as ISO/IEC 18004 makes them: enough for the box's address, drawn at 2
pixels a module on the OLED. The strongest error correction the text fits in, and the mask with the lowest
penalty. Written here rather than loaded (a QR library is 1.2 MB of a Pi Zero's memory for one picture)."""
import re

SIZE = 25
ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
# error correction levels, strongest first: (name, format bits, data codewords of version 2's 44, in one block)
LEVELS = (("H", 0b10, 16), ("Q", 0b11, 22), ("M", 0b00, 28), ("L", 0b01, 34))
CODEWORDS = 44
ALIGNMENT = 18  # version 2's one alignment pattern, centred on (18, 18)
FINDER_LIKE = bytes([1, 0, 1, 1, 1, 0, 1])
RUNS = re.compile(rb"\x00{5,}|\x01{5,}")  # five or more modules alike in a row
MASKS = (lambda r, c: (r + c) % 2 == 0, lambda r, c: r % 2 == 0, lambda r, c: c % 3 == 0,
         lambda r, c: (r + c) % 3 == 0, lambda r, c: (r // 2 + c // 3) % 2 == 0,
         lambda r, c: r * c % 2 + r * c % 3 == 0, lambda r, c: (r * c % 2 + r * c % 3) % 2 == 0,
         lambda r, c: ((r + c) % 2 + r * c % 3) % 2 == 0)


class TooLong(ValueError):
    """The text does not fit a version 2 QR code."""


def matrix(text, mask=None):
    """The QR code of `text`: 25 rows of 25 booleans, True for a dark module (no quiet zone). `mask`: one of
    the eight, or None for the one with the lowest penalty."""
    bits = _segment(text)
    for _level, format_bits, data_codewords in LEVELS:
        if len(bits) <= 8 * data_codewords:
            break
    else:
        raise TooLong(f"{len(text)} characters do not fit a version 2 QR code")
    data = _codewords(bits, data_codewords)
    codewords = data + _remainder(data, CODEWORDS - data_codewords)
    best = None
    for tried in range(len(MASKS)) if mask is None else (mask,):
        modules = _place(codewords, tried)
        _format(modules, format_bits << 3 | tried)
        score = penalty(modules)
        if best is None or score < best[0]:
            best = (score, modules)
    return best[1]


def _segment(text):
    """Mode indicator, character count and data, as a string of bits: alphanumeric mode when every character
    is in its set (the box's upper-case address), else bytes in UTF-8."""
    if all(ch in ALPHANUMERIC for ch in text):
        values = [ALPHANUMERIC.index(ch) for ch in text]
        pairs = "".join(f"{45 * a + b:011b}" for a, b in zip(values[::2], values[1::2]))
        last = f"{values[-1]:06b}" if len(values) % 2 else ""
        return f"0010{len(text):09b}{pairs}{last}"
    data = text.encode()
    return f"0100{len(data):08b}" + "".join(f"{byte:08b}" for byte in data)


def _codewords(bits, count):
    """The data codewords: the terminator, zeros to a whole byte, then the pad bytes 0xEC and 0x11 in turn."""
    bits += "0" * min(4, 8 * count - len(bits))
    bits += "0" * (-len(bits) % 8)
    data = [int(bits[i:i + 8], 2) for i in range(0, len(bits), 8)]
    return data + [(0xEC, 0x11)[i % 2] for i in range(count - len(data))]


def _gf_tables():
    exp, log = [0] * 512, [0] * 256
    value = 1
    for power in range(255):
        exp[power], log[value] = value, power
        value <<= 1
        if value & 0x100:
            value ^= 0x11D
    for power in range(255, 512):
        exp[power] = exp[power - 255]
    return exp, log


EXP, LOG = _gf_tables()


def _multiply(a, b):
    return 0 if a == 0 or b == 0 else EXP[LOG[a] + LOG[b]]


def _remainder(data, degree):
    """Reed-Solomon error correction codewords: the remainder of data·x^degree by the generator polynomial."""
    generator = [1]
    for power in range(degree):  # (x - α^0)(x - α^1)…
        generator = [a ^ _multiply(b, EXP[power]) for a, b in zip(generator + [0], [0] + generator)]
    remainder = list(data) + [0] * degree
    for i in range(len(data)):
        factor = remainder[i]
        if factor:
            for j, coefficient in enumerate(generator):
                remainder[i + j] ^= _multiply(coefficient, factor)
    return remainder[len(data):]


def _function_modules():
    """{(row, column): dark} of the finder patterns with their separators, the timing patterns, the alignment
    pattern, the dark module, and the format areas (light until the format is written)."""
    function = {}
    for row0, col0 in ((0, 0), (0, SIZE - 7), (SIZE - 7, 0)):
        for r in range(-1, 8):
            for c in range(-1, 8):
                if 0 <= row0 + r < SIZE and 0 <= col0 + c < SIZE:
                    ring = max(abs(r - 3), abs(c - 3))
                    function[row0 + r, col0 + c] = ring != 2 and ring != 4
    for i in range(8, SIZE - 8):
        function[6, i] = function[i, 6] = i % 2 == 0
    for r in range(-2, 3):
        for c in range(-2, 3):
            function[ALIGNMENT + r, ALIGNMENT + c] = max(abs(r), abs(c)) != 1
    for i in range(9):
        function.setdefault((8, i), False)
        function.setdefault((i, 8), False)
    for i in range(8):
        function[8, SIZE - 1 - i] = function[SIZE - 1 - i, 8] = False
    function[SIZE - 8, 8] = True
    return function


def _data_positions():
    """(row, column) of every module left for data, in the order the bits fill them: two-column zigzags from
    the bottom right, up then down, skipping the vertical timing pattern's column."""
    positions, right = [], SIZE - 1
    while right > 0:
        if right == 6:
            right = 5
        upward = ((right + 1) & 2) == 0
        for step in range(SIZE):
            row = SIZE - 1 - step if upward else step
            positions += [(row, column) for column in (right, right - 1) if (row, column) not in FUNCTION]
        right -= 2
    return positions


FUNCTION = _function_modules()
DATA_POSITIONS = _data_positions()


def _place(codewords, mask):
    """The function modules, and the codewords' bits in their places, masked (version 2 leaves 7 remainder
    modules, light before the mask)."""
    modules = [[False] * SIZE for _ in range(SIZE)]
    for (row, column), dark in FUNCTION.items():
        modules[row][column] = dark
    bits = "".join(f"{codeword:08b}" for codeword in codewords).ljust(len(DATA_POSITIONS), "0")
    flips = MASKS[mask]
    for (row, column), bit in zip(DATA_POSITIONS, bits):
        modules[row][column] = (bit == "1") != flips(row, column)
    return modules


def _format(modules, data):
    """The 15 format bits (level and mask, BCH-protected, masked with 0x5412), in both of their places."""
    remainder = data
    for _ in range(10):
        remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537)
    bits = (data << 10 | remainder & 0x3FF) ^ 0x5412
    dark = [(bits >> i) & 1 == 1 for i in range(15)]
    for i in range(6):
        modules[i][8] = dark[i]
    modules[7][8], modules[8][8], modules[8][7] = dark[6], dark[7], dark[8]
    for i in range(9, 15):
        modules[8][14 - i] = dark[i]
    for i in range(8):
        modules[8][SIZE - 1 - i] = dark[i]
    for i in range(8, 15):
        modules[SIZE - 15 + i][8] = dark[i]


def penalty(modules):
    """ISO/IEC 18004's mask penalty: runs of five or more, 2×2 blocks, finder-like patterns beside 4 light
    modules (the quiet zone counts as light), and the balance of dark and light."""
    lines = [bytes(line) for line in modules + [list(column) for column in zip(*modules)]]
    score = sum(len(run.group()) - 2 for line in lines for run in RUNS.finditer(line))
    score += 40 * sum(_finder_like(line) for line in lines)
    for upper, lower in zip(modules, modules[1:]):
        score += 3 * sum(a == b == c == d for a, b, c, d in zip(upper, upper[1:], lower, lower[1:]))
    dark = sum(map(sum, modules))
    return score + 10 * (abs(dark * 20 - SIZE * SIZE * 10) // (SIZE * SIZE))


def _finder_like(line):
    """How many dark-light-dark×3-light-dark runs `line` has with 4 light modules before or after."""
    count, found = 0, line.find(FINDER_LIKE)
    while found != -1:
        after = found + len(FINDER_LIKE)
        if not any(line[max(found - 4, 0):found]) or not any(line[after:after + 4]):
            count += 1
        else:  # the next one may start at this one's third dark module
            after = found + 4
        found = line.find(FINDER_LIKE, after)
    return count
