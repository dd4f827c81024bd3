// What every view shares: the message area and the last clock reading.

import { ApiError } from './api.js';

/** The server clock as last read by the clock bar; listeners run after each reading. */
export const clock = { mode: '', now: '', elapsedSeconds: 0, listeners: new Set() };

/** Shows a message (a Status error's text, or a confirmation) at the top of the page for a while. */
export function message(text, kind = 'error') {
  const box = document.getElementById('messages');
  const el = document.createElement('div');
  el.className = `message ${kind}`;
  el.textContent = text;
  el.addEventListener('click', () => el.remove());
  box.append(el);
  setTimeout(() => el.remove(), kind === 'error' ? 10000 : 4000);
}

/** Runs an API action and reports its success, or its failure with the server's Status message. */
export async function act(what, fn) {
  try {
    const r = await fn();
    message(what, 'ok');
    return r;
  } catch (e) {
    message(e instanceof ApiError ? `${what} failed: ${e.message}` : `${what} failed: ${e}`);
    return undefined;
  }
}
