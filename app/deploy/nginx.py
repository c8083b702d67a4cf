"""The nginx site configuration in front of gunicorn, rendered from app/deploy/nginx.conf.

`python -m app.deploy.nginx [--listen 80] [--upstream HOST:PORT|unix:PATH]` prints it; the upstream
defaults to where gunicorn_conf binds (BIND / PORT), the body limit to MAX_CONTENT_LENGTH, so nginx
and gunicorn are configured from one environment.
"""
import argparse
import pathlib
import re

from app.config import gunicorn_bind, load_settings
from app.readiness import exit_on_bad_settings

TEMPLATE = pathlib.Path(__file__).with_name("nginx.conf")


def body_limit_message(max_bytes):
    """The app's 413 message (app/http/errors.py) for this limit."""
    size = f"{max_bytes // 1048576} MiB" if max_bytes % 1048576 == 0 else f"{max_bytes} bytes"
    return f"Request body too large: the limit is {size}"


def render(listen, upstream, max_body_bytes):
    values = {"listen": listen, "upstream": upstream, "max_body_bytes": str(max_body_bytes),
              "max_body_message": body_limit_message(max_body_bytes)}
    return re.sub(r"\{\{(\w+)\}\}", lambda match: values[match.group(1)], TEMPLATE.read_text())


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m app.deploy.nginx", description=__doc__.splitlines()[0])
    parser.add_argument("--listen", default="80", help="nginx's listen directive (default 80)")
    parser.add_argument("--upstream", default=gunicorn_bind(),
                        help="gunicorn's address (default: BIND, or 127.0.0.1:PORT)")
    args = parser.parse_args(argv)
    with exit_on_bad_settings():
        max_body = load_settings()["MAX_CONTENT_LENGTH"]
    print(render(args.listen, args.upstream, max_body), end="")


if __name__ == "__main__":
    main()
