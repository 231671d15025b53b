from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from accounts.models import User
from rulebooks.importers import CONTENT_DIR, import_all, import_rulebook
from rulebooks.services import EDITORS_GROUP
from tests.conftest import make_user

HTMX = {"HX-Request": "true"}


@pytest.fixture
def rulebooks(db: None) -> None:
    """The shipped rulebooks, imported as `make run` does."""
    import_all()


@pytest.fixture
def babylon(db: None) -> None:
    """Only the Babylon rulebook (Hungarian source, Polish and English): enough for most tests."""
    import_rulebook(CONTENT_DIR / "babylon")


@pytest.fixture
def editor(db: None) -> User:
    user = make_user("edna", display_name="Edna")
    user.groups.add(Group.objects.get_or_create(name=EDITORS_GROUP)[0])
    return user


@pytest.fixture
def editor_client(editor: User) -> Client:
    return login(editor)


def login(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client
