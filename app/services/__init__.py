"""Domain rules. Services never import Flask's request: the HTTP layer parses and serialises."""
