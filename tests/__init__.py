"""The test suite: one package per area (compat, charts, catalog, http, ops); shared data and helpers here."""
