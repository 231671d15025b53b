"""Issue 19 item 7: opt-in e-mail for "your turn" and "game finished", sent by a Celery task
through Django's mail backend, at most one "your turn" per game until the member has moved,
in the member's language, with a one-click unsubscribe link."""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts import mail as club_mail
from accounts import services
from accounts.models import Notification, User
from accounts.tasks import send_notification_email
from games import engines
from games.models import Game
from games.services import notices
from tests.games.conftest import build_game, state_of


@pytest.fixture
def eager_mail(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The e-mail task runs at once in this process (Celery's `apply`) instead of through the
    broker; returns the notification ids handed to it."""
    handed: list[int] = []

    def run_now(notification_id: int) -> None:
        handed.append(notification_id)
        send_notification_email.apply(args=(notification_id,))

    monkeypatch.setattr(club_mail, "hand_to_worker", run_now)
    return handed


def seat_to_move(game: Game) -> int:
    return engines.get(game.engine_slug).to_move(state_of(game))[0]


def play_until_turn_of(game: Game, position: int) -> None:
    """Each seat plays its first legal move until another seat has moved and it is
    `position`'s turn again."""
    engine = engines.get(game.engine_slug)
    from games import services as game_services

    others_moved = False
    while not others_moved or position not in engine.to_move(state_of(game)):
        seat = engine.to_move(state_of(game))[0]
        move = engine.legal_moves(state_of(game), seat)[0]
        game.refresh_from_db()
        game_services.play_move(
            game_id=game.pk, seat=seat, move=move, expected_version=game.version
        )
        others_moved = others_moved or seat != position


def sent_to(user: User) -> int:
    return sum(message.to == [user.email] for message in mail.outbox)


@pytest.mark.django_db(transaction=True)
def test_your_turn_is_emailed_once_per_game_until_the_member_has_moved(
    alice: User, bob: User, eager_mail: list[int]
) -> None:
    for member in (alice, bob):
        member.email_your_turn = True
        member.save()
    game = build_game(alice, bob)  # starts when bob sits down; the first to move is told
    first = seat_to_move(game)
    member = game.seats.get(position=first).user
    other = game.seats.exclude(position=first).get().user
    assert (sent_to(member), sent_to(other)) == (1, 0)
    # Told again (another announcement of the same wait): no second notice, no second e-mail.
    assert notices.deliver_turn(game.pk) == 0
    assert (sent_to(member), sent_to(other)) == (1, 0)

    # The member moves, the other member moves, and it is the member's turn again: one more.
    play_until_turn_of(game, first)
    assert (sent_to(member), sent_to(other)) == (2, 1)


@pytest.mark.django_db
def test_nothing_is_emailed_without_the_members_opt_in(
    alice: User, eager_mail: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        services.notify(
            user=alice, kind=Notification.Kind.YOUR_TURN, params={"game": 1, "slug": "babylon"}
        )
    assert eager_mail == []
    assert mail.outbox == []


@pytest.mark.django_db
def test_the_email_is_in_the_members_language_and_carries_an_unsubscribe_link(
    client: Client, alice: User, eager_mail: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    alice.language, alice.email_finished = "hu", True
    alice.save()
    with django_capture_on_commit_callbacks(execute=True):
        note = services.notify(
            user=alice,
            kind=Notification.Kind.FINISHED,
            params={"game": 5, "slug": "tower-of-babel", "place": 1, "players": 3},
            link="/games/5/",
        )
    [message] = mail.outbox
    assert message.to == ["alice@example.com"]
    # The Hungarian catalogue's words, with the game's Hungarian title.
    assert "Bábel tornya #5" in message.subject
    assert "http://127.0.0.1:8000/games/5/" in message.body
    link = re.search(r"http://127\.0\.0\.1:8000(/members/unsubscribe/[^/\s]+/)", message.body)
    assert link is not None
    assert message.extra_headers["List-Unsubscribe"] == f"<http://127.0.0.1:8000{link[1]}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    note.refresh_from_db()
    assert note.emailed_at is not None


@pytest.mark.django_db
def test_a_task_delivered_twice_sends_one_email(alice: User) -> None:
    alice.email_your_turn = True
    alice.save()
    note = Notification.objects.create(
        user=alice, number=1, kind="your_turn", params={"game": 2, "slug": "babylon"}
    )
    assert club_mail.send_notification_email(note.pk) is True
    assert club_mail.send_notification_email(note.pk) is False
    assert len(mail.outbox) == 1


@pytest.mark.django_db
def test_the_unsubscribe_link_turns_that_email_off_in_one_click(
    client: Client, alice: User
) -> None:
    alice.email_your_turn = alice.email_finished = True
    alice.save()
    token = club_mail.unsubscribe_token(alice, "email_your_turn")
    url = reverse("accounts:unsubscribe", args=[token])

    # Opening the link (as a mail scanner would) changes nothing; it shows one button.
    page = client.get(url)
    assert page.status_code == 200
    alice.refresh_from_db()
    assert alice.email_your_turn is True

    # The click (or a mail client's RFC 8058 POST), signed out and without a CSRF token.
    response = Client(enforce_csrf_checks=True).post(url, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    alice.refresh_from_db()
    assert (alice.email_your_turn, alice.email_finished) == (False, True)
    assert not club_mail.wants_email(alice, Notification.Kind.YOUR_TURN)


@pytest.mark.django_db
@pytest.mark.parametrize("token", ["nonsense", "eyJ1IjoxLCJzIjoiaXNfc3RhZmYifQ:1a:bad"])
def test_a_forged_unsubscribe_link_changes_nothing(client: Client, alice: User, token: str) -> None:
    alice.email_your_turn = True
    alice.save()
    assert client.post(reverse("accounts:unsubscribe", args=[token])).status_code == 400
    assert client.get(reverse("accounts:unsubscribe", args=[token])).status_code == 400
    alice.refresh_from_db()
    assert alice.email_your_turn is True


@pytest.mark.django_db
def test_a_token_for_another_field_is_refused(alice: User) -> None:
    from django.core import signing

    token = signing.dumps({"u": alice.pk, "s": "is_staff"}, salt=club_mail.UNSUBSCRIBE_SALT)
    assert club_mail.read_unsubscribe_token(token) is None


@pytest.mark.django_db
def test_the_profile_edit_page_sets_the_switches_and_the_time_zone(
    client: Client, alice: User
) -> None:
    client.force_login(alice)
    client.post(
        reverse("accounts:profile-edit"),
        {
            "display_name": "Alice",
            "language": "en",
            "time_zone": "Europe/Warsaw",
            "email_your_turn": "on",
        },
    )
    alice.refresh_from_db()
    assert alice.time_zone == "Europe/Warsaw"
    assert (alice.email_your_turn, alice.email_finished, alice.email_game_nights) == (
        True,
        False,
        False,
    )
    bad = client.post(
        reverse("accounts:profile-edit"),
        {"display_name": "Alice", "language": "en", "time_zone": "Mars/Olympus"},
    )
    assert bad.status_code == 200  # the form again, with its error; never a 500
    alice.refresh_from_db()
    assert alice.time_zone == "Europe/Warsaw"


# --- through a real worker ------------------------------------------------------------------


@pytest.fixture
def process_env(process_env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    """The worker sends through Django's locmem backend (tests/accounts/mailbox.py says how
    this test sees what the worker's backend stored)."""
    return {
        **process_env,
        "EMAIL_BACKEND": "tests.accounts.mailbox.EmailBackend",
        "MAILBOX_FILE": str(tmp_path / "mailbox.jsonl"),
    }


def read_mailbox(path: Path, count: int, timeout: float = 60.0) -> list[dict[str, Any]]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists():
            lines = [json.loads(line) for line in path.read_text().splitlines() if line]
            if len(lines) >= count:
                return lines
        time.sleep(0.2)
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_worker_sends_your_turn_once_into_the_locmem_backend(
    alice: User,
    bob: User,
    process_env: dict[str, str],
    celery_worker_process: subprocess.Popen[bytes],
) -> None:
    from accounts.tasks import ping
    from games.outbox import outbox

    for member in (alice, bob):
        member.language, member.email_your_turn = "pl", True
        member.save()
    game = build_game(alice, bob)  # the start tells the first to move (after its commit)
    member = game.seats.get(position=seat_to_move(game)).user
    assert notices.deliver_turn(game.pk) == 0  # the same wait: no second notice
    mailbox = Path(process_env["MAILBOX_FILE"])
    [sent] = read_mailbox(mailbox, 1)
    assert sent["to"] == [member.email]
    # The Polish catalogue's words ("Akropolis" is the game's title in Polish too).
    assert f"Twój ruch w grze Akropolis #{game.pk}." in sent["body"]
    assert "/members/unsubscribe/" in sent["body"]
    assert sent["headers"]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # Everything handed to the worker has run (a ping sent after it comes back after it):
    # still one e-mail.
    assert outbox.wait_until_idle(10)
    assert ping.delay().get(timeout=30) == "pong"
    assert len(read_mailbox(mailbox, 2, timeout=1)) == 1
    note = Notification.objects.get(user=member, kind="your_turn")
    assert note.emailed_at is not None
    # Nothing was sent by this process (the test's own locmem outbox stays empty).
    assert mail.outbox == []


@pytest.mark.django_db
def test_the_invited_who_asked_for_it_are_emailed_about_a_game_night(
    alice: User,
    bob: User,
    carol: User,
    eager_mail: list[int],
    django_capture_on_commit_callbacks: Any,
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from games import services as game_services

    bob.email_game_nights = True
    bob.save()
    with django_capture_on_commit_callbacks(execute=True):
        game_services.schedule_night(
            host=alice,
            engine_slug="babylon",
            players=3,
            starts_at=timezone.now() + timedelta(days=1),
            bot_level="easy",
            invited=[bob, carol],
        )
    # Both are notified; only bob asked for e-mail about game nights.
    assert Notification.objects.filter(kind="night_invited").count() == 2
    [message] = mail.outbox
    assert message.to == ["bob@example.com"]
    assert "Alice invites you to a game night: Babylon" in message.body


LONG_SITE = "https://" + "board-games." * 12 + "example.org/"


@pytest.mark.django_db
@pytest.mark.parametrize("policy_name", ["default", "SMTP"])
def test_list_unsubscribe_stays_a_plain_url_however_long(
    settings, alice: User, policy_name: str
) -> None:
    """Issue 33, item 5: the header was folded into RFC 2047 encoded-words
    (`=?utf-8?q?=3Chttp…`), which mail clients do not read as RFC 8058's one-click link. The
    message as the backends write it (the SMTP backend with Python's SMTP policy) is parsed
    with Python's `email` package: the header's raw line is the plain `<https://…>`."""
    import email
    import email.policy

    settings.SITE_URL = LONG_SITE
    alice.email_finished = True
    alice.save()
    note = services.notify(
        user=alice,
        kind=Notification.Kind.FINISHED,
        params={"game": 5, "slug": "babylon", "place": 1, "players": 2},
    )
    assert club_mail.send_notification_email(note.pk) is True
    [message] = mail.outbox
    raw = message.message(policy=getattr(email.policy, policy_name)).as_bytes()
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    url = parsed["List-Unsubscribe"]
    assert url.startswith(f"<{LONG_SITE}members/unsubscribe/") and url.endswith("/>")
    assert len(url) > 200
    # Read as a mail client reads it: the raw header, without decoding anything.
    plain = email.message_from_bytes(raw, policy=email.policy.compat32)["List-Unsubscribe"]
    assert plain == url and "=?" not in plain
    assert parsed["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # The link in the body is the same link.
    assert url[1:-1] in message.body


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "question", "done"),
    [
        (
            "en",
            "Stop the e-mails that tell you it is your turn?",
            "Done: you will no longer get an e-mail when it is your turn.",
        ),
        (
            "hu",
            "Ne küldjünk több e-mailt arról, hogy te következel?",
            "Kész: többé nem küldünk e-mailt, amikor te következel.",
        ),
        (
            "pl",
            "Przestać wysyłać e-maile o tym, że nadszedł twój ruch?",
            "Gotowe: nie dostaniesz już e-maila, gdy nadejdzie twój ruch.",
        ),
    ],
)
def test_the_unsubscribe_page_speaks_the_members_language_plainly(
    alice: User, language: str, question: str, done: str
) -> None:
    """Issue 33, item 5: the page followed the browser's language, not the member's (who is
    not signed in there: the link is opened from the e-mail), and asked
    'Stop e-mails for "e-mail me when it is my turn"?'."""
    alice.language, alice.email_your_turn = language, True
    alice.save()
    url = reverse(
        "accounts:unsubscribe", args=[club_mail.unsubscribe_token(alice, "email_your_turn")]
    )
    browser = Client(headers={"accept-language": "de, en;q=0.5" if language != "en" else "pl"})
    page = browser.get(url).text
    assert f'<html lang="{language}">' in page
    assert question in page
    page = browser.post(url).text
    assert f'<html lang="{language}">' in page
    assert done in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "zone", "sentence"),
    [
        (
            "en",
            "Europe/Budapest",
            "Alice invites you to a game night: Babylon on Jan. 9, 2027 at 06:10 CET.",
        ),
        (
            "en",
            "Europe/London",
            "Alice invites you to a game night: Babylon on Jan. 9, 2027 at 05:10 GMT.",
        ),
        (
            "hu",
            "Europe/Budapest",
            "Alice meghív egy játékestre: Babylon, 2027. január 9., 06:10 CET.",
        ),
        (
            "pl",
            "Europe/London",
            "Alice zaprasza cię na wieczór gier: Babilon, 9 stycznia 2027, godz. 05:10 GMT.",
        ),
    ],
)
def test_times_in_notices_and_emails_carry_their_zone(
    alice: User,
    bob: User,
    eager_mail: list[int],
    django_capture_on_commit_callbacks: Any,
    language: str,
    zone: str,
    sentence: str,
) -> None:
    """Issue 33, item 5: "06:10" for one reader and "05:10" for another, with no zone; and
    "…6:23 a.m.." at the end of a sentence."""
    from datetime import UTC, datetime

    import time_machine

    from games import services as game_services

    bob.language, bob.time_zone, bob.email_game_nights = language, zone, True
    bob.save()
    with (
        time_machine.travel(datetime(2027, 1, 2, 12, 0, tzinfo=UTC), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        game_services.schedule_night(
            host=alice,
            engine_slug="babylon",
            players=3,
            starts_at=datetime(2027, 1, 9, 5, 10, tzinfo=UTC),
            bot_level="easy",
            invited=[bob],
        )
    [message] = mail.outbox
    assert sentence in message.body
    client = Client()
    client.force_login(bob)
    assert sentence in client.get(reverse("accounts:notifications")).text


@pytest.mark.django_db
def test_each_email_switch_sits_in_its_own_label(client: Client, alice: User) -> None:
    """Issue 33, item 8: the switches sat far from their labels (a label above a lone box):
    each box is inside the label that names it, right before the words."""
    client.force_login(alice)
    page = client.get(reverse("accounts:profile-edit")).text
    for name, words in (
        ("email_your_turn", "E-mail me when it is my turn"),
        ("email_finished", "E-mail me when a game has finished"),
        ("email_game_nights", "E-mail me about game nights I am invited to"),
    ):
        found = re.search(
            rf'<label><input type="checkbox" name="{name}"[^>]*> ([^<]+)</label>', page
        )
        assert found is not None and found[1].strip() == words, name
