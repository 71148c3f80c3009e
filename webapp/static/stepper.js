/* Stepper: a rule's text opens in place (a bottom sheet on phones, a popover on wide screens)
   when a step number or a fired rule is tapped; copy the ruling's summary; expand or fold the
   whole trace. Progressive enhancement: without this file every rule is a link to its page and
   every group a <details>. No inline scripts (CSP). */
(function () {
  "use strict";
  var sheet = document.getElementById("rulesheet");
  if (!sheet) return;
  var head = sheet.querySelector("#rulesheet-h");
  var bodyBox = sheet.querySelector(".sheet-body");
  var go = sheet.querySelector(".sheet-go");
  var closeBtn = sheet.querySelector(".sheet-x");
  var opener = null;
  var wide = window.matchMedia("(min-width: 48rem)");

  function ruleId(a) {
    var m = (a.getAttribute("href") || "").match(/\/id\/([^?#/]+)/);
    return m ? decodeURIComponent(m[1]) : null;
  }
  function versionOf(a) {
    var m = (a.getAttribute("href") || "").match(/[?&]v=([^&#]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  function fetchRule(id, v) { /* app.js's cached JSON fetch (loaded before this file) */
    return window.NRFetch.json("/api/rules/" + encodeURIComponent(id) + (v ? "?v=" + encodeURIComponent(v) : ""));
  }
  function text(tag, cls, t) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    e.textContent = t;
    return e;
  }
  function place(a) {
    if (!wide.matches) { sheet.classList.remove("pop"); sheet.style.left = sheet.style.top = ""; return; }
    sheet.classList.add("pop");
    window.NRPlace(sheet, a, Math.min(448, document.documentElement.clientWidth - 16)); /* app.js */
  }
  function close() {
    if (sheet.hidden) return;
    sheet.hidden = true;
    if (opener) { opener.classList.remove("on"); opener.setAttribute("aria-expanded", "false"); opener.focus({ preventScroll: true }); }
    opener = null;
  }
  function open(a) {
    var id = ruleId(a);
    if (!id || !window.NRFetch) return false; /* without app.js the link opens the rule's page */
    if (opener === a && !sheet.hidden) { close(); return true; }
    if (opener) { opener.classList.remove("on"); opener.setAttribute("aria-expanded", "false"); }
    opener = a;
    a.classList.add("on");
    a.setAttribute("aria-expanded", "true");
    head.textContent = a.textContent;
    bodyBox.textContent = "Loading…";
    go.href = a.href;
    sheet.hidden = false;
    place(a);
    fetchRule(id, versionOf(a)).then(function (r) {
      if (opener !== a) return;
      head.textContent = (r.number || id) + (r.title ? " " + r.title : "");
      bodyBox.textContent = "";
      if (r.breadcrumb && r.breadcrumb.length) {
        bodyBox.appendChild(text("div", "hint", r.breadcrumb.map(function (b) {
          return (b.number || "") + (b.title ? " " + b.title : "");
        }).join(" › ")));
      }
      bodyBox.appendChild(text("p", null, r.text || ""));
      (r.examples || []).forEach(function (ex) {
        bodyBox.appendChild(text("div", "ex", typeof ex === "string" ? ex : (ex.text || "")));
      });
      place(a);
      closeBtn.focus({ preventScroll: true });
    }).catch(function (err) {
      if (opener === a) bodyBox.textContent = "Could not load the rule (" + err.message + "). Open its page instead.";
    });
    return true;
  }

  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest(".st a.rl, .st a.fired");
    if (a) {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button) return; // new tab: let the link work
      if (open(a)) e.preventDefault();
      return;
    }
    if (!sheet.hidden && !sheet.contains(e.target)) close();
  });
  closeBtn.addEventListener("click", close);
  document.addEventListener("keydown", function (e) { if (e.key === "Escape") close(); });
  window.addEventListener("resize", function () { if (opener && !sheet.hidden) place(opener); });
  document.querySelectorAll(".st a.rl, .st a.fired").forEach(function (a) {
    a.setAttribute("aria-haspopup", "dialog");
    a.setAttribute("aria-expanded", "false");
  });

  /* copy the summary */
  document.querySelectorAll("button.copytext[data-for]").forEach(function (b) {
    var box = document.getElementById(b.getAttribute("data-for"));
    if (!box) return;
    b.hidden = false;
    b.addEventListener("click", function () {
      var done = function () { b.textContent = "Summary copied"; setTimeout(function () { b.textContent = "Copy summary"; }, 1800); };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(box.value).then(done, function () { box.select(); });
      } else { box.focus(); box.select(); }
    });
  });

  /* expand / fold the whole trace */
  var trace = document.getElementById("trace");
  var h2 = trace && trace.parentNode.querySelector("h2");
  if (trace && h2) {
    var all = document.createElement("button");
    all.type = "button";
    all.className = "btn";
    all.id = "expand-all";
    all.textContent = "Expand all";
    all.addEventListener("click", function () {
      var opening = all.textContent === "Expand all";
      trace.querySelectorAll("details").forEach(function (d) { d.open = opening; });
      all.textContent = opening ? "Fold all" : "Expand all";
    });
    h2.appendChild(all);
  }
})();
