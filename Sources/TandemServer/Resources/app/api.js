// The server's routes, same origin, with the session cookie (BetterAuth-compatible, spec
// betterauth-api.md). Every failure is an ApiError carrying the HTTP status and the server's code.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function call(method, path, body) {
  const init = { method, headers: {}, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError(0, 'OFFLINE', 'The server cannot be reached.');
  }
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  if (!response.ok) {
    throw new ApiError(response.status, json?.code ?? 'HTTP_' + response.status, json?.message ?? response.statusText);
  }
  return json;
}

export const api = {
  session: () => call('GET', '/api/auth/get-session'),
  signIn: (username, password) => call('POST', '/api/auth/sign-in/username', { username, password }),
  signUp: (fields) => call('POST', '/api/auth/sign-up/email', fields),
  signOut: () => call('POST', '/api/auth/sign-out', {}),
  deviceKeys: () => call('GET', '/api/me/keys'),
  registerDeviceKey: (publicKey, signature) => call('POST', '/api/me/keys', { publicKey, signature }),
};
