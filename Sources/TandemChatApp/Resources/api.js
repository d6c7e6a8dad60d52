// The page's one door to the user's own tandem process: its JSON API and its event stream.
// Every answer is the library's; this file only carries requests and errors.

export class APIError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function call(path, options = {}) {
  let response;
  try {
    response = await fetch(path, { ...options, headers: { accept: 'application/json', ...options.headers } });
  } catch {
    throw new APIError('tandem app is not answering: is it still running?', 0);
  }
  let body = {};
  try {
    body = await response.json();
  } catch {
    // An answer without JSON: the status says enough.
  }
  if (!response.ok) throw new APIError(body.error ?? `HTTP ${response.status}`, response.status);
  return body;
}

export const get = (path, query = {}) => {
  const params = new URLSearchParams(Object.entries(query).filter(([, value]) => value != null));
  const text = params.toString();
  return call(text ? `${path}?${text}` : path);
};

export const post = (path, body) =>
  call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/// Follows `GET /api/events`, calling `handlers[name](data)` for each event and `onOpen` each
/// time the stream (re)connects, so the page reloads what it may have missed.
export function follow(handlers, onOpen, onError) {
  const source = new EventSource('/api/events');
  source.addEventListener('open', onOpen);
  source.addEventListener('error', onError);
  for (const [name, handle] of Object.entries(handlers)) {
    source.addEventListener(name, (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      handle(data);
    });
  }
  return source;
}
