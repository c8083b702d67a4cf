"""Health, currencies, sites and OAuth examples: answers of the demo."""

HEALTH = {"status": "ok", "database": "ok"}

# The first three of the demo's eight.
CURRENCIES = [
    {"id": "ARS", "description": "Peso argentino", "symbol": "$", "decimal_places": 2},
    {"id": "BRL", "description": "Real", "symbol": "R$", "decimal_places": 2},
    {"id": "CLP", "description": "Peso chileno", "symbol": "$", "decimal_places": 0},
]

CURRENCY = {"id": "ARS", "description": "Peso argentino", "symbol": "$", "decimal_places": 2}

# The first three of the demo's seven.
SITES = [
    {"id": "MCO", "name": "Colombia", "default_currency_id": "COP", "language": "es"},
    {"id": "MLA", "name": "Argentina", "default_currency_id": "ARS", "language": "es"},
    {"id": "MLB", "name": "Brasil", "default_currency_id": "BRL", "language": "pt"},
]

SITE = {"id": "MLA", "name": "Argentina", "default_currency_id": "ARS", "language": "es"}

# The demo application of seller 1001 (client_credentials).
TOKEN_REQUEST = {"grant_type": "client_credentials", "client_id": "5501", "client_secret": "demo-secret-5501"}

TOKEN = {
    "access_token": "APP_USR-HYvPPFuQyNTy59IxjG1MDP6EXal7eZfdXydLmtlOipw", "token_type": "Bearer",
    "expires_in": 21600, "scope": "read write", "user_id": 1001,
    "refresh_token": "TG-L6tq9XqqfjNODJWelI2zhloXfC0A9YSwUT9X5Psh_7U",
}
