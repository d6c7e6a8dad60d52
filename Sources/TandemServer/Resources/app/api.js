// The server's routes, same origin, with the session cookie (BetterAuth-compatible, spec
// betterauth-api.md). Every failure is an ApiError carrying the HTTP status and the server's code.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** A request that fails with ApiError: status 0 when the server cannot be reached (or stalls). */
async function send(method, path, body, timeout = 30000) {
  const init = { method, headers: {}, credentials: 'same-origin', signal: AbortSignal.timeout(timeout) };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  let response;
  let text;
  try {
    response = await fetch(path, init);
    text = await response.text();
  } catch {
    throw new ApiError(0, 'OFFLINE', 'The server cannot be reached.');
  }
  if (!response.ok) {
    let json = null;
    try { json = text ? JSON.parse(text) : null; } catch { json = null; }
    throw new ApiError(response.status, json?.code ?? 'HTTP_' + response.status, json?.message ?? response.statusText);
  }
  return text;
}

async function call(method, path, body) {
  const text = await send(method, path, body);
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    throw new ApiError(502, 'INVALID_RESPONSE', `The server's answer to ${path} is not JSON.`);
  }
}

export const api = {
  session: () => call('GET', '/api/auth/get-session'),
  signIn: (username, password) => call('POST', '/api/auth/sign-in/username', { username, password }),
  signUp: (fields) => call('POST', '/api/auth/sign-up/email', fields),
  signOut: () => call('POST', '/api/auth/sign-out', {}),
  deviceKeys: () => call('GET', '/api/me/keys'),
  registerDeviceKey: (publicKey, signature) => call('POST', '/api/me/keys', { publicKey, signature }),
  /** `DELETE /api/me/keys/{publicKey}`: the key pushes no more nodes; what it signed stays valid. */
  revokeDeviceKey: (publicKey) => call('DELETE', `/api/me/keys/${encodeURIComponent(publicKey)}`),
  /** `POST /api/redo/nodes`: one result per node, in order. */
  pushNodes: (nodes) => call('POST', '/api/redo/nodes', { nodes }),
  /** `GET /api/redo/nodes`: the page's text, parsed strictly by the caller. */
  pullNodes: (cursor, limit) =>
    send('GET', `/api/redo/nodes?limit=${limit}` + (cursor ? `&after=${encodeURIComponent(cursor)}` : '')),
  /** `GET /api/tasks/presets`: the account's saved filters, sealed, and the key records. */
  presetRecords: (cursor, limit) =>
    call('GET', `/api/tasks/presets?limit=${limit}` + (cursor ? `&after=${encodeURIComponent(cursor)}` : '')),
  /** `PUT /api/tasks/presets`: compare-and-swap by `baseVersion`; 409 when another device wrote first. */
  putPresetRecords: (records) => call('PUT', '/api/tasks/presets', { records }),
  /** `{taskId, username, added, invited}`: `invited` when the recipient has not accepted this account before. */
  shareTask: (taskId, username) =>
    call('POST', `/api/redo/tasks/${encodeURIComponent(taskId)}/share`, { username }),
  /** `GET /api/redo/invitations`: shares waiting for this account's answer, oldest first. */
  invitations: () => call('GET', '/api/redo/invitations'),
  /** `POST /api/redo/invitations/{taskId}/accept` or `/decline`. */
  answerInvitation: (taskId, accept) =>
    call('POST', `/api/redo/invitations/${encodeURIComponent(taskId)}/${accept ? 'accept' : 'decline'}`, {}),
};
