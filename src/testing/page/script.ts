import { LIST_KEYS } from './diff';
import { SUBSCRIPTIONS_SCRIPT } from './script-subscriptions';

/**
 * The page's script: plain browser JavaScript, no framework. It renders the `state` event
 * of /_simulator/events, and the state each `change` event makes of it, in place (keyed rows, so that a focused button survives an
 * update), batches and subscriptions included, and calls the control routes for Approve, Decline, Resend,
 * Arm and Disarm.
 * Text goes in through textContent only: request bodies never become markup.
 */
export const PAGE_SCRIPT = String.raw`'use strict';
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var announce = function (text) { $('announce').textContent = text; };
  var time = function (ms) { return ms ? new Date(ms).toLocaleTimeString() : ''; };

  function el(tag, props, children) {
    var node = document.createElement(tag);
    Object.keys(props || {}).forEach(function (key) {
      if (key === 'text') node.textContent = props[key];
      else if (key === 'className') node.className = props[key];
      else if (key === 'onclick') node.addEventListener('click', props[key]);
      else node.setAttribute(key, props[key]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }

  /**
   * Keeps one child per key: new ones created, gone ones removed, all updated, in order.
   * Keys are names from outside (a batch id may be "constructor" or "__proto__"): Maps,
   * never plain objects, so that no key meets a property of Object.prototype.
   */
  function sync(container, items, keyOf, create, update) {
    var existing = new Map();
    Array.prototype.forEach.call(container.children, function (child) { existing.set(child.dataset.key, child); });
    var wanted = new Set();
    items.forEach(function (item, index) {
      var key = String(keyOf(item));
      wanted.add(key);
      var node = existing.get(key);
      if (!node) { node = create(item); node.dataset.key = key; }
      update(node, item);
      if (container.children[index] !== node) container.insertBefore(node, container.children[index] || null);
    });
    existing.forEach(function (node, key) { if (!wanted.has(key)) container.removeChild(node); });
  }

  function post(path, method, body) {
    // Always JSON: the control routes refuse any other POST (cross-site forms send none).
    return fetch(path, {
      method: method || 'POST',
      headers: { 'content-type': 'application/json' },
      body: (method || 'POST') === 'POST' ? JSON.stringify(body || {}) : undefined,
    }).then(function (response) {
      return response.text().then(function (text) {
        var data = text ? JSON.parse(text) : {};
        if (!response.ok) throw new Error(data.message || 'HTTP ' + response.status);
        return data;
      });
    });
  }

  function money(item) { return item.amount ? item.amount + ' ' + (item.currency || '') : ''; }
  function parties(item) {
    var named = item.parties.map(function (p) { return p.role + ': ' + p.party; });
    // With several partners (createSimulator({ partners })), whose transaction it is.
    if (item.partner) named.unshift('partner: ' + item.partner);
    return named.join(', ');
  }
  function statusText(item) { return item.status + (item.reason ? ' (' + item.reason + ')' : ''); }

  function decide(item, verdict) {
    var next = document.querySelector('#pending > li:not([data-key="' + CSS.escape(item.id) + '"]) button.approve');
    post('operations/' + encodeURIComponent(item.id) + '/' + verdict).then(function (result) {
      var status = result.status || '';
      announce((verdict === 'approve' ? 'Approved ' : 'Declined ') + item.kind + ' ' + item.id + ': ' + status + '.');
      (next || $('pending-title')).focus();
    }, function (error) { announce('Could not ' + verdict + ' ' + item.id + ': ' + error.message); });
  }

  function pendingCard(item) {
    var label = item.kind + ' ' + (money(item) ? money(item) + ' ' : '') + item.id;
    return el('li', { className: 'card' }, [
      el('div', { className: 'kind' }),
      el('div', { className: 'amount' }),
      el('div', { className: 'parties' }),
      el('div', {}, [el('span', { text: 'Reference id ' }), el('code', { className: 'id', text: item.id })]),
      el('div', { className: 'actions' }, [
        el('button', { type: 'button', className: 'approve', text: 'Approve', 'aria-label': 'Approve ' + label, onclick: function () { decide(item, 'approve'); } }),
        el('button', { type: 'button', className: 'decline', text: 'Decline', 'aria-label': 'Decline ' + label, onclick: function () { decide(item, 'decline'); } }),
      ]),
    ]);
  }
  function updateCard(node, item) {
    node.querySelector('.kind').textContent = item.kind;
    node.querySelector('.amount').textContent = money(item) || statusText(item);
    node.querySelector('.parties').textContent = parties(item);
  }

  function cells(count) { var row = el('tr'); for (var i = 0; i < count; i += 1) row.appendChild(el('td')); return row; }
  function transactionRow() { return cells(6); }
  function updateTransaction(row, item) {
    var c = row.children;
    c[0].textContent = item.kind;
    c[1].textContent = statusText(item);
    c[1].className = 'status status-' + item.status;
    c[2].textContent = money(item);
    c[3].textContent = parties(item);
    if (!c[4].firstChild) c[4].appendChild(el('code', { text: item.id }));
    c[5].textContent = time(item.createdAt);
  }

  function batchBlock(batch) {
    var head = el('tr', {}, ['Key', 'Reference id', 'Amount', 'Status'].map(function (name) { return el('th', { scope: 'col', text: name }); }));
    return el('section', { className: 'batch', 'aria-label': 'Batch ' + batch.id }, [
      el('h3', { text: 'Batch ' + batch.id }),
      el('p', { className: 'counts' }),
      el('div', { className: 'scroll' }, [el('table', {}, [el('thead', {}, [head]), el('tbody')])]),
    ]);
  }
  function updateBatch(node, batch) {
    var counts = batch.counts;
    node.querySelector('.counts').textContent = batch.total + (batch.total === 1 ? ' row' : ' rows') + ' received: ' +
      counts.PENDING + ' PENDING, ' + counts.SUCCESSFUL + ' SUCCESSFUL, ' + counts.FAILED + ' FAILED';
    sync(node.querySelector('tbody'), batch.rows, function (row) { return row.referenceId; }, function () { return cells(4); }, function (row, item) {
      var c = row.children;
      c[0].textContent = item.key;
      if (!c[1].firstChild) c[1].appendChild(el('code', { text: item.referenceId }));
      c[2].textContent = money(item);
      c[3].textContent = statusText(item);
      c[3].className = 'status status-' + item.status;
    });
  }

  function callbackRow(entry) {
    var row = cells(6);
    row.appendChild(el('td', {}, [el('button', { type: 'button', text: 'Resend', 'aria-label': 'Resend callback ' + (entry.index + 1) + ' to ' + entry.url, onclick: function () {
      post('callbacks/' + entry.index + '/resend').then(function () { announce('Callback ' + (entry.index + 1) + ' sent again.'); },
        function (error) { announce('Could not resend: ' + error.message); });
    } })]));
    row.children[5].appendChild(el('details', {}, [el('summary', { text: 'Body' }), el('pre')]));
    return row;
  }
  function updateCallback(row, entry) {
    var c = row.children;
    c[0].textContent = String(entry.index + 1);
    c[1].textContent = entry.method;
    c[2].textContent = entry.url;
    c[3].textContent = entry.status !== undefined ? String(entry.status) : entry.error ? 'not delivered: ' + entry.error : 'sending…';
    c[3].className = entry.status >= 200 && entry.status < 300 ? 'http-ok' : entry.status || entry.error ? 'http-bad' : '';
    c[4].textContent = entry.latencyMs !== undefined ? entry.latencyMs + ' ms' : '';
    c[5].querySelector('pre').textContent = entry.body;
  }

  function faultItem(armed) {
    return el('li', {}, [el('span'), el('button', { type: 'button', text: 'Disarm', 'aria-label': 'Disarm fault ' + armed.id, onclick: function () {
      post('faults/' + armed.id, 'DELETE').then(function () { announce('Fault ' + armed.id + ' disarmed.'); $('faults-title').focus(); },
        function (error) { announce('Could not disarm: ' + error.message); });
    } })]);
  }
  function describeFault(fault) {
    var what = fault.kind === 'status' ? 'answer HTTP ' + fault.status : fault.kind === 'delay' ? 'delay ' + fault.ms + ' ms' : fault.kind.replace(/-/g, ' ');
    return what + ' for ' + (fault.match || 'any request');
  }

${SUBSCRIPTIONS_SCRIPT}
  function render(state) {
    $('environment').textContent = 'Served at ' + location.origin + ' · target environment ' + state.targetEnvironment + ' · currency ' + state.currency;
    var pending = state.items.filter(function (item) { return item.decidable; });
    $('pending-empty').hidden = pending.length > 0;
    sync($('pending'), pending, function (item) { return item.id; }, pendingCard, updateCard);
    renderPayers(state.payers);
    $('batches-empty').hidden = state.batches.length > 0;
    sync($('batches'), state.batches, function (batch) { return batch.id; }, batchBlock, updateBatch);
    $('transactions-empty').hidden = state.items.length > 0;
    $('transactions').hidden = state.items.length === 0;
    sync($('transactions').tBodies[0], state.items, function (item) { return item.id; }, transactionRow, updateTransaction);
    $('callbacks-empty').hidden = state.callbacks.length > 0;
    $('callbacks').hidden = state.callbacks.length === 0;
    sync($('callbacks').tBodies[0], state.callbacks.slice().reverse(), function (entry) { return entry.index; }, callbackRow, updateCallback);
    $('balances').replaceChildren.apply($('balances'), state.balances.flatMap(function (b) {
      return [el('dt', { text: b.product }), el('dd', { text: b.availableBalance + ' ' + b.currency })];
    }));
    $('users').replaceChildren.apply($('users'), state.apiUsers.map(function (user) {
      return el('li', {}, [el('code', { text: user.id }), el('span', { text: user.origin === 'configured'
        ? 'the simulator\'s own API user' : 'provisioned, callback host ' + user.providerCallbackHost + (user.hasKey ? ', has a key' : ', no key yet') })]);
    }));
    $('faults-empty').hidden = state.faults.length > 0;
    sync($('faults'), state.faults, function (armed) { return armed.id; }, faultItem, function (node, armed) {
      node.firstChild.textContent = 'Fault ' + armed.id + ': ' + describeFault(armed.fault) + ' (' + armed.remaining + ' more)';
    });
  }

  $('pending-title').tabIndex = -1;
  $('faults-title').tabIndex = -1;
  $('subscriptions-title').tabIndex = -1;
  $('arm-fault').addEventListener('submit', function (event) {
    event.preventDefault();
    var form = event.target;
    var fault = { kind: form.kind.value, times: Number(form.times.value || 1) };
    if (form.match.value.trim()) fault.match = form.match.value.trim();
    if (fault.kind === 'status') fault.status = Number(form.status.value);
    if (fault.kind === 'delay') fault.ms = Number(form.ms.value || 0);
    $('fault-error').textContent = '';
    post('faults', 'POST', fault).then(function () { announce('Fault armed.'); },
      function (error) { $('fault-error').textContent = 'Not armed: ' + error.message; });
  });

  // The whole state comes once per connection; then only what changed (diff.ts): entries
  // new or changed by key, keys gone, and where new keys go (or the whole order).
  var KEYS = ${JSON.stringify(LIST_KEYS)};
  var state;
  function applyChange(change) {
    Object.keys(change.set || {}).forEach(function (name) { state[name] = change.set[name]; });
    Object.keys(change.lists || {}).forEach(function (name) {
      var list = change.lists[name];
      var byKey = new Map();
      state[name].forEach(function (entry) { byKey.set(String(entry[KEYS[name]]), entry); });
      var order = state[name].map(function (entry) { return String(entry[KEYS[name]]); });
      var added = [];
      (list.upsert || []).forEach(function (pair) {
        if (!byKey.has(pair[0])) added.push(pair[0]);
        byKey.set(pair[0], pair[1]);
      });
      var gone = new Set(list.remove || []);
      gone.forEach(function (key) { byKey.delete(key); });
      order = order.filter(function (key) { return !gone.has(key); });
      if (list.order) order = list.order;
      else if (list.at === 'start') order = added.concat(order);
      else order = order.concat(added);
      state[name] = order.map(function (key) { return byKey.get(key); });
    });
  }

  var source = new EventSource('events');
  source.addEventListener('state', function (event) {
    $('connection').textContent = 'Live: updates as they happen.';
    state = JSON.parse(event.data);
    render(state);
  });
  source.addEventListener('change', function (event) {
    if (!state) return; // a change before the state: the reconnection's state follows
    applyChange(JSON.parse(event.data));
    render(state);
  });
  source.addEventListener('error', function () {
    $('connection').textContent = 'Disconnected: reconnecting to the simulator…';
  });
})();
`;
