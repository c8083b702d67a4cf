"""`python -m app.serve [gunicorn options]`: gunicorn -c python:app.gunicorn_conf wsgi:app, settings checked first.

gunicorn reads WEB_CONCURRENCY itself when it is imported, before any configuration file, and
answers a bad value with a traceback that names no variable. Here the settings are parsed first, so
WEB_CONCURRENCY=x stops the start with the same one line as any other bad setting (exit 78).
"""
import sys

from app.config import load_settings
from app.readiness import exit_on_bad_settings


def main(argv=None):
    with exit_on_bad_settings():
        load_settings()
    from gunicorn.app.wsgiapp import run

    sys.argv = ["gunicorn", "-c", "python:app.gunicorn_conf", *(sys.argv[1:] if argv is None else argv), "wsgi:app"]
    return run()


if __name__ == "__main__":
    sys.exit(main())
