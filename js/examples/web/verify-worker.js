// The worker of verify.html (docs/web.md): the kit's verifier off the
// page's thread, so that a long replay does not freeze the page. It
// answers each message {id, replay, lines} with {id, verdicts} (one
// verdict for a replay, a verdict a line for JSON Lines), and says
// {ready, loadMs} once the verifier is loaded.

import { loadVerifier } from './kit/verify.js';

const t = performance.now();
const verifier = await loadVerifier(); // fetches ../dist/verifier.wasm beside the kit
postMessage({ ready: true, loadMs: performance.now() - t });

onmessage = ({ data: { id, replay, lines } }) => {
  const t0 = performance.now();
  const verdicts = lines ? verifier.verifyLines(replay) : [verifier.verify(replay)];
  postMessage({ id, verdicts, ms: performance.now() - t0 });
};
