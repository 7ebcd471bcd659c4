// Runs the browser tests against NEARCARE_URL (default http://127.0.0.1:8080).
import { BASE_URL, run } from './harness.mjs';
import './marketplace.e2e.mjs';
import './profiles.e2e.mjs';
import './accounts.e2e.mjs';
import './enrolment.e2e.mjs';
import './journeys-b.e2e.mjs';
import './journeys-a.e2e.mjs';
import './security.e2e.mjs';
import './sessions.e2e.mjs';
import './provider.e2e.mjs';
import './phone-keyboard.e2e.mjs';
import './promises.e2e.mjs';
import './listings.e2e.mjs';
import './clinic-panel.e2e.mjs';
import './walk.e2e.mjs';

const health = await fetch(`${BASE_URL}/health`).catch((error) => error);
if (health instanceof Error || !health.ok) {
  console.log(`the server at ${BASE_URL} is not answering /health; start it first (cargo run -p api --bin nearcare-server)`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const ok = await run();
process.exit(ok ? 0 : 1);
