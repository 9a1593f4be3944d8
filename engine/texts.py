"""The languages the box speaks. Each surface keeps its own words: the OLED's in device/texts.py and each
game's presentation module, the phone's in web_companion/texts.py and each game's phone module."""
LANGUAGES = ("it", "en")
