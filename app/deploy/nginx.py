"""The nginx site configuration in front of gunicorn, rendered from app/deploy/nginx.conf.

`python -m app.deploy.nginx --server-name NAME [--listen 80] [--upstream HOST:PORT|unix:PATH]
[--tls-certificate CRT --tls-key KEY [--redirect-listen 80]]` prints it; the upstream defaults to
where gunicorn_conf binds (BIND / PORT), the body limit to MAX_CONTENT_LENGTH (J1's to BULK_MAX_BYTES),
so nginx and gunicorn are configured from one environment. The site answers only its server name, so it
goes beside the sites nginx already has (Debian's default included) without removing any.
"""
import argparse
import pathlib
import re

from app.config import gunicorn_bind, load_settings
from app.readiness import exit_on_bad_settings

TEMPLATE = pathlib.Path(__file__).with_name("nginx.conf")

# TLS ends here: the certificate chain and its key (e.g. Let's Encrypt's fullchain.pem and privkey.pem),
# the protocols no client in use lacks, and sessions resumed across connections and workers.
TLS = """
    ssl_certificate {certificate};
    ssl_certificate_key {key};
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_session_cache shared:listings_tls:10m;
    ssl_session_timeout 1d;
"""
# Plain HTTP only redirects: 308 keeps the method and body of a POST sent there by mistake.
REDIRECT = """
server {{
    listen {listen};
    server_name {server_name};
    server_tokens off;
    return 308 https://$host$request_uri;
}}
"""


def body_limit_message(max_bytes):
    """The app's 413 message (app/http/errors.py) for this limit."""
    size = f"{max_bytes // 1048576} MiB" if max_bytes % 1048576 == 0 else f"{max_bytes} bytes"
    return f"Request body too large: the limit is {size}"


def bulk_limit_message(max_bytes):
    """The app's 413 message for a bulk job's body (app/services/bulk/bodies.py) past this limit."""
    return (f"Request body too large: a bulk job takes at most {max_bytes} bytes (BULK_MAX_BYTES); "
            "split it into several jobs")


def render(listen, upstream, max_body_bytes, server_name="_", tls=None, redirect_listen="80",
           bulk_max_body_bytes=None):
    """The site; `tls` is (certificate path, key path) or None. With TLS, `listen` gets `ssl` and a
    second server on `redirect_listen` sends plain HTTP there. J1's body limit defaults to
    BULK_MAX_BYTES's default."""
    if bulk_max_body_bytes is None:
        bulk_max_body_bytes = load_settings({})["BULK_MAX_BYTES"]
    values = {"listen": f"{listen} ssl" if tls else listen, "upstream": upstream, "server_name": server_name,
              "max_body_bytes": str(max_body_bytes), "max_body_message": body_limit_message(max_body_bytes),
              "bulk_max_body_bytes": str(bulk_max_body_bytes),
              "bulk_max_body_message": bulk_limit_message(bulk_max_body_bytes),
              "tls": TLS.format(certificate=tls[0], key=tls[1]) if tls else "",
              "redirect": REDIRECT.format(listen=redirect_listen, server_name=server_name) if tls else ""}
    return re.sub(r"\{\{(\w+)\}\}", lambda match: values[match.group(1)], TEMPLATE.read_text())


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m app.deploy.nginx", description=__doc__.splitlines()[0])
    parser.add_argument("--server-name", default="_",
                        help="the host name(s) clients use, e.g. api.example.org (nginx's server_name)")
    parser.add_argument("--listen", default=None, help="nginx's listen directive (default 80, with TLS 443)")
    parser.add_argument("--upstream", default=None, help="gunicorn's address (default: BIND, or 127.0.0.1:PORT)")
    parser.add_argument("--tls-certificate", help="PEM certificate chain: serve HTTPS (with --tls-key)")
    parser.add_argument("--tls-key", help="PEM private key of the certificate")
    parser.add_argument("--redirect-listen", default="80", help="with TLS: where plain HTTP is redirected from")
    args = parser.parse_args(argv)
    if bool(args.tls_certificate) != bool(args.tls_key):
        parser.error("--tls-certificate and --tls-key go together")
    tls = (args.tls_certificate, args.tls_key) if args.tls_certificate else None
    with exit_on_bad_settings():
        settings = load_settings()
        upstream = args.upstream or gunicorn_bind()
    print(render(args.listen or ("443" if tls else "80"), upstream, settings["MAX_CONTENT_LENGTH"], args.server_name,
                 tls, args.redirect_listen, settings["BULK_MAX_BYTES"]), end="")


if __name__ == "__main__":
    main()
