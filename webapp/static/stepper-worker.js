/* The stepper offline (issue 35): a module Web Worker running the server's own engine in
   Pyodide (vendored by `make offline-engine`: webapp/offline_engine.py). stepper-offline.js
   starts it and talks to it with messages:

     {type: "boot", index, engine, document}  ->  {type: "ready", ms: {pyodide, engine}}
     {type: "step", id, request}               ->  {type: "answer", id, answer}

   `index` is the folder of Pyodide's files, `engine` the engine zip, `document` the CR
   document of the session's version (/offline/<v>/document.json). `request` is what
   webapp.offline_step.answer takes ({token} or {payload, decision?}); its answer is
   {ok, state} or {ok: false, error}. Any failure comes back as {type: "failed", error}. */
let ready = null;
let answer = null;

async function boot(cfg) {
  const t0 = performance.now();
  const { loadPyodide } = await import(cfg.index + "pyodide.mjs");
  const [py, zip, doc] = await Promise.all([
    loadPyodide({ indexURL: cfg.index, stdout: () => {}, stderr: () => {} }),
    fetch(cfg.engine).then((r) => { if (!r.ok) throw new Error("engine zip: HTTP " + r.status); return r.arrayBuffer(); }),
    fetch(cfg.document).then((r) => { if (!r.ok) throw new Error("CR document: HTTP " + r.status); return r.text(); }),
  ]);
  const t1 = performance.now();
  py.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/nrrules" });
  py.globals.set("NR_DOCUMENT", doc);
  py.runPython(
    "import sys\n" +
    "sys.path.insert(0, '/home/pyodide/nrrules')\n" +
    "from webapp.offline_step import Stepper, answer as _answer\n" +
    "NR_STEPPER = Stepper(NR_DOCUMENT)\n" +
    "del NR_DOCUMENT\n" +
    "def nr_answer(request_json):\n" +
    "    return _answer(NR_STEPPER, request_json)\n"
  );
  answer = py.globals.get("nr_answer");
  return { pyodide: t1 - t0, engine: performance.now() - t1 };
}

self.onmessage = (event) => {
  const msg = event.data || {};
  if (msg.type === "boot") {
    if (!ready) ready = boot(msg);
    ready.then(
      (ms) => self.postMessage({ type: "ready", ms }),
      (err) => { ready = null; self.postMessage({ type: "failed", error: String(err && err.message || err) }); }
    );
  } else if (msg.type === "step") {
    if (!ready) { self.postMessage({ type: "answer", id: msg.id, answer: { ok: false, error: "the offline stepper has not started" } }); return; }
    ready.then(() => {
      self.postMessage({ type: "answer", id: msg.id, answer: JSON.parse(answer(JSON.stringify(msg.request))) });
    }).catch((err) => {
      self.postMessage({ type: "answer", id: msg.id, answer: { ok: false, error: String(err && err.message || err) } });
    });
  }
};
