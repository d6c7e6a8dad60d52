// One conversation on screen: its rows paged by the chat history's keyset pages (a cursor
// older than the oldest row shown, or newer than the newest), in the history's one order
// (blockTime, timestamp, id), each row keyed by its id so a pending row that becomes sent is
// redrawn in place. The reader's place is kept by one anchor correction per change (seed 001):
// the first row in view stays where it was when pages load or new rows arrive, unless the reader
// was at the bottom, where the newest row stays in view. At most WINDOW rows are on the page:
// scrolling far up lets the newest go (and scrolling down reads them back), so a long history
// costs the page no more memory than a short one.

import { get, post } from './api.js';

const PAGE = 50;
export const WINDOW = 300;
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'full' });

/// The history's order: blockTime, then timestamp, then the id's bytes (its text compares the same).
export function compareRows(a, b) {
  return a.blockTime - b.blockTime || a.timestamp - b.timestamp || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function kas(sompi) {
  const whole = Math.floor(sompi / 1e8);
  const fraction = String(sompi % 1e8).padStart(8, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

function dayKey(millis) {
  const day = new Date(millis);
  return `${day.getFullYear()}-${day.getMonth() + 1}-${day.getDate()}`;
}

function dayLabel(millis) {
  const key = dayKey(millis);
  if (key === dayKey(Date.now())) return 'Today';
  if (key === dayKey(Date.now() - 86_400_000)) return 'Yesterday';
  return dayFormat.format(new Date(millis));
}

const STATUS = { pending: 'Sending…', sent: 'Sent', confirmed: 'Confirmed', failed: 'Not sent' };

function bubbleText(message) {
  if (message.kind === 'payment' && message.amountSompi != null) {
    const verb = message.direction === 'out' ? 'Paid' : 'Received';
    const amount = `${kas(message.amountSompi)} KAS`;
    const head = message.verified ? `${verb} ${amount}` : `Payment of ${amount} (not yet verified)`;
    return message.text ? `${head}: ${message.text}` : head;
  }
  if (message.kind === 'handshake') return message.direction === 'out' ? 'You asked to chat' : 'Asked to chat';
  return message.text ?? message.shown;
}

export class Timeline {
  constructor({ scroller, list, older, jump }, { onRetry, onReadLive }) {
    Object.assign(this, { scroller, list, older, jump, onRetry, onReadLive });
    this.address = null;
    this.rows = [];
    this.elements = new Map();
    this.separators = new Map();
    this.unseen = new Set();
    scroller.addEventListener('scroll', () => this.scrolled(), { passive: true });
    jump.addEventListener('click', () => this.toBottom());
  }

  /// Opens `address`: its newest page, placed once at the bottom.
  async open(address) {
    this.address = address;
    this.rows = [];
    this.elements.clear();
    this.separators.clear();
    this.before = null;
    this.hasOlder = false;
    this.after = null;
    this.hasNewer = false;
    this.loading = null;
    this.unseen = new Set();
    this.jump.hidden = true;
    this.list.replaceChildren();
    this.older.textContent = 'Loading…';
    const page = await get('/api/messages', { with: address, limit: PAGE });
    if (this.address !== address) return;
    this.takePage(page);
    this.after = page.messages.at(-1)?.cursor ?? null;
    this.rows = page.messages.slice().sort(compareRows);
    for (const message of this.rows) this.elements.set(message.id, this.draw(message));
    this.relayout();
    this.scroller.scrollTop = this.scroller.scrollHeight;
    this.fill();
  }

  /// The newest page again, merged: after the event stream reconnects, what arrived meanwhile
  /// is drawn without moving the reader.
  async refresh() {
    const address = this.address;
    if (!address) return;
    const page = await get('/api/messages', { with: address, limit: PAGE });
    for (const message of page.messages) if (this.address === address) this.upsert(message);
  }

  close() {
    this.address = null;
    this.loading = null;
  }

  takePage(page) {
    this.before = page.before;
    this.hasOlder = page.hasOlder;
    this.older.textContent = page.hasOlder ? '' : this.rows.length || page.messages.length ? 'The beginning of the conversation' : 'No messages yet';
  }

  /// The reader is at the newest row: new rows keep them there.
  get pinned() {
    const { scrollHeight, scrollTop, clientHeight } = this.scroller;
    return !this.hasNewer && scrollHeight - scrollTop - clientHeight < 8;
  }

  /// Loads older pages while the view is not full or the reader is near the top, newer ones
  /// when the reader nears the bottom of a window that let them go; one request at a time.
  scrolled() {
    if (this.pinned) this.seen();
    const { scrollHeight, scrollTop, clientHeight } = this.scroller;
    if (scrollTop < 600) this.loadOlder();
    else if (this.hasNewer && scrollHeight - scrollTop - clientHeight < 600) this.loadNewer();
  }

  fill() {
    if (this.scroller.scrollHeight <= this.scroller.clientHeight + 600) this.loadOlder();
  }

  loadOlder() {
    if (!this.address || !this.hasOlder || this.loading) return this.loading;
    const address = this.address;
    this.older.textContent = 'Loading older messages…';
    this.loading = (async () => {
      try {
        const page = await get('/api/messages', { with: address, before: this.before, limit: PAGE });
        if (this.address !== address) return;
        const fresh = page.messages.filter((message) => !this.elements.has(message.id));
        this.takePage(page);
        this.change(() => this.extend(fresh, 'older'));
      } catch (error) {
        this.older.textContent = `Cannot load older messages: ${error.message}`;
      } finally {
        if (this.address === address) this.loading = null;
      }
      if (this.address === address) this.fill();
    })();
    return this.loading;
  }

  /// The next newer page after the newest row shown, when the window let the newest go.
  loadNewer() {
    if (!this.address || !this.hasNewer || this.loading) return this.loading;
    const address = this.address;
    this.loading = (async () => {
      try {
        const page = await get('/api/messages', { with: address, after: this.after, limit: PAGE });
        if (this.address !== address) return;
        const fresh = page.messages.filter((message) => !this.elements.has(message.id));
        this.hasNewer = page.hasNewer;
        this.after = page.after ?? this.after;
        this.change(() => this.extend(fresh, 'newer'));
      } catch (error) {
        this.older.textContent = `Cannot load newer messages: ${error.message}`;
      } finally {
        if (this.address === address) this.loading = null;
      }
    })();
    return this.loading;
  }

  /// Puts a page's `fresh` rows at the `older` or `newer` end and lets the other end go past
  /// WINDOW, touching only the rows that come and go (a page that raced an arrival into the
  /// middle takes the slow path: everything laid out again).
  extend(fresh, end) {
    const ordered = fresh.slice().sort(compareRows);
    for (const message of ordered) this.elements.set(message.id, this.draw(message));
    const first = this.rows[0];
    const last = this.rows.at(-1);
    const atEnd = !first || !ordered.length
      || (end === 'older' ? compareRows(ordered.at(-1), first) < 0 : compareRows(last, ordered[0]) < 0);
    if (!atEnd) {
      this.rows = this.rows.concat(ordered).sort(compareRows);
      this.trim(end === 'older' ? 'newest' : 'oldest');
      this.relayout();
      return;
    }
    const fragment = document.createDocumentFragment();
    // Older rows: the first shown row's separator, when its day goes on, moves up into the fragment.
    let day = end === 'newer' && last ? dayKey(last.blockTime) : null;
    for (const message of ordered) {
      const key = dayKey(message.blockTime);
      if (key !== day) {
        fragment.appendChild(this.separator(message.blockTime));
        day = key;
      }
      fragment.appendChild(this.elements.get(message.id));
    }
    if (end === 'older') {
      this.list.prepend(fragment);
      this.rows = ordered.concat(this.rows);
      this.trim('newest');
    } else {
      this.list.append(fragment);
      this.rows = this.rows.concat(ordered);
      this.trim('oldest');
    }
    this.tidySeparators();
  }

  /// Drops separators left without a row of their day at either end of the list.
  tidySeparators() {
    const isDay = (element) => element?.classList.contains('day');
    const drop = (element) => {
      for (const [key, separator] of this.separators) if (separator === element) this.separators.delete(key);
      element.remove();
    };
    while (isDay(this.list.lastElementChild)) drop(this.list.lastElementChild);
    while (isDay(this.list.firstElementChild) && (isDay(this.list.firstElementChild.nextElementSibling) || !this.list.firstElementChild.nextElementSibling)) {
      drop(this.list.firstElementChild);
    }
  }

  /// Lets rows go from one end until WINDOW are left; the cursors then point at the rows kept.
  trim(end) {
    const excess = this.rows.length - WINDOW;
    if (excess <= 0) return;
    const gone = end === 'newest' ? this.rows.splice(WINDOW, excess) : this.rows.splice(0, excess);
    for (const message of gone) {
      this.elements.get(message.id)?.remove();
      this.elements.delete(message.id);
    }
    if (end === 'newest') {
      this.hasNewer = true;
      this.after = this.rows.at(-1).cursor;
    } else {
      this.hasOlder = true;
      this.before = this.rows[0].cursor;
      this.older.textContent = '';
    }
  }

  /// A row arrived or changed. Rows of other conversations are not this view's; a new row past
  /// the newest shown, while the window let newer ones go, waits to be paged in.
  upsert(message, live = false) {
    if (message.conversation !== this.address) return;
    const known = this.elements.get(message.id);
    this.change(() => {
      if (known) {
        const index = this.rows.findIndex((row) => row.id === message.id);
        const moved = index >= 0 && compareRows(this.rows[index], message) !== 0;
        this.draw(message, known);
        if (index >= 0) this.rows[index] = message;
        if (moved) {
          this.rows.sort(compareRows);
          this.relayout();
        }
        return;
      }
      const last = this.rows[this.rows.length - 1];
      const newest = last && compareRows(last, message) < 0;
      // A reader away from the bottom of a full window: the row waits to be paged in.
      if (newest && !this.hasNewer && !this.pinned && this.rows.length >= WINDOW) {
        this.hasNewer = true;
        this.after = last.cursor;
      }
      if (newest && this.hasNewer) {
        if (live && message.direction === 'in') this.announce(message.id);
        return;
      }
      const element = this.draw(message);
      this.elements.set(message.id, element);
      if (!last || compareRows(last, message) < 0) {
        // The usual case: the newest row, appended without touching the others.
        if (!last || dayKey(last.blockTime) !== dayKey(message.blockTime)) this.list.append(this.separator(message.blockTime));
        this.list.append(element);
        this.rows.push(message);
      } else {
        this.rows.push(message);
        this.rows.sort(compareRows);
        this.relayout();
      }
    }, live && message.direction === 'in' ? message.id : null);
    if (live && message.direction === 'in' && this.pinned) this.onReadLive(this.address);
  }

  /// Runs a DOM change keeping the reader's place: pinned to the bottom, or the first row in
  /// view at the same height; `arrival`, a new incoming row's id, is counted as unseen when the
  /// reader is not at the bottom.
  change(apply, arrival = null) {
    const pinned = this.pinned && this.rows.length > 0;
    const anchor = pinned ? null : this.anchor();
    apply();
    if (pinned) {
      this.scroller.scrollTop = this.scroller.scrollHeight;
    } else if (anchor) {
      const element = this.elements.get(anchor.id);
      if (element) this.scroller.scrollTop = element.offsetTop - anchor.offset;
      if (arrival) this.announce(arrival);
    }
  }

  /// Counts the new row `id` the reader has not seen (each once, however often it is sent).
  announce(id) {
    this.unseen.add(id);
    this.jump.textContent = `New messages (${this.unseen.size})`;
    this.jump.hidden = false;
  }

  /// The first row whose bottom is below the top of the view, and its distance from it.
  anchor() {
    const top = this.scroller.scrollTop;
    let low = 0;
    let high = this.rows.length - 1;
    let found = null;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const element = this.elements.get(this.rows[middle].id);
      if (element.offsetTop + element.offsetHeight > top) {
        found = middle;
        high = middle - 1;
      } else {
        low = middle + 1;
      }
    }
    if (found == null) return null;
    const id = this.rows[found].id;
    return { id, offset: this.elements.get(id).offsetTop - top };
  }

  /// To the newest row: the newest page again when the window let it go.
  async toBottom() {
    if (this.hasNewer && this.address) {
      this.unseen = new Set();
      await this.open(this.address);
    }
    this.scroller.scrollTop = this.scroller.scrollHeight;
    this.seen();
  }

  seen() {
    if (this.unseen.size === 0) return;
    this.unseen = new Set();
    this.jump.hidden = true;
    if (this.address) this.onReadLive(this.address);
  }

  relayout() {
    const fragment = document.createDocumentFragment();
    const days = new Set();
    let day = null;
    for (const message of this.rows) {
      const key = dayKey(message.blockTime);
      if (key !== day) {
        fragment.appendChild(this.separator(message.blockTime));
        days.add(key);
        day = key;
      }
      fragment.appendChild(this.elements.get(message.id));
    }
    this.list.replaceChildren(fragment);
    for (const key of this.separators.keys()) if (!days.has(key)) this.separators.delete(key);
  }

  separator(millis) {
    const key = dayKey(millis);
    let element = this.separators.get(key);
    if (!element) {
      element = document.createElement('li');
      element.className = 'day';
      element.setAttribute('role', 'separator');
      element.textContent = dayLabel(millis);
      this.separators.set(key, element);
    }
    return element;
  }

  /// The row's element, new or redrawn in place.
  draw(message, element = document.createElement('li')) {
    element.dataset.messageId = message.id;
    element.dataset.direction = message.direction;
    element.className = message.kind;
    const bubble = document.createElement('p');
    bubble.className = 'bubble';
    bubble.textContent = bubbleText(message);
    const meta = document.createElement('span');
    meta.className = 'meta';
    const time = document.createElement('time');
    const when = new Date(message.blockTime);
    time.dateTime = when.toISOString();
    time.textContent = timeFormat.format(when);
    meta.append(time);
    if (message.reactions.length) {
      const reactions = document.createElement('span');
      reactions.className = 'reactions';
      const spoken = document.createElement('span');
      spoken.className = 'spoken';
      spoken.textContent = 'Reactions: ';
      reactions.append(spoken, message.reactions.join(' '));
      meta.append(reactions);
    }
    if (message.direction === 'out' && message.kind !== 'handshake') {
      const status = document.createElement('span');
      status.className = `status ${message.status}`;
      status.textContent = STATUS[message.status] ?? message.status;
      meta.append(status);
      if (message.status === 'failed') {
        const retry = document.createElement('button');
        retry.type = 'button';
        retry.textContent = 'Retry';
        retry.addEventListener('click', () => this.onRetry(message.id));
        meta.append(retry);
      }
    }
    element.replaceChildren(bubble, meta);
    return element;
  }
}

export async function retry(id) {
  return post('/api/messages/retry', { id });
}
