"""One OpenAPI document per process for the apps that document the same blueprints with the same
settings.

The document is a function of the code and of the API_/OPENAPI_ settings alone, and resolving every
schema into it is most of what building an app costs. A process that builds several apps (the tests
build one per test) resolves it once; a gunicorn worker builds one app and sees no difference.
"""


class SharedDocumentMixin:
    """For flask_smorest.Api: `register_blueprints` registers the app's blueprints and takes the
    document an earlier app of this process built for them. A blueprint registered afterwards (the
    tests' probes) first gives the app a document of its own, so the shared one never changes.
    The class using it supplies `_new_spec_kwargs()` and `_document_conventions()`."""

    _documents = {}  # key -> (spec, flask plugin, marshmallow plugin)

    def init_app(self, app, *, spec_kwargs=None):
        self._documented, self._shared = [], False
        super().init_app(app, spec_kwargs=spec_kwargs)

    def register_blueprints(self, blueprints):
        key = (tuple(blp.name for blp in blueprints),
               tuple(sorted((name, repr(value)) for name, value in self._app.config.items()
                            if name.startswith(("API_", "OPENAPI_")))))
        document = self._documents.get(key)
        if document is None:
            for blp in blueprints:
                self.register_blueprint(blp)
            self._documents[key] = self.spec, self.flask_plugin, self.ma_plugin
        else:
            for blp in blueprints:
                self._app.extensions["flask-smorest"]["blp_name_to_api"][blp.name] = self
                self._app.register_blueprint(blp)
                self._documented.append((blp, blp.name, None))
            self.spec, self.flask_plugin, self.ma_plugin = document
        self._shared = True

    def register_blueprint(self, blp, *, parameters=None, **options):
        if self._shared:
            self._own_document()
        super().register_blueprint(blp, parameters=parameters, **options)
        self._documented.append((blp, options.get("name", blp.name), parameters))

    def _own_document(self):
        """This app's blueprints documented anew, in a document of its own."""
        self._shared = False
        self._init_spec(**self._new_spec_kwargs())
        self._document_conventions()
        for blp, name, parameters in self._documented:
            blp.register_views_in_doc(self, self._app, self.spec, name=name, parameters=parameters)
            self.spec.tag({"name": name, "description": blp.description})
