"""The conventions shared by every endpoint, installed once on the app."""
