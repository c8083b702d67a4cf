"""What runs the service in production besides the app: gunicorn's worker class and the nginx site
configuration that goes in front of gunicorn (README "Production")."""
