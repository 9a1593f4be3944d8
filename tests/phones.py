"""A phone taking a seat or the host role as a player would: it asks, the box draws a button, and the player
holds that button (on the seat's pad, or on the host panel) until the box takes it."""
from tests.conftest import virtual


def hold_button(box, claim):
    """Hold the button a claim drew, on the panel that confirms it, a little longer than the box asks."""
    hold = box.claims.hold + 0.5
    if claim["confirm_by"] == "pad":
        return virtual(box).press(seat=claim["seat"], button=claim["button"], hold=hold)
    return virtual(box).press(host=claim["button"], hold=hold)


def take(client, box, url):
    """POST `url` (a seat's or the host's claim) from `client`, hold its button: the phone holds it now."""
    answer = client.post(url, json={})
    assert answer.status_code == 201, answer.get_json()
    claim = answer.get_json()
    assert hold_button(box, claim) == {"status": "claimed"}
    confirmed = client.get(f"/api/claims/{claim['claim']}").get_json()
    assert confirmed["status"] == "confirmed", confirmed
    return claim
