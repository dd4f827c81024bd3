// The console's HTTP client: every read and write goes through the server's Kubernetes REST paths.
// A 401 asks the user for a bearer token (kept for this tab only) and retries; other errors are
// Kubernetes Status objects, thrown as ApiError with the server's message.

const TOKEN_KEY = 'kuberay-sim.token';
let tokenPrompt = null;

export class ApiError extends Error {
  constructor(status, httpCode) {
    super(status.message || `HTTP ${httpCode}`);
    this.status = status;
    this.code = status.code || httpCode;
    this.reason = status.reason || '';
  }
}

export function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

function headers(extra) {
  const h = { Accept: 'application/json', ...extra };
  const t = token();
  if (t) h.Authorization = `Bearer ${t}`;
  return h;
}

/** Shows the token dialog once for all requests waiting on a 401; resolves when the user submits. */
function askForToken(message) {
  if (!tokenPrompt) {
    tokenPrompt = new Promise((resolve) => {
      const dialog = document.getElementById('token-dialog');
      const input = dialog.querySelector('input');
      dialog.querySelector('.token-message').textContent = message;
      input.value = '';
      dialog.addEventListener('close', () => {
        sessionStorage.setItem(TOKEN_KEY, input.value.trim());
        tokenPrompt = null;
        resolve();
      }, { once: true });
      dialog.showModal();
    });
  }
  return tokenPrompt;
}

async function statusOf(res) {
  const text = await res.text();
  try {
    const body = JSON.parse(text);
    if (body && body.kind === 'Status') return body;
  } catch (e) {
    // not JSON: fall through to a Status made from the text
  }
  return { kind: 'Status', status: 'Failure', code: res.status, message: text || res.statusText };
}

/** fetch with the token; a 401 asks for a token and tries again. Throws ApiError for other failures. */
export async function send(path, { method = 'GET', body, contentType, signal } = {}) {
  for (;;) {
    const extra = contentType ? { 'Content-Type': contentType } : {};
    const res = await fetch(path, { method, body, headers: headers(extra), signal });
    if (res.status === 401) {
      const st = await statusOf(res);
      await askForToken(token() ? 'The token was refused. Enter another bearer token:'
        : `The server asks for a bearer token (${st.message}).`);
      continue;
    }
    if (!res.ok) throw new ApiError(await statusOf(res), res.status);
    return res;
  }
}

export async function getJson(path, opts) {
  return (await send(path, opts)).json();
}

export async function patch(path, body, type = 'application/merge-patch+json') {
  return (await send(path, { method: 'PATCH', body: JSON.stringify(body), contentType: type })).json();
}

export async function remove(path) {
  return (await send(path, { method: 'DELETE' })).json();
}

export async function post(path, body = '', contentType) {
  return (await send(path, { method: 'POST', body, contentType })).json();
}

/**
 * Reads a ?watch=true stream: one JSON event per line, handed to onEvent as they arrive.
 * Resolves when the server ends the stream.
 */
export async function watchStream(path, onEvent, signal) {
  const res = await send(path, { signal });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    // one pass over a chunk that may hold thousands of events: cut lines at a moving index, keep the rest
    let start = 0;
    let nl;
    while ((nl = buffered.indexOf('\n', start)) >= 0) {
      const line = buffered.slice(start, nl).trim();
      start = nl + 1;
      if (line) onEvent(JSON.parse(line));
    }
    buffered = buffered.slice(start);
  }
}
