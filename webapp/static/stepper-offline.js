/* The stepper offline (issue 35). When a decision cannot reach the server (no network, or the
   server answers with an error), stepper.js hands it here: the same engine steps the session in
   a Web Worker running Pyodide (stepper-worker.js), and the page's main part is redrawn from
   its answer (decisions, the step now, the outcome and the trace), with Undo, until the network
   is back. "Save the stepper for offline" keeps what that needs (Pyodide, the engine zip, the
   CR document of this version, this page and its assets) in the cache nrrules-stepper-<version>,
   which sw.js answers from; its size is shown on the button. No inline scripts (CSP). */
(function () {
  "use strict";
  var box = document.getElementById("offstep");
  if (!box || !window.Worker || !window.fetch) return;
  var version = box.getAttribute("data-v");
  var packUrl = box.getAttribute("data-pack");
  var CACHE = "nrrules-stepper-" + version;
  var btn = box.querySelector(".save-stepper");
  var status = box.querySelector(".offstep-status");
  var pack = null, worker = null, booting = null, seq = 0, waiting = {};
  var current = null; /* the offline position: the state the worker last answered */
  var history = [];    /* payloads before it, for Undo */

  function getPack() {
    if (!pack) {
      pack = fetch(packUrl, { headers: { Accept: "application/json" } }).then(function (r) {
        if (!r.ok) throw new Error("the offline stepper is not installed on this server");
        return r.json();
      });
      pack.catch(function () { pack = null; });
    }
    return pack;
  }
  function mb(n) { return (n / 1e6).toFixed(1) + " MB"; }
  function say(text) { status.textContent = text; }

  /* ---------- saving ---------- */
  function savedInfo() {
    if (!window.caches) return Promise.resolve(null);
    return caches.open(CACHE).then(function (c) { return c.match("/offline/stepper-saved.json"); })
      .then(function (r) { return r ? r.json() : null; }).catch(function () { return null; });
  }
  function save() {
    btn.disabled = true;
    var t0 = performance.now();
    return getPack().then(function (p) {
      var assets = [];
      document.querySelectorAll("link[rel=stylesheet][href], script[src]").forEach(function (e) {
        var u = e.getAttribute("href") || e.getAttribute("src");
        if (u && u.charAt(0) === "/") assets.push(u);
      });
      var urls = p.files.concat([p.document, p.worker, packUrl]).concat(assets);
      return caches.keys().then(function (names) {
        return Promise.all(names.filter(function (n) { return n.indexOf("nrrules-stepper-") === 0 && n !== CACHE; })
          .map(function (n) { return caches.delete(n); }));
      }).then(function () { return caches.open(CACHE); }).then(function (c) {
        var done = 0;
        return Promise.all(urls.map(function (u) {
          return fetch(u).then(function (r) {
            if (!r.ok) throw new Error(u + ": HTTP " + r.status);
            return c.put(u, r).then(function () { done++; say("Saving the stepper… " + done + " of " + urls.length + " files"); });
          });
        })).then(function () {
          /* the page itself: what sw.js answers a stepper link with when there is no network */
          return fetch(location.href).then(function (r) { if (r.ok) return c.put("/step", r); });
        }).then(function () {
          var meta = { version: version, pyodide: p.pyodide, bytes: p.bytes, date: new Date().toISOString(), ms: performance.now() - t0 };
          return c.put("/offline/stepper-saved.json", new Response(JSON.stringify(meta), { headers: { "Content-Type": "application/json" } }))
            .then(function () { return meta; });
        });
      });
    }).then(function (meta) {
      shown(meta);
      box.setAttribute("data-saved", "");
      return meta;
    }, function (err) {
      btn.disabled = false;
      say("The stepper could not be saved (" + err.message + ").");
      throw err;
    });
  }
  function shown(meta) {
    btn.textContent = "Stepper saved for offline ✓";
    btn.disabled = true;
    say("CR " + meta.version + ", " + mb(meta.bytes) + ", saved " + meta.date.slice(0, 10) + ". Decisions are stepped in this browser when the network is gone.");
  }
  if (btn) {
    btn.addEventListener("click", function () { save().catch(function () {}); });
    savedInfo().then(function (meta) {
      if (meta) { shown(meta); box.setAttribute("data-saved", ""); return; }
      return getPack().then(function (p) {
        btn.textContent = "Save the stepper for offline (" + mb(p.bytes) + ")";
        btn.hidden = false;
      });
    }).catch(function () { box.hidden = true; });
  }

  /* ---------- the worker ---------- */
  function boot() {
    if (!booting) {
      booting = getPack().then(function (p) {
        return new Promise(function (resolve, reject) {
          var t0 = performance.now();
          worker = new Worker(p.worker, { type: "module" });
          worker.onmessage = function (e) {
            var m = e.data;
            if (m.type === "ready") { m.ms.total = performance.now() - t0; resolve(m.ms); }
            else if (m.type === "failed") reject(new Error(m.error));
            else if (m.type === "answer" && waiting[m.id]) { waiting[m.id](m.answer); delete waiting[m.id]; }
          };
          worker.onerror = function (e) { reject(new Error(e.message || "the offline stepper did not start")); };
          worker.postMessage({ type: "boot", index: p.index, engine: p.engine, document: p.document });
        });
      });
      booting.catch(function () { booting = null; if (worker) worker.terminate(); worker = null; });
    }
    return booting;
  }
  function ask(request) {
    return boot().then(function () {
      return new Promise(function (resolve, reject) {
        var id = ++seq;
        waiting[id] = function (a) { if (a.ok) resolve(a.state); else reject(new Error(a.error)); };
        worker.postMessage({ type: "step", id: id, request: request });
      });
    });
  }

  /* ---------- drawing ---------- */
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  function draw(state) {
    var main = document.querySelector(".st");
    if (!main) return;
    var st = el("div", "st offline");
    st.setAttribute("data-offline", "");
    var head = el("div", "st-head");
    var h1 = el("h1", null, state.title + " ");
    var n = state.decisions_taken.length;
    h1.appendChild(el("small", null, "CR " + state.version + " · " + n + " decision" + (n === 1 ? "" : "s")));
    head.appendChild(h1);
    var tools = el("p", "st-tools");
    if (history.length) {
      var undo = el("button", "btn", "Undo");
      undo.type = "button"; undo.id = "undo";
      undo.addEventListener("click", function () { go({ payload: history.pop() }, false); });
      tools.appendChild(undo);
    }
    head.appendChild(tools);
    head.appendChild(el("p", "hint offline-note", "Stepped offline, in this browser, by the same engine as the server. " +
      "This position has no link of its own: reopen the stepper online to share it."));
    st.appendChild(head);
    var now = el("div", "st-now");
    if (state.finished) {
      var fin = el("div", "finished");
      fin.id = "finished";
      fin.appendChild(el("b", null, "Finished."));
      state.finished_lines.forEach(function (t) { fin.appendChild(document.createTextNode(" " + t)); });
      now.appendChild(fin);
    } else if (state.current_step) {
      var c = state.current_step, cur = el("div", "current");
      cur.id = "current";
      cur.appendChild(el("span", "lbl", "Now"));
      cur.appendChild(document.createTextNode(" " + (c.number || c.id) + " "));
      if (c.title) cur.appendChild(el("b", null, c.title));
      cur.appendChild(el("div", "text", c.text));
      now.appendChild(cur);
    }
    if (state.decisions.length) {
      var form = el("div", "decisions");
      form.id = "decisions";
      state.decisions.forEach(function (d) {
        var b = el("button", "p-" + (d.player || "none"));
        b.type = "button";
        b.setAttribute("data-decision", d.id);
        b.appendChild(el("span", "dl", d.shown));
        if (d.player) { b.appendChild(document.createTextNode(" ")); b.appendChild(el("small", null, d.player)); }
        b.addEventListener("click", function () { history.push(state.payload); go({ payload: state.payload, decision: d.id }, true); });
        form.appendChild(b);
      });
      now.appendChild(form);
    }
    st.appendChild(now);
    var tr = el("div", "st-trace");
    var h2 = el("h2", null, "Trace ");
    h2.appendChild(el("span", "tn", state.trace.length + " steps"));
    tr.appendChild(h2);
    var ol = el("ol", "offline-trace");
    ol.id = "trace";
    state.trace.forEach(function (t, i) {
      var li = el("li", i >= state.trace.length - state.events ? "recent" : null);
      if (t.step_number) { li.appendChild(el("span", "num", t.step_number)); li.appendChild(document.createTextNode(" ")); }
      li.appendChild(document.createTextNode(t.shown));
      ol.appendChild(li);
    });
    tr.appendChild(ol);
    st.appendChild(tr);
    main.replaceWith(st);
    var first = st.querySelector("#decisions button") || st.querySelector("#finished");
    if (first) { if (!first.matches("button")) first.setAttribute("tabindex", "-1"); first.focus({ preventScroll: true }); }
  }
  function go(request, forward) {
    var main = document.querySelector(".st");
    if (main) main.setAttribute("aria-busy", "true");
    say("Stepping offline…");
    return ask(request).then(function (state) {
      current = state;
      draw(state);
      say("");
      return state;
    }, function (err) {
      if (forward && request.decision) history.pop();
      var m = document.querySelector(".st");
      if (m) m.removeAttribute("aria-busy");
      say("The offline stepper could not step this (" + err.message + ").");
      throw err;
    });
  }

  window.NROfflineStepper = {
    boot: boot,
    save: save,
    /* The session a token names, after `decision` (or as it is, without one), stepped here;
       stepper.js calls it when the server cannot be reached. Resolves to the state drawn. */
    take: function (token, decision) {
      history = [];
      if (decision) {
        return ask({ token: token }).then(function (before) {
          history.push(before.payload);
          return go({ payload: before.payload, decision: decision }, true);
        });
      }
      return go({ token: token }, false);
    },
    state: function () { return current; }
  };

  /* a stepper link opened with no network: sw.js answered with the saved stepper page (marked
     data-saved-why); the session in the address bar is stepped here */
  var why = document.body.getAttribute("data-saved-why");
  var m = /[?&]s=([^&#]+)/.exec(location.search);
  if (why && m) {
    window.NROfflineStepper.take(decodeURIComponent(m[1])).catch(function () {});
  }
})();
