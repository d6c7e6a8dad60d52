// The chat app's page (issue 47): it draws what the user's own tandem process answers over its
// JSON API and event stream, and holds no key. Conversations on the left (or alone, on a narrow
// screen), the open conversation on the right.

import { APIError, follow, get, post } from './api.js';
import { Timeline, retry } from './timeline.js';
import { Wallet } from './wallet.js';

const $ = (id) => document.getElementById(id);
const listTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });
const state = { me: null, conversations: [], open: null, connectedBefore: false };

const say = (text) => {
  $('notice').textContent = text;
};
const failed = (what) => (error) => say(`${what}: ${error instanceof APIError ? error.message : error}`);

const timeline = new Timeline(
  { scroller: $('timeline'), list: $('messages'), older: $('older'), jump: $('jump') },
  {
    onRetry: (id) => retry(id).catch(failed('Not sent')),
    onReadLive: (address) => markRead(address),
  },
);
const wallet = new Wallet({ say, failed });

function nameOf(conversation) {
  return conversation.name || conversation.alias || conversation.address;
}

function preview(conversation) {
  const last = conversation.lastMessage;
  if (conversation.awaitsAnswer) return 'Wants to chat';
  if (!last) return '';
  const text = last.kind === 'payment' ? last.shown : (last.text ?? last.shown);
  return last.direction === 'out' ? `You: ${text}` : text;
}

const rows = new Map();

/// The list row of `conversation`, kept per address and updated in place, so the list redraws
/// without taking the keyboard's focus away.
function row(conversation) {
  let item = rows.get(conversation.address);
  if (!item) {
    item = document.createElement('li');
    item.dataset.address = conversation.address;
    const open = document.createElement('button');
    open.type = 'button';
    open.className = 'open';
    open.id = `conversation-${rows.size}`;
    const time = document.createElement('time');
    time.className = 'time';
    const text = document.createElement('span');
    text.className = 'preview';
    const actions = document.createElement('span');
    actions.className = 'actions';
    actions.append(button('Accept', () => accept(conversation.address)), button('Ignore', () => ignore(conversation.address)));
    // A screen reader hears whose request "Accept" answers.
    for (const action of actions.children) action.setAttribute('aria-describedby', open.id);
    item.append(open, time, text, actions);
    rows.set(conversation.address, item);
  }
  // Redrawn only when what it shows changed: a list of a thousand is redrawn often.
  const signature = [
    conversation.name, conversation.alias, conversation.muted, conversation.unread, conversation.lastActivity, conversation.awaitsAnswer,
    conversation.lastMessage?.id, conversation.lastMessage?.status, conversation.address === state.open,
  ].join('|');
  if (item.dataset.signature === signature) return item;
  item.dataset.signature = signature;
  const [open, time, text, actions] = item.children;
  if (conversation.address === state.open) item.setAttribute('aria-current', 'true');
  else item.removeAttribute('aria-current');
  const name = nameOf(conversation) + (conversation.muted ? ' (muted)' : '');
  const unread = conversation.unread > 0 ? String(conversation.unread) : '';
  if (open.dataset.name !== name || open.dataset.unread !== unread) {
    open.dataset.name = name;
    open.dataset.unread = unread;
    open.replaceChildren(name);
    if (unread) {
      const badge = document.createElement('span');
      badge.className = 'badge';
      badge.textContent = unread;
      const spoken = document.createElement('span');
      spoken.className = 'spoken';
      spoken.textContent = ' unread';
      open.append(' ', badge, spoken);
    }
  }
  item.classList.toggle('unread', conversation.unread > 0);
  const when = new Date(conversation.lastActivity);
  time.dateTime = when.toISOString();
  time.textContent = listTime.format(when);
  text.textContent = preview(conversation);
  // An unanswered handshake is answered from the list, unless its conversation is open, where
  // the request bar above the messages asks instead.
  actions.hidden = !(conversation.awaitsAnswer && conversation.address !== state.open);
  return item;
}

function button(label, action) {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = label;
  element.addEventListener('click', (event) => {
    event.stopPropagation();
    action();
  });
  return element;
}

function drawList() {
  const words = $('search').value.trim().toLowerCase();
  const shown = state.conversations.filter(
    (c) => !words || c.alias.toLowerCase().includes(words) || c.address.toLowerCase().includes(words),
  );
  const list = $('conversations');
  const wanted = shown.map(row);
  // Move only what changed place: a moved row loses the focus, an unmoved one keeps it.
  wanted.forEach((item, index) => {
    if (list.children[index] !== item) list.insertBefore(item, list.children[index] ?? null);
  });
  while (list.children.length > wanted.length) list.lastElementChild.remove();
  const live = new Set(state.conversations.map((c) => c.address));
  for (const address of rows.keys()) if (!live.has(address)) rows.delete(address);
  $('status').textContent = state.conversations.length
    ? shown.length ? '' : 'No conversation matches.'
    : 'No conversations yet: start one with an address.';
  drawOpenHeader();
}

function drawOpenHeader() {
  const conversation = state.conversations.find((c) => c.address === state.open);
  if (!state.open) return;
  $('chat-title').textContent = conversation ? nameOf(conversation) : state.open;
  $('chat-address').textContent = state.open;
  $('request').hidden = !conversation?.awaitsAnswer;
  $('contact-name').placeholder = conversation?.alias ? '' : 'No name';
  if (document.activeElement !== $('contact-name')) $('contact-name').value = conversation?.alias ?? '';
  $('contact-muted').checked = conversation?.muted ?? false;
  $('contact-realtime').checked = conversation?.realtime ?? true;
}

async function loadConversations() {
  try {
    state.conversations = (await get('/api/conversations')).conversations;
    drawList();
  } catch (error) {
    $('status').textContent = `Cannot load the conversations: ${error.message}`;
  }
}

async function openConversation(address) {
  state.open = address;
  document.body.classList.add('chat-open');
  $('chat-pane').hidden = false;
  drawList();
  $('warning').hidden = true;
  wallet.openConversation(address);
  const opening = timeline.open(address).catch(failed('Cannot load the messages'));
  get('/api/warning', { with: address })
    .then(({ warning }) => {
      if (state.open !== address) return;
      $('warning').textContent = warning ? `This contact may not receive your message: ${warning}` : '';
      $('warning').hidden = !warning;
    })
    .catch(() => {});
  await opening;
  markRead(address);
  $('message').focus();
}

function closeConversation() {
  state.open = null;
  timeline.close();
  document.body.classList.remove('chat-open');
  $('chat-pane').hidden = true;
  drawList();
  $('search').focus();
}

let reading = null;
function markRead(address) {
  if (document.hidden || reading === address) return;
  reading = address;
  post('/api/read', { with: address })
    .catch(() => {})
    .finally(() => {
      reading = null;
    });
}

async function startChat(address) {
  say('Sending the handshake…');
  try {
    const started = await post('/api/chats', { address });
    say('Handshake sent: the conversation opens once they answer.');
    await loadConversations();
    await openConversation(started.address);
  } catch (error) {
    failed('Cannot start the chat')(error);
  }
}

const accept = (address) => startChat(address);

async function ignore(address) {
  try {
    await post('/api/chats/ignore', { address });
    if (state.open === address) closeConversation();
    say('Request ignored.');
  } catch (error) {
    failed('Cannot ignore it')(error);
  }
}

async function send(event) {
  event.preventDefault();
  const text = $('message').value;
  if (!text.trim() || !state.open) return;
  $('message').value = '';
  try {
    const { message } = await post('/api/messages', { to: state.open, text });
    timeline.upsert(message);
  } catch (error) {
    failed('Not sent')(error);
  }
}

async function editContact(change, done) {
  if (!state.open) return;
  try {
    await post('/api/contacts/update', { address: state.open, ...change });
    if (done) say(done);
  } catch (error) {
    failed('Cannot change the contact')(error);
  }
}

// Notifications: asked once, at the first thing the person does on the page; a new message
// from an unmuted contact shows one while the page is hidden.
function askNotificationsOnce() {
  if (!('Notification' in window) || Notification.permission !== 'default') return;
  if (localStorage.getItem('notifications-asked')) return;
  localStorage.setItem('notifications-asked', '1');
  Notification.requestPermission().catch(() => {});
}

const notified = new Set();
function notify(message) {
  if (notified.has(message.id)) return;
  notified.add(message.id);
  if (!document.hidden || !('Notification' in window) || Notification.permission !== 'granted') return;
  const conversation = state.conversations.find((c) => c.address === message.conversation);
  const title = conversation ? nameOf(conversation) : 'New message';
  const note = new Notification(title, { body: message.kind === 'payment' ? message.shown : (message.text ?? ''), tag: message.conversation });
  note.addEventListener('click', () => {
    window.focus();
    openConversation(message.conversation);
  });
}

$('search').addEventListener('input', drawList);
$('conversations').addEventListener('click', (event) => {
  const item = event.target.closest('li[data-address]');
  if (item) openConversation(item.dataset.address);
});
$('new-chat-button').addEventListener('click', () => $('new-address').focus());
$('new-chat').addEventListener('submit', (event) => {
  event.preventDefault();
  const address = $('new-address').value.trim();
  if (address) startChat(address).then(() => ($('new-address').value = ''));
});
$('add-contact').addEventListener('click', async () => {
  const address = $('new-address').value.trim();
  if (!address) return $('new-address').focus();
  try {
    await post('/api/contacts', { address });
    $('new-address').value = '';
    say('Contact added.');
  } catch (error) {
    failed('Cannot add the contact')(error);
  }
});
$('back').addEventListener('click', closeConversation);
$('accept').addEventListener('click', () => state.open && accept(state.open));
$('ignore').addEventListener('click', () => state.open && ignore(state.open));
$('composer').addEventListener('submit', send);
$('message').addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.altKey && !event.isComposing) send(event);
});
$('rename').addEventListener('submit', (event) => {
  event.preventDefault();
  editContact({ alias: $('contact-name').value }, 'Renamed.');
  $('contact-menu').open = false;
});
$('contact-muted').addEventListener('change', (event) => editContact({ muted: event.target.checked }));
$('contact-realtime').addEventListener('change', (event) => editContact({ realtime: event.target.checked }));
$('contact-delete').addEventListener('click', async () => {
  if (!state.open || !window.confirm('Delete this contact? The messages stay.')) return;
  try {
    await post('/api/contacts/delete', { address: state.open });
    closeConversation();
    say('Contact deleted.');
  } catch (error) {
    failed('Cannot delete the contact')(error);
  }
});
$('pay').addEventListener('submit', (event) => {
  event.preventDefault();
  if (state.open) wallet.pay(state.open, $('amount'), $('memo'));
});
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && state.open && !event.target.closest('details')) closeConversation();
});
document.addEventListener('pointerdown', askNotificationsOnce, { once: true });
document.addEventListener('keydown', askNotificationsOnce, { once: true });
document.addEventListener('visibilitychange', () => {
  if (!document.hidden && state.open && timeline.pinned) markRead(state.open);
});

follow(
  {
    message: ({ message, live, notify: shouldNotify }) => {
      timeline.upsert(message, live);
      if (live && shouldNotify) notify(message);
    },
    conversation: ({ address, conversation }) => {
      const others = state.conversations.filter((c) => c.address !== address);
      if (conversation) {
        // The server's order: newest activity first, then the address, descending.
        const later = (a, b) => b.lastActivity - a.lastActivity || (a.address < b.address ? 1 : a.address > b.address ? -1 : 0);
        const index = others.findIndex((c) => later(conversation, c) < 0);
        others.splice(index < 0 ? others.length : index, 0, conversation);
      }
      state.conversations = others;
      drawList();
    },
    connection: ({ state: connection, reason }) => {
      $('connection').textContent = connection === 'online' ? 'Online' : `Reconnecting (${reason ?? 'no answer'})`;
    },
    notice: ({ text }) => say(text),
  },
  () => {
    // Reconnected: what arrived while the stream was down is in the store; draw it again. (The
    // first connection needs nothing: the page has just loaded it all.)
    if (!state.connectedBefore) {
      state.connectedBefore = true;
      return;
    }
    loadConversations();
    if (state.open) timeline.refresh().catch(() => {});
    wallet.refresh();
  },
  () => {
    $('connection').textContent = 'Reconnecting to tandem app…';
  },
);

get('/api/me')
  .then((me) => {
    state.me = me;
    document.title = `Tandem chat (${me.address.slice(0, 14)}…)`;
    wallet.start(me);
  })
  .catch(failed('Cannot reach tandem app'));
loadConversations();
