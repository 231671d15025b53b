from __future__ import annotations

from django.urls import path

from rulebooks import views

app_name = "rulebooks"

section = "<slug:slug>/<str:lang>/<slug:key>/"

urlpatterns = [
    path("", views.index, name="index"),
    path("search/", views.search, name="search"),
    path("<slug:slug>/", views.book, name="book"),
    path("<slug:slug>/compare/", views.compare, name="compare"),
    path(section, views.section, name="section"),
    path(section + "edit/", views.section_edit, name="section-edit"),
    path(section + "preview/", views.section_preview, name="section-preview"),
    path(section + "history/", views.section_history, name="section-history"),
    path(section + "diff/", views.section_diff, name="section-diff"),
    path(section + "restore/", views.section_restore, name="section-restore"),
    path(section + "mark-current/", views.section_mark_current, name="section-mark-current"),
]
