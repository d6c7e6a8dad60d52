// Kaspa mode's money (issue 47 item 2): the balance, payments with a memo (`tandem chat pay`),
// and the receive address with its QR code. A relay profile has none of it: nothing is shown.

import { get, post } from './api.js';
import { drawQR } from './qr.js';
import { kas } from './timeline.js';

const $ = (id) => document.getElementById(id);

export class Wallet {
  constructor({ say, failed }) {
    this.say = say;
    this.failed = failed;
    this.kaspa = false;
    this.drawnAddress = null;
  }

  start(me) {
    this.kaspa = me.kaspa;
    if (!this.kaspa) return;
    $('wallet').hidden = false;
    this.refresh();
    setInterval(() => this.refresh(), 30_000);
  }

  openConversation() {
    $('pay').hidden = !this.kaspa;
  }

  async refresh() {
    if (!this.kaspa) return;
    try {
      const wallet = await get('/api/wallet');
      if (!wallet.kaspa) return;
      const pending = wallet.pending ? `, ${wallet.pending} pending` : '';
      const spendable = wallet.spendable !== wallet.balance ? ` (${kas(wallet.spendable)} spendable now)` : '';
      $('balance').textContent = `${kas(wallet.balance)} KAS${spendable}${pending}`;
      if (this.drawnAddress !== wallet.address) {
        $('receive-address').textContent = wallet.address;
        drawQR($('receive-qr'), wallet.address);
        this.drawnAddress = wallet.address;
      }
    } catch (error) {
      $('balance').textContent = `unknown (${error.message})`;
    }
  }

  async pay(to, amount, memo) {
    const value = amount.value.trim();
    if (!/^\d+(\.\d{1,8})?$/.test(value) || Number(value) <= 0) {
      this.say('Amount: KAS above 0 with at most 8 decimals, e.g. 1.5');
      amount.focus();
      return;
    }
    this.say(`Paying ${value} KAS…`);
    try {
      const paid = await post('/api/payments', { to, amount: value, memo: memo.value });
      amount.value = '';
      memo.value = '';
      this.say(`Paid ${kas(paid.amount)} KAS (fee ${kas(paid.fee)} KAS); it counts once a block accepts it.`);
      this.refresh();
    } catch (error) {
      this.failed('Not paid')(error);
    }
  }
}
