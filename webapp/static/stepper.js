/* Stepper: a rule's text opens in place (a bottom sheet on phones, a popover on wide screens)
   when a step number or a fired rule is tapped; copy the ruling's summary; expand or fold the
   whole trace; take a decision (or undo one) in place: the decision's JSON twin
   (POST /api/engine/sessions/<token>/decisions?html=1) brings the page's new main part, which
   replaces the old one, and the address bar follows (history API), so the link stays the one to
   share and Back goes back a decision. Share: a short link (/s/<id>, made once per position by
   POST /api/engine/sessions/<token>/short), then the browser's own share sheet
   (navigator.share) where it has one, else the link copied.
   When the server cannot be reached (or fails), a decision is stepped in this browser by the same engine (stepper-offline.js). Progressive enhancement: without this file every rule is a
   link to its page, every group a <details> and every decision a form button. No inline
   scripts (CSP). */
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
  /* what the main part needs once drawn (at load, and after each in-place update) */
  function enhance() {
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

    /* what sharing needs: the share sheet where the browser has one, copying the link */
    var box = document.getElementById("share");
    if (box) {
      var sheetBtn = box.querySelector("button.share-sheet");
      if (sheetBtn) sheetBtn.hidden = !navigator.share;
      var copyBtn = box.querySelector("button.copylink");
      if (copyBtn) copyBtn.hidden = false;
    }

    /* expand / fold the whole trace */
    var trace = document.getElementById("trace");
    var h2 = trace && trace.parentNode.querySelector("h2");
    if (trace && h2 && !document.getElementById("expand-all")) {
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
  }
  enhance();

  /* ---------- sharing ---------- */
  var shortUrls = {}; /* token -> its short link, once made */
  function say(msg) {
    var st = document.getElementById("share-status");
    if (st) st.textContent = msg;
  }
  function showShort(url) {
    var field = document.getElementById("share-url");
    var summary = document.getElementById("share-summary");
    if (!field) return;
    if (summary && field.value !== url) summary.value = summary.value.split(field.value).join(url);
    field.value = url;
    var make = document.getElementById("short-make");
    if (make) make.remove();
  }
  /* the short link of the page's position: made on the first ask, the long link if it cannot be */
  function shortLink() {
    var box = document.getElementById("share");
    var field = document.getElementById("share-url");
    if (!box || !field) return Promise.resolve(location.href);
    var token = box.getAttribute("data-token");
    if (!document.getElementById("short-make")) return Promise.resolve(field.value); /* already short */
    if (shortUrls[token]) { showShort(shortUrls[token]); return Promise.resolve(shortUrls[token]); }
    if (!window.fetch) return Promise.resolve(field.value);
    return fetch("/api/engine/sessions/" + encodeURIComponent(token) + "/short", {
      method: "POST", headers: { Accept: "application/json" }
    }).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json();
    }).then(function (d) {
      shortUrls[token] = d.url;
      if (document.getElementById("share") && document.getElementById("share").getAttribute("data-token") === token) showShort(d.url);
      return d.url;
    }).catch(function () { return field.value; }); /* the long link works everywhere */
  }
  function copyLink(url, how) {
    var field = document.getElementById("share-url");
    var done = function () { say("Link copied" + (how || "") + ": " + url); };
    var pick = function () {
      if (field) { field.focus({ preventScroll: true }); field.select(); }
      say("The link is selected: copy it" + (how || "") + ".");
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).then(done, pick);
    else pick();
  }
  function share() {
    var box = document.getElementById("share");
    if (!box) return;
    var ready = !document.getElementById("short-make") || shortUrls[box.getAttribute("data-token")];
    var ask = function (url) {
      var data = { title: box.getAttribute("data-title") || document.title, text: box.getAttribute("data-text") || "", url: url };
      if (!navigator.share || (navigator.canShare && !navigator.canShare(data))) {
        box.scrollIntoView({ block: "start" });
        copyLink(url, " (this browser has no share sheet)");
        return;
      }
      navigator.share(data).then(function () { say("Shared: " + url); }, function (err) {
        if (err && err.name === "AbortError") { say("Not shared."); return; }
        /* the short link took too long for the browser's "one tap, one share": it is ready now */
        box.scrollIntoView({ block: "start" });
        say("The short link is ready: tap Share again, or copy it.");
      });
    };
    if (ready) ask(ready === true ? document.getElementById("share-url").value : ready);
    else shortLink().then(ask);
  }
  /* the fetch starts as the finger lands, so the link is usually there by the tap's end */
  document.addEventListener("pointerdown", function (e) {
    if (e.target.closest && e.target.closest("#share-now, #share button.share-sheet")) shortLink();
  });
  document.addEventListener("click", function (e) {
    var t = e.target.closest && e.target.closest("#share-now, #share button.share-sheet, #share button.copylink");
    if (!t || e.ctrlKey || e.metaKey || e.shiftKey || e.button) return;
    e.preventDefault();
    if (t.matches("button.copylink")) shortLink().then(function (url) { copyLink(url); });
    else share();
  });
  document.addEventListener("submit", function (e) {
    if (!e.target.matches || !e.target.matches("form#make-short") || !window.fetch) return;
    e.preventDefault();
    shortLink().then(function (url) {
      if (document.getElementById("short-make")) e.target.submit(); /* could not make it here: the form's way */
      else say("Short link made: " + url);
    });
  });

  /* ---------- decisions and undo in place ---------- */
  var busy = false;
  function tokenOf(url) {
    var m = /[?&]s=([^&#]+)/.exec(url || "");
    return m ? m[1] : null;
  }
  function show(data, push) {
    var main = document.querySelector(".st");
    if (!main || typeof data.html !== "string") throw new Error("no page part in the answer");
    close();
    var box = document.createElement("div");
    box.innerHTML = data.html;
    var fresh = box.querySelector(".st");
    if (!fresh) throw new Error("no page part in the answer");
    main.replaceWith(fresh);
    document.title = document.title.replace(/^.*? · stepper/, (data.title || "Stepper") + " · stepper");
    if (push) history.pushState({ s: data.token }, "", data.url);
    enhance();
    var first = fresh.querySelector("#decisions button") || fresh.querySelector("#finished") || fresh.querySelector("h1");
    if (first) {
      if (!first.matches("button")) first.setAttribute("tabindex", "-1");
      first.focus({ preventScroll: true });
    }
  }
  function load(req, push, fallback) {
    if (busy) return;
    busy = true;
    var main = document.querySelector(".st");
    main.setAttribute("aria-busy", "true");
    fetch(req.url, req.init).then(function (r) {
      if (!r.ok) { var e = new Error("HTTP " + r.status); e.status = r.status; throw e; }
      return r.json();
    }).then(function (data) {
      busy = false;
      show(data, push);
    }).catch(function (err) {
      busy = false;
      main.removeAttribute("aria-busy");
      fallback(err);  /* the page without JavaScript's way: a form post or a link */
    });
  }
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.matches || !form.matches("form#decisions") || !window.fetch || !history.pushState) return;
    var btn = e.submitter;
    var token = form.querySelector("input[name=s]").value;
    if (!btn || !btn.value || !token) return;
    e.preventDefault();
    load({
      url: "/api/engine/sessions/" + encodeURIComponent(token) + "/decisions?html=1",
      init: { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify({ decision: btn.value }) }
    }, true, function (err) {
      /* no network, or the server failed: the same engine steps it in this browser
         (stepper-offline.js), else the form is posted as without JavaScript */
      if (window.NROfflineStepper && !(err && err.status < 500)) {
        window.NROfflineStepper.take(token, btn.value).catch(function () {});
        return;
      }
      var hidden = document.createElement("input");
      hidden.type = "hidden"; hidden.name = "decision"; hidden.value = btn.value;
      form.appendChild(hidden);
      form.submit();
    });
  });
  function session(token) {
    return { url: "/api/engine/sessions/" + encodeURIComponent(token) + "?html=1", init: { headers: { Accept: "application/json" } } };
  }
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a#undo");
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button || !window.fetch || !history.pushState) return;
    var token = tokenOf(a.getAttribute("href"));
    if (!token) return;
    e.preventDefault();
    load(session(token), true, function () { window.location.href = a.href; });
  });
  if (history.replaceState) history.replaceState({ s: tokenOf(location.search) }, "", location.href);
  window.addEventListener("popstate", function (e) {
    var token = (e.state && e.state.s) || tokenOf(location.search);
    if (!token || !document.querySelector(".st")) return;
    load(session(token), false, function () { window.location.reload(); });
  });
})();
