/* Datasette's column menu on a table page (its table.js builds it in English) in the interface
   language: table.html puts the translated words on #table-menu-words; this runs after table.js
   (both deferred, in order) and relabels the menu it appended and the filter rows' remove buttons. */
(function () {
  var words = document.getElementById("table-menu-words");
  if (!words) return;
  var labels = {
    "dropdown-sort-asc": words.dataset.sortAsc, "dropdown-sort-desc": words.dataset.sortDesc,
    "dropdown-facet": words.dataset.facet, "dropdown-hide-column": words.dataset.hideColumn,
    "dropdown-show-all-columns": words.dataset.showAllColumns, "dropdown-not-blank": words.dataset.notBlank
  };
  Object.keys(labels).forEach(function (name) {
    document.querySelectorAll(".dropdown-menu a." + name).forEach(function (a) { a.textContent = labels[name]; });
  });
  document.querySelectorAll('.filter-row a[aria-label="Remove this filter"]').forEach(function (a) {
    a.setAttribute("aria-label", words.dataset.removeFilter);
  });
})();
