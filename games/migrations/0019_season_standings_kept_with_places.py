from django.db import migrations, models


def forget_kept_standings(apps, schema_editor):
    """The kept rows have no sum of ranks nor places: every season is counted again when a
    page next asks."""
    apps.get_model("games", "SeasonStanding").objects.all().delete()
    apps.get_model("games", "Season").objects.update(standings_stored=False)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0018_season_standings_and_final_places"),
    ]

    operations = [
        migrations.RunPython(forget_kept_standings, migrations.RunPython.noop),
        migrations.RemoveField(model_name="seasonstanding", name="average"),
        migrations.AddField(
            model_name="seasonstanding",
            name="rank_sum",
            field=models.PositiveIntegerField(default=0),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="seasonstanding",
            name="place",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="season",
            name="standings_min_games",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="seasonstanding",
            index=models.Index(
                fields=["season", "engine_slug", "place"], name="season_standing_place"
            ),
        ),
        migrations.AddIndex(
            model_name="seasonstanding",
            index=models.Index(fields=["user", "season"], name="season_standing_user"),
        ),
    ]
