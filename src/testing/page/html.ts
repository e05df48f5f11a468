/** The payer's phone page (served at GET /_simulator/); its script and style load from beside it. */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>The payer's phone: MoMo simulator</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="page.css">
<script src="page.js" defer></script>
</head>
<body>
<header>
  <h1>The payer's phone</h1>
  <p id="environment">MoMo simulator</p>
  <p id="connection" role="status">Connecting to the simulator…</p>
</header>
<main>
  <section aria-labelledby="pending-title">
    <h2 id="pending-title">Waiting for the payer</h2>
    <p id="pending-empty" class="empty">Nothing is waiting for an answer.</p>
    <ul id="pending" class="cards"></ul>
  </section>
  <section aria-labelledby="subscriptions-title">
    <h2 id="subscriptions-title">Subscriptions</h2>
    <p id="subscriptions-empty" class="empty">No pre-approval yet: the mandates a partner asks for (new Subscriptions(momo, options), collection.preApproval) show here, each payer's newest first, with the charges made under them.</p>
    <div id="payers"></div>
  </section>
  <section aria-labelledby="batches-title">
    <h2 id="batches-title">Batches</h2>
    <p id="batches-empty" class="empty">No batch yet: the rows a batch sends (new Batches(momo).run, payouts) show here.</p>
    <div id="batches"></div>
  </section>
  <section aria-labelledby="transactions-title">
    <h2 id="transactions-title">Transactions</h2>
    <p id="transactions-empty" class="empty">No transactions yet.</p>
    <div class="scroll"><table id="transactions" hidden>
      <thead><tr><th scope="col">Kind</th><th scope="col">Status</th><th scope="col">Amount</th><th scope="col">Parties</th><th scope="col">Reference id</th><th scope="col">Created</th></tr></thead>
      <tbody></tbody>
    </table></div>
  </section>
  <section aria-labelledby="callbacks-title">
    <h2 id="callbacks-title">Callbacks delivered</h2>
    <p id="callbacks-empty" class="empty">No callbacks sent yet.</p>
    <div class="scroll"><table id="callbacks" hidden>
      <thead><tr><th scope="col">#</th><th scope="col">Method</th><th scope="col">URL</th><th scope="col">HTTP status</th><th scope="col">Latency</th><th scope="col">Body</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
      <tbody></tbody>
    </table></div>
  </section>
  <div class="columns">
    <section aria-labelledby="balances-title">
      <h2 id="balances-title">Balances</h2>
      <dl id="balances"></dl>
    </section>
    <section aria-labelledby="users-title">
      <h2 id="users-title">API users</h2>
      <ul id="users" class="plain"></ul>
    </section>
  </div>
  <section aria-labelledby="faults-title">
    <h2 id="faults-title">Faults</h2>
    <p id="faults-empty" class="empty">No fault armed.</p>
    <ul id="faults" class="plain"></ul>
    <form id="arm-fault">
      <fieldset>
        <legend>Arm a fault</legend>
        <label>Requests to match <input name="match" placeholder="POST /collection/v1_0/requesttopay" size="34"></label>
        <label>Fault <select name="kind">
          <option value="status">answer with an HTTP status</option>
          <option value="drop-before-processing">drop the connection before processing</option>
          <option value="drop-after-processing">drop the connection after processing</option>
          <option value="delay">process, then hold the answer back</option>
        </select></label>
        <label>HTTP status <input name="status" type="number" min="200" max="599" value="500"></label>
        <label>Delay (ms) <input name="ms" type="number" min="0" value="5000"></label>
        <label>Times <input name="times" type="number" min="1" value="1"></label>
        <button type="submit">Arm fault</button>
      </fieldset>
      <p id="fault-error" class="error" role="alert"></p>
    </form>
  </section>
</main>
<div id="announce" class="sr-only" aria-live="polite"></div>
</body>
</html>
`;
