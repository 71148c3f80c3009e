/* nrrules offline search: ranks one CR version in the browser from its offline pack
   (built by rules_index/offline.py from the server's own Whoosh index), the way
   rules_index/search.py ranks it on the server: lookup of numbers, ids and deep links first
   (then the rules citing the rule), judge jargon, card names, typo correction, BM25F scores,
   then the server's re-rank (coordination, text phrase bonus, kind priors), with a question's
   framing taken out and its intent read as rules_index/question.py reads it (patterns from
   the pack), and a cited timing step making way for the rule citing it.
   Exposes window.NROfflineIndex(pack). No DOM access: usable in a page or a worker. */
(function (root) {
  "use strict";
  var TOKEN = /(?:non-)?[\p{L}\p{N}]+(?:&[\p{L}\p{N}]+)?/giu;
  var CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\ufeff]/g;
  var MAX_QUERY = 200, SNIPPET_CHARS = 260;
  var PREFIX = /^(?:(?:rules|rule|sub-?rules?|steps?|timing\s+steps?|sections?|subsections?|sec|chapters?|chap|ch|phase|cr|nsg|r|§+|#)\s*\.?\s*)+/i;
  var NUMBER = /^(\d{1,3}(?:\s*\.\s*\d{1,3}){0,2})(?:(?:\s*\.\s*|\s+|\s*\(\s*)?([a-z])\)?)?(?:(?:\s*\.\s*|\s+|\s*\(\s*)?([ivx]{1,4})\)?)?\s*\.?\s*(\+)?\s*$/i;
  var ID = /^[A-Za-z][A-Za-z0-9_.+&-]*_[A-Za-z0-9_.+&-]*$/;
  var ROMAN = { i: 1, ii: 2, iii: 3, iv: 4, v: 5, vi: 6, vii: 7, viii: 8, ix: 9, x: 10 };
  var ESC = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

  function esc(s) { return s.replace(/[&<>]/g, function (c) { return ESC[c]; }); }
  function reEsc(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
  function fold(s) { return s.normalize("NFD").replace(/[\u0300-\u036f]/g, ""); }
  function tokens(s) { return s.match(TOKEN) || []; }
  function cleanQuery(q) {
    if (typeof q !== "string") return "";
    return q.slice(0, MAX_QUERY * 4).replace(CONTROL, " ").split(/\s+/).filter(Boolean).join(" ").slice(0, MAX_QUERY);
  }
  /* question.py focus() without the card names: a query over MAX_QUERY characters (a forum post)
     is read as its last sentences ending in "?" (else its last sentences), as many as fit. */
  var SENTENCE_END = /(?<=[.!?])["')\]]*\s+/;
  function focus(q) {
    if (typeof q !== "string") return "";
    var text = q.replace(CONTROL, " ").split(/\s+/).filter(Boolean).join(" ");
    if (text.length <= MAX_QUERY) return text;
    var sentences = text.split(SENTENCE_END).map(function (x) { return x.trim(); }).filter(Boolean);
    var asked = sentences.filter(function (x) { return /\?$/.test(x.replace(/["')\] ]+$/, "")); });
    if (!asked.length) asked = sentences;
    var picked = [], used = 0;
    for (var i = asked.length - 1; i >= 0; i--) {
      if (used + asked[i].length + 1 > MAX_QUERY) break;
      picked.unshift(asked[i]); used += asked[i].length + 1;
    }
    if (!picked.length) {
      var tail = asked[asked.length - 1].slice(-MAX_QUERY), sp = tail.indexOf(" ");
      picked = [sp >= 0 ? tail.slice(sp + 1) : tail];
    }
    return picked.join(" ").slice(0, MAX_QUERY);
  }
  var DIGITS62 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"; /* offline._base62 */
  var MORE = "wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-"; /* offline.py MORE / FINAL */
  function decode(coded) { /* "doc delta, score, ..." base-32 coded (offline.decode_post) -> Map doc -> score */
    var m = new Map(), d = 0, n = 0, delta = -1;
    if (Array.isArray(coded)) { /* a copy saved before the coding (format 1): the plain list */
      for (var j = 0; j < coded.length; j += 2) { d += coded[j]; m.set(d, coded[j + 1]); }
      return m;
    }
    for (var i = 0; i < coded.length; i++) {
      var c = coded.charCodeAt(i), k = MORE.indexOf(coded[i]);
      if (k >= 0) { n = n * 32 + k; continue; }
      n = n * 32 + (c <= 57 ? c - 48 : c - 87);
      if (delta < 0) delta = n; else { d += delta; m.set(d, n); delta = -1; }
      n = 0;
    }
    return m;
  }
  function stripTags(html) {
    return html.replace(/<[^>]*>/g, "").replace(/&(amp|lt|gt|quot|#39|#x27);/g, function (m, e) {
      return { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'" }[e];
    });
  }
  function distance(a, b, limit) { /* optimal string alignment distance, capped at limit + 1 */
    if (Math.abs(a.length - b.length) > limit) return limit + 1;
    var prev2 = null, prev = [], i, j;
    for (j = 0; j <= b.length; j++) prev.push(j);
    for (i = 1; i <= a.length; i++) {
      var cur = [i], low = i;
      for (j = 1; j <= b.length; j++) {
        var v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (prev2 && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
        cur.push(v); if (v < low) low = v;
      }
      if (low > limit) return limit + 1;
      prev2 = prev; prev = cur;
    }
    return prev[b.length];
  }
  function contains(seq, phrase) {
    for (var i = 0; i + phrase.length <= seq.length; i++) {
      var ok = true;
      for (var j = 0; j < phrase.length; j++) if (seq[i + j] !== phrase[j]) { ok = false; break; }
      if (ok) return true;
    }
    return false;
  }
  function containsSlop(seq, phrase, slop) { /* words in order with at most `slop` words between */
    for (var i = 0; i < seq.length; i++) {
      if (seq[i] !== phrase[0]) continue;
      var pos = i, ok = true;
      for (var j = 1; j < phrase.length && ok; j++) {
        ok = false;
        for (var k = pos + 1; k <= pos + 1 + slop && k < seq.length; k++) if (seq[k] === phrase[j]) { pos = k; ok = true; break; }
      }
      if (ok) return true;
    }
    return false;
  }
  function parts(number) {
    var m = /^(\d+(?:\.\d+)*)([a-z])?(?:\.([ivx]+))?$/.exec(number || "");
    if (!m) return null;
    var out = m[1].split(".").map(Number);
    if (m[2]) out.push(m[2].charCodeAt(0) - 96);
    if (m[3]) out.push(ROMAN[m[3]] || 0);
    return out;
  }
  function numberCmp(a, b) {
    var pa = parts(a) || [1e6], pb = parts(b) || [1e6];
    for (var i = 0; i < Math.min(pa.length, pb.length); i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
    return pa.length - pb.length;
  }

  function Index(pack) {
    var ix = pack.index;
    this.pack = pack;
    this.version = pack.version;
    this.rules = pack.rules;
    this.kinds = pack.kinds;
    this.ix = ix;
    this.params = ix.params;
    this.stop = new Set(ix.stop);
    this.common = new Set(ix.common);
    this.byNumber = new Map();
    this.byId = new Map();
    this.byLowerId = new Map();
    this.children = new Map();
    this.docOf = new Map(); /* pack position -> whoosh docnum (searchable rules only) */
    var self = this;
    pack.rules.forEach(function (r, i) {
      if (r[1]) self.byNumber.set(r[1], i);
      self.byId.set(r[0], i);
      self.byLowerId.set(r[0].toLowerCase(), i);
      if (r[4] >= 0) { if (!self.children.has(r[4])) self.children.set(r[4], []); self.children.get(r[4]).push(i); }
    });
    ix.docs.forEach(function (pos, d) { self.docOf.set(pos, d); });
    this._post = new Map(); this._title = new Map(); this._terms = new Map();
    this._text = new Map(); this._stems = new Map();
    this._cardRe = null; this._jargonRe = null; this._vocab = null; this._back = null;
    var q = ix.question || { framing: [], intents: [], answering: {} };
    this.framing = q.framing.map(function (f) { return [new RegExp(f[0], "gi"), f[1]]; });
    this.intents = q.intents.map(function (i) { return [i[0], new RegExp(i[1], "i")]; });
    this.asks = q.asks ? new RegExp(q.asks, "i") : null; /* a copy saved before the pack had it reads no query as a question */
    this.answering = {};
    Object.keys(q.answering).forEach(function (k) { self.answering[k] = new Set(q.answering[k]); });
    this.explain = ix.explain || {};
    this.naming = new Set((ix.ranker && ix.ranker.naming) || []);
    this._rinfo = new Map();
  }
  var P = Index.prototype;

  /* ---------- rules ---------- */
  P.rule = function (pos) {
    var r = this.rules[pos];
    if (!r) return null;
    return { pos: pos, id: r[0], number: r[1] || null, kind: this.kinds[r[2]], title: r[3] || null, parent: r[4], html: r[5] };
  };
  P.find = function (id) { var p = this.byId.get(id); return p === undefined ? null : this.rule(p); };
  P.kids = function (pos) { return this.children.get(pos) || []; };
  P.examples = function (pos) { var self = this; return this.kids(pos).filter(function (k) { return self.kinds[self.rules[k][2]] === "example"; }); };
  P.ancestors = function (pos) {
    var out = [], p = this.rules[pos][4];
    while (p >= 0) { out.unshift(p); p = this.rules[p][4]; }
    return out;
  };
  P.text = function (pos) {
    var t = this._text.get(pos);
    if (t === undefined) { t = stripTags(this.rules[pos][5]); this._text.set(pos, t); }
    return t;
  };
  P.backlinks = function () { /* target id -> [rule positions citing it], examples count for their rule */
    if (!this._back) {
      var back = new Map(), self = this;
      this.rules.forEach(function (r, i) {
        var owner = i;
        while (self.kinds[self.rules[owner][2]] === "example" && self.rules[owner][4] >= 0) owner = self.rules[owner][4];
        var re = /class="ref" data-id="([^"]+)"/g, m; /* the CR's own references, not step links */
        while ((m = re.exec(r[5]))) {
          var list = back.get(m[1]);
          if (!list) { list = []; back.set(m[1], list); }
          if (list.indexOf(owner) < 0 && self.rules[owner][0] !== m[1]) list.push(owner);
        }
      });
      this._back = back;
    }
    return this._back;
  };
  P.cites = function (pos) {
    var seen = [], self = this, ids = [pos].concat(this.examples(pos));
    ids.forEach(function (p) {
      var re = /class="ref" data-id="([^"]+)"/g, m; /* the CR's own references, not step links */
      while ((m = re.exec(self.rules[p][5]))) {
        var t = self.byId.get(m[1]);
        if (t !== undefined && t !== pos && seen.indexOf(t) < 0) seen.push(t);
      }
    });
    return seen;
  };
  P.citedBy = function (pos) { return (this.backlinks().get(this.rules[pos][0]) || []).slice(); };

  /* ---------- lookup (rules_index/lookup.py) ---------- */
  function cleanRef(text) {
    text = Array.from(text.slice(0, 300)).map(function (c) { return /[\p{C}]/u.test(c) ? " " : c; }).join("");
    return text.trim().replace(/^["'`“”‘’()[\]{}<>]+|["'`“”‘’()[\]{}<>]+$/g, "").trim();
  }
  function idFromUrl(text) {
    if (!/^(https?:\/\/|[/?#])/.test(text)) return null;
    var u;
    try { u = new URL(text, "http://x.invalid/"); } catch (e) { return null; }
    var keys = ["r", "id", "rule"];
    for (var i = 0; i < keys.length; i++) { var v = u.searchParams.get(keys[i]); if (v && v.trim()) return v.trim(); }
    if (u.hash.length > 1 && u.hash.slice(1).trim()) return decodeURIComponent(u.hash.slice(1).trim());
    var m = /\/(?:id|rule|rules)\/([^/?#]+)\/?$/.exec(u.pathname);
    return m ? decodeURIComponent(m[1]) : null;
  }
  function parseQuery(text) {
    if (typeof text !== "string") return null;
    text = cleanRef(text);
    if (!text) return null;
    var urlId = idFromUrl(text);
    if (urlId !== null) return { kind: "id", value: urlId };
    var body = text.replace(PREFIX, "").trim();
    var m = NUMBER.exec(body);
    if (m) {
      var ps = m[1].split(".").map(function (p) { return String(parseInt(p.trim(), 10)); });
      var letter = (m[2] || "").toLowerCase(), roman = (m[3] || "").toLowerCase();
      if (letter && ps.length !== 3) return null;
      if (roman && (!letter || !ROMAN[roman])) return null;
      return { kind: "number", value: ps.join(".") + letter + (roman ? "." + roman : ""), children: !!m[4] };
    }
    if (ID.test(text)) return { kind: "id", value: text };
    return null;
  }
  Index.parseQuery = parseQuery;

  P.suggestNumbers = function (number, limit) { /* lookup.py's _suggest_numbers */
    var want = parts(number), found = [], self = this;
    if (!want) return [];
    var all = Array.from(this.byNumber.keys()).map(function (n) { return [n, parts(n)]; });
    function same(a, b, n) { for (var i = 0; i < n; i++) if (a[i] !== b[i]) return false; return true; }
    function exists(prefix) { return all.some(function (x) { return x[1] && x[1].length === prefix.length && same(x[1], prefix, prefix.length); }); }
    for (var level = want.length; level > 0 && !found.length; level--) {
      /* siblings only under a parent that exists: 99.9.9 has no neighbours among the chapters */
      if (level > 1 ? !exists(want.slice(0, level - 1)) : want.length > 1) continue;
      var target = want[level - 1];
      var sib = all.filter(function (x) { return x[1] && x[1].length === level && same(x[1], want, level - 1); });
      sib.sort(function (a, b) {
        return Math.abs(a[1][level - 1] - target) - Math.abs(b[1][level - 1] - target) || numberCmp(a[0], b[0]);
      });
      found = sib.slice(0, 3).map(function (x) { return x[0]; });
    }
    for (var l = want.length - 1; l > 0; l--) {
      var anc = all.find(function (x) { return x[1] && x[1].length === l && same(x[1], want, l); });
      if (anc) { if (found.indexOf(anc[0]) < 0) found.push(anc[0]); break; }
    }
    void self;
    return found.sort(numberCmp).slice(0, limit || 5);
  };

  P.lookup = function (text) {
    var ref = parseQuery(text);
    if (!ref) return { ref: null, pos: null, suggestions: [] };
    var pos;
    if (ref.kind === "number") {
      pos = this.byNumber.get(ref.value);
      if (pos === undefined) return { ref: ref, pos: null, suggestions: this.suggestNumbers(ref.value) };
    } else {
      pos = this.byId.get(ref.value);
      if (pos === undefined) pos = this.byLowerId.get(ref.value.toLowerCase());
      if (pos === undefined && /\+$/.test(ref.value)) {
        var base = ref.value.replace(/\++$/, "");
        pos = this.byId.get(base);
        if (pos === undefined) pos = this.byLowerId.get(base.toLowerCase());
      }
      if (pos === undefined) return { ref: ref, pos: null, suggestions: [] };
    }
    return { ref: ref, pos: pos, suggestions: [] };
  };

  /* ---------- analysis ---------- */
  P.stemOf = function (word) { /* the indexed form of one word; null for a stop word */
    var low = word.toLowerCase();
    if (this.stop.has(low)) return null;
    var w = this.ix.words;
    if (Object.prototype.hasOwnProperty.call(w, low)) return w[low];
    var f = fold(low);
    if (f !== low && Object.prototype.hasOwnProperty.call(w, f)) return w[f];
    return f;
  };
  P.stems = function (text) {
    var out = [], self = this;
    tokens(text).forEach(function (t) { var s = self.stemOf(t); if (s) out.push(s); });
    return out;
  };
  P.known = function (low) {
    return Object.prototype.hasOwnProperty.call(this.ix.words, low) || Object.prototype.hasOwnProperty.call(this.ix.post, low);
  };
  P.vocab = function () {
    if (!this._vocab) {
      var v = new Map(), post = this.ix.post, self = this;
      Object.keys(this.ix.words).forEach(function (w) { var p = post[self.ix.words[w]]; v.set(w, p ? p.length : 0); });
      Object.keys(post).forEach(function (s) { if (!v.has(s) && /^\p{L}+$/u.test(s)) v.set(s, post[s].length); });
      this._vocab = v;
    }
    return this._vocab;
  };
  P.correct = function (low) {
    if (low.length < 4 || !/^\p{L}+$/u.test(low) || this.known(low)) return null;
    var limit = low.length >= 8 ? 2 : 1, best = null;
    this.vocab().forEach(function (freq, cand) {
      if (cand.length < 4 || Math.abs(cand.length - low.length) > limit) return;
      var d = distance(low, cand, limit);
      if (d <= limit && (!best || d < best[0] || (d === best[0] && (freq > best[1] || (freq === best[1] && cand < best[2]))))) best = [d, freq, cand];
    });
    if (best) return best[2];
    for (var end = low.length - 1; end > 4; end--) if (this.vocab().has(low.slice(0, end))) return low.slice(0, end);
    return null;
  };
  P.cardMatcher = function () {
    if (!this._cardRe) {
      var keys = Object.keys(this.ix.cards).filter(function (k) { return k.length >= 3; });
      keys.sort(function (a, b) { return b.length - a.length; });
      var body = keys.map(function (k) { return reEsc(k).replace(/ /g, "\\s+"); }).join("|") || "(?!x)x";
      this._cardRe = new RegExp("(?<![\\p{L}\\p{N}_])(?:" + body + ")(?![\\p{L}\\p{N}_])", "giu");
    }
    return this._cardRe;
  };
  P.jargonMatcher = function () {
    if (!this._jargonRe) {
      var pairs = [];
      this.ix.jargon.forEach(function (j) { j.phrases.forEach(function (p) { pairs.push([p.toLowerCase(), j]); }); });
      pairs.sort(function (a, b) { return b[0].length - a[0].length; });
      this._jargonTable = new Map(pairs);
      var body = pairs.map(function (p) { return reEsc(p[0]).replace(/ /g, "\\s+"); }).join("|");
      this._jargonRe = new RegExp("(?<![\\p{L}\\p{N}_&-])(?:" + body + ")(?![\\p{L}\\p{N}_&-])", "giu");
    }
    return this._jargonRe;
  };
  P.findJargon = function (text) {
    var re = this.jargonMatcher(), out = [], m, table = this._jargonTable;
    re.lastIndex = 0;
    while ((m = re.exec(text))) {
      var e = table.get(m[0].toLowerCase().split(/\s+/).join(" "));
      if (e) out.push([m[0], e]);
    }
    return out;
  };
  P.read = function (typed) { /* rules_index/question.py read(): the framing out, the intent named */
    var text = typed;
    this.framing.forEach(function (f) { text = text.replace(f[0], f[1]); });
    text = text.split(/\s+/).filter(Boolean).join(" ");
    var intent = this.intents.find(function (i) { return i[1].test(typed); });
    return { text: text || typed, intent: intent ? intent[0] : null, asks: !!this.asks && this.asks.test(typed.trim()) };
  };
  P.analyze = function (query) {
    var text = cleanQuery(query), self = this;
    var phrases = [], qm, qre = /"([^"]+)"/g;
    while ((qm = qre.exec(text))) phrases.push(qm[1]);
    var typed = text.replace(/"/g, " ");
    var question = this.read(typed), plain = question.text;
    var cardRe = this.cardMatcher();
    var jargon = this.findJargon(plain.replace(cardRe, " | "));
    var known = new Set();
    jargon.forEach(function (j) { tokens(j[0]).forEach(function (w) { known.add(w.toLowerCase()); }); });
    (plain.match(cardRe) || []).forEach(function (c) { tokens(c).forEach(function (w) { known.add(w.toLowerCase()); }); });
    var corrected = {}, words = [];
    tokens(plain).forEach(function (raw) {
      var low = raw.toLowerCase();
      var fix = !self.stop.has(low) && !known.has(low) ? self.correct(low) : null;
      if (fix) corrected[low] = fix;
      words.push(fix || low);
    });
    var cards = [];
    [typed, words.join(" ")].forEach(function (src) {
      (src.match(cardRe) || []).forEach(function (c) {
        var e = self.ix.cards[c.toLowerCase().split(/\s+/).join(" ")];
        if (e && cards.indexOf(e) < 0 && cards.length < 5) cards.push(e);
      });
    });
    if (Object.keys(corrected).length) {
      var seen = jargon.map(function (j) { return j[1]; });
      self.findJargon(words.join(" ").replace(cardRe, " | ")).forEach(function (j) { if (seen.indexOf(j[1]) < 0) jargon.push(j); });
    }
    var rest = (Object.keys(corrected).length ? words.join(" ") : plain).replace(this.jargonMatcher(), " ");
    return {
      query: text, words: words, phrases: phrases, corrections: corrected, cards: cards,
      jargon: jargon.map(function (j) { return j[1]; }),
      jargonText: jargon.map(function (j) { return j[0]; }),
      intent: question.intent,
      asks: question.asks,
      onlyJargon: jargon.length > 0 && !cards.length && !this.stems(rest).length
    };
  };

  /* ---------- postings ---------- */
  function cached(map, table, stem) {
    var m = map.get(stem);
    if (m === undefined) { m = table[stem] ? decode(table[stem]) : null; map.set(stem, m); }
    return m;
  }
  P.post = function (stem) { return cached(this._post, this.ix.post, stem); };
  P.titlePost = function (stem) { return cached(this._title, this.ix.title, stem); };
  P.termsPost = function (stem) { return cached(this._terms, this.ix.terms, stem); };
  P.textStems = function (pos) {
    var s = this._stems.get(pos);
    if (!s) { s = this.stems(this.text(pos)); this._stems.set(pos, s); }
    return s;
  };

  /* ---------- search ---------- */
  P.hit = function (pos, score, terms, match) {
    var r = this.rule(pos), self = this;
    return {
      id: r.id, number: r.number, title: r.title, kind: r.kind,
      snippet: this.snippet(pos, terms),
      breadcrumb: this.ancestors(pos).map(function (a) { var x = self.rule(a); return { id: x.id, number: x.number, title: x.title }; }),
      score: score, match: match
    };
  };
  P.snippet = function (pos, terms) {
    var self = this;
    var sources = [this.text(pos)].concat(this.examples(pos).map(function (e) { return self.text(e); }));
    if (terms && terms.size) {
      for (var i = 0; i < sources.length; i++) {
        var spans = [], m, re = new RegExp(TOKEN.source, "giu");
        while ((m = re.exec(sources[i]))) {
          var st = self.stemOf(m[0]);
          if (st && terms.has(st)) spans.push([m.index, m.index + m[0].length]);
        }
        if (spans.length) return mark(sources[i], spans);
      }
    }
    return mark(sources.find(function (s) { return s; }) || this.rules[pos][3] || "", []);
  };
  function mark(text, spans) {
    var start = 0, end = text.length;
    if (text.length > SNIPPET_CHARS) {
      var first = spans.length ? spans[0][0] : 0;
      start = Math.max(0, first - 70);
      if (start) { var sp = text.indexOf(" ", start); start = sp >= 0 && sp < first ? sp + 1 : start; }
      end = Math.min(text.length, start + SNIPPET_CHARS);
      if (end < text.length) { var sp2 = text.lastIndexOf(" ", end - 1); end = sp2 > start ? sp2 : end; }
    }
    var out = start ? "… " : "", at = start;
    spans.forEach(function (s) {
      if (s[0] < at || s[1] > end) return;
      out += esc(text.slice(at, s[0])) + "<mark>" + esc(text.slice(s[0], s[1])) + "</mark>";
      at = s[1];
    });
    out += esc(text.slice(at, end));
    if (end < text.length) out += " …";
    return out;
  }

  P.search = function (query, limit) {
    limit = Math.max(1, Math.min(limit || 10, 100));
    var text = cleanQuery(query);
    if (!text) return [];
    var ref = parseQuery(text);
    if (ref) {
      var found = this.lookup(text);
      if (found.pos !== null) {
        var hits = [this.hit(found.pos, 1000, null, "exact")], self = this;
        var back = this.backlinks().get(this.rules[found.pos][0]) || [];
        for (var b = 0; b < back.length && hits.length < limit; b++) hits.push(self.hit(back[b], 0, null, "cites"));
        return hits;
      }
      if (ref.kind === "number") return [];
    }
    return this.fullText(text, limit);
  };

  P.fullText = function (text, limit) {
    var self = this, info = this.analyze(text);
    var stems = this.stems(info.words.join(" "));
    var weights = new Map(); /* stem -> weight of its all-fields clause */
    var extra = []; /* [Map doc -> scaled score, weight] */
    function add(stem, w) { if ((weights.get(stem) || 0) < w) weights.set(stem, w); }
    var rare = stems.filter(function (s) { return !self.common.has(s); });
    (rare.length ? rare : stems).forEach(function (s) { add(s, 1.0); });
    var titlePhrases = [], textPhrases = [], termPhrases = [];
    [[stems, 1.0]].concat(info.phrases.map(function (p) { return [self.stems(p), 2.0]; })).forEach(function (pw) {
      var ws = pw[0], w = pw[1];
      if ((ws.length >= 2 && ws.length <= self.params.max_phrase_words) || (w > 1 && ws.length >= 2)) {
        titlePhrases.push([ws, 3.0 * w]);
        textPhrases.push([ws, w]);
      }
    });
    if (stems.length > 2) { /* proximity: adjacent query words adjacent in the text (search.py BIGRAM_BONUS) */
      var seenPairs = new Set(), pairs = [];
      for (var i = 0; i + 1 < stems.length; i++) {
        var key = stems[i] + " " + stems[i + 1];
        if (!seenPairs.has(key)) { seenPairs.add(key); pairs.push([stems[i], stems[i + 1]]); }
      }
      var bigram = (this.params.bigram_bonus || 0) / pairs.length;
      pairs.forEach(function (p) { if (p[0] !== p[1]) textPhrases.push([p, bigram]); });
    }
    var highlight = new Set(stems);
    info.jargon.forEach(function (j) {
      var exp = j.expansion;
      exp.forEach(function (s) { highlight.add(s); });
      exp.forEach(function (s) { if (exp.length === 1 || !self.common.has(s)) add(s, exp.length === 1 ? 2.0 : 0.6); });
      if (exp.length >= 2) {
        titlePhrases.push([exp, 6.0]);
        textPhrases.push([exp, 2.0]);
        termPhrases.push([exp, 6.0]);
      } else {
        var tp = self.termsPost(exp[0]);
        if (tp) extra.push([tp, 6.0 - (weights.get(exp[0]) || 0)]);
      }
    });
    var cardStems = new Set(), askedCard = this.ix.asked_card_post || {};
    info.cards.forEach(function (c) {
      self.stems(c[0]).forEach(function (s) { highlight.add(s); cardStems.add(s); });
      extra.push([decode(c[1]), 6.0]);
    });
    /* the question bank's field does not count for a card name's words (search.py _plan) */
    cardStems.forEach(function (s) {
      if (weights.has(s) && Object.prototype.hasOwnProperty.call(askedCard, s)) extra.push([decode(askedCard[s]), -weights.get(s)]);
    });
    var scores = new Map();
    function accumulate(map, w) { if (map) map.forEach(function (s, d) { scores.set(d, (scores.get(d) || 0) + s * w); }); }
    weights.forEach(function (w, s) { accumulate(self.post(s), w); });
    extra.forEach(function (e) { accumulate(e[0], e[1]); });
    /* phrase clauses: a title (or defined term) holding the words in order scores them again */
    function phraseScore(phrases, postOf, seqOf, slop) {
      phrases.forEach(function (pw) {
        var ws = pw[0], first = postOf(ws[0]);
        if (!first) return;
        first.forEach(function (_, d) {
          if (!ws.every(function (s) { var p = postOf(s); return p && p.has(d); })) return;
          if (!seqOf(d).some(function (seq) { return slop ? containsSlop(seq, ws, slop) : contains(seq, ws); })) return;
          var sum = 0;
          ws.forEach(function (s) { sum += postOf(s).get(d); });
          scores.set(d, (scores.get(d) || 0) + sum * pw[1]);
        });
      });
    }
    phraseScore(titlePhrases, function (s) { return self.titlePost(s); }, function (d) { return [self.stems(self.rules[d][3])]; }, 1);
    phraseScore(termPhrases, function (s) { return self.termsPost(s); }, function (d) {
      return (self.pack.terms_of[d] || []).map(function (t) { return self.stems(t); });
    }, 0);
    var hits = [];
    if (info.onlyJargon) {
      info.jargon.forEach(function (j) {
        var pos = self.byId.get(j.rule);
        if (pos !== undefined && !hits.some(function (h) { return h.id === j.rule; })) hits.push(self.hit(pos, 500, highlight, "jargon"));
      });
    }
    if (!scores.size) return hits.slice(0, limit);
    var docOf = this.docOf;
    var ranked = Array.from(scores.entries());
    ranked.sort(function (a, b) { return b[1] - a[1] || docOf.get(a[0]) - docOf.get(b[0]); });
    ranked = ranked.slice(0, Math.max(limit, this.params.rerank));
    /* coordination groups (search.py _word_groups): a word a jargon phrase covers is matched
       by the CR's words for it too */
    var alternatives = new Map();
    info.jargon.forEach(function (j, i) {
      self.stems(info.jargonText[i]).forEach(function (s) {
        if (!alternatives.has(s)) alternatives.set(s, new Set());
        j.expansion.forEach(function (e) { alternatives.get(s).add(e); });
      });
    });
    var qstems = Array.from(new Set(this.stems(info.words.join(" ")))).map(function (s) {
      return [s].concat(Array.from(alternatives.get(s) || []));
    });
    var coord = qstems.length >= 2;
    var intentBonus = info.intent ? (this.params.intent_bonus || {})[info.intent] || 0 : 0;
    var answering = info.intent ? this.answering[info.intent] || new Set() : new Set();
    var scale = this.params.scale;
    var R = this.ix.ranker, raw = new Map();
    ranked.forEach(function (pair) { raw.set(pair[0], pair[1] / scale); });
    var out = ranked.map(function (pair) {
      var d = pair[0], score = pair[1] / scale;
      score *= self.params.priors[self.kinds[self.rules[d][2]]] || 1.0;
      if (coord) {
        var have = 0;
        qstems.forEach(function (group) {
          if (group.some(function (s) { var p = self.post(s); return p && p.has(d); })) have++;
        });
        score *= have / qstems.length;
      }
      if (textPhrases.length) {
        var seq = self.textStems(d), bonus = 0;
        textPhrases.forEach(function (pw) { if (contains(seq, pw[0])) bonus += pw[1]; });
        score *= 1 + self.params.phrase_bonus * bonus;
      }
      if (intentBonus && answering.has(d)) score *= 1 + intentBonus;
      return [d, score];
    });
    out.sort(function (a, b) { return b[1] - a[1]; });
    out = this.explainSteps(out);
    if (R && out.length > 1 && this.applies(qstems, info)) {
      var distinct = Array.from(new Set(this.stems(info.words.join(" ")))), qpairs = [];
      for (var pi = 0; pi + 1 < distinct.length; pi++) if (distinct[pi] !== distinct[pi + 1]) qpairs.push([distinct[pi], distinct[pi + 1]]);
      out = this.learned(out, raw, qstems, qpairs, info.intent ? answering : new Set(), text);
    }
    out.forEach(function (pair) {
      var id = self.rules[pair[0]][0];
      if (hits.some(function (h) { return h.id === id; })) return;
      hits.push(self.hit(pair[0], Math.round(pair[1] * 1e4) / 1e4, highlight, "text"));
    });
    return hits.slice(0, limit);
  };

  P.applies = function (qstems, info) { /* ranker.applies: a question, or several groups and not a term */
    if (info.cards.length || info.onlyJargon || !qstems.length) return false;
    if (info.asks) return true;
    return qstems.length >= this.ix.ranker.min_groups && !this.termKeys().has(this.stems(info.words.join(" ")).join(" "));
  };

  P.explainSteps = function (out) { /* search.py _explain_steps */
    var top = this.params.step_top || 0, share = this.params.step_share || 0, self = this;
    var scores = new Map(out), changed = false;
    out.slice(0, top).forEach(function (pair) {
      (self.explain[pair[0]] || []).forEach(function (r) {
        var own = scores.get(r);
        if (own !== undefined && share * pair[1] <= own && own < pair[1]) { scores.set(r, pair[1] * 1.0001); changed = true; }
      });
    });
    if (!changed) return out;
    var sorted = Array.from(scores.entries());
    sorted.sort(function (a, b) { return b[1] - a[1]; });
    return sorted;
  };

  /* ---------- learned stage (rules_index/ranker.py; weights from bench/train_ranker.py) ---------- */
  var RANK_STEP = { step: 1, timing_step: 1, timing_phase: 1 };
  var RANK_HEADER = { chapter: 1, section: 1, subsection: 1 };
  function numberDepth(number) { /* ranker.number_depth */
    if (!number) return 0;
    var parts = number.split("."), depth = parts.length, last = parts[parts.length - 1];
    if (/[a-z]$/i.test(last) && !/^[a-z]+$/i.test(last)) depth += 1;
    else if (parts.length >= 3 && /[a-z]$/i.test(parts[2])) depth += 1;
    return depth;
  }
  function idWords(id) { return id.split("_").slice(1).filter(Boolean).join(" "); }
  function meets(group, set) { for (var i = 0; i < group.length; i++) if (set.has(group[i])) return true; return false; }
  function ratio(value, best, floor) { return value <= 0 || best <= 0 ? floor : Math.max(floor, Math.log(value / best)); }
  function span(seq, groups, found) { /* ranker._span */
    var need = found.length, where = [], best = seq.length + 1, count = new Map(), have = 0, left = 0;
    seq.forEach(function (w, i) { found.forEach(function (k) { if (groups[k].indexOf(w) >= 0) where.push([i, k]); }); });
    for (var right = 0; right < where.length; right++) {
      var k = where[right][1];
      count.set(k, (count.get(k) || 0) + 1);
      if (count.get(k) === 1) have++;
      while (have === need) {
        best = Math.min(best, where[right][0] - where[left][0] + 1);
        var kl = where[left][1];
        count.set(kl, count.get(kl) - 1);
        if (count.get(kl) === 0) have--;
        left++;
      }
    }
    return best <= seq.length ? need / best : 0;
  }
  function rankerFeatures(groups, pairs, cands, idfs, R) { /* ranker.features, in LITE_FEATURES order (no word vectors) */
    var best = -Infinity, bestRaw = -Infinity;
    cands.forEach(function (c) { if (c[1] > best) best = c[1]; if (c[2] > bestRaw) bestRaw = c[2]; });
    var top = cands.slice(0, R.top), topIds = new Set(), topParents = new Set();
    top.forEach(function (c) { topIds.add(c[0].id); topParents.add(c[0].parent); });
    var n = Math.max(1, groups.length), mass = 0;
    idfs.forEach(function (x) { mass += x; });
    mass = mass || 1;
    return cands.map(function (c, position) {
      var info = c[0], f = info.fields, seq = info.seq;
      var perField = f.map(function (set) { var m = 0; groups.forEach(function (g) { if (meets(g, set)) m++; }); return m / n; });
      var anywhere = 0, wAny = 0, wText = 0, wTitle = 0, wId = 0, wAsked = 0, found = [];
      groups.forEach(function (g, k) {
        var any = f.some(function (set) { return meets(g, set); });
        if (any) { anywhere++; wAny += idfs[k]; }
        if (meets(g, f[0])) { wText += idfs[k]; found.push(k); }
        if (meets(g, f[1])) wTitle += idfs[k];
        if (meets(g, f[5])) wId += idfs[k];
        if (meets(g, f[6])) wAsked += idfs[k];
      });
      var qBest = 0, qJac = 0; /* ranker._nearest_question */
      info.asked.forEach(function (q) {
        var ks = [], w = 0;
        groups.forEach(function (g, k) { if (meets(g, q)) { ks.push(k); w += idfs[k]; } });
        if (!ks.length) return;
        qBest = Math.max(qBest, w / mass);
        qJac = Math.max(qJac, ks.length / (n + q.size - ks.length));
      });
      var first = -1;
      for (var i = 0; i < seq.length && first < 0; i++) if (groups.some(function (g) { return g.indexOf(seq[i]) >= 0; })) first = i;
      var pairShare = 0;
      if (pairs.length) {
        var adjacent = new Set();
        for (var j = 0; j + 1 < seq.length; j++) adjacent.add(seq[j] + " " + seq[j + 1]);
        pairs.forEach(function (p) { if (adjacent.has(p[0] + " " + p[1])) pairShare++; });
        pairShare /= pairs.length;
      }
      var citedBy = 0, citesTop = false;
      top.forEach(function (t) { if (t[0].id !== info.id && t[0].cites.has(info.id)) citedBy++; });
      info.cites.forEach(function (t) { if (t !== info.id && topIds.has(t)) citesTop = true; });
      return [
        ratio(c[1], best, R.floor), ratio(c[2], bestRaw, R.floor), 1 / (1 + position), anywhere / n
      ].concat(perField).concat([
        wText / mass, wTitle / mass, wId / mass, wAny / mass,
        perField[0] >= 1 ? 1 : 0, pairShare,
        found.length >= 2 ? span(seq, groups, found) : 0,
        first >= 0 ? 1 - first / seq.length : 0,
        c[3] ? 1 : 0, info.naming ? 1 : 0,
        RANK_STEP[info.kind] ? 1 : 0, RANK_HEADER[info.kind] ? 1 : 0, info.kind === "subrule" ? 1 : 0,
        info.depth / 4, Math.log(1 + seq.length),
        Math.min(3, citedBy) / 3, citesTop ? 1 : 0,
        topParents.has(info.id) ? 1 : 0, topIds.has(info.parent) ? 1 : 0,
        Math.log(1 + info.indegree),
        wAsked / mass, qBest, qJac
      ]);
    });
  }
  P.rankerInfo = function (pos) { /* what the features read about a rule (Searcher._info) */
    var info = this._rinfo.get(pos);
    if (info) return info;
    var self = this, r = this.rules[pos], seq = this.textStems(pos);
    var section = this.ancestors(pos).map(function (a) { return self.rules[a][3]; }).filter(Boolean).join(" ");
    var examples = this.examples(pos).map(function (e) { return self.text(e); }).join("\n");
    var coded = this.ix.asked || { vocab: [], of: {}, width: 1 }, vocab = coded.vocab, width = coded.width; /* offline._asked */
    var asked = (coded.of[pos] ? coded.of[pos].split("|") : []).map(function (q) {
      var set = new Set();
      for (var i = 0; i < q.length; i += width) {
        var n = 0;
        for (var j = i; j < i + width; j++) n = n * 62 + DIGITS62.indexOf(q.charAt(j));
        set.add(vocab[n]);
      }
      return set;
    });
    var askedAll = new Set();
    asked.forEach(function (q) { q.forEach(function (x) { askedAll.add(x); }); });
    info = {
      id: r[0], kind: this.kinds[r[2]], parent: r[4] >= 0 ? this.rules[r[4]][0] : null,
      depth: numberDepth(r[1]), seq: seq,
      fields: [
        new Set(seq), new Set(this.stems(r[3] || "")), new Set(this.stems((this.pack.terms_of[pos] || []).join("\n"))),
        new Set(this.stems(section)), new Set(this.stems(examples)), new Set(this.stems(idWords(r[0]))), askedAll
      ],
      asked: asked,
      cites: new Set(this.cites(pos).map(function (t) { return self.rules[t][0]; })),
      indegree: (this.backlinks().get(r[0]) || []).length,
      naming: this.naming.has(pos)
    };
    this._rinfo.set(pos, info);
    return info;
  };
  P.termKeys = function () { /* Searcher._names_term: the stems of every term a rule defines */
    if (!this._termKeys) {
      var self = this, keys = new Set();
      Object.keys(this.pack.terms_of).forEach(function (d) {
        self.pack.terms_of[d].forEach(function (t) { keys.add(self.stems(t).join(" ")); });
      });
      this._termKeys = keys;
    }
    return this._termKeys;
  };
  function bytes(b64) { var bin = atob(b64), a = new Uint8Array(bin.length); for (var i = 0; i < bin.length; i++) a[i] = bin.charCodeAt(i); return a; }
  function int8(b64) { return new Int8Array(bytes(b64).buffer); }
  P.queryVector = function (text) { /* vectors.Table.embed by the pack's small table (offline._pack_vectors); null without one */
    var V = this.ix.ranker && this.ix.ranker.vectors, self = this;
    if (!V) return null;
    if (this._vectors === undefined) {
      /* a damaged block (bad base64, sizes that do not match) turns the vectors off: questions
         are then ordered without them (the lite features' sum and the translation's); it never breaks the search */
      try {
        var row = new Map(), stems = V.stems.split("|"), codes = int8(V.codes), rules = int8(V.rules);
        stems.forEach(function (s, i) { row.set(s, i); });
        var ok = V.dim > 0 && codes.length === stems.length * V.dim && rules.length === this.ix.docs.length * V.dim &&
          V.scale.length === V.dim && V.rule_scale.length === V.dim;
        this._vectors = ok ? { row: row, codes: codes, rules: rules } : null;
      } catch (e) {
        this._vectors = null;
      }
    }
    if (!this._vectors) return null;
    var T = this._vectors, dim = V.dim, v = new Float64Array(dim), any = false;
    tokens(text).forEach(function (t) { /* search.VECTOR_ANALYZER: the stems, stop words kept */
      var low = t.toLowerCase();
      var stem = self.stop.has(low) ? (Object.prototype.hasOwnProperty.call(V.stop, low) ? V.stop[low] : low) : self.stemOf(low);
      var r = T.row.get(stem);
      if (r === undefined) return;
      any = true;
      for (var j = 0; j < dim; j++) v[j] += T.codes[r * dim + j] * V.scale[j];
    });
    var norm = 0;
    for (var j = 0; j < dim; j++) norm += v[j] * v[j];
    if (!any || norm <= 0) return null;
    norm = Math.sqrt(norm);
    for (var k = 0; k < dim; k++) v[k] /= norm;
    return v;
  };
  P.vectorScore = function (q, pos) { /* the rule's pack vector (model weights folded in) . the query's */
    var V = this.ix.ranker.vectors, d = this.docOf.get(pos), s = 0;
    if (d === undefined) return 0;
    for (var j = 0; j < V.dim; j++) s += q[j] * this._vectors.rules[d * V.dim + j] * V.rule_scale[j];
    return s;
  };
  P.translationTable = function () { /* translation.Table.for_pack as offline._pack_translation codes it; null without one */
    if (this._translation !== undefined) return this._translation;
    var T = this.ix.ranker && this.ix.ranker.translation;
    this._translation = null;
    if (!T) return null;
    /* a damaged block (bad base64, sizes that do not match) turns the table off: its features
       then add nothing, as on a server without the table; it never breaks the search */
    try {
      var asked = T.asked.split("|"), said = T.said.split("|"), counts = T.counts, sizes = T.sizes;
      var raw = bytes(T.cols), codes = bytes(T.codes), n = codes.length;
      var total = 0, start = new Int32Array(sizes.length + 1);
      sizes.forEach(function (k, i) { total += k; start[i + 1] = total; });
      var ok = asked.length === counts.length && asked.length === sizes.length && raw.length === 2 * n && total === n &&
        T.weights.length === 3 && T.floor > 0 && T.floor < 1 && isFinite(T.mix) && isFinite(T.none) &&
        T.weights.every(isFinite) && counts.every(function (c) { return c >= 0 && isFinite(c); });
      if (!ok) return null;
      var cols = new Uint16Array(n), probs = new Float64Array(n), logFloor = Math.log(T.floor), sum = 0;
      for (var i = 0; i < n; i++) {
        cols[i] = raw[2 * i] | (raw[2 * i + 1] << 8);
        if (cols[i] >= said.length) return null;
        probs[i] = Math.fround(Math.exp(logFloor * (1 - codes[i] / 255))); /* translation._decode */
      }
      counts.forEach(function (c) { sum += c; });
      var row = new Map(), col = new Map(), bg = new Float64Array(asked.length);
      asked.forEach(function (w, k) { row.set(w, k); bg[k] = (counts[k] + 0.5) / (sum + 0.5 * asked.length); }); /* _background */
      said.forEach(function (w, k) { col.set(w, k); });
      this._translation = { T: T, row: row, col: col, start: start, cols: cols, probs: probs, bg: bg, said: said.length, bags: new Map() };
    } catch (e) {
      this._translation = null;
    }
    return this._translation;
  };
  function bag(X, words) { /* translation.Table.bag: the known words' columns, each one's share of all the words */
    var count = new Map();
    words.forEach(function (w) { var c = X.col.get(w); if (c !== undefined) count.set(c, (count.get(c) || 0) + 1); });
    if (!count.size) return null;
    var out = [];
    count.forEach(function (k, c) { out.push([c, k / words.length]); });
    return out;
  }
  P.translationBags = function (X, pos) { /* search.translation_words: title and text; titles of it and the sections above (outermost first, as there) */
    var got = X.bags.get(pos);
    if (got) return got;
    var self = this, r = this.rules[pos];
    var text = this.stems(r[3] ? r[3] + ". " + this.text(pos) : this.text(pos));
    var titles = this.stems([pos].concat(this.ancestors(pos)).map(function (a) { return self.rules[a][3]; }).filter(Boolean).join(" "));
    got = [bag(X, text), bag(X, titles), bag(X, text.concat(titles))];
    X.bags.set(pos, got);
    return got;
  };
  P.translationScores = function (text, positions) { /* translation.Table.scores for the rules' three bags: [t_text, t_titles, t_all] each */
    var X = this.translationTable(), self = this;
    if (!X) return null;
    var T = X.T, rows = [];
    this.stems(text).forEach(function (s) { var r = X.row.get(s); if (r !== undefined) rows.push(r); });
    var dense = rows.map(function (r) {
      var d = new Float64Array(X.said);
      for (var i = X.start[r]; i < X.start[r + 1]; i++) d[X.cols[i]] = X.probs[i];
      return d;
    });
    return positions.map(function (pos) {
      return self.translationBags(X, pos).map(function (b) {
        if (!rows.length || !b) return T.none;
        var total = 0;
        dense.forEach(function (d, k) {
          var p = 0;
          b.forEach(function (cs) { p += d[cs[0]] * cs[1]; });
          total += Math.log(T.mix * p + (1 - T.mix) * X.bg[rows[k]]) - Math.log(X.bg[rows[k]]);
        });
        return total / rows.length;
      });
    });
  };
  P.learned = function (out, raw, qstems, pairs, answering, text) { /* Searcher._learned (_pack_scores) */
    var R = this.ix.ranker, self = this, head = out.slice(0, R.depth), rest = out.slice(R.depth);
    var q = this.queryVector(text || "");
    var near = q ? this.vectorPool(q, new Set(head.map(function (pair) { return pair[0]; }))) : [];
    if (near.length) {
      var added = new Set(near);
      head = head.concat(near.map(function (pos) { return [pos, 0]; }));
      rest = rest.filter(function (pair) { return !added.has(pair[0]); });
    }
    var n = Math.max(1, this.ix.docs.length);
    var idfs = qstems.map(function (g) {
      return Math.max.apply(null, g.map(function (s) { var p = self.post(s); return Math.log(n / (1 + (p ? p.size : 0))); }));
    });
    var cands = head.map(function (pair) { return [self.rankerInfo(pair[0]), pair[1], raw.get(pair[0]) || 0, answering.has(pair[0])]; });
    var vecs = rankerFeatures(qstems, pairs, cands, idfs, R);
    var t = this.translationScores(text || "", head.map(function (pair) { return pair[0]; }));
    var scores = vecs.map(function (v, k) {
      var s = 0, u = 0;
      for (var j = 0; j < v.length; j++) s += R.weights[j] * v[j];
      if (q) s += self.vectorScore(q, head[k][0]);
      if (t) { for (var i = 0; i < 3; i++) u += R.translation.weights[i] * t[k][i]; s += u; }
      return s;
    });
    var order = head.map(function (_, k) { return k; });
    order.sort(function (a, b) { return scores[b] - scores[a] || a - b; });
    var values = head.map(function (p) { return p[1]; }).sort(function (a, b) { return b - a; });
    return order.map(function (k, i) { return [head[k][0], values[i]]; }).concat(rest);
  };
  P.vectorPool = function (q, have) { /* Searcher._vector_pool: the rules nearest by pack vector, not in the pool */
    var K = this.ix.ranker.vector_pool || 0, docs = this.ix.docs, best = [];
    for (var d = 0; K > 0 && d < docs.length; d++) {
      if (have.has(docs[d])) continue;
      var s = this.vectorScore(q, docs[d]);
      best.push([s, d]);
    }
    best.sort(function (a, b) { return b[0] - a[0] || a[1] - b[1]; });
    return best.slice(0, K).map(function (x) { return docs[x[1]]; });
  };

  Index.focus = focus;
  root.NROfflineIndex = Index;
})(typeof self !== "undefined" ? self : this);
