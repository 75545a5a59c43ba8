// Renders the API's own contract, at the version chosen above it (docs/api.md, "Versions"): the versions are the ones
// the latest document lists for its Medparts-Version parameter. "Authorize" runs the OAuth2 client credentials flow
// against the tokenUrl in the document, so "Try it out" works with a client id and secret.
const DOCUMENT = "/customer/api/openapi.json";

function render(url) {
  window.ui = SwaggerUIBundle({
    url,
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    // No calls to the public validator service: the page works offline and leaks nothing.
    validatorUrl: null,
    docExpansion: "list",
    defaultModelsExpandDepth: 1,
    displayRequestDuration: true,
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
