// Tasks shared with this account by accounts it has not accepted a share from before (issue 50
// item 6): they wait here for an answer. Accepting gives the task (the next sync pulls it) and
// lets that account's later shares through without asking; declining drops it quietly.
// Titles come from someone else: they are only ever set as text.

import { api } from './api.js';

export class Invitations {
  /** `onAccepted`: called after an invitation is accepted, to sync the task in. */
  constructor({ section, list, status, onAccepted }) {
    this.section = section;
    this.list = list;
    this.status = status;
    this.onAccepted = onAccepted;
    list.addEventListener('click', (event) => this.#answer(event));
  }

  /** Asks the server again; offline, what is shown stays. */
  async refresh() {
    let answer;
    try {
      answer = await api.invitations();
    } catch {
      return;
    }
    const invitations = Array.isArray(answer?.invitations) ? answer.invitations : [];
    this.list.replaceChildren(...invitations.map((invitation) => this.#row(invitation)));
    this.section.hidden = invitations.length === 0;
  }

  clear() {
    this.list.replaceChildren();
    this.status.textContent = '';
    this.section.hidden = true;
  }

  #row(invitation) {
    const item = document.createElement('li');
    item.className = 'invitation';
    item.dataset.taskId = String(invitation.taskId);
    const title = document.createElement('span');
    title.className = 'title';
    title.textContent = typeof invitation.title === 'string' ? invitation.title : 'A task without a title';
    const from = document.createElement('span');
    from.className = 'muted';
    from.textContent =
      typeof invitation.from === 'string' ? ` from ${invitation.from}` : ' from an account without a username';
    const buttons = ['Accept', 'Decline'].map((label) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = label;
      button.dataset.answer = label.toLowerCase();
      button.className = label === 'Accept' ? '' : 'secondary';
      return button;
    });
    item.append(title, from, ...buttons);
    return item;
  }

  async #answer(event) {
    const button = event.target.closest('button[data-answer]');
    const item = button?.closest('li[data-task-id]');
    if (!item) return;
    const accept = button.dataset.answer === 'accept';
    for (const each of item.querySelectorAll('button')) each.disabled = true;
    try {
      const answer = await api.answerInvitation(item.dataset.taskId, accept);
      const from = answer.from ?? 'that account';
      this.status.textContent = accept
        ? `Accepted. Tasks ${from} shares with you from now on arrive without asking.`
        : `Declined; ${from} is not told.`;
      item.remove();
      this.section.hidden = this.list.childElementCount === 0;
      if (accept) this.onAccepted();
    } catch (error) {
      this.status.textContent = error.message;
      for (const each of item.querySelectorAll('button')) each.disabled = false;
    }
  }
}
