/* nrrules service worker (served as /sw.js, scope "/"). Hand-written, no dependencies.

   What it keeps: nothing until the user asks. "Save CR 26.03 for offline" (offline.js) fills a
   cache named nrrules-data-<version>-<time> with the version's offline pack (rules + search
   index), its reading pack (cards and their rulings), the pages saved as the server renders
   them (the judges' documents, the version's changes page), the offline shell page
   (/offline.html) and the assets, then records it in the nrrules-meta cache and deletes any
   other saved version, so one version is kept at a time.

   What it answers:
   - a page navigation the saved copy can answer (RULE_PATHS: rules, /all, search, the home
     page; CARD_PATHS when it holds cards; the pages it keeps), when a copy is saved: the
     network first, but after SAVED_WAIT ms without an answer the saved copy (a saved page as
     it was saved, else the shell, which renders rules, /all, search results and card pages
     from the packs); while the network is slow (an answer took longer than SAVED_WAIT in the
     last SLOW_FOR ms) the saved copy at once. The network's answer is still awaited in the
     background: it says whether the network is still slow, and refreshes a saved page;
   - any other navigation, and one the reader asked to wait for: the network; without a
     connection the shell, which says the page is not in the saved copy;
   - /static/ and /offline/ files: from the saved copy when present (they are immutable by URL),
     else from the saved stepper, else the network;
   - a stepper link (/step?s=...): the network; without a connection the stepper page saved by
     "Save the stepper for offline" (stepper-offline.js, cache nrrules-stepper-<version>), which
     steps the link's session in the browser with the same engine (Pyodide);
   - anything else: the network, as if there were no worker. */
"use strict";
var META_CACHE = "nrrules-meta";
var META_URL = "/offline/saved.json";
var SAVED_WAIT = 1000;
var SLOW_FOR = 60000;
var RULE_PATHS = /^\/(?:$|id\/|r\/|all\/?$|search\/?$|v\/)/;
var CARD_PATHS = /^\/c(?:\/|$)/;
var slowUntil = 0;
var waitFor = null; /* a page whose next load waits for the network ("Wait for the server's page") */

self.addEventListener("message", function (event) {
  if (event.data && typeof event.data.wait === "string") {
    waitFor = event.data.wait;
    if (event.ports && event.ports[0]) event.ports[0].postMessage("ok");
  }
});

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

function saved() {
  return caches.open(META_CACHE).then(function (c) { return c.match(META_URL); }).then(function (r) {
    return r ? r.json() : null;
  }).catch(function () { return null; });
}

function savedCache() {
  return saved().then(function (meta) { return meta ? caches.open(meta.cache) : null; });
}

function offlinePage() {
  var body = "<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content=\"width=device-width, initial-scale=1\">" +
    "<title>Offline — nrrules</title><h1>You are offline</h1><p>No CR version is saved on this device. " +
    "When you are online again, open the home page and use “Save for offline” at its top.</p></html>";
  return new Response(body, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

/* The saved answer for a navigation: the page itself when it was saved as the server rendered
   it, else the shell; marked with why it answers (data-saved-why on <body>: "offline" or
   "slow"), which offline.js shows. */
function fromSaved(request, why) {
  return savedCache().then(function (cache) {
    if (!cache) return null;
    return cache.match(request, { ignoreVary: true }).then(function (page) {
      return page || cache.match("/offline.html", { ignoreVary: true });
    });
  }).then(function (res) {
    if (!res) return offlinePage();
    return res.text().then(function (text) {
      var marked = text.replace("<body ", "<body data-saved-why=\"" + why + "\" ");
      /* the saved response's own headers (its Content-Security-Policy...), less those of its old body */
      var headers = new Headers(res.headers);
      headers.delete("Content-Length");
      headers.delete("Content-Encoding");
      headers.delete("ETag");
      return new Response(marked, { status: 200, headers: headers });
    });
  });
}

/* A saved page's fresh copy from the network replaces the saved one (the rest of the saved copy
   is refreshed by saving again, which offline.js offers when the server's version changed). */
function refresh(request, res) {
  if (!res || !res.ok || res.redirected) return Promise.resolve();
  return savedCache().then(function (cache) {
    if (!cache) return;
    return cache.match(request, { ignoreVary: true }).then(function (old) {
      if (old) return cache.put(new URL(request.url).pathname, res.clone());
    });
  }).catch(function () {});
}

function navigate(event) {
  var request = event.request;
  var path = new URL(request.url).pathname;
  return saved().then(function (meta) {
    var wait = waitFor === request.url;
    if (wait) waitFor = null;
    if (!meta || wait) {
      return fetch(request).catch(function () { return meta ? fromSaved(request, "offline") : offlinePage(); });
    }
    return caches.open(meta.cache).then(function (cache) {
      return cache.match(request, { ignoreVary: true });
    }).then(function (page) {
      var answers = !!page || RULE_PATHS.test(path) || (meta.cards > 0 && CARD_PATHS.test(path));
      if (!answers) return fetch(request).catch(function () { return fromSaved(request, "offline"); });
      return savedOrNetwork(event, request);
    });
  });
}

/* The network's answer if it comes within SAVED_WAIT ms (and the network is not known to be
   slow), else the saved copy's; the network's answer is awaited in the background either way. */
function savedOrNetwork(event, request) {
  var t0 = Date.now();
  var network = fetch(request).then(function (res) {
    slowUntil = Date.now() - t0 > SAVED_WAIT ? Date.now() + SLOW_FOR : 0;
    return res;
  });
  event.waitUntil(network.then(function (res) { return refresh(request, res); }, function () {}));
  if (Date.now() < slowUntil) return fromSaved(request, "slow");
  return new Promise(function (resolve) {
    var done = false;
    var timer = setTimeout(function () {
      if (done) return;
      done = true;
      slowUntil = Date.now() + SLOW_FOR;
      resolve(fromSaved(request, "slow"));
    }, SAVED_WAIT);
    network.then(function (res) {
      if (done) return;
      done = true; clearTimeout(timer);
      resolve(res.clone());
    }, function () {
      if (done) return;
      done = true; clearTimeout(timer);
      resolve(fromSaved(request, "offline"));
    });
  });
}

function savedFirst(request) {
  return savedCache().then(function (cache) {
    return cache ? cache.match(request, { ignoreVary: true }) : null;
  }).then(function (hit) {
    /* else the saved stepper's files (nrrules-stepper-<version>: Pyodide, the engine, a CR document) */
    return hit || caches.match(request, { ignoreVary: true });
  }).then(function (hit) { return hit || fetch(request); });
}

/* A stepper link with no network: the saved stepper page (stepper-offline.js then steps the
   session in the address bar in this browser), else what any other page gets. */
function stepperPage(event) {
  return fetch(event.request).catch(function () {
    return caches.keys().then(function (names) {
      var name = names.filter(function (n) { return n.indexOf("nrrules-stepper-") === 0; })[0];
      return name ? caches.open(name).then(function (c) { return c.match("/step", { ignoreVary: true }); }) : null;
    }).then(function (page) {
      if (!page) return saved().then(function (meta) { return meta ? fromSaved(event.request, "offline") : offlinePage(); });
      return page.text().then(function (text) {
        var headers = new Headers(page.headers);
        headers.delete("Content-Length");
        headers.delete("Content-Encoding");
        headers.delete("ETag");
        return new Response(text.replace("<body ", "<body data-saved-why=\"offline\" "), { status: 200, headers: headers });
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && url.pathname === "/step") {
    event.respondWith(stepperPage(event));
  } else if (request.mode === "navigate") {
    event.respondWith(navigate(event));
  } else if (url.pathname.indexOf("/static/") === 0 || url.pathname.indexOf("/offline/") === 0) {
    event.respondWith(savedFirst(request));
  }
});
