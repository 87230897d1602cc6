// The worker of verify.html (docs/web.md): the kit's verifier off the
// page's thread, so that a long replay does not freeze the page. It
// answers each message {id, replay, lines} with {id, verdicts} (one
// verdict for a replay, a verdict a line for JSON Lines), or {id, error}
// for a call that threw, and says {ready, loadMs} once the verifier is
// loaded, or {error} if it cannot be (the module not built, or not
// served where the kit looks for it), so that the page can say why
// instead of waiting for ever.

import { loadVerifier } from './kit/verify.js';

const t = performance.now();
let verifier;
try {
  verifier = await loadVerifier(); // fetches ../dist/verifier.wasm beside the kit
  postMessage({ ready: true, loadMs: performance.now() - t });
} catch (e) {
  postMessage({ error: `cannot load the verifier: ${e.message}` });
}

onmessage = ({ data: { id, replay, lines } }) => {
  const t0 = performance.now();
  try {
    const verdicts = lines ? verifier.verifyLines(replay) : [verifier.verify(replay)];
    postMessage({ id, verdicts, ms: performance.now() - t0 });
  } catch (e) {
    postMessage({ id, error: e.message });
  }
};
