// The pocket app, on every page: registers the service worker (sw.js at the site's root, the whole
// site in scope) and says at the foot of the page whether the offline copy is being saved, is
// ready, and which build it holds. Nothing to press: the worker saves the copy in the background on
// the first online visit, and a new build on the next online visit after the site is rebuilt. The
// words and the site's root (Datasette's base_url) come from data- attributes of this script's tag
// (templates/_offline.html), translated with the chrome. The copy is kept per interface language:
// the page is "ready" when its own language (the URL's /en/ or /zh/ prefix, else Japanese) is
// saved; if not, it asks the worker to save it. A service worker needs a secure origin (HTTPS, or
// localhost): over plain http the page says that HTTPS is needed.
(function () {
  "use strict";
  var script = document.currentScript;
  var PREFIX = "bridge-laws-offline-";
  var STATE_URL = "/-/offline/saved/state";
  var ROOT = (script && script.getAttribute("data-root")) || "/";
  var here = location.pathname.indexOf(ROOT) === 0 ? "/" + location.pathname.slice(ROOT.length) : location.pathname;
  var match = /^\/(zh|en)(?=\/|$)/.exec(here);
  var LANGUAGE = match ? match[1] : "ja";

  function words(name, values) {
    var text = (script && script.getAttribute("data-" + name)) || "";
    Object.keys(values || {}).forEach(function (key) { text = text.split("{" + key + "}").join(values[key]); });
    return text;
  }

  function statusLine() {
    var line = document.getElementById("offline-status");
    if (!line) {
      line = document.createElement("p");
      line.id = "offline-status";
      line.className = "offline-status";
      line.setAttribute("role", "status");
      line.setAttribute("aria-live", "polite");
      line.style.cssText = "margin:0.3em 0;font-size:0.85em;color:#555";
      var footer = document.querySelector("footer") || document.body;
      footer.appendChild(line);
    }
    return line;
  }

  function show(state, text) {
    var line = statusLine();
    line.setAttribute("data-state", state);
    line.textContent = text;
  }

  // The saved copy, read from the caches themselves: {build, built_at, languages, complete} or null.
  function savedState() {
    if (!window.caches) return Promise.resolve(null);
    return caches.keys().then(function (names) {
      var ours = names.filter(function (n) { return n.indexOf(PREFIX) === 0; });
      return Promise.all(ours.map(function (name) {
        return caches.open(name).then(function (c) { return c.match(STATE_URL); })
          .then(function (r) { return r ? r.json() : null; });
      }));
    }).then(function (states) {
      return states.filter(function (s) { return s && s.complete; }).sort(function (a, b) {
        return (b.saved_at || "").localeCompare(a.saved_at || "");
      })[0] || null;
    });
  }

  function label(state) {
    return state.build.slice(0, 8) + (state.built_at ? " (" + state.built_at.slice(0, 10) + ")" : "");
  }

  var registration = null;
  var failure = null;
  var asked = false;

  function refresh() {
    return savedState().then(function (state) {
      var busy = registration && (registration.installing || registration.waiting ||
                                  (registration.active && registration.active.state !== "activated"));
      var mine = state && state.languages && state.languages[LANGUAGE];
      if (state && !mine && !busy && navigator.onLine && !asked && registration && registration.active) {
        // this build's copy holds other interface languages: the worker saves this one too
        asked = true;
        registration.active.postMessage({ type: "save-language", lang: LANGUAGE });
      }
      if (state && !mine && (busy || asked) && navigator.onLine) state = null;
      if (failure && !state) {
        show("failed", words("failed", { error: failure }));
      } else if (state && !busy) {
        show(navigator.onLine ? "ready" : "offline",
             words(navigator.onLine ? "ready" : "offline", { build: label(state) }));
        document.documentElement.setAttribute("data-offline-build", state.build);
      } else if (busy || !state) {
        show("saving", words("saving"));
      }
    });
  }

  if (window.isSecureContext === false) {
    show("insecure", words("insecure", { origin: location.origin }));
    return;
  }
  if (!("serviceWorker" in navigator) || !window.caches) {
    show("unsupported", words("unsupported"));
    return;
  }
  navigator.serviceWorker.addEventListener("message", function (event) {
    if (event.data && event.data.type === "offline-ready") refresh();
  });
  window.addEventListener("online", refresh);
  window.addEventListener("offline", refresh);
  navigator.serviceWorker.register(ROOT + "sw.js", { scope: ROOT }).then(function (reg) {
    // a browser that blocks service workers resolves with no registration: it keeps no copy
    if (!reg) {
      window.removeEventListener("online", refresh);
      window.removeEventListener("offline", refresh);
      return show("unsupported", words("unsupported"));
    }
    registration = reg;
    function watch(worker) {
      if (!worker) return;
      worker.addEventListener("statechange", function () {
        // a failed install is tried again on the next visit, not in a loop while the page is open
        if (worker.state === "redundant" && !reg.active) failure = "install failed";
        refresh();
      });
    }
    watch(reg.installing);
    reg.addEventListener("updatefound", function () { watch(reg.installing); refresh(); });
    // a rebuilt site is a new /sw.js: look for it on every online visit (no-cache on the server)
    if (navigator.onLine && reg.active) reg.update().catch(function () {});
    return refresh();
  }).catch(function (error) {
    failure = String(error && error.message || error);
    refresh();
  });
})();
