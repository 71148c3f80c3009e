/* nrrules: search as you type, previews (hover, or a bottom sheet on tap), copy, theme, rule graph. Progressive
   enhancement only: every page works without this file. No inline scripts (CSP). */
(function () {
  "use strict";
  var body = document.body;
  var version = body.getAttribute("data-v") || "";
  var isStatic = body.getAttribute("data-static") === "1"; /* a page of `nrrules export` */

  function vparam(sep) { return version ? sep + "v=" + encodeURIComponent(version) : ""; }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  /* Snippets arrive as escaped text with <mark>; rebuild them keeping only text and <mark>. */
  function safeSnippet(html) {
    var tpl = document.createElement("template");
    tpl.innerHTML = html || "";
    var out = document.createDocumentFragment();
    (function walk(node, into) {
      node.childNodes.forEach(function (c) {
        if (c.nodeType === 3) into.appendChild(document.createTextNode(c.nodeValue));
        else if (c.nodeType === 1 && c.nodeName === "MARK") { var m = el("mark"); walk(c, m); into.appendChild(m); }
        else if (c.nodeType === 1) walk(c, into);
      });
    })(tpl.content, out);
    return out;
  }

  /* JSON from the API, one request per URL per page (a failed one is asked again next time);
     also used by stepper.js, as window.NRFetch.json. */
  var jsonCache = {};
  function getJSON(url) {
    if (!jsonCache[url]) {
      jsonCache[url] = fetch(url, { headers: { Accept: "application/json" } }).then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.json();
      });
      jsonCache[url].catch(function () { delete jsonCache[url]; });
    }
    return jsonCache[url];
  }
  window.NRFetch = { json: getJSON };

  /* A floating box (a preview, the stepper's rule popover) goes under its link, or above it
     when the window shows more room there than below, and stays inside the window's width.
     Also used by stepper.js, as window.NRPlace. */
  function placeNear(box, a, width) {
    var r = a.getBoundingClientRect(), vw = document.documentElement.clientWidth;
    var w = width || box.offsetWidth, h = box.offsetHeight;
    var below = window.innerHeight - r.bottom, above = r.top;
    var up = h + 12 > below && above > below;
    box.style.left = Math.max(8, Math.min(window.scrollX + r.left, window.scrollX + vw - w - 8)) + "px";
    box.style.top = (up ? Math.max(window.scrollY + 8, window.scrollY + r.top - h - 6) : window.scrollY + r.bottom + 6) + "px";
  }
  window.NRPlace = placeNear;

  /* ---------------- search as you type (an ARIA combobox) ---------------- */
  function offlineSearch(q) {
    return window.NROffline ? window.NROffline.search(q, 8) : Promise.reject(new Error("offline"));
  }
  document.querySelectorAll(".searchform").forEach(function (form) {
    var input = form.querySelector(".q");
    var list = form.querySelector(".suggest");
    var status = form.querySelector(".suggest-status"); /* a live region: "5 suggestions" */
    var timer = null, seq = 0, sel = -1, items = [];
    function announce(text) { if (status && status.textContent !== text) status.textContent = text; }

    function close() {
      if (!list.hidden) announce("");
      list.hidden = true; sel = -1;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
    }
    function select(i) {
      sel = i;
      items.forEach(function (li, j) { li.setAttribute("aria-selected", j === i ? "true" : "false"); });
      if (items[i]) { input.setAttribute("aria-activedescendant", items[i].id); items[i].scrollIntoView({ block: "nearest" }); }
    }
    function render(results, local) {
      list.textContent = "";
      items = [];
      results.forEach(function (r, i) {
        var li = el("li"); li.setAttribute("role", "option"); li.id = "sugg-" + i; li.setAttribute("aria-selected", "false");
        var a = el("a"); a.href = r.url || ("/id/" + r.id + vparam("?")); a.tabIndex = -1;
        var head = el("div");
        if (r.source && r.source !== "rules") { head.appendChild(el("span", "src src-" + r.source, r.source)); head.appendChild(document.createTextNode(" ")); }
        head.appendChild(el("b", "num", r.number || ""));
        head.appendChild(document.createTextNode(" " + (r.title || "")));
        a.appendChild(head);
        if (r.breadcrumb && r.breadcrumb.length) {
          a.appendChild(el("div", "crumb", r.breadcrumb.map(function (b) {
            return (b.number || "") + (b.title ? " " + b.title : "");
          }).join(" › ")));
        }
        var s = el("div", "snip"); s.appendChild(safeSnippet(r.snippet)); a.appendChild(s);
        li.appendChild(a); list.appendChild(li); items.push(li);
      });
      if (!results.length) { var none = el("li", "none", "No match — press Enter for full search"); list.appendChild(none); }
      if (local) { var note = el("li", "none local", "Searched the copy saved on this device"); list.appendChild(note); }
      list.hidden = false;
      announce(results.length ? results.length + (results.length === 1 ? " suggestion" : " suggestions") + ", ↑ ↓ to pick"
        : "No suggestions: press Enter for a full search");
      input.setAttribute("aria-expanded", "true");
      input.removeAttribute("aria-activedescendant");
      sel = -1;
    }
    function query() {
      var q = input.value.trim();
      if (!q) { close(); return; }
      var mine = ++seq;
      var local = function () {
        return offlineSearch(q).then(function (res) { if (mine === seq) render(res, true); }, function () {});
      };
      if (!navigator.onLine || isStatic) { local(); return; } /* no server to ask */
      fetch("/api/search?limit=8&q=" + encodeURIComponent(q) + vparam("&"))
        .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); })
        .then(function (data) { if (mine === seq) render(data.results || []); })
        .catch(local); /* no connection: the saved copy, if any */
    }
    input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(query, 120); });
    input.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown" && items.length) { e.preventDefault(); select(Math.min(sel + 1, items.length - 1)); }
      else if (e.key === "ArrowUp" && items.length) { e.preventDefault(); select(Math.max(sel - 1, 0)); }
      else if (e.key === "Enter" && sel >= 0 && items[sel]) { e.preventDefault(); window.location.href = items[sel].querySelector("a").href; }
      else if (e.key === "Escape" && !list.hidden) { e.preventDefault(); close(); } /* keep the text */
    });
    document.addEventListener("click", function (e) { if (!form.contains(e.target)) close(); });
  });

  /* "/" focuses the search box (unless typing somewhere). */
  document.addEventListener("keydown", function (e) {
    if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.nodeName))) return;
    var q = document.querySelector(".searchform .q");
    if (q) { e.preventDefault(); q.focus(); q.select(); }
  });

  /* ---------------- previews of cross references and defined terms ----------------
     Hover or focus: a small tooltip. Tap on a touch screen (no hover): a bottom
     sheet with the whole rule, read without leaving the page; its links preview in turn.
     A defined term (span.term) opens its definition the same way, and on a click or Enter. */
  var REF = "a.ref[data-id], #cites a[data-id], #cited-by a[data-id], a.kw[href^='/id/']";
  var TERM = "span.term";
  var PREVIEWABLE = REF + ", " + TERM;
  function isTerm(x) { return x.matches(TERM); }
  function termOf(s) { return s.textContent.replace(/\s+/g, " ").trim().toLowerCase(); }
  /* a rule's page in this page's version: /id/x?v=22.12 on the server, /v/22.12/id/x exported */
  function ruleHref(id) {
    var path = "/id/" + encodeURIComponent(id);
    if (!version) return path;
    return isStatic ? "/v/" + encodeURIComponent(version) + path : path + "?v=" + encodeURIComponent(version);
  }
  function termData(s) {
    var t = termOf(s);
    var url = isStatic
      ? (version ? "/v/" + encodeURIComponent(version) : "") + "/api/terms/" + encodeURIComponent(t)
      : "/api/terms/" + encodeURIComponent(t) + vparam("?");
    var fallback = function () { return window.NROffline ? window.NROffline.term(t) : Promise.reject(new Error("offline")); };
    return navigator.onLine ? getJSON(url).catch(fallback) : fallback();
  }
  /* What a preview shows of a term: its (first) definition, as a rule. */
  function termAsRule(d, s) {
    var def = d.defines[0];
    if (!def) return { number: null, title: s.textContent.trim(), text: "Not defined in this version; used in " + d.uses.length + " rules." };
    return { number: def.number, title: def.title, text: def.text, breadcrumb: def.breadcrumb };
  }
  function previewData(x) {
    return isTerm(x) ? termData(x).then(function (d) { return termAsRule(d, x); }) : ruleData(x);
  }
  function ruleData(a) {
    var href = a.getAttribute("href") || "";
    var idm = href.match(/\/id\/([^?#/]+)/);
    var id = a.getAttribute("data-id") || (idm ? decodeURIComponent(idm[1]) : "");
    var m = href.match(/[?&]v=([^&#]+)/) || href.match(/^\/v\/([\d.]+)\//);
    var v = m ? decodeURIComponent(m[1]) : version;
    /* a static export keeps older versions' JSON under /v/<version>/ (hosts ignore queries) */
    var url = isStatic
      ? (v ? "/v/" + encodeURIComponent(v) : "") + "/api/rules/" + encodeURIComponent(id)
      : "/api/rules/" + encodeURIComponent(id) + (v ? "?v=" + encodeURIComponent(v) : "");
    var fallback = function () { return window.NROffline ? window.NROffline.rule(id) : Promise.reject(new Error("offline")); };
    return navigator.onLine ? getJSON(url).catch(fallback) : fallback();
  }
  /* A text opening with a lowercase defined term starts with a capital, as pages show it
     (webapp/reading.py cr_case); the CR's own text is left as printed. */
  function crCase(html) {
    return (html || "").replace(/^(<span class="term">)([a-z])/, function (m, tag, c) { return tag + c.toUpperCase(); });
  }
  function context(r) {
    return r.title || (r.breadcrumb && r.breadcrumb.length ? r.breadcrumb[r.breadcrumb.length - 1].title || "" : "");
  }
  var preview = null, hoverTimer = null, previewSeq = 0;
  function hidePreview() { previewSeq++; clearTimeout(hoverTimer); if (preview) { preview.remove(); preview = null; } }
  function showPreview(a) {
    var mine = ++previewSeq; /* a preview arriving after the pointer or focus left is dropped */
    previewData(a).then(function (r) {
      if (mine !== previewSeq) return;
      hidePreview();
      preview = el("div", "preview");
      preview.setAttribute("role", "tooltip");
      var head = el("div");
      head.appendChild(el("b", null, r.number || "Example"));
      head.appendChild(document.createTextNode(" " + context(r)));
      preview.appendChild(head);
      var text = (r.text || "").replace(/^[a-z]/, function (c) { return c.toUpperCase(); });
      preview.appendChild(el("div", null, text.length > 400 ? text.slice(0, 397) + "…" : text));
      document.body.appendChild(preview);
      placeNear(preview, a);
    }).catch(function () {});
  }
  function sheetMode() { return window.matchMedia("(hover: none)").matches; } /* touch screens */
  document.addEventListener("mouseover", function (e) {
    var a = e.target.closest && e.target.closest(PREVIEWABLE);
    if (!a || sheetMode() || (sheet && sheet.contains(a))) return;
    clearTimeout(hoverTimer);
    hoverTimer = setTimeout(function () { showPreview(a); }, 180);
  });
  document.addEventListener("mouseout", function (e) {
    var a = e.target.closest && e.target.closest(PREVIEWABLE);
    if (a) hidePreview();
  });
  document.addEventListener("focusin", function (e) {
    if (!sheetMode() && e.target.matches && e.target.matches(PREVIEWABLE)) showPreview(e.target);
  });
  /* Terms become keyboard- and tap-reachable controls that open their definition. */
  function armTerms(root) {
    root.querySelectorAll(TERM).forEach(function (s) {
      if (s.hasAttribute("tabindex")) return;
      s.tabIndex = 0;
      s.setAttribute("role", "button");
      s.setAttribute("aria-haspopup", "dialog");
      s.setAttribute("aria-label", s.textContent.replace(/\s+/g, " ").trim() + ": show its definition");
    });
  }
  armTerms(document);
  window.NRReading = { armTerms: armTerms }; /* the offline shell arms the rules it renders */
  document.addEventListener("focusout", hidePreview);

  var sheet = null, sheetOpener = null;
  function closeSheet() {
    if (!sheet) return;
    sheet.remove(); sheet = null;
    if (sheetOpener && document.contains(sheetOpener)) sheetOpener.focus({ preventScroll: true });
  }
  function newSheet(heading, sub) {
    if (sheet) sheet.remove();
    sheet = el("div", "sheet");
    sheet.setAttribute("role", "dialog");
    sheet.setAttribute("aria-labelledby", "sheet-title");
    var bar = el("div", "sheet-bar");
    var h = el("h2", null); h.id = "sheet-title"; h.tabIndex = -1;
    heading(h);
    bar.appendChild(h);
    var x = el("button", "sheet-close", "Close"); x.type = "button";
    x.addEventListener("click", closeSheet);
    bar.appendChild(x);
    sheet.appendChild(bar);
    if (sub) sheet.appendChild(el("div", "crumb", sub));
    return h;
  }
  function showSheet(h) {
    armTerms(sheet);
    document.body.appendChild(sheet);
    h.focus({ preventScroll: true });
  }
  function crumbText(list) {
    return (list || []).map(function (b) { return (b.number || "") + (b.title ? " " + b.title : ""); }).join(" › ");
  }
  function ruleLink(id, number, cls) {
    var a = el("a", cls || "ref", number || "Example");
    a.href = ruleHref(id);
    a.setAttribute("data-id", id);
    return a;
  }
  /* A term's sheet: every rule defining it (number, text), then the rules using it. */
  function openTermSheet(s) {
    sheetOpener = sheet && sheet.contains(s) ? sheetOpener : s;
    termData(s).then(function (d) {
      var h = newSheet(function (h) {
        h.appendChild(el("span", "num", "Term"));
        h.appendChild(document.createTextNode(" " + s.textContent.replace(/\s+/g, " ").trim()));
      });
      sheet.classList.add("term-sheet");
      if (!d.defines.length) sheet.appendChild(el("p", "none", "CR " + d.version + " uses this term but does not define it."));
      d.defines.forEach(function (def) {
        var box = el("div", "sheet-def");
        if (def.breadcrumb && def.breadcrumb.length) box.appendChild(el("div", "crumb", crumbText(def.breadcrumb)));
        var text = el("div", "sheet-text"), tpl = document.createElement("template");
        text.appendChild(ruleLink(def.id, def.number, "ref num"));
        text.appendChild(document.createTextNode(" "));
        if (def.title) text.appendChild(el("b", null, def.title + " "));
        tpl.innerHTML = crCase(def.html); /* the scraper's vetted HTML subset, as on rule pages */
        if (def.html) text.appendChild(tpl.content); else text.appendChild(document.createTextNode(def.text || ""));
        box.appendChild(text);
        sheet.appendChild(box);
      });
      if (d.uses.length) {
        var uses = el("p", "sheet-uses");
        uses.appendChild(el("b", null, "Used in " + d.uses.length + (d.uses.length === 1 ? " other rule: " : " other rules: ")));
        d.uses.slice(0, 12).forEach(function (u, i) {
          if (i) uses.appendChild(document.createTextNode(", "));
          uses.appendChild(ruleLink(u.id, u.number));
        });
        if (d.uses.length > 12) uses.appendChild(document.createTextNode(" …"));
        sheet.appendChild(uses);
      }
      if (d.defines.length) {
        var open = el("a", "btn sheet-open", "Open " + (d.defines[0].number || "the rule") + " →");
        open.href = ruleHref(d.defines[0].id);
        sheet.appendChild(open);
      }
      showSheet(h);
    }).catch(function () { /* no definition to show: the term stays plain text */ });
  }
  function openSheet(a) {
    if (isTerm(a)) { openTermSheet(a); return; }
    sheetOpener = sheet && sheet.contains(a) ? sheetOpener : a;
    ruleData(a).then(function (r) {
      var h = newSheet(function (h) {
        h.appendChild(el("span", "num", r.number || "Example"));
        h.appendChild(document.createTextNode(" " + context(r)));
      }, crumbText(r.breadcrumb));
      var text = el("div", "sheet-text");
      var tpl = document.createElement("template");
      tpl.innerHTML = crCase(r.html); /* the scraper's vetted HTML subset, as on rule pages */
      if (!r.html) text.textContent = r.text || ""; else text.appendChild(tpl.content);
      sheet.appendChild(text);
      var kids = function (list) {
        var box = el("div", "sheet-kids");
        list.filter(function (d) { return d.kind !== "example"; }).slice(0, 12).forEach(function (d) {
          var row = el("div", "sub"), t3 = document.createElement("template");
          row.appendChild(el("b", "num", d.number || ""));
          if (d.title) row.appendChild(el("b", null, d.title + " "));
          t3.innerHTML = d.html || ""; row.appendChild(t3.content);
          box.appendChild(row);
        });
        if (list.length > 12) box.appendChild(el("p", "none", "…and " + (list.length - 12) + " more on the rule's page."));
        return box;
      };
      if (!r.html && r.descendants) text.appendChild(kids(r.descendants));
      else if (!r.html && r.children && r.children.length) {
        var wait = el("p", "none", "Loading its rules…"); text.appendChild(wait);
        (isStatic && window.NROffline ? window.NROffline.rule(r.id)
          : getJSON("/api/rules/" + encodeURIComponent(r.id) + "?children=1" + (r.version ? "&v=" + encodeURIComponent(r.version) : "")))
          .then(function (full) { wait.replaceWith(kids(full.descendants || [])); }, function () { wait.remove(); });
      }
      (r.examples || []).forEach(function (ex) {
        var d = el("div", "example"), t2 = document.createElement("template");
        t2.innerHTML = ex.html || ""; d.appendChild(t2.content); sheet.appendChild(d);
      });
      var open = el("a", "btn sheet-open", "Open " + (r.number || "the rule") + " →");
      open.href = a.getAttribute("href");
      sheet.appendChild(open);
      showSheet(h);
    }).catch(function () { window.location.href = a.getAttribute("href"); });
  }
  document.addEventListener("click", function (e) {
    if (e.defaultPrevented || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    var t = e.target.closest && e.target.closest(TERM);
    if (t && !t.closest("a")) { e.preventDefault(); hidePreview(); openTermSheet(t); return; } /* a term has no page to leave to */
    var a = e.target.closest && e.target.closest(REF);
    if (!a || !sheetMode()) return;
    e.preventDefault();
    hidePreview();
    openSheet(a);
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape") closeSheet();
    else if ((e.key === "Enter" || e.key === " ") && e.target.matches && e.target.matches(TERM)) {
      e.preventDefault(); hidePreview(); openTermSheet(e.target);
    }
  });

  /* ---------------- copy link, copy rule with citation ---------------- */
  function copyText(text, b, doneLabel) {
    var label = b.textContent;
    var done = function () { b.textContent = doneLabel; setTimeout(function () { b.textContent = label; }, 1800); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { window.prompt("Copy this", text); });
    } else {
      window.prompt("Copy this", text);
    }
  }
  document.querySelectorAll("button.copy[data-url]").forEach(function (b) {
    b.hidden = false;
    b.addEventListener("click", function () { copyText(b.getAttribute("data-url"), b, "Link copied"); });
  });
  document.querySelectorAll("button.cite[data-cite]").forEach(function (b) {
    b.hidden = false;
    b.addEventListener("click", function () {
      var box = document.querySelector(b.getAttribute("data-from") || "#rule .text");
      var text = box ? box.innerText.trim() : "";
      copyText(text + "\n— " + b.getAttribute("data-cite") + " " + b.getAttribute("data-url"), b, "Copied with citation");
    });
  });

  /* ---------------- site menu: links in the header row on wide screens, a menu on a phone ------------- */
  var navmenu = document.getElementById("navmenu");
  if (navmenu) {
    var wide = window.matchMedia("(min-width: 48rem)");
    var styled = window.CSS && CSS.supports && CSS.supports("selector(::details-content)");
    var fit = function () { if (!styled) navmenu.open = wide.matches; };
    fit();
    if (wide.addEventListener) wide.addEventListener("change", fit);
    document.addEventListener("click", function (e) {
      if (navmenu.open && !wide.matches && !navmenu.contains(e.target)) navmenu.open = false;
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && navmenu.open && !wide.matches) { navmenu.open = false; navmenu.querySelector("summary").focus(); }
    });
  }

  /* ---------------- folded sections (changes page chapters): a link's target is opened ---------------- */
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var t = id && document.getElementById(id);
    for (var n = t; n; n = n.parentElement) if (n.nodeName === "DETAILS") n.open = true;
  }
  if (document.querySelector("details.chap")) {
    reveal();
    window.addEventListener("hashchange", reveal);
    var toggle = document.getElementById("chapters-toggle");
    if (toggle) {
      toggle.hidden = false;
      toggle.addEventListener("click", function () {
        var chaps = document.querySelectorAll("details.chap");
        var open = Array.prototype.some.call(chaps, function (d) { return !d.open; });
        chaps.forEach(function (d) { d.open = open; });
        toggle.textContent = open ? "Close every chapter" : "Open every chapter";
      });
    }
  }

  /* ---------------- colour theme: the system's, or a choice kept on this device ---------------- */
  var themeBtn = document.getElementById("theme");
  if (themeBtn) {
    var THEMES = ["system", "dark", "light"];
    var label = function (t) { return t === "system" ? "Colour theme: follows the system" : "Colour theme: " + t; };
    var current = function () { return document.documentElement.getAttribute("data-theme") || "system"; };
    themeBtn.hidden = false;
    themeBtn.setAttribute("aria-label", label(current()));
    themeBtn.title = label(current());
    themeBtn.addEventListener("click", function () {
      var next = THEMES[(THEMES.indexOf(current()) + 1) % THEMES.length];
      if (next === "system") document.documentElement.removeAttribute("data-theme");
      else document.documentElement.setAttribute("data-theme", next);
      try { if (next === "system") localStorage.removeItem("nrrules-theme"); else localStorage.setItem("nrrules-theme", next); } catch (e) { /* not kept */ }
      themeBtn.setAttribute("aria-label", label(next));
      themeBtn.title = label(next);
    });
  }

  /* ---------------- recently viewed and bookmarked rules, kept on this device ---------------- */
  var MAX_RECENT = 12;
  function stored(key) { try { return JSON.parse(localStorage.getItem(key) || "[]"); } catch (e) { return []; } }
  function store(key, list) { try { localStorage.setItem(key, JSON.stringify(list)); } catch (e) { /* not kept */ } }
  var article = document.querySelector("article.rule[data-id]");
  var here = null;
  if (article) {
    var h1 = article.querySelector("h1"), txt = article.querySelector(".text");
    var seen = h1 ? h1.textContent.replace(/\s+/g, " ").trim() : article.getAttribute("data-id");
    if (h1 && !h1.textContent.replace(/^\s*\S+\s*/, "") && txt) seen += " " + txt.textContent.trim().slice(0, 60) + (txt.textContent.trim().length > 60 ? "…" : "");
    here = { id: article.getAttribute("data-id"), v: version, label: seen, href: location.pathname + location.search };
    var same = function (r) { return r.id === here.id && r.v === here.v; };
    store("nrrules-recent", [here].concat(stored("nrrules-recent").filter(function (r) { return !same(r); })).slice(0, MAX_RECENT));
    var tools = article.querySelector(".tools");
    if (tools) {
      var mark = el("button", "bookmark"); mark.type = "button";
      var show = function () {
        var on = stored("nrrules-bookmarks").some(same);
        mark.setAttribute("aria-pressed", on ? "true" : "false");
        mark.textContent = on ? "★ Bookmarked" : "☆ Bookmark";
      };
      mark.addEventListener("click", function () {
        var list = stored("nrrules-bookmarks"), on = list.some(same);
        store("nrrules-bookmarks", on ? list.filter(function (r) { return !same(r); }) : [here].concat(list));
        show();
      });
      show();
      tools.insertBefore(mark, tools.firstChild);
      tools.insertBefore(document.createTextNode(" "), mark.nextSibling);
    }
  }
  function renderMine(box) {
    box.textContent = "";
    [["nrrules-bookmarks", "Bookmarks", "bookmarks"], ["nrrules-recent", "Recently viewed", "recent"]].forEach(function (k) {
      var list = stored(k[0]);
      if (!list.length) return;
      box.appendChild(el("h2", null, k[1]));
      var ul = el("ul", "mine"); ul.id = k[2];
      list.forEach(function (r) {
        var li = el("li"), a = el("a", null, r.label + (r.v ? " (CR " + r.v + ")" : ""));
        a.href = r.href || ("/id/" + encodeURIComponent(r.id) + (r.v ? "?v=" + encodeURIComponent(r.v) : ""));
        li.appendChild(a); ul.appendChild(li);
      });
      box.appendChild(ul);
    });
    box.hidden = !box.childNodes.length;
  }
  window.NRMine = { render: renderMine };
  var mine = document.getElementById("mine");
  if (mine) renderMine(mine);

  /* ---------------- /all: the contents open beside the text on wide screens ---------------- */
  var toc = document.getElementById("toc");
  if (toc && window.matchMedia("(min-width: 64rem)").matches) toc.open = true;

  /* ---------------- rule graph (cytoscape, vendored, loaded on demand) ---------------- */
  var graphBox = document.getElementById("graph");
  if (graphBox) {
    var loaded = null, cy = null;
    var loadLib = function () {
      if (!loaded) {
        loaded = new Promise(function (resolve, reject) {
          var s = document.createElement("script");
          s.src = graphBox.getAttribute("data-lib");
          s.onload = resolve; s.onerror = reject;
          document.head.appendChild(s);
        });
      }
      return loaded;
    };
    /* colours from app.css's variables, so the graph follows the light or dark theme */
    var graphStyle = function () {
      var css = getComputedStyle(document.documentElement);
      var c = function (name, dflt) { return (css.getPropertyValue(name) || "").trim() || dflt; };
      var fg = c("--fg", "#1b1e23"), accent = c("--accent", "#0b63c5"), line = c("--field", "#b8c0ca");
      var bad = c("--bad", "#b3261e"), muted = c("--muted", "#5c6470");
      return [
        { selector: "node", style: { label: "data(label)", "font-size": 10, "background-color": accent, width: 14, height: 14, color: fg } },
        { selector: "node[type = 'card']", style: { "background-color": "#c27c0e", shape: "round-rectangle" } },
        { selector: "node[type = 'term']", style: { "background-color": muted, shape: "diamond" } },
        { selector: "node[depth = 0]", style: { "background-color": bad, width: 22, height: 22, "font-weight": "bold" } },
        { selector: "edge", style: { width: 1.2, "line-color": line, "curve-style": "bezier", "target-arrow-shape": "triangle", "target-arrow-color": line, "arrow-scale": 0.7 } },
        { selector: "edge[kind = 'cites']", style: { "line-color": accent, "target-arrow-color": accent } },
        { selector: "edge[kind = 'contains']", style: { "line-style": "dashed" } }
      ];
    };
    var restyle = function () { if (cy) cy.style(graphStyle()); };
    window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", restyle);
    new MutationObserver(restyle).observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    var draw = function (k) {
      var id = graphBox.getAttribute("data-id");
      var v = graphBox.getAttribute("data-v");
      var url = "/api/rules/" + encodeURIComponent(id) + "/graph?k=" + k + "&kinds=cites,contains,mentions" + (v ? "&v=" + encodeURIComponent(v) : "");
      Promise.all([loadLib(), getJSON(url)]).then(function (res) {
        var data = res[1];
        var els = [];
        data.nodes.forEach(function (n) {
          els.push({ data: { id: n.id, label: n.number || n.label, full: n.label, type: n.type, depth: n.depth } });
        });
        data.links.forEach(function (l, i) {
          els.push({ data: { id: "e" + i, source: l.source, target: l.target, kind: l.kind } });
        });
        if (cy) cy.destroy();
        cy = window.cytoscape({
          container: document.getElementById("cy"),
          elements: els,
          style: graphStyle(),
          layout: { name: "cose", animate: false, nodeRepulsion: 6000, idealEdgeLength: 60 }
        });
        cy.on("tap", "node", function (evt) {
          var d = evt.target.data();
          if (d.type === "rule") window.location.href = "/id/" + encodeURIComponent(d.id) + (v ? "?v=" + encodeURIComponent(v) : "");
        });
        graphBox.querySelector(".gstat").textContent = data.nodes.length + " nodes, " + data.links.length + " links";
        graphBox.setAttribute("data-drawn", String(k));
      }).catch(function (err) {
        graphBox.querySelector(".gstat").textContent = "Could not draw the graph (" + err.message + ")";
      });
    };
    graphBox.addEventListener("toggle", function () { if (graphBox.open && !cy) draw(1); });
    graphBox.querySelectorAll("button[data-k]").forEach(function (b) {
      b.addEventListener("click", function () {
        graphBox.querySelectorAll("button[data-k]").forEach(function (o) { o.setAttribute("aria-pressed", o === b ? "true" : "false"); });
        draw(b.getAttribute("data-k"));
      });
    });
  }
})();
