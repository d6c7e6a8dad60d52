// The chat app's page (issue 47): it draws what the user's own tandem process answers over
// its JSON API, and holds no key. This first part lists the conversations and filters them by
// name or address.

const $ = (id) => document.getElementById(id);
const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });
let conversations = [];

async function api(path) {
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
  return body;
}

function row(conversation) {
  const item = document.createElement('li');
  item.dataset.address = conversation.address;
  const name = document.createElement('span');
  name.className = 'name';
  name.textContent = conversation.alias || conversation.address;
  const time = document.createElement('time');
  time.className = 'time';
  const when = new Date(conversation.lastActivity);
  time.dateTime = when.toISOString();
  time.textContent = timeFormat.format(when);
  const preview = document.createElement('span');
  preview.className = 'preview';
  preview.textContent = conversation.lastMessage?.text ?? (conversation.awaitsAnswer ? 'Wants to chat' : '');
  if (conversation.unread > 0) {
    item.classList.add('unread');
    name.textContent += ` (${conversation.unread} unread)`;
  }
  item.append(name, time, preview);
  return item;
}

function draw() {
  const words = $('search').value.trim().toLowerCase();
  const shown = conversations.filter((c) => !words || c.alias.toLowerCase().includes(words) || c.address.includes(words));
  $('conversations').replaceChildren(...shown.map(row));
  $('status').textContent = conversations.length ? '' : 'No conversations yet.';
}

async function load() {
  try {
    conversations = (await api('/api/conversations')).conversations;
    draw();
  } catch (error) {
    $('status').textContent = `Cannot load the conversations: ${error.message}`;
  }
}

$('search').addEventListener('input', draw);
load();
