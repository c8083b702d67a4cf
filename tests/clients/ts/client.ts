// A seller's program and a shop's call, written as a user of openapi-typescript and openapi-fetch
// writes them: types generated from the served document (./schema.d.ts, made by the test), one
// `createClient<paths>`, no casts. Run as `node out/client.js '<settings JSON>'`; it prints one JSON
// object of what it saw, which tests/clients/test_typescript_client.py checks.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
type Api = ReturnType<typeof createClient<paths>>;
type Settings = {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  domainId: string;
  siteId: string;
  itemId: string;
};

const settings: Settings = JSON.parse(process.argv[2] ?? "{}");
const { baseUrl } = settings;

// The body of a successful call; a failed one stops the program with its status and error object.
function ok<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data === undefined) {
    throw new Error(`${what}: ${result.response.status} ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

async function token(): Promise<Schemas["Token"]> {
  const api = createClient<paths>({ baseUrl });
  return ok(await api.POST("/oauth/token", {
    body: { grant_type: "client_credentials", client_id: settings.clientId, client_secret: settings.clientSecret },
    headers: { "Content-Type": "application/x-www-form-urlencoded" }, // the body's documented media type
  }), "token");
}

// F1..F4, the finder's cascade: the domain's attributes in refinement order; for each attribute that
// identifies the parent vehicle, the values among the vehicles matching what is known so far (the
// seller picks the first: most vehicles); then the matching vehicles (every version) and one of them.
async function finder(api: Api) {
  const domain = ok(await api.GET("/catalog_domains/{domain_id}", {
    params: { path: { domain_id: settings.domainId } },
  }), "catalog domain");
  const attributes = domain.attributes;
  const known: Schemas["KnownAttribute"][] = [];
  const picked: Schemas["KnownValue"][] = [];
  const steps = [];
  for (const attribute of attributes.filter((a) => a.hierarchy === "PARENT_PK")) {
    const attributeId = attribute.id;
    const values = ok(await api.POST("/catalog_domains/{domain_id}/attributes/{attribute_id}/top_values", {
      params: { path: { domain_id: settings.domainId, attribute_id: attributeId } },
      body: { known_attributes: known, limit: 10 },
    }), "top values");
    steps.push({ attribute: attributeId, values });
    const first = values.find((value) => typeof value.id === "string");
    if (typeof first?.id !== "string") {
      break; // only values without an id: nothing to refine by
    }
    known.push({ id: attributeId, value_ids: [first.id] });
    picked.push({ id: attributeId, value_id: first.id });
  }
  const search = ok(await api.POST("/catalog_compatibilities/products_search/chunks", {
    body: {
      domain_id: settings.domainId,
      site_id: settings.siteId,
      known_attributes: known,
      limit: 50,
      sort: { attribute_id: "SHORT_VERSION", order: "ASC" },
    },
  }), "products search");
  const vehicles = search.results.map((p) => p.id);
  const chosen = vehicles[0];
  if (chosen === undefined) {
    throw new Error("the cascade found no vehicle");
  }
  const product = ok(await api.GET("/products/{product_id}", { params: { path: { product_id: chosen } } }),
    "product");
  return {
    attributes: attributes.map((a) => a.id),
    steps,
    picked,
    search: { paging: search.paging, vehicles },
    chosen,
    product: { id: product.id, name: product.name, parent_id: product.parent_id },
  };
}

// H2, H3: the item's compatibilities with the vehicles found; then read the list and its ETag and
// change a note with If-Match; the same change with the tag read before is refused (412).
async function compatibilities(api: Api, vehicles: string[], noted: string) {
  const path = { item_id: settings.itemId };
  const created = ok(await api.POST("/items/{item_id}/compatibilities", {
    params: { path },
    body: { creation_source: "AUTOMATION", products: vehicles.map((id) => ({ id })) },
  }), "create");

  const read = async () => {
    const result = await api.GET("/items/{item_id}/compatibilities", { params: { path, query: { extended: true } } });
    const list = ok(result, "list");
    const tag = result.response.headers.get("ETag");
    if (tag === null) {
      throw new Error("the list came without an ETag");
    }
    const notes: Record<string, string | null> = {};
    for (const entry of list.products) {
      notes[String(entry.catalog_product_id)] = entry.note ?? null;
    }
    return { tag, encoding: result.response.headers.get("Content-Encoding"), notes };
  };
  const changeNote = (note: string, tag: string) => api.PUT("/items/{item_id}/compatibilities", {
    params: { path, header: { "If-Match": tag } },
    body: { update: { products: [{ id: noted, note }] } },
  });

  const before = await read();
  const written = await changeNote("Verificar la medida del disco", before.tag);
  ok(written, "conditional write");
  const after = await read();
  const stale = await changeNote("Cambio perdido", before.tag);
  return {
    created: created.created_compatibilities_count,
    before,
    written: { status: written.response.status, etag: written.response.headers.get("ETag") },
    after,
    stale: { status: stale.response.status, error: stale.error?.error ?? null, message: stale.error?.message ?? null },
    again: await read(),
  };
}

// B3, public: a shop asks, with no token, whether the item fits a vehicle, known fully or in part.
async function check(productId: string, partial: Schemas["KnownValue"][]) {
  const shop = createClient<paths>({ baseUrl });
  const url = "/items/{item_id}/check_compatibility";
  const params = { path: { item_id: settings.itemId } };
  const byProduct = ok(await shop.POST(url, { params, body: { product_id: productId } }), "check by product");
  const byAttributes = ok(await shop.POST(url, { params, body: { attributes: partial } }), "check by attributes");
  const verdicts: ("COMPATIBLE" | "NOT_COMPATIBLE" | "UNDETERMINED")[] = [
    byProduct.compatibility_status,
    byAttributes.compatibility_status,
  ];
  return { verdicts, by_product: byProduct, by_attributes: byAttributes };
}

// H1: the item's changes, newest first.
async function history(api: Api) {
  const page = ok(await api.GET("/items/{item_id}/compatibilities/history", {
    params: { path: { item_id: settings.itemId }, query: { limit: 20 } },
  }), "history");
  return {
    paging: page.paging,
    changes: page.results.map((change) => ({
      action: change.action,
      product_id: change.product_id ?? null,
      note: change.changes?.note ?? null,
      kind: change.actor.kind,
      client_id: change.actor.client_id ?? null,
    })),
  };
}

async function main() {
  const granted = await token();
  const accessToken = granted.access_token;
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${accessToken}` } });
  const found = await finder(api);
  const written = await compatibilities(api, found.search.vehicles, found.chosen);
  // The vehicle known as far as its parent (brand, model, year) less its last attribute: in part.
  const checked = await check(found.chosen, found.picked.slice(0, -1));
  console.log(JSON.stringify({
    token: { token_type: granted.token_type, user_id: granted.user_id, expires_in: granted.expires_in },
    finder: found,
    compatibilities: written,
    check: checked,
    history: await history(api),
  }));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
