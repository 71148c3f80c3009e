/* nrrules: search as you type, hover previews, copy link, rule graph. Progressive
   enhancement only: every page works without this file. No inline scripts (CSP). */
(function () {
  "use strict";
  var body = document.body;
  var version = body.getAttribute("data-v") || "";

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

  /* ---------------- search as you type ---------------- */
  document.querySelectorAll(".searchform").forEach(function (form) {
    var input = form.querySelector(".q");
    var list = form.querySelector(".suggest");
    var timer = null, seq = 0, sel = -1, items = [];

    function close() { list.hidden = true; sel = -1; input.setAttribute("aria-expanded", "false"); }
    function select(i) {
      sel = i;
      items.forEach(function (li, j) { li.setAttribute("aria-selected", j === i ? "true" : "false"); });
      if (items[i]) items[i].scrollIntoView({ block: "nearest" });
    }
    function render(results) {
      list.textContent = "";
      items = [];
      results.forEach(function (r) {
        var li = el("li"); li.setAttribute("role", "option");
        var a = el("a"); a.href = r.url || ("/id/" + r.id + vparam("?"));
        var head = el("div");
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
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
      sel = -1;
    }
    function query() {
      var q = input.value.trim();
      if (!q) { close(); return; }
      var mine = ++seq;
      fetch("/api/search?limit=8&q=" + encodeURIComponent(q) + vparam("&"))
        .then(function (r) { return r.ok ? r.json() : { results: [] }; })
        .then(function (data) { if (mine === seq) render(data.results || []); })
        .catch(function () { /* offline: the form still submits */ });
    }
    input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(query, 120); });
    input.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown" && items.length) { e.preventDefault(); select(Math.min(sel + 1, items.length - 1)); }
      else if (e.key === "ArrowUp" && items.length) { e.preventDefault(); select(Math.max(sel - 1, 0)); }
      else if (e.key === "Enter" && sel >= 0 && items[sel]) { e.preventDefault(); window.location.href = items[sel].querySelector("a").href; }
      else if (e.key === "Escape") close();
    });
    document.addEventListener("click", function (e) { if (!form.contains(e.target)) close(); });
  });

  /* ---------------- hover previews of cross references ---------------- */
  var preview = null, hoverTimer = null;
  function hidePreview() { clearTimeout(hoverTimer); if (preview) { preview.remove(); preview = null; } }
  function showPreview(a) {
    var id = a.getAttribute("data-id");
    var href = a.getAttribute("href") || "";
    var m = href.match(/[?&]v=([^&#]+)/);
    var v = m ? decodeURIComponent(m[1]) : version;
    getJSON("/api/rules/" + encodeURIComponent(id) + (v ? "?v=" + encodeURIComponent(v) : "")).then(function (r) {
      hidePreview();
      preview = el("div", "preview");
      preview.setAttribute("role", "tooltip");
      var head = el("div");
      head.appendChild(el("b", null, r.number || "Example"));
      head.appendChild(document.createTextNode(" " + (r.title || (r.breadcrumb.length ? r.breadcrumb[r.breadcrumb.length - 1].title || "" : ""))));
      preview.appendChild(head);
      var text = r.text || "";
      preview.appendChild(el("div", null, text.length > 400 ? text.slice(0, 397) + "…" : text));
      document.body.appendChild(preview);
      var box = a.getBoundingClientRect();
      var left = Math.min(window.scrollX + box.left, window.scrollX + document.documentElement.clientWidth - preview.offsetWidth - 8);
      preview.style.left = Math.max(4, left) + "px";
      preview.style.top = (window.scrollY + box.bottom + 6) + "px";
    }).catch(function () {});
  }
  document.addEventListener("mouseover", function (e) {
    var a = e.target.closest && e.target.closest("a.ref[data-id]");
    if (!a) return;
    clearTimeout(hoverTimer);
    hoverTimer = setTimeout(function () { showPreview(a); }, 180);
  });
  document.addEventListener("mouseout", function (e) {
    var a = e.target.closest && e.target.closest("a.ref[data-id]");
    if (a) hidePreview();
  });
  document.addEventListener("focusin", function (e) {
    if (e.target.matches && e.target.matches("a.ref[data-id]")) showPreview(e.target);
  });
  document.addEventListener("focusout", hidePreview);

  /* ---------------- copy link ---------------- */
  document.querySelectorAll("button.copy[data-url]").forEach(function (b) {
    b.hidden = false;
    b.addEventListener("click", function () {
      var url = b.getAttribute("data-url");
      var done = function () { b.textContent = "Link copied"; setTimeout(function () { b.textContent = "Copy link"; }, 1800); };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(url).then(done, function () { window.prompt("Copy this link", url); });
      } else {
        window.prompt("Copy this link", url);
      }
    });
  });

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
          style: [
            { selector: "node", style: { label: "data(label)", "font-size": 10, "background-color": "#0b63c5", width: 14, height: 14, color: "#1b1e23" } },
            { selector: "node[type = 'card']", style: { "background-color": "#c27c0e", shape: "round-rectangle" } },
            { selector: "node[type = 'term']", style: { "background-color": "#5c6470", shape: "diamond" } },
            { selector: "node[depth = 0]", style: { "background-color": "#b3261e", width: 22, height: 22, "font-weight": "bold" } },
            { selector: "edge", style: { width: 1.2, "line-color": "#b8c0ca", "curve-style": "bezier", "target-arrow-shape": "triangle", "target-arrow-color": "#b8c0ca", "arrow-scale": 0.7 } },
            { selector: "edge[kind = 'cites']", style: { "line-color": "#0b63c5", "target-arrow-color": "#0b63c5" } },
            { selector: "edge[kind = 'contains']", style: { "line-style": "dashed" } }
          ],
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
