/* Applies the light or dark theme chosen with the header toggle before the page is painted
   (no choice: the system's, through prefers-color-scheme in app.css). Blocking and tiny. */
(function () {
  try {
    var t = localStorage.getItem("nrrules-theme");
    if (t === "light" || t === "dark") document.documentElement.setAttribute("data-theme", t);
  } catch (e) { /* storage disabled: follow the system */ }
})();
