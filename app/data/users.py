"""Demo users: sellers (each with a fixed access token, so demo instructions can quote it), buyers,
and one OAuth application."""

# user id: (nickname, site, what they sell, house brand of the fashion sellers)
SELLERS = {
    1001: ("TALLER_SUR", "MLA", "parts", None),
    1002: ("REPUESTOS_NORTE", "MLA", "parts", None),
    1003: ("MODA_PALERMO", "MLA", "fashion", "Palermo Basics"),
    2001: ("AUTOPECAS_SP", "MLB", "parts", None),
    2002: ("MODA_PAULISTA", "MLB", "fashion", "Vila Paulista"),
    3001: ("MODA_CDMX", "MLM", "fashion", "Casa Roma"),
    3002: ("REFACCIONES_MTY", "MLM", "parts", None),
    4001: ("MODA_MONTEVIDEO", "MLU", "fashion", "Rambla"),
    5001: ("CALZADO_SANTIAGO", "MLC", "fashion", "Cordillera"),
    6001: ("MODA_BOGOTA", "MCO", "fashion", "Café Moda"),
}

DEMO_TOKENS = {
    1001: "DEMO-1001-6f1c2a9e", 1002: "DEMO-1002-b83d04f7", 1003: "DEMO-1003-2ae95c61",
    2001: "DEMO-2001-9c4e7b12", 2002: "DEMO-2002-41f0d8a3", 3001: "DEMO-3001-d7a2e596",
    3002: "DEMO-3002-05bb3c9e", 4001: "DEMO-4001-e3196f0d", 5001: "DEMO-5001-7d58a2c4",
    6001: "DEMO-6001-a06c3f81",
}

BUYERS = {
    9101: ("JUANPEREZ_AR", "MLA"), 9102: ("LAURAGOMEZ_BA", "MLA"), 9103: ("MARTIN_CBA", "MLA"),
    9104: ("SOFIA.ROSARIO", "MLA"), 9201: ("RAFAEL_SP", "MLB"), 9202: ("ANACLARA_RJ", "MLB"),
    9301: ("LUPITA_GDL", "MLM"), 9302: ("CARLOS_MTY", "MLM"),
}
BUYERS_BY_SITE = {}
for _buyer_id, (_, _site) in BUYERS.items():
    BUYERS_BY_SITE.setdefault(_site, []).append(_buyer_id)

APPLICATIONS = [{"client_id": "5501", "client_secret": "demo-secret-5501", "owner_id": 1001,
                 "redirect_uri": "https://example.org/cb"}]


def sellers_of(kind, site_id=None):
    return [uid for uid, (_, site, what, _) in SELLERS.items() if what == kind and site_id in (None, site)]


def users():
    rows = [{"id": uid, "nickname": nick, "site_id": site, "access_tokens": [DEMO_TOKENS[uid]]}
            for uid, (nick, site, _, _) in SELLERS.items()]
    rows += [{"id": uid, "nickname": nick, "site_id": site} for uid, (nick, site) in BUYERS.items()]
    return rows
