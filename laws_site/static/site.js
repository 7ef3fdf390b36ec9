// The site's small behaviours; every page works without them.
// The copy buttons of a unit page: the citation (in the interface language when the unit has a
// form in it), the citation with the unit's text, or the link. Without this script the citation is
// still there, as a plain link to the permalink.
(function () {
  function pick(forms, preferred, fallback) {
    return forms[preferred] || forms[fallback] || forms[Object.keys(forms)[0]];
  }
  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var ok = document.execCommand("copy");
    document.body.removeChild(area);
    return ok ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }
  document.querySelectorAll(".cite[data-cite-forms]").forEach(function (box) {
    var forms = JSON.parse(box.getAttribute("data-cite-forms"));
    var link = box.querySelector(".cite-link");
    var actions = box.querySelector(".cite-actions");
    var status = box.querySelector(".cite-status");
    // A citation in the interface language's convention, as the page's labels are (Law 27B1(b),
    // 第27条B項1(b), 第27条B款1(b)); the document's own where that language has no form
    var citation = pick(forms, box.getAttribute("data-ui-lang"), box.getAttribute("data-cite-lang"));
    link.textContent = citation;
    actions.hidden = false;
    actions.querySelectorAll("button[data-copy]").forEach(function (button) {
      button.addEventListener("click", function () {
        var url = new URL(link.getAttribute("href"), location.href).href;
        var body = document.querySelector(".unit-body");
        var what = button.getAttribute("data-copy");
        var text = what === "link" ? url
          : what === "text" ? citation + "\n" + (body ? body.innerText.trim() : "") + "\n" + url
          : citation + " " + url;
        button.setAttribute("data-copied", text);
        copy(text).then(function () { status.textContent = status.getAttribute("data-copied"); },
                        function () { status.textContent = status.getAttribute("data-failed"); });
        setTimeout(function () { status.textContent = ""; }, 2500);
      });
    });
  });
})();

// A tap on a reference or a defined term shows the text it points to in place; a second tap follows it. The text
// comes from the unit's JSON (the same URL + .json: full_text holds its sub-items too).
(function () {
  var open = null;
  function close() {
    if (!open) return;
    open.box.remove();
    open.link.removeAttribute("aria-expanded");
    open = null;
  }
  function jsonUrl(link) {
    var url = new URL(link.href, location.href);
    return url.origin === location.origin ? url.pathname.replace(/\/$/, "") + ".json" : null;
  }
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a.xref, a.term");
    if (!link || link.classList.contains("footnote-marker") || (link.getAttribute("href") || "").charAt(0) === "#") {
      if (open && !(event.target.closest && event.target.closest(".xref-preview"))) close();
      return;
    }
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button) return;
    if (open && open.link === link) return;  // the second tap follows the link
    var url = jsonUrl(link);
    if (!url) return;
    event.preventDefault();
    close();
    var box = document.createElement("div");
    box.className = "xref-preview";
    box.setAttribute("role", "region");
    var heading = document.createElement("p");
    heading.className = "xref-preview-head";
    var go = document.createElement("a");
    go.href = link.href;
    go.textContent = (link.getAttribute("title") || link.textContent) + " →";
    heading.appendChild(go);
    var shut = document.createElement("button");
    shut.type = "button";
    shut.className = "xref-preview-close";
    shut.setAttribute("aria-label", document.documentElement.getAttribute("data-close") || "Close");
    shut.textContent = "×";
    shut.addEventListener("click", close);
    heading.appendChild(shut);
    var text = document.createElement("div");
    text.className = "xref-preview-text";
    text.setAttribute("lang", (document.querySelector("[data-text-lang]") || document.documentElement).getAttribute("data-text-lang") || "ja");
    text.textContent = "…";
    box.appendChild(heading);
    box.appendChild(text);
    var block = link.closest(".unit-text, .lead-in, li, p, td, .note-first") || link.parentElement;
    block.insertAdjacentElement("afterend", box);
    link.setAttribute("aria-expanded", "true");
    open = {link: link, box: box};
    fetch(url, {headers: {Accept: "application/json"}}).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.json();
    }).then(function (unit) {
      return {title: unit.title && unit.title !== unit.ref ? unit.title : "", text: unit.full_text || unit.text || ""};
    }).catch(function () {
      return fromSavedPage(link.href);  // offline: the copy holds the unit's page, not its JSON
    }).then(function (unit) {
      text.textContent = (unit.title ? unit.title + "\n" : "") + unit.text;
    }).catch(function () { location.href = link.href; });
  });
  // The unit's page, opened out of sight: offline, the service worker answers a page only to a
  // navigation, which a frame's is. Its scripts do not run (sandbox); it is laid out (off screen,
  // not hidden), so its text keeps the lines it shows.
  function fromSavedPage(href) {
    return new Promise(function (resolve, reject) {
      var frame = document.createElement("iframe");
      frame.setAttribute("sandbox", "allow-same-origin");
      frame.setAttribute("aria-hidden", "true");
      frame.setAttribute("tabindex", "-1");
      frame.className = "preview-source";
      var timer = setTimeout(function () { done(new Error("timeout")); }, 10000);
      function done(error, unit) {
        clearTimeout(timer);
        frame.remove();
        if (error) reject(error); else resolve(unit);
      }
      frame.addEventListener("load", function () {
        try {
          var page = frame.contentDocument;
          var body = page && page.querySelector(".unit-body");
          if (!body) throw new Error("no unit text");
          var heading = page.querySelector("article.law-text h1");
          var title = heading ? heading.cloneNode(true) : null;
          if (title) title.querySelectorAll(".ref, .footnote-marker").forEach(function (e) { e.remove(); });
          done(null, {title: title ? title.textContent.trim() : "", text: body.innerText.trim()});
        } catch (error) { done(error); }
      });
      frame.src = href;
      document.body.appendChild(frame);
    });
  }
  document.addEventListener("keydown", function (event) { if (event.key === "Escape") close(); });
})();

// The breadcrumb bar scrolls to its end, and the siblings row to the current one, so the current unit is what a phone shows.
(function () {
  // read in the first frame (its layout is made then anyway), not forced while the page is still loading
  requestAnimationFrame(function () {
    document.querySelectorAll(".crumbs-bar .crumbs").forEach(function (c) { c.scrollLeft = c.scrollWidth; });
    // the siblings' row, one line on a phone: the current one in its middle
    document.querySelectorAll(".siblings").forEach(function (row) {
      var current = row.querySelector(".current");
      if (current && row.scrollWidth > row.clientWidth) {
        row.scrollLeft = current.offsetLeft - (row.clientWidth - current.offsetWidth) / 2;
      }
    });
  });
})();

// A link to a collapsed part (/laws-2017-ja#part-5, /-/citations#law-61) opens it.
(function () {
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    for (var node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
    }
    if (target) target.scrollIntoView();
  }
  window.addEventListener("hashchange", openTarget);
  if (location.hash) openTarget();
})();

// The glossary's filter: the server filters (width, case, katakana spelling and traditional characters
// folded); offline, where the copy holds the whole glossary but no filtered page, the rows here are
// filtered in place with the offline search's own folding (offline-search*.js, over the saved search pack).
(function () {
  var form = document.querySelector("form.glossary-filter[data-engine]");
  var table = document.querySelector("table.glossary[data-complete]");
  if (!form || !table || !window.fetch) return;
  var count = document.querySelector(".glossary-count");
  function engine() {
    if (window.BridgeLawsSearch) return window.BridgeLawsSearch.loadEngine();
    // the offline search's scripts, one after the other (each adds to the one before)
    return form.getAttribute("data-engine").split(" ").reduce(function (loaded, src) {
      return loaded.then(function () {
        return new Promise(function (resolve, reject) {
          var script = document.createElement("script");
          script.src = src;
          script.onload = resolve;
          script.onerror = reject;
          document.head.appendChild(script);
        });
      });
    }, Promise.resolve()).then(function () { return window.BridgeLawsSearch.loadEngine(); });
  }
  function filterHere(query) {
    return engine().then(function (search) {
      var wanted = search.searchKey(search.toSimplified(query));
      var shown = 0, rows = table.querySelectorAll("tbody tr");
      rows.forEach(function (row) {
        var terms = [].map.call(row.querySelectorAll("td[lang]"), function (cell) { return cell.textContent.trim(); });
        var match = !wanted || terms.some(function (term) {
          return term && (search.searchKey(term).indexOf(wanted) >= 0 ||
                          search.searchKey(search.toSimplified(term)).indexOf(wanted) >= 0);
        });
        row.hidden = !match;
        if (match) shown += 1;
      });
      if (count) {
        count.textContent = (count.getAttribute("data-filtered") || "{shown} / {total}")
          .split("{shown}").join(String(shown)).split("{total}").join(String(rows.length));
      }
    });
  }
  form.addEventListener("submit", function (event) {
    var query = form.elements.q.value.trim();
    var url = new URL(form.action, location.href);
    if (query) url.searchParams.set("q", query);
    event.preventDefault();
    fetch(url.href, {headers: {Accept: "text/html"}}).then(function (response) {
      if (!response.ok) throw new Error(response.status);
      location.assign(url.href);  // the server's answer
    }).catch(function () {
      return filterHere(query).catch(function () { location.assign(url.href); });
    });
  });
})();
