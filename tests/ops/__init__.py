"""Operations: CLI, gunicorn, connection pools, schema versions, prepared SQL and the smoke test."""
