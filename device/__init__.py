"""The box: seat pads, host panel, OLED, pin maps and the `arbitro` command."""
