"""The application gunicorn and `flask --app wsgi` load; a bad setting stops it with one line (exit 78)."""
from app import create_app
from app.readiness import exit_on_bad_settings

with exit_on_bad_settings():
    app = create_app()
