// Renders the API's own contract, at the version chosen above it (docs/api.md, "Versions"): the versions are the ones
// the latest document lists for its Medparts-Version parameter. "Authorize" runs the OAuth2 client credentials flow
// against the tokenUrl in the document, so "Try it out" works with a client id and secret.
const DOCUMENT = "/customer/api/openapi.json";

const OPTIONS = {
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
  // No calls to the public validator service: the page works offline and leaks nothing.
  validatorUrl: null,
  docExpansion: "list",
  defaultModelsExpandDepth: 1,
  displayRequestDuration: true,
};

/** The operator plane's paths (`/admin/api`, `/scim/v2`): shown in a second panel under the buyers' and vendors'. */
const isOperatorPath = (path) => path.startsWith("/admin/api/") || path.startsWith("/scim/v2");

/** The contract with only the paths `keep` chooses (components, tags and webhooks stay: references still resolve). */
const withPaths = (contract, keep) => ({
  ...contract,
  paths: Object.fromEntries(Object.entries(contract.paths).filter(([path]) => keep(path))),
});

/**
 * Swagger UI stops rendering a list of operations once a document has about 130 of them (measured: 127 render, 132
 * do not, whatever the operations; docs/decisions.md), so the one document is shown in two panels: the buyers' and
 * vendors' APIs with the webhooks, then the operator plane's, each with every schema. "Authorize" is in both.
 */
async function render(url) {
  const contract = await (await fetch(url)).json();
  window.ui = SwaggerUIBundle({ ...OPTIONS, spec: withPaths(contract, (path) => !isOperatorPath(path)), dom_id: "#swagger-ui" });
  const { webhooks: _webhooks, ...operator } = withPaths(contract, isOperatorPath);
  window.operatorUi = SwaggerUIBundle({
    ...OPTIONS,
    spec: { ...operator, info: { ...contract.info, title: `${contract.info.title}: operator plane` } },
    dom_id: "#swagger-ui-operator",
  });
}

async function offerVersions() {
  const select = document.getElementById("api-version");
  const latest = await (await fetch(DOCUMENT)).json();
  const versions = latest.components?.parameters?.ApiVersion?.schema?.enum ?? [latest.info.version];
  for (const version of [...versions].reverse()) {
    const option = document.createElement("option");
    option.value = version;
    option.textContent = version === latest.info.version ? `${version} (latest)` : version;
    select.append(option);
  }
  select.addEventListener("change", () =>
    render(select.value === latest.info.version ? DOCUMENT : `${DOCUMENT}?version=${encodeURIComponent(select.value)}`),
  );
}

render(DOCUMENT);
offerVersions();
