// The portal's search box: the index (every guide, error page and reference summary) and MiniSearch load on first
// use, so the first page stays small. Arrow keys move through the results; Escape closes them.
/** Loads a script when it is needed (MiniSearch, on first search). */
window.MedpartsPortal = {
  loadScript: (src) =>
    new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.onload = resolve;
      script.onerror = () => reject(new Error(`${src} did not load`));
      document.head.append(script);
    }),
};

(() => {
  const { loadScript } = window.MedpartsPortal;
  const input = document.getElementById("portal-search");
  const list = document.getElementById("portal-results");
  if (!input || !list) return;
  let search;

  async function ready() {
    if (!search) {
      search = (async () => {
        const [documents] = await Promise.all([
          fetch("/docs/assets/search-index.json").then((r) => r.json()),
          loadScript("/docs/assets/minisearch.js"),
        ]);
        const index = new MiniSearch({
          fields: ["title", "summary", "text"],
          storeFields: ["title", "summary"],
          searchOptions: { boost: { title: 3, summary: 2 }, prefix: true, fuzzy: 0.2 },
        });
        index.addAll(documents);
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
