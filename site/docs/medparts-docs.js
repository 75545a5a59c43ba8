// Renders the API's own contract. "Authorize" runs the OAuth2 client credentials flow against the
// tokenUrl in the document, so "Try it out" works with a client id and secret.
window.ui = SwaggerUIBundle({
  url: "/customer/api/openapi.json",
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
