"""The application factory: config, database, API, blueprints, hooks and CLI, in that order."""
import logging

from swagger_ui_bundle import swagger_ui_path
from werkzeug.middleware.proxy_fix import ProxyFix

from app import cli
from app.api import register_blueprints
from app.config import load_settings
from app.db import default_sqlite_url, install, make_database
from app.flask_app import ServiceFlask
from app.http import compression, cors, hooks
from app.http.ratelimit import limiter
from app.http.smorest import Api
from app.replicas import ReplicaSet
from app.services.bulk import JobQueue, limits_for

API_DESCRIPTION = """Vehicle-part compatibilities (fitment), fashion size charts, and the conventions
shared by every endpoint: JSON bodies, JSONP with `callback`, the error object
`{message, error, status, cause}`, `attributes` reduction, OPTIONS self-description and
`limit`/`offset` pagination. Send `Authorization: Bearer <token>`; get a token from
`POST /oauth/token`."""


def create_app(config=None):
    # The app's only static files are Swagger UI's, from the pinned swagger-ui-bundle package: /docs
    # then works offline and shows the version we tested, never whatever a CDN serves today.
    app = ServiceFlask(__name__, instance_relative_config=True, static_folder=str(swagger_ui_path),
                       static_url_path="/docs/assets")
    app.config.update(load_settings(overrides=config))
    app.config.update(
        API_TITLE="Marketplace listings API",
        API_VERSION="1.0",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL="/docs/assets/",
        RATELIMIT_HEADERS_ENABLED=True,
        JSON_SORT_KEYS=False,
    )
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    _configure_logging(app)

    database_url = app.config["DATABASE_URL"] or default_sqlite_url(app.instance_path)
    app.extensions["database_url"] = database_url  # what operator commands say they act on
    install(make_database(database_url, app.config), ReplicaSet.from_settings(app.config))
    app.extensions["bulk_queue"] = JobQueue.from_settings(app.config, database_url, limits_for(app.config))

    api = Api(app, spec_kwargs={"info": {"description": API_DESCRIPTION}})
    # First of the after_request functions, so it runs last: it compresses the final body.
    compression.init_app(app)
    limiter.init_app(app)
    register_blueprints(api)
    hooks.init_app(app)
    cors.init_app(app)
    cli.init_app(app)
    if app.config["FORWARDED_PROXIES"]:
        # Behind nginx every peer is nginx: the client's address, which rate limits without a token
        # count by, is the entry our proxies appended, never one the client wrote itself.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=app.config["FORWARDED_PROXIES"])
    return app


def _configure_logging(app):
    from app.http.request_id import RequestIdFilter
    from app.logs import add_filter

    logger = logging.getLogger("app")
    if not any(isinstance(f, RequestIdFilter) for f in logger.filters):
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter(
            "%(asctime)s %(levelname)s [%(request_id)s] %(name)s: %(message)s"))
        handler.addFilter(RequestIdFilter())
        logger.addHandler(handler)
        logger.addFilter(RequestIdFilter())
        logger.propagate = False
    # On the handler, so that the records of app.* child loggers, which propagate to it, pass it too.
    for handler in logger.handlers:
        add_filter(handler)
    # The development server's access lines quote the URL.
    add_filter(logging.getLogger("werkzeug"))
    logger.setLevel(app.config["LOG_LEVEL"])
