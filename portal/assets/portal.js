// Every portal page: the search box, code blocks' Copy buttons and tabs. The search index (every guide, error page
// and reference) and MiniSearch load on first use, with the operations of each audience's OpenAPI document, so the
// first page stays small. Arrow keys move through the results; Escape closes them.
(() => {
  const tagSlug = (name) =>
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "");
  const operationSlug = (method, path) => `${method.toUpperCase()}${path}`;
  window.MedpartsPortal = {
    /** Loads a script when it is needed (MiniSearch, on first search). */
    loadScript: (src) =>
      new Promise((resolve, reject) => {
        const script = document.createElement("script");
        script.src = src;
        script.onload = resolve;
        script.onerror = () => reject(new Error(`${src} did not load`));
        document.head.append(script);
      }),
    /** An audience's OpenAPI document at a version (the latest when none). */
    documentUrl: (audience, version) => `/customer/api/openapi.json?audience=${audience}${version ? `&version=${version}` : ""}`,
    /**
     * The reference hands these to Scalar for its anchors (generateTagSlug, generateOperationSlug), so that a search
     * result can link to an operation: /docs/reference/<audience>#<operationAnchor>.
     */
    tagSlug,
    operationSlug,
    operationAnchor: (tag, method, path) => `tag/${tagSlug(tag)}/${operationSlug(method, path)}`,
  };
})();

(() => {
  const { MedpartsPortal } = window;
  const input = document.getElementById("portal-search");
  const list = document.getElementById("portal-results");
  if (!input || !list) return;
  let search;
  const HTTP_METHODS = ["get", "put", "post", "delete", "patch"];

  /** Every operation of a reference as a search entry that links to it. */
  async function operations(reference) {
    const audience = reference.id.split("/").at(-1);
    const response = await fetch(MedpartsPortal.documentUrl(audience));
    if (!response.ok) return [];
    const document = await response.json();
    return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      HTTP_METHODS.filter((method) => item[method]).map((method) => {
        const operation = item[method];
        const anchor = MedpartsPortal.operationAnchor(operation.tags?.[0] ?? "", method, path);
        return {
          id: `${reference.id}#${anchor}`,
          title: operation.summary ?? `${method.toUpperCase()} ${path}`,
          summary: `${method.toUpperCase()} ${path} · ${document.info.title}`,
          text: `${path} ${operation.operationId ?? ""} ${operation.description ?? ""}`,
        };
      }),
    );
  }

  async function ready() {
    if (!search) {
      search = (async () => {
        const [pages] = await Promise.all([
          fetch("/docs/assets/search-index.json").then((r) => r.json()),
          MedpartsPortal.loadScript("/docs/assets/minisearch.js"),
        ]);
        const references = pages.filter((page) => page.id.startsWith("/docs/reference/"));
        // A reference whose document does not load leaves its operations out, not the rest.
        const found = await Promise.allSettled(references.map(operations));
        const index = new MiniSearch({
          fields: ["title", "summary", "text"],
          storeFields: ["title", "summary"],
          searchOptions: { boost: { title: 3, summary: 2 }, prefix: true, fuzzy: 0.2 },
        });
        index.addAll([...pages, ...found.flatMap((result) => (result.status === "fulfilled" ? result.value : []))]);
        return index;
      })();
    }
    return search;
  }

  function show(results) {
    list.replaceChildren(
      ...results.slice(0, 8).map((result) => {
        const item = document.createElement("li");
        const link = document.createElement("a");
        link.href = result.id;
        link.textContent = result.title;
        const summary = document.createElement("small");
        summary.textContent = result.summary.length > 140 ? `${result.summary.slice(0, 140)}…` : result.summary;
        link.append(summary);
        item.append(link);
        return item;
      }),
    );
    if (results.length === 0 && input.value.trim()) {
      const item = document.createElement("li");
      item.textContent = "No page matches.";
      item.style.padding = "0.45rem 0.8rem";
      list.append(item);
    }
    list.hidden = input.value.trim() === "";
  }

  input.addEventListener("focus", () => void ready());
  input.addEventListener("input", async () => show((await ready()).search(input.value.trim())));
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown") list.querySelector("a")?.focus();
    if (event.key === "Escape") list.hidden = true;
  });
  list.addEventListener("keydown", (event) => {
    const links = [...list.querySelectorAll("a")];
    const at = links.indexOf(document.activeElement);
    if (event.key === "ArrowDown") links[Math.min(at + 1, links.length - 1)]?.focus();
    if (event.key === "ArrowUp") (at <= 0 ? input : links[at - 1]).focus();
    if (event.key === "Escape") {
      list.hidden = true;
      input.focus();
    }
    if (event.key.startsWith("Arrow")) event.preventDefault();
  });
})();

// A guide's code blocks: each gets a Copy button; a status line tells a screen reader that it copied.
(() => {
  const blocks = document.querySelectorAll(".guide pre");
  if (blocks.length === 0) return;
  const status = Object.assign(document.createElement("p"), { className: "visually-hidden" });
  status.setAttribute("role", "status");
  document.body.append(status);
  for (const pre of blocks) {
    const wrapper = Object.assign(document.createElement("div"), { className: "code" });
    const button = Object.assign(document.createElement("button"), { type: "button", className: "copy", textContent: "Copy" });
    pre.replaceWith(wrapper);
    wrapper.append(button, pre);
    button.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(pre.textContent);
        button.textContent = status.textContent = "Copied";
      } catch {
        // No clipboard (a page served over plain HTTP from another host): select the code for Ctrl+C instead.
        getSelection().selectAllChildren(pre);
        button.textContent = status.textContent = "Selected: press Ctrl+C";
      }
      setTimeout(() => {
        button.textContent = "Copy";
        status.textContent = "";
      }, 2000);
    });
  }
})();

// Tabs (a guide's code in several languages): arrow keys, Home and End move between them; the language chosen is
// remembered for every page, and a link to a tab's section (#python) selects it.
(() => {
  const REMEMBERED = "medparts-portal-tab";
  const lists = [...document.querySelectorAll('[role="tablist"]')];
  if (lists.length === 0) return;
  const remembered = () => {
    try {
      return localStorage.getItem(REMEMBERED);
    } catch {
      return null;
    }
  };
  const select = (tab, { focus = false, remember = false } = {}) => {
    for (const other of tab.closest('[role="tablist"]').querySelectorAll('[role="tab"]')) {
      const selected = other === tab;
      other.setAttribute("aria-selected", String(selected));
      other.tabIndex = selected ? 0 : -1;
      document.getElementById(other.getAttribute("aria-controls")).hidden = !selected;
    }
    if (focus) tab.focus();
    if (remember) {
      try {
        localStorage.setItem(REMEMBERED, tab.textContent);
      } catch {
        // Storage refused (a private window): the choice holds for this page only.
      }
    }
  };
  const selectLinked = () => {
    const linked = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (linked?.getAttribute("role") === "tab") select(linked);
  };
  for (const list of lists) {
    const tabs = [...list.querySelectorAll('[role="tab"]')];
    const chosen = tabs.find((tab) => tab.textContent === remembered());
    if (chosen) select(chosen);
    list.addEventListener("click", (event) => {
      const tab = event.target.closest('[role="tab"]');
      if (tab) select(tab, { remember: true });
    });
    list.addEventListener("keydown", (event) => {
      const at = tabs.indexOf(document.activeElement);
      const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
      if (at < 0 || next === undefined) return;
      event.preventDefault();
      select(tabs[(next + tabs.length) % tabs.length], { focus: true, remember: true });
    });
  }
  selectLinked();
  window.addEventListener("hashchange", selectLinked);
})();
