/**
 * The Subscriptions part of the page's script (spliced into PAGE_SCRIPT, inside its
 * function: it uses `el`, `sync`, `post` and `announce` from there). Renders each payer's
 * pre-approvals (mandates) and the charges under them, text through textContent only.
 */
export const SUBSCRIPTIONS_SCRIPT = `
  /** Simulator time (sim.clock) as a date a month-long test can read: UTC, to the second. */
  function when(ms) { return ms === undefined ? '' : new Date(ms).toISOString().slice(0, 19).replace('T', ' ') + ' UTC'; }
  function validity(seconds) {
    if (seconds === undefined) return '';
    if (seconds % 86400 === 0) return seconds / 86400 + (seconds === 86400 ? ' day' : ' days');
    if (seconds % 3600 === 0) return seconds / 3600 + (seconds === 3600 ? ' hour' : ' hours');
    return seconds + ' seconds';
  }

  function decideMandate(mandate, verdict) {
    post('operations/' + encodeURIComponent(mandate.id) + '/' + verdict).then(function (result) {
      announce((verdict === 'approve' ? 'Approved' : 'Declined') + ' pre-approval ' + mandate.id + ': ' + (result.status || '') + '.');
      $('subscriptions-title').focus();
    }, function (error) { announce('Could not ' + verdict + ' ' + mandate.id + ': ' + error.message); });
  }

  function payerBlock(payer) {
    return el('section', { className: 'payer', 'aria-label': 'Subscriptions of ' + payer.payer }, [
      el('h3', { text: payer.payer }), el('div', { className: 'mandates' }),
    ]);
  }
  function updatePayer(node, payer) {
    sync(node.querySelector('.mandates'), payer.mandates, function (m) { return m.id; }, mandateBlock, updateMandate);
  }

  function mandateBlock(mandate) {
    var label = 'pre-approval ' + mandate.id + ' from ' + mandate.partner;
    var head = el('tr', {}, ['Time', 'Amount', 'Status', 'External id', 'Message', 'Reference id'].map(function (name) {
      return el('th', { scope: 'col', text: name });
    }));
    return el('article', { className: 'mandate', 'aria-label': 'Pre-approval ' + mandate.id }, [
      el('h4', { text: 'Pre-approval from ' + mandate.partner }),
      el('p', { className: 'mandate-status' }),
      el('dl', { className: 'terms' }),
      el('div', { className: 'actions' }, [
        el('button', { type: 'button', className: 'approve', text: 'Approve', 'aria-label': 'Approve ' + label, onclick: function () { decideMandate(mandate, 'approve'); } }),
        el('button', { type: 'button', className: 'decline', text: 'Decline', 'aria-label': 'Decline ' + label, onclick: function () { decideMandate(mandate, 'decline'); } }),
      ]),
      el('p', { className: 'charges-empty empty', text: 'No charge under it yet.' }),
      el('div', { className: 'scroll' }, [el('table', { className: 'charges', 'aria-label': 'Charges under pre-approval ' + mandate.id }, [el('caption', { text: 'Charges under it, newest first' }), el('thead', {}, [head]), el('tbody')])]),
    ]);
  }
  function term(name, value) { return value ? [el('dt', { text: name }), el('dd', { text: value })] : []; }
  function updateMandate(node, m) {
    var status = node.querySelector('.mandate-status');
    status.textContent = m.status + (m.reason ? ' (' + m.reason + ')' : '');
    status.className = 'mandate-status status status-' + m.status;
    var expiry = m.expiresAt === undefined ? '' : when(m.expiresAt);
    var terms = [].concat(
      term('Message', m.payerMessage), term('Description', m.description), term('Frequency', m.frequency),
      term('Currency', m.currency), term('Validity', validity(m.validitySeconds)),
      term('Asked', when(m.createdAt)), term('Approved', when(m.approvedAt)),
      term(m.status === 'EXPIRED' ? 'Expired' : 'Expires', expiry),
      term('Renews', m.renews ? 'pre-approval ' + m.renews : ''), term('Renewed by', m.renewedBy ? 'pre-approval ' + m.renewedBy : ''),
      term('Pre-approval id', m.preApprovalId), term('Reference id', m.id));
    node.querySelector('.terms').replaceChildren.apply(node.querySelector('.terms'), terms);
    node.querySelector('.actions').hidden = !m.decidable;
    var charged = m.charges.length > 0;
    node.querySelector('.charges-empty').hidden = charged || m.status !== 'APPROVED';
    node.querySelector('.charges').hidden = !charged;
    sync(node.querySelector('.charges').tBodies[0], m.charges, function (c) { return c.id; }, function () { return cells(6); }, function (row, c) {
      var td = row.children;
      td[0].textContent = when(c.finalizedAt !== undefined ? c.finalizedAt : c.createdAt);
      td[1].textContent = money(c);
      td[2].textContent = statusText(c);
      td[2].className = 'status status-' + c.status;
      td[3].textContent = c.externalId || '';
      td[4].textContent = c.payerMessage || '';
      if (!td[5].firstChild) td[5].appendChild(el('code', { text: c.id }));
    });
  }

  function renderPayers(payers) {
    $('subscriptions-empty').hidden = payers.length > 0;
    sync($('payers'), payers, function (p) { return p.payer; }, payerBlock, updatePayer);
  }
`;
