// One audience's API reference, rendered by Scalar (vendored ES module build: /docs/assets/scalar/standalone.esm.js)
// from the API's own OpenAPI document cut to that audience (?audience=). The page's version selector (the header's
// #api-version, ?version= in the URL) picks the one document Scalar loads: handed every version as a document of its
// own, Scalar fetches them all while idle. The code samples are curl, Node (TypeScript) fetch, Python requests and
// C# HttpClient.
const CONTRAST = {
  "color-2": "#4d4d4d",
  "color-3": "#5f5f5f",
  "color-green": "#067647",
  "color-blue": "#0b5cad",
  "color-orange": "#a24a00",
  "color-yellow": "#7a5c00",
  "color-red": "#b42318",
  "color-purple": "#6b3fa0",
};

(async () => {
  const main = document.getElementById("main");
  const audience = main.dataset.audience;
  const { MedpartsPortal } = window;
  const [config, { createApiReference }] = await Promise.all([
    fetch("/docs/assets/portal-config.json").then((response) => response.json()),
    import("/docs/assets/scalar/standalone.esm.js"),
  ]);

  const keep = config.codeSamples;
  const hiddenClients = Object.fromEntries(
    [
      "c",
      "clojure",
      "csharp",
      "dart",
      "fsharp",
      "go",
      "http",
      "java",
      "js",
      "julia",
      "kotlin",
      "node",
      "objc",
      "ocaml",
      "php",
      "powershell",
      "python",
      "r",
      "ruby",
      "rust",
      "shell",
      "swift",
    ].map((target) => [
      target,
      keep[target]
        ? [
            "laravel",
            "libcurl",
            "clj_http",
            "httpclient",
            "restsharp",
            "http",
            "native",
            "http1.1",
            "asynchttp",
            "nethttp",
            "okhttp",
            "unirest",
            "axios",
            "fetch",
            "jquery",
            "ofetch",
            "xhr",
            "undici",
            "nsurlsession",
            "cohttp",
            "curl",
            "guzzle",
            "restmethod",
            "webrequest",
            "python3",
            "requests",
            "aiohttp",
            "httpx_sync",
            "httpx_async",
            "httr2",
            "reqwest",
            "httpie",
            "wget",
          ].filter((client) => !keep[target].includes(client))
        : true,
    ]),
  );
  const selector = document.getElementById("api-version");
  const requested = new URL(location.href).searchParams.get("version");
  selector.value = config.versions.includes(requested) ? requested : config.latest;
  /**
   * Scalar's one document: the selected version's (a slug per version, so that a change loads the new one). At the
   * version the SDKs speak, each operation also shows the TypeScript and Python SDKs' call (x-codeSamples, beside curl).
   */
  const source = async (version) => {
    const base = { title: version === config.latest ? `${version} (latest)` : version, slug: version };
    const url = MedpartsPortal.documentUrl(audience, version === config.latest ? undefined : version);
    const sdk = await sdkSamples;
    if (!sdk || sdk.version !== version || !["customer", "vendor"].includes(audience)) return { ...base, url };
    const content = await fetch(url).then((response) => response.json());
    for (const [path, item] of Object.entries(content.paths ?? {})) {
      for (const [method, operation] of Object.entries(item ?? {})) {
        const sample = sdk.samples[`${method.toUpperCase()} ${path}`];
        if (!sample || typeof operation !== "object") continue;
        operation["x-codeSamples"] = [
          {
            lang: "typescript",
            label: "TypeScript SDK",
            source: `import { Medparts } from "@medparts/sdk";\n\nconst medparts = new Medparts({ baseUrl, clientId, clientSecret });\n${sample.typescript}`,
          },
          {
            lang: "python",
            label: "Python SDK",
            source: `from medparts import Medparts\n\nclient = Medparts(client_id, client_secret, base_url=base_url)\n${sample.python}`,
          },
        ];
      }
    }
    return { ...base, content };
  };
  const sdkSamples = fetch("/docs/assets/sdk-samples.json").then(
    (response) => (response.ok ? response.json() : null),
    () => null,
  );
  /**
   * Scalar's own ARIA gaps, filled as it renders: comboboxes without aria-expanded, icon buttons without a name,
   * Try-it's named "More Information" buttons given role="none" (which hides a button), every operation's
   * "Example Responses" card a landmark of that same name (a group instead), code editors (a response's body)
   * without a name, and Copy buttons that control a code block id Scalar never renders.
   */
  const accessible = (root) => {
    for (const box of root.querySelectorAll('[role="combobox"]:not([aria-expanded])')) box.setAttribute("aria-expanded", "false");
    for (const button of root.querySelectorAll("button:not([aria-label])")) {
      if (button.textContent.trim() === "" && !button.getAttribute("aria-labelledby") && !button.title)
        button.setAttribute("aria-label", button.getAttribute("aria-expanded") === null ? "More" : "Show or hide details");
    }
    for (const button of root.querySelectorAll('button[role="none"][aria-label]')) button.removeAttribute("role");
    for (const card of root.querySelectorAll('.response-card[role="region"]')) card.setAttribute("role", "group");
    for (const editor of root.querySelectorAll('.cm-content[role="textbox"]:not([aria-label])')) {
      const context = editor.closest("[aria-label]")?.getAttribute("aria-label");
      editor.setAttribute("aria-label", context ? `${context} body` : "Code");
    }
    for (const button of root.querySelectorAll('[class*="copy-button"][aria-controls]')) {
      if (!document.getElementById(button.getAttribute("aria-controls"))) button.removeAttribute("aria-controls");
    }
  };
  /**
   * Scalar's Try-it client is a modal dialog (aria-modal) that leaves the page around it exposed: a second main
   * landmark and a second "Notifications" region beside its own. While it is open, the rest of the page is inert, as
   * aria-modal means; Scalar's own teleport targets (popovers, tooltips) at the end of the body stay live.
   */
  let inertWhileModal = [];
  const isolateModal = () => {
    const dialog = document.querySelector('.scalar-client--open [role="dialog"][aria-modal="true"]');
    if (dialog && inertWhileModal.length === 0) {
      for (let node = dialog; node !== document.body; node = node.parentElement) {
        for (const sibling of node.parentElement.children) {
          const teleportTarget = node.parentElement === document.body && sibling.classList.contains("scalar-app");
          if (sibling !== node && !sibling.inert && !teleportTarget) inertWhileModal.push(sibling);
        }
      }
      for (const element of inertWhileModal) element.inert = true;
    } else if (!dialog && inertWhileModal.length > 0) {
      for (const element of inertWhileModal) element.inert = false;
      inertWhileModal = [];
    }
  };
  new MutationObserver(() => {
    accessible(document.body);
    isolateModal();
  }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["class", "role", "aria-controls"] });
  const security = config.audiences[audience].securitySchemes[0];
  main.replaceChildren(Object.assign(document.createElement("div"), { id: "reference-app" }));
  const configuration = {
    sources: [await source(selector.value)],
    hiddenClients,
    defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
    withDefaultFonts: false,
    hideClientButton: true,
    showDeveloperTools: "never",
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    documentDownloadType: "json",
    persistAuth: false,
    authentication: { preferredSecurityScheme: security },
    searchHotKey: "k",
    // Anchors the portal's search can link to (portal.js, operationAnchor).
    generateTagSlug: (tag) => MedpartsPortal.tagSlug(tag.name ?? ""),
    generateOperationSlug: ({ method, path }) => MedpartsPortal.operationSlug(method, path),
    // Examples of identifiers document their shape; sent as they are, every request would share one correlation id
    // and idempotency key, and name a bookmark or cursor of someone else's: fresh values instead, or none.
    onBeforeRequest: ({ requestBuilder }) => {
      const { headers, query } = requestBuilder;
      for (const [name, example] of Object.entries(config.tryIt.freshHeaders))
        if (headers?.get?.(name) === example) headers.set(name, crypto.randomUUID());
      for (const [name, example] of Object.entries(config.tryIt.omittedHeaders)) if (headers?.get?.(name) === example) headers.delete(name);
      for (const [name, example] of Object.entries(config.tryIt.omittedQuery)) if (query?.get?.(name) === example) query.delete(name);
    },
    metaData: { title: document.title },
    // Scalar's light theme has greys and method colours below WCAG AA contrast on white: darker ones.
    forceDarkModeState: "light",
    hideDarkModeToggle: true,
    customCss: `.light-mode, .light-mode .scalar-app { ${Object.entries(CONTRAST)
      .map(([name, value]) => `--scalar-${name}: ${value};`)
      .join(" ")} } .sidebar-search-placeholder { color: #4d5561 !important; }`,
  };
  const reference = createApiReference("#reference-app", configuration);
  selector.addEventListener("change", () => {
    const url = new URL(location.href);
    if (selector.value === config.latest) url.searchParams.delete("version");
    else url.searchParams.set("version", selector.value);
    url.hash = "";
    history.replaceState(null, "", url);
    source(selector.value).then((chosen) => reference.updateConfiguration({ ...configuration, sources: [chosen] }));
  });
})();
