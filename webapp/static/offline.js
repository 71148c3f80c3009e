/* nrrules offline: registers the service worker (sw.js), saves one CR version on request,
   says when the device is offline and which version is saved, searches the saved copy when
   the server cannot be reached, and renders the offline shell page (/offline.html) that the
   worker answers navigations with when there is no connection. No inline scripts (CSP). */
(function () {
  "use strict";
  var body = document.body;
  var META_CACHE = "nrrules-meta", META_URL = "/offline/saved.json", DATA_PREFIX = "nrrules-data-";
  var hasCaches = "caches" in window && window.isSecureContext;
  /* data-shell="1": the offline shell the worker answers with; "search": a static site's search page */
  var shellMode = body.getAttribute("data-shell");
  var isShell = !!shellMode, offlineShell = shellMode === "1";

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  function kb(n) { return n >= 1e6 ? (n / 1e6).toFixed(2) + " MB" : Math.round(n / 1e3) + " KB"; }

  /* ---------------- the saved version ---------------- */
  function getSaved() {
    if (!hasCaches) return Promise.resolve(null);
    return caches.open(META_CACHE).then(function (c) { return c.match(META_URL); })
      .then(function (r) { return r ? r.json() : null; }).catch(function () { return null; });
  }
  function assetUrls() {
    var urls = [];
    document.querySelectorAll("link[rel=stylesheet][href], link[rel=icon][href], script[src]").forEach(function (n) {
      var u = n.getAttribute("href") || n.getAttribute("src");
      if (u && u.charAt(0) === "/" && urls.indexOf(u) < 0) urls.push(u);
    });
    var s = body.getAttribute("data-search-js");
    if (s && urls.indexOf(s) < 0) urls.push(s);
    return urls;
  }
  function swReady(ms) {
    if (!("serviceWorker" in navigator)) return Promise.resolve(false);
    return Promise.race([
      navigator.serviceWorker.ready.then(function () { return true; }),
      new Promise(function (r) { setTimeout(function () { r(false); }, ms); })
    ]);
  }
  /* Saves `version` (its pack, its reading pack and the pages and assets that one lists, the shell
     page, this page's assets) in a new cache, then records it and deletes every other saved copy:
     the saved version is replaced only once the new one is whole. */
  function save(version, pack, reading) {
    var name = DATA_PREFIX + version + "-" + Date.now();
    var urls = [pack, "/offline.html"].concat(assetUrls());
    var bytes = 0, cards = 0, t0 = performance.now();
    return caches.open(name).then(function (cache) {
      function put(u, read) {
        return fetch(u, { cache: "no-cache", credentials: "same-origin" }).then(function (r) {
          if (!r.ok) throw new Error("HTTP " + r.status + " for " + u);
          return r.clone().arrayBuffer().then(function (buf) {
            bytes += buf.byteLength;
            return cache.put(u, r).then(function () { return read ? JSON.parse(new TextDecoder().decode(buf)) : null; });
          });
        });
      }
      var more = !reading ? Promise.resolve() : put(reading, true).then(function (rp) {
        cards = (rp.cards || []).length;
        var extra = (rp.pages || []).concat(rp.assets || []).filter(function (u) { return urls.indexOf(u) < 0; });
        urls = urls.concat([reading], extra);
        return Promise.all(extra.map(function (u) { return put(u); }));
      });
      return Promise.all(urls.map(function (u) { return put(u); }).concat([more]));
    }).then(function () {
      var meta = { version: version, cache: name, pack: pack, reading: reading || null, cards: cards, bytes: bytes, files: urls.length,
        saved_at: new Date().toISOString(), ms: Math.round(performance.now() - t0) };
      return caches.open(META_CACHE).then(function (c) {
        return c.put(META_URL, new Response(JSON.stringify(meta), { headers: { "Content-Type": "application/json" } }));
      }).then(function () { return meta; });
    }).then(function (meta) {
      return caches.keys().then(function (keys) {
        return Promise.all(keys.filter(function (k) { return k.indexOf(DATA_PREFIX) === 0 && k !== name; })
          .map(function (k) { return caches.delete(k); }));
      }).then(function () { return meta; });
    }, function (err) {
      caches.delete(name);
      throw err;
    });
  }
  function remove() {
    return caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (k) { return k.indexOf("nrrules-") === 0; }).map(function (k) { return caches.delete(k); }));
    });
  }

  /* ---------------- the saved copy's search index ---------------- */
  var indexPromise = null;
  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      if (window.NROfflineIndex) return resolve();
      var s = document.createElement("script");
      s.src = src; s.onload = resolve; s.onerror = function () { reject(new Error("cannot load " + src)); };
      document.head.appendChild(s);
    });
  }
  function loadIndex() {
    if (!indexPromise) {
      var script = loadScript(body.getAttribute("data-search-js"));
      indexPromise = getSaved().then(function (meta) {
        if (!meta) {
          /* nothing saved: this page's version from the network (a static site's search) */
          var pack = body.getAttribute("data-pack");
          if (!pack || !navigator.onLine) throw new Error("no version is saved on this device");
          return Promise.all([fetch(pack).then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); }), script]);
        }
        return caches.open(meta.cache).then(function (c) {
          return Promise.all([c.match(meta.pack), script]);
        }).then(function (res) {
          if (!res[0]) throw new Error("the saved copy is incomplete");
          return Promise.all([res[0].json()]);
        });
      }).then(function (res) { return new window.NROfflineIndex(res[0]); });
      indexPromise.catch(function () { indexPromise = null; });
    }
    return indexPromise;
  }
  function hitUrl(ix, id) { return "/id/" + encodeURIComponent(id); }

  /* The saved reading pack (cards and their rulings, the list of saved pages: sw.js, views/offline.py),
     its cards' markup expanded back from the pack's units (compact_markup); null when the saved
     copy has none (saved before there was one, or a build without cards). */
  var readingPromise = null;
  function loadReading() {
    if (!readingPromise) {
      readingPromise = getSaved().then(function (meta) {
        if (!meta || !meta.reading) return null;
        return caches.open(meta.cache).then(function (c) { return c.match(meta.reading); })
          .then(function (r) { return r ? r.json() : null; });
      }).then(function (rp) {
        if (!rp) return null;
        var units = rp.units || [], expand = function (markup) {
          return (markup || "").replace(/\x7f([\s\S])/g, function (m, ch) { return units[ch.charCodeAt(0) - 256] || ""; });
        };
        rp.byId = new Map();
        rp.byTitle = new Map();
        (rp.cards || []).forEach(function (row, i) {
          rp.byId.set(row[0], i);
          rp.byTitle.set(cardKey(row[1]), i);
        });
        rp.card = function (i) {
          var row = rp.cards[i];
          return { id: row[0], title: row[1], head: expand(row[2]), rulings: expand(row[3] || rp.no_rulings), mentions: row[4] || [], cited: row[5] || [] };
        };
        return rp;
      });
      readingPromise.catch(function () { readingPromise = null; });
    }
    return readingPromise;
  }
  /* a card's name as typed: case, accents and punctuation aside ("Snare!" = "snare") */
  function cardKey(name) {
    return String(name).normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
  }

  window.NROffline = {
    saved: getSaved,
    save: save,
    load: loadIndex,
    /* Results shaped like /api/search's. */
    search: function (q, limit) {
      return loadIndex().then(function (ix) {
        return ix.search(NROfflineIndex.focus(q), limit).map(function (h) { h.url = hitUrl(ix, h.id); return h; });
      });
    },
    /* A rule shaped like /api/rules/<id>'s (what previews need). */
    rule: function (id) {
      return loadIndex().then(function (ix) {
        var r = ix.find(id);
        if (!r) throw new Error("not in the saved copy");
        return {
          id: r.id, number: r.number, title: r.title, kind: r.kind, text: ix.text(r.pos), html: r.html,
          descendants: (function walk(p, out) {
            ix.kids(p).forEach(function (k) { var x = ix.rule(k); if (x.kind !== "example" && out.length < 40) { out.push(x); walk(k, out); } });
            return out;
          })(r.pos, []),
          breadcrumb: ix.ancestors(r.pos).map(function (a) { var x = ix.rule(a); return { id: x.id, number: x.number, title: x.title }; })
        };
      });
    }
  };

  /* A defined term shaped like /api/terms/<term>'s: the rules defining it (the pack's terms_of)
     and the other rules whose text or examples use it as words (graph.rules_for_term). */
  function termOf(ix, t) {
    var key = String(t).replace(/\s+/g, " ").trim().toLowerCase();
    var of = ix.pack.terms_of || {}, defines = [], uses = [];
    Object.keys(of).forEach(function (p) { if (of[p].indexOf(key) >= 0) defines.push(Number(p)); });
    defines.sort(function (a, b) { return a - b; });
    var words = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+");
    var re = new RegExp("(?<![\\p{L}\\p{N}_-])" + words + "(?![\\p{L}\\p{N}_-])", "iu");
    ix.rules.forEach(function (row, pos) {
      var kind = ix.kinds[row[2]];
      if (kind === "example" || defines.indexOf(pos) >= 0) return;
      var text = [ix.text(pos)].concat(ix.examples(pos).map(function (e) { return ix.text(e); })).join("\n");
      if (re.test(text)) uses.push(pos);
    });
    var brief = function (p) { var r = ix.rule(p); return { id: r.id, number: r.number, title: r.title }; };
    return {
      version: ix.version, term: key,
      defines: defines.map(function (p) {
        var r = ix.rule(p), d = brief(p);
        d.text = ix.text(p); d.html = r.html; d.url = "/id/" + encodeURIComponent(r.id);
        d.breadcrumb = ix.ancestors(p).map(brief);
        return d;
      }),
      uses: uses.map(brief)
    };
  }
  window.NROffline.term = function (t) {
    return loadIndex().then(function (ix) {
      var d = termOf(ix, t);
      if (!d.defines.length && !d.uses.length) throw new Error("not in the saved copy");
      return d;
    });
  };

  /* ---------------- status: offline notice and the save control ---------------- */
  var status = document.getElementById("netstatus");
  var ctl = document.getElementById("offline-ctl");
  /* data-saved-why: the worker answered from the saved copy ("offline": no connection, "slow": the
     network took too long; sw.js) */
  var savedWhy = body.getAttribute("data-saved-why");
  function showStatus() {
    if (!status) return;
    var slow = savedWhy === "slow" && navigator.onLine;
    var offline = !navigator.onLine || (offlineShell && !slow) || savedWhy === "offline";
    if (!offline && !slow) { status.hidden = true; status.textContent = ""; body.classList.remove("is-offline"); return; }
    body.classList.add("is-offline");
    getSaved().then(function (meta) {
      status.hidden = false;
      var copy = meta ? "the copy of CR " + meta.version + " saved on this device on " + new Date(meta.saved_at).toLocaleDateString() + "." : "";
      status.textContent = slow
        ? "The network is slow: this is " + copy + " "
        : meta ? "You are offline. Reading " + copy : "You are offline, and no CR version is saved on this device.";
      if (slow && navigator.serviceWorker && navigator.serviceWorker.controller) {
        var again = el("button", "btn", "Wait for the server's page");
        again.type = "button";
        again.addEventListener("click", function () {
          /* the worker lets the next load of this page wait for the network (sw.js "wait") */
          var ch = new MessageChannel();
          ch.port1.onmessage = function () { location.reload(); };
          navigator.serviceWorker.controller.postMessage({ wait: location.href.split("#")[0] }, [ch.port2]);
          again.disabled = true;
        });
        status.appendChild(again);
      }
      status.setAttribute("data-saved", meta ? meta.version : "");
      status.setAttribute("data-why", slow ? "slow" : "offline");
    });
  }
  function renderControl() {
    if (!ctl || !hasCaches) return;
    var version = body.getAttribute("data-version"), pack = body.getAttribute("data-pack");
    var reading = body.getAttribute("data-reading") || null;
    getSaved().then(function (meta) {
      ctl.textContent = "";
      ctl.hidden = false;
      var line = el("span", "offline-state");
      ctl.appendChild(line);
      if (meta) {
        line.textContent = "Saved for offline use: CR " + meta.version + " ✓ " + new Date(meta.saved_at).toLocaleDateString() + " (" + kb(meta.bytes) + ").";
        ctl.setAttribute("data-saved", meta.version);
      } else {
        line.textContent = "Nothing saved for offline use on this device.";
        ctl.removeAttribute("data-saved");
      }
      if (isShell || !version || !pack) return;
      var same = meta && meta.version === version && meta.pack === pack && (meta.reading || null) === reading;
      if (!same) {
        var b = el("button", "btn save-offline", (meta ? (meta.version === version ? "Update" : "Replace it with") + " CR " + version : "Save CR " + version + " for offline"));
        b.type = "button";
        b.addEventListener("click", function () {
          b.disabled = true;
          line.textContent = "Saving CR " + version + " for offline use…";
          save(version, pack, reading).then(function (m) {
            return swReady(10000).then(function (ok) {
              indexPromise = null; readingPromise = null;
              renderControl();
              if (!ok) line.textContent += " (this browser cannot open pages offline)";
              ctl.setAttribute("data-save-ms", String(m.ms));
            });
          }, function (err) {
            b.disabled = false;
            line.textContent = "Could not save CR " + version + ": " + err.message;
          });
        });
        ctl.appendChild(document.createTextNode(" "));
        ctl.appendChild(b);
      }
      if (meta) {
        var rm = el("button", "btn remove-offline", "Remove");
        rm.type = "button";
        rm.addEventListener("click", function () { remove().then(function () { indexPromise = null; renderControl(); }); });
        ctl.appendChild(document.createTextNode(" "));
        ctl.appendChild(rm);
      }
    });
  }
  window.addEventListener("online", showStatus);
  window.addEventListener("offline", showStatus);
  showStatus();
  renderControl();
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () { /* no offline use */ });
  }

  /* ---------------- the offline shell: render from the saved pack ---------------- */
  if (!isShell) return;
  var rootBox = document.getElementById("offline-root");

  function html(node, markup) {
    /* The pack holds the scraper's vetted HTML subset (links, symbols, terms): the same bytes
       the server inserts in its pages, with a leading lowercase term capitalised as a sentence
       start (webapp/reading.py cr_case). */
    var t = document.createElement("template");
    t.innerHTML = (markup || "").replace(/^(<span class="term">)([a-z])/, function (m, tag, c) { return tag + c.toUpperCase(); });
    node.appendChild(t.content);
    return node;
  }
  function ruleLink(ix, pos, label, cls) {
    var r = ix.rule(pos);
    var a = el("a", cls || null, label != null ? label : (r.number || "Example"));
    a.href = "/id/" + encodeURIComponent(r.id);
    a.setAttribute("data-id", r.id);
    return a;
  }
  function labelOf(ix, pos) {
    var r = ix.rule(pos);
    if (r.kind === "example") return "Example";
    return [r.number, r.title].filter(Boolean).join(" ") || r.id;
  }
  var CONTEXT_KINDS = ["subrule", "step", "timing_step"];
  function shortLabel(ix, pos, limit) { /* a rule's title, else the start of its text (reading.ref_label) */
    var r = ix.rule(pos);
    if (r.title) return r.title;
    var text = ix.text(pos).replace(/\s+/g, " ").trim();
    if (/^<span class="term">[a-z]/.test(r.html || "")) text = text.charAt(0).toUpperCase() + text.slice(1); /* reading.cr_case */
    if (text.length > limit) { text = text.slice(0, limit - 1); text = text.slice(0, text.lastIndexOf(" ") > 0 ? text.lastIndexOf(" ") : text.length) + "…"; }
    return text;
  }
  function refList(ix, id, title, list, none) {
    var box = el("div");
    box.appendChild(el("h2", null, title));
    if (!list.length) { box.appendChild(el("p", "none", none)); return box; }
    var ul = el("ul"); ul.id = id;
    list.forEach(function (p) {
      var li = el("li");
      li.appendChild(ruleLink(ix, p, null, "ref"));
      var r = ix.rule(p), anc = ix.ancestors(p);
      var ctx = r.title || (anc.length ? ix.rule(anc[anc.length - 1]).title : "") || "";
      if (ctx) li.appendChild(document.createTextNode(" " + ctx));
      ul.appendChild(li);
    });
    box.appendChild(ul);
    return box;
  }
  function subtree(ix, pos, into, depth, withText) {
    ix.kids(pos).forEach(function (k) {
      var r = ix.rule(k);
      if (r.kind === "example") return;
      var d = el("div", "sub d" + Math.min(depth, 4) + " k-" + r.kind);
      d.id = r.id;
      d.appendChild(ruleLink(ix, k, r.number, "num"));
      if (r.title) { d.appendChild(document.createTextNode(" ")); d.appendChild(el("b", null, r.title)); }
      if (withText) {
        d.appendChild(document.createTextNode(" "));
        html(d, r.html);
        ix.examples(k).forEach(function (e) { d.appendChild(html(el("div", "example"), ix.rule(e).html)); });
      }
      into.appendChild(d);
      if (withText) subtree(ix, k, into, depth + 1, true);
    });
  }
  function renderRule(ix, pos) {
    var r = ix.rule(pos);
    document.title = "CR " + (r.number || "example") + (r.title ? " " + r.title : "") + " (offline) — nrrules";
    var crumbs = el("nav", "crumbs"); crumbs.setAttribute("aria-label", "Breadcrumbs");
    var home = el("a", null, "CR " + ix.version); home.href = "/"; crumbs.appendChild(home);
    ix.ancestors(pos).forEach(function (a) { crumbs.appendChild(document.createTextNode(" › ")); crumbs.appendChild(ruleLink(ix, a, labelOf(ix, a))); });
    rootBox.appendChild(crumbs);
    /* a sub-rule's or step's parent and siblings, as the server's pages show them (webapp/reading.py) */
    var parent = CONTEXT_KINDS.indexOf(r.kind) >= 0 && r.parent >= 0 ? ix.rule(r.parent) : null;
    if (parent && (parent.kind === "chapter" || parent.kind === "section")) parent = null;
    if (parent) {
      var part = el("p", "context parent"); part.id = "parent-rule";
      part.appendChild(document.createTextNode("Part of "));
      part.appendChild(ruleLink(ix, parent.pos, parent.number, "ref"));
      if (parent.title) { part.appendChild(document.createTextNode(" ")); part.appendChild(el("b", null, parent.title)); }
      if (parent.html) { part.appendChild(document.createTextNode(": ")); html(part, parent.html); }
      rootBox.appendChild(part);
    }
    var art = el("article", "rule"); art.id = "rule"; art.setAttribute("data-id", r.id);
    var h1 = el("h1"); h1.appendChild(el("span", "num", r.number || "Example"));
    if (r.title) h1.appendChild(document.createTextNode(" " + r.title));
    art.appendChild(h1);
    if (r.html) art.appendChild(html(el("div", "text"), r.html));
    ix.examples(pos).forEach(function (e) { art.appendChild(html(el("div", "example"), ix.rule(e).html)); });
    var sub = el("div", "subtree");
    subtree(ix, pos, sub, 1, r.kind !== "chapter");
    if (sub.childNodes.length) art.appendChild(sub);
    rootBox.appendChild(art);
    var sibs = parent ? ix.kids(parent.pos).filter(function (k) { return ix.rule(k).kind !== "example"; }) : [];
    if (sibs.length > 1) {
      var nav = el("nav", "context"); nav.setAttribute("aria-labelledby", "siblings-h");
      var h2 = el("h2", null, "In " + parent.number + (parent.title ? " " + parent.title : "")); h2.id = "siblings-h";
      nav.appendChild(h2);
      var ol = el("ol", "siblings"); ol.id = "siblings";
      sibs.forEach(function (k) {
        var li = el("li"), sb = ix.rule(k), text = (sb.number || "") + " " + shortLabel(ix, k, 70);
        if (k === pos) { li.setAttribute("aria-current", "true"); li.appendChild(el("span", "here", text)); }
        else li.appendChild(ruleLink(ix, k, text));
        ol.appendChild(li);
      });
      nav.appendChild(ol);
      rootBox.appendChild(nav);
    }
    var links = el("section", "links");
    links.appendChild(refList(ix, "cites", "Cites", ix.cites(pos), "No cross references."));
    links.appendChild(refList(ix, "cited-by", "Cited by", ix.citedBy(pos), "No rule cites this one."));
    rootBox.appendChild(links);
  }
  function renderAll(ix) {
    document.title = "The whole CR " + ix.version + " (offline) — nrrules";
    rootBox.appendChild(el("h1", null, "Comprehensive Rules " + ix.version));
    var whole = el("div", "whole");
    ix.rules.forEach(function (_, pos) {
      if (ix.rules[pos][4] !== -1) return;
      var r = ix.rule(pos);
      var h = el("h2", "chapter-h"); h.id = r.id;
      h.appendChild(ruleLink(ix, pos, r.number, "num")); h.appendChild(document.createTextNode(" " + (r.title || "")));
      whole.appendChild(h);
      subtree(ix, pos, whole, 1, true);
    });
    rootBox.appendChild(whole);
    if (location.hash) { var t = document.getElementById(decodeURIComponent(location.hash.slice(1))); if (t) t.scrollIntoView(); }
  }
  function renderSearch(ix, q) {
    document.title = q + " — search (offline) — nrrules";
    var input = document.querySelector(".searchform .q"); if (input) input.value = q;
    var found = ix.lookup(q);
    if (found.pos !== null) { location.replace("/id/" + encodeURIComponent(ix.rules[found.pos][0])); return; }
    var h1 = el("h1", null, "Search: “" + q + "” "); h1.appendChild(el("small", null, "CR " + ix.version + ", saved copy"));
    rootBox.appendChild(h1);
    var hits = ix.search(NROfflineIndex.focus(q), 25); /* a long post: its question (question.focus) */
    if (found.suggestions.length) {
      var p = el("p", "suggestions", "No rule " + found.ref.value + " in CR " + ix.version + ". Nearest: ");
      found.suggestions.forEach(function (n, i) {
        if (i) p.appendChild(document.createTextNode(", "));
        p.appendChild(ruleLink(ix, ix.byNumber.get(n), n, "ref"));
      });
      rootBox.appendChild(p);
    }
    if (!hits.length) { if (!found.suggestions.length) rootBox.appendChild(el("p", "none", "No rule matches “" + q + "”.")); return; }
    var ol = el("ol", "results");
    hits.forEach(function (h) {
      var li = el("li"), a = el("a");
      a.href = hitUrl(ix, h.id);
      a.appendChild(el("b", null, h.number || ""));
      a.appendChild(document.createTextNode(" " + (h.title || "")));
      li.appendChild(a);
      if (h.breadcrumb.length) li.appendChild(el("div", "crumb", h.breadcrumb.map(function (b) { return (b.number || "") + (b.title ? " " + b.title : ""); }).join(" › ")));
      var snip = el("div", "snip");
      html(snip, h.snippet); /* escaped text with <mark> (offline-search.js escapes) */
      li.appendChild(snip);
      ol.appendChild(li);
    });
    rootBox.appendChild(ol);
  }
  function renderHome(ix) {
    document.title = "CR " + ix.version + " (offline) — nrrules";
    rootBox.appendChild(el("h1", null, "Netrunner Comprehensive Rules, CR " + ix.version));
    rootBox.appendChild(el("p", "lead", "This is the copy saved on this device: search it with the box above, or open a chapter."));
    if (window.NRMine) { var mine = el("section"); mine.id = "mine"; rootBox.appendChild(mine); window.NRMine.render(mine); }
    var ol = el("ol", "toc");
    ix.rules.forEach(function (r, pos) {
      if (r[4] !== -1) return;
      var li = el("li"); li.appendChild(ruleLink(ix, pos, labelOf(ix, pos))); ol.appendChild(li);
    });
    rootBox.appendChild(ol);
  }
  function notFound(ix, what) {
    document.title = "Not in the saved copy — nrrules";
    var h1 = el("h1", "err", "Not in the saved copy");
    rootBox.appendChild(h1);
    rootBox.appendChild(el("p", "errmsg", what + " is not in the copy of CR " + ix.version + " saved on this device."));
    body.setAttribute("data-not-saved", "1");
  }
  /* What the saved copy holds, with links: said on every page it cannot show. */
  function inTheCopy(rp) {
    var p = el("p", "in-copy", "It holds the rules (");
    var all = el("a", null, "the whole CR"); all.href = "/all"; p.appendChild(all);
    p.appendChild(document.createTextNode(", search)"));
    if (rp && rp.cards.length) p.appendChild(document.createTextNode(", " + rp.cards.length.toLocaleString("en") + " cards with their official rulings"));
    var judge = rp && rp.pages.filter(function (u) { return u === "/j/"; })[0];
    var changes = rp && rp.pages.filter(function (u) { return u.indexOf("/changes/") === 0; })[0];
    if (judge) { p.appendChild(document.createTextNode(", ")); var j = el("a", null, "the judges' documents"); j.href = judge; p.appendChild(j); }
    if (changes) { p.appendChild(document.createTextNode(", ")); var c = el("a", null, "what changed in CR " + changes.split("..")[1]); c.href = changes; p.appendChild(c); }
    p.appendChild(document.createTextNode("."));
    rootBox.appendChild(p);
  }
  /* A page the saved copy does not hold (the board editor, the stepper, another CR's changes...):
     said as such, never another page in its place. */
  function notSaved(ix, rp, path) {
    var what = /^\/(editor|step)(\/|$)/.test(path) ? "The board editor and stepper (" + path + ")"
      : /^\/changes\//.test(path) ? "What changed " + path.slice(9).replace("..", " → ")
      : /^\/j(\/|$)/.test(path) ? "The judges' document " + path
      : "The page " + path;
    notFound(ix, what);
    rootBox.appendChild(el("p", "errmsg", "It needs a connection: open it again when you are online."));
    inTheCopy(rp);
  }
  function renderCard(ix, rp, i) {
    var c = rp.card(i);
    document.title = c.title + " — card, rulings and rules (offline) — nrrules";
    var crumbs = el("nav", "crumbs"); crumbs.setAttribute("aria-label", "Breadcrumbs");
    var home = el("a", null, "CR " + ix.version); home.href = "/"; crumbs.appendChild(home);
    crumbs.appendChild(document.createTextNode(" › Cards"));
    rootBox.appendChild(crumbs);
    var art = el("article", "card-page"); art.id = "card"; art.setAttribute("data-id", c.id);
    html(art, c.head);
    rootBox.appendChild(art);
    var eng = el("section", "engine-units"); eng.id = "in-the-stepper";
    eng.appendChild(el("h2", null, "In the stepper"));
    eng.appendChild(el("p", "none", "What the stepper does with this card is not in the saved copy: it needs a connection."));
    rootBox.appendChild(eng);
    var box = el("div"); html(box, c.rulings);
    while (box.firstChild) rootBox.appendChild(box.firstChild);
    var links = el("section", "links");
    var known = function (id) { return ix.byId.get(id) !== undefined; };
    var mention = el("div");
    mention.appendChild(el("h2", null, "Rules that mention " + c.title));
    var ms = c.mentions.filter(known);
    if (ms.length) {
      var ul = el("ul"); ul.id = "card-rules";
      ms.forEach(function (id) {
        var pos = ix.byId.get(id), li = el("li");
        li.appendChild(ruleLink(ix, pos, null, "ref"));
        li.appendChild(document.createTextNode(" "));
        li.appendChild(el("span", "ctx", shortLabel(ix, pos, 160)));
        ul.appendChild(li);
      });
      mention.appendChild(ul);
    } else mention.appendChild(el("p", "none", "No rule of CR " + ix.version + " mentions this card."));
    links.appendChild(mention);
    var cited = el("div");
    cited.appendChild(el("h2", null, "Rules cited by its rulings"));
    var cs = c.cited.filter(known);
    if (cs.length) {
      var cl = el("ul"); cl.id = "cited-rules";
      cs.forEach(function (id) { var li = el("li"); li.appendChild(ruleLink(ix, ix.byId.get(id), null, "ref")); cl.appendChild(li); });
      cited.appendChild(cl);
    } else cited.appendChild(el("p", "none", "None."));
    links.appendChild(cited);
    rootBox.appendChild(links);
    if (location.hash) { var t = document.getElementById(decodeURIComponent(location.hash.slice(1))); if (t) t.scrollIntoView(); }
  }
  /* the saved page "/changes" or "/j" stands for (none if this is it: the worker had no such page) */
  function savedTarget(rp, path) {
    var u = rp && rp.pages.filter(function (x) { return x.indexOf(path + "/") === 0; })[0];
    return u && u !== location.pathname ? u : null;
  }
  function findCard(rp, ref) {
    if (!rp) return null;
    var i = rp.byId.get(ref);
    if (i === undefined) i = rp.byTitle.get(cardKey(ref));
    if (i === undefined) i = rp.byTitle.get(cardKey(ref.replace(/-/g, " ")));
    return i === undefined ? null : i;
  }

  Promise.all([loadIndex(), loadReading().catch(function () { return null; })]).then(function (both) {
    var ix = both[0], rp = both[1];
    rootBox.textContent = "";
    body.setAttribute("data-version", ix.version);
    var path = decodeURIComponent(location.pathname), params = new URLSearchParams(location.search);
    var v = params.get("v"), vm = /^\/v\/(\d+\.\d+)(\/.*)$/.exec(path);
    if (vm) { v = vm[1]; path = vm[2]; } /* a static site's /v/22.12/id/... */
    if (path.length > 1) path = path.replace(/\/+$/, "");
    if (v && v !== ix.version) {
      rootBox.appendChild(el("p", "oldver", "CR " + v + " is not saved on this device; this is the saved CR " + ix.version + "."));
    }
    var m;
    if ((m = /^\/id\/(.+)$/.exec(path))) {
      var pos = ix.byId.get(m[1]);
      if (pos === undefined) notFound(ix, "The rule " + m[1]); else renderRule(ix, pos);
    } else if ((m = /^\/r\/(.+)$/.exec(path))) {
      var f = ix.lookup(m[1]);
      if (f.pos === null) notFound(ix, "Rule " + m[1]); else renderRule(ix, f.pos);
    } else if ((m = /^\/c\/(.+)$/.exec(path)) || (path === "/c" && (m = [null, params.get("q") || ""]))) {
      var ci = findCard(rp, m[1]);
      if (ci !== null) renderCard(ix, rp, ci);
      else {
        /* a card the saved copy does not hold (or a copy saved without cards) */
        notFound(ix, "The card page " + m[1]);
        var p = el("p", null, "The rules that mention a card are in the copy: ");
        var a = el("a", null, "search for " + m[1].replace(/-/g, " "));
        a.href = "/search?q=" + encodeURIComponent(m[1].replace(/-/g, " "));
        p.appendChild(a); p.appendChild(document.createTextNode("."));
        rootBox.appendChild(p);
      }
    } else if (path === "/all") {
      renderAll(ix);
    } else if ((path === "/search" || path === "/") && params.get("q")) {
      renderSearch(ix, params.get("q").trim());
      var named = findCard(rp, params.get("q").trim());
      if (named !== null && rootBox.firstChild) {
        /* a card's name: its saved page first, as the server's search lists the card */
        var cp = el("p", "card-hit", "Card: "), ca = el("a", null, rp.cards[named][1]);
        ca.href = "/c/" + encodeURIComponent(rp.cards[named][0]);
        cp.appendChild(ca);
        rootBox.insertBefore(cp, rootBox.firstChild.nextSibling);
      }
    } else if (path === "/" || path === "/search") {
      renderHome(ix);
    } else if ((path === "/changes" || path === "/j") && savedTarget(rp, path)) {
      /* the nav's "Changes" and "Judges' documents": the saved ones */
      location.replace(savedTarget(rp, path));
      return;
    } else {
      notSaved(ix, rp, path);
    }
    if (window.NRReading) window.NRReading.armTerms(rootBox); /* terms open their definition */
    body.setAttribute("data-rendered", "1");
  }, function (err) {
    rootBox.textContent = "";
    rootBox.appendChild(el("h1", null, "You are offline"));
    rootBox.appendChild(el("p", null, "This page is not available without a connection (" + err.message + ")."));
    body.setAttribute("data-rendered", "0");
  });
})();
