"""Conventions every endpoint shares: errors, OpenAPI, contract, security, auth and rate limits."""
