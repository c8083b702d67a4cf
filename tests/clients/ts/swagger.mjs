// swagger-client (the library behind Swagger UI) as its users call it: resolve the served document,
// then call operations by tag and operationId. Run as `node swagger.mjs '<settings JSON>'`; prints one
// JSON object, which tests/clients/test_swagger_client.py checks.
import SwaggerClient from "swagger-client";

const settings = JSON.parse(process.argv[2] ?? "{}");
const url = `${settings.baseUrl}/openapi.json`;

// What an operation answered: status, body and the headers the test looks at.
function answer(response) {
  return { status: response.status, body: response.body, etag: response.headers.etag ?? null };
}

// A refused call rejects with the response attached; keep it as an answer.
async function call(promise) {
  try {
    return answer(await promise);
  } catch (error) {
    if (error.response) {
      return answer(error.response);
    }
    throw error;
  }
}

const client = await SwaggerClient({ url });
const operations = [];
for (const [path, item] of Object.entries(client.spec.paths)) {
  for (const [method, operation] of Object.entries(item)) {
    if (typeof operation !== "object" || !operation.operationId) {
      continue;
    }
    const tag = (operation.tags ?? ["default"])[0];
    operations.push({
      method: method.toUpperCase(),
      path,
      operationId: operation.operationId,
      tag,
      callable: typeof client.apis[tag]?.[operation.operationId] === "function",
    });
  }
}

const token = await call(client.apis.oauth.post_token({}, {
  requestBody: { grant_type: "client_credentials", client_id: settings.clientId, client_secret: settings.clientSecret },
}));
const seller = await SwaggerClient({
  url,
  authorizations: { bearerAuth: { value: token.body.access_token } },
});
const item = settings.itemId;
const list = await call(seller.apis.compatibilities.get_item_compatibilities({ item_id: item, extended: true }));
const changeNote = (note, tag) => call(seller.apis.compatibilities.put_item_compatibilities(
  { item_id: item, "If-Match": tag },
  { requestBody: { update: { products: [{ id: settings.productId, note }] } } },
));
const written = await changeNote("Escrita por swagger-client", list.etag);
const stale = await changeNote("Perdida", list.etag);
console.log(JSON.stringify({
  errors: client.errors,
  operations,
  token,
  public: {
    sites: await call(client.apis.catalog.get_sites()),
    check: await call(client.apis.fitment.post_item_compatibility_check(
      { item_id: item }, { requestBody: { product_id: settings.productId } })),
    by_execute: await call(client.execute({ operationId: "get_site_by_id", parameters: { site_id: settings.siteId } })),
    without_token: await call(client.apis.compatibilities.get_item_compatibilities({ item_id: item })),
  },
  seller: {
    list,
    written,
    stale,
    history: await call(seller.apis.history.get_item_compatibilities_history({ item_id: item, limit: 5 })),
  },
}));
