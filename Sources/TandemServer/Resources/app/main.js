// The tasks web app (issue 28): screens, and what each control does.

import { api, ApiError } from './api.js';
import { signBytes } from './redo.js';
import { deviceKey, markBound } from './store.js';

const $ = (id) => document.getElementById(id);

function show(screen) {
  for (const id of ['auth', 'tasks']) $(id).hidden = id !== screen;
  $('sign-out').hidden = screen !== 'tasks';
}

/**
 * Binds this browser's device key to the account (`POST /api/me/keys`), proving possession by
 * signing "tandem-key-binding/v1\n" + account id + "\n" + public key, as the CLI does. Offline,
 * the binding waits for the next start.
 */
async function bindDeviceKey(session) {
  const key = await deviceKey(session.user.id);
  if (key.bound) return key;
  const message = new TextEncoder().encode(`tandem-key-binding/v1\n${session.user.id}\n${key.publicKey}`);
  try {
    await api.registerDeviceKey(key.publicKey, await signBytes(key.privateKey, message));
    await markBound(session.user.id);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 0) throw error;
  }
  return key;
}

async function showSignedIn(session) {
  $('account').textContent = `Signed in as ${session.user.username ?? session.user.name}`;
  show('tasks');
  const key = await bindDeviceKey(session);
  $('device').textContent = `This device: ${key.deviceId}`;
}

function showSignIn(message = '') {
  $('auth-error').textContent = message;
  show('auth');
}

async function start() {
  try {
    const session = await api.session();
    if (session?.user) return showSignedIn(session);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
  }
  showSignIn();
}

$('sign-in-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  try {
    await api.signIn(form.get('username'), form.get('password'));
    await start();
  } catch (error) {
    showSignIn(error.message);
  }
});

$('sign-up-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  try {
    await api.signUp({
      name: form.get('name'), email: form.get('email'), username: form.get('username'), password: form.get('password'),
    });
    await start();
  } catch (error) {
    showSignIn(error.message);
  }
});

$('sign-out').addEventListener('click', async () => {
  try { await api.signOut(); } catch { /* signed out locally either way */ }
  showSignIn();
});

start();
