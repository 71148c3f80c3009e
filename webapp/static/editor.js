/* Board editor: the board picture made editable, over the JSON board format. The JSON textarea
   is the source of truth for the no-JavaScript form; with JavaScript, the picture and the
   player panels are built from it and kept in sync, validated as you type
   (POST /api/engine/validate), and every error appears next to its field. The server to run is
   chosen from the board's own servers and follows the edits: a new remote, a card put on a
   server, an applied JSON or example make that server the one to run. Made for a thumb: cards
   picked by name (the forgiving name matcher of /api/cards), -/+ on every count, the less used
   fields folded, and Start in a bar that stays at the bottom of the screen. */
(function () {
  "use strict";
  var form = document.getElementById("boardform");
  if (!form) return;
  var root = document.getElementById("formroot");
  var textarea = document.getElementById("boardjson");
  var problemsList = document.getElementById("problems");
  var status = document.getElementById("valid-status");
  var version = form.querySelector("input[name=v]").value;
  var serverSelect = document.getElementById("server");
  var staticPicture = document.getElementById("edpic");
  var model = null;
  var validateTimer = null;

  var EFFECTS = {
    end_the_run: [], lose_clicks: ["amount"], gain_credits: ["amount"], lose_credits: ["amount"],
    net_damage: ["amount"], meat_damage: ["amount"], core_damage: ["amount"], give_tags: ["amount"],
    trace: ["strength"]
  };
  var CENTRAL = ["hq", "rd", "archives"];
  var LABELS = { hq: "HQ", rd: "R&D", archives: "Archives" };

  function label(key) {
    if (LABELS[key]) return LABELS[key];
    var m = /^remote(\d+)$/.exec(key);
    return m ? "Server " + m[1] : key;
  }
  function remoteNo(key) { var m = /^remote(\d+)$/.exec(key); return m ? Number(m[1]) : 1e6; }
  function serverKeys() {
    var keys = Object.keys((model && model.servers) || {});
    return CENTRAL.concat(keys.filter(function (k) { return CENTRAL.indexOf(k) < 0; }).sort(function (a, b) { return remoteNo(a) - remoteNo(b); }));
  }
  function posLabel(i, n) {
    if (n === 1) return "only ice";
    if (i === 0) return "outermost";
    if (i === n - 1) return "innermost";
    return (i + 1) + " of " + n;
  }

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
    (kids || []).forEach(function (c) { if (c) e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return e;
  }

  /* ---------- fields (each with its error slot) ---------- */
  function numField(lbl, path, dflt) {
    var v = getAt(model, path);
    var input = el("input", { type: "number", min: "0", step: "1", inputmode: "numeric", "data-path": path, "aria-label": lbl });
    input.value = v == null ? (dflt == null ? "" : dflt) : v;
    input.addEventListener("input", function () {
      var raw = input.value.trim();
      setAt(model, path, raw === "" ? undefined : (/^-?\d+$/.test(raw) ? Number(raw) : raw));
      changed(false);
    });
    return wrap(lbl, input, path);
  }
  /* a count with -/+ buttons beside it (44 px each): one tap per step, no select-and-retype */
  function stepField(lbl, path, dflt, io) {
    io = io || {
      get: function () { return getAt(model, path); },
      set: function (n) { setAt(model, path, n); }
    };
    var v = io.get();
    var input = el("input", { type: "number", min: "0", step: "1", inputmode: "numeric", "data-path": path, "aria-label": lbl });
    input.value = v == null ? (dflt == null ? "" : dflt) : v;
    function current() {
      var raw = input.value.trim();
      return /^-?\d+$/.test(raw) ? Number(raw) : (dflt || 0);
    }
    input.addEventListener("input", function () {
      var raw = input.value.trim();
      io.set(raw === "" ? undefined : (/^-?\d+$/.test(raw) ? Number(raw) : raw));
      changed(false);
    });
    function bump(d) {
      var n = Math.max(0, current() + d);
      input.value = n;
      io.set(n);
      changed(false);
    }
    var less = button("−", function () { bump(-1); }, "step less", { "aria-label": "One less: " + lbl, "data-step": path });
    var more = button("+", function () { bump(1); }, "step more", { "aria-label": "One more: " + lbl, "data-step": path });
    return el("div", { cls: "field stepper", role: "group", "aria-label": lbl, "data-box": path }, [
      el("span", { cls: "fl", text: lbl }), el("span", { cls: "stp" }, [less, input, more]), el("span", { cls: "ferr", "data-for": path })
    ]);
  }
  function more(summaryText, kids, key) {
    var d = el("details", { cls: "more" }, [el("summary", { text: summaryText })].concat(kids));
    if (openMore[key]) d.open = true;
    d.addEventListener("toggle", function () { if (d.open) openMore[key] = true; else delete openMore[key]; });
    return d;
  }
  var openMore = {};  // which folded groups are open, across re-renders
  function textField(lbl, path, onInput) {
    var input = el("input", { type: "text", "data-path": path, "aria-label": lbl, maxlength: "100" });
    input.value = getAt(model, path) || "";
    input.addEventListener("input", function () { setAt(model, path, input.value); if (onInput) onInput(input.value); changed(false); });
    return wrap(lbl, input, path);
  }
  function listField(lbl, path) {
    var input = el("input", { type: "text", "data-path": path, "aria-label": lbl, maxlength: "200", placeholder: "barrier, ap" });
    var v = getAt(model, path);
    input.value = Array.isArray(v) ? v.join(", ") : "";
    input.addEventListener("input", function () {
      var items = input.value.split(",").map(function (s) { return s.trim().toLowerCase(); }).filter(Boolean);
      setAt(model, path, items.length ? items : undefined);
      changed(false);
    });
    return wrap(lbl, input, path);
  }
  function selectField(lbl, path, options, dflt) {
    var sel = el("select", { "data-path": path, "aria-label": lbl });
    options.forEach(function (o) { sel.appendChild(el("option", { value: o, text: o })); });
    sel.value = getAt(model, path) || dflt || options[0];
    sel.addEventListener("change", function () { setAt(model, path, sel.value); changed(false); });
    return wrap(lbl, sel, path);
  }
  function wrap(lbl, input, path) {
    return el("label", { cls: "field", "data-box": path }, [lbl, input, el("span", { cls: "ferr", "data-for": path })]);
  }
  function err(path) { return el("span", { cls: "ferr", "data-for": path }); }
  function button(text, onClick, cls, attrs) {
    var b = el("button", Object.assign({ type: "button", cls: "btn " + (cls || ""), text: text }, attrs || {}));
    b.addEventListener("click", onClick);
    return b;
  }
  function rezToggle(path, what) {
    var on = !!getAt(model, path);
    return button(on ? "Rezzed" : "Unrezzed", function () {
      setAt(model, path, !getAt(model, path));
      changed(true);
    }, "rez " + (on ? "on" : "off"), { "aria-pressed": on ? "true" : "false", "data-path": path, "aria-label": (on ? "Rezzed: " : "Unrezzed: ") + what + " (tap to toggle)" });
  }
  function countField(lbl, path, dflt) {
    var v = getAt(model, path);
    if (Array.isArray(v)) {
      return el("span", { cls: "field", "data-box": path }, [lbl, el("span", { text: v.length + " named cards (edit in JSON)" }), err(path)]);
    }
    return stepField(lbl, path, dflt);
  }
  function scoreField(side) {
    var path = side + ".score_area";
    return stepField("Score", path, 0, {
      get: function () {
        var cards = getAt(model, path) || [];
        return Array.isArray(cards) ? cards.reduce(function (n, c) { return n + ((c && c.agenda_points) || 0); }, 0) : 0;
      },
      set: function (n) {
        n = typeof n === "number" ? n : 0;
        setAt(model, path, n > 0 ? [{ name: "Scored agendas", type: "agenda", agenda_points: n }] : []);
      }
    });
  }

  /* ---------- subroutines ---------- */
  function subEditor(path, n) {
    var sub = getAt(model, path);
    var obj = typeof sub === "string" ? { effect: sub } : (sub && !Array.isArray(sub) ? sub : null);
    var box = el("div", { cls: "subed", "data-box": path });
    if (!obj || !(obj.effect in EFFECTS)) {
      var known = obj && obj.effect === "text" ? "resolved by hand: " + obj.text : "edit in JSON";
      box.appendChild(el("span", { cls: "hint", text: "↳ Subroutine " + (n + 1) + ": " + known }));
      box.appendChild(button("Remove", function () { setAt(model, path, undefined); changed(true); }, "small", { "aria-label": "Remove subroutine " + (n + 1) }));
      box.appendChild(err(path));
      return box;
    }
    var sel = el("select", { "data-path": path + ".effect", "aria-label": "Subroutine " + (n + 1) });
    Object.keys(EFFECTS).forEach(function (k) { sel.appendChild(el("option", { value: k, text: k.replace(/_/g, " ") })); });
    sel.value = obj.effect;
    sel.addEventListener("change", function () {
      var params = EFFECTS[sel.value] || [];
      var next = params.length ? { effect: sel.value } : sel.value;
      params.forEach(function (p) { next[p] = obj[p] != null ? obj[p] : 1; });
      setAt(model, path, next);
      changed(true);
    });
    box.appendChild(wrap("↳ Subroutine " + (n + 1), sel, path + ".effect"));
    (EFFECTS[obj.effect] || []).forEach(function (p) {
      if (typeof sub === "string") setAt(model, path, obj);
      box.appendChild(numField(p, path + "." + p, 1));
    });
    box.appendChild(button("Remove", function () { setAt(model, path, undefined); changed(true); }, "small", { "aria-label": "Remove subroutine " + (n + 1) }));
    box.appendChild(err(path));
    return box;
  }

  /* ---------- real cards: suggested by name (GET /api/cards?source=cards), the card object
     filled from the card data (each hit's `board`: webapp/payloads/cards.py) ---------- */
  // no card data built (the page says so, or the server answers 503): no pickers
  var cardData = form.getAttribute("data-cards") !== "0";
  var pickerSeq = 0;

  function cardPicker(what, accepts, onPick, title) {
    var id = "pick-" + (++pickerSeq);
    var input = el("input", {
      type: "search", cls: "pick-q", id: id, role: "combobox", "aria-autocomplete": "list",
      "aria-expanded": "false", "aria-controls": id + "-list", autocomplete: "off", maxlength: "100",
      placeholder: "type a card name", "data-pick": what
    });
    var list = el("ul", { cls: "pick-list", id: id + "-list", role: "listbox", "aria-label": "Cards: " + what });
    list.hidden = true;
    var note = el("span", { cls: "pick-note", "aria-live": "polite" });
    var box = el("div", { cls: "pick" }, [el("label", { cls: "field", "for": id }, [title || "Add " + what + " by name", input]), list, note]);
    var hits = [], active = -1, timer = null, seq = 0;
    function close() {
      list.hidden = true; active = -1;
      input.setAttribute("aria-expanded", "false"); input.removeAttribute("aria-activedescendant");
    }
    function mark() {
      list.querySelectorAll("[role=option]").forEach(function (o, i) { o.setAttribute("aria-selected", i === active ? "true" : "false"); });
      if (active >= 0) { input.setAttribute("aria-activedescendant", id + "-o" + active); list.children[active].scrollIntoView({ block: "nearest" }); }
    }
    function choose(i) {
      var hit = hits[i];
      if (!hit) return;
      close();
      input.value = "";
      note.textContent = hit.title + " added.";
      onPick(JSON.parse(JSON.stringify(hit.board)), hit);
    }
    function show() {
      list.textContent = "";
      hits.forEach(function (h, i) {
        var info = [h.type, (h.subtypes || []).join(" · "), h.cost != null ? h.cost + "¢" : "", h.strength != null ? "str " + h.strength : ""];
        var li = el("li", { role: "option", id: id + "-o" + i, "aria-selected": "false", cls: "pick-opt", "data-card-id": h.id }, [
          el("b", { text: h.title }), el("span", { cls: "ty", text: info.filter(Boolean).join(" · ") })
        ]);
        li.addEventListener("mousedown", function (e) { e.preventDefault(); });  // keep the input's focus
        li.addEventListener("click", function () { choose(i); });
        list.appendChild(li);
      });
      list.hidden = !hits.length;
      input.setAttribute("aria-expanded", hits.length ? "true" : "false");
      note.textContent = hits.length || input.value.trim().length < 2 ? "" : "No " + what + " with that name.";
    }
    function search() {
      var q = input.value.trim(), mine = ++seq;
      if (q.length < 2) { hits = []; show(); return; }
      fetch("/api/cards?source=cards&limit=25&q=" + encodeURIComponent(q), { headers: { Accept: "application/json" } }).then(function (r) {
        if (r.status === 503) { cardData = false; throw new Error("no card data"); }
        return r.json();
      }).then(function (d) {
        if (mine !== seq) return;
        hits = (d.results || []).filter(function (h) { return h.board && accepts(h); }).slice(0, 8);
        active = -1;
        show();
      }).catch(function () {
        if (!cardData) document.querySelectorAll("#formroot .pick").forEach(function (b) { b.hidden = true; });
      });
    }
    input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(search, 150); });
    input.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        if (!hits.length) return;
        e.preventDefault();
        active = (active + (e.key === "ArrowDown" ? 1 : hits.length - 1 + (active < 0 ? 1 : 0))) % hits.length;
        mark();
      } else if (e.key === "Enter") {
        e.preventDefault();  // never submits the board form
        if (hits.length) choose(active >= 0 ? active : 0);
      } else if (e.key === "Escape") {
        close();
      }
    });
    input.addEventListener("blur", function () { setTimeout(close, 200); });
    box.hidden = !cardData;
    return box;
  }
  function ofType() {
    var types = Array.prototype.slice.call(arguments);
    return function (hit) { return types.indexOf(hit.board.type) >= 0; };
  }
  function isIdentity(hit) { return !hit.board.type && /runner identity/i.test(hit.type || ""); }
  function isCorpIdentity(hit) { return !hit.board.type && /corp identity/i.test(hit.type || ""); }

  /* ---------- ice on the picture ---------- */
  var openIce = {};  // which ice editors are open, by path, across re-renders

  function moveIce(server, from, to) {
    var list = model.servers[server].ice;
    var item = list.splice(from, 1)[0];
    list.splice(to, 0, item);
    var a = "servers." + server + ".ice[" + from + "]", b = "servers." + server + ".ice[" + to + "]";
    var wasOpen = openIce[a]; delete openIce[a]; if (wasOpen) openIce[b] = true;
    changed(true);
    focusLater('[data-ice="' + b + '"] .mv-' + (to < from ? "out" : "in"));
  }
  /* the board as a picture: a tap on a card's name opens (or closes) its fields */
  function tapToEdit(head, details) {
    head.classList.add("tap-edit");
    head.addEventListener("click", function (e) {
      if (e.target.closest("button, input, select, a")) return;
      details.open = !details.open;
    });
  }
  function focusLater(sel) {
    setTimeout(function () { var e = root.querySelector(sel); if (e && !e.disabled) e.focus(); }, 0);
  }

  function iceCard(server, i, n) {
    var path = "servers." + server + ".ice[" + i + "]";
    var ice = getAt(model, path) || {};
    var name = ice.name || "Unnamed ice";
    var li = el("li", { cls: "ic " + (ice.rezzed ? "rz" : "unrz"), "data-pos": String(i), "data-ice": path, "data-box": path });
    li.appendChild(el("span", { cls: "pl", text: posLabel(i, n) }));
    var head = el("div", { cls: "ic-head" }, [el("b", { cls: "ic-name", text: name })]);
    if (ice.strength != null) head.appendChild(el("span", { cls: "st", title: "strength", text: String(ice.strength) }));
    li.appendChild(head);
    var tools = el("div", { cls: "ic-tools" }, [
      rezToggle(path + ".rezzed", name),
      button("↑", function () { moveIce(server, i, i - 1); }, "mv-out", { "aria-label": "Move " + name + " outward", title: "Move outward" }),
      button("↓", function () { moveIce(server, i, i + 1); }, "mv-in", { "aria-label": "Move " + name + " inward", title: "Move inward" }),
      button("✕", function () { setAt(model, path, undefined); changed(true); }, "del", { "aria-label": "Delete " + name, title: "Delete" })
    ]);
    tools.querySelector(".mv-out").disabled = i === 0;
    tools.querySelector(".mv-in").disabled = i === n - 1;
    li.appendChild(tools);
    var subs = Array.isArray(ice.subroutines) ? ice.subroutines : [];
    var details = el("details", { cls: "ic-edit" });
    tapToEdit(head, details);
    if (openIce[path]) details.open = true;
    details.addEventListener("toggle", function () { if (details.open) openIce[path] = true; else delete openIce[path]; });
    details.appendChild(el("summary", { text: "Edit " + subs.length + " subroutine" + (subs.length === 1 ? "" : "s") + ", costs" }));
    details.appendChild(el("div", { cls: "row" }, [
      textField("Name", path + ".name", function (v) { li.querySelector(".ic-name").textContent = v || "Unnamed ice"; }),
      numField("Rez cost", path + ".rez_cost", 0),
      numField("Strength", path + ".strength"),
      numField("Break cost", path + ".break_cost"),
      listField("Subtypes", path + ".subtypes")
    ]));
    subs.forEach(function (_, k) { details.appendChild(subEditor(path + ".subroutines[" + k + "]", k)); });
    details.appendChild(button("Add subroutine", function () {
      var list = getAt(model, path + ".subroutines") || [];
      list.push("end_the_run"); setAt(model, path + ".subroutines", list); openIce[path] = true; changed(true);
    }, "small"));
    details.appendChild(err(path + ".subroutines"));
    li.appendChild(details);
    li.appendChild(err(path));
    return li;
  }

  /* new ice goes innermost unless "outside" is chosen, beside the name box; the choice is kept
     per server across re-renders */
  var iceSide = {};
  function insertIce(server, card) {
    var ice = getAt(model, "servers." + server + ".ice") || [];
    var at = iceSide[server] === "outside" ? 0 : ice.length;
    ice.splice(at, 0, card);
    setAt(model, "servers." + server + ".ice", ice);
    Object.keys(openIce).forEach(function (p) { if (p.indexOf("servers." + server + ".") === 0) delete openIce[p]; });
    target(server);
    return at;
  }
  function addIceControl(server, n) {
    var side = iceSide[server] || "inside";
    var where = el("span", { cls: "ice-at", role: "group", "aria-label": "Where new ice goes on " + label(server) });
    [["inside", "Inside", "innermost (next to the server)"], ["outside", "Outside", "outermost (met first)"]].forEach(function (o) {
      var b = button(o[1], function () {
        iceSide[server] = o[0];
        where.querySelectorAll("button").forEach(function (x) { x.setAttribute("aria-pressed", x === b ? "true" : "false"); });
      }, "seg", { "aria-pressed": side === o[0] ? "true" : "false", "data-side": o[0], title: "New ice " + o[2], "aria-label": "New ice " + o[2] });
      where.appendChild(b);
    });
    if (!n) where.hidden = true;  // the first ice has no side
    var add = button("Hand-made ice", function () {
      var ice = getAt(model, "servers." + server + ".ice") || [];
      var at = insertIce(server, { name: "Ice " + (ice.length + 1), type: "ice", rezzed: false, rez_cost: 1, subroutines: ["end_the_run"] });
      openIce["servers." + server + ".ice[" + at + "]"] = true;  // the new ice's fields, ready to fill in
      changed(true);
      focusLater('[data-ice="servers.' + server + ".ice[" + at + ']"] .rez');
    }, "small add-ice", { "aria-label": "Add hand-made ice to " + label(server) });
    var pick = cardPicker("ice", ofType("ice"), function (card) {
      card.rezzed = false;
      insertIce(server, card);
      changed(true);
      focusLater('.srv[data-server="' + server + '"] input[data-pick="ice"]');  // the next ice, typed at once
    }, "Ice on " + label(server));
    return el("div", { cls: "ice-add" }, [pick, where, add]);
  }

  function rootCard(server, i) {
    var path = "servers." + server + ".root[" + i + "]";
    var up = getAt(model, path) || {};
    return el("div", { cls: "bc up " + (up.rezzed ? "rz" : "unrz"), "data-box": path }, [
      el("div", { cls: "row" }, [
        textField("Upgrade", path + ".name"), numField("Rez cost", path + ".rez_cost", 0), numField("Trash cost", path + ".trash_cost")
      ]),
      el("div", { cls: "ic-tools" }, [
        rezToggle(path + ".rezzed", up.name || "upgrade"),
        button("✕", function () { setAt(model, path, undefined); changed(true); }, "del", { "aria-label": "Delete " + (up.name || "upgrade") })
      ]),
      err(path)
    ]);
  }

  function contentCard(server) {
    var path = "servers." + server + ".content";
    var c = getAt(model, path);
    if (!c) {
      return el("div", { cls: "bc", "data-box": path }, [button("Hand-made agenda", function () {
        setAt(model, path, { name: "Agenda", type: "agenda", agenda_points: 2, advancement_requirement: 3, advancements: 0 });
        target(server);
        changed(true);
      }, "small add-content"), err(path)]);
    }
    var agenda = (c.type || "agenda") === "agenda";
    var kids = [textField("Card", path + ".name", function (v) { box.querySelector(".ic-name").textContent = v || "Card"; }),
      selectField("Type", path + ".type", ["agenda", "asset"], "agenda")];
    if (agenda) {
      kids.push(stepField("Points", path + ".agenda_points"), stepField("Adv. req.", path + ".advancement_requirement"));
    } else {
      kids.push(numField("Rez cost", path + ".rez_cost"), numField("Trash cost", path + ".trash_cost"));
    }
    var info = agenda
      ? (c.agenda_points != null ? c.agenda_points + (c.agenda_points === 1 ? " point · " : " points · ") : "") + "needs " + (c.advancement_requirement != null ? c.advancement_requirement : "?")
      : (c.rez_cost != null ? "rez " + c.rez_cost + "¢" : "") + (c.trash_cost != null ? " · trash " + c.trash_cost + "¢" : "");
    var head = el("div", { cls: "ic-head" }, [el("b", { cls: "ic-name", text: c.name || "Card" }), el("span", { cls: "ty", text: (agenda ? "Agenda" : "Asset") + (info ? " · " + info : "") })]);
    var box = el("div", { cls: "bc content " + (c.type === "asset" ? (c.rezzed ? "rz" : "unrz") : ""), "data-box": path, "data-card": path }, [head]);
    var tools = el("div", { cls: "ic-tools" });
    if (agenda) tools.appendChild(stepField("Advanced", path + ".advancements", 0));
    if (c.type === "asset") tools.appendChild(rezToggle(path + ".rezzed", c.name || "asset"));
    tools.appendChild(button("✕", function () { setAt(model, path, undefined); changed(true); }, "del", { "aria-label": "Remove " + (c.name || "card"), title: "Remove" }));
    box.appendChild(tools);
    var details = el("details", { cls: "ic-edit" });
    tapToEdit(head, details);
    if (openIce[path]) details.open = true;
    details.addEventListener("toggle", function () { if (details.open) openIce[path] = true; else delete openIce[path]; });
    details.appendChild(el("summary", { text: "Edit " + (c.name || "card") }));
    details.appendChild(el("div", { cls: "row" }, kids));
    box.appendChild(details);
    box.appendChild(err(path));
    details.querySelector("select").addEventListener("change", function () { changed(true); });
    return box;
  }

  function serverColumn(key) {
    var path = "servers." + key;
    var srv = getAt(model, path) || {};
    var ice = Array.isArray(srv.ice) ? srv.ice : [];
    var remote = /^remote/.test(key);
    var running = serverSelect.value === key && !serverField.hidden;
    var col = el("div", { cls: "srv server" + (running ? " atk" : ""), "data-server": key, "data-box": path });
    var h = el("h3", {}, [label(key)]);
    if (running) h.appendChild(el("span", { cls: "tag", text: "run" }));
    if (!remote) h.appendChild(el("span", { cls: "zone", text: centralCount(key) }));
    col.appendChild(h);
    col.appendChild(err(path));
    if (ice.length) {
      var ol = el("ol", { cls: "ice" });
      ice.forEach(function (_, i) { ol.appendChild(iceCard(key, i, ice.length)); });
      col.appendChild(ol);
    }
    col.appendChild(addIceControl(key, ice.length));
    col.appendChild(err(path + ".ice"));
    var rootBox = el("div", { cls: "root" });
    if (remote) {
      rootBox.appendChild(contentCard(key));
      rootBox.appendChild(cardPicker("agenda or asset", ofType("agenda", "asset"), function (card) {
        if (card.type === "agenda") card.advancements = 0;
        else card.rezzed = false;
        setAt(model, path + ".content", card);
        target(key);
        changed(true);
      }, srv.content ? "Replace with a card by name" : "Agenda or asset in " + label(key)));
    }
    var roots = srv.root || [];
    var upgrades = roots.map(function (_, i) { return rootCard(key, i); });
    upgrades.push(cardPicker("upgrade", ofType("upgrade"), function (card) {
      var list = getAt(model, path + ".root") || [];
      card.rezzed = false;
      list.push(card);
      setAt(model, path + ".root", list);
      openMore["root:" + key] = true;
      target(key);
      changed(true);
    }, "Upgrade by name"));
    upgrades.push(button("Hand-made upgrade", function () {
      var list = getAt(model, path + ".root") || [];
      list.push({ name: "Upgrade " + (list.length + 1), type: "upgrade", rezzed: false, rez_cost: 1, trash_cost: 2 });
      setAt(model, path + ".root", list); openMore["root:" + key] = true; changed(true);
    }, "small add-upgrade"));
    if (roots.length) openMore["root:" + key] = true;
    rootBox.appendChild(more("Upgrades" + (roots.length ? " (" + roots.length + ")" : ""), upgrades, "root:" + key));
    if (remote) {
      rootBox.appendChild(button("Remove " + label(key), function () { delete model.servers[key]; changed(true); }, "small danger remove-server"));
    }
    col.appendChild(rootBox);
    return col;
  }
  function centralCount(key) {
    var zone = { hq: "hand", rd: "deck", archives: "discard" }[key];
    var v = model.corp ? model.corp[zone] : undefined;
    var n = Array.isArray(v) ? v.length : (typeof v === "number" ? v : (key === "hq" ? 5 : key === "rd" ? 30 : 0));
    return n + " card" + (n === 1 ? "" : "s");
  }

  /* ---------- the whole form ---------- */
  function render() {
    root.textContent = "";
    if (!model || typeof model !== "object" || Array.isArray(model)) {
      root.appendChild(el("p", { cls: "problems", text: "The JSON is not a board object; fix it below." }));
      return;
    }
    model.servers = model.servers || {};
    syncServers();
    var bp = el("section", { cls: "bp ed-bp", "aria-label": "Board (editable)" });
    bp.appendChild(el("div", { cls: "bp-side bp-corp", "data-box": "corp" }, [
      el("h2", { text: "Corp" }),
      el("div", { cls: "row" }, [stepField("Credits", "corp.credits", 5), stepField("Clicks", "corp.clicks", 0)]),
      more("Bad publicity, cards, score, whose turn", [el("div", { cls: "row" }, [
        stepField("Bad publicity", "corp.bad_publicity", 0), countField("Cards in HQ", "corp.hand", 5),
        countField("Cards in R&D", "corp.deck", 30), scoreField("corp"),
        selectField("Whose turn", "turn", ["runner", "corp"], "runner")
      ])], "corp"),
      el("div", { cls: "row" }, corpIdentityFields()),
      err("corp")
    ]));
    var srvs = el("div", { cls: "bp-srvs", "data-box": "servers" });
    serverKeys().forEach(function (k) { srvs.appendChild(serverColumn(k)); });
    bp.appendChild(err("servers"));
    bp.appendChild(srvs);
    bp.appendChild(el("p", { cls: "ed-tools" }, [button("Add remote server", addRemote, "add-remote")]));
    bp.appendChild(el("div", { cls: "bp-side bp-runner", "data-box": "runner" }, [
      el("h2", { text: "Runner" }),
      el("div", { cls: "row" }, [stepField("Credits", "runner.credits", 5), stepField("Clicks", "runner.clicks", 0)]),
      more("Tags, link, damage, cards, score", [el("div", { cls: "row" }, [
        stepField("Tags", "runner.tags", 0), stepField("Link", "runner.link", 0),
        stepField("Core damage", "runner.core_damage", 0), countField("Cards in grip", "runner.hand", 5),
        countField("Cards in stack", "runner.deck", 30), scoreField("runner")
      ])], "runner"),
      rigEditor(),
      err("runner")
    ]));
    root.appendChild(bp);
  }
  /* ---------- the Runner's identity and rig on the picture ---------- */
  var RIG_ZONES = [
    ["programs", "Programs", "program"], ["hardware", "Hardware", "hardware"],
    ["resources", "Resources", "resource"], ["facedown", "Facedown", ""]
  ];
  var ICE_SUBTYPES = ["barrier", "code gate", "sentry"];

  function identityFields() {
    var ident = getAt(model, "runner.identity");
    var name = typeof ident === "string" ? ident : (ident && ident.name) || "";
    var input = el("input", { type: "text", "data-path": "runner.identity", "aria-label": "Identity", maxlength: "100", placeholder: "none" });
    input.value = name;
    input.addEventListener("input", function () {
      var v = input.value.trim(), cur = getAt(model, "runner.identity");
      if (cur && typeof cur === "object") setAt(model, "runner.identity.name", v || "Identity");
      else setAt(model, "runner.identity", v || undefined);
      changed(false);
    });
    var limit = numField("Memory limit", "runner.memory_limit");
    var fromId = ident && typeof ident === "object" && ident.memory_limit != null ? ident.memory_limit : 4;
    limit.querySelector("input").placeholder = String(fromId);
    var pick = cardPicker("identity", isIdentity, function (card) {
      var limit = getAt(model, "runner.identity.memory_limit");
      if (limit != null) card.memory_limit = limit;
      setAt(model, "runner.identity", card);
      changed(true);
      focusLater('input[data-pick="identity"]');
    });
    return [wrap("Identity", input, "runner.identity"), limit, pick];
  }

  /* the Corp's identity (corp.identity): a name, or a real one picked by name with its abilities */
  function corpIdentityFields() {
    var ident = getAt(model, "corp.identity");
    var input = el("input", { type: "text", "data-path": "corp.identity", "aria-label": "Corp identity", maxlength: "100", placeholder: "none" });
    input.value = typeof ident === "string" ? ident : (ident && ident.name) || "";
    input.addEventListener("input", function () {
      var v = input.value.trim(), cur = getAt(model, "corp.identity");
      if (cur && typeof cur === "object" && v) setAt(model, "corp.identity.name", v);
      else setAt(model, "corp.identity", v || undefined);
      changed(false);
    });
    var pick = cardPicker("Corp identity", isCorpIdentity, function (card) {
      setAt(model, "corp.identity", card);
      changed(true);
      focusLater('input[data-pick="Corp identity"]');
    });
    return [wrap("Corp identity", input, "corp.identity"), pick];
  }

  function abilityEditor(path, k) {
    var a = getAt(model, path) || {};
    var what = "ability " + (k + 1);
    var box = el("div", { cls: "subed ab-ed", "data-box": path });
    var kind = el("select", { "data-path": path + ".kind", "aria-label": "Kind of " + what });
    [["break", "break subroutines"], ["strength", "+ strength"], ["text", "other (text)"]].forEach(function (o) {
      kind.appendChild(el("option", { value: o[0], text: o[1] }));
    });
    kind.value = a.kind || "text";
    kind.addEventListener("change", function () {
      var next = { kind: kind.value };
      if (kind.value === "break") { next.cost = a.cost || 1; next.count = 1; }
      else if (kind.value === "strength") { next.cost = a.cost || 1; next.amount = 1; }
      else next.text = "Ability";
      setAt(model, path, next);
      changed(true);
      focusLater('[data-path="' + path + '.kind"]');
    });
    box.appendChild(wrap("↳ Ability " + (k + 1), kind, path + ".kind"));
    if (kind.value === "break") {
      box.appendChild(numField("Cost ¢", path + ".cost", 1));
      box.appendChild(numField("Breaks", path + ".count", 1));
      var sub = el("select", { "data-path": path + ".ice_subtype", "aria-label": "Ice subtype " + what + " breaks" });
      sub.appendChild(el("option", { value: "", text: "any ice (AI)" }));
      var known = ICE_SUBTYPES.slice();
      if (a.ice_subtype && known.indexOf(a.ice_subtype) < 0) known.push(a.ice_subtype);
      known.forEach(function (t) { sub.appendChild(el("option", { value: t, text: t })); });
      sub.value = a.ice_subtype || "";
      sub.addEventListener("change", function () { setAt(model, path + ".ice_subtype", sub.value || undefined); changed(false); });
      box.appendChild(wrap("Subtype", sub, path + ".ice_subtype"));
      var upTo = el("input", { type: "checkbox", "data-path": path + ".up_to", "aria-label": "Break up to (" + what + ")" });
      upTo.checked = !!a.up_to;
      upTo.addEventListener("change", function () { setAt(model, path + ".up_to", upTo.checked || undefined); changed(false); });
      box.appendChild(el("label", { cls: "field check", "data-box": path + ".up_to" }, [upTo, " up to"]));
    } else if (kind.value === "strength") {
      box.appendChild(numField("Cost ¢", path + ".cost", 1));
      box.appendChild(numField("+ Strength", path + ".amount", 1));
    } else {
      box.appendChild(textField("Text", path + ".text"));
    }
    box.appendChild(button("Remove", function () { setAt(model, path, undefined); changed(true); }, "small", { "aria-label": "Remove " + what }));
    box.appendChild(err(path));
    return box;
  }

  function rigCard(zone, type, i) {
    var path = "runner.rig." + zone + "[" + i + "]";
    var c = getAt(model, path);
    if (typeof c === "string") { c = { name: c }; if (type) c.type = type; setAt(model, path, c); syncText(); }
    c = c || {};
    var name = c.name || "Unnamed card";
    var box = el("div", { cls: "bc rc", "data-card": path, "data-box": path });
    var head = el("div", { cls: "ic-head" }, [el("b", { cls: "ic-name", text: name })]);
    if (c.strength != null) head.appendChild(el("span", { cls: "st", title: "strength", text: String(c.strength) }));
    if (c.memory_cost) head.appendChild(el("span", { cls: "ty", text: c.memory_cost + " MU" }));
    box.appendChild(head);
    if (Array.isArray(c.subtypes) && c.subtypes.length) box.appendChild(el("span", { cls: "ty", text: c.subtypes.join(" · ") }));
    var abilities = Array.isArray(c.abilities) ? c.abilities : [];
    var details = el("details", { cls: "ic-edit" });
    tapToEdit(head, details);
    if (openIce[path]) details.open = true;
    details.addEventListener("toggle", function () { if (details.open) openIce[path] = true; else delete openIce[path]; });
    var what = zone === "programs" ? ", strength, " + abilities.length + " abilit" + (abilities.length === 1 ? "y" : "ies") : "";
    details.appendChild(el("summary", { text: "Edit " + name + what }));
    var fields = [
      textField("Name", path + ".name", function (v) { box.querySelector(".ic-name").textContent = v || "Unnamed card"; }),
      numField("Install cost", path + ".install_cost")
    ];
    if (zone === "programs") {
      fields.push(numField("Memory (MU)", path + ".memory_cost", 0), numField("Strength", path + ".strength"), listField("Subtypes", path + ".subtypes"));
    }
    if (zone === "facedown") fields.push(selectField("Type", path + ".type", ["program", "hardware", "resource", "event"], "program"));
    details.appendChild(el("div", { cls: "row" }, fields));
    if (zone === "programs") {
      abilities.forEach(function (_, k) { details.appendChild(abilityEditor(path + ".abilities[" + k + "]", k)); });
      details.appendChild(button("Add ability", function () {
        var list = getAt(model, path + ".abilities") || [];
        list.push({ kind: "break", cost: 1, count: 1 });
        setAt(model, path + ".abilities", list); openIce[path] = true; changed(true);
        focusLater('[data-path="' + path + ".abilities[" + (list.length - 1) + '].kind"]');
      }, "small add-ability", { "aria-label": "Add an ability to " + name }));
      details.appendChild(err(path + ".abilities"));
    }
    head.appendChild(button("✕", function () { setAt(model, path, undefined); changed(true); focusLater('[data-zone="' + zone + '"] .add-card'); }, "del", { "aria-label": "Uninstall " + name, title: "Uninstall" }));
    box.appendChild(details);
    box.appendChild(err(path));
    return box;
  }

  function rigZone(zone, title, type) {
    var path = "runner.rig." + zone;
    var cards = getAt(model, path);
    cards = Array.isArray(cards) ? cards : [];
    var col = el("div", { cls: "rig", "data-zone": zone, "data-box": path }, [el("h3", { text: title + (cards.length ? " (" + cards.length + ")" : "") })]);
    cards.forEach(function (_, i) { col.appendChild(rigCard(zone, type, i)); });
    var noun = { programs: "program", hardware: "hardware", resources: "resource", facedown: "facedown card" }[zone];
    var handMade = button("Hand-made " + noun, function () {
      var list = getAt(model, path);
      list = Array.isArray(list) ? list : [];
      var card = zone === "programs"
        ? { name: "Icebreaker " + (list.length + 1), type: "program", install_cost: 1, memory_cost: 1, strength: 1, subtypes: ["icebreaker"], abilities: [{ kind: "break", cost: 1, count: 1 }, { kind: "strength", cost: 1, amount: 1 }] }
        : { name: title.replace(/s$/, "") + " " + (list.length + 1), type: type || "program", install_cost: 1 };
      list.push(card);
      setAt(model, path, list);
      var at = path + "[" + (list.length - 1) + "]";
      openIce[at] = true;  // the new card's fields, ready to fill in
      changed(true);
      focusLater('[data-card="' + at + '"] input[data-path="' + at + '.name"]');
    }, "small add-card", { "aria-label": "Install a hand-made " + noun });
    if (type) {
      col.appendChild(cardPicker(noun, ofType(type), function (card) {
        var list = getAt(model, path);
        list = Array.isArray(list) ? list : [];
        list.push(card);
        setAt(model, path, list);
        changed(true);
        focusLater('[data-zone="' + zone + '"] .pick-q');  // the next one, typed at once
      }, "Install " + noun + " by name"));
    }
    col.appendChild(handMade);
    col.appendChild(err(path));
    return col;
  }

  /* programs on view; the identity and the other zones folded (open when they hold cards) */
  function rigEditor() {
    var box = el("div", { cls: "rig-ed", "data-box": "runner.rig" }, [err("runner.rig")]);
    box.appendChild(rigZone("programs", "Programs", "program"));
    var others = [];
    var held = 0;
    RIG_ZONES.forEach(function (z) {
      if (z[0] === "programs") return;
      var cards = getAt(model, "runner.rig." + z[0]);
      held += Array.isArray(cards) ? cards.length : 0;
      others.push(rigZone(z[0], z[1], z[2]));
    });
    var ident = getAt(model, "runner.identity");
    if (held || ident) openMore.rig = true;
    box.appendChild(more("Identity, hardware, resources, facedown" + (held ? " (" + held + ")" : ""),
      [el("div", { cls: "row" }, identityFields())].concat(others), "rig"));
    return box;
  }

  function addRemote() {
    var i = 1; while (model.servers["remote" + i]) i++;
    var key = "remote" + i;
    // empty until a card is put in it (the picker under its name has the focus)
    model.servers[key] = { ice: [] };
    syncServers();
    serverSelect.value = key;  // a new remote is the server to run, at once
    changed(true);
    focusLater('.srv[data-server="' + key + '"] ' + (cardData ? 'input[data-pick="ice"]' : ".add-ice"));
    setTimeout(function () {
      var col = root.querySelector('.srv[data-server="' + key + '"]');
      if (col) col.scrollIntoView({ block: "start" });
    }, 0);
  }
  /* the run follows the edits: the server a card was just put on is the one to run */
  function target(key) {
    if (serverField.hidden || !model.servers[key]) return;
    syncServers();
    serverSelect.value = key;
  }
  /* after a whole board is loaded (Apply JSON, a file, an example): the server it names (a saved
     session: {board, structure, params: {server}}), else the chosen one if the board has it and
     it holds cards, else the last remote, else the first central server with ice */
  function defaultTarget(named) {
    var keys = serverKeys();
    var has = function (k) { var s = model.servers[k] || {}; return (s.ice && s.ice.length) || s.content || (s.root && s.root.length); };
    if (named && keys.indexOf(named) >= 0) return named;
    if (keys.indexOf(serverSelect.value) >= 0 && has(serverSelect.value)) return serverSelect.value;
    var remotes = keys.filter(function (k) { return /^remote/.test(k); });
    if (remotes.length) return remotes[remotes.length - 1];
    return keys.filter(has)[0] || "hq";
  }

  /* the server list: the board's own servers, by their names; keeps the choice if it still exists */
  function syncServers() {
    var keep = serverSelect.value;
    var keys = serverKeys();
    serverSelect.textContent = "";
    keys.forEach(function (k) { serverSelect.appendChild(el("option", { value: k, text: label(k) })); });
    serverSelect.value = keys.indexOf(keep) >= 0 ? keep : "hq";
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

  /* Each validation (and each local error) takes a new number; an answer that
     comes back after a newer one was asked for, or after a local error was shown,
     is dropped, so a slow server answer never wipes a newer message. */
  var validateSeq = 0;
  function validate() {
    if (!model) return;
    var seq = ++validateSeq;
    fetch("/api/engine/validate", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ board: model })
    }).then(function (r) { return r.json(); }).then(function (data) {
      if (seq !== validateSeq) return;
      showProblems(data.problems || [{ path: "", message: data.error || "cannot validate" }]);
    }).catch(function () {});
  }

  function showLocalError(message) {
    clearTimeout(validateTimer);
    validateSeq++;
    showProblems([{ path: "", message: message }]);
  }

  /* `retarget`: a whole new board (Apply JSON, a file, an example), whose server to run is
     chosen again; a saved session ({board, structure, params}) names its own */
  function loadText(text, retarget) {
    var named = null;
    try { model = JSON.parse(text); } catch (e) {
      showLocalError("the board is not valid JSON: " + e.message);
      return false;
    }
    if (model && typeof model === "object" && model.board && typeof model.board === "object" && !model.servers) {
      var spec = model;
      model = spec.board;
      if (spec.structure && structure.querySelector('option[value="' + CSS.escape(String(spec.structure)) + '"]')) {
        structure.value = spec.structure;
        structureChanged();
      }
      named = spec.params && typeof spec.params.server === "string" ? spec.params.server : null;
    }
    if (retarget && model && typeof model === "object" && !Array.isArray(model)) {
      model.servers = model.servers || {};
      syncServers();
      serverSelect.value = defaultTarget(named);
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
    if (model) render();
  }
  structure.addEventListener("change", structureChanged);
  serverSelect.addEventListener("change", function () { if (model) render(); });

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    if (!loadText(textarea.value)) return;
    var params = {};
    if (!serverField.hidden) params.server = serverSelect.value;
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
  document.getElementById("applyjson").addEventListener("click", function () { loadText(textarea.value, true); });
  document.getElementById("loadfile").addEventListener("change", function (e) {
    var f = e.target.files && e.target.files[0];
    if (!f) return;
    if (f.size > 200000) { showLocalError("file too large for a board"); return; }
    f.text().then(function (t) { loadText(t, true); });
  });
  document.getElementById("save").addEventListener("click", function () {
    var blob = new Blob([JSON.stringify(model, null, 2) + "\n"], { type: "application/json" });
    var a = el("a", { href: URL.createObjectURL(blob), download: "board.json" });
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
  });
  var examplesPromise = null;
  function chosen(a) {
    document.querySelectorAll("a.example-link").forEach(function (x) {
      x.classList.toggle("on", x === a);
      if (x === a) x.setAttribute("aria-current", "true"); else x.removeAttribute("aria-current");
    });
    if (history.replaceState) history.replaceState(null, "", a.href);  // a reload keeps the choice
    showChosen();
  }
  /* the chosen board's chip in view in its scrolling row */
  function showChosen() {
    var row = document.querySelector("nav.examples"), on = row && row.querySelector("a.on");
    if (on && (on.offsetLeft + on.offsetWidth > row.scrollLeft + row.clientWidth || on.offsetLeft < row.scrollLeft)) {
      row.scrollLeft = on.offsetLeft - row.offsetLeft - 8;
    }
  }
  showChosen();
  document.querySelectorAll("a.example-link").forEach(function (a) {
    a.addEventListener("click", function (e) {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button) return;
      e.preventDefault();
      var name = a.getAttribute("data-example");
      if (!name) {  // the empty board
        loadText(JSON.stringify({ format: "nrrules-board", version: 1, servers: {} }), true);
        chosen(a);
        return;
      }
      examplesPromise = examplesPromise || fetch("/api/engine/examples").then(function (r) { return r.json(); });
      examplesPromise.then(function (data) {
        var ex = (data.examples || []).filter(function (x) { return x.name === name; })[0];
        if (ex) { loadText(JSON.stringify(ex.board), true); chosen(a); }
      });
    });
  });

  textarea.addEventListener("change", function () { loadText(textarea.value, true); });
  if (staticPicture) staticPicture.hidden = true;
  var jsonPanel = form.querySelector(".json-panel");
  if (jsonPanel) jsonPanel.open = false;  // the picture is the editor; the JSON one tap away
  root.hidden = false;
  structureChanged();
  loadText(textarea.value);
})();
