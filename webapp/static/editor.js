/* Board editor: a form over the JSON board format. The JSON textarea is the source of truth
   for the no-JavaScript form; with JavaScript, a form is built from it and kept in sync,
   validated as you type (POST /api/engine/validate), and errors appear next to their field. */
(function () {
  "use strict";
  var form = document.getElementById("boardform");
  if (!form) return;
  var root = document.getElementById("formroot");
  var textarea = document.getElementById("boardjson");
  var problemsList = document.getElementById("problems");
  var status = document.getElementById("valid-status");
  var version = form.querySelector("input[name=v]").value;
  var model = null;
  var validateTimer = null;

  var EFFECTS = {
    end_the_run: [], lose_clicks: ["amount"], gain_credits: ["amount"], lose_credits: ["amount"],
    net_damage: ["amount"], meat_damage: ["amount"], core_damage: ["amount"], give_tags: ["amount"],
    trace: ["strength"]
  };

  /* ---------- paths: "servers.hq.ice[0].rez_cost" ---------- */
  function parsePath(path) {
    var out = [];
    path.replace(/([^.[\]]+)|\[(\d+)\]/g, function (_, key, idx) { out.push(idx != null ? Number(idx) : key); });
    return out;
  }
  function getAt(obj, path) {
    return parsePath(path).reduce(function (o, k) { return o == null ? undefined : o[k]; }, obj);
  }
  function setAt(obj, path, value) {
    var keys = parsePath(path), o = obj;
    for (var i = 0; i < keys.length - 1; i++) {
      if (o[keys[i]] == null || typeof o[keys[i]] !== "object") o[keys[i]] = typeof keys[i + 1] === "number" ? [] : {};
      o = o[keys[i]];
    }
    if (value === undefined) { if (Array.isArray(o)) o.splice(keys[keys.length - 1], 1); else delete o[keys[keys.length - 1]]; }
    else o[keys[keys.length - 1]] = value;
  }

  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") e.textContent = attrs[k];
      else if (k === "cls") e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    });
    (kids || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }

  /* ---------- fields ---------- */
  function numField(label, path, dflt) {
    var v = getAt(model, path);
    var input = el("input", { type: "number", min: "0", step: "1", "data-path": path, "aria-label": label });
    input.value = v == null ? (dflt == null ? "" : dflt) : v;
    input.addEventListener("input", function () {
      var raw = input.value.trim();
      setAt(model, path, raw === "" ? undefined : (/^-?\d+$/.test(raw) ? Number(raw) : raw));
      changed(false);
    });
    return wrap(label, input, path);
  }
  function textField(label, path) {
    var input = el("input", { type: "text", "data-path": path, "aria-label": label, maxlength: "100" });
    input.value = getAt(model, path) || "";
    input.addEventListener("input", function () { setAt(model, path, input.value); changed(false); });
    return wrap(label, input, path);
  }
  function boolField(label, path) {
    var input = el("input", { type: "checkbox", "data-path": path, "aria-label": label });
    input.checked = !!getAt(model, path);
    input.addEventListener("change", function () { setAt(model, path, input.checked); changed(false); });
    return wrap(label, input, path);
  }
  function selectField(label, path, options, dflt) {
    var sel = el("select", { "data-path": path, "aria-label": label });
    options.forEach(function (o) { sel.appendChild(el("option", { value: o, text: o })); });
    sel.value = getAt(model, path) || dflt || options[0];
    sel.addEventListener("change", function () { setAt(model, path, sel.value); changed(false); });
    return wrap(label, sel, path);
  }
  function wrap(label, input, path) {
    return el("label", { cls: "field", "data-box": path }, [
      document.createTextNode(label), input, el("span", { cls: "ferr", "data-for": path })
    ]);
  }
  function button(text, onClick, cls) {
    var b = el("button", { type: "button", cls: "btn " + (cls || ""), text: text });
    b.addEventListener("click", onClick);
    return b;
  }
  function countField(label, path, dflt) {
    var v = getAt(model, path);
    if (Array.isArray(v)) {
      return el("span", { cls: "field", "data-box": path }, [
        document.createTextNode(label), el("span", { text: v.length + " named cards (edit in JSON)" }),
        el("span", { cls: "ferr", "data-for": path })
      ]);
    }
    return numField(label, path, dflt);
  }
  function scoreField(side) {
    var path = side + ".score_area";
    var cards = getAt(model, path) || [];
    var total = Array.isArray(cards) ? cards.reduce(function (n, c) { return n + ((c && c.agenda_points) || 0); }, 0) : 0;
    var input = el("input", { type: "number", min: "0", step: "1", "data-path": path, "aria-label": side + " score" });
    input.value = total;
    input.addEventListener("input", function () {
      var n = input.value.trim() === "" ? 0 : Number(input.value);
      setAt(model, path, n > 0 ? [{ name: "Scored agendas", type: "agenda", agenda_points: n }] : []);
      changed(false);
    });
    return wrap("Score (agenda points)", input, path);
  }

  /* ---------- subroutines ---------- */
  function subEditor(path) {
    var sub = getAt(model, path);
    var obj = typeof sub === "string" ? { effect: sub } : (sub && !Array.isArray(sub) ? sub : { effect: "end_the_run" });
    var box = el("div", { cls: "row", "data-box": path });
    var sel = el("select", { "data-path": path + ".effect", "aria-label": "Subroutine effect" });
    Object.keys(EFFECTS).forEach(function (k) { sel.appendChild(el("option", { value: k, text: k.replace(/_/g, " ") })); });
    sel.value = obj.effect;
    sel.addEventListener("change", function () {
      var params = EFFECTS[sel.value] || [];
      var next = params.length ? { effect: sel.value } : sel.value;
      params.forEach(function (p) { next[p] = obj[p] != null ? obj[p] : 1; });
      setAt(model, path, next);
      changed(true);
    });
    box.appendChild(wrap("Subroutine", sel, path + ".effect"));
    (EFFECTS[obj.effect] || []).forEach(function (p) {
      if (typeof sub === "string") { setAt(model, path, obj); }
      box.appendChild(numField(p, path + "." + p, 1));
    });
    box.appendChild(button("Remove subroutine", function () { setAt(model, path, undefined); changed(true); }));
    box.appendChild(el("span", { cls: "ferr", "data-for": path }));
    return box;
  }

  function iceEditor(path) {
    var box = el("div", { cls: "item", "data-box": path });
    box.appendChild(el("div", { cls: "row" }, [
      textField("Ice name", path + ".name"), numField("Rez cost", path + ".rez_cost", 0),
      numField("Break cost", path + ".break_cost"), boolField("Rezzed", path + ".rezzed"),
      button("Remove ice", function () { setAt(model, path, undefined); changed(true); })
    ]));
    var subs = getAt(model, path + ".subroutines") || [];
    subs.forEach(function (_, i) { box.appendChild(subEditor(path + ".subroutines[" + i + "]")); });
    box.appendChild(button("Add subroutine", function () {
      var list = getAt(model, path + ".subroutines") || [];
      list.push("end_the_run"); setAt(model, path + ".subroutines", list); changed(true);
    }));
    box.appendChild(el("span", { cls: "ferr", "data-for": path + ".subroutines" }));
    box.appendChild(el("span", { cls: "ferr", "data-for": path }));
    return box;
  }

  function upgradeEditor(path) {
    return el("div", { cls: "item row", "data-box": path }, [
      textField("Upgrade name", path + ".name"), numField("Rez cost", path + ".rez_cost", 0),
      numField("Trash cost", path + ".trash_cost"), boolField("Rezzed", path + ".rezzed"),
      button("Remove upgrade", function () { setAt(model, path, undefined); changed(true); }),
      el("span", { cls: "ferr", "data-for": path })
    ]);
  }

  function contentEditor(path) {
    var c = getAt(model, path);
    if (!c) {
      return el("div", { cls: "item", "data-box": path }, [button("Install a card in this server", function () {
        setAt(model, path, { name: "Agenda", type: "agenda", agenda_points: 2, advancement_requirement: 3, advancements: 0 });
        changed(true);
      })]);
    }
    var kids = [textField("Card name", path + ".name"), selectField("Type", path + ".type", ["agenda", "asset"], "agenda")];
    if ((c.type || "agenda") === "agenda") {
      kids.push(numField("Agenda points", path + ".agenda_points"), numField("Advancement req.", path + ".advancement_requirement"), numField("Advancements", path + ".advancements"));
    } else {
      kids.push(numField("Rez cost", path + ".rez_cost"), numField("Trash cost", path + ".trash_cost"), boolField("Rezzed", path + ".rezzed"));
    }
    kids.push(button("Remove card", function () { setAt(model, path, undefined); changed(true); }));
    kids.push(el("span", { cls: "ferr", "data-for": path }));
    var box = el("div", { cls: "item row", "data-box": path }, kids);
    box.querySelector("select").addEventListener("change", function () { changed(true); });
    return box;
  }

  function serverEditor(name) {
    var path = "servers." + name;
    var srv = getAt(model, path) || {};
    var box = el("div", { cls: "panel server", "data-box": path, "data-server": name });
    var head = el("h3", { text: name === "rd" ? "R&D" : name === "hq" ? "HQ" : name.charAt(0).toUpperCase() + name.slice(1) });
    box.appendChild(head);
    box.appendChild(el("span", { cls: "ferr", "data-for": path }));
    (srv.ice || []).forEach(function (_, i) { box.appendChild(iceEditor(path + ".ice[" + i + "]")); });
    box.appendChild(button("Add ice", function () {
      var list = getAt(model, path + ".ice") || [];
      list.push({ name: "Ice " + (list.length + 1), type: "ice", rezzed: true, rez_cost: 1, subroutines: ["end_the_run"] });
      setAt(model, path + ".ice", list); changed(true);
    }));
    (srv.root || []).forEach(function (_, i) { box.appendChild(upgradeEditor(path + ".root[" + i + "]")); });
    box.appendChild(button("Add upgrade", function () {
      var list = getAt(model, path + ".root") || [];
      list.push({ name: "Upgrade " + (list.length + 1), type: "upgrade", rezzed: false, rez_cost: 1, trash_cost: 2 });
      setAt(model, path + ".root", list); changed(true);
    }));
    if (/^remote/.test(name)) {
      box.appendChild(contentEditor(path + ".content"));
      box.appendChild(button("Remove server", function () { delete model.servers[name]; changed(true); }, "danger"));
    }
    return box;
  }

  function render() {
    root.textContent = "";
    if (!model || typeof model !== "object" || Array.isArray(model)) {
      root.appendChild(el("p", { cls: "problems", text: "The JSON is not a board object; fix it below." }));
      return;
    }
    model.servers = model.servers || {};
    root.appendChild(el("div", { cls: "panel" }, [el("div", { cls: "row" }, [selectField("Whose turn", "turn", ["runner", "corp"], "runner")])]));
    root.appendChild(el("div", { cls: "panel", "data-box": "corp" }, [
      el("h2", { text: "Corp" }),
      el("div", { cls: "row" }, [
        numField("Credits", "corp.credits", 5), numField("Clicks", "corp.clicks", 0),
        numField("Bad publicity", "corp.bad_publicity", 0), countField("Cards in HQ", "corp.hand", 5),
        countField("Cards in R&D", "corp.deck", 30), scoreField("corp")
      ]),
      el("span", { cls: "ferr", "data-for": "corp" })
    ]));
    root.appendChild(el("div", { cls: "panel", "data-box": "runner" }, [
      el("h2", { text: "Runner" }),
      el("div", { cls: "row" }, [
        numField("Credits", "runner.credits", 5), numField("Clicks", "runner.clicks", 0),
        numField("Tags", "runner.tags", 0), numField("Link", "runner.link", 0),
        numField("Core damage", "runner.core_damage", 0), countField("Cards in grip", "runner.hand", 5),
        countField("Cards in stack", "runner.deck", 30), scoreField("runner")
      ]),
      el("span", { cls: "ferr", "data-for": "runner" })
    ]));
    var servers = el("div", { cls: "servers", "data-box": "servers" }, [el("h2", { text: "Servers" }), el("span", { cls: "ferr", "data-for": "servers" })]);
    var names = ["hq", "rd", "archives"].concat(Object.keys(model.servers).filter(function (n) { return ["hq", "rd", "archives"].indexOf(n) < 0; }).sort(function (a, b) {
      return (parseInt(a.replace(/\D/g, ""), 10) || 0) - (parseInt(b.replace(/\D/g, ""), 10) || 0);
    }));
    names.forEach(function (n) { servers.appendChild(serverEditor(n)); });
    servers.appendChild(button("Add remote server", function () {
      var i = 1; while (model.servers["remote" + i]) i++;
      model.servers["remote" + i] = { ice: [], content: { name: "Agenda", type: "agenda", agenda_points: 2, advancement_requirement: 3, advancements: 0 } };
      changed(true);
    }));
    root.appendChild(servers);
    var dl = document.getElementById("serverlist");
    dl.textContent = "";
    names.forEach(function (n) { dl.appendChild(el("option", { value: n })); });
  }

  /* ---------- sync, validation, errors ---------- */
  function syncText() { textarea.value = JSON.stringify(model, null, 1); }

  function changed(rerender) {
    syncText();
    if (rerender) render();
    clearTimeout(validateTimer);
    validateTimer = setTimeout(validate, 250);
  }

  function clearProblems() {
    problemsList.textContent = "";
    form.querySelectorAll(".ferr").forEach(function (s) { s.textContent = ""; });
    form.querySelectorAll(".field.bad").forEach(function (f) { f.classList.remove("bad"); });
  }

  function showProblems(problems) {
    clearProblems();
    problems.forEach(function (p) {
      var path = p.path || "", placed = false, probe = path;
      while (probe) {
        var span = form.querySelector('.ferr[data-for="' + CSS.escape(probe) + '"]');
        if (span && span.offsetParent !== null) {
          var rest = probe === path ? "" : path.slice(probe.length).replace(/^\./, "") + ": ";
          span.textContent = (span.textContent ? span.textContent + " · " : "") + rest + p.message;
          var box = span.closest(".field");
          if (box) box.classList.add("bad");
          placed = true;
          break;
        }
        var next = probe.replace(/(\.[^.[\]]+|\[\d+\])$/, "");
        probe = next === probe ? "" : next;
      }
      if (!placed) {
        var li = el("li", { "data-path": path });
        if (path) { li.appendChild(el("code", { text: path })); li.appendChild(document.createTextNode(": ")); }
        li.appendChild(document.createTextNode(p.message));
        problemsList.appendChild(li);
      }
    });
    status.textContent = problems.length ? "" : "Board is valid.";
  }

  function validate() {
    if (!model) return;
    fetch("/api/engine/validate", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ board: model })
    }).then(function (r) { return r.json(); }).then(function (data) {
      showProblems(data.problems || [{ path: "", message: data.error || "cannot validate" }]);
    }).catch(function () {});
  }

  function loadText(text) {
    try { model = JSON.parse(text); } catch (e) {
      clearProblems();
      showProblems([{ path: "", message: "the board is not valid JSON: " + e.message }]);
      return false;
    }
    syncText(); render(); validate();
    return true;
  }

  /* ---------- start ---------- */
  var structure = document.getElementById("structure");
  var serverField = document.getElementById("serverfield");
  function structureChanged() {
    var opt = structure.options[structure.selectedIndex];
    var params = (opt.getAttribute("data-params") || "").split(",");
    serverField.hidden = params.indexOf("server") < 0;
  }
  structure.addEventListener("change", structureChanged);

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    if (!loadText(textarea.value)) return;
    var params = {};
    if (!serverField.hidden) params.server = document.getElementById("server").value.trim();
    var startErr = document.getElementById("start-error");
    startErr.textContent = "";
    fetch("/api/engine/sessions", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ board: model, structure: structure.value, params: params, v: version })
    }).then(function (r) { return r.json().then(function (d) { return { ok: r.ok, data: d }; }); }).then(function (res) {
      if (res.ok) { window.location.href = res.data.url; return; }
      if (res.data.problems) showProblems(res.data.problems);
      startErr.textContent = res.data.error || "could not start";
    }).catch(function (err) { startErr.textContent = "could not start: " + err.message; });
  });

  /* ---------- load / save / examples ---------- */
  document.getElementById("jsontools").hidden = false;
  document.getElementById("applyjson").addEventListener("click", function () { loadText(textarea.value); });
  document.getElementById("loadfile").addEventListener("change", function (e) {
    var f = e.target.files && e.target.files[0];
    if (!f) return;
    if (f.size > 200000) { showProblems([{ path: "", message: "file too large for a board" }]); return; }
    f.text().then(loadText);
  });
  document.getElementById("save").addEventListener("click", function () {
    var blob = new Blob([JSON.stringify(model, null, 2) + "\n"], { type: "application/json" });
    var a = el("a", { href: URL.createObjectURL(blob), download: "board.json" });
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
  });
  var examplesPromise = null;
  document.querySelectorAll("a.example-link").forEach(function (a) {
    a.addEventListener("click", function (e) {
      e.preventDefault();
      examplesPromise = examplesPromise || fetch("/api/engine/examples").then(function (r) { return r.json(); });
      examplesPromise.then(function (data) {
        var ex = (data.examples || []).filter(function (x) { return x.name === a.getAttribute("data-example"); })[0];
        if (ex) loadText(JSON.stringify(ex.board));
      });
    });
  });

  textarea.addEventListener("change", function () { loadText(textarea.value); });
  root.hidden = false;
  structureChanged();
  loadText(textarea.value);
})();
