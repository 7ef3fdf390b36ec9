// The site's small behaviours; every page works without them.
// The copy button of a unit page: the citation in the reader's language, then the permalink.
// Without this script the citation is still there, as a plain link to the permalink.
(function () {
  function readerForm(forms, fallback) {
    var languages = navigator.languages || [navigator.language || ""];
    for (var i = 0; i < languages.length; i++) {
      var code = (languages[i] || "").slice(0, 2).toLowerCase();
      if (forms[code]) return forms[code];
    }
    return forms[fallback] || forms[Object.keys(forms)[0]];
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
    var button = box.querySelector(".cite-copy");
    var status = box.querySelector(".cite-status");
    var citation = readerForm(forms, box.getAttribute("data-cite-lang"));
    link.textContent = citation;
    button.hidden = false;
    button.addEventListener("click", function () {
      var text = citation + " " + new URL(link.getAttribute("href"), location.href).href;
      button.setAttribute("data-copied", text);
      copy(text).then(function () { status.textContent = "Copied"; },
                      function () { status.textContent = "Select the link to copy it"; });
      setTimeout(function () { status.textContent = ""; }, 2500);
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
