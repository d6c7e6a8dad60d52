// The app's service worker: the page and its modules load offline from the last copies fetched,
// so a reload with no network opens the local log. Network first — a new server version is
// picked up at once, each file revalidated by its ETag — and the cache only when the network
// fails. The API is never cached: tasks live in IndexedDB, not here.

const CACHE = 'tandem-tasks-app';
// Every file of the app (WebAppTests keeps this list equal to the server's).
const FILES = [
  './', 'index.html', 'app.css', 'main.js', 'api.js', 'jcs.js', 'redo.js', 'store.js', 'validate.js', 'replay.js',
  'tasks.js', 'query.js', 'sync.js', 'stats.js', 'presets.js', 'preset-query.js', 'preset-book.js', 'preset-keys.js',
  'invitations.js', 'fields.js', 'sw.js',
];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin || !url.pathname.startsWith('/app/')) {
    return;
  }
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(event.request);
      if (response.ok) await cache.put(event.request, response.clone());
      return response;
    } catch (error) {
      const cached = await cache.match(event.request, { ignoreSearch: true });
      if (cached) return cached;
      throw error;
    }
  })());
});
