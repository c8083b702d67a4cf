"""Vehicle finder examples (extensions.md F): placeholders replaced below by the demo's answers."""
DOMAIN = {}
TOP_VALUES_REQUEST = {}
TOP_VALUES = []
SEARCH_REQUEST = {}
SEARCH = {}
PRODUCT = {}
