from __future__ import annotations

from celery import shared_task


@shared_task
def send_notification(user_id: int, message: str, link: str = "") -> int:
    """Notify a member from a worker process (used by games, and to check the live path)."""
    from accounts import services
    from accounts.models import User

    user = User.objects.get(pk=user_id)
    return services.notify(user=user, message=message, link=link).pk


@shared_task(acks_late=True, ignore_result=True)  # no one waits for it (games/tasks.py)
def send_notification_email(notification_id: int) -> bool:
    """E-mail a notification to its member (accounts/mail.py); a second delivery sends nothing."""
    from accounts import mail

    return mail.send_notification_email(notification_id)


@shared_task
def ping() -> str:
    """Answers at once: lets a process check that a worker is consuming."""
    return "pong"
