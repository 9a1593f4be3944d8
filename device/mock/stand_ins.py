"""What mock mode puts where the box has hardware of its own: an OLED that keeps its image, and a power-off with
nothing to power off."""


def power_off():
    """There is nothing to power off, and the menu says so."""
    return "poweroff_mock"


def display():
    """luma's dummy device, which keeps the image it is shown (the virtual box serves it)."""
    from luma.core.device import dummy

    from ..display import HEIGHT, WIDTH
    return dummy(width=WIDTH, height=HEIGHT, mode="1")
