/* nrrules service worker (served as /sw.js, scope "/"). Hand-written, no dependencies.

   What it keeps: nothing until the user asks. "Save CR 26.03 for offline" (offline.js) fills a
   cache named nrrules-data-<version>-<time> with the version's offline pack (rules + search
   index), the offline shell page (/offline.html) and the assets, then records it in the
   nrrules-meta cache and deletes any other saved version, so one version is kept at a time.

   What it answers:
   - page navigations: the network first (the server's pages are always the best answer);
     without a connection, or after NAV_TIMEOUT ms of waiting, the saved shell page, which
     renders the rule, /all or search results from the pack;
   - /static/ and /offline/ files: from the saved copy when present (they are immutable by URL),
     else the network;
   - anything else: the network, as if there were no worker. */
"use strict";
var META_CACHE = "nrrules-meta";
var META_URL = "/offline/saved.json";
var NAV_TIMEOUT = 6000;

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
    "When you are online again, open any page and use “Save for offline” at the bottom.</p></html>";
  return new Response(body, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function withTimeout(promise, ms) {
  return new Promise(function (resolve, reject) {
    var t = setTimeout(function () { reject(new Error("timeout")); }, ms);
    promise.then(function (v) { clearTimeout(t); resolve(v); }, function (e) { clearTimeout(t); reject(e); });
  });
}

function navigate(request) {
  return withTimeout(fetch(request), NAV_TIMEOUT).catch(function () {
    return savedCache().then(function (cache) {
      return cache ? cache.match("/offline.html") : null;
    }).then(function (shell) { return shell || offlinePage(); });
  });
}

function savedFirst(request) {
  return savedCache().then(function (cache) {
    return cache ? cache.match(request) : null;
  }).then(function (hit) { return hit || fetch(request); });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(request));
  } else if (url.pathname.indexOf("/static/") === 0 || url.pathname.indexOf("/offline/") === 0) {
    event.respondWith(savedFirst(request));
  }
});
